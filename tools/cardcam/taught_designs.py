"""Taught decks measured (issue 44): each design is taught as the page teaches it
(web/camteach.js: its 24 cards four at a time, each batch moved about in its boxes and
seen in twelve frames through the phone's camera, every network's last hidden layer
kept), then its tricks are read as measure_designs.py reads them (the same tricks; a
fifth of them with a box left empty) and the page's taught rule (web/camdeck.js gate(),
its MARGIN) is applied on top.

    .venv/bin/python tools/cardcam/taught_designs.py [--tricks N] [--seed S ...]
                     [--hand NAME ...] [--no-npm] [--own] [--json FILE]
    .venv/bin/python tools/bench.py --camera-taught      (the same, as the bench's row)

--own: the rule tried and not kept (own_rule(): the deck's own reading alone makes a box
sure), its margins set on held-out generator designs (THRESHOLD_DESIGNS), then measured.

The page's hidden layers are the inputs of each network's last layer (the flattened
features); the ONNX files answer them too once those tensors are named as outputs of the
graph, which hidden_session() does on the file's bytes (the model itself is not changed).
"""

import argparse
import json
import os
import re
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
ROOT = os.path.dirname(TOOLS)
for _p in (HERE, TOOLS):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import camera_figures  # noqa: E402
import decks  # noqa: E402
import measure_designs  # noqa: E402
import scenes  # noqa: E402
import sureness  # noqa: E402

TEACH_FRAMES = 12  # frames a batch is seen before its proposal (web/camteach.js READS)
EMPTY_SHARE = 0.2  # of the tricks read: one box left empty (a trick not yet complete)
TEACH_SEED = 44
THRESHOLD_DESIGNS = decks.THRESHOLD_SEEDS[:20]  # --own's margins are set on these
TRICKS = camera_figures.TRICKS  # the bench's 2,000, as the untaught designs


# ---- the networks' hidden layers, from the committed ONNX files ---------------------------

def _varint(buf, at):
    out = shift = 0
    while True:
        b = buf[at]
        at += 1
        out |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return out, at


def _enc_varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number, body):  # a length-delimited protobuf field
    return _enc_varint(number << 3 | 2) + _enc_varint(len(body)) + body


def with_outputs(model, names):
    """An ONNX model's bytes with more graph outputs (float tensors named names): the
    ModelProto's graph (field 7) gets a ValueInfoProto (field 12) for each, whose type is
    a float tensor (TypeProto.tensor_type.elem_type 1)."""
    out, at = bytearray(), 0
    while at < len(model):
        start = at
        key, at = _varint(model, at)
        kind = key & 7
        if kind == 0:
            _v, at = _varint(model, at)
        elif kind == 2:
            size, at = _varint(model, at)
            body, at = model[at:at + size], at + size
            if key >> 3 == 7:
                extra = b"".join(_field(12, _field(1, n.encode()) + _field(
                    2, _field(1, bytes([1 << 3, 1])))) for n in names)
                out += _field(7, bytes(body) + extra)
                continue
        elif kind in (1, 5):
            at += 8 if kind == 1 else 4
        else:
            raise ValueError("ONNX file: wire type %d" % kind)
        out += model[start:at]
    return bytes(out)


def hidden_session(path):
    """An onnxruntime session over path answering its outputs and then the input of each
    network's last layer (the tensors named ".../head.0/Flatten_output_0")."""
    import onnxruntime

    with open(path, "rb") as f:
        model = f.read()
    names = sorted(set(m.decode() for m in re.findall(
        rb"/[\w./]*head/head\.0/Flatten_output_0", model)))
    if not names:
        raise SystemExit("%s: no hidden layer found" % path)
    opts = onnxruntime.SessionOptions()
    opts.intra_op_num_threads = 1
    return onnxruntime.InferenceSession(with_outputs(model, names), opts,
                                        providers=["CPUExecutionProvider"]), len(names)


