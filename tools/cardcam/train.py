"""Train the camera mode's card model on the CPU and export it (make camera-model).

    .venv-train/bin/python tools/cardcam/train.py --cards DIR [--seed 66] [--train 80000]

DIR holds the decks rendered by render.mjs (DIR/<design>/<card>.png). The model learns from
the TRAIN designs only and is measured on HELD_OUT, which it never sees. It is two CardNets
(MEMBERS), each trained on its own boxes, whose probabilities are averaged. It writes
web/camera/cards.onnx (input "boxes": N x 3 x 168 x 112, RGB in [0, 1]; output "probs": N x 25,
the 24 cards then "none", the members' average: the tools' copy), the page's copy of the
same members for TensorFlow.js (web/camera/cards.bin, one member's weights after the other,
and their topologies in model.json, tools/cardcam/layers.py), web/camera/model.json
(classes, input size, thresholds) and web/camera/TRAINING.md (data, seed, figures, confusion
matrix).
"""

import argparse
import hashlib
import inspect
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

OUT = os.path.join(scenes.ROOT, "web", "camera")
TRAIN = ("letele", "heruka", "herukabf")
HELD_OUT = "younestouati"
LICENCES = {"letele": "@letele/playing-cards 0.1.0, CC0-1.0",
            "heruka": "@heruka_urgyen/react-playing-cards 0.5.0 (2color), MIT",
            "herukabf": "@heruka_urgyen/react-playing-cards 0.5.0 (2color-bf), MIT",
            "younestouati": "@younestouati/playing-cards-standard-deck 3.0.0, LGPL-3.0"}
# A box is "not sure" below its class's threshold, set by the validation boxes (training
# designs; sureness.py); the held-out design plays no part in it. A threshold is an extreme
# of the validation's readings, so the validation must hold more boxes than the bench reads
# cards (about 6,000 in 2,000 tricks): with 2,500, readings surer than any of them still
# came out wrong on the held-out deck.
VALIDATION = 10000
# The members, each by the boxes it learns from: (the share of its cards with a finger
# across the middle, the share of its nines, tens and aces with a fingertip on their pips:
# scenes.box_sample crossed and pips; the offset of its seed from --seed, for its boxes and
# its first weights). One CardNet alone was sure of a wrong reading now and then (the
# threshold then rose to 0.999 and above, and fewer boxes were sure); two that learnt from
# different boxes are seldom sure of the same wrong card, so their average's surest wrong
# reading is lower. The validation and held-out boxes have crossing fingers as well.
MEMBERS = ((0.12, 0.0, 3), (0.12, 0.3, 3))
CROSSED = max(m[0] for m in MEMBERS)
NONE_SHARE = 0.2  # the share of "no card" boxes in the data
CHUNK = 500


# Half the training boxes come from the deck generator's training seeds (decks.py: every
# element of a design varied, index typefaces from npm), most of them drawn again with an
# ink of their own for each suit (decks.reinked): on the npm decks alone the networks told
# a suit by its colour (a blue diamond was a spade, sure) and a nine by its pips (a design
# with one symbol in the middle of every card read as aces). A tenth of those designs are
# drawn as another card system draws them (decks.foreign: other pips or rank letters), and
# every box of them is "none": no card of the rules. The measured seeds, the threshold
# seeds and the hand-made designs are never trained on.
GENERATOR = {"seeds": decks.TRAINING_SEEDS, "share": 0.5, "reink": 0.75, "foreign": 0.1}
# The generator's designs never trained on, for the report: drawn as the generator draws them.
GENERATOR_HELD_OUT = {"seeds": decks.THRESHOLD_SEEDS, "share": 1.0, "reink": 0.0,
                      "foreign": 0.0}
GEN_DESIGNS = 2  # the generator designs a chunk of boxes draws (each about a second)


def _generator_decks(rng, gen):
    """GEN_DESIGNS decks of gen's seeds, each (cards, foreign)."""
    out = []
    for _ in range(GEN_DESIGNS):
        params = decks.design(int(gen["seeds"][int(rng.integers(len(gen["seeds"])))]))
        if gen["reink"] and rng.random() < gen["reink"]:
            params = decks.reinked(rng, params)
        other = bool(gen["foreign"] and rng.random() < gen["foreign"])
        if other:
            params = decks.foreign(rng, params)
        out.append((decks.deck(params), other))
    return out


