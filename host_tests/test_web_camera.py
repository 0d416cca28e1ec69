"""Camera mode (issue 27): the committed model reads tricks of the card design it never saw
in training, and the page plays a whole deal by camera in a real Chromium with a fake camera
(a .y4m of rendered scenes), one tap a trick, to the same match as the deal typed. A denied
camera says so and typing works; a phone held sideways keeps the view and the keys; the
camera's files load only when camera mode is turned on, and then work offline.
"""

import json
import os

import browser
import camera_figures
import decks
import pytest
import scenes
import sureness
from conftest import ROOT
from test_web import LAYOUT_CHECK, run

needs_browser = pytest.mark.skipif(browser.missing() is not None,
                                   reason=browser.missing() or "")

# Issue 44: a box is sure only when the index reader's likeliest card is the whole-card
# reading's, at the joint rule's agreement threshold, and today's index reader reaches it on
# about half the held-out deck's cards (the fake camera's first tricks among those it does
# not). The tests of what follows a proposal (the camera's stops, a trick typed while its
# cards lie there, a whole deal) need their cards read surely, so they show the large-index
# design (tools/cardcam/decks.py, never trained on), which the rule reads best; how well
# each deck reads is the bench's (docs/web.md), not theirs.
needs_sure_deck = pytest.mark.skipif(
    not decks.fonts_installed(decks.hand("large-index")),
    reason="the large-index design's typeface is not installed (npm ci)")


@pytest.fixture(scope="module")
def sure_deck():
    """The large-index design's cards (tools/cardcam/decks.py), as scenes.load_deck."""
    return decks.deck(decks.hand("large-index"))


CAMERA_FILES = ("camera.js", "camread.js", "camview.js", "camteach.js", "camdeck.js",
                "camera/cards.bin", "camera/model.json",
                "camera/index.bin", "camera/index.json",
                "camera/tf-core.es2017.min.js", "camera/tf-layers.es2017.min.js",
                "camera/tf-backend-wasm.es2017.min.js", "camera/tfjs-backend-wasm-simd.wasm",
                "camera/tfjs-backend-wasm.wasm")


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    """The held-out design's cards, rendered by tools/cardcam/render.mjs."""
    return camera_figures.render_held_out(str(tmp_path_factory.mktemp("cards")))


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory):
    """The browser build's folder (camera_deal serves it itself, counting the bytes)."""
    import web

    out = str(tmp_path_factory.mktemp("site"))
    web.build(out)
    return out


@pytest.fixture(scope="module")
def video(deck, tmp_path_factory):
    """The fake camera: the test deal's tricks of the held-out design, as a .y4m."""
    _setup, entries = camera_figures.plan(camera_figures.deal_lines())
    path = str(tmp_path_factory.mktemp("video") / "deal.y4m")
    camera_figures.write_video(path, deck, [e[1] for e in entries if e[0] == "trick"])
    return path


MEMBERS = 2  # the networks whose readings are averaged (tools/cardcam/train.py MEMBERS)


def test_the_model_is_small_and_says_what_it_was_trained_on():
    import hashlib
    import math

    meta = scenes.meta()
    body = open(os.path.join(ROOT, "web", "camera", "cards.onnx"), "rb").read()
    # the members (tools/cardcam/train.py MEMBERS), each under half a megabyte: float16
    # weights; with the runtime, camera mode's goal is 3 MB (the bench's camera_bytes row)
    members = meta["page"]["members"]
    assert len(members) == len(meta["members"]) == MEMBERS
    assert len(body) == meta["bytes"] < 2 * 1024 * 1024
    page = open(os.path.join(ROOT, "web", "camera", "cards.bin"), "rb").read()
    assert len(page) == meta["page"]["bytes"] == sum(m["bytes"] for m in members)
    assert hashlib.sha256(page).hexdigest() == meta["page"]["sha256"]
    for m in members:
        assert all(w["quantization"]["dtype"] == "float16" for w in m["weights"])
        assert m["bytes"] == 2 * sum(math.prod(w["shape"]) for w in m["weights"]) < 512 * 1024
    assert meta["classes"] == scenes.CLASSES and len(meta["classes"]) == 25
    assert meta["held_out_design"] not in meta["train_designs"]
    report = open(os.path.join(ROOT, "web", "camera", "TRAINING.md"), encoding="utf-8").read()
    assert meta["sha256"] in report and "Confusion matrix" in report
    t = meta["thresholds"]
    assert len(t) == len(scenes.CLASSES)
    assert all(sureness.BOUNDS[0] <= v <= sureness.BOUNDS[1] for v in t)


