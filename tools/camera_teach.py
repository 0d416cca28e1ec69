"""Teaching camera mode a deck (web/camteach.js, issue 44), in headless Chromium from a fake
camera: the 24 cards laid four at a time, each batch the player confirms with OK or, where
a box's proposal is wrong, corrects by typing its box's letter, rank and suit.

    .venv/bin/python tools/camera_teach.py [--json]     (the figures of the held-out deck)
    .venv/bin/python tools/bench.py --camera-teach      (the same, as the bench's row)

The fake camera plays the six batches of the held-out npm deck (tools/cardcam/fakecam.py:
each batch slides into its boxes, is moved about in them for 6 s, each frame a placement
of its own, as the page asks, and is taken away); the player answers each
proposal as soon as it is right, or once it has stood for PATIENCE_MS wrong. Figures: the
presses (the "learn this deck" button, OK, the keys typed) and the seconds from that
button to the deck kept, CPU throttled x4 as camera mode's other figures; and the time to
read a frame before the deck is taught and after (the taught rule's cost).
"""

import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for _p in (HERE, os.path.join(HERE, "cardcam"), os.path.join(ROOT, "firmware")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import scenes  # noqa: E402

SEED = 11
THROTTLE = 4
PATIENCE_MS = 1000  # a wrong proposal stood this long: the player types the right cards
BATCHES = [scenes.CARDS[i:i + 4] for i in range(0, 24, 4)]
RANK_KEYS = dict(zip("ATKQJ9", "123456"))  # web/webcamera.py's keys
SUIT_KEYS = dict(zip("SHDC", "7890"))


def card_keys(code):
    return RANK_KEYS[code[0]] + SUIT_KEYS[code[1]]


HELD = 60  # frames (6 s) a batch lies in its boxes, moved about (web/camteach.js READS)


def write_video(path, deck, batches=BATCHES, seed=SEED):
    import fakecam

    fakecam.write_deal_video(path, deck, batches, seed, held=HELD, moved=True)


# The batches still to teach, kept in the page between the steps (the fake camera shows
# them in its own order, from wherever it was when camera mode turned on).
START = """(() => {
  window.s66teach = {left: %s, typed: 0};
  document.getElementById("camera-teach").click();
  return window.s66.camera().teach;
})()"""

# One batch: wait for a proposal; the batch it shows is the one still to teach with most
# boxes as proposed. Right: OK (#). Wrong and standing PATIENCE ms: each wrong box typed
# (its letter, rank and suit; swap: these cards typed into each other's boxes instead),
# then OK. Answers the batch taught and the boxes typed.
BATCH = """(async () => {
  const [patience, swap] = %s;
  const s66 = window.s66, own = window.s66teach;
  const pause = (ms) => new Promise((ok) => setTimeout(ok, ms));
  const key = (ch) => document.dispatchEvent(new KeyboardEvent("keydown", {key: ch}));
  const keys = %s;
  const t0 = Date.now();
  let seen = "", since = 0;
  for (;;) {
    const c = s66.camera();
    const p = c.teach.proposal;
    if (Date.now() - t0 > 120000) throw new Error("no batch taught: " + JSON.stringify(c));
    if (!p || p.filter(Boolean).length < 4) {
      seen = "";
      await pause(25);
      continue;
    }
    if (p.join(" ") !== seen) [seen, since] = [p.join(" "), Date.now()];
    let at = -1, hits = 0;
    own.left.forEach((b, i) => {
      const h = b.filter((x, j) => p[j] === x).length;
      if (h > hits) [at, hits] = [i, h];
    });
    const want = at >= 0 ? own.left[at].slice() : null;
    if (want && swap) {
      const [a, b] = [want.indexOf(swap[0]), want.indexOf(swap[1])];
      if (a >= 0 && b >= 0) [want[a], want[b]] = [want[b], want[a]];
    }
    const right = want && want.every((x, j) => p[j] === x);
    if (!want || (!right && Date.now() - since < patience)) {
      await pause(25);
      continue;
    }
    const before = c.teach.taught;
    let typed = 0;
    for (let j = 0; j < 4 && !right; j++) {
      if (p[j] === want[j]) continue;
      for (const ch of "abcd"[j] + keys[want[j]]) key(ch);
      typed += 1;
    }
    key("#");
    while (window.s66.camera().teach.taught === before && window.s66.camera().teach.active) {
      if (Date.now() - t0 > 120000) throw new Error("not kept");
      await pause(25);
    }
    own.left.splice(at, 1);
    own.typed += typed;
    return {batch: want, typed};
  }
})()"""

# Once the deck is taught: the camera's teaching figures once the deck is kept.
KEPT = """(async () => {
  const t0 = Date.now();
  for (;;) {
    const c = window.s66.camera();
    if (c.teach.last && c.teach.last.stored) return c.teach;
    if (Date.now() - t0 > 30000) throw new Error("not kept: " + JSON.stringify(c.teach));
    await new Promise((ok) => setTimeout(ok, 25));
  }
})()"""

# What the page's IndexedDB holds of the taught deck.
STORED = """(async () => {
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open("s66.deck");
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  const names = [...db.objectStoreNames];
  if (!names.includes("deck")) return {stores: names};
  const kept = await new Promise((ok, no) => {
    const r = db.transaction("deck").objectStore("deck").get("taught");
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  db.close();
  if (!kept) return {stores: names, kept: null};
  const v = kept.vectors;
  const norms = kept.cards.map((_c, i) => Math.hypot(...v.subarray(i * kept.d, (i + 1) * kept.d)));
  return {stores: names, cards: kept.cards, d: kept.d, length: v.length,
          kind: v.constructor.name, margin: kept.margin, alike: kept.alike, id: kept.id,
          norms};
})()"""

# Once "forget the taught deck" has been tapped: the database without it.
FORGOTTEN = """(async () => {
  const t0 = Date.now();
  for (;;) {
    const db = await new Promise((ok, no) => {
      const r = indexedDB.open("s66.deck");
      r.onsuccess = () => ok(r.result);
      r.onerror = () => no(r.error);
    });
    const kept = await new Promise((ok, no) => {
      const r = db.transaction("deck").objectStore("deck").get("taught");
      r.onsuccess = () => ok(r.result);
      r.onerror = () => no(r.error);
    });
    db.close();
    if (!kept && !window.s66.camera().teach.deck) return true;
    if (Date.now() - t0 > 30000) throw new Error("not forgotten");
    await new Promise((ok) => setTimeout(ok, 25));
  }
})()"""

# The time to read a frame (camera.js timings), p95 over the next 40 frames read.
READ_P95 = """(async () => {
  const start = window.s66.camera().frames;
  const t0 = Date.now();
  for (;;) {
    const c = window.s66.camera();
    if (c.frames >= start + 40) {
      const s = c.timings.slice(-(c.frames - start)).sort((a, b) => a - b);
      return s[Math.round(0.95 * (s.length - 1))];
    }
    if (Date.now() - t0 > 120000) throw new Error("no frames");
    await new Promise((ok) => setTimeout(ok, 25));
  }
})()"""

MODELS_ID = """(async () => {
  const [a, b] = await Promise.all(["camera/model.json", "camera/index.json"]
    .map((u) => fetch(u).then((r) => r.json())));
  return a.page.sha256 + " " + b.page.sha256;
})()"""


# A Schnapsen deck's end: OK with the boxes empty once its 20 cards are taught.
TWENTY = """(async () => {
  const t0 = Date.now();
  for (;;) {
    const c = window.s66.camera();
    if (c.teach.active && !c.teach.proposal && c.shown.every((s) => s === "none")) {
      document.dispatchEvent(new KeyboardEvent("keydown", {key: "#"}));
      return c.teach.taught;
    }
    if (Date.now() - t0 > 60000) throw new Error("no empty boxes: " + JSON.stringify(c));
    await new Promise((ok) => setTimeout(ok, 25));
  }
})()"""


def teach_steps(patience=PATIENCE_MS, swap=None, batches=BATCHES):
    """The steps after camera mode is on: the button, the batches, the deck kept (batches
    without the nines: a Schnapsen deck, ended by OK on empty boxes)."""
    keys = json.dumps({c: card_keys(c) for c in scenes.CARDS})
    steps = [{"do": "eval", "js": START % json.dumps(batches)}]
    steps += [{"do": "eval", "js": BATCH % (json.dumps([patience, swap]), keys)}
              for _ in batches]
    if sum(map(len, batches)) == 20:
        steps.append({"do": "eval", "js": TWENTY})
    return steps + [{"do": "eval", "js": KEPT}]


def figures(site_dir, deck, throttle=THROTTLE):
    """The held-out deck taught in Chromium: presses, seconds, cards told apart."""
    import browser
    import camera_figures

    import web

    with tempfile.TemporaryDirectory() as tmp, web.serving(site_dir) as (_server, url):
        video = os.path.join(tmp, "teach.y4m")
        write_video(video, deck)
        steps = [{"do": "open"}, {"do": "eval", "js": camera_figures.CAMERA_ON}]
        if throttle:
            steps.append({"do": "throttle", "rate": throttle})
        first = len(steps)
        steps += [{"do": "eval", "js": READ_P95}] + teach_steps() + [
            {"do": "eval", "js": READ_P95}]
        got = browser.drive(url, steps, camera=video, timeout=900)
    if got["failed"] or got["errors"]:
        raise RuntimeError("%s %s" % (got["failed"], got["errors"]))
    kept = got["results"][-2]
    before, after = got["results"][first], got["results"][-1]
    batches = [r for r in got["results"] if isinstance(r, dict) and "typed" in r]
    return {"teach_cards": kept["deck"]["cards"], "teach_presses": kept["last"]["presses"],
            "teach_seconds": kept["last"]["seconds"],
            "teach_typed": sum(b["typed"] for b in batches),
            "teach_alike": len(kept["deck"]["alike"]), "teach_alike_pairs": kept["deck"]["alike"],
            "teach_throttle": throttle,
            # a frame's reading, p95 (two boxes), before and after: the taught rule needs
            # every network's hidden layer and the deck's cosines too
            "teach_read_p95_ms": before, "taught_read_p95_ms": after}


def main(argv):
    import camera_figures

    import web

    with tempfile.TemporaryDirectory() as tmp:
        deck = camera_figures.render_held_out(os.path.join(tmp, "cards"))
        site = os.path.join(tmp, "site")
        web.build(site)
        out = figures(site, deck)
    if "--json" in argv:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print("%-24s %s" % (k, v))


if __name__ == "__main__":
    main(sys.argv[1:])
