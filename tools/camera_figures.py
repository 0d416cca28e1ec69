"""Figures of camera mode (issue 27): the committed model on the held-out card design, and
a deal played by camera in headless Chromium with a fake camera.

    .venv/bin/python tools/camera_figures.py [--tricks N] [--json] [--shot]
                    (--shot: also docs/img/camera/camera-390x844.png, docs/web.md's picture)
    .venv/bin/python tools/bench.py --camera        (the same, as bench rows)

  held-out figures   N rendered tricks (2 to 4 cards, every one a camera frame of the design
                     the model never saw in training, with the training's augmentations),
                     read as the page reads them, one frame each: cards read right and sure
                     (goal 99.5%), tricks read right, every card sure (goal 99%), tricks that
                     would be proposed with a wrong card (every card sure, one wrong: goal 0);
                     in frames of 320 x 240 (a low-resolution camera's) and again of
                     640 x 480 (what the page asks a phone's camera for, and the fake
                     camera's)
  deal by camera     a two-player deal with trump and a marriage played in Chromium from a
                     .y4m of the held-out design, CPU throttled x4: frame to proposal p95
                     (goal 300 ms), frames analysed per second, bytes loaded when camera mode
                     turns on (runtime and model: goal 3 MB) and on the first visit without
                     it (goal 1.5 MB), the player's presses for the deal by camera (goal 12)
                     and typed, and whether the match equals the same deal typed.
  keys, camera on    key to frame as a player types the same deal with camera mode on, and
                     with it off, CPU throttled x4.
"""

