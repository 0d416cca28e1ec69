"""Train the camera mode's index reader on the CPU and export it (make camera-index).

    .venv-train/bin/python tools/cardcam/train_index.py --work DIR [--seed 44]
                           [--designs 400] [--boxes 60000] [--epochs 5]
                           [--foreign 12000] [--more-epochs 4]
                           [--cards build/cards] [--npm 20000] [--npm-epochs 6]
                           [--german 0.2]

The index reader (IndexNet) reads a card's corner index, its rank glyph and suit pip, from
the two corners of a box (scenes.corner_crops(): the top left, and the bottom right turned
half round), in grey levels: one of the 24 cards, or "none" (no card, a card face down, a
corner without an index, an index without a pip: its suit cannot be told by its shape).
It learns in three stages, each kept in DIR: first the training designs alone, then,
from there, those and the same designs drawn as other card systems draw them
(decks.foreign(), every corner "none"), so that a pip or a rank letter it was never shown
is not taken for the nearest card of the rules; then all of those and the npm decks the
whole-card networks learn from (train.TRAIN, as render.mjs draws them into --cards), whose
indices were drawn by other hands than the generator's (the held-out deck, train.HELD_OUT,
never).
Of the generator's designs it learns only from the training seeds (decks.TRAINING_SEEDS),
each design drawn again with its own inks per suit (any of decks.INKS, faded or not: a suit is
told by its shape, never its colour) half the time, and a fifth of them German-suited
(decks.germanised: bells, acorns, leaves and hearts, the letters O and U, read as the French
cards the rules use); its per-class thresholds are set on decks.THRESHOLD_SEEDS (as many of
them German-suited), designs it never saw, never on the training designs; the measured
seeds (decks.MEASURED) and the hand-made designs stay for measuring (make camera-designs).

It writes web/camera/index.onnx (input "corners": N x 1 x IDX_H x IDX_W grey levels in
[0, 1]; output "probs": N x 25, each corner read alone: the tools' copy), index.bin (the
page's copy for TensorFlow.js, float16, tools/cardcam/layers.py), index.json (topology,
thresholds, seeds) and the index reader's section of web/camera/TRAINING.md. A box is then
sure only when the index reading is sure and names the card the whole-card networks read
(sureness.agree(); docs/web.md, "Camera").
"""

import argparse
import hashlib
import json
import os
import sys
import time
from multiprocessing import Pool

import numpy as np
import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import decks  # noqa: E402
import layers  # noqa: E402
import scenes  # noqa: E402
import sureness  # noqa: E402
from train import HELD_OUT, TRAIN  # noqa: E402

OUT = os.path.join(scenes.ROOT, "web", "camera")
NONE = scenes.NONE
NONE_SHARE = 0.2  # boxes without a card face up
REINK = 0.5  # the share of training designs drawn again with inks of their own (decks.reinked)
GERMAN = 0.2  # the share drawn German-suited (decks.germanised): O and U with a German pip
# are a queen and a jack; with any other pip they stay another system's letters ("none")
CHUNK = 250
WIDTHS = (12, 24, 48, 64)  # the four convolutions' channels
BOUNDS = (0.8, 0.9999)  # as sureness.BOUNDS: the thresholds' floor and ceiling


def corner_labels(params, label, turned):
    """What each corner (top left, bottom right turned) of a box shows: the card, or none
    (no card; no index in that corner; an index without a pip; another card system's
    pip or rank: decks.foreign())."""
    if label == NONE or params["index"]["pip"] == "none" or "foreign" in params:
        return [NONE, NONE]
    if params["index"]["corners"] == 1:  # only the top left: the other when turned
        return [NONE, label] if turned else [label, NONE]
    return [label, label]