def test_a_hard_box_raises_only_its_own_class_threshold():
    # sureness.thresholds_from: per class, just above the surest wrong reading of that
    # class in the validation, so no validation box is wrong and sure, and one hard box
    # (a ten read as a nine, sure) leaves every other class at the lower bound.
    import numpy as np

    rng = np.random.default_rng(3)
    k = len(scenes.CLASSES)
    for _ in range(50):
        labels = rng.integers(0, k, 400)
        probs = rng.dirichlet(np.full(k, 0.05), 400)
        probs[np.arange(400), labels] += rng.uniform(0, 3, 400)  # mostly right
        probs /= probs.sum(1, keepdims=True)
        t = sureness.thresholds_from(probs, labels)
        ok = sureness.sure(probs, t)
        assert not (ok & (probs.argmax(1) != labels)).any()
        low = sureness.BOUNDS[0]
        for c in range(k):
            wrong = (probs.argmax(1) == c) & (labels != c)
            if not wrong.any() or probs[wrong].max() < low:
                assert t[c] == low
            else:
                assert probs[wrong].max() < t[c] <= probs[wrong].max() + 1e-4 or \
                    t[c] == sureness.BOUNDS[1]
    nine_h, ten_h = scenes.CLASSES.index("9H"), scenes.CLASSES.index("TH")
    probs = np.full((k, k), 0.001)
    probs[np.arange(k), np.arange(k)] = 0.976  # every class read right, surely
    hard = np.full((1, k), (1 - 0.99937) / (k - 1))
    hard[0, nine_h] = 0.99937  # a ten of hearts read as the nine
    probs = np.concatenate([probs, hard])
    labels = np.append(np.arange(k), ten_h)
    t = sureness.thresholds_from(probs, labels)
    assert t[nine_h] == 0.9994
    assert [v for c, v in enumerate(t) if c != nine_h] == [0.8] * (k - 1)
    got = sureness.scores(probs, labels, t, scenes.NONE)
    # 24 cards and the hard ten: the ten unsure, and the nine of hearts too (0.976 is under
    # its threshold now); the 23 others right and sure
    assert got["card_wrong_sure"] == 0 and got["card_correct_sure"] == 23 / 25
    # a run whose validation is sure of too few cards, or wrong and sure, is not exported
    assert sureness.refusal(got) is None
    assert "80.00%" in sureness.refusal(dict(got, card_correct_sure=0.8))
    assert sureness.refusal(dict(got, card_wrong_sure=1)) is not None


PAGE_READS = """(async () => {
  const cam = await import("./camera.js");
  const px = Uint8ClampedArray.from(atob("%s"), (c) => c.charCodeAt(0));
  return Array.from(await cam.classify(px, %d));
})()"""


@needs_browser
def test_the_page_reads_boxes_as_the_trained_model_does(site, deck):
    # The figures come from cards.onnx in Python; the page runs the copy for TensorFlow.js
    # (cards.bin, tools/cardcam/layers.py). Boxes of the held-out deck, every class.
    import base64

    import numpy as np

    rng = np.random.default_rng(5)
    labels = list(range(len(scenes.CLASSES)))
    xs = np.stack([scenes.box_sample(rng, [deck], y, False) for y in labels])
    want = camera_figures.probabilities(camera_figures.session(), xs)
    rgba = np.concatenate([xs, np.full(xs.shape[:3] + (1,), 255, np.uint8)], axis=3)
    js = PAGE_READS % (base64.b64encode(rgba.tobytes()).decode(), len(labels))
    got = np.array(run(site, [{"do": "open"}, {"do": "eval", "js": js}])[1]).reshape(want.shape)
    assert np.abs(got - want).max() < 1e-4
    assert (got.argmax(1) == want.argmax(1)).all()


def test_held_out_tricks_are_read_and_no_wrong_trick_is_sure(deck):
    # 300 rendered tricks of the design the training never saw, with the training's own
    # augmentations (the bench measures 2,000): a trick with a wrong card read sure would
    # be proposed, so there must be none.
    # Many cards of this deck are "not sure" (docs/web.md, "Camera"): a box is sure only
    # when the index reader agrees, and in these 320 x 240 frames its corners are few
    # pixels. The floors below are today's models', a little under their figures, to catch
    # a worse one. (Lowered once, on purpose: the index reader that learns other card
    # systems' pips and letters as "none" is sure of fewer of this deck's cards, 34.7% and
    # 8.3% here; German cards read wrong and sure halved. docs/web.md, "Camera".)
    got = camera_figures.held_out(deck, tricks=300, seed=7)
    assert got["camera_wrong_tricks"] == 0, got
    assert got["camera_card_accuracy"] >= 0.33, got
    assert got["camera_trick_accuracy"] >= 0.07, got
    # The tricks of whole deals, read with the deal's played cards left out, as the page
    # reads them in play: no worse, and still none proposed wrong.
    dealt = camera_figures.held_out(deck, tricks=300, seed=7, dealt=True)
    assert dealt["camera_wrong_tricks"] == 0, dealt
    assert dealt["camera_card_accuracy"] >= got["camera_card_accuracy"] - 0.02, dealt
    assert dealt["camera_trick_accuracy"] >= 0.07, dealt


# ---- what the deal cannot show (web/webcamera.py gone(), web/camera.js sureNames) ----