class Reader:
    """Both networks with their hidden layers: read(frame, n) answers, for its n boxes,
    the whole-card probabilities (n, K), the index reading (n, K) and the page's features
    (camdeck.js embeddings(): each network's part scaled, side by side)."""

    def __init__(self):
        self.cards, self.members = hidden_session(os.path.join(ROOT, "web", "camera",
                                                               "cards.onnx"))
        self.index, _one = hidden_session(os.path.join(ROOT, "web", "camera", "index.onnx"))
        self.corner = camera_figures.index_meta()["corner"]

    def read(self, frame, n):
        x = scenes.to_input(scenes.crops(frame, n))
        turned = np.ascontiguousarray(x[:, :, ::-1, ::-1])
        got = self.cards.run(None, {"boxes": np.concatenate([x, turned])})
        probs = (got[0][:n] + got[0][n:]) / 2
        parts = [(h[:n] + h[n:]) / 2 for h in got[1:]]  # a box's two ways up
        corners = scenes.frame_corners(frame, n, self.corner)
        ix = self.index.run(None, {"corners": np.ascontiguousarray(
            corners[:, None], np.float32) / 255})
        index = sureness.index_reading(ix[0].reshape(n, 2, -1), scenes.NONE)
        parts.append(ix[1].reshape(n, 2, -1).mean(1))  # a box's two corners
        return probs, index, parts


def embeddings(parts):
    """camdeck.js embeddings(): each part (n, d) scaled to length 1/sqrt(parts), side by
    side; also the parts' lengths."""
    scaled = [p / (np.sqrt((p * p).sum(1, keepdims=True) * len(parts)) + 1e-12) for p in parts]
    return np.concatenate(scaled, 1), [p.shape[1] for p in parts]


def unit(v):
    return v / (np.linalg.norm(v, axis=-1, keepdims=True) + 1e-12)


# ---- teaching and reading one design ------------------------------------------------------

def teach(reader, deck, seed=TEACH_SEED):
    """The deck taught as camteach.js keeps it: per card, the sum of its features over the
    frames of its batch, to length one. Returns (cards, vectors (24, D), parts' lengths)."""
    rng = np.random.default_rng(seed)
    sums, sizes = {}, None
    for at in range(0, 24, 4):
        batch = scenes.CARDS[at:at + 4]
        # the batch moved about in its boxes while the page watches, as it asks the
        # player to (fakecam.py's teaching videos): each frame a placement of its own,
        # through the phone's camera (blur, noise, JPEG)
        for _ in range(TEACH_FRAMES):
            laid, _ = scenes.trick_frame(rng, deck, batch, *measure_designs.FRAME, mild=True)
            _p, _i, parts = reader.read(scenes.camera(rng, laid), 4)
            emb, sizes = embeddings(parts)
            for code, e in zip(batch, emb):
                sums[code] = sums.get(code, 0) + e
    cards = list(scenes.CARDS)
    return cards, unit(np.stack([sums[c] for c in cards])), sizes


def groups(sizes, members):
    """The slices of a feature vector: the whole-card networks' parts, the index reader's."""
    return slice(0, sum(sizes[:members])), slice(sum(sizes[:members]), sum(sizes))


def nearest(e, taught, part=slice(None)):
    """The taught card nearest e over part of the features (cosine): (index, first, second)."""
    sims = unit(taught[:, part]) @ unit(e[part])
    order = np.argsort(-sims)
    return int(order[0]), float(sims[order[0]]), float(sims[order[1]])