def corner_sample(rng, deck, params, label):
    """One box as scenes.box_sample() lays it (the cloth, a neighbour, the card with
    perspective, rotation, scale and offset, turned half round half the time, fingers,
    light, camera), read as two corners: (2, IDX_H, IDX_W) uint8 and their labels."""
    bh = int(rng.uniform(*scenes.NATIVE))
    bw = bh * scenes.IN_W // scenes.IN_H
    margin = bw // 2
    canvas = scenes.cloth(rng, bw + 2 * margin, bh + 2 * margin)
    box = (margin, margin, bw, bh)
    cx, cy = margin + bw / 2, margin + bh / 2
    turned = bool(rng.random() < 0.5)
    if rng.random() < 0.3:  # a neighbour's card beside the box
        other = deck[scenes.CARDS[rng.integers(len(scenes.CARDS))]]
        side = rng.choice([-1, 1])
        scenes.paste_card(rng, canvas, other, cx + side * bw * rng.uniform(0.85, 1.1),
                          cy + rng.uniform(-0.1, 0.1) * bh, bh * rng.uniform(0.75, 0.95),
                          rng.uniform(-0.2, 0.2))
    if label != NONE:
        card = deck[scenes.CARDS[label]]
        if turned:
            card = card.rotate(180)
        scenes.paste_card(rng, canvas, card, cx + rng.uniform(-0.1, 0.1) * bw,
                          cy + rng.uniform(-0.07, 0.07) * bh, bh * rng.uniform(0.7, 0.97),
                          rng.uniform(-0.3, 0.3))
        if rng.random() < 0.08:  # a hand laying the next card across this one
            scenes.finger(rng, canvas, box, reach=rng.uniform(0.5, 1.0))
    else:
        kind = rng.integers(5)
        if kind == 1:  # face down
            scenes.paste_card(rng, canvas, deck["back"], cx + rng.uniform(-0.1, 0.1) * bw,
                              cy + rng.uniform(-0.07, 0.07) * bh,
                              bh * rng.uniform(0.7, 0.97), rng.uniform(-0.3, 0.3))
        elif kind == 2:  # a card moving in or taken away: mostly outside the box
            angle = rng.uniform(0, 2 * np.pi)
            dist = rng.uniform(0.75, 1.1)
            scenes.paste_card(rng, canvas, deck[scenes.CARDS[rng.integers(24)]],
                              cx + np.cos(angle) * bw * dist, cy + np.sin(angle) * bh * dist,
                              bh * rng.uniform(0.7, 0.97), rng.uniform(-0.4, 0.4))
        elif kind == 3:  # a hand over the empty box
            for _ in range(int(rng.integers(1, 4))):
                scenes.finger(rng, canvas, box, reach=0.7)
    if rng.random() < 0.2:
        scenes.finger(rng, canvas, box)
    x, y, w, h = scenes.region(box, *canvas.size)
    rect = (round(x), round(y), round(x + w), round(y + h))
    crop = scenes.camera(rng, scenes.light(rng, canvas.crop(rect)))
    xs = scenes.corner_crops(crop, [(0, 0, rect[2] - rect[0], rect[3] - rect[1])])
    return xs, corner_labels(params, label, turned)


