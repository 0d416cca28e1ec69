"""The committed camera models on card designs made to break them (issue 44): the generator's
measured seeds and the hand-made designs of tools/cardcam/decks.py, each laid in boxes and
read exactly as the bench reads the held-out deck (tools/camera_figures.py held_out():
tricks of 2 to 4 cards in 640 x 480 camera frames with scenes.trick_frame's augmentations,
each box read as the page reads it: the whole-card networks, the box and its turned copy
averaged, model.json's per-class thresholds, and the index reader on its two corners,
whose likeliest card must be the same, at the joint rule's threshold (index.json's
"agree", joint_thresholds.py; camera_figures.read_boxes); nothing of the deal
known). tools/bench.py --camera-designs puts the figures into bench.json.

    .venv/bin/python tools/cardcam/measure_designs.py [--tricks N] [--seed S ...]
                     [--hand NAME ...] [--no-npm] [--json FILE]
    make camera-designs [TRICKS=N]

Per design it prints: boxes (cards laid), cards read right and sure, cards read wrong and
sure (the dangerous number: such a card is proposed), unsure (no card proposed from that
box: below its threshold, or read as "no card"), tricks that would be proposed with a
wrong card (every box sure, one wrong), and the commonest wrong readings; then all of it
as docs/web.md's table. Default: the MEASURED seeds, every hand-made design and, for
comparison, the npm held-out deck, 2,000 tricks each (the bench's). Needs tools/cardcam's
typefaces (cd tools/cardcam && npm ci).
"""

import argparse
import json
import os
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
for _p in (HERE, TOOLS):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import camera_figures  # noqa: E402
import decks  # noqa: E402
import scenes  # noqa: E402

TRICKS = camera_figures.TRICKS  # the bench's 2,000
SEED = camera_figures.SEED  # the bench's: the same tricks for every design
FRAME = camera_figures.PAGE_FRAME  # 640 x 480, what the page asks a phone for


def read_frames(sess, deck, tricks=TRICKS, seed=SEED, frame_size=FRAME, corner=None):
    """The tricks of one deck (scenes.load_deck's dict), drawn as camera_figures.held_out()
    draws them, and what the page reads of each frame: (codes, the whole-card networks'
    probabilities of its boxes, its boxes' corners for the index reader) a trick."""
    corner = camera_figures.index_meta()["corner"] if corner is None else corner
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(tricks):
        n = int(rng.integers(2, 5))
        codes = [scenes.CARDS[i] for i in rng.choice(len(scenes.CARDS), n, replace=False)]
        frame, _ = scenes.trick_frame(rng, deck, codes, *frame_size)
        out.append((codes, camera_figures.probabilities(sess, scenes.crops(frame, n)),
                    scenes.frame_corners(frame, n, corner)))
    return out


def cached_frames(cache, name, sess, deck, tricks, seed=SEED, frame_size=FRAME):
    """read_frames(), kept in cache/ (a folder, or None: not kept) under the design's name,
    the tricks, the seed and the whole-card model's hash: the index reader can be trained
    again and measured without drawing and reading the frames again."""
    corner = camera_figures.index_meta()["corner"]
    if cache is None:
        return read_frames(sess, deck, tricks, seed, frame_size, corner)
    path = os.path.join(cache, "%s-%d-%d-%dx%d-%s-c%g.npz" % (
        name.replace(" ", "_"), tricks, seed, *frame_size, scenes.meta()["sha256"][:16], corner))
    if os.path.exists(path):
        with np.load(path) as z:
            sizes = z["sizes"]
            codes, probs, corners = str(z["codes"]).split(), z["probs"], z["corners"]
        out, at = [], 0
        for n in sizes:
            out.append((codes[at:at + n], probs[at:at + n], corners[2 * at:2 * at + 2 * n]))
            at += n
        return out
    out = read_frames(sess, deck, tricks, seed, frame_size, corner)
    os.makedirs(cache, exist_ok=True)
    np.savez(path + ".part.npz", sizes=np.array([len(c) for c, _p, _x in out]),
             codes=" ".join(c for cs, _p, _x in out for c in cs),
             probs=np.concatenate([p for _c, p, _x in out]),
             corners=np.concatenate([x for _c, _p, x in out]))
    os.replace(path + ".part.npz", path)
    return out