def _chunk(job):
    folder, designs, seed, index, n, crossed, pips, gen = job
    npm = [scenes.load_deck(os.path.join(folder, d)) for d in designs]
    rng = np.random.default_rng([seed, index])
    labels = np.where(rng.random(n) < NONE_SHARE, scenes.NONE,
                      rng.integers(0, len(scenes.CARDS), n))
    vary = HELD_OUT not in designs  # the held-out deck is measured as it is drawn
    drawn = _generator_decks(rng, gen) if gen else []
    xs = []
    for k, y in enumerate(labels):
        if drawn and (not npm or rng.random() < gen["share"]):
            cards, other = drawn[int(rng.integers(len(drawn)))]
            # the generator draws its own courts: no other art on them
            xs.append(scenes.box_sample(rng, [cards], int(y), False, crossed, pips))
            if other:
                labels[k] = scenes.NONE
        else:
            xs.append(scenes.box_sample(rng, npm, int(y), vary, crossed, pips))
    return np.stack(xs), labels


def set_path(folder, designs, seed, n, crossed=0.0, pips=0.0, gen=None):
    more = ""
    if gen:
        more = "-g%d-%d-%g-%g-%g" % (gen["seeds"][0], len(gen["seeds"]), gen["share"],
                                      gen["reink"], gen["foreign"])
    return os.path.join(folder, "boxes-%s-%d-%d-%dx%d-%gto%g-m%g%s.npz" % (
        "-".join(designs) or "generator", seed, n, scenes.IN_W, scenes.IN_H, *scenes.NATIVE,
        scenes.MARGIN,
        ("-c%g" % crossed if crossed else "") + ("-p%g" % pips if pips else "") + more))