def read_design(reader, deck, tricks, seed=measure_designs.SEED):
    """Every box of the design's tricks: its truth, the general rule's name, and the taught
    readings (the nearest card and both cosines) over all features, the whole-card ones and
    the index ones; the deck taught first."""
    thresholds = scenes.meta()["thresholds"]
    agree = camera_figures.index_meta()["agree"]["thresholds"]
    cards, taught, sizes = teach(reader, deck)
    whole, index_part = groups(sizes, reader.members)
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(tricks):
        n = int(rng.integers(2, 5))
        codes = [scenes.CARDS[i] for i in rng.choice(len(scenes.CARDS), n, replace=False)]
        if rng.random() < EMPTY_SHARE:
            codes[int(rng.integers(n))] = None
        frame, _ = scenes.trick_frame(rng, deck, codes, *measure_designs.FRAME)
        codes = [c or "none" for c in codes]
        probs, index, parts = reader.read(frame, n)
        names = camera_figures.sure_names(probs, frozenset(), thresholds, frozenset(),
                                          (index, agree))
        emb, _s = embeddings(parts)
        for b, code in enumerate(codes):
            row = {"trick": t, "truth": code, "general": names[b],
                   "top": scenes.CLASSES[int(probs[b].argmax())]}
            for key, part in (("all", slice(None)), ("whole", whole), ("index", index_part)):
                c, first, second = nearest(emb[b], taught, part)
                row[key] = (cards[c], first, second)
            rows.append(row)
    return rows


def page_rule(row, margin):
    """web/camdeck.js gate() for one box already read (nothing of the deal known): a card
    the general rule is sure of stays when the taught deck's nearest card over all the
    features is the same, nearer than the second by the margin; else "?"."""
    name, (card, first, second) = row["general"], row["all"]
    if name in scenes.CARDS and not (card == name and first - second >= margin):
        return "?"
    return name


def own_rule(row, whole_margin, index_margin):
    """The rule tried and not kept (docs/web.md): the deck's own reading alone may make a
    box sure that the general rule is not sure of, when the whole-card networks' nearest
    taught card and the index reader's agree, each by its margin, and the box is not read
    as empty; a card the general rule is sure of keeps the page's rule."""
    name = row["general"]
    if name != "?":
        return page_rule(row, 0.02) if name in scenes.CARDS else name
    w, i = row["whole"], row["index"]
    if w[0] == i[0] and w[1] - w[2] >= whole_margin and i[1] - i[2] >= index_margin and (
            row["top"] != "none"):
        return w[0]
    return "?"


def scored(rows, rule):
    """The figures of the boxes read (rule: a box's row -> its name): cards right and sure,
    wrong and sure, unsure; empty boxes read as a card; tricks proposed with a wrong card
    (every box that holds a card sure, one wrong); the general rule's right and sure."""
    out = {"boxes": sum(r["truth"] != "none" for r in rows), "right": 0, "wrong": 0,
           "unsure": 0, "wrong_tricks": 0, "general_right": 0, "empty": 0,
           "empty_read_card": 0}
    tricks = {}
    for r in rows:
        got = rule(r)
        if r["truth"] == "none":  # an empty box: any card read is wrong
            out["empty"] += 1
            out["empty_read_card"] += got in scenes.CARDS
            continue
        out["general_right"] += r["general"] == r["truth"]
        if got == r["truth"]:
            out["right"] += 1
        elif got in scenes.CARDS:
            out["wrong"] += 1
        else:  # "?", or read as no card: nothing proposed from the box
            out["unsure"] += 1
        tricks.setdefault(r["trick"], []).append(got != r["truth"] if got in scenes.CARDS
                                                 else None)
    out["wrong_tricks"] = sum(all(x is not None for x in v) and any(v)
                              for v in tricks.values())
    return out


def own_margins(rows):
    """own_rule()'s margins from held-out rows: for each whole-card margin (0 to 0.3), the
    lowest index margin at which no box is read wrong and sure; the pair with most boxes
    right and sure."""
    best = None
    for wm in np.arange(0.0, 0.3001, 0.01):
        lo = 0.0
        for r in rows:
            if own_rule(r, wm, -1.0) in scenes.CARDS and r["general"] == "?" and (
                    r["whole"][0] != r["truth"]):
                lo = max(lo, r["index"][1] - r["index"][2] + 0.001)
        s = scored(rows, lambda r, wm=wm, lo=lo: own_rule(r, wm, lo))
        if best is None or s["right"] > best[2]["right"]:
            best = (round(float(wm), 3), round(float(lo), 4), s)
    return best


