"""Text in a font_to_py bitmap font on any framebuf-like target.

    import font6x10                              # the host's module form (tools/)
    from ui.text import Text
    text = Text(font6x10)
    x = text.draw(fb, "Рахунок: 66", 0, 0)       # returns the x after the text
    text.draw_big(fb, "42", 10, 20, 3)           # score digits, 3x, drawn with fill_rect

A target is anything with `blit(fbuf, x, y, key)` (a framebuf.FrameBuffer or a display built
on one) or else `pixel(x, y, c)`; `draw_big` uses `fill_rect(x, y, w, h, c)` or else `pixel`.
Colours are 0 and 1 (a monochrome panel). Drawing through pixel(), and ink_width(text, s),
are in ui/textpixel.py, loaded only when asked: CPython has no framebuf, so its tests and the
host's tools draw through pixel(); the board never loads it. Its glyphs(text, s) hands out
the glyphs one by one, for the tools that draw text elsewhere (code a board never holds).

Drawing allocates nothing per character: every glyph is copied into one preallocated
bytearray, wrapped once in a MONO_HLSB FrameBuffer, and blitted with the background as the
transparent key (framebuf cannot wrap the font's read-only memoryview directly). Glyphs are
looked up in an array of the font's character codes (made at boot by ui/fontload.py, which
also reads font files), not through font.get_ch(), which returns a new memoryview slice and
tuple per call. A string is read as its UTF-8 bytes,
copied into a buffer the Text keeps, and its code points are decoded here: iterating a
str in MicroPython interns every character it yields as a qstr, which stays in the heap
for good and is searched for (through every qstr made since boot) at each later one.

Widths: `width(s)` is the sum of the advances, the x distance `draw` moves;
ui/textpixel.py's `ink_width(text, s)` is the rightmost lit column + 1 (tight
right-alignment). In misc-fixed the last column of most glyphs is the gap between letters,
so ink_width is usually width - 1; not for every glyph.

A character the font lacks draws as a placeholder (a checkered cell of the font's maximum
advance), never as nothing. The font must be made with font_to_py -x (horizontal mapping,
no bit reversal); both its normal and its sparse index layouts are read. On the board the
font is a file (board_font()), its bitmaps read from flash one glyph at a time.
"""

from compat import const
from loader import drop

_TYPE_CHECKING = const(0)  # as in hw/display.py: for the type check only
if _TYPE_CHECKING:
    from array import array