import json
import os
import subprocess
import sys
import tempfile
import threading

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for _p in (HERE, os.path.join(HERE, "cardcam"), os.path.join(ROOT, "firmware")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import scenes  # noqa: E402
import sureness  # noqa: E402

TRICKS = 2000
SEED = 2027
DEAL_SEED = 3  # keyseq.random_match("mariage", 3): trump, a marriage, ten tricks, no close
THROTTLE = 4
FRAME = (320, 240)  # a low-resolution camera's frames (four boxes are then 68 px wide)
PAGE_FRAME = (640, 480)  # the size the page asks a phone's camera for (web/camera.js)
SHOT = os.path.join(ROOT, "docs", "img", "camera", "camera-390x844.png")
SHOT_AT = 5  # the picture of docs/web.md: the deal's sixth entry (its fourth trick) proposed


def render_held_out(out):
    """The held-out design's cards as PNGs in out/<design>/ (render.mjs, npm resvg)."""
    subprocess.run(["node", os.path.join(HERE, "cardcam", "render.mjs"), out, "younestouati"],
                   check=True, cwd=ROOT)
    return scenes.load_deck(os.path.join(out, "younestouati"))


def session():
    import onnxruntime

    opts = onnxruntime.SessionOptions()
    opts.intra_op_num_threads = 1
    return onnxruntime.InferenceSession(os.path.join(ROOT, "web", "camera", "cards.onnx"), opts,
                                        providers=["CPUExecutionProvider"])


def probabilities(sess, boxes):
    """The page's probabilities for boxes (n, H, W, 3): each box read as it is and turned
    half round, averaged (web/camera.js classify, tools/cardcam/train.py predict; the
    ONNX model itself averages its members)."""
    x = scenes.to_input(boxes)
    turned = np.ascontiguousarray(x[:, :, ::-1, ::-1])
    both = sess.run(None, {"boxes": np.concatenate([x, turned])})[0]
    return (both[:len(x)] + both[len(x):]) / 2


def index_meta():
    """web/camera/index.json: the index reader's input, corner share and thresholds."""
    with open(os.path.join(ROOT, "web", "camera", "index.json"), encoding="utf-8") as f:
        return json.load(f)


_INDEX = {}


def index_session():
    """The index reader (web/camera/index.onnx) and its description, made once."""
    if not _INDEX:
        import onnxruntime

        opts = onnxruntime.SessionOptions()
        opts.intra_op_num_threads = 1
        _INDEX["sess"] = onnxruntime.InferenceSession(
            os.path.join(ROOT, "web", "camera", "index.onnx"), opts,
            providers=["CPUExecutionProvider"])
        _INDEX["meta"] = index_meta()
    return _INDEX["sess"], _INDEX["meta"]


def index_probabilities(corners):
    """The index reading of boxes from their corners ((2n, H, W) uint8, scenes.corner_crops:
    each box's top left, then its bottom right turned): (n, K) (web/camera.js readCorners
    and indexReading)."""
    sess, _meta = index_session()
    x = np.ascontiguousarray(corners[:, None], np.float32) / 255
    each = sess.run(None, {"corners": x})[0]
    return sureness.index_reading(each.reshape(-1, 2, each.shape[1]), scenes.NONE)


def sure_names(probs, gone, thresholds, played=frozenset(), index=None):
    """Each box's reading as the page makes it (web/camread.js sureNames): the likeliest
    class but the cards in `gone` (no box can hold them now: web/webcamera.py gone()),
    the others' probabilities scaled to sum to one; "?" below that class's threshold.
    played (webcamera.py played(), all in gone too): a box whose likeliest card is one of
    them, among those not gone for another reason, is "!" and that card: not proposed.
    index ((n, K) index readings, their thresholds): a card read stays only when the index
    reading is sure of the same card (sureness.agree), else "?"."""
    keep = np.array([c not in gone for c in scenes.CLASSES])
    may = np.array([c not in gone or c in played for c in scenes.CLASSES])
    out = []
    for p in probs:
        if played:
            first = scenes.CLASSES[int(np.where(may, p, -1.0).argmax())]
            if first in played:
                out.append("!" + first)
                continue
        q = np.where(keep, p, 0.0)
        best = int(q.argmax())
        kept = q.sum()
        out.append(scenes.CLASSES[best] if kept > 0 and q[best] / kept >= thresholds[best] else "?")
    if index is not None:
        out = sureness.agree(out, np.asarray(index[0]), index[1], scenes.CLASSES)
    return out


def read_boxes(sess, frame, n, thresholds, gone=frozenset(), played=frozenset()):
    """What the page reads in a frame's n boxes: class names, "?" where not sure, "!" and
    the card where it is one the deal has played. Both the whole-card networks (sess) and
    the index reader (index_session()) read each box, as the page does."""
    _isess, imeta = index_session()
    probs = probabilities(sess, scenes.crops(frame, n))
    index = index_probabilities(scenes.frame_corners(frame, n, imeta["corner"]))
    return sure_names(probs, gone, thresholds, played, (index, imeta["agree"]["thresholds"]))


# Whole deals, their tricks in play order, for the tricks read with the deal's played cards
# known: (players, nines) of Sixty-six for two, three and four (24 cards) and of Schnapsen
# (20: no nines), in turn.
DEAL_KINDS = ((2, True), (3, True), (4, True), (2, False))


def dealt_tricks(rng, tricks):
    """`tricks` tricks of whole shuffled deals: (cards, gone, played) each, gone the cards
    no box can hold in it (those of the deal's earlier tricks, and the ranks its rules leave
    out), as web/webcamera.py gone() says them once those tricks are entered, and played
    the earlier tricks' cards alone (webcamera.py played())."""
    out = []
    kind = 0
    while len(out) < tricks:
        players, nines = DEAL_KINDS[kind % len(DEAL_KINDS)]
        kind += 1
        cards = [c for c in scenes.CARDS if nines or c[0] != "9"]
        gone = set(scenes.CARDS) - set(cards)
        played = set()
        for i in rng.permutation(len(cards)).reshape(-1, players):
            codes = [cards[j] for j in i]
            out.append((codes, frozenset(gone | played), frozenset(played)))
            played.update(codes)
    return out[:tricks]


def held_out(deck, tricks=TRICKS, seed=SEED, frame_size=FRAME, dealt=False):
    """Figures of `tricks` held-out tricks: each of 2 to 4 cards drawn alone (the first
    trick of a deal, nothing known), or, dealt=True, the tricks of whole deals read with
    the cards already played known (the page's reading from the second trick on)."""
    meta = scenes.meta()
    sess = session()
    rng = np.random.default_rng(seed)
    cards = right = tricks_right = wrong_tricks = unsure_cards = 0
    confusions = {}
    plan = dealt_tricks(rng, tricks) if dealt else None
    for t in range(tricks):
        if plan:
            codes, gone, played = plan[t]
            n = len(codes)
        else:
            n = int(rng.integers(2, 5))
            codes = [scenes.CARDS[i] for i in rng.choice(len(scenes.CARDS), n, replace=False)]
            gone = played = frozenset()
        frame, _ = scenes.trick_frame(rng, deck, codes, *frame_size)
        got = read_boxes(sess, frame, n, meta["thresholds"], gone, played)
        ok = [g == c for g, c in zip(got, codes)]
        cards += n
        right += sum(ok)
        unsure_cards += sum(g == "?" or g[0] == "!" for g in got)  # "!": a played card
        tricks_right += all(ok)
        if all(g in scenes.CARDS for g in got) and not all(ok):  # proposed, and wrong
            wrong_tricks += 1
        for g, c in zip(got, codes):
            if g != c:
                confusions[c + ">" + g] = confusions.get(c + ">" + g, 0) + 1
    return {"camera_tricks": tricks, "camera_cards": cards,
            "camera_card_accuracy": right / cards, "camera_trick_accuracy": tricks_right / tricks,
            "camera_cards_unsure": unsure_cards, "camera_wrong_tricks": wrong_tricks,
            "camera_confusions": dict(sorted(confusions.items(), key=lambda kv: -kv[1])[:10])}


# ---- a deal by camera in Chromium ------------------------------------------------------------

def deal_lines(seed=DEAL_SEED):
    """A two-player deal with trump and a marriage: the new match line and the deal's lines."""
    from keyseq import random_match
    from sixtysix.match import Match

    lines, _m = random_match("mariage", seed, suits=True, max_deals=2)
    m = Match()
    out = []
    for line in lines:
        m.enter_line(line)
        out.append(line)
        if m.state.deals() >= 1:
            return out
    raise AssertionError("no whole deal")


def rank_keys(line):
    """A trick typed with the fewest presses: the winner's key and one rank key a card."""
    from sixtysix.events import parse

    rec = parse(line)
    return "abcd"[rec[1]] + "".join("123456"[c & 7] for c in rec[2:])


def typed_keys(line, state):
    """The keypad keys that type an entry as camera mode types it: a trick with every
    card's suit (the last one's after its rank), a trump or marriage as its suit key."""
    from keyseq import KEYPAD, entry_keys
    from sixtysix.events import parse

    if line.startswith("trick"):
        rec = parse(line)
        return "abcd"[rec[1]] + "".join("123456"[c & 7] + "7890"[(c >> 3) - 1] for c in rec[2:])
    return entry_keys(state, line, KEYPAD)


def plan(lines):
    """(setup keys, [("trick", codes, keys, ranks-only keys) or ("keys", keys)])."""
    from keyseq import KEYPAD, setup_keys
    from sixtysix.match import Match

    m = Match()
    m.enter_line(lines[0])
    setup = setup_keys(lines[0], KEYPAD)
    out = []
    for line in lines[1:]:
        keys = typed_keys(line, m.state)
        if line.startswith("trick"):
            out.append(("trick", line.split()[2:], keys, rank_keys(line)))
        else:
            out.append(("keys", keys))
        m.enter_line(line)
    return setup, out


# One trick of the deal, in the page: wait for the camera to propose it, then confirm it
# with one tap (on the panel, or the # key from the keyboard on every other trick); if no
# right proposal comes while the video plays once through (a card not sure, or read
# wrong), the player types the trick on the keys with ranks only (the fewest presses),
# which drops any proposal first: a proposal read wrong is then a correction, as in play.
# The video loops the whole deal, which a table never shows: a proposal of another of the
# deal's tricks (others) is let go first, as the boxes empty, since in play those cards
# are not on the table. Answers "camera" or "typed".
TRICK = """(async () => {
  const [want, keys, waitMs, viaKey, tap, others] = %s;
  const s66 = window.s66;
  const pause = (ms) => new Promise((ok) => setTimeout(ok, ms));
  const key = (ch) => document.dispatchEvent(new KeyboardEvent("keydown", {key: ch}));
  const t0 = Date.now();
  const seen = (window.s66seen = window.s66seen || []); // every trick proposed
  while (Date.now() - t0 < waitMs) {
    const c = s66.camera();
    if (c && c.pending && !seen.includes(c.pending.join(" "))) seen.push(c.pending.join(" "));
    if (c && c.pending && c.pending.join(" ") === want) {
      if (!tap) return "proposed"; // (for the picture: the proposal on the panel)
      if (viaKey) key("#"); else document.getElementById("panel").click();
      const t1 = Date.now();
      while (s66.camera().pending || !s66.camera().needEmpty) {
        if (Date.now() - t1 > 30000) throw new Error("not entered: " + want);
        await pause(25);
      }
      await s66.idle();
      return "camera";
    }
    await pause(25);
  }
  const t2 = Date.now();
  for (let c = s66.camera(); c && c.pending && others.includes(c.pending.join(" "));
    c = s66.camera()) {
    if (Date.now() - t2 > 30000) throw new Error("still proposed: " + c.pending.join(" "));
    await pause(25);
  }
  for (const ch of keys) {
    await s66.idle();
    key(ch);
  }
  await s66.idle();
  return "typed";
})()"""

# Keys between two tricks (a marriage, closing): said while the trick before still lies in
# its boxes. The video loops the whole deal, which a table never shows: were the keys
# typed while it shows a later trick, the page would read that trick out of its turn and
# the core refuse it (a marriage's lead), the deck then said not read reliably. So the
# keys wait for the trick before to be in view (read as played, "!", or as its cards).
SYNC = """(async () => {
  const [before, waitMs] = %s;
  const t0 = Date.now();
  while (Date.now() - t0 < waitMs) {
    const c = window.s66.camera();
    const shown = (c && c.shown) || [];
    if (shown.length === before.length
        && shown.every((s, i) => s.replace("!", "") === before[i])) return "in view";
    await new Promise((ok) => setTimeout(ok, 25));
  }
  return "not seen";
})()"""

CAMERA_ON = """(async () => {
  document.getElementById("camera-open").click();
  const t0 = Date.now();
  for (;;) {
    const c = window.s66.camera();
    if (c && c.frames > 0) return c.note;
    if (Date.now() - t0 > 90000) throw new Error("camera not running: " + JSON.stringify(c));
    await new Promise((ok) => setTimeout(ok, 25));
  }
})()"""


# The deal's video leaves the boxes bare this many frames (2 s) between tricks, as players
# gather a trick and lead the next: at a slow phone's few readings a second the page must
# still see them empty twice (camera.js EMPTY_READS) before it reads the next trick.
DEAL_EMPTY = 20


def write_video(path, deck, tricks, seed=DEAL_SEED):
    import fakecam

    fakecam.write_deal_video(path, deck, tricks, seed, bare=DEAL_EMPTY)


def camera_deal(site_dir, deck, throttle=THROTTLE, shot=None):
    """Play the deal by camera and typed, each in a fresh Chromium; returns figures and the
    two match states."""
    import browser

    import web

    lines = deal_lines()
    setup, entries = plan(lines)
    tricks = [e[1] for e in entries if e[0] == "trick"]
    marks = {}
    with tempfile.TemporaryDirectory() as tmp, web.serving(site_dir) as (server, url):
        video = os.path.join(tmp, "deal.y4m")
        write_video(video, deck, tricks)
        import fakecam

        wait_ms = int(1000 * (fakecam.loop_seconds(len(tricks), bare=DEAL_EMPTY) + 5))
        sync = [os.path.join(tmp, n) for n in ("before", "before.ok", "after", "after.ok")]

        def mark():  # the server's byte count at the page's two marks
            for name, path, ok in (("before", sync[0], sync[1]), ("after", sync[2], sync[3])):
                while not os.path.exists(path):
                    if stop.wait(0.02):
                        return
                marks[name] = server.sent
                with open(ok, "w"):
                    pass

        stop = threading.Event()
        watcher = threading.Thread(target=mark, daemon=True)
        watcher.start()
        steps = [{"do": "open"}, {"do": "worker"}]
        steps += [{"do": "touch", "path": sync[0]}, {"do": "await", "path": sync[1]},
                  {"do": "type", "keys": setup, "settle": True},
                  {"do": "eval", "js": CAMERA_ON}, {"do": "touch", "path": sync[2]},
                  {"do": "await", "path": sync[3]}]
        if throttle:
            steps.append({"do": "throttle", "rate": throttle})
        others = 0
        first_trick = len(steps)
        for i, entry in enumerate(entries):
            if entry[0] == "trick":
                want = " ".join(entry[1])
                if shot and i == SHOT_AT:  # a trick read and typed, waiting for OK
                    steps += [{"do": "eval", "js": TRICK % json.dumps(
                        [want, "", 90000, 0, 0, []])},
                              {"do": "screenshot", "path": shot}]
                rest = [" ".join(t) for t in tricks if " ".join(t) != want]
                steps.append({"do": "eval", "js": TRICK % json.dumps(
                    [want, entry[3], wait_ms, i % 2, 1, rest])})
            else:
                if i > 0 and entries[i - 1][0] == "trick":
                    steps.append({"do": "eval", "js": SYNC % json.dumps(
                        [entries[i - 1][1], wait_ms])})
                steps.append({"do": "click", "keys": entry[1]})
                others += len(entry[1])
        steps += [{"do": "eval", "js": "window.s66seen || []"},
                  {"do": "eval", "js": "window.s66.camera()"}, {"do": "state"}]
        try:
            got = browser.drive(url, steps, camera=video, timeout=1200)
        finally:
            stop.set()
        if got["failed"]:
            raise RuntimeError(got["failed"])
        ways = iter([r for r in got["results"][first_trick:] if r in ("camera", "typed")])
        # the same deal typed: each trick with the keys the camera typed, or the player
        keys = [e[1] if e[0] == "keys" else e[2] if next(ways) == "camera" else e[3]
                for e in entries]
        typed = browser.drive(url, [{"do": "open"},
                                    {"do": "type", "keys": setup, "settle": True}]
                              + [{"do": "type", "keys": k, "settle": True} for k in keys]
                              + [{"do": "state"}])
    info = got["results"][-2]
    ways = [r for r in got["results"][first_trick:] if r in ("camera", "typed")]
    typed_tricks = [e for e, way in zip([e for e in entries if e[0] == "trick"], ways)
                    if way == "typed"]
    presses = others + ways.count("camera") + sum(len(e[3]) for e in typed_tricks)
    # typed with the fewest presses (ranks only: the winner's key and one rank a card)
    typed_presses = sum(len(e[3]) if e[0] == "trick" else len(e[1]) for e in entries)
    return {
        "camera_first_visit_bytes": marks["before"],
        "camera_on_bytes": marks["after"] - marks["before"],
        "camera_frame_to_reading_p95_ms": percentile(info["timings"], 95),
        "camera_frame_to_proposal_p95_ms": percentile(info["proposals"], 95),
        "camera_fps": info["fps"],
        "camera_deal_presses": presses,
        "camera_deal_presses_typed": typed_presses,
        "camera_deal_tricks": len(tricks),
        "camera_deal_tricks_by_camera": ways.count("camera"),
        "camera_deal_equal": got["results"][-1] == typed["results"][-1],
        # whether the page said the deck was not read reliably by the deal's end
        "camera_deal_unreliable": info["unreliable"],
        # proposals that are no trick of the deal (the video shows only those, in turn)
        "camera_deal_wrong_proposals": [p for p in got["results"][-3]
                                        if p.split(" ") not in tricks],
        "errors": got["errors"] + typed["errors"],
    }, got["results"][-1], typed["results"][-1]


KEY_GAP_MS = 150  # between a player's keys: a quick typist's pace


def keys_with_camera(site_dir, deck, throttle=THROTTLE):
    """Key to frame (ms, each key's input event to its frame on the canvas) as a player
    types the whole test deal with camera mode on, the fake camera playing the deal's
    tricks, and with it off: CPU throttled x4. A frame's reading holds the page's one
    thread; a key the camera does not take stops the reading for a while (web/camera.js
    QUIET_MS): this says what typing costs while the camera is on."""
    import browser

    import web

    setup, entries = plan(deal_lines())
    keys = "".join(e[3] if e[0] == "trick" else e[1] for e in entries)
    out = {}
    with tempfile.TemporaryDirectory() as tmp, web.serving(site_dir) as (_server, url):
        video = os.path.join(tmp, "deal.y4m")
        write_video(video, deck, [e[1] for e in entries if e[0] == "trick"])
        for name, on in (("on", True), ("off", False)):
            steps = [{"do": "open"}, {"do": "type", "keys": setup, "settle": True}]
            if on:
                steps.append({"do": "eval", "js": CAMERA_ON})
            steps += [{"do": "eval", "js": "window.s66.latency.length = 0"},
                      {"do": "throttle", "rate": throttle},
                      {"do": "type", "keys": keys, "settle": True, "gap": KEY_GAP_MS},
                      {"do": "eval", "js": "window.s66.idle().then(() =>"
                                           " Array.from(window.s66.latency))"}]
            got = browser.drive(url, steps, camera=video, timeout=600)
            if got["failed"] or got["errors"]:
                raise RuntimeError("%s %s" % (got["failed"], got["errors"]))
            lat = got["results"][-1]
            out["camera_%s_key_presses" % name] = len(lat)
            out["camera_%s_key_median_ms" % name] = percentile(lat, 50)
            out["camera_%s_key_p95_ms" % name] = percentile(lat, 95)
    return out


def camera_file_bytes(site_dir):
    """The camera's files in the build: the runtime (TensorFlow.js's scripts and its SIMD
    WebAssembly, what a phone loads), the model (weights and description), and all of the
    camera's files gzipped (what a host that compresses would send)."""
    import gzip

    import web

    total = 0
    for name in web.CAMERA:
        with open(os.path.join(site_dir, name), "rb") as f:
            total += len(gzip.compress(f.read(), 6))

    def size(names):
        return sum(os.path.getsize(os.path.join(site_dir, "camera", n)) for n in names)

    runtime = [n for _p, n in web.TFJS_FILES if n != "tfjs-backend-wasm.wasm"]
    return {"camera_runtime_bytes": size(runtime), "camera_model_bytes": size(web.MODEL_FILES),
            "camera_on_gzip_bytes": total}


def percentile(values, pct):
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, int(round(pct / 100 * (len(s) - 1))))]