def measure(sess, deck, thresholds, tricks=TRICKS, seed=SEED, frame_size=FRAME, cache=None,
            name=""):
    """The figures of one deck (scenes.load_deck's dict): its cards in `tricks` tricks,
    drawn and read as camera_figures.held_out() draws and reads them (read_boxes: the
    whole-card networks, then the index reader's agreement)."""
    index_thresholds = camera_figures.index_meta()["agree"]["thresholds"]
    out = {"tricks": tricks, "boxes": 0, "right": 0, "wrong": 0, "unsure": 0,
           "wrong_tricks": 0, "wrong_suit": 0, "wrong_rank": 0,
           "alone_right": 0, "alone_wrong": 0, "alone_wrong_tricks": 0,
           "index_right": 0, "index_none": 0}
    wrong = {}
    for codes, probs, corners in cached_frames(cache, name, sess, deck, tricks, seed,
                                               frame_size):
        index = camera_figures.index_probabilities(corners)
        got = camera_figures.sure_names(probs, frozenset(), thresholds, frozenset(),
                                        (index, index_thresholds))
        # the whole-card networks alone, as the page read before the index reader
        alone = camera_figures.sure_names(probs, frozenset(), thresholds)
        out["alone_right"] += sum(g == c for g, c in zip(alone, codes))
        out["alone_wrong"] += sum(g in scenes.CARDS and g != c for g, c in zip(alone, codes))
        out["alone_wrong_tricks"] += all(g in scenes.CARDS for g in alone) and alone != codes
        out["boxes"] += len(codes)
        # the index reader alone: which reader holds a design back (docs/web.md's table)
        best = index.argmax(1)
        for b, p, c in zip(best, index.max(1), codes):
            out["index_right"] += int(scenes.CLASSES[b] == c and p >= index_thresholds[b])
            out["index_none"] += int(b == scenes.NONE)
        for g, c in zip(got, codes):
            if g == c:
                out["right"] += 1
            elif g in scenes.CARDS:
                out["wrong"] += 1
                out["wrong_suit"] += g[1] != c[1]  # (a card may be wrong in both)
                out["wrong_rank"] += g[0] != c[0]
                wrong[c + ">" + g] = wrong.get(c + ">" + g, 0) + 1
            else:
                out["unsure"] += 1
        if all(g in scenes.CARDS for g in got) and got != codes:
            out["wrong_tricks"] += 1
    out["wrong_readings"] = dict(sorted(wrong.items(), key=lambda kv: -kv[1])[:8])
    return out


def describe(params):
    """A design in a few words, from its parameters."""
    if params is None:
        return "npm held-out deck (@younestouati/playing-cards-standard-deck)"
    ix, mid, inks = params["index"], params["middle"], params["inks"]
    suits = "German suits, " if params["suits"] == "german" else ""
    pip = {"below": "pip below", "beside": "pip beside", "none": "no pip"}[ix["pip"]]
    return "%s%s %s index (%s, %d corner%s), inks %s%s, middle %s / courts %s%s" % (
        suits, ix["size"], params["face"]["family"], pip, ix["corners"],
        "s" if ix["corners"] > 1 else "", inks["scheme"],
        " faded" if inks["faded"] else "", mid["numbers"], mid["courts"],
        ", worn" if params["wear"] else "")


def markdown(rows):
    """The figures as docs/web.md's table (a row a design)."""
    def pct(n, row):
        return "%.1f%%" % (100 * n / row["boxes"])

    out = ["| design | what it is | right and sure | **wrong and sure** | unsure | "
           "tricks proposed with a wrong card | commonest wrong readings (true as read) | "
           "whole-card networks alone: right and sure / wrong and sure | "
           "index reader alone: right at the joint rule's threshold / read as no index |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        worst = ", ".join("%s as %s %d" % (*k.split(">"), v)
                          for k, v in list(r["wrong_readings"].items())[:3])
        wrong = "**%s** (suit wrong: %d)" % (pct(r["wrong"], r), r["wrong_suit"]) \
            if r["wrong"] else "**0**"
        index = "%s / %s" % (pct(r["index_right"], r), pct(r["index_none"], r))
        out.append("| %s | %s | %s | %s | %s | %d | %s | %s / %s | %s |" % (
            r["design"], r["about"], pct(r["right"], r), wrong, pct(r["unsure"], r),
            r["wrong_tricks"], worst or "none", pct(r["alone_right"], r),
            pct(r["alone_wrong"], r), index))
    return "\n".join(out)


def key(name):
    """A design's name as bench.json's key for it (letters, digits and _ only)."""
    return name.replace("-", "_").replace(" ", "_")


