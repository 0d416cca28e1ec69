"""The joint rule's threshold, without training anything again: the
generator's threshold seeds (decks.THRESHOLD_SEEDS, never trained on, never measured) laid
in tricks and read as the page reads them (measure_designs.read_frames: the whole-card
networks with model.json's thresholds, the index reader on the two corners), then
sureness.agreement_thresholds(): a box is sure only when the whole-card reading is sure,
the index reader's likeliest card is the same, and the index's probability for it reaches
a threshold just above the highest one among the boxes where both readers named the same
wrong card. Writes it into web/camera/index.json ("agree", with what it was set from),
and its section of web/camera/TRAINING.md (after the index reader's, replaced on each run);
web/camread.js and tools/camera_figures.py read by it. Every GERMAN_EVERY-th threshold seed
is also laid German-suited (decks.germanised) and read at that threshold: reported there
("agree"'s "set_from"'s "german"), never set from.

    .venv/bin/python tools/cardcam/joint_thresholds.py [--tricks 120] [--cache DIR]
    .venv/bin/python tools/cardcam/joint_thresholds.py --report   (only the section, from
                                                                   index.json's "agree")

Needs tools/cardcam's typefaces (cd tools/cardcam && npm ci).
"""

import argparse
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
for _p in (HERE, TOOLS):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import camera_figures  # noqa: E402
import decks  # noqa: E402
import measure_designs  # noqa: E402
import scenes  # noqa: E402
import sureness  # noqa: E402

SEED = 4401  # the tricks' seed: not the bench's (camera_figures.SEED)
# every fifth threshold seed is laid a second time German-suited (decks.germanised): read
# the same way and reported beside the threshold, not set from (docs/web.md says why)
GERMAN_EVERY = 5
INDEX_JSON = os.path.join(scenes.ROOT, "web", "camera", "index.json")
TRAINING_MD = os.path.join(scenes.ROOT, "web", "camera", "TRAINING.md")
HEADING = "## The joint rule's agreement threshold"


def report(agree):
    """The TRAINING.md section of index.json's "agree"."""
    b = agree["set_from"]
    t = agree["thresholds"][0]
    return "\n".join([
        HEADING + " (tools/cardcam/joint_thresholds.py)", "",
        "A box is sure only when the whole-card networks are sure of a card, the index",
        "reading's likeliest card is the same, and its probability reaches %.4f, one" % t,
        "threshold for every card (index.json's \"agree\"; sureness.agree, web/camread.js",
        "sureNames). It is set where the error that matters is: boxes where both readers",
        "named the same wrong card. On the generator's seeds %d to %d" % tuple(b["seeds"]),
        "(decks.THRESHOLD_SEEDS, never trained on, never measured), %d tricks a seed" % (
            b["tricks_a_seed"]),
        "(tricks' seed %d), %d boxes, the whole-card networks were sure of %d;" % (
            b["trick_seed"], b["boxes"], b["whole_sure"]),
        "the index reading's likeliest card was the same in %d of those, and wrong" % (
            b["agreed"]),
        "in %d, the surest of which the index reading gave %.6f: the threshold is" % (
            b["agreed_wrong"], b["highest_wrong"]),
        "just above it, within %.1f to %.4f. The held-out boxes are too few to trust" % (
            sureness.AGREE_BOUNDS),
        "a card without such an error with a lower one of its own.", ""] + _german_lines(b))


def _german_lines(b):
    """What the rule does on the German-suited threshold designs (none before they were
    read)."""
    g = b.get("german")
    if not g:
        return []
    return [
        "The same seeds, every %s of them (%d) drawn German-suited (decks.germanised)," % (
            _nth(GERMAN_EVERY), g["designs"]),
        "are read the same way and not set from: %d boxes, the whole-card networks sure" % (
            g["boxes"]),
        "of %d; both readers named the same wrong card in %d (the surest at %.6f)," % (
            g["whole_sure"], g["agreed_wrong"], g["highest_wrong"]),
        "and at the threshold above %d cards are read right and sure, %d wrong and" % (
            g["right_sure"], g["wrong_sure"]),
        "sure." + (" The surest of those is above the ceiling: no threshold would stop them."
                   if g["highest_wrong"] >= sureness.AGREE_BOUNDS[1] else ""),
        "German decks are to be typed (docs/web.md)." if g["wrong_sure"] else
        "None of them is read wrong and sure.", ""]


