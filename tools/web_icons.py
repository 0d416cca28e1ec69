"""The browser build's PNG icons, drawn from web/icon.svg (the "66" in square pixels).

    .venv/bin/python tools/web_icons.py [--out DIR]     # writes web/*.png by default

Phones want bitmaps to install a page: Android's install prompt a 192x192 and a 512x512
icon in the manifest, iOS an apple-touch-icon of 180x180 linked from the page. The SVG
is a 16x16 grid of rectangles; each icon here is that grid scaled to its size, every
pixel the colour of the grid cell under its middle, in two colours (a 1-bit indexed PNG,
written by tools/screenshots.py's encoder, so the files are small and the same on every
machine). host_tests/test_web_icons.py checks that the committed files are these.
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WEB = os.path.join(ROOT, "web")
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from screenshots import pack_bits, png_bytes  # noqa: E402

ICONS = (("icon-192.png", 192), ("icon-512.png", 512), ("apple-touch-icon.png", 180))
_RECT = re.compile(r"<rect\b([^>]*)/>")
_ATTR = re.compile(r'(\w+)="([^"]*)"')


def _colour(text):
    text = text.lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))


def grid(svg_text):
    """The SVG as (size, background colour, ink colour, set of lit (x, y) cells): its first
    rectangle fills the view box with the background, the others (in the group's fill)
    are the ink."""
    box = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg_text)
    size = int(box.group(1))
    if int(box.group(2)) != size:
        raise ValueError("icon.svg is not square")
    ink = _colour(re.search(r'<g fill="([^"]+)"', svg_text).group(1))
    rects = [dict(_ATTR.findall(m.group(1))) for m in _RECT.finditer(svg_text)]
    back = _colour(rects[0]["fill"])
    lit = set()
    for r in rects[1:]:
        x, y, w, h = (int(r[k]) for k in ("x", "y", "width", "height"))
        lit.update((i, j) for i in range(x, x + w) for j in range(y, y + h))
    return size, back, ink, lit


def icon_png(svg_text, px):
    """The icon as a px x px PNG."""
    size, back, ink, lit = grid(svg_text)
    rows = []
    for y in range(px):
        cy = (2 * y + 1) * size // (2 * px)
        rows.append(pack_bits([(((2 * x + 1) * size // (2 * px), cy) in lit)
                               for x in range(px)]))
    return png_bytes(px, px, rows, depth=1, palette=[back, ink])


def write(out=WEB):
    with open(os.path.join(WEB, "icon.svg"), encoding="utf-8") as f:
        svg = f.read()
    paths = []
    for name, px in ICONS:
        path = os.path.join(out, name)
        with open(path, "wb") as f:
            f.write(icon_png(svg, px))
        paths.append(path)
    return paths


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=WEB, help="the folder to write the PNGs into")
    args = ap.parse_args(argv)
    for path in write(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