def _expected_gone(lines):
    """After each of a match's entries, the cards no box can hold in the next trick of the
    deal now on: every card played in it (seed: a card is played once), and Schnapsen's
    nines (seed: 20 cards, 10 to A), sorted; before the `new` line, none."""
    from sixtysix.match import Match

    m = Match()
    out = [[]]
    played = set()
    for line in lines:
        deals = m.state.deals() if m.state else 0
        m.enter_line(line)
        if line.startswith("new") or m.state.deals() > deals:
            played = set()  # a new deal: nothing played yet
        elif line.startswith("trick"):
            played.update(line.split()[2:])
        nines = {"9" + s for s in "SHDC"} if m.state.rules.ranks == 5 else set()
        out.append(sorted(played | nines))
    return out


def _as_camera_types(lines):
    """[(line, keys)]: the `new` line's keys, then each entry's as camera mode types it
    (every card with its suit)."""
    from keyseq import KEYPAD, setup_keys
    from sixtysix.match import Match

    m = Match()
    out = []
    for line in lines:
        if line.startswith("new"):
            out.append((line, setup_keys(line, KEYPAD)))
        else:
            out.append((line, camera_figures.typed_keys(line, m.state)))
        m.enter_line(line)
    return out


@pytest.mark.parametrize("rid", ["mariage", "mariage3", "mariage4", "schnapsen"])
@pytest.mark.parametrize("runtime", ["micropython", "mp32", "wasm"])
def test_camera_mode_never_reads_a_card_the_deal_has_played(request, runtime, rid):
    import keyseq

    lines, _m = keyseq.random_match(rid, 3, max_deals=1)
    entries = _as_camera_types(lines)
    run = request.getfixturevalue(runtime)
    proc = run(["host_tests/mp_web_gone.py"] + [k for _line, k in entries],
               extra_path=[os.path.join(ROOT, "web")])
    assert proc.returncode == 0, proc.stderr.decode()
    got = [sorted(g.split()) for g in json.loads(proc.stdout.decode().strip().splitlines()[-1])]
    assert got == _expected_gone([line for line, _k in entries])
    assert any(line.startswith("trick") for line, _k in entries)


@pytest.mark.parametrize("rid", ["mariage", "schnapsen"])
def test_the_deal_says_which_cards_it_has_played(micropython, rid):
    # web/webcamera.py played(): the cards of the deal's tricks entered with their suits
    # (the core's Deal.known), no nine the rules leave out; what gone() holds beside them
    # is those nines. A box read as one of them is not proposed (web/camera.js).
    import keyseq

    lines, _m = keyseq.random_match(rid, 3, max_deals=1)
    entries = _as_camera_types(lines)
    proc = micropython(["host_tests/mp_web_gone.py", "--played"] + [k for _line, k in entries],
                       extra_path=[os.path.join(ROOT, "web")])
    assert proc.returncode == 0, proc.stderr.decode()
    got = [sorted(g.split()) for g in json.loads(proc.stdout.decode().strip().splitlines()[-1])]
    nines = {"9" + s for s in "SHDC"} if rid == "schnapsen" else set()
    want = [sorted(set(g) - nines) for g in _expected_gone([line for line, _k in entries])]
    assert got == want
    assert any(got)


def test_a_rank_typed_without_suits_is_gone_once_its_four_are_out(micropython):
    # A trick typed by ranks only tells no suit: only a rank whose four cards are all out
    # (seed: four of each rank) is gone, every suit of it.
    import keyseq

    lines, _m = keyseq.random_match("mariage", 1, suits=False, max_deals=1)
    entries = keyseq.match_keys(lines, keyseq.KEYPAD)
    proc = micropython(["host_tests/mp_web_gone.py"] + [k for _line, k in entries],
                       extra_path=[os.path.join(ROOT, "web")])
    assert proc.returncode == 0, proc.stderr.decode()
    got = json.loads(proc.stdout.decode().strip().splitlines()[-1])
    seen = {}
    fours = 0
    for i, (line, _k) in enumerate(entries[:-1]):  # the last trick ends the deal
        if line.startswith("trick"):
            for c in line.split()[2:]:
                seen[c[0]] = seen.get(c[0], 0) + 1
        full = sorted(r + s for r, n in seen.items() if n == 4 for s in "SHDC")
        assert sorted(got[i + 1].split()) == full, line
        fours = max(fours, len(full))
    assert fours >= 4  # some rank had all four out before the deal's end
    assert got[-1] == ""  # the next deal: nothing played


SURE_NAMES = """(async () => {
  const cam = await import("./camera.js");
  const cases = %s;
  return cases.map(([probs, gone, n, played]) =>
    cam.sureNames(Float32Array.from(probs), n, %s, new Set(gone), %r, new Set(played)));
})()"""


