"""Regenerate the screenshots in docs/img/: the firmware's own app in the simulator.

    .venv/bin/python tools/screenshots.py [--out docs/img] [--lang en,uk] [--only NAME,...]

Each screenshot is a fresh simulated flash: one run of tools/sim.py (MicroPython unix
port) boots it in the language, a second presses the keys and dumps the 128x64 panel
(quadrant characters, lossless), which is written here as a PNG: white on black like
the panel, each pixel a SCALE x SCALE block. The keys come from event lines through
tools/keyseq.py (the fewest presses the UI offers), so they follow the key layouts.

Files: NAME-LANG.png (SHOTS below), e.g. scoreboard-en.png; scoreboard-labelled.png, the
scoreboard with its parts named (LABELLED).

PNGs are written by a small deterministic encoder (1-bit greyscale, a fixed-Huffman
deflate stream with run and previous-row matches), not by zlib's compressor, whose output
may differ between zlib builds: the same screens give the same bytes on every machine,
so a test can compare the committed images byte for byte.
"""

import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
TOOLS = os.path.join(ROOT, "tools")
for _p in (FIRMWARE, TOOLS):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from keyseq import BUTTONS, KEYPAD, match_keys, menu, open_menu  # noqa: E402
from sixtysix.match import Match  # noqa: E402
from termpanel import H, W, pixels  # noqa: E402

SIM = os.path.join(TOOLS, "sim.py")
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
OUT = os.path.join(ROOT, "docs", "img")
LANGS = ("en", "uk")
SCALE = 4

# --- PNG --------------------------------------------------------------------------------

_LEN_BASE = (3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
             67, 83, 99, 115, 131, 163, 195, 227, 258)
_LEN_EXTRA = (0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
              5, 5, 5, 5, 0)
_DIST_BASE = (1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513,
              769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577)
_DIST_EXTRA = (0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
               11, 11, 12, 12, 13, 13)


class _Bits:
    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.n = 0

    def put(self, value, count):
        """`count` bits of `value`, least significant first (deflate's bit order)."""
        self.acc |= value << self.n
        self.n += count
        while self.n >= 8:
            self.out.append(self.acc & 0xFF)
            self.acc >>= 8
            self.n -= 8

    def huff(self, code, length):
        """A Huffman code: its most significant bit goes first."""
        rev = 0
        for _ in range(length):
            rev = (rev << 1) | (code & 1)
            code >>= 1
        self.put(rev, length)

    def lit(self, v):
        if v < 144:
            self.huff(0x30 + v, 8)
        elif v < 256:
            self.huff(0x190 + v - 144, 9)
        elif v < 280:
            self.huff(v - 256, 7)
        else:
            self.huff(0xC0 + v - 280, 8)

    def done(self):
        if self.n:
            self.out.append(self.acc & 0xFF)
        return bytes(self.out)


def _index(table, value):
    i = len(table) - 1
    while table[i] > value:
        i -= 1
    return i


def deflate(data, stride):
    """A zlib stream of `data`: one fixed-Huffman block whose only matches repeat the
    byte before (runs) or the row above (distance `stride`). Deterministic."""
    bits = _Bits()
    bits.put(1, 1)  # the last block
    bits.put(1, 2)  # fixed Huffman codes
    n = len(data)
    i = 0
    while i < n:
        best = 0
        dist = 0
        for d in (stride, 1):
            if i < d:
                continue
            k = 0
            limit = min(258, n - i)
            while k < limit and data[i + k] == data[i + k - d]:
                k += 1
            if k > best:
                best, dist = k, d
        if best >= 3:
            c = _index(_LEN_BASE, best)
            bits.lit(257 + c)
            bits.put(best - _LEN_BASE[c], _LEN_EXTRA[c])
            c = _index(_DIST_BASE, dist)
            bits.huff(c, 5)
            bits.put(dist - _DIST_BASE[c], _DIST_EXTRA[c])
            i += best
        else:
            bits.lit(data[i])
            i += 1
    bits.lit(256)
    return b"\x78\x01" + bits.done() + struct.pack(">I", zlib.adler32(data))


def _chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data)))


def png_bytes(width, height, rows, depth=1, palette=None, dpi=None):
    """A PNG from `rows` (each a bytes of packed pixels, without the filter byte):
    greyscale of `depth` bits, or indexed colour with `palette` [(r, g, b), ...];
    `dpi` adds the physical size (pHYs) so it prints true to size."""
    kind = 3 if palette else 0
    raw = bytearray()
    for row in rows:
        raw.append(0)  # filter: none
        raw.extend(row)
    stride = len(rows[0]) + 1
    out = b"\x89PNG\r\n\x1a\n"
    out += _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, kind, 0, 0, 0))
    if palette:
        out += _chunk(b"PLTE", b"".join(bytes(c) for c in palette))
    if dpi:
        ppm = int(round(dpi / 0.0254))
        out += _chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
    out += _chunk(b"IDAT", deflate(bytes(raw), stride))
    out += _chunk(b"IEND", b"")
    return out


