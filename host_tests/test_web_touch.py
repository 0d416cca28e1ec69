"""The browser build on a phone: touch keys that count when touched, the beeper through Web
Audio following the sound setting, and the PNG icons that installing needs. In a real
headless Chromium (Debian's chromium, npm playwright-core) with real touch events; the
icons' files are checked against their tool (tools/web_icons.py) as well.
"""

import json
import os
import struct
import zlib

import browser
import pytest
import web_icons
from conftest import ROOT
from keyseq import KEYPAD, SETTINGS, first_deal, menu
from sixtysix.match import Match
from test_web import run

import web

no_browser = pytest.mark.skipif(browser.missing() is not None, reason=browser.missing() or "")


def keys_of(entries):
    return "".join(k for _line, k in entries)


def pixels(data):
    """pixel(x, y) of a 1-bit indexed PNG with no filters (tools/screenshots.py's)."""
    w, _h = png_size(data)
    raw = zlib.decompress(data[data.index(b"IDAT") + 4:data.index(b"IEND") - 8])
    stride = 1 + (w + 7) // 8
    return lambda x, y: bool(raw[y * stride + 1 + x // 8] & (0x80 >> (x % 8)))


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


# --- keys that count when touched --------------------------------------------------------

# Each input event and each frame painted on the canvas, in order, as the page sees them.
EVENTS = """
window.s66ev = [];
addEventListener("pointerdown", () => window.s66ev.push("down"), true);
addEventListener("pointerup", () => window.s66ev.push("up"), true);
const put = CanvasRenderingContext2D.prototype.putImageData;
CanvasRenderingContext2D.prototype.putImageData = function (...args) {
  window.s66ev.push("frame");
  return put.apply(this, args);
};
"""
# The events so far, and a fresh list, once every frame asked for is on the canvas (a frame
# waits for its writes to be on disk, web/durable.js).
TAKE = "window.s66.idle().then(() => window.s66ev.splice(0))"


@no_browser
def test_a_tap_counts_when_the_key_is_touched_and_held_keys_keep_the_boards_timing(site):
    # A press counted on release, as the board's keys do: the finger's time on the glass
    # came on top of every key's latency. Now a key counts at pointerdown; only * and #
    # (which mean something when held) wait for the release or for LONG_MS.
    start = keys_of(first_deal(KEYPAD)[:2])  # a new match and its trump
    r = run(site, [{"do": "open"}, {"do": "type", "keys": start},
                   {"do": "eval", "js": TAKE},
                   {"do": "tap", "keys": "a", "hold": 200}, {"do": "eval", "js": TAKE},
                   {"do": "tap", "keys": "*", "hold": 200}, {"do": "eval", "js": TAKE},
                   {"do": "tap", "keys": "a", "hold": 200}, {"do": "tap", "keys": "z"},
                   {"do": "eval", "js": TAKE},
                   {"do": "state"}],
            touch=True, init=EVENTS)
    assert r[4] == ["down", "frame", "up"]  # player A: drawn while the finger is still on
    assert r[6] == ["down", "up", "frame"]  # * (undo): on release, as on the board
    # a, then * held: a long press (redo) drawn at LONG_MS, while held; the release adds none
    assert r[9] == ["down", "frame", "up", "down", "frame", "up"]
    state = r[10]
    assert state["deals"] == 0 and state["deal"]["played"] == 0  # nothing counted twice


@no_browser
def test_the_held_keys_are_those_the_keymap_gives_a_long_meaning(site):
    r = run(site, [{"do": "open"}, {"do": "eval", "js": "window.s66.held()"}, {"do": "switch"},
                   {"do": "eval", "js": "window.s66.held()"}])
    assert r[1] == ["#", "*"]
    assert r[3] == ["BACK", "OK", "UP"]


# --- the beeper --------------------------------------------------------------------------

# Every oscillator the page starts: its frequency and how long it sounds.
AUDIO = """
window.s66beeps = [];
const start = OscillatorNode.prototype.start;
const stop = OscillatorNode.prototype.stop;
OscillatorNode.prototype.start = function (when) {
  this.s66at = when || 0;
  window.s66beeps.push([this.frequency.value, null]);
  this.s66i = window.s66beeps.length - 1;
  return start.apply(this, arguments);
};
OscillatorNode.prototype.stop = function (when) {
  window.s66beeps[this.s66i][1] = Math.round(((when || 0) - this.s66at) * 1000);
  return stop.apply(this, arguments);
};
"""


@no_browser
@pytest.mark.parametrize("sound", [True, False])
def test_the_beeper_plays_the_boards_tones_unless_the_sound_setting_is_off(site, sound):
    entries = first_deal(KEYPAD)
    m = Match()
    for line, _k in entries[:2]:
        m.enter_line(line)
    # Settings -> sound (item 2 in the browser: no panel settings) switched off, then back
    # to the scoreboard (* twice)
    off = menu(m.state, KEYPAD, SETTINGS) + "2**" if not sound else ""
    keys = keys_of(entries[:2]) + off + keys_of(entries[2:])
    r = run(site, [{"do": "open"}, {"do": "tap", "keys": keys}, {"do": "state"},
                   {"do": "eval", "js": "window.s66beeps"},
                   {"do": "eval", "js": "document.body.dataset.tones"}],
            touch=True, init=AUDIO)
    state, beeps, tones = r[2], r[3], json.loads(r[4])
    assert state["deals"] == 1  # the deal was played to its end
    assert tones == web.board_tones()
    if sound:
        assert beeps == [tones[1]]  # "deal over": loop.py's frequency and length
    else:
        assert beeps == []


# --- icons -------------------------------------------------------------------------------

def test_the_icons_are_the_tools_drawing_of_icon_svg(tmp_path):
    web_icons.write(str(tmp_path))
    for name, px in web_icons.ICONS:
        with open(os.path.join(ROOT, "web", name), "rb") as f:
            committed = f.read()
        assert png_size(committed) == (px, px), name
        assert (tmp_path / name).read_bytes() == committed, "run tools/web_icons.py: " + name
    # the drawing is the SVG's: the same lit cells, scaled
    with open(os.path.join(ROOT, "web", "icon.svg"), encoding="utf-8") as f:
        size, back, ink, lit = web_icons.grid(f.read())
    assert size == 16 and back == (0, 0, 0) and ink == (0xbf, 0xe6, 0xff) and len(lit) == 36
    for name, px in web_icons.ICONS:
        pixel = pixels((tmp_path / name).read_bytes())
        for y in range(size):
            for x in range(size):
                mid = ((2 * x + 1) * px // (2 * size), (2 * y + 1) * px // (2 * size))
                assert pixel(*mid) == ((x, y) in lit), (name, x, y)


ICON_CHECK = """(async () => {
  const manifest = await (await fetch(document.querySelector('link[rel=manifest]').href)).json();
  const apple = document.querySelector('link[rel=apple-touch-icon]');
  const pngs = manifest.icons.filter((i) => i.type === 'image/png').map((i) => [i.src, i.sizes]);
  pngs.push([apple.getAttribute('href'), apple.getAttribute('sizes')]);
  const out = [];
  for (const [src, sizes] of pngs) {
    const r = await fetch(src);
    const b = new DataView(await r.arrayBuffer());
    const cached = await caches.match(src);
    out.push([src, sizes, r.status, r.headers.get('content-type'),
              b.getUint32(16) + 'x' + b.getUint32(20), cached !== undefined]);
  }
  return out;
})()"""


@no_browser
def test_the_page_and_manifest_name_the_icons_and_the_worker_serves_them_offline(site):
    r = run(site, [{"do": "open"}, {"do": "worker"}, {"do": "offline", "on": True},
                   {"do": "eval", "js": ICON_CHECK}])
    got = {src: rest for src, *rest in r[3]}
    assert set(got) == {name for name, _px in web_icons.ICONS}
    for name, px in web_icons.ICONS:
        sizes, status, kind, real, cached = got[name]
        assert sizes == real == "%dx%d" % (px, px), name
        assert (status, kind, cached) == (200, "image/png", True), name