@needs_browser
def test_the_page_leaves_out_the_gone_cards_as_the_figures_do(site):
    # web/camera.js sureNames and tools/camera_figures.py sure_names are one rule: random
    # readings, random cards gone (some of them played, webcamera.py played()), the
    # model's thresholds (one per class), and one threshold for all; near-ties included.
    import numpy as np

    rng = np.random.default_rng(9)
    cases = []
    for _ in range(200):
        n = int(rng.integers(2, 5))
        probs = rng.dirichlet(np.full(len(scenes.CLASSES), 0.003), n).astype(np.float32)
        gone = [c for c in scenes.CARDS if rng.random() < 0.4]
        played = [c for c in gone if rng.random() < 0.5]
        cases.append((probs.ravel().tolist(), gone, n, played))
    for thresholds in (scenes.meta()["thresholds"], [0.85] * len(scenes.CLASSES)):
        js = SURE_NAMES % (json.dumps(cases), json.dumps(scenes.CLASSES), thresholds)
        got = run(site, [{"do": "open"}, {"do": "eval", "js": js}])[1]
        want = [camera_figures.sure_names(np.array(p, np.float32).reshape(n, -1), set(g),
                                          thresholds, set(pl)) for p, g, n, pl in cases]
        assert got == want
    assert sum(name != "?" for names in want for name in names) > 100  # not all unsure
    alone = [camera_figures.sure_names(np.array(p, np.float32).reshape(n, -1), set(), thresholds)
             for p, g, n, pl in cases]
    assert alone != want  # some boxes read otherwise once the gone cards are left out
    assert all(name not in g for (p, g, n, pl), names in zip(cases, want) for name in names)
    # a box whose first choice is a played card names it; the others read as before
    marked = [(name[1:], pl) for (p, g, n, pl), names in zip(cases, want) for name in names
              if name[0] == "!"]
    assert marked and all(card in pl for card, pl in marked)


# a low-resolution camera's frames, the page's (and the fake camera's), a phone's wide and
# upright ones
FRAMES = ((320, 240), (640, 480), (1280, 720), (480, 640))


def test_every_box_and_what_is_read_of_it_lie_in_the_frame():
    assert scenes.meta()["margin"] == scenes.MARGIN > 0
    for width, height in FRAMES:
        for n in (2, 3, 4):
            bs = scenes.boxes(n, width, height)
            assert len(bs) == n
            for x, y, w, h in bs:
                rx, ry, rw, rh = scenes.region((x, y, w, h), width, height)
                assert 0 <= x and x + w <= width and 0 <= y and y + h <= height
                # around its box, inside the frame, as wide and tall as the margin makes it
                assert 0 <= rx <= x and x + w <= rx + rw <= width, (width, height, n)
                assert 0 <= ry <= y and y + h <= ry + rh <= height, (width, height, n)
                assert abs(rw / w - rh / h) < 1e-9 and rw > w
            for i in range(n - 1):  # apart, in order
                assert bs[i][0] + bs[i][2] < bs[i + 1][0]
    # the upright frame's first box would leave it by its margin, without the move back
    x, y, w, h = scenes.boxes(2, 480, 640)[0]
    assert x - scenes.MARGIN * w < 0 and scenes.region((x, y, w, h), 480, 640)[0] == 0


PAGE_REGIONS = """(async () => {
  const cam = await import("./camera.js");
  const info = await (await fetch("camera/model.json")).json();
  const [, inH, inW] = info.input;
  return %s.map(([w, h, n]) => cam.regions(n, w, h, inW, inH, info.margin));
})()"""


@needs_browser
def test_the_page_reads_each_box_where_the_model_was_trained_to(site):
    # web/camera.js regions() and tools/cardcam/scenes.py region(boxes()) give the same
    # pixels of a frame, with the margin of the page's model.json
    cases = [(w, h, n) for w, h in FRAMES + ((1920, 1080), (390, 844)) for n in (2, 3, 4)]
    got = run(site, [{"do": "open"}, {"do": "eval", "js": PAGE_REGIONS % json.dumps(cases)}])[1]
    for (w, h, n), page in zip(cases, got):
        want = [scenes.region(b, w, h) for b in scenes.boxes(n, w, h)]
        assert len(page) == n
        for a, b in zip(page, want):
            assert max(abs(p - q) for p, q in zip(a, b)) < 1e-6, (w, h, n, a, b)


@needs_browser
@needs_sure_deck
def test_a_deal_by_camera_is_the_deal_typed(site_dir, sure_deck):
    figures, by_camera, typed = camera_figures.camera_deal(site_dir, sure_deck, throttle=0)
    assert figures["errors"] == []
    assert by_camera == typed
    assert by_camera["deals"] == 1 and by_camera["history"]  # the whole deal, to its result
    assert figures["camera_deal_wrong_proposals"] == [], figures
    # no proposal was wrong, so the deck was never said unreliable: a trick of the deal
    # read out of its turn (the fake camera loops the deal) must not stop the camera
    assert not figures["camera_deal_unreliable"], figures
    # trump and a marriage are one key each, each trick read is one tap on OK; a trick the
    # camera is not sure of in the player's patience is typed (its keys drop any proposal
    # first). How many it reads is the bench's figure: on a saturated CPU, fewer in time.
    by_camera_tricks = figures["camera_deal_tricks_by_camera"]
    assert by_camera_tricks >= 1, figures
    if by_camera_tricks == figures["camera_deal_tricks"]:
        assert figures["camera_deal_presses"] == figures["camera_deal_tricks"] + 2
    assert figures["camera_on_bytes"] > 1024 * 1024  # the runtime and the model came then


