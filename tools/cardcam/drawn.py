"""Court cards drawn by the project, for training only: a jack, queen or king whose corner
index is set in one of several typefaces, at its own size and place, with its suit's pip
below it, and whose picture is another court's art (any training deck, mirrored, recoloured
or painted over) with big suit pips in two of its corners, as most French decks have.

The decks on npm share one court design, so a model trained on them alone learns their
pictures; on a deck it has never seen, only the corner index and the suit pips still say
which card it is. These cards teach it to read them.

    card = court(rng, decks, "QH")   # RGBA, the size of a rendered deck's cards; the
                                     # typefaces: Debian's (FONT_DIRS)
"""

import functools
import glob
import os

import numpy as np
from PIL import Image, ImageDraw, ImageFont, ImageOps

# The typefaces of the corner indices: Debian's fonts-dejavu-core, fonts-dejavu-extra,
# fonts-liberation, fonts-urw-base35 and fonts-freefont-ttf (serif and sans, regular, bold,
# italic, condensed, narrow; the URW faces are the classic printers' Times, Helvetica,
# Century, Palatino, Bookman and Avant Garde, as decks set their indices).
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation",
             "/usr/share/fonts/opentype/urw-base35", "/usr/share/fonts/truetype/freefont")
PACKAGES = "fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-urw-base35 " \
    "fonts-freefont-ttf"
# no deck sets its index in these: mono, math, light, symbol, dingbat and script faces
NOT_INDEX = ("Math", "Mono", "ExtraLight", "D050000L", "StandardSymbols", "Z003")
# The suit pips come from DejaVu Sans's card suit symbols.
PIP_FONT = "DejaVuSans.ttf"
PIPS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RED = "DH"


@functools.cache
def find_fonts():
    """(index typefaces, the pip typeface): paths of the installed font files."""
    faces = []
    for folder in FONT_DIRS:
        for path in sorted(glob.glob(os.path.join(folder, "*.[ot]tf"))):
            if not any(k in os.path.basename(path) for k in NOT_INDEX):
                faces.append(path)
    pip = [p for p in faces if os.path.basename(p) == PIP_FONT]
    if len(faces) < 40 or not pip:
        raise SystemExit("the drawn court cards need Debian's fonts: apt-get install "
                         + PACKAGES)
    return faces, pip[0]


def _ink(rng, suit):
    """A suit's colour, as decks vary it: reds from scarlet to crimson, blacks to navy."""
    if suit in RED:
        return (int(rng.integers(170, 240)), int(rng.integers(0, 40)), int(rng.integers(0, 50)))
    v = int(rng.integers(0, 45))
    return (v, v, v + int(rng.integers(0, 50)))


def _index(rng, img, rank, suit, faces, pip_path, ink):
    """The corner index in the top left: the rank's letter (condensed or extended, as
    decks draw it narrow or wide), the suit's pip under it."""
    w, h = img.size
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(faces[rng.integers(len(faces))], int(h * rng.uniform(0.07, 0.12)))
    x = w * rng.uniform(0.025, 0.07)
    y = h * rng.uniform(0.015, 0.045)
    # the letter drawn alone, then its width scaled
    left, top, right, bottom = d.textbbox((0, 0), rank, font=font)
    glyph = Image.new("L", (right + 2, bottom + 2), 0)
    ImageDraw.Draw(glyph).text((0, 0), rank, font=font, fill=255)
    glyph = glyph.crop((left, top, right + 1, bottom + 1))
    gw = max(1, round(glyph.width * rng.uniform(0.6, 1.25)))
    glyph = glyph.resize((gw, glyph.height), Image.BILINEAR)
    img.paste(Image.new("RGBA", glyph.size, ink + (255,)), (round(x), round(y)), glyph)
    box = (round(x), round(y), round(x) + gw, round(y) + glyph.height)
    pip = ImageFont.truetype(pip_path, int(h * rng.uniform(0.045, 0.08)))
    cx = (box[0] + box[2]) / 2 + rng.uniform(-0.01, 0.01) * w
    d.text((cx, box[3] + h * rng.uniform(0.005, 0.02)), PIPS[suit], font=pip, fill=ink,
           anchor="mt")