def pack_bits(pixels):
    """A row of 0/1 pixels as 1-bit PNG bytes (most significant bit first)."""
    out = bytearray((len(pixels) + 7) // 8)
    for x, p in enumerate(pixels):
        if p:
            out[x >> 3] |= 0x80 >> (x & 7)
    return bytes(out)


def panel_png(lines, scale=SCALE):
    """The panel dump (32 lines of 64 quadrant characters) as a PNG, white on black."""
    px = pixels(lines)
    rows = []
    for y in range(H):
        row = pack_bits([p for p in px[y] for _ in range(scale)])
        rows.extend([row] * scale)
    return png_bytes(W * scale, H * scale, rows)


# --- the screens ------------------------------------------------------------------------

# A two-player deal under way: trump spades, player 2 (the leader) declares 20 in hearts
# and leads the queen; then player 2 leads again and loses to a trump.
TWO = ["new mariage dealer=1 names=Ann,Олег", "trump S", "marriage 2 H",
       "trick 2 Q 9", "trick 1 T J"]
# The same deal played out: player 2 reaches 66.
TWO_DONE = ["new mariage dealer=1 names=Ann,Олег", "trump S", "marriage 2 H", "trick 2 Q 9",
            "trick 2 A T", "trick 1 K A", "trick 1 T 9", "trick 2 J A", "trick 2 T K"]
THREE = ["new mariage3 dealer=1 names=Ann,Bob,Cat", "trump H", "trick 2 A T 9", "marriage 2 D",
         "trick 2 K J Q"]
FOUR = ["new mariage4 dealer=1", "result 1 3", "result 2 1", "result 1 1", "trump D",
        "trick 1 A T 9 K", "trick 3 A T J 9"]


def _match_over(first, results):
    """`first` then the results, cycled, until the match is over."""
    m = Match()
    lines = []
    for line in first:
        m.enter_line(line)
        lines.append(line)
    i = 0
    while not m.state.over:
        line = results[i % len(results)]
        m.enter_line(line)
        lines.append(line)
        i += 1
    return lines


def _history():
    """Two quick results, then a deal played to 66, so the newest shows why it ended."""
    return ["new mariage dealer=1", "result 1 2", "result 2 1", "trump H", "marriage 2 C",
            "trick 2 Q A", "trick 2 A T", "trick 1 K A", "trick 1 T 9", "trick 2 J A"]


def _keys(lines, layout, after=None):
    """The keys for these lines; `after(state, layout)` adds keys at the end."""
    keys = "".join(k for _line, k in match_keys(lines, layout))
    if after:
        m = Match()
        for line in lines:
            m.enter_line(line)
        keys += after(m.state, layout)
    return keys


def _menu(role):
    return lambda state, layout: menu(state, layout, role)


# name, layout, event lines, keys after them (a function, a string or None)
SHOTS = (
    ("new-match", KEYPAD, [], None),
    ("scoreboard", KEYPAD, TWO, "a2"),  # a trick under way: player 1, a ten
    ("scoreboard-buttons", BUTTONS, TWO, "ws"),  # the same on the soft keys
    ("scoreboard-buttons-players", BUTTONS, TWO, None),  # nothing under way
    ("deal-result", KEYPAD, TWO_DONE, None),
    ("menu", KEYPAD, TWO, open_menu),
    ("scoreboard-3", KEYPAD, THREE, None),
    ("scoreboard-4", KEYPAD, FOUR, None),
    ("match-result", KEYPAD, _match_over(["new classic66 dealer=1 names=Ann,Bob"],
                                         ["result 1 2", "result 2 1", "result 1 3"]), None),
    ("history", KEYPAD, _history(), _menu("history")),
    ("settings", KEYPAD, TWO, _menu("settings")),
)


# The scoreboard with its parts named (README, docs/keys.md): the shot, then each label
# with the panel row it points at (in the panel's pixels), English only.
LABELLED = ("scoreboard-labelled", KEYPAD, TWO, "a2")
LABELS = (("names, \u00b7 the dealer", 4), ("game points (big)", 21),
          ("card points (tricks), trump", 38), ("stock left, marriages", 48),
          ("the trick being typed", 59))
LABEL_SCALE = 2  # the labels' font, twice its size
LABEL_W = 28 * 6 * LABEL_SCALE  # the label column: 28 characters


def _lit(text, s):
    """`s` in Text's font as rows of 0 and 1, read glyph by glyph (ui/textpixel.py's glyphs())."""
    from ui.textpixel import glyphs

    rows = [[] for _ in range(text.height)]
    for w in glyphs(text, s):
        for r, row in enumerate(rows):
            bits = text.glyph[r * text.row_bytes:(r + 1) * text.row_bytes]
            row.extend(1 if bits[c >> 3] & (0x80 >> (c & 7)) else 0 for c in range(w))
    return rows


def labelled_png(lines, scale=SCALE):
    """The panel with labels at its left, each with a line to the row it names: white on
    black, the labels in the firmware's own font."""
    import font6x10
    from ui.text import Text

    gap = 40
    border = 8
    width = border + LABEL_W + gap + W * scale + border
    height = H * scale + 2 * border
    canvas = [[0] * width for _ in range(height)]

    text = Text(font6x10)
    x0 = border + LABEL_W + gap
    px = pixels(lines)
    for y in range(H):
        for x in range(W):
            if px[y][x]:
                for dy in range(scale):
                    row = canvas[border + y * scale + dy]
                    for dx in range(scale):
                        row[x0 + x * scale + dx] = 1
    for x in range(x0 - 2, x0 + W * scale + 2):  # a frame around the panel
        canvas[border - 2][x] = canvas[border + H * scale + 1][x] = 1
    for y in range(border - 2, border + H * scale + 2):
        canvas[y][x0 - 2] = canvas[y][x0 + W * scale + 1] = 1
    for label, row in LABELS:
        lit = _lit(text, label)
        top = border + row * scale - text.height * LABEL_SCALE // 2
        for y in range(text.height):
            for x in range(len(lit[0])):
                if lit[y][x]:
                    for dy in range(LABEL_SCALE):
                        for dx in range(LABEL_SCALE):
                            canvas[top + y * LABEL_SCALE + dy][
                                border + x * LABEL_SCALE + dx] = 1
        y = border + row * scale  # a line from the label to its row
        for x in range(border + text.width(label) * LABEL_SCALE + 6, x0 - 6):
            canvas[y][x] = 1
        for d in range(-2, 3):
            canvas[y + d][x0 - 6] = 1
    return png_bytes(width, height, [pack_bits(r) for r in canvas])


def shot_keys(shot):
    _name, layout, lines, after = shot
    if not lines:
        return ""
    if isinstance(after, str):
        return _keys(lines, layout) + after
    return _keys(lines, layout, after)


def _sim(micropython, args):
    env = dict(os.environ, MICROPYPATH=os.pathsep.join((FIRMWARE, TOOLS, ".frozen")))
    proc = subprocess.run([micropython, SIM] + args, cwd=ROOT, env=env,
                          capture_output=True, timeout=60)
    if proc.returncode:
        raise RuntimeError("sim.py failed: " + proc.stderr.decode(errors="replace"))


def render(shot, lang, tmp, micropython=MICROPYTHON):
    """The screen of one shot in one language, as the panel's 32 dump lines."""
    name, layout = shot[0], shot[1]
    flash = os.path.join(tmp, name + "-" + lang)
    if os.path.exists(flash):
        shutil.rmtree(flash)
    keyfile = flash + ".keys"
    dump = flash + ".txt"
    layout_args = ["--buttons"] if layout == BUTTONS else []
    # The first run boots the fresh flash in the language (the new-match list a fresh
    # flash opens with is built before --lang applies); the second presses the keys.
    with open(keyfile, "w") as f:
        f.write("")
    _sim(micropython, ["--flash", flash, "--lang", lang, "--keys-file", keyfile,
                       "--dump", dump] + layout_args)
    with open(keyfile, "w") as f:
        f.write(shot_keys(shot))
    _sim(micropython, ["--flash", flash, "--keys-file", keyfile, "--dump", dump] + layout_args)
    with open(dump, encoding="utf-8") as f:
        return f.read().split("\n")


def generate(out, langs=LANGS, only=None, micropython=MICROPYTHON):
    """Write every screenshot into `out`; returns the file names written."""
    os.makedirs(out, exist_ok=True)
    written = []
    tmp = tempfile.mkdtemp(prefix="screens")
    try:
        for shot in SHOTS:
            if only and shot[0] not in only:
                continue
            for lang in langs:
                data = panel_png(render(shot, lang, tmp, micropython))
                fname = shot[0] + "-" + lang + ".png"
                with open(os.path.join(out, fname), "wb") as f:
                    f.write(data)
                written.append(fname)
        if not only or LABELLED[0] in only:
            data = labelled_png(render(LABELLED, "en", tmp, micropython))
            fname = LABELLED[0] + ".png"
            with open(os.path.join(out, fname), "wb") as f:
                f.write(data)
            written.append(fname)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return written


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=OUT, help="folder for the PNGs (default docs/img)")
    ap.add_argument("--lang", default=",".join(LANGS), help="languages, comma-separated")
    ap.add_argument("--only", default="", help="screenshot names, comma-separated")
    ap.add_argument("--micropython", default=MICROPYTHON, help="the unix port's binary")
    args = ap.parse_args(argv)
    only = [s for s in args.only.split(",") if s]
    for fname in generate(args.out, args.lang.split(","), only, args.micropython):
        print(os.path.join(args.out, fname))
    return 0


if __name__ == "__main__":
    sys.exit(main())