class Text:
    # What ui/fontload.py reads of the font. Declarations only: mpy-cross compiles neither
    # code nor a name for an annotation without a value, so they cost nothing on the board.
    height: int
    baseline: int
    advance: int
    row_bytes: int
    _file: object  # a font file, or a BytesIO over a font module's data
    _dbase: int
    _codes: "array[int]"  # the characters' codes, sorted: an array("H")
    _offs: "array[int] | None"  # the glyphs' data offsets, used when _step is 0
    _base: int
    _step: int
    _mono: bool
    _rec: bytearray
    glyph: bytearray
    _fb: object  # a framebuf.FrameBuffer over glyph, or None
    _sb: bytearray
    _i: int
    _ph: bytearray

    def __init__(self, font):
        """`font`: a font_to_py module, or a font file's path (board_font())."""
        from ui.fontload import read  # boot-only code: dropped once the font is read

        (self.height, self.baseline, self.advance, self.row_bytes, self._file, self._dbase,
         self._codes, self._offs, self._base, self._step, self._mono, self._rec, self.glyph,
         self._fb, self._sb, self._ph) = read(font)
        self._i = 0  # _next()'s cursor in _sb
        drop("font")

    # -- glyph lookup (no allocation) ------------------------------------------------------

    def _utf8(self, s):
        """The UTF-8 bytes of `s`, copied into the instance's buffer (no allocation up to its
        size; a longer string grows it), for _next() to read from the start."""
        self._i = 0
        b = self._sb
        b[:] = b""
        try:
            b.extend(s)  # MicroPython: a str has a buffer
        except TypeError:  # CPython: it has not
            b.extend(s.encode())
        return b

    def _next(self, b):
        """The glyph of the character at byte self._i of UTF-8 bytes `b`: its offset in the
        font data, or -1 if the font lacks it; self._i moves past it. A cursor in the
        instance: a returned pair would be an allocation."""
        i = self._i
        c = b[i]
        if c < 0x80:
            i += 1
        elif c < 0xE0:
            c = (c & 0x1F) << 6 | b[i + 1] & 0x3F
            i += 2
        elif c < 0xF0:
            c = (c & 0x0F) << 12 | (b[i + 1] & 0x3F) << 6 | b[i + 2] & 0x3F
            i += 3
        else:  # four bytes: beyond every font's characters here
            c = -1
            i += 4
        self._i = i
        # A binary search of the font's character codes.
        codes = self._codes
        lo = 0
        hi = len(codes)  # the codes from lo up to (not including) hi are left to search
        while lo < hi:
            mid = (lo + hi) >> 1
            v = codes[mid]
            if v == c:
                step = self._step
                return self._base + mid * step if step else self._offs[mid]  # pyright: ignore[reportOptionalSubscript]
            if v < c:
                lo = mid + 1
            else:
                hi = mid
        return -1

    def has(self, ch):
        """True if every character of `ch` is in the font."""
        b = self._utf8(ch)
        while self._i < len(b):
            if self._next(b) < 0:
                return False
        return True

    def _advance(self, off):
        """The width of the glyph at `off` (the placeholder's for -1)."""
        if off < 0 or self._mono:
            return self.advance
        rec = self._rec
        f = self._file
        f.seek(self._dbase + off)  # pyright: ignore[reportAttributeAccessIssue]
        f.readinto(rec)  # pyright: ignore[reportAttributeAccessIssue]  (its first two bytes)
        return rec[0] | (rec[1] << 8)

    def _load(self, off, inv):
        """Copy a glyph (or the placeholder) into the glyph buffer, XOR inv; return its width."""
        buf = self.glyph
        bpr = self.row_bytes
        h = self.height
        w = self._advance(off)  # the placeholder's for -1
        if off < 0:
            src = self._ph
            sb = bpr
        else:
            sb = ((w - 1) >> 3) + 1  # bytes per row of this glyph's bitmap
            src = self._rec
            f = self._file
            f.seek(self._dbase + off + 2)  # pyright: ignore[reportAttributeAccessIssue]
            f.readinto(src if sb == bpr else memoryview(src)[:sb * h])  # pyright: ignore
        if sb == 1 and bpr == 1:
            for r in range(h):
                buf[r] = src[r] ^ inv
            return w
        i = 0
        start = 0
        for _r in range(h):
            for b in range(bpr):
                buf[i] = (src[start + b] if b < sb else 0) ^ inv
                i += 1
            start += sb
        return w

    # -- measuring -------------------------------------------------------------------------

    def width(self, s):
        """Advance width of `s` in pixels: how far draw() moves x."""
        total = 0
        b = self._utf8(s)
        while self._i < len(b):
            total += self._advance(self._next(b))
        return total

    def fits(self, s, width):
        return self.width(s) <= width

    def clip(self, s, width, ellipsis="\u2026"):
        """`s` if it fits in `width` pixels, else its longest prefix + ellipsis that fits.

        The ellipsis falls back to "..." if the font lacks it, and is dropped if even it does
        not fit. Allocates the new string: call it when a label is set, not on every frame.
        """
        if self.fits(s, width):
            return s
        if not self.has(ellipsis):
            ellipsis = "..."
        room = width - self.width(ellipsis)
        if room < 0:
            ellipsis = ""
            room = width
        n = 0  # characters that fit
        used = 0
        b = self._utf8(s)
        while self._i < len(b):
            used += self._advance(self._next(b))
            if used > room:
                break
            n += 1
        return s[:n] + ellipsis

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, fb, s, x, y, color=1):
        """Draw `s` with its top-left at (x, y); lit pixels get `color`, others stay.

        Returns the x after the text (x + width(s)).
        """
        key = not color  # colour 0: invert the glyph, the background (1) is the key
        inv = key * 0xFF
        gfb = self._fb
        if gfb is None or not hasattr(fb, "blit"):  # CPython, or a pixel()-only target
            from ui.textpixel import draw_pixels

            return draw_pixels(self, fb, s, x, y, 1 - key)
        b = self._utf8(s)
        while self._i < len(b):
            w = self._load(self._next(b), inv)
            fb.blit(gfb, x, y, key)
            x += w
        return x

    def big_width(self, s, scale=2):
        return self.width(s) * scale

    def draw_big(self, fb, s, x, y, scale=2, color=1):
        """Draw `s` magnified `scale` times (each font pixel a scale x scale block).

        Meant for the score digits; any character works. Horizontal runs of lit pixels are
        one fill_rect each. Returns the x after the text (x + big_width(s, scale)).
        """
        if not hasattr(fb, "fill_rect"):  # a pixel()-only target
            from ui.textpixel import Rects

            fb = Rects(fb)
        buf = self.glyph
        bpr = self.row_bytes
        b = self._utf8(s)
        while self._i < len(b):
            w = self._load(self._next(b), 0)
            yy = y
            for r in range(self.height):
                row = r * bpr
                c = 0
                while c < w:
                    c0 = c  # a run of lit pixels from c0 to c (none if c0's is dark)
                    while c < w and buf[row + (c >> 3)] & (0x80 >> (c & 7)):
                        c += 1
                    if c > c0:
                        fb.fill_rect(x + c0 * scale, yy, (c - c0) * scale, scale, color)
                    c += 1  # past the dark pixel that ended the run
                yy += scale
            x += w * scale
        return x


def board_font():
    """The UI's font: the path of ui/font6x10.bin, beside this module. Its bitmaps stay in
    the file (ui/fontload.py)."""
    here = __file__
    return here[:here.rfind("/") + 1] + "font6x10.bin"
