"""Text on a target that has only pixel(), and ink widths: ui/text.py's, loaded only when
asked. A board's panel (a framebuf) has blit and fill_rect and no screen asks for an ink
width, so the board never loads this module; CPython (no framebuf: the host's tests and
tools) draws through it. It steps through the glyphs as Text itself does, allocating
nothing per character (glyphs() below, the tools' way, makes a generator per call).
"""


def draw_pixels(text, fb, s, x, y, color):
    """Text.draw through fb.pixel(x, y, c)."""
    buf = text.glyph
    bpr = text.row_bytes
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


def _ink(text, w):
    """Rightmost lit column + 1 of the glyph in text.glyph, w wide (0 if it is blank)."""
    buf = text.glyph
    bpr = text.row_bytes
    for c in range(w - 1, -1, -1):
        mask = 0x80 >> (c & 7)
        byte = c >> 3
        for r in range(text.height):
            if buf[r * bpr + byte] & mask:
                return c + 1
    return 0


def ink_width(text, s):
    """The rightmost lit column + 1 of `s` drawn at x=0 in Text text's font (0 if none is
    lit): a tight right-alignment, for the tools (a board's screen never asks)."""
    x = 0
    right = 0
    b = text._utf8(s)
    while text._i < len(b):
        w = text._load(text._next(b), 0)
        ink = _ink(text, w)
        if ink:
            right = x + ink
        x += w
    return right


def glyphs(text, s, inv=0):
    """The glyphs of `s` in Text text's font in turn (the font lacks one: the placeholder):
    yields each one's advance width, its bitmap XOR inv in text.glyph until the next one:
    text.height rows of text.row_bytes bytes, the leftmost pixel the top bit (MONO_HLSB).
    No other call of that Text while the loop runs (they share the string's buffer)."""
    b = text._utf8(s)
    while text._i < len(b):
        yield text._load(text._next(b), inv)

