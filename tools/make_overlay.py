"""Draw docs/img/keypad-overlay.png: a printable overlay for the 4x4 membrane keypad.

    .venv/bin/python tools/make_overlay.py [--out docs/img/keypad-overlay.png]

The common 4x4 membrane keypad (rows 1 2 3 A / 4 5 6 B / 7 8 9 C / * 0 # D) has a key
pitch of about 17 mm. The PNG is true size at 300 dpi (its pHYs chunk says so): each key
cell is PITCH pixels (17.0 mm), the key grid 68 mm square inside a thin grey cut line;
under it a 50 mm ruler to check the print. Each key shows its own digit or letter small
(top left) and what it does on the scoreboard big (ui/scoreboard.py, ui/keymap.py).

Text is the firmware's own bitmap font (tools/font6x10.py, drawn by ui/text.py), each font
pixel a block of SCALE x SCALE printer dots. The PNG is written by tools/screenshots.py's
deterministic encoder, so the same overlay gives the same bytes everywhere.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tools")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import font6x10  # noqa: E402
from screenshots import png_bytes  # noqa: E402
from ui.text import Text  # noqa: E402
from ui.textpixel import ink_width  # noqa: E402

OUT = os.path.join(ROOT, "docs", "img", "keypad-overlay.png")
DPI = 300
PITCH = 201  # 17.0 mm at 300 dpi
MARGIN = 36  # around the key grid (3 mm)
FOOT = 96  # the caption and the ruler under the grid
SIZE = 4 * PITCH + 2 * MARGIN
WIDTH = SIZE
HEIGHT = SIZE + FOOT

WHITE, BLACK, RED, GREY = 0, 1, 2, 3
PALETTE = ((255, 255, 255), (0, 0, 0), (200, 0, 0), (170, 170, 170))

ROWS = ("123A", "456B", "789C", "*0#D")
SPADE, HEART, DIAMOND, CLUB = "\u2660", "\u2665", "\u2666", "\u2663"

# key: lines of (text, scale, colour), drawn centred under the key's own label.
MEANING = {
    "1": (("A", 9, BLACK),),
    "2": (("10", 9, BLACK),),
    "3": (("K", 9, BLACK),),
    "4": (("Q", 9, BLACK),),
    "5": (("J", 9, BLACK),),
    "6": (("9", 9, BLACK),),
    "7": ((SPADE, 10, BLACK),),
    "8": ((HEART, 10, RED),),
    "9": ((DIAMOND, 10, RED),),
    "0": ((CLUB, 10, BLACK),),
    "*": (("Undo", 5, BLACK), ("(hold: redo)", 2, BLACK)),
    "#": (("OK/menu", 4, BLACK), ("(hold: menu)", 2, BLACK)),
}
for _i, _k in enumerate("ABCD"):
    MEANING[_k] = (("Player", 4, BLACK), (str(_i + 1), 8, BLACK))


class Canvas:
    """Palette indices, one byte a pixel; drawing colour 1 paints `ink`, 0 paints white."""

    def __init__(self, w, h):
        self.w = w
        self.h = h
        self.px = bytearray(w * h)
        self.ink = BLACK

    def pixel(self, x, y, c):
        if 0 <= x < self.w and 0 <= y < self.h:
            self.px[y * self.w + x] = self.ink if c else WHITE

    def fill_rect(self, x, y, w, h, c):
        v = self.ink if c else WHITE
        x0, x1 = max(0, x), min(self.w, x + w)
        for yy in range(max(0, y), min(self.h, y + h)):
            i = yy * self.w
            self.px[i + x0:i + x1] = bytes((v,)) * (x1 - x0)

    def box(self, x, y, w, h, t, colour):
        """A rectangle outline `t` pixels thick."""
        self.ink = colour
        self.fill_rect(x, y, w, t, 1)
        self.fill_rect(x, y + h - t, w, t, 1)
        self.fill_rect(x, y, t, h, 1)
        self.fill_rect(x + w - t, y, t, h, 1)

    def rows(self):
        return [bytes(self.px[y * self.w:(y + 1) * self.w]) for y in range(self.h)]


def _text(canvas, text, s, x, y, scale, colour):
    canvas.ink = colour
    text.draw_big(canvas, s, x, y, scale, 1)


def _centred(canvas, text, s, cx, y, scale, colour):
    w = ink_width(text, s) * scale
    _text(canvas, text, s, cx - w // 2, y, scale, colour)


def draw_key(canvas, text, key, x, y):
    inset = 8
    canvas.box(x + inset, y + inset, PITCH - 2 * inset, PITCH - 2 * inset, 2, GREY)
    # The key's own digit or letter, small, top left.
    _text(canvas, text, key, x + inset + 10, y + inset + 8, 3, BLACK)
    lines = MEANING[key]
    fh = text.height
    total = sum(fh * scale for _s, scale, _c in lines)
    top = y + inset + 40  # below the small label
    bottom = y + PITCH - inset - 8
    ty = top + (bottom - top - total) // 2
    for s, scale, colour in lines:
        _centred(canvas, text, s, x + PITCH // 2, ty, scale, colour)
        ty += fh * scale


def draw():
    text = Text(font6x10)
    canvas = Canvas(WIDTH, HEIGHT)
    # The cut line around the grid.
    canvas.box(MARGIN // 2, MARGIN // 2, SIZE - MARGIN, SIZE - MARGIN, 1, GREY)
    for r, row in enumerate(ROWS):
        for c, key in enumerate(row):
            draw_key(canvas, text, key, MARGIN + c * PITCH, MARGIN + r * PITCH)
    # Caption and a 50 mm ruler (ticks every 10 mm) to check the printed size.
    y = SIZE + 8
    _text(canvas, text, "Print at 100% (300 dpi). Keys 17 mm. Ruler 50 mm", MARGIN, y, 2, BLACK)
    mm = DPI / 25.4
    x0 = MARGIN
    ry = y + 40
    canvas.ink = BLACK
    canvas.fill_rect(x0, ry, int(round(50 * mm)) + 2, 2, 1)
    for i in range(6):
        canvas.fill_rect(x0 + int(round(i * 10 * mm)), ry - 14, 2, 16, 1)
    return canvas


def overlay_png():
    canvas = draw()
    return png_bytes(WIDTH, HEIGHT, canvas.rows(), depth=8, palette=PALETTE, dpi=DPI)


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=OUT, help="the PNG to write")
    args = ap.parse_args(argv)
    folder = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(folder, exist_ok=True)
    with open(args.out, "wb") as f:
        f.write(overlay_png())
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