CAMERA_STATE = "window.s66.camera()"
NOTE = "document.getElementById('camera-note').textContent"


@needs_browser
def test_a_denied_camera_says_so_and_typing_works(site):
    setup, entries = camera_figures.plan(camera_figures.deal_lines())
    texts = json.load(open(os.path.join(ROOT, "web", "pagetext.json"), encoding="utf-8"))
    # A fake camera is there, but the permission is not given (a player who said no).
    got = run(site, [{"do": "open"}, {"do": "type", "keys": setup, "settle": True},
                     {"do": "eval", "js": "document.getElementById('camera-open').click()"},
                     {"do": "eval", "js": WAIT_NOTE % json.dumps(texts["en"]["camera denied"])},
                     {"do": "type", "keys": entries[0][-1] + entries[1][-1], "settle": True},
                     {"do": "state"}],
              args=["--use-fake-device-for-media-stream"])
    assert got[3] == texts["en"]["camera denied"]
    assert got[-1]["deal"]["trump"] and got[-1]["deal"]["played"] == 1  # typed as ever


# What camera mode left after it was turned on and failed: the note, whether the video's
# box shows, what the page fetched of the model and TensorFlow.js, and the view after a tap
# on its own close button.
AFTER_FAILURE = """(() => {
  const view = document.getElementById("camera-view");
  const frame = view.querySelector(".cam-frame");
  const fetched = performance.getEntriesByType("resource").map((e) => e.name)
    .filter((n) => /camera\\/(tf-|cards\\.bin|model\\.json)/.test(n));
  const shown = !frame.hidden && frame.getBoundingClientRect().height > 0;
  document.getElementById("camera-close").click();
  return {note: document.getElementById("camera-note").textContent, shown, fetched,
          closed: view.hidden};
})()"""


@needs_browser
def test_no_camera_is_said_in_players_words_and_loads_nothing_of_the_model(site):
    # Issue 47: with no camera the note read "no camera here ... NotFoundError" (the
    # browser's name for it), 2 MB of TensorFlow.js and the model came anyway (fetched
    # before the camera answered), and an empty black box stayed over the keys with no way
    # to close it but a reload.
    setup, entries = camera_figures.plan(camera_figures.deal_lines())
    texts = json.load(open(os.path.join(ROOT, "web", "pagetext.json"), encoding="utf-8"))
    got = run(site, [{"do": "open"}, {"do": "type", "keys": setup, "settle": True},
                     {"do": "eval", "js": "document.getElementById('camera-open').click()"},
                     {"do": "eval", "js": WAIT_NOTE % json.dumps(texts["en"]["no camera here"])},
                     {"do": "eval", "js": AFTER_FAILURE},
                     {"do": "type", "keys": entries[0][-1] + entries[1][-1], "settle": True},
                     {"do": "state"}])
    after = got[4]
    assert after == {"note": texts["en"]["no camera here"], "shown": False, "fetched": [],
                     "closed": True}
    assert got[-1]["deal"]["trump"] and got[-1]["deal"]["played"] == 1  # typed as ever


@needs_browser
def test_a_plain_http_address_from_another_computer_says_to_open_the_secure_one(site):
    # The page at a name that is not this computer (a laptop's address on the club's WiFi,
    # here a name mapped to loopback): not a secure origin, so the browser gives it no
    # camera. The note says so and gives the https address, instead of "no camera here" on
    # a phone that has one.
    texts = json.load(open(os.path.join(ROOT, "web", "pagetext.json"), encoding="utf-8"))
    port = site.split(":")[-1].strip("/")
    url = "http://table.test:%s/" % port
    want = texts["en"]["camera needs https"] + " https://table.test:%s/" % port
    got = run(url, [{"do": "open"},
                    {"do": "eval", "js": "window.isSecureContext"},
                    {"do": "eval", "js": "document.getElementById('camera-open').click()"},
                    {"do": "eval", "js": WAIT_NOTE % json.dumps(want)},
                    {"do": "eval", "js": AFTER_FAILURE}],
              args=["--host-resolver-rules=MAP table.test 127.0.0.1",
                    "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"])
    assert got[1] is False
    assert got[4] == {"note": want, "shown": False, "fetched": [], "closed": True}


# Wait until the camera reads frames (again: a player's key stops it for a while, keys
# first) and then six more: its state then.
READ_AGAIN = """(async () => {
  const s66 = window.s66;
  const t0 = Date.now();
  const start = s66.camera().frames;
  let from = null;
  for (;;) {
    const c = s66.camera();
    if (from === null && c.frames > start) from = c.frames;
    if (from !== null && c.frames >= from + 6) return c;
    if (Date.now() - t0 > 60000) throw new Error("no frames: " + JSON.stringify(c));
    await new Promise((ok) => setTimeout(ok, 25));
  }
})()"""