def make_set(folder, designs, seed, n, crossed=0.0, pips=0.0, procs=2, gen=None):
    """n boxes of the npm designs and, by gen's share, the generator's designs, made once
    per seed and kept beside the rendered cards."""
    cache = set_path(folder, designs, seed, n, crossed, pips, gen)
    if os.path.exists(cache):
        with np.load(cache) as z:
            return z["x"], z["y"]
    began = time.time()
    jobs = [(folder, designs, seed, i, min(CHUNK, n - i * CHUNK), crossed, pips, gen)
            for i in range((n + CHUNK - 1) // CHUNK)]
    with Pool(procs) as pool:
        parts = pool.map(_chunk, jobs)
    xs, ys = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    np.savez(cache, x=xs, y=ys)
    with open(cache + ".seconds", "w") as f:  # counted again when the set is loaded
        f.write("%.0f\n" % (time.time() - began))
    return xs, ys


def made_seconds(cache):
    """The seconds a kept set took to make (0 when it was not recorded)."""
    try:
        with open(cache + ".seconds") as f:
            return float(f.read())
    except OSError:
        return 0.0


class CardNet(nn.Module):
    """A 3x3 convolution of stride 2, three more with pooling, then one linear layer on the
    7 x 10 map (the corner's index stays where it is), then softmax. Small enough to train
    in minutes on two CPU cores and to run in a few ms a frame in the page."""

    def __init__(self, classes=None):
        super().__init__()
        classes = classes or len(scenes.CLASSES)
        layers = [nn.Conv2d(3, 12, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(12),
                  nn.ReLU(inplace=True)]
        c_in = 12
        for c_out in (24, 48, 96):
            layers += [nn.Conv2d(c_in, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out),
                       nn.ReLU(inplace=True), nn.MaxPool2d(2)]
            c_in = c_out
        self.features = nn.Sequential(*layers)
        cells = (scenes.IN_H // 16) * (scenes.IN_W // 16)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(96 * cells, classes))

    def forward(self, x):
        return self.head(self.features((x - 0.5) * 4))


class Probs(nn.Module):
    """The members' probabilities, averaged (the exported model)."""

    def __init__(self, nets):
        super().__init__()
        self.nets = nn.ModuleList(nets)

    def forward(self, x):
        return sum(torch.softmax(net(x), dim=1) for net in self.nets) / len(self.nets)


def tensor(xs):
    return torch.from_numpy(scenes.to_input(xs))


def predict(nets, xs, batch=512):
    """The page's reading (web/camera.js): each box read by each member as it is and turned
    half round (a card shows its index in both corners), all the probabilities averaged."""
    for net in nets:
        net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(xs), batch):
            x = tensor(xs[i:i + batch])
            total = 0
            for net in nets:
                total = total + torch.softmax(net(x), 1) + torch.softmax(net(x.flip(2, 3)), 1)
            out.append((total / (2 * len(nets))).numpy())
    return np.concatenate(out)


def scores(probs, labels, thresholds):
    return sureness.scores(probs, labels, thresholds, scenes.NONE)


def confusion(probs, labels):
    n = len(scenes.CLASSES)
    m = np.zeros((n, n), int)
    for t, p in zip(labels, probs.argmax(1)):
        m[t, p] += 1
    return m


def report(path, meta, figures, matrix, seconds):
    lines = ["# The camera model's training report",
             "",
             "Written by tools/cardcam/train.py (make camera-model); the figures are this run's.",
             "",
             "## Data",
             "",
             "Cards rendered from SVG decks on npm with resvg (tools/cardcam/render.mjs), 24 per",
             "design (9 to A, four French suits; Schnapsen's 20 are among them), laid on rendered",
             "table cloths with perspective, rotation, scale, offset, blur, sensor noise, JPEG,",
             "uneven light and colour casts, fingers and neighbouring cards partly covering, each",
             "box drawn at the size a frame gives it (the camera's blur, noise and JPEG act there)",
             "(tools/cardcam/scenes.py). Most face cards are drawn by the project",
             "(tools/cardcam/drawn.py): the corner index set in one of the deck generator's",
             "typefaces (npm @fontsource, tools/cardcam/decks.py FACES), narrow or wide, at",
             "its own size and place, the suit's pip under it, and",
             "another court's picture (any rank and suit, mirrored, recoloured, or blobs) with",
             "this suit's big pip; the others carry another court's picture of their suit, or",
             "their own recoloured or painted over. So they are read by their corner index and",
             "pips, as on a deck whose pictures the model has never seen. Boxes of the",
             "held-out design show its cards as they are drawn. A fifth of the boxes hold no",
             "card face up (the cloth, a card face down, a card moving in or taken away, a",
             "hand): the class \"none\". In training, half the boxes are turned half round (a",
             "card lies either way up); every figure below reads each box as the page does:",
             "each member reads it as it is and turned half round, all the probabilities",
             "averaged.",
             "",
             "As many boxes again come from the deck generator's training seeds %d to %d"
             % (GENERATOR["seeds"][0], GENERATOR["seeds"][-1]),
             "(tools/cardcam/decks.py: index typefaces, sizes and places, the middle of the",
             "cards, stock, borders and wear all varied), %d%% of those designs drawn again with"
             % round(100 * GENERATOR["reink"]),
             "an ink of their own for each suit (decks.reinked: a suit is told by its shape,",
             "never its colour) and %d%% drawn as another card system draws them (decks.foreign),"
             % round(100 * GENERATOR["foreign"]),
             "every box of which is \"none\". The generator's measured and threshold seeds and",
             "the hand-made designs are never trained on.",
             "",
             "- trained on: " + "; ".join(LICENCES[d] for d in TRAIN)
             + "; the deck generator's training seeds (%d%% of the boxes)"
             % round(100 * GENERATOR["share"]),
             "- held out (never seen in training): " + LICENCES[HELD_OUT],
             "- members: %d CardNets, their probabilities averaged; each trained on %d boxes"
             % (len(meta["members"]), meta["train_boxes"]),
             "  of its own (seed; share of cards with a finger across the middle; of nines,",
             "  tens and aces with a fingertip on the pips): " + "; ".join(
                 "%d, %g%%, %g%%" % (meta["seed"] + k, 100 * c, 100 * p)
                 for c, p, k in meta["members"]),
             "- validation boxes (the npm training designs): %d, held-out boxes: %d; boxes of"
             % (figures["validation"]["boxes"], figures["held_out"]["boxes"]),
             "  the generator's threshold seeds %d to %d (never trained on, as the generator"
             % (GENERATOR_HELD_OUT["seeds"][0], GENERATOR_HELD_OUT["seeds"][-1]),
             "  draws them): %d (all with fingers across %g%% of the cards)"
             % (figures["generator_held_out"]["boxes"], 100 * CROSSED),
             "- seed: %d (the members' are above); %d epochs each; %.0f s on the CPU (%d threads);"
             % (meta["seed"], meta["epochs"], seconds, torch.get_num_threads()),
             "  torch " + torch.__version__,
             "- model: %s, %d parameters, %d bytes; sha256 %s"
             % (meta["file"], meta["parameters"], meta["bytes"], meta["sha256"]),
             "- weights rounded to float16 (layers.to_half): the page's copy keeps them so, and",
             "  the ONNX model and every figure here use the same values",
             "- thresholds: a box is sure when its best class's probability (the readings'",
             "  average) reaches that class's threshold: just above the surest wrong reading",
             "  of that class among the validation boxes, kept within %.4f to %.4f;"
             % sureness.BOUNDS,
             "  " + thresholds_text(meta["thresholds"]),
             "",
             "## Figures",
             "",
             "| set | boxes | top-1 | cards read and sure | cards unsure | cards wrong and sure"
             " | no card taken for a card, sure |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, label in (("validation", "validation"), ("held_out", "held-out"),
                        ("generator_held_out", "generator, never trained on")):
        f = figures[name]
        lines.append("| %s | %d | %.2f%% | %.2f%% | %.2f%% | %d | %d |" % (
            label, f["boxes"], 100 * f["top1"], 100 * f["card_correct_sure"],
            100 * f["card_unsure"], f["card_wrong_sure"], f["none_taken_for_card_sure"]))
    lines += ["",
              "The per-trick figures over whole camera frames of the held-out design are the",
              "bench's (tools/bench.py --camera, docs/web.md).",
              "",
              "## Confusion matrix, held-out design (rows: true, columns: read)",
              "",
              "| | " + " | ".join(scenes.CLASSES) + " |",
              "| --- " * (len(scenes.CLASSES) + 1) + "|"]
    for name, row in zip(scenes.CLASSES, matrix):
        lines.append("| **%s** | " % name + " | ".join(str(v) if v else "." for v in row) + " |")
    # the index reader's section (train_index.py, a model of its own) stays as it was
    index = ""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = f.read()
        if "## The index reader" in old:
            index = "\n## The index reader" + old.split("## The index reader", 1)[1]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n" + index)


def thresholds_text(thresholds):
    """The thresholds in words: the lower bound's classes by count, the others by name."""
    low = sureness.BOUNDS[0]
    above = ["%s %.4f" % (c, t) for c, t in zip(scenes.CLASSES, thresholds) if t > low]
    return "%d classes at %.4f%s" % (len(thresholds) - len(above), low,
                                      "; " + ", ".join(above) if above else "")


def train_member(xs, ys, vx, vy, seed, epochs, started):
    """One CardNet trained on boxes xs (labels ys); vx, vy only to print its progress."""
    torch.manual_seed(seed)
    net = CardNet()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    batch = 64
    steps = epochs * (len(xs) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    # No label smoothing: it capped every probability near 0.95 and squeezed right and
    # wrong readings together under the threshold (docs/web.md, "Camera").
    loss_fn = nn.CrossEntropyLoss()
    g = torch.Generator().manual_seed(seed)
    x_all = torch.from_numpy(xs)  # uint8, N x H x W x 3: made float a batch at a time
    y_all = torch.from_numpy(ys.astype(np.int64))
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(xs), generator=g)
        total = 0.0
        for i in range(0, len(order) - batch + 1, batch):
            idx = order[i:i + batch]
            x = x_all[idx].permute(0, 3, 1, 2).float() / 255
            # Half the boxes turned half round: a card lies either way up on the table.
            turn = torch.rand(batch, generator=g) < 0.5
            x[turn] = x[turn].flip(2, 3)
            opt.zero_grad()
            loss = loss_fn(net(x), y_all[idx])
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * batch
        val = scores(predict([net], vx), vy, [0.5] * len(scenes.CLASSES))
        print("epoch %d loss %.3f val top1 %.4f (%.0f s)" % (
            epoch + 1, total / len(xs), val["top1"], time.time() - started), flush=True)
    net.eval()
    return net


def trained_member(args, vx, vy, seed, crossed, pips):
    """A member and the seconds its boxes and training took. Its weights are kept beside
    the rendered cards (make camera-model starts without them), named by all that made
    them, so scoring and export can be changed and run again without training again."""
    made = set_path(args.cards, TRAIN, seed, args.train, crossed, pips, GENERATOR)
    key = hashlib.sha256(repr((os.path.basename(made), seed, args.epochs, torch.__version__,
                               inspect.getsource(CardNet), inspect.getsource(train_member))
                              ).encode()).hexdigest()[:16]
    kept = os.path.join(args.cards, "member-%s.pt" % key)
    if os.path.exists(kept):
        saved = torch.load(kept)
        net = CardNet()
        net.load_state_dict(saved["state"])
        net.eval()
        print("member (seed %d, crossed %g, pips %g) as trained before: %s" % (
            seed, crossed, pips, os.path.basename(kept)), flush=True)
        return net, saved["seconds"]
    began = time.time()
    had = os.path.exists(made)
    xs, ys = make_set(args.cards, TRAIN, seed, args.train, crossed, pips, gen=GENERATOR)
    print("data: %d train boxes (seed %d, crossed %g, pips %g) in %.0f s" % (
        len(xs), seed, crossed, pips, time.time() - began), flush=True)
    net = train_member(xs, ys, vx, vy, seed, args.epochs, began)
    # a set made by an earlier run counts the seconds it took then
    took = time.time() - began + (made_seconds(made) if had else 0.0)
    torch.save({"state": net.state_dict(), "seconds": took}, kept + ".part")
    os.replace(kept + ".part", kept)
    return net, took


def export(nets, out, meta, figures, matrix, seconds):
    """cards.onnx (the members' average), the page's copy (cards.bin and the topologies),
    model.json and TRAINING.md."""
    os.makedirs(out, exist_ok=True)
    onnx_path = os.path.join(out, "cards.onnx")
    torch.onnx.export(Probs(nets), torch.zeros(1, 3, scenes.IN_H, scenes.IN_W), onnx_path,
                      input_names=["boxes"], output_names=["probs"], opset_version=17,
                      dynamic_axes={"boxes": {0: "n"}, "probs": {0: "n"}}, dynamo=False)
    with open(onnx_path, "rb") as f:
        body = f.read()
    members = []
    data = b""
    for k, net in enumerate(nets):
        topology, specs, weights = layers.layers_model(net, scenes.IN_H, scenes.IN_W,
                                                       "cards%d" % (k + 1))
        members.append({"bytes": len(weights), "topology": topology, "weights": specs})
        data += weights
    with open(os.path.join(out, "cards.bin"), "wb") as f:
        f.write(data)
    meta = dict(meta, file="cards.onnx", classes=scenes.CLASSES,
                input=[3, scenes.IN_H, scenes.IN_W], margin=scenes.MARGIN,
                parameters=sum(p.numel() for net in nets for p in net.parameters()),
                bytes=len(body), sha256=hashlib.sha256(body).hexdigest(),
                # The page's copy (tools/cardcam/layers.py): TensorFlow.js layers models, one
                # a member, their weights one after the other in weights_file; the input
                # N x H x W x 3 scaled as (x - 0.5) * 4, each box inside a border of that
                # many zeros; the page averages their outputs.
                page={"weights_file": "cards.bin", "bytes": len(data),
                      "sha256": hashlib.sha256(data).hexdigest(),
                      "border": layers.input_border(nets[0]), "members": members})
    with open(os.path.join(out, "model.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    report(os.path.join(out, "TRAINING.md"), meta, figures, matrix, seconds)
    print("wrote %s (%d bytes)" % (onnx_path, len(body)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", required=True)
    ap.add_argument("--seed", type=int, default=66)
    ap.add_argument("--train", type=int, default=80000)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    torch.set_num_threads(2)
    started = time.time()
    vx, vy = make_set(args.cards, TRAIN, args.seed + 1, VALIDATION, CROSSED)
    hx, hy = make_set(args.cards, (HELD_OUT,), args.seed + 2, 3000, CROSSED)
    gx, gy = make_set(args.cards, (), args.seed + 2, 3000, CROSSED, gen=GENERATOR_HELD_OUT)
    nets = []
    seconds = time.time() - started
    for crossed, pips, offset in MEMBERS:
        if offset in (1, 2):  # the validation's and the held-out boxes' seeds
            raise SystemExit("a member's seed offset may not be 1 or 2")
        seed = args.seed + offset
        net, took = trained_member(args, vx, vy, seed, crossed, pips)
        nets.append(net)
        seconds += took
    # The page's copy holds the weights as float16 (half the bytes): from here on the
    # members are that copy, so the thresholds and the figures are the page's.
    for net in nets:
        layers.to_half(net, scenes.IN_H, scenes.IN_W)
    vp = predict(nets, vx)
    thresholds = sureness.thresholds_from(vp, vy)
    figures = {"validation": scores(vp, vy, thresholds)}
    hp = predict(nets, hx)
    figures["held_out"] = scores(hp, hy, thresholds)
    figures["generator_held_out"] = scores(predict(nets, gx), gy, thresholds)
    print(json.dumps(figures, indent=1))
    print("thresholds: " + thresholds_text(thresholds))
    why = sureness.refusal(figures["validation"])
    if why:  # the members stay kept beside the cards, the committed model untouched
        raise SystemExit("not exported: " + why)
    meta = {"thresholds": thresholds, "seed": args.seed, "epochs": args.epochs,
            "members": [list(m) for m in MEMBERS], "train_designs": list(TRAIN),
            "held_out_design": HELD_OUT, "train_boxes": args.train,
            "generator": {"seeds": [GENERATOR["seeds"][0], GENERATOR["seeds"][-1]],
                          "share": GENERATOR["share"], "reink": GENERATOR["reink"],
                          "foreign": GENERATOR["foreign"]}}
    export(nets, args.out, meta, figures, confusion(hp, hy), seconds)


if __name__ == "__main__":
    main()