def measure_all(tricks=TRICKS, seeds=None, hands=None, npm=True, echo=print, cache=None):
    """Every design's figures (a list of dicts, the npm held-out deck first when npm)."""
    seeds = decks.MEASURED if seeds is None else seeds
    hands = sorted(decks.HAND) if hands is None else hands
    designs = [decks.design(s) for s in seeds] + [decks.hand(n) for n in hands]
    if not decks.fonts_installed():
        raise SystemExit("the designs' typefaces are not installed: cd tools/cardcam && npm ci")
    sess = camera_figures.session()
    thresholds = scenes.meta()["thresholds"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for params in ([None] if npm else []) + designs:
            t0 = time.time()
            if params is None:
                deck = camera_figures.render_held_out(os.path.join(tmp, "npm"))
                name, kind = "npm held-out", "npm"
            else:
                deck = decks.deck(params)
                name, kind = params["name"], params["kind"]
            got = measure(sess, deck, thresholds, tricks, cache=cache, name=name)
            got.update({"design": name, "kind": kind, "about": describe(params),
                        "seconds": round(time.time() - t0, 1)})
            rows.append(got)
            echo("%-13s %5d boxes  right and sure %5.1f%%  WRONG and sure %4d (%5.2f%%: "
                 "suit %d, rank %d)  unsure %5.1f%%  tricks proposed wrong %d of %d  %s  "
                 "[%s]" % (
                     name, got["boxes"], 100 * got["right"] / got["boxes"], got["wrong"],
                     100 * got["wrong"] / got["boxes"], got["wrong_suit"], got["wrong_rank"],
                     100 * got["unsure"] / got["boxes"], got["wrong_tricks"], got["tricks"],
                     " ".join("%s:%d" % kv for kv in got["wrong_readings"].items()),
                     got["about"]))
    return rows


def bench_raw(rows):
    """The figures as bench.json keeps them (tools/bench.py --camera-designs): per design
    (key()), its counts and shares in percent; and over the generator seeds together."""
    out = {}
    for r in rows:
        out[key(r["design"])] = dict(
            {k: r[k] for k in ("tricks", "boxes", "right", "wrong", "unsure", "wrong_tricks",
                               "wrong_suit", "wrong_rank", "alone_wrong",
                               "alone_wrong_tricks", "index_right", "index_none")},
            right_pct=100 * r["right"] / r["boxes"], wrong_pct=100 * r["wrong"] / r["boxes"],
            unsure_pct=100 * r["unsure"] / r["boxes"],
            alone_right_pct=100 * r["alone_right"] / r["boxes"],
            alone_wrong_pct=100 * r["alone_wrong"] / r["boxes"],
            index_right_pct=100 * r["index_right"] / r["boxes"],
            index_none_pct=100 * r["index_none"] / r["boxes"], about=r["about"])
    gen = [r for r in rows if r["kind"] == "generator"]
    if gen:
        boxes = sum(r["boxes"] for r in gen)
        out["generator"] = {
            "designs": len(gen), "boxes": boxes, "tricks": sum(r["tricks"] for r in gen),
            "right_pct": 100 * sum(r["right"] for r in gen) / boxes,
            "wrong": sum(r["wrong"] for r in gen),
            "wrong_tricks": sum(r["wrong_tricks"] for r in gen),
            "alone_right_pct": 100 * sum(r["alone_right"] for r in gen) / boxes,
            "alone_wrong_pct": 100 * sum(r["alone_wrong"] for r in gen) / boxes,
            "index_right_pct": 100 * sum(r["index_right"] for r in gen) / boxes}
    out["wrong"] = sum(r["wrong"] for r in rows)
    out["wrong_tricks"] = sum(r["wrong_tricks"] for r in rows)
    out["designs"] = len(rows)
    out["tricks"] = rows[0]["tricks"] if rows else 0
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tricks", type=int, default=TRICKS)
    ap.add_argument("--seed", type=int, nargs="*", default=None,
                    help="generator seeds (default: decks.MEASURED)")
    ap.add_argument("--hand", nargs="*", default=None, help="hand-made designs (default all)")
    ap.add_argument("--no-npm", action="store_true", help="without the npm held-out deck")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    ap.add_argument("--cache", metavar="DIR",
                    help="keep each design's frames as read by the whole-card networks here")
    args = ap.parse_args(argv)
    rows = measure_all(args.tricks, args.seed, args.hand, not args.no_npm,
                       lambda line: print(line, flush=True), args.cache)
    print(markdown(rows))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