@needs_browser
@needs_sure_deck
@pytest.mark.parametrize("camera_first", [True, False])
def test_a_trick_typed_while_its_cards_lie_there_is_not_read_again(site, sure_deck, tmp_path,
                                                                   camera_first):
    # The deal's first trick lies still in its boxes. camera_first: the camera reads it and
    # cannot propose it (no trump yet), and the player types trump and the trick; else the
    # player types them first and then turns camera mode on. Typed with ranks only, nothing
    # says those cards were played, and the camera would propose them as the next trick
    # (or, their suits known and left out of the reading, a box could read as another
    # card): it asks for the boxes empty instead, and proposes nothing.
    import fakecam

    texts = json.load(open(os.path.join(ROOT, "web", "pagetext.json"), encoding="utf-8"))
    setup, entries = camera_figures.plan(camera_figures.deal_lines())
    first = [e[1] for e in entries if e[0] == "trick"][:1]
    frames = list(fakecam.deal_frames(sure_deck, first, camera_figures.DEAL_SEED))
    path = str(tmp_path / "held.y4m")
    fakecam.write_y4m(path, [frames[fakecam.EMPTY + fakecam.MOVE]] * 10)  # held, always
    assert entries[0][0] == "keys" and entries[1][0] == "trick"  # trump, then the trick
    camera_on = [{"do": "eval", "js": camera_figures.CAMERA_ON}]
    if camera_first:
        camera_on.append(
            {"do": "eval", "js": WAIT_NOTE % json.dumps(texts["en"]["trump first"])})
    typed = [{"do": "type", "keys": entries[0][1] + entries[1][3], "settle": True}]
    steps = camera_on + typed if camera_first else typed + camera_on
    got = run(site, [{"do": "open"}, {"do": "type", "keys": setup, "settle": True}] + steps
              + [{"do": "eval", "js": READ_AGAIN}, {"do": "eval", "js": NOTE},
                 {"do": "state"}], camera=path)
    after, note, state = got[-3], got[-2], got[-1]
    assert state["deal"]["played"] == 1  # the trick was entered, typed
    assert after["needEmpty"] and after["pending"] is None, after
    assert note == texts["en"]["clear the boxes"]


WAIT_NOTE = """(async () => {
  const want = %s;
  const t0 = Date.now();
  for (;;) {
    const el = document.getElementById("camera-note");
    if (el && el.textContent === want) return el.textContent;
    if (Date.now() - t0 > 60000) throw new Error("note: " + (el && el.textContent));
    await new Promise((ok) => setTimeout(ok, 25));
  }
})()"""

VIEW = """(() => {
  const v = document.querySelector("#camera-view video").getBoundingClientRect();
  const keys = [...document.querySelectorAll(".keys:not([hidden]) button")]
    .map((b) => b.getBoundingClientRect());
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
                          a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  return {w: v.width, h: v.height, inside: v.left >= 0 && v.top >= 0 && v.right <= innerWidth + 0.5
          && v.bottom <= innerHeight + 0.5, under: keys.filter((k) => meets(k, v)).length};
})()"""


@needs_browser
@pytest.mark.parametrize("size", [(844, 390), (390, 844)])
def test_the_camera_view_and_the_keys_fit_a_phone_either_way(site, video, size):
    got = run(site, [{"do": "open"}, {"do": "eval", "js": camera_figures.CAMERA_ON},
                     {"do": "eval", "js": LAYOUT_CHECK}, {"do": "eval", "js": VIEW}],
              viewport=size, touch=True, camera=video)
    layout, view = got[2], got[3]
    assert "×" not in got[1], got[1]  # 640 x 480, what the page asks for: no low-resolution word
    assert layout["scroll"] == [False, False], layout
    assert layout["outside"] == 0 and layout["under"] == 0, layout
    assert view["inside"] and view["under"] == 0, view
    assert view["h"] >= 100, view  # the view is there to aim with


# Where the camera button is, and what a finger at its middle would touch.
CAMERA_BUTTON = """(() => {
  const b = document.getElementById("camera-open").getBoundingClientRect();
  const hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
  return {box: [b.left, b.top, b.right, b.bottom].map((v) => Math.round(v * 10) / 10),
          hit: hit && (hit.closest("[id]") || hit).id,
          view: document.getElementById("camera-view") ?
            document.getElementById("camera-view").getBoundingClientRect().height : 0};
})()"""