def figures(tricks=TRICKS, shot=None):
    """Every figure; shot: where to write the picture of camera mode (docs/web.md's)."""
    import web

    with tempfile.TemporaryDirectory() as tmp:
        deck = render_held_out(os.path.join(tmp, "cards"))
        out = held_out(deck, tricks)
        # The same tricks in frames of the size a phone gives the page: four boxes across
        # 320 x 240 are 68 px wide, at 640 x 480 twice that.
        page = held_out(deck, tricks, frame_size=PAGE_FRAME)
        out.update({"camera_page_card_accuracy": page["camera_card_accuracy"],
                    "camera_page_trick_accuracy": page["camera_trick_accuracy"],
                    "camera_page_wrong_tricks": page["camera_wrong_tricks"]})
        # As the page reads in play: the tricks of whole deals, the cards already played
        # (and Schnapsen's nines) left out of each box's reading, in both frame sizes.
        for key, size in (("camera_known", FRAME), ("camera_known_page", PAGE_FRAME)):
            known = held_out(deck, tricks, frame_size=size, dealt=True)
            out.update({key + "_cards": known["camera_cards"],
                        key + "_card_accuracy": known["camera_card_accuracy"],
                        key + "_trick_accuracy": known["camera_trick_accuracy"],
                        key + "_wrong_tricks": known["camera_wrong_tricks"]})
        site = os.path.join(tmp, "site")
        web.build(site)
        if shot:
            os.makedirs(os.path.dirname(shot), exist_ok=True)
        deal, _cam, _typed = camera_deal(site, deck, shot=shot)
        out.update(keys_with_camera(site, deck))
        out.update(camera_file_bytes(site))
    out.update({k: v for k, v in deal.items() if k != "errors"})
    return out


def main(argv):
    tricks = int(argv[argv.index("--tricks") + 1]) if "--tricks" in argv else TRICKS
    result = figures(tricks, SHOT if "--shot" in argv else None)
    if "--json" in argv:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print("%-36s %s" % (k, v))


if __name__ == "__main__":
    main(sys.argv[1:])