CAMDECK = os.path.join(ROOT, "web", "camdeck.js")


def page_margin():
    """web/camdeck.js's MARGIN: the taught rule's, which the figures use."""
    with open(CAMDECK, encoding="utf-8") as f:
        return float(re.search(r"export const MARGIN = ([0-9.]+);", f.read()).group(1))


def designs(seeds, hands, npm, tmp):
    if npm:
        yield "npm held-out", camera_figures.render_held_out(os.path.join(tmp, "npm"))
    for s in seeds:
        p = decks.design(s)
        yield p["name"], decks.deck(p)
    for h in hands:
        yield h, decks.deck(decks.hand(h))


def measure_all(tricks=TRICKS, seeds=None, hands=None, npm=True, echo=print):
    """Every measured design taught and read (page_rule() at the page's margin): a dict a
    design (measure_designs.key()), and what the rows were read from."""
    seeds = decks.MEASURED if seeds is None else seeds
    hands = sorted(decks.HAND) if hands is None else hands
    if not decks.fonts_installed():
        raise SystemExit("the designs' typefaces are not installed: cd tools/cardcam && npm ci")
    reader, margin = Reader(), page_margin()
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, deck in designs(seeds, hands, npm, tmp):
            t0 = time.time()
            s = scored(read_design(reader, deck, tricks), lambda r: page_rule(r, margin))
            s.update(seconds=round(time.time() - t0, 1),
                     right_pct=100 * s["right"] / s["boxes"],
                     general_right_pct=100 * s["general_right"] / s["boxes"])
            out[measure_designs.key(name)] = s
            echo("%-13s taught: right and sure %5.1f%% (untaught %5.1f%%)  WRONG and sure %d"
                 "  tricks proposed wrong %d  empty boxes read as a card %d" % (
                     name, s["right_pct"], s["general_right_pct"], s["wrong"],
                     s["wrong_tricks"], s["empty_read_card"]))
    return out


def bench_raw(per_design, tricks=TRICKS):
    """The figures as bench.json keeps them (tools/bench.py --camera-taught)."""
    out = dict(per_design)
    out["wrong"] = sum(d["wrong"] + d["empty_read_card"] for d in per_design.values())
    out["wrong_tricks"] = sum(d["wrong_tricks"] for d in per_design.values())
    out["lowest_right_pct"] = min(d["right_pct"] for d in per_design.values())
    out["designs"] = len(per_design)
    out["tricks"] = tricks
    out["margin"] = page_margin()
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tricks", type=int, default=TRICKS)
    ap.add_argument("--seed", type=int, nargs="*", default=None)
    ap.add_argument("--hand", nargs="*", default=None)
    ap.add_argument("--no-npm", action="store_true")
    ap.add_argument("--own", action="store_true",
                    help="the rule tried and not kept: its margins and figures")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)
    if not args.own:
        out = measure_all(args.tricks, args.seed, args.hand, not args.no_npm,
                          lambda line: print(line, flush=True))
    else:
        reader, out = Reader(), {}
        with tempfile.TemporaryDirectory() as tmp:
            held = []
            for _name, deck in designs(THRESHOLD_DESIGNS, [], False, tmp):
                held += read_design(reader, deck, args.tricks)
            wm, im, s = own_margins(held)
            print("own reading's margins, from %d held-out designs: whole-card %.3f, index "
                  "%.4f: %s" % (len(THRESHOLD_DESIGNS), wm, im, s), flush=True)
            seeds = decks.MEASURED if args.seed is None else args.seed
            hands = sorted(decks.HAND) if args.hand is None else args.hand
            for name, deck in designs(seeds, hands, not args.no_npm, tmp):
                got = scored(read_design(reader, deck, args.tricks),
                             lambda r: own_rule(r, wm, im))
                out[name] = got
                print("%-13s right and sure %5.1f%% (untaught %5.1f%%)  WRONG and sure %d" % (
                    name, 100 * got["right"] / got["boxes"],
                    100 * got["general_right"] / got["boxes"], got["wrong"]), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