@needs_browser
@pytest.mark.parametrize("size", [(844, 390), (568, 320), (390, 844), (320, 568)])
def test_the_camera_button_stays_under_the_finger_as_camera_mode_turns_on(site, size):
    # Issue 47: sideways, turning camera mode on made room for the view by narrowing the
    # column of the panel and the bar under it: the camera button moved, and a second tap
    # where it had been downloaded the CSV. Chromium's own fake camera (a test pattern):
    # the view shows it, and the button is where it was, upright and sideways; a second tap
    # there turns camera mode off.
    fake = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]
    got = run(site, [{"do": "open"}, {"do": "eval", "js": CAMERA_BUTTON},
                     {"do": "eval", "js": camera_figures.CAMERA_ON},
                     {"do": "eval", "js": CAMERA_BUTTON}, {"do": "eval", "js": LAYOUT_CHECK}],
              viewport=size, touch=True, args=fake)
    before, after, layout = got[1], got[3], got[4]
    assert before["hit"] == "camera-open" and before["view"] == 0
    assert after["view"] > 0  # the view is open
    assert after["box"] == before["box"] and after["hit"] == "camera-open", (before, after)
    assert layout["scroll"] == [False, False] and layout["outside"] == 0, layout
    assert layout["under"] == 0 and layout["small"] == [], layout


@needs_browser
def test_a_camera_below_640_by_480_is_named_in_the_note(site, deck, tmp_path):
    import fakecam

    texts = json.load(open(os.path.join(ROOT, "web", "pagetext.json"), encoding="utf-8"))
    _setup, entries = camera_figures.plan(camera_figures.deal_lines())
    path = str(tmp_path / "low.y4m")  # an old webcam's frames: a box is half as many pixels
    first = [e[1] for e in entries if e[0] == "trick"][:1]
    fakecam.write_deal_video(path, deck, first, camera_figures.DEAL_SEED, size=(320, 240))
    got = run(site, [{"do": "open"}, {"do": "eval", "js": camera_figures.CAMERA_ON}],
              camera=path)
    assert got[1].endswith(" · %s 320×240" % texts["en"]["low resolution"]), got[1]


@needs_browser
def test_the_camera_loads_only_when_turned_on_and_then_works_offline(site, video, tmp_path):
    loaded = ("performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname"
              ".slice(1)).filter((p) => p.startsWith('camera'))")
    profile = str(tmp_path / "profile")
    first = run(site, [{"do": "open"}, {"do": "worker"}, {"do": "eval", "js": loaded},
                       {"do": "eval", "js": "caches.keys().then((k) => caches.open(k[0]))"
                        ".then((c) => c.keys()).then((r) => r.map((q) => new URL(q.url)"
                        ".pathname.slice(1)))"},
                       {"do": "eval", "js": camera_figures.CAMERA_ON}],
                profile=profile, camera=video)
    assert first[2] == []  # a first visit fetches none of the camera's files
    assert not set(first[3]) & set(CAMERA_FILES)  # nor does the worker's install
    again = run(site, [{"do": "offline", "on": True}, {"do": "open"},
                       {"do": "eval", "js": camera_figures.CAMERA_ON},
                       {"do": "eval", "js": CAMERA_STATE}],
                profile=profile, camera=video)
    assert again[3]["frames"] > 0  # the runtime and model came from the worker's cache


# ---- a deck that reads badly says so (issue 44) ----------------------------------------------

# For `ms` after the camera has read a first frame: every trick it proposed, every reading
# of the boxes, every note, and its state at the end.
WATCH = """(async () => {
  const ms = %d;
  const s66 = window.s66;
  const pause = (t) => new Promise((ok) => setTimeout(ok, t));
  const t0 = Date.now();
  while (s66.camera().frames === 0) {
    if (Date.now() - t0 > 60000) throw new Error("no frames");
    await pause(25);
  }
  const t1 = Date.now();
  const proposed = new Set(), shown = new Set(), notes = new Set();
  for (;;) {
    const c = s66.camera();
    if (c.pending) proposed.add(c.pending.join(" "));
    shown.add(c.shown.join(" "));
    notes.add(c.note);
    if (Date.now() - t1 > ms) {
      return {proposed: [...proposed], shown: [...shown], notes: [...notes], last: c,
              again: !document.getElementById("camera-again").hidden};
    }
    await pause(25);
  }
})()"""

WAIT_PROPOSED = """(async () => {
  const want = %s;
  const t0 = Date.now();
  for (;;) {
    const c = window.s66.camera();
    if (c.pending && c.pending.join(" ") === want) return c;
    if (Date.now() - t0 > 60000) throw new Error("not proposed: " + JSON.stringify(c));
    await new Promise((ok) => setTimeout(ok, 25));
  }
})()"""


def _texts():
    with open(os.path.join(ROOT, "web", "pagetext.json"), encoding="utf-8") as f:
        return json.load(f)


def _tricks_video(deck, tmp_path, tricks):
    """The fake camera playing these tricks over and over; and how long it plays once
    through, in ms, with two seconds to spare."""
    import fakecam

    path = str(tmp_path / "tricks.y4m")
    fakecam.write_deal_video(path, deck, tricks, camera_figures.DEAL_SEED)
    return path, int(1000 * fakecam.loop_seconds(len(tricks))) + 2000


