"""Text on a target that has only pixel(), and ink widths: what the host's tools and tests
use of ui/text.py. A board's panel (a framebuf) has blit and fill_rect and no screen asks
for an ink width, so the board never loads this module, and Text keeps only a call to it.
"""


def draw_pixels(text, fb, s, x, y, color):
    """Text.draw through fb.pixel(x, y, c)."""
    buf = text._buf
    bpr = text._bpr
    b = text._utf8(s)
    while text._i < len(b):
        w = text._load(text._next(b), 0)
        for r in range(text.height):
            row = r * bpr
            for c in range(w):
                if buf[row + (c >> 3)] & (0x80 >> (c & 7)):
                    fb.pixel(x + c, y + r, color)
        x += w
    return x


class Rects:
    """A pixel()-only target with the fill_rect() that Text.draw_big uses."""

    def __init__(self, fb):
        self.fb = fb

    def fill_rect(self, x, y, w, h, color):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.fb.pixel(xx, yy, color)


def _ink(text, off):
    """Rightmost lit column + 1 of one glyph (0 if it is blank)."""
    w = text._load(off, 0)
    buf = text._buf
    bpr = text._bpr
    for c in range(w - 1, -1, -1):
        mask = 0x80 >> (c & 7)
        byte = c >> 3
        for r in range(text.height):
            if buf[r * bpr + byte] & mask:
                return c + 1
    return 0


def ink_width(text, s):
    """Text.ink_width: the rightmost lit column + 1 of `s` drawn at x=0 (0 if none is lit)."""
    x = 0
    right = 0
    b = text._utf8(s)
    while text._i < len(b):
        off = text._next(b)
        ink = _ink(text, off)
        if ink:
            right = x + ink
        x += text._advance(off)
    return right