def _picture(rng, decks, size):
    """The art between the corners: a training deck's court of any rank and suit, mirrored
    or recoloured (court() covers its big pip), or plain blobs: the art never says the card."""
    w, h = size
    if rng.random() < 0.8:
        deck = decks[rng.integers(len(decks))]
        donor = deck["JQK"[rng.integers(3)] + "CDHS"[rng.integers(4)]].convert("RGB")
        # the donor's picture, without its own corners
        art = donor.crop(picture_box(donor))
        art = art.resize(size, Image.BILINEAR)
        if rng.random() < 0.5:
            art = ImageOps.mirror(art)
        a = np.asarray(art, np.float32)
        if rng.random() < 0.5:  # recoloured, the pips' red and black kept roughly
            a = a * rng.uniform(0.7, 1.2, 3) + rng.uniform(-30, 30, 3)
        return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8), "RGB")
    bg = tuple(int(v) for v in rng.integers(120, 256, 3))
    art = Image.new("RGB", size, bg)
    d = ImageDraw.Draw(art)
    for _ in range(int(rng.integers(6, 24))):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.05, 0.3) * w
        d.ellipse((cx - r, cy - r, cx + r, cy + r),
                  fill=tuple(int(v) for v in rng.integers(0, 256, 3)))
    return art


def picture_box(card):
    """(x0, y0, x1, y1) of a court card's picture: the first and last inked pixels of its
    middle row and column (the corner indices lie off both)."""
    a = np.asarray(card.convert("L"), np.int16)
    h, w = a.shape
    row = np.flatnonzero(a[h // 2, w // 20:w - w // 20] < 200) + w // 20
    col = np.flatnonzero(a[h // 40:h - h // 40, w // 2] < 200) + h // 40
    return (int(row[0]) + 2, int(col[0]) + 2, int(row[-1]) - 1, int(col[-1]) - 1)


def court(rng, decks, code):
    """A drawn court card (code "JC" to "KS"), RGBA, the size of the decks' cards."""
    faces, pip_path = find_fonts()
    rank, suit = code[0], code[1]
    w, h = next(iter(decks[0].values())).size
    paper = tuple(int(v) for v in rng.integers(235, 256, 3))
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle((0, 0, w - 1, h - 1), radius=int(w * 0.06),
                                          fill=paper + (255,), outline=(120, 120, 120, 255))
    # the picture, framed, between the corner indices
    px0, py0 = int(w * rng.uniform(0.15, 0.22)), int(h * rng.uniform(0.06, 0.12))
    px1, py1 = w - px0, h - py0
    art = _picture(rng, decks, (px1 - px0, py1 - py0))
    img.paste(art, (px0, py0))
    d = ImageDraw.Draw(img)
    if rng.random() < 0.7:
        frame = (0, 0, int(rng.integers(60, 200))) if rng.random() < 0.5 else _ink(rng, suit)
        d.rectangle((px0, py0, px1, py1), outline=frame, width=int(rng.integers(1, 4)))
    ink = _ink(rng, suit)
    # the donor's big pips (another suit's, maybe; left or right when mirrored) covered;
    # then, mostly, this suit's own in one of the picture's top corners
    pw, ph = (px1 - px0) * 0.34, (py1 - py0) * 0.2
    d.rectangle((px1 - pw, py0 + 2, px1 - 2, py0 + ph), fill=paper)
    d.rectangle((px0 + 2, py0 + 2, px0 + pw, py0 + ph), fill=paper)
    if rng.random() < 0.8:  # a big pip in the picture's corner, as most decks have
        big = ImageFont.truetype(pip_path, int(h * rng.uniform(0.08, 0.13)))
        m = w * 0.03
        if rng.random() < 0.7:
            d.text((px1 - m, py0 + m), PIPS[suit], font=big, fill=ink, anchor="rt")
        else:
            d.text((px0 + m, py0 + m), PIPS[suit], font=big, fill=ink, anchor="lt")
    _index(rng, img, rank, suit, faces, pip_path, ink)
    # double-headed: the bottom half is the top half turned half round (the index in the
    # bottom right, the big pip in the picture's bottom left)
    top = img.crop((0, 0, w, h // 2))
    img.paste(top.rotate(180), (0, h - h // 2))
    return img
