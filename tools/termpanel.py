"""The 128x64 panel as lines of terminal text, in several sizes, and back to pixels.

Runs in MicroPython (tools/sim.py draws with it) and CPython (tools/screenshots.py reads
the simulator's dumps back). A mode packs a block of pixels into one character: the
block's pixels, read left to right and top to bottom, are the bits (first = bit 0) of an
index into the mode's glyphs.

| mode      | pixels per character | text size | looks like                         |
|-----------|----------------------|-----------|------------------------------------|
| `quad`    | 2 x 2                | 64 x 32   | the default: fits 80x36            |
| `half`    | 1 x 2 (half blocks)  | 128 x 32  | square pixels, twice as wide       |
| `big`     | 1 x 1 (two blocks)   | 256 x 64  | square pixels, four times the area |
| `braille` | 2 x 4 (dots)         | 64 x 16   | small, dotted like an OLED         |
"""

W = 128
H = 64

# bit 0 top left, 1 top right, 2 bottom left, 3 bottom right
QUADS = (" \u2598\u259d\u2580\u2596\u258c\u259e\u259b"
         "\u2597\u259a\u2590\u259c\u2584\u2599\u259f\u2588")
HALVES = (" ", "\u2580", "\u2584", "\u2588")  # bit 0 top, bit 1 bottom
BIG = ("  ", "\u2588\u2588")  # two cells per pixel: terminal cells are twice as tall as wide

# Braille dots: the bit of U+2800 for the pixel at (x, y) of a 2x4 block, indexed y*2+x.
_DOTS = (0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80)

MODES = ("quad", "half", "big", "braille")
_SIZE = {"quad": (2, 2), "half": (1, 2), "big": (1, 1), "braille": (2, 4)}
_cache = {}


def glyphs(mode):
    """The mode's characters, indexed by the bits of a block of pixels."""
    if mode not in _cache:
        if mode == "quad":
            _cache[mode] = QUADS
        elif mode == "half":
            _cache[mode] = HALVES
        elif mode == "big":
            _cache[mode] = BIG
        elif mode == "braille":
            table = []
            for index in range(256):
                dots = 0
                for bit in range(8):
                    if index >> bit & 1:
                        dots |= _DOTS[bit]
                table.append(chr(0x2800 + dots))
            _cache[mode] = tuple(table)
        else:
            raise ValueError("panel mode: " + ", ".join(MODES))
    return _cache[mode]


def lines(pixel, mode="quad"):
    """The panel as text lines; pixel(x, y) is 0 or 1 (a FrameBuffer's pixel method)."""
    across, down = _SIZE[mode]
    table = glyphs(mode)
    out = []
    for top in range(0, H, down):
        chars = []
        for left in range(0, W, across):
            index = 0
            bit = 0
            for y in range(top, top + down):
                for x in range(left, left + across):
                    if pixel(x, y):
                        index |= 1 << bit
                    bit += 1
            chars.append(table[index])
        out.append("".join(chars))
    return out


def pixels(text_lines, mode="quad"):
    """Text lines of a mode back to the panel: H rows of W 0/1 values."""
    across, down = _SIZE[mode]
    table = glyphs(mode)
    width = len(table[0])  # characters per glyph
    index_of = {g: i for i, g in enumerate(table)}
    px = [[0] * W for _ in range(H)]
    for row, line in enumerate(text_lines[:H // down]):
        for col in range(W // across):
            index = index_of[line[col * width:(col + 1) * width]]
            bit = 0
            for y in range(row * down, (row + 1) * down):
                for x in range(col * across, (col + 1) * across):
                    px[y][x] = index >> bit & 1
                    bit += 1
    return px
