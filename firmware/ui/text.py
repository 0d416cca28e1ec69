"""Text in a font_to_py bitmap font (ui/font6x10.py) on any framebuf-like target.

    from ui import font6x10
    from ui.text import Text
    text = Text(font6x10)
    x = text.draw(fb, "Рахунок: 66", 0, 0)       # returns the x after the text
    text.draw_big(fb, "42", 10, 20, 3)           # score digits, 3x, drawn with fill_rect

A target is anything with `blit(fbuf, x, y, key)` (a framebuf.FrameBuffer or a display built
on one) or else `pixel(x, y, c)`; `draw_big` uses `fill_rect(x, y, w, h, c)` or else `pixel`.
Colours are 0 and 1 (a monochrome panel).

Drawing allocates nothing per character: every glyph is copied into one preallocated
bytearray, wrapped once in a MONO_HLSB FrameBuffer, and blitted with the background as the
transparent key (framebuf cannot wrap the font's read-only memoryview directly). Glyphs are
looked up by reading the font's index as plain bytes, not through font.get_ch(), which
returns a new memoryview slice and tuple per call.

Widths: `width(s)` is the sum of the advances, the x distance `draw` moves; `ink_width(s)` is
the rightmost lit column + 1 (tight right-alignment). In misc-fixed the last column of most
glyphs is the gap between letters, so ink_width is usually width - 1; not for every glyph.

A character the font lacks draws as a placeholder (a checkered cell of the font's maximum
advance), never as nothing. The font must be made with font_to_py -x (horizontal mapping,
no bit reversal); both its normal and its sparse index layouts are read.
"""

try:
    import framebuf
except ImportError:  # CPython: drawing falls back to pixel()
    framebuf = None


class Text:
    def __init__(self, font):
        if not font.hmap() or font.reverse():
            raise ValueError("font must be made with font_to_py -x and without -r")
        self.font = font
        self.height = h = font.height()
        self.baseline = font.baseline()
        self.advance = w = font.max_width()  # widest glyph; the placeholder's advance
        self._bpr = bpr = (w + 7) >> 3  # bytes per row of the glyph buffer
        # A FontFile keeps the bitmaps on flash and reads one glyph at a time.
        self._file = getattr(font, "file", None)
        self._widths = getattr(font, "widths", b"")  # a FontFile's: one width per glyph
        if self._file is not None:
            self._data = b""
            self._dbase = font.data_start
            self._rec = bytearray(bpr * h)  # one glyph's bitmap, read from the file
        else:
            self._data = font._mvfont
        sparse = getattr(font, "_mvsp", None)
        self._sparse = sparse
        if sparse is None:
            self._index = font._mvi
            self._min = font.min_ch()
            self._max = font.max_ch()
            self._n = 0
        else:
            self._n = len(sparse) >> 2
        self._buf = bytearray(bpr * h)
        self._fb = None
        if framebuf is not None:
            self._fb = framebuf.FrameBuffer(self._buf, w, h, framebuf.MONO_HLSB)
        # Placeholder: a checkered cell, one column narrower than the advance.
        ph = bytearray(bpr * h)
        for r in range(1, h - 1):
            for c in range(max(w - 1, 1)):
                if (r + c) & 1:
                    ph[r * bpr + (c >> 3)] |= 0x80 >> (c & 7)
        self._ph = ph

    # -- glyph lookup (no allocation) ------------------------------------------------------

    def find(self, code):
        """Offset of the glyph for character code `code` in the font data, or -1."""
        sp = self._sparse
        if sp is None:
            if code < self._min or code > self._max:
                return -1
            i = (code - self._min + 1) << 1
            off = self._index[i] | (self._index[i + 1] << 8)
            return off if off else -1  # 0 is the index's "not in the font"
        lo = 0
        hi = self._n - 1
        while lo <= hi:
            mid = (lo + hi) >> 1
            i = mid << 2
            v = sp[i] | (sp[i + 1] << 8)
            if v == code:
                return (sp[i + 2] | (sp[i + 3] << 8)) << 3
            if v < code:
                lo = mid + 1
            else:
                hi = mid - 1
        return -1

    def has(self, ch):
        """True if every character of `ch` is in the font."""
        for c in ch:
            if self.find(ord(c)) < 0:
                return False
        return True

    def _advance(self, off):
        if off < 0:
            return self.advance
        if self._widths:
            return self._widths[off >> 3]
        d = self._data
        return d[off] | (d[off + 1] << 8)

    def _load(self, off, inv):
        """Copy a glyph (or the placeholder) into the glyph buffer, XOR inv; return its width."""
        buf = self._buf
        bpr = self._bpr
        if off < 0:
            src = self._ph
            start = 0
            w = self.advance
            sb = bpr
        elif self._file is not None:
            w = self._widths[off >> 3]
            sb = ((w - 1) >> 3) + 1
            src = self._rec
            start = 0
            f = self._file
            f.seek(self._dbase + off + 2)
            if sb == bpr:
                f.readinto(src)
            else:
                f.readinto(memoryview(src)[:sb * self.height])
        else:
            src = self._data
            w = src[off] | (src[off + 1] << 8)
            start = off + 2
            sb = ((w - 1) >> 3) + 1
        i = 0
        if sb == bpr == 1:
            for r in range(self.height):
                buf[r] = src[start + r] ^ inv
            return w
        for _r in range(self.height):
            for b in range(bpr):
                buf[i] = (src[start + b] if b < sb else 0) ^ inv
                i += 1
            start += sb
        return w

    def _ink(self, off):
        """Rightmost lit column + 1 of one glyph (0 if it is blank)."""
        w = self._load(off, 0)
        buf = self._buf
        bpr = self._bpr
        for c in range(w - 1, -1, -1):
            mask = 0x80 >> (c & 7)
            byte = c >> 3
            for r in range(self.height):
                if buf[r * bpr + byte] & mask:
                    return c + 1
        return 0

    # -- measuring -------------------------------------------------------------------------

    def width(self, s):
        """Advance width of `s` in pixels: how far draw() moves x."""
        total = 0
        for ch in s:
            total += self._advance(self.find(ord(ch)))
        return total

    def ink_width(self, s):
        """Rightmost lit column + 1 of `s` drawn at x=0 (0 if nothing is lit)."""
        x = 0
        right = 0
        for ch in s:
            off = self.find(ord(ch))
            ink = self._ink(off)
            if ink:
                right = x + ink
            x += self._advance(off)
        return right

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
        n = 0
        used = 0
        for ch in s:
            used += self._advance(self.find(ord(ch)))
            if used > room:
                break
            n += 1
        return s[:n] + ellipsis

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, fb, s, x, y, color=1):
        """Draw `s` with its top-left at (x, y); lit pixels get `color`, others stay.

        Returns the x after the text (x + width(s)).
        """
        inv = 0 if color else 0xFF  # colour 0: invert the glyph, the background is the key
        key = 0 if color else 1
        gfb = self._fb
        if gfb is None or not hasattr(fb, "blit"):
            return self._draw_pixels(fb, s, x, y, 1 if color else 0)
        for ch in s:
            w = self._load(self.find(ord(ch)), inv)
            fb.blit(gfb, x, y, key)
            x += w
        return x

    def _draw_pixels(self, fb, s, x, y, color):
        buf = self._buf
        bpr = self._bpr
        for ch in s:
            w = self._load(self.find(ord(ch)), 0)
            for r in range(self.height):
                row = r * bpr
                for c in range(w):
                    if buf[row + (c >> 3)] & (0x80 >> (c & 7)):
                        fb.pixel(x + c, y + r, color)
            x += w
        return x

    def big_width(self, s, scale=2):
        return self.width(s) * scale

    def draw_big(self, fb, s, x, y, scale=2, color=1):
        """Draw `s` magnified `scale` times (each font pixel a scale x scale block).

        Meant for the score digits; any character works. Horizontal runs of lit pixels are
        one fill_rect each. Returns the x after the text (x + big_width(s, scale)).
        """
        buf = self._buf
        bpr = self._bpr
        rect = hasattr(fb, "fill_rect")
        for ch in s:
            w = self._load(self.find(ord(ch)), 0)
            yy = y
            for r in range(self.height):
                row = r * bpr
                c = 0
                while c < w:
                    if buf[row + (c >> 3)] & (0x80 >> (c & 7)):
                        c0 = c
                        c += 1
                        while c < w and buf[row + (c >> 3)] & (0x80 >> (c & 7)):
                            c += 1
                        if rect:
                            fb.fill_rect(x + c0 * scale, yy, (c - c0) * scale, scale, color)
                        else:
                            self._block(fb, x + c0 * scale, yy, (c - c0) * scale, scale, color)
                    c += 1
                yy += scale
            x += w * scale
        return x

    @staticmethod
    def _block(fb, x, y, w, h, color):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                fb.pixel(xx, yy, color)


