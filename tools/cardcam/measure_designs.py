"""The committed camera model on card designs made to break it (issue 44): the generator's
seeds and the hand-made designs of tools/cardcam/decks.py, each laid in boxes and read
exactly as the bench reads the held-out deck (tools/camera_figures.py held_out(): tricks of
2 to 4 cards in 640 x 480 camera frames with scenes.trick_frame's augmentations, each box
read as the page reads it: both networks, the box and its turned copy averaged,
model.json's per-class thresholds, nothing of the deal known).

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


def measure(sess, deck, thresholds, tricks=TRICKS, seed=SEED, frame_size=FRAME):
    """The figures of one deck (scenes.load_deck's dict): its cards in `tricks` tricks,
    drawn and read as camera_figures.held_out() draws and reads them."""
    rng = np.random.default_rng(seed)
    out = {"tricks": tricks, "boxes": 0, "right": 0, "wrong": 0, "unsure": 0,
           "wrong_tricks": 0, "wrong_suit": 0, "wrong_rank": 0}
    wrong = {}
    for _ in range(tricks):
        n = int(rng.integers(2, 5))
        codes = [scenes.CARDS[i] for i in rng.choice(len(scenes.CARDS), n, replace=False)]
        frame, _ = scenes.trick_frame(rng, deck, codes, *frame_size)
        got = camera_figures.read_boxes(sess, frame, n, thresholds)
        out["boxes"] += n
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
           "tricks proposed with a wrong card | commonest wrong readings (true as read) |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        worst = ", ".join("%s as %s %d" % (*k.split(">"), v)
                          for k, v in list(r["wrong_readings"].items())[:3])
        wrong = "**%s** (suit wrong: %d)" % (pct(r["wrong"], r), r["wrong_suit"]) \
            if r["wrong"] else "**0**"
        out.append("| %s | %s | %s | %s | %s | %d | %s |" % (
            r["design"], r["about"], pct(r["right"], r), wrong, pct(r["unsure"], r),
            r["wrong_tricks"], worst or "none"))
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tricks", type=int, default=TRICKS)
    ap.add_argument("--seed", type=int, nargs="*", default=None,
                    help="generator seeds (default: decks.MEASURED)")
    ap.add_argument("--hand", nargs="*", default=None, help="hand-made designs (default all)")
    ap.add_argument("--no-npm", action="store_true", help="without the npm held-out deck")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    seeds = decks.MEASURED if args.seed is None else args.seed
    hands = sorted(decks.HAND) if args.hand is None else args.hand
    designs = [decks.design(s) for s in seeds] + [decks.hand(n) for n in hands]
    if not decks.fonts_installed():
        raise SystemExit("the designs' typefaces are not installed: cd tools/cardcam && npm ci")
    sess = camera_figures.session()
    thresholds = scenes.meta()["thresholds"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for params in ([] if args.no_npm else [None]) + designs:
            t0 = time.time()
            if params is None:
                deck = camera_figures.render_held_out(os.path.join(tmp, "npm"))
                name, kind = "npm held-out", "npm"
            else:
                deck = decks.deck(params)
                name, kind = params["name"], params["kind"]
            got = measure(sess, deck, thresholds, args.tricks)
            got.update({"design": name, "kind": kind, "about": describe(params),
                        "seconds": round(time.time() - t0, 1)})
            rows.append(got)
            print("%-13s %5d boxes  right and sure %5.1f%%  WRONG and sure %4d (%5.2f%%: "
                  "suit %d, rank %d)  unsure %5.1f%%  tricks proposed wrong %d of %d  %s  "
                  "[%s]" % (
                      name, got["boxes"], 100 * got["right"] / got["boxes"], got["wrong"],
                      100 * got["wrong"] / got["boxes"], got["wrong_suit"], got["wrong_rank"],
                      100 * got["unsure"] / got["boxes"], got["wrong_tricks"], got["tricks"],
                      " ".join("%s:%d" % kv for kv in got["wrong_readings"].items()),
                      got["about"]), flush=True)
    print(markdown(rows))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