def _chunk(job):
    seeds, seed, index, n, reink, other, german = job
    rng = np.random.default_rng([seed, index])
    # the German draws from a stream of their own: the other designs stay as they were
    grng = np.random.default_rng([seed, index, 49])
    xs, ys = [], []
    per = max(1, n // len(seeds))
    for k, s in enumerate(seeds):
        params = decks.design(s)
        if reink and rng.random() < REINK:
            params = decks.reinked(rng, params)
        if grng.random() < german:
            params = decks.germanised(grng, params)
        if other:
            params = decks.foreign(rng, params)
        deck = decks.deck(params)
        for _ in range(per if k < len(seeds) - 1 else n - per * (len(seeds) - 1)):
            label = NONE if rng.random() < NONE_SHARE else int(rng.integers(24))
            x, y = corner_sample(rng, deck, params, label)
            xs.append(x)
            ys.append(y)
    return np.stack(xs), np.array(ys, np.int64)


# The npm training decks (train.TRAIN: rendered by render.mjs) show rank and pip in both
# corners; the held-out one (train.HELD_OUT) is never read here.
NPM_INDEX = {"index": {"pip": "drawn", "corners": 2}}


def _npm_chunk(job):
    folder, designs, seed, index, n = job
    rng = np.random.default_rng([seed, index])
    decks_ = [scenes.load_deck(os.path.join(folder, d)) for d in designs]
    xs, ys = [], []
    for _ in range(n):
        deck = decks_[int(rng.integers(len(decks_)))]
        label = NONE if rng.random() < NONE_SHARE else int(rng.integers(24))
        x, y = corner_sample(rng, deck, NPM_INDEX, label)
        xs.append(x)
        ys.append(y)
    return np.stack(xs), np.array(ys, np.int64)


def make_npm_set(work, folder, designs, seed, n, procs=2):
    """n boxes (2n corners) of the npm training decks in folder, made once and kept."""
    if set(designs) & {HELD_OUT}:
        raise SystemExit("the held-out deck is never trained on")
    cache = os.path.join(work, "index-npm-%s-%d-%d-%dx%d-c%g.npz" % (
        "-".join(designs), seed, n, scenes.IDX_W, scenes.IDX_H, scenes.CORNER))
    if os.path.exists(cache):
        with np.load(cache) as z:
            return z["x"], z["y"]
    began = time.time()
    jobs = [(folder, designs, seed, i, min(CHUNK, n - i)) for i in range(0, n, CHUNK)]
    with Pool(procs) as pool:
        parts = pool.map(_npm_chunk, jobs)
    xs = np.concatenate([p[0] for p in parts])
    ys = np.concatenate([p[1] for p in parts])
    np.savez(cache, x=xs, y=ys)
    with open(cache + ".seconds", "w") as f:
        f.write("%.0f\n" % (time.time() - began))
    return xs, ys


def make_set(work, name, seeds, seed, n, reink, procs=2, other=False, german=0.0):
    """n boxes (2n corners) of the designs `seeds` (other: each drawn as another card
    system draws it, decks.foreign(); german: the share drawn German-suited), made once and
    kept in work/."""
    cache = os.path.join(work, "index-%s-%d-%d-%d-%d-%dx%d-c%g%s.npz" % (
        name, seeds[0], len(seeds), seed, n, scenes.IDX_W, scenes.IDX_H, scenes.CORNER,
        "-g%g" % german if german else ""))
    if os.path.exists(cache):
        with np.load(cache) as z:
            return z["x"], z["y"]
    began = time.time()
    per_chunk = max(1, len(seeds) * CHUNK // n) if n > CHUNK else len(seeds)
    jobs = []
    for i in range(0, len(seeds), per_chunk):
        part = list(seeds[i:i + per_chunk])
        jobs.append((part, seed, i, n * len(part) // len(seeds), reink, other, german))
    with Pool(procs) as pool:
        parts = pool.map(_chunk, jobs)
    xs = np.concatenate([p[0] for p in parts])
    ys = np.concatenate([p[1] for p in parts])
    np.savez(cache, x=xs, y=ys)
    with open(cache + ".seconds", "w") as f:  # the report counts them when the set is kept
        f.write("%.0f\n" % (time.time() - began))
    return xs, ys


def set_seconds(work, pattern):
    """The seconds the kept sets took to make (make_set's .seconds files)."""
    import glob

    total = 0.0
    for path in glob.glob(os.path.join(work, pattern + ".seconds")):
        with open(path) as f:
            total += float(f.read())
    return total


class IndexNet(nn.Module):
    """Four 3x3 convolutions, each with a 2x2 pooling, on one grey corner normalised to its
    own mean and spread (a faded or a dark print alike), then one linear layer on the 2 x 3
    map. About 60,000 parameters; a few ms for a trick's corners in the page."""

    def __init__(self, classes=None, widths=WIDTHS):
        super().__init__()
        classes = classes or len(scenes.CLASSES)
        mods = []
        c_in = 1
        for c_out in widths:
            mods += [nn.Conv2d(c_in, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out),
                     nn.ReLU(inplace=True), nn.MaxPool2d(2)]
            c_in = c_out
        self.features = nn.Sequential(*mods)
        cells = (scenes.IDX_H // 16) * (scenes.IDX_W // 16)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2),
                                  nn.Linear(widths[-1] * cells, classes))

    def forward(self, x):
        return self.head(self.features(normalise(x)))


def normalise(x):
    """Each corner to its mean 0 and spread 1 (web/camera.js does the same as it fills the
    input): (x - mean) / (std + 0.02)."""
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    std = ((x - mean) ** 2).mean(dim=(1, 2, 3), keepdim=True).sqrt()
    return (x - mean) / (std + 0.02)


class Probs(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return torch.softmax(self.net(x), dim=1)


def tensor(xs):
    return torch.from_numpy(np.ascontiguousarray(xs[:, None], np.float32) / 255)


def predict(net, xs, batch=1024):
    """Each corner's probabilities: (len(xs), K)."""
    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(xs), batch):
            out.append(torch.softmax(net(tensor(xs[i:i + batch])), 1).numpy())
    return np.concatenate(out)


def box_figures(probs, card_labels, thresholds):
    """The index reading of boxes (sureness.index_reading) against the cards they hold."""
    reading = sureness.index_reading(probs.reshape(-1, 2, probs.shape[1]), NONE)
    return sureness.scores(reading, card_labels, thresholds, NONE)


def train(xs, ys, vx, vy, seed, epochs, started, log, net=None, max_lr=3e-3, widths=WIDTHS):
    """Train IndexNet (or go on training net) on corners xs, ys; vx, vy: held-out corners
    for the log."""
    torch.manual_seed(seed)
    net = net or IndexNet(widths=widths)
    opt = torch.optim.AdamW(net.parameters(), lr=max_lr, weight_decay=1e-4)
    batch = 128
    steps = epochs * (len(xs) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss()
    g = torch.Generator().manual_seed(seed)
    x_all = torch.from_numpy(xs)
    y_all = torch.from_numpy(ys)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(xs), generator=g)
        total = 0.0
        for i in range(0, len(order) - batch + 1, batch):
            idx = order[i:i + batch]
            x = x_all[idx][:, None].float() / 255
            # now and then inverted or with its contrast squeezed: prints differ
            flip = torch.rand(batch, generator=g) < 0.05
            x[flip] = 1 - x[flip]
            opt.zero_grad()
            loss = loss_fn(net(x), y_all[idx])
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * batch
        top1 = float((predict(net, vx).argmax(1) == vy).mean())
        log("epoch %d loss %.4f held-out corners top1 %.4f (%.0f s)" % (
            epoch + 1, total / len(xs), top1, time.time() - started))
    net.eval()
    return net


def thresholds_text(thresholds):
    low = BOUNDS[0]
    above = ["%s %.4f" % (c, t) for c, t in zip(scenes.CLASSES, thresholds) if t > low]
    return "%d classes at %.4f%s" % (len(thresholds) - len(above), low,
                                      "; " + ", ".join(above) if above else "")


def report(meta, figures, seconds):
    """The index reader's section of TRAINING.md (replaced on each run)."""
    f = figures
    npm_text, npm_epochs = "", ""
    if meta.get("npm_decks"):  # the third stage
        npm_text = "; then %d boxes of the npm training decks\n  (%s, as render.mjs draws them)" % (
            meta["npm_boxes"], ", ".join(meta["npm_decks"]))
        npm_epochs = ", then %d on all of those and the npm decks'" % meta["npm_epochs"]
    lines = [
        "## The index reader (tools/cardcam/train_index.py, make camera-index)",
        "",
        "A small network of its own reads each box's two corner indices (rank glyph and suit",
        "pip): the top-left corner and the bottom-right one turned half round, each %d%% of"
        % round(100 * scenes.CORNER),
        "the region's width and height, cut from the frame itself and shrunk to %d x %d grey"
        % (scenes.IDX_W, scenes.IDX_H),
        "levels (scenes.corner_crops), each normalised to its own mean and spread. Its classes:",
        "the 24 cards and \"none\" (no card, a back, a corner without an index, an index",
        "without a pip, another card system's pip or rank). A corner read as \"none\" is left",
        "out; two that show an index are joined as two pieces of evidence, their",
        "probabilities multiplied class by class and scaled to sum to one",
        "(sureness.index_reading). A box is sure only when this reading is sure and names the",
        "card the whole-card networks read (sureness.agree; docs/web.md, \"Camera\").",
        "",
        "- trained on: the deck generator's training seeds %d to %d (tools/cardcam/decks.py,"
        % (meta["train_seeds"][0], meta["train_seeds"][1]),
        "  decks.TRAINING_SEEDS), %d designs, %d%% of them drawn again with an ink of their own"
        % (meta["designs"], round(100 * REINK)),
        "  for each suit (any of decks.INKS: blue, navy, green, orange, purple, black, red,",
        "  grey, brown, gold; a fifth of those faded): a suit is told by its pip's shape;",
        "  %d%% German-suited (decks.germanised: hearts, bells, acorns and leaves in shapes of"
        % round(100 * meta["german"]),
        "  their own, never the hand-made German deck's; O and U under a German pip are the",
        "  queen and the jack); %d boxes (%d corners), a fifth without a card face up; the npm"
        % (meta["train_boxes"], 2 * meta["train_boxes"]),
        "  held-out deck and the hand-made designs never; then %d boxes more of the same"
        % meta["foreign_boxes"],
        "  designs drawn as other card systems draw them (decks.foreign: Latin and Swiss pips,",
        "  plain marks, rank letters and digits no card of the rules shows; German pips never),",
        "  all read \"none\"" + npm_text,
        "- thresholds set on: the generator's seeds %d to %d (decks.THRESHOLD_SEEDS), drawn as"
        % (meta["threshold_seeds"][0], meta["threshold_seeds"][1]),
        "  the generator draws them (%d%% German-suited), never trained on, %d boxes (%d of"
        % (round(100 * meta["german"]), f["threshold"]["boxes"],
           f["threshold_foreign"]["boxes"]),
        "  them drawn as other card systems draw them, all \"none\"): per class, just above the",
        "  surest wrong index reading of that class among them, within %.4f to %.4f;" % BOUNDS,
        "  " + thresholds_text(meta["thresholds"]),
        "- seed %d; %d epochs on the training designs, then %d on those and the other systems'"
        % (meta["seed"], meta["epochs"], meta["more_epochs"]),
        "  boxes%s;\n  %.0f s on the CPU (%d threads, data included); torch %s"
        % (npm_epochs, seconds, torch.get_num_threads(), torch.__version__.split("+")[0]),
        "- model: index.onnx, %d parameters; the page's copy index.bin, %d bytes (float16)"
        % (meta["parameters"], meta["page"]["bytes"]),
        "",
        "| set | boxes | index top-1 | cards read and sure | cards unsure | cards wrong and sure |",
        "| --- | --- | --- | --- | --- | --- |"]
    for name, label in (("train", "training designs (a sample)"),
                        ("threshold", "threshold seeds")):
        s = f[name]
        lines.append("| %s | %d | %.2f%% | %.2f%% | %.2f%% | %d |" % (
            label, s["boxes"], 100 * s["top1"], 100 * s["card_correct_sure"],
            100 * s["card_unsure"], s["card_wrong_sure"]))
    g = f["threshold_foreign"]
    lines += ["", "Of the %d threshold boxes drawn as other card systems draw them, %d were read"
              % (g["boxes"], g["none_taken_for_card_sure"]),
              "as a card, sure, by the index reading alone (%.2f%% read \"none\")."
              % (100 * g["top1"])]
    lines += ["", "These are the index reading's alone; the figures of the rule, on the",
              "measured seeds and the hand-made designs, are the bench's (make camera-designs,",
              "docs/web.md)."]
    return "\n".join(lines) + "\n"


def write_report(section, out=OUT):
    path = os.path.join(out, "TRAINING.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head = text.split("## The index reader")[0].rstrip("\n") + "\n\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + section)


def export(net, meta, out=OUT):
    onnx_path = os.path.join(out, "index.onnx")
    torch.onnx.export(Probs(net), torch.zeros(1, 1, scenes.IDX_H, scenes.IDX_W), onnx_path,
                      input_names=["corners"], output_names=["probs"], opset_version=17,
                      dynamic_axes={"corners": {0: "n"}, "probs": {0: "n"}}, dynamo=False)
    with open(onnx_path, "rb") as f:
        body = f.read()
    topology, specs, data = layers.layers_model(net, scenes.IDX_H, scenes.IDX_W, "index",
                                                channels=1)
    with open(os.path.join(out, "index.bin"), "wb") as f:
        f.write(data)
    meta["onnx"] = {"file": "index.onnx", "bytes": len(body),
                    "sha256": hashlib.sha256(body).hexdigest()}
    meta["page"] = {"weights_file": "index.bin", "bytes": len(data),
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "border": layers.input_border(net), "topology": topology,
                    "weights": specs}
    return meta


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True, help="where the boxes and the weights are kept")
    ap.add_argument("--seed", type=int, default=44)
    ap.add_argument("--designs", type=int, default=400)
    ap.add_argument("--boxes", type=int, default=60000)
    ap.add_argument("--epochs", type=int, default=5, help="the first stage's")
    ap.add_argument("--widths", default=",".join(map(str, WIDTHS)),
                    help="the four convolutions' channels")
    ap.add_argument("--foreign", type=int, default=12000,
                    help="boxes of training designs drawn as other card systems draw them")
    ap.add_argument("--more-epochs", type=int, default=4,
                    help="the second stage's: the first's net on its boxes and the foreign")
    ap.add_argument("--cards", default=os.path.join(scenes.ROOT, "build", "cards"),
                    help="the npm decks as render.mjs draws them (make camera-model)")
    ap.add_argument("--npm", type=int, default=20000,
                    help="boxes of the npm training decks (train.TRAIN), for the third stage")
    ap.add_argument("--npm-epochs", type=int, default=6,
                    help="the third stage's: the second's net on its boxes and the npm decks'")
    ap.add_argument("--german", type=float, default=GERMAN,
                    help="the share of training and threshold designs drawn German-suited")
    ap.add_argument("--out", default=OUT, help="where the model and its report go")
    ap.add_argument("--held", type=int, default=10000, help="boxes of THRESHOLD_SEEDS")
    ap.add_argument("--held-designs", type=int, default=len(decks.THRESHOLD_SEEDS))
    ap.add_argument("--held-foreign", type=int, default=2000,
                    help="boxes of THRESHOLD_SEEDS drawn as other card systems draw them")
    args = ap.parse_args()
    torch.set_num_threads(2)
    os.makedirs(args.work, exist_ok=True)
    started = time.time()

    def log(msg):
        print(msg, flush=True)

    train_seeds = list(decks.TRAINING_SEEDS)[:args.designs]
    held = list(decks.THRESHOLD_SEEDS)[:args.held_designs]
    if set(train_seeds) & (set(held) | set(decks.MEASURED)):
        raise SystemExit("a training seed is held out")
    xs, ys = make_set(args.work, "train", train_seeds, args.seed, args.boxes, True,
                      german=args.german)
    log("data: %d training boxes (%.0f s)" % (len(xs), time.time() - started))
    fx, fy = make_set(args.work, "foreign", train_seeds, args.seed + 2, args.foreign, True,
                      other=True)
    log("data: %d foreign training boxes (%.0f s)" % (len(fx), time.time() - started))
    hx, hy = make_set(args.work, "threshold", held, args.seed + 1, args.held, False,
                      german=args.german)
    gx, gy = make_set(args.work, "threshold-foreign", held, args.seed + 3, args.held_foreign,
                      False, other=True)
    log("data: %d + %d threshold boxes (%.0f s)" % (len(hx), len(gx), time.time() - started))
    if args.npm:
        nx, ny = make_npm_set(args.work, args.cards, list(TRAIN), args.seed + 6, args.npm)
        log("data: %d npm training boxes (%.0f s)" % (len(nx), time.time() - started))
        nx, ny = nx.reshape(-1, scenes.IDX_H, scenes.IDX_W), ny.reshape(-1)
    hx, hy = np.concatenate([hx, gx]), np.concatenate([hy, gy])
    xs, ys = xs.reshape(-1, scenes.IDX_H, scenes.IDX_W), ys.reshape(-1)
    fx, fy = fx.reshape(-1, scenes.IDX_H, scenes.IDX_W), fy.reshape(-1)
    hx2, hy2 = hx.reshape(-1, scenes.IDX_H, scenes.IDX_W), hy.reshape(-1)
    # the report's seconds: the sets' and the training's, whenever they were made
    took_from_cache = time.time() - started

    def stage(key, fit):
        """The net fit() trains, kept in work/ under its key (what it was trained from)."""
        nonlocal took_from_cache
        name = hashlib.sha256(repr(key).encode()).hexdigest()[:12]
        kept = os.path.join(args.work, "index-net-%s.pt" % name)
        if os.path.exists(kept):
            net = IndexNet(widths=widths)
            saved = torch.load(kept)
            net.load_state_dict(saved["state"])
            took_from_cache -= saved.get("seconds", 0.0)
            log("index net as trained before: " + kept)
            return net
        began = time.time()
        net = fit()
        torch.save({"state": net.state_dict(), "seconds": time.time() - began}, kept)
        return net

    # first the training designs alone, then those and the foreign ones, from where it was
    widths = tuple(int(w) for w in args.widths.split(","))
    first = (len(xs), len(train_seeds), args.seed, args.epochs, torch.__version__,
             scenes.IDX_W, scenes.IDX_H, scenes.CORNER)
    first += ((widths,) if widths != WIDTHS else ()) + ((("german", args.german),)
                                                        if args.german else ())
    net = stage(first, lambda: train(xs, ys, hx2, hy2, args.seed, args.epochs, started, log,
                                     widths=widths))
    if args.more_epochs:
        both_x, both_y = np.concatenate([xs, fx]), np.concatenate([ys, fy])
        net = stage(first + (len(fx), args.more_epochs), lambda: train(
            both_x, both_y, hx2, hy2, args.seed + 5, args.more_epochs, started, log, net=net,
            max_lr=1e-3))
    if args.npm and args.npm_epochs:
        # then the npm training decks beside the same boxes: real decks' index typefaces
        # and pips, which the generator's families do not cover (the held-out deck's
        # corners were mostly read "none" before)
        all_x = np.concatenate([xs, fx, nx])
        all_y = np.concatenate([ys, fy, ny])
        net = stage(first + (len(fx), args.more_epochs, len(nx), args.npm_epochs),
                    lambda: train(all_x, all_y, hx2, hy2, args.seed + 7, args.npm_epochs,
                                  started, log, net=net, max_lr=1e-3))
    layers.to_half(net, scenes.IDX_H, scenes.IDX_W, channels=1)
    # each box's card: the top-left corner's label, else the other's, else none
    def cards_of(y):
        return np.where(y[:, 0] != NONE, y[:, 0], y[:, 1])

    hp = predict(net, hx2)
    # a box's card for the thresholds is what it holds, whether or not its corners show it
    held_cards = cards_of(hy)
    reading = sureness.index_reading(hp.reshape(-1, 2, hp.shape[1]), NONE)
    thresholds = sureness.thresholds_from(reading, held_cards, BOUNDS)
    figures = {"threshold": sureness.scores(reading, held_cards, thresholds, NONE),
               "threshold_foreign": sureness.scores(reading[-len(gx):], held_cards[-len(gx):],
                                                    thresholds, NONE)}
    sample = min(len(xs) // 2, 10000)  # boxes
    tp = predict(net, xs[:2 * sample])
    figures["train"] = box_figures(tp, cards_of(ys.reshape(-1, 2)[:sample]), thresholds)
    log(json.dumps(figures, indent=1))
    log("thresholds: " + thresholds_text(thresholds))
    meta = {"classes": scenes.CLASSES, "input": [1, scenes.IDX_H, scenes.IDX_W],
            "corner": scenes.CORNER, "thresholds": thresholds, "seed": args.seed,
            "epochs": args.epochs, "more_epochs": args.more_epochs, "widths": list(widths),
            "foreign_boxes": args.foreign, "held_foreign": args.held_foreign,
            "npm_decks": list(TRAIN) if args.npm else [], "npm_boxes": args.npm,
            "npm_epochs": args.npm_epochs if args.npm else 0,
            "designs": len(train_seeds), "german": args.german,
            "train_seeds": [train_seeds[0], train_seeds[-1]],
            "threshold_seeds": [held[0], held[-1]], "train_boxes": args.boxes,
            "parameters": sum(p.numel() for p in net.parameters()),
            "figures": figures}
    meta = export(net, meta, args.out)
    with open(os.path.join(args.out, "index.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    made = sum(set_seconds(args.work, "index-*-%d-*.npz" % (args.seed + k))
               for k in (0, 1, 2, 3, 6))
    write_report(report(meta, figures, time.time() - started + made - took_from_cache),
                 args.out)
    log("wrote index.onnx, index.bin, index.json (%.0f s)" % (time.time() - started))


if __name__ == "__main__":
    main()