@needs_browser
def test_a_box_read_as_a_card_the_deal_has_played_is_not_proposed(site, deck, tmp_path):
    # Trump spades, then the first trick typed with its suits (JS AD): the ace of diamonds
    # is out. A trick laid with it again ([AD, 9D]) is read as that ace, surely; the camera
    # proposes nothing and names the card. Before, the ace was left out of the reading and
    # the box read as the model's second choice: A♥ 9♦ was proposed, one tap from entered.
    texts = _texts()["en"]
    setup, _entries = camera_figures.plan(camera_figures.deal_lines())
    video, loop_ms = _tricks_video(deck, tmp_path, [["AD", "9D"]])
    want = texts["already played"] + " A♦"
    got = run(site, [{"do": "open"}, {"do": "type", "keys": setup + "7" + "b5719", "settle": True},
                     {"do": "eval", "js": camera_figures.CAMERA_ON},
                     {"do": "eval", "js": WAIT_NOTE % json.dumps(want)},
                     {"do": "eval", "js": WATCH % loop_ms}, {"do": "state"}], camera=video)
    watched, state = got[-2], got[-1]
    assert state["deal"]["played"] == 1
    assert watched["proposed"] == [], watched
    assert "!AD 9D" in watched["shown"], watched  # the box read as the ace played
    assert not watched["last"]["unreliable"]  # a card lying there again says no more


@needs_browser
@needs_sure_deck
def test_a_reading_the_core_refuses_stops_the_camera_for_that_deck(site, sure_deck, tmp_path):
    # Three aces typed with ranks only (b11, b16): a trick read as two more aces is a fifth
    # ace, which the core refuses (too_many). The camera then says the deck is not read
    # reliably and proposes nothing more, though the next trick it shows ([KD, 9C]) it
    # reads surely and the deal would take; "try again" lets it read again. Before, it
    # named the refusal and proposed the next trick.
    texts = _texts()
    setup, _entries = camera_figures.plan(camera_figures.deal_lines())
    video, loop_ms = _tricks_video(sure_deck, tmp_path, [["AH", "AC"], ["KD", "9C"]])
    unreliable = texts["en"]["deck unreliable"]
    assert all(texts[lang]["deck unreliable"] != unreliable for lang in ("de", "uk", "ru"))
    got = run(site, [{"do": "open"},
                     {"do": "type", "keys": setup + "7" + "b11" + "b16", "settle": True},
                     {"do": "eval", "js": camera_figures.CAMERA_ON},
                     {"do": "eval", "js": WAIT_NOTE % json.dumps(unreliable)},
                     {"do": "eval", "js": WATCH % (2 * loop_ms)},
                     {"do": "eval", "js": "document.getElementById('camera-again').click()"},
                     {"do": "eval", "js": CAMERA_STATE}, {"do": "state"}], camera=video)
    watched, after, state = got[-4], got[-2], got[-1]
    assert state["deal"]["played"] == 2  # nothing entered by the camera
    assert watched["proposed"] == [], watched
    assert "KD 9C" in watched["shown"], watched  # the good trick was there, read surely
    assert watched["notes"] == [unreliable], watched
    assert watched["last"]["unreliable"] and watched["again"], watched
    assert not after["unreliable"] and after["needEmpty"], after  # tried again: it reads


@needs_browser
@needs_sure_deck
@pytest.mark.parametrize("typed, corrects", [("b35", True), ("b36", False)])
def test_a_proposal_the_player_corrects_stops_the_camera_for_that_deck(site, sure_deck,
                                                                       tmp_path, typed,
                                                                       corrects):
    # The camera proposes [KS, 9C]; the player types over it another trick (K J, ranks
    # only): the reading was wrong, the camera says the deck is not read reliably and
    # proposes nothing more, not even the next trick [AH, AC] it reads surely. Typed over
    # with the same trick (K 9: ranks only agree with it), the camera goes on. (Both tricks
    # are read surely in this video, as the tools read it; the king of diamonds laid first
    # is not, so it is not the trick here.)
    texts = _texts()["en"]
    setup, _entries = camera_figures.plan(camera_figures.deal_lines())
    video, loop_ms = _tricks_video(sure_deck, tmp_path, [["KS", "9C"], ["AH", "AC"]])
    steps = [{"do": "open"}, {"do": "type", "keys": setup + "7", "settle": True},
             {"do": "eval", "js": camera_figures.CAMERA_ON},
             {"do": "eval", "js": WAIT_PROPOSED % json.dumps("KS 9C")},
             {"do": "type", "keys": typed, "settle": True}]
    if corrects:
        steps += [{"do": "eval", "js": WAIT_NOTE % json.dumps(texts["deck unreliable"])},
                  {"do": "eval", "js": WATCH % (2 * loop_ms)}]
    else:
        steps.append({"do": "eval", "js": WAIT_PROPOSED % json.dumps("AH AC")})
    got = run(site, steps + [{"do": "state"}], camera=video)
    state = got[-1]
    assert state["deal"]["played"] == 1  # the player's trick
    if corrects:
        watched = got[-2]
        assert watched["proposed"] == [], watched
        assert "AH AC" in watched["shown"], watched
        assert watched["last"]["unreliable"], watched
    else:
        assert not got[-2]["unreliable"]