def _nth(n):
    return {2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, "%dth" % n)


def write_report(agree):
    """TRAINING.md with the joint rule's section (after the index reader's) replaced."""
    with open(TRAINING_MD, encoding="utf-8") as f:
        text = f.read()
    head = text.split(HEADING)[0].rstrip("\n") + "\n\n"
    with open(TRAINING_MD + ".part", "w", encoding="utf-8") as f:
        f.write(head + report(agree))
    os.replace(TRAINING_MD + ".part", TRAINING_MD)


def designs(german=False):
    """The threshold seeds as the generator draws them; german: every GERMAN_EVERY-th of
    them German-suited instead (a draw of decks.germanised of its own, named so)."""
    if not german:
        return [decks.design(s) for s in decks.THRESHOLD_SEEDS]
    out = []
    for s in decks.THRESHOLD_SEEDS[::GERMAN_EVERY]:
        params = decks.germanised(np.random.default_rng([SEED, s]), decks.design(s))
        params["name"] += "-german"
        out.append(params)
    return out


def held_boxes(tricks, cache, echo=print, german=False):
    """Every threshold design's boxes (designs(german)): (whole-card sure names, index
    readings, true cards)."""
    if not decks.fonts_installed():
        raise SystemExit("the designs' typefaces are not installed: cd tools/cardcam && npm ci")
    sess = camera_figures.session()
    thresholds = scenes.meta()["thresholds"]
    names, index, labels = [], [], []
    for params in designs(german):
        for codes, probs, corners in measure_designs.cached_frames(
                cache, params["name"], sess, decks.deck(params), tricks, seed=SEED):
            names += camera_figures.sure_names(probs, frozenset(), thresholds)
            index.append(camera_figures.index_probabilities(corners))
            labels += codes
        echo("%s: %d boxes" % (params["name"], len(labels)))
    return names, np.concatenate(index), labels


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tricks", type=int, default=120, help="tricks a threshold seed")
    ap.add_argument("--cache", metavar="DIR", default=os.path.join(
        scenes.ROOT, "build", "threshold-frames"), help="keep the seeds' frames as read here")
    ap.add_argument("--report", action="store_true",
                    help="only write TRAINING.md's section from index.json's threshold")
    args = ap.parse_args(argv)
    if args.report:
        with open(INDEX_JSON, encoding="utf-8") as f:
            write_report(json.load(f)["agree"])
        return
    names, index, labels = held_boxes(args.tricks, args.cache,
                                      lambda line: print(line, flush=True))
    agree, basis = sureness.agreement_thresholds(names, index, labels, scenes.CLASSES)
    sure = [n for n in names if n in scenes.CARDS]
    basis.update({"boxes": len(labels), "whole_sure": len(sure),
                  "seeds": [decks.THRESHOLD_SEEDS[0], decks.THRESHOLD_SEEDS[-1]],
                  "tricks_a_seed": args.tricks, "trick_seed": SEED})
    # the German-suited ones, read by the rule at that threshold
    names, index, labels = held_boxes(args.tricks, args.cache,
                                      lambda line: print(line, flush=True), german=True)
    _t, german = sureness.agreement_thresholds(names, index, labels, scenes.CLASSES)
    at = sureness.agree(names, index, agree, scenes.CLASSES)
    german.update({"designs": len(decks.THRESHOLD_SEEDS[::GERMAN_EVERY]), "boxes": len(labels),
                   "whole_sure": sum(n in scenes.CARDS for n in names),
                   "wrong_sure": sum(a in scenes.CARDS and a != t for a, t in zip(at, labels)),
                   "right_sure": sum(a == t for a, t in zip(at, labels))})
    basis["german"] = german
    print("agreement threshold %.4f from %r" % (agree[0], basis))
    with open(INDEX_JSON, encoding="utf-8") as f:
        meta = json.load(f)
    meta["agree"] = {"thresholds": agree, "set_from": basis}
    with open(INDEX_JSON, "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    write_report(meta["agree"])


if __name__ == "__main__":
    main()
