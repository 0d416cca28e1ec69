"""Boot-only: a font read for ui/text.py's Text. Text.__init__ loads this module and
drops it again (on the board every module's code is heap, and this runs once).

A font is a font_to_py module (made with -x, without -r; its index sparse or normal), or
the path of a font file (ui.text.board_font()), which tools/make_font.py writes from the
module: b"S66F", version, height, baseline, max width, index length, data length (16-bit),
then the module's sparse index and its glyph data, as they are. A font file's bitmaps stay
in the file (on the board: in flash); a module's are read through a BytesIO over its bytes,
the same way. Text reads one glyph at a time, with one seek and one readinto, and keeps in
RAM only what it needs to find one:

- the characters, one sorted array of their codes (2 bytes a glyph: the 6x10 font's 229
  take 458 bytes; its sparse index takes 916). A glyph's data offset is base + i * stride
  when the glyphs are evenly spaced, as font_to_py lays out glyphs of one size; else
  there is an array of the offsets too;
- no widths: misc-fixed is monospaced (a table of them took 459 bytes); a font whose
  widths differ has each one read from the file with its glyph;
- the placeholder, a checkered cell drawn for a character the font lacks.
"""

from array import array
from io import BytesIO

try:
    import framebuf
except ImportError:  # CPython: Text draws through pixel()
    framebuf = None


def _sparse(index, codes, offs):
    """A sparse index's (code, offset / 8) records of 16-bit numbers, sorted by code."""
    for i in range(0, len(index), 4):
        codes.append(index[i] | (index[i + 1] << 8))
        offs.append((index[i + 2] | (index[i + 3] << 8)) << 3)


def read(font):
    """What a Text needs of `font` (a font_to_py module or a font file's path), in the
    order Text.__init__ takes it: height, baseline, advance, bytes per glyph row, the file,
    its data's start, the codes, the offsets (None when evenly spaced), the first offset,
    the step, monospaced or not, the glyph buffers (read, drawn, its FrameBuffer), the
    UTF-8 buffer and the placeholder."""
    codes = array("H")
    offs = array("I")  # kept as Text._offs when the glyphs are not evenly spaced
    if isinstance(font, str):
        f = open(font, "rb")
        head = f.read(12)
        if head[:4] != b"S66F" or head[4] != 1:
            f.close()
            raise ValueError("not a font file: " + font)
        h, base, w = head[5], head[6], head[7]
        index = f.read(head[8] | (head[9] << 8))
        dstart = 12 + len(index)
        _sparse(index, codes, offs)
    else:
        if not font.hmap() or font.reverse():
            raise ValueError("font must be made with font_to_py -x and without -r")
        # Its glyph data is read as a font file's is, from a BytesIO over the module's
        # bytes (MicroPython's does not copy them).
        f = BytesIO(font._font)
        h, base, w = font.height(), font.baseline(), font.max_width()
        dstart = 0
        index = getattr(font, "_mvsp", None)
        if index is not None:
            _sparse(index, codes, offs)
        else:  # one offset per code from min_ch() to max_ch(), after the default glyph's
            index = font._mvi
            lo = font.min_ch()
            for code in range(lo, font.max_ch() + 1):  # (0: not in the font)
                i = (code - lo + 1) << 1
                off = index[i] | (index[i + 1] << 8)
                if off:
                    codes.append(code)
                    offs.append(off)
    n = len(offs)
    step = offs[1] - offs[0] if n > 1 else 1
    for i in range(n):
        if offs[i] != offs[0] + i * step:
            step = 0  # not evenly spaced: Text looks offsets up in _offs
    bpr = (w + 7) >> 3  # bytes per row of the glyph buffer
    # Every glyph `w` (the advance) wide, or each one's width read with its bitmap. A
    # glyph's width is the first two bytes of its data, compared as read: no table of them.
    two = bytearray(2)
    mono = True
    for off in offs:
        f.seek(dstart + off)  # pyright: ignore[reportAttributeAccessIssue]
        f.readinto(two)  # pyright: ignore[reportAttributeAccessIssue]
        if two[0] | (two[1] << 8) != w:
            mono = False
    buf = bytearray(bpr * h)  # the glyph being drawn
    sb = bytearray(64)  # the UTF-8 bytes of the string being read (Text._utf8)
    sb[:] = b""  # empty, with room for 64: extend() within it allocates nothing
    # Placeholder: a checkered cell, one column narrower than the advance.
    ph = bytearray(bpr * h)
    for r in range(1, h - 1):
        for c in range(max(w - 1, 1)):
            if (r + c) & 1:
                ph[r * bpr + (c >> 3)] |= 0x80 >> (c & 7)
    return (h, base, w, bpr, f, dstart, codes, None if step else offs,
            offs[0] if n else 0, step, mono,
            bytearray(bpr * h),  # one glyph's bitmap, read from the file
            buf, None if framebuf is None else framebuf.FrameBuffer(buf, w, h, framebuf.MONO_HLSB),
            sb, ph)