class FontFile:
    """A font_to_py font whose bitmaps stay in a file (on the board: in flash).

    Only the index and one width per glyph are held in RAM, about 1.2 KB for the 6x10
    font instead of the ~7 KB its module costs as .mpy; Text reads each glyph with one
    seek and one readinto. The file is written by tools/make_font.py from the font module:
    b"S66F", version, height, baseline, max width, index length, data length (16-bit),
    then the module's sparse index and its glyph data, as they are.
    """

    def __init__(self, path):
        f = open(path, "rb")
        head = f.read(10)
        if head[:4] != b"S66F" or head[4] != 1:
            f.close()
            raise ValueError("not a font file: " + path)
        self._h = head[5]
        self._base = head[6]
        self._maxw = head[7]
        n = head[8] | (head[9] << 8)
        f.read(2)  # data length: the rest of the file
        self._mvsp = f.read(n)
        self.data_start = 12 + n
        # One width per glyph, indexed by its data offset / 8 (as the index stores it).
        top = 0
        for i in range(0, n, 4):
            top = max(top, self._mvsp[i + 2] | (self._mvsp[i + 3] << 8))
        widths = bytearray(top + 1)
        two = bytearray(2)
        for i in range(0, n, 4):
            g = self._mvsp[i + 2] | (self._mvsp[i + 3] << 8)
            f.seek(self.data_start + (g << 3))
            f.readinto(two)
            widths[g] = two[0]
        self.widths = widths
        self.file = f

    def height(self):
        return self._h

    def baseline(self):
        return self._base

    def max_width(self):
        return self._maxw

    def hmap(self):
        return True

    def reverse(self):
        return False


def board_font():
    """The UI's font, read from ui/font6x10.bin beside this module."""
    here = __file__
    cut = here.rfind("/")
    return FontFile((here[:cut + 1] if cut >= 0 else "") + "font6x10.bin")
