"""Court cards drawn by the project, for training only: a jack, queen or king whose corner
index is set in one of several typefaces, at its own size and place, with its suit's pip
below it, and whose picture is another court's art (any training deck, mirrored, recoloured
or painted over) with big suit pips in two of its corners, as most French decks have.

The decks on npm share one court design, so a model trained on them alone learns their
pictures; on a deck it has never seen, only the corner index and the suit pips still say
which card it is. These cards teach it to read them.

    card = court(rng, decks, "QH")   # RGBA, the size of a rendered deck's cards; the
                                     # typefaces: npm @fontsource (find_fonts)
"""

import functools

import decks
import numpy as np
from PIL import Image, ImageDraw, ImageFont, ImageOps

# The typefaces of the corner indices: the deck generator's (decks.FACES, npm @fontsource
# packages pinned in tools/cardcam/package.json: serif, sans, slab, condensed, display and
# typewriter faces, each weight and italic it has), never the hand-made designs' (those stay
# unseen by every model) and never the machine's own fonts, which differ from one machine to
# the next and, installed for this, changed the page's fallback fonts. The suit pips are
# decks.py's drawn shapes (PIP_SHAPE: a standard deck's proportions).
PIP_SHAPE = {"heart_width": 1.0, "diamond_bow": 0.08, "diamond_width": 0.72,
             "spade_stem": 0.2, "club_lobe": 0.3, "stem_flare": 0.2}
RED = "DH"


@functools.cache
def find_fonts():
    """The index typefaces: paths of the installed .woff2 files (cd tools/cardcam && npm
    ci installs them)."""
    faces = []
    for family, (weights, italic) in sorted(decks.FACES.items()):
        for weight in weights:
            for slant in (False, True) if italic else (False,):
                faces.append(decks._font_file(family, weight, slant))
    return faces


def _pip(d, suit, cx, cy, size, ink):
    """The suit's pip, size pixels tall, centred at (cx, cy)."""
    decks._draw_shape(d, decks.shape(suit, PIP_SHAPE), cx, cy, size, False,
                      {"ink": ink, "dark": ink, "stock": ink})


def _ink(rng, suit):
    """A suit's colour, as decks vary it: reds from scarlet to crimson, blacks to navy."""
    if suit in RED:
        return (int(rng.integers(170, 240)), int(rng.integers(0, 40)), int(rng.integers(0, 50)))
    v = int(rng.integers(0, 45))
    return (v, v, v + int(rng.integers(0, 50)))


def _index(rng, img, rank, suit, faces, ink):
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
    size = h * rng.uniform(0.045, 0.08) * 0.75  # as tall as a suit glyph of that size
    cx = (box[0] + box[2]) / 2 + rng.uniform(-0.01, 0.01) * w
    _pip(d, suit, cx, box[3] + h * rng.uniform(0.005, 0.02) + size / 2, size, ink)


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
    faces = find_fonts()
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
        big = h * rng.uniform(0.08, 0.13) * 0.75
        m = w * 0.03
        if rng.random() < 0.7:
            _pip(d, suit, px1 - m - big * 0.4, py0 + m + big / 2, big, ink)
        else:
            _pip(d, suit, px0 + m + big * 0.4, py0 + m + big / 2, big, ink)
    _index(rng, img, rank, suit, faces, ink)
    # double-headed: the bottom half is the top half turned half round (the index in the
    # bottom right, the big pip in the picture's bottom left)
    top = img.crop((0, 0, w, h // 2))
    img.paste(top.rotate(180), (0, h - h // 2))
    return img
