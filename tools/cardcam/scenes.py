"""Card scenes for the camera model: cards rendered from the SVG decks (render.mjs), laid on
table cloths the way a phone at a table sees them, for training, the held-out figures and
the fake camera of the browser test.

    deck = load_deck(folder)                    # {"9C": RGBA image, ..., "back": ...}
    x = box_sample(rng, decks, label)           # one box as the model sees it (H, W, 3) uint8
    frame, cards = trick_frame(rng, deck, ["QH", "KH"])   # a camera frame of a trick

A box holds a card face up (its class), or no card: the bare cloth, a card face down, a card
only partly in the box, a hand. The augmentations: perspective and rotation, scale and
offset, blur, noise, JPEG, uneven light and colour casts, cloth patterns, fingers and other
cards partly covering. Needs numpy and Pillow only (both venvs have them).
"""

import io
import json
import os

import drawn
import numpy as np
from PIL import Image, ImageDraw, ImageFilter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
META = os.path.join(ROOT, "web", "camera", "model.json")

RANKS = "9TJQKA"
SUITS = "CDHS"
CARDS = [r + s for r in RANKS for s in SUITS]  # the 24 cards of Sixty-six; 10 to A: Schnapsen
NONE = len(CARDS)  # the class "no card in this box"
CLASSES = CARDS + ["none"]
IN_W, IN_H = 112, 168  # the model's input: one box and its margin (region()), RGB
CARD_ASPECT = 336 / 240


def meta():
    with open(META, encoding="utf-8") as f:
        return json.load(f)


def boxes(n, width, height):
    """The boxes of a trick of n cards in a frame, in play order from the left: (x, y, w, h)
    in pixels. web/camera.js lays them out by the same rule."""
    gap = 0.03 * width
    w = min(0.86 * height * IN_W / IN_H, (width - (n + 1) * gap) / n)
    h = w * IN_H / IN_W
    x0 = (width - n * w - (n - 1) * gap) / 2
    y = (height - h) / 2
    return [(x0 + i * (w + gap), y, w, h) for i in range(n)]


# The model reads a box with a margin around it, MARGIN of the box's width and height on
# each side: a card laid a little turned or off centre puts its corners, and so its
# indices, just outside the box drawn for it, and a box read alone lost them (then most of
# the held-out deck's doubts were such corners). Two neighbours' margins may overlap a
# little: a neighbour's card reaching into a box is in the training (box_sample()).
MARGIN = 0.07


def region(box, width, height):
    """The part of a frame (width x height) the model reads for box (x, y, w, h): the box
    and its margin, moved back into the frame where the margin would leave it."""
    x, y, w, h = box
    rw, rh = w * (1 + 2 * MARGIN), h * (1 + 2 * MARGIN)
    rx = min(max(x - MARGIN * w, 0), width - rw)
    ry = min(max(y - MARGIN * h, 0), height - rh)
    return (rx, ry, rw, rh)


def load_deck(folder):
    deck = {}
    for name in os.listdir(folder):
        if name.endswith(".png"):
            deck[name[:-4]] = Image.open(os.path.join(folder, name)).convert("RGBA")
    missing = set(CARDS + ["back"]) - set(deck)
    if missing:
        raise SystemExit("%s lacks %s" % (folder, sorted(missing)))
    return deck


# ---- the table --------------------------------------------------------------------------

CLOTHS = [(24, 96, 48), (20, 70, 110), (120, 30, 36), (110, 78, 50), (150, 120, 90),
          (90, 90, 90), (40, 40, 44), (200, 190, 170), (225, 225, 220), (60, 110, 70),
          (160, 60, 20), (30, 50, 80)]


def cloth(rng, w, h):
    """A table: a felt, wood, a patterned cloth or a plain light one, with texture."""
    base = np.array(CLOTHS[rng.integers(len(CLOTHS))], np.float32)
    base = np.clip(base * rng.uniform(0.7, 1.3, 3), 0, 255)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    kind = rng.integers(4)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == 1:  # stripes or wood grain
        angle = rng.uniform(0, np.pi)
        period = rng.uniform(4, 40)
        wave = np.sin((xx * np.cos(angle) + yy * np.sin(angle)) * 2 * np.pi / period)
        img += (wave * rng.uniform(8, 40))[..., None] * rng.uniform(0.5, 1.0, 3)
    elif kind == 2:  # checks (a gingham cloth)
        period = rng.uniform(8, 50)
        check = ((xx // period + yy // period) % 2)[..., None]
        other = np.array(CLOTHS[rng.integers(len(CLOTHS))], np.float32)
        img = img * (1 - check * 0.5) + other * check * 0.5
    # texture: noise at a coarse scale, enlarged
    cw, ch = max(2, w // int(rng.integers(2, 12))), max(2, h // int(rng.integers(2, 12)))
    coarse = rng.normal(0, rng.uniform(2, 14), (ch, cw)).astype(np.float32)
    tex = np.asarray(Image.fromarray(coarse, "F").resize((w, h), Image.BILINEAR))
    img += tex[..., None]
    return Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "RGB")


def _perspective_coeffs(dst, src):
    """PIL's PERSPECTIVE data mapping output points dst to input points src."""
    a = []
    b = []
    for (x, y), (u, v) in zip(dst, src):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        b.extend([u, v])
    return np.linalg.solve(np.array(a, np.float64), np.array(b, np.float64)).tolist()


def paste_card(rng, canvas, card, cx, cy, height, angle, tilt=0.08):
    """Lay card (RGBA) on canvas centred at (cx, cy), height pixels tall, turned by angle
    (radians), with a random perspective (a phone not quite above the table)."""
    cw, chh = card.size
    w = height * cw / chh
    corners = np.array([[-w / 2, -height / 2], [w / 2, -height / 2], [w / 2, height / 2],
                        [-w / 2, height / 2]])
    corners += rng.uniform(-tilt, tilt, (4, 2)) * np.array([w, height])
    c, s = np.cos(angle), np.sin(angle)
    pts = corners @ np.array([[c, s], [-s, c]]) + np.array([cx, cy])
    x0, y0 = np.floor(pts.min(0)).astype(int) - 1
    x1, y1 = np.ceil(pts.max(0)).astype(int) + 1
    size = (int(x1 - x0), int(y1 - y0))
    if size[0] <= 2 or size[1] <= 2:
        return
    dst = [(px - x0, py - y0) for px, py in pts]
    src = [(0, 0), (cw, 0), (cw, chh), (0, chh)]
    warped = card.transform(size, Image.PERSPECTIVE, _perspective_coeffs(dst, src),
                            Image.BILINEAR)
    # a soft shadow under the card, then the card
    shadow = Image.new("RGBA", size, (0, 0, 0, 0))
    alpha = warped.getchannel("A").point(lambda a: a * 0.35)
    shadow.putalpha(alpha)
    off = int(rng.integers(0, 4))
    canvas.paste(shadow, (int(x0) + off, int(y0) + off), shadow)
    canvas.paste(warped, (int(x0), int(y0)), warped)


SKIN = [(230, 190, 160), (200, 150, 120), (150, 100, 70), (100, 70, 50), (240, 210, 190)]


def finger(rng, canvas, box, reach=0.22):
    """A finger (a rounded bar of skin) coming in from one side of box, covering at most
    reach of it."""
    x, y, w, h = box
    d = ImageDraw.Draw(canvas)
    skin = tuple(int(v * rng.uniform(0.8, 1.1)) for v in SKIN[rng.integers(len(SKIN))])
    thick = w * rng.uniform(0.12, 0.2)
    side = rng.integers(4)
    length = reach * rng.uniform(0.4, 1.0)
    if side in (0, 1):  # from the left or the right, at some height
        py = y + h * rng.uniform(0.3, 0.7)
        if side == 0:
            box_ = (x - w, py - thick / 2, x + w * length, py + thick / 2)
        else:
            box_ = (x + w * (1 - length), py - thick / 2, x + 2 * w, py + thick / 2)
    else:  # from the bottom or the top
        px = x + w * rng.uniform(0.3, 0.7)
        if side == 2:
            box_ = (px - thick / 2, y + h * (1 - length), px + thick / 2, y + 2 * h)
        else:
            box_ = (px - thick / 2, y - h, px + thick / 2, y + h * length)
    d.rounded_rectangle(box_, radius=thick / 2, fill=skin)


def light(rng, img, strength=1.0):
    """Uneven light and colour: a gradient, a spot, a colour cast, a gamma."""
    a = np.asarray(img, np.float32) / 255
    h, w = a.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.5, 0.5, 2) * strength
    field = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    if rng.random() < 0.4:
        sx, sy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.3, 1.0) * max(w, h)
        field *= 1 + rng.uniform(-0.35, 0.35) * strength * np.exp(
            -((xx - sx) ** 2 + (yy - sy) ** 2) / (r * r))
    a *= field[..., None] * rng.uniform(0.55, 1.25)
    a *= rng.uniform(0.85, 1.15, 3) ** strength
    a = np.clip(a, 0, 1) ** rng.uniform(0.75, 1.35)
    return Image.fromarray((a * 255).astype(np.uint8), "RGB")


def camera(rng, img):
    """What a phone's camera adds: blur, sensor noise, JPEG."""
    if rng.random() < 0.6:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.2, 1.6)))
    if rng.random() < 0.7:
        a = np.asarray(img, np.float32)
        a = a + rng.normal(0, rng.uniform(1, 9), a.shape)
        img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8), "RGB")
    if rng.random() < 0.7:
        buf = io.BytesIO()
        img.save(buf, "JPEG", quality=int(rng.integers(25, 90)))
        buf.seek(0)
        img = Image.open(buf).convert("RGB")
    return img


# ---- one box, as the model sees it -------------------------------------------------------

FACES = "JQK"


def other_picture(rng, decks, card, suit):
    """A face card with the picture of another face card of its suit (any training deck,
    any rank) between its own corner indices: only the index says which rank it is."""
    a = np.array(card)
    x0, y0, x1, y1 = drawn.picture_box(card)
    donor = decks[rng.integers(len(decks))][FACES[rng.integers(3)] + suit]
    art = donor.crop(drawn.picture_box(donor)).resize((x1 - x0, y1 - y0), Image.BILINEAR)
    a[y0:y1, x0:x1] = np.asarray(art)
    return Image.fromarray(a, "RGBA")


def restyle(rng, card):
    """A face card with other art: the picture between its corners recoloured (its colour
    channels swapped) or painted over with random blobs, so that the model reads a face
    card by its corner index, as it must on a deck whose pictures it has never seen."""
    a = np.array(card)
    x0, y0, x1, y1 = drawn.picture_box(card)
    mid = a[y0:y1, x0:x1]
    if rng.random() < 0.5:
        mid[..., :3] = mid[..., rng.permutation(3)]
    else:
        img = Image.fromarray(a, "RGBA")
        d = ImageDraw.Draw(img)
        w = a.shape[1]
        for _ in range(int(rng.integers(6, 20))):
            cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
            r = rng.uniform(0.03, 0.15) * w
            colour = tuple(int(v) for v in rng.integers(0, 256, 3)) + (255,)
            d.ellipse((max(x0, cx - r), max(y0, cy - r), min(x1, cx + r), min(y1, cy + r)),
                      fill=colour)
        return img
    return Image.fromarray(a, "RGBA")


def face_card(rng, decks, deck, code):
    """A face card as training shows it: mostly with art its deck does not give it (another
    court's picture, recoloured or painted over, or a court drawn with its index in another
    typeface: tools/cardcam/drawn.py), so that its rank is read from the corner index."""
    pick = rng.random()
    if pick < 0.15:
        return other_picture(rng, decks, deck[code], code[1])
    if pick < 0.25:
        return restyle(rng, deck[code])
    if pick < 0.9:
        return drawn.court(rng, decks, code)
    return deck[code]


# A box is drawn at the size a camera frame gives it, its height in pixels: from four boxes
# across a 320 x 240 frame (about 100) to two across a 640 x 480 one (over 250); the
# camera's blur, noise and JPEG act at that size, as they do on a frame; then it is scaled
# to the model's input, as the page scales it.
NATIVE = (90, 264)


def cover_pip(rng, card):
    """A number card with a fingertip somewhere on its pips: they no longer count true
    (a ten with one pip hidden shows nine), so only its corner index says the rank."""
    img = card.copy()
    w, h = img.size
    cx, cy = rng.uniform(0.22, 0.78) * w, rng.uniform(0.15, 0.85) * h
    rx, ry = w * rng.uniform(0.07, 0.14), h * rng.uniform(0.05, 0.1)
    skin = tuple(int(v * rng.uniform(0.8, 1.1)) for v in SKIN[rng.integers(len(SKIN))])
    ImageDraw.Draw(img).ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=skin + (255,))
    return img


def box_sample(rng, decks, label, vary_faces=True, crossed=0.0, pips=0.0):
    """One box with its surroundings, cropped and shrunk to the model's input: label is a
    class index (NONE: no card face up in the box). decks: a list of decks to draw from.
    vary_faces: face cards mostly with other art (training), or as their deck draws them
    (the held-out boxes). crossed: the share of cards with a finger across their middle.
    pips: the share of nines, tens and aces with a fingertip on their pips (cover_pip)."""
    deck = decks[rng.integers(len(decks))]
    bh = int(rng.uniform(*NATIVE))
    bw = bh * IN_W // IN_H
    margin = bw // 2
    canvas = cloth(rng, bw + 2 * margin, bh + 2 * margin)
    box = (margin, margin, bw, bh)
    cx, cy = margin + bw / 2, margin + bh / 2
    # a neighbour's card beside the box, now and then reaching into it
    if rng.random() < 0.3:
        other = deck[CARDS[rng.integers(len(CARDS))]]
        side = rng.choice([-1, 1])
        paste_card(rng, canvas, other, cx + side * bw * rng.uniform(0.85, 1.1),
                   cy + rng.uniform(-0.1, 0.1) * bh, bh * rng.uniform(0.75, 0.95),
                   rng.uniform(-0.2, 0.2))
    if label != NONE:
        card = deck[CARDS[label]]
        if vary_faces and CARDS[label][0] in FACES:
            card = face_card(rng, decks, deck, CARDS[label])
        # No draw when pips is 0, as with crossed below.
        if pips and CARDS[label][0] in "9TA" and rng.random() < pips:
            card = cover_pip(rng, card)
        paste_card(rng, canvas, card, cx + rng.uniform(-0.1, 0.1) * bw,
                   cy + rng.uniform(-0.07, 0.07) * bh, bh * rng.uniform(0.7, 0.97),
                   rng.uniform(-0.3, 0.3))
        # a hand laying the next card across this one: an ace whose centre pip a finger
        # hid was read as a king, sure, by a model that had never seen one. No draw when
        # crossed is 0, so such sets stay as they were made before.
        if crossed and rng.random() < crossed:
            finger(rng, canvas, box, reach=rng.uniform(0.5, 1.0))
    else:
        kind = rng.integers(5)
        if kind == 1:  # face down
            paste_card(rng, canvas, deck["back"], cx + rng.uniform(-0.1, 0.1) * bw,
                       cy + rng.uniform(-0.07, 0.07) * bh, bh * rng.uniform(0.7, 0.97),
                       rng.uniform(-0.3, 0.3))
        elif kind == 2:  # a card moving in or taken away: mostly outside the box
            angle = rng.uniform(0, 2 * np.pi)
            dist = rng.uniform(0.75, 1.1)
            paste_card(rng, canvas, deck[CARDS[rng.integers(len(CARDS))]],
                       cx + np.cos(angle) * bw * dist, cy + np.sin(angle) * bh * dist,
                       bh * rng.uniform(0.7, 0.97), rng.uniform(-0.4, 0.4))
        elif kind == 3:  # a hand over the empty box
            for _ in range(int(rng.integers(1, 4))):
                finger(rng, canvas, box, reach=0.7)
    if rng.random() < 0.25:
        finger(rng, canvas, box)
    x, y, w, h = region(box, *canvas.size)
    crop = canvas.crop((round(x), round(y), round(x + w), round(y + h)))
    crop = camera(rng, light(rng, crop))
    return np.asarray(crop.resize((IN_W, IN_H), Image.BILINEAR))


# ---- a whole camera frame ----------------------------------------------------------------

def trick_frame(rng, deck, cards, width=640, height=480, present=None, mild=False):
    """A camera frame of a trick: cards (codes, or None for an empty box) in their boxes,
    in play order. present: how far each card has come in (1: in its box, 0: away).
    mild: a steady phone in good light (the fake camera's scenes)."""
    canvas = cloth(rng, width, height)
    for i, (box, code) in enumerate(zip(boxes(len(cards), width, height), cards)):
        if code is None:
            continue
        x, y, w, h = box
        come = 1.0 if present is None else present[i]
        cx = x + w / 2 + rng.uniform(-0.06, 0.06) * w
        cy = y + h / 2 + rng.uniform(-0.05, 0.05) * h + (1 - come) * height
        paste_card(rng, canvas, deck[code], cx, cy, h * rng.uniform(0.78, 0.95),
                   rng.uniform(-0.2, 0.2), tilt=0.04 if mild else 0.07)
        if not mild and rng.random() < 0.15:
            finger(rng, canvas, box, reach=0.15)
    img = light(rng, canvas, strength=0.5 if mild else 1.0)
    return camera(rng, img) if not mild else img, cards


def crops(frame, n):
    """The model's inputs for the n boxes of a frame (PIL RGB), each read with its margin
    (region()): (n, H, W, 3) uint8."""
    out = []
    for x, y, w, h in (region(b, *frame.size) for b in boxes(n, *frame.size)):
        box = frame.crop((round(x), round(y), round(x + w), round(y + h)))
        out.append(np.asarray(box.resize((IN_W, IN_H), Image.BILINEAR)))
    return np.stack(out)


def to_input(batch):
    """(n, H, W, 3) uint8 -> (n, 3, H, W) float32 in [0, 1], the ONNX model's input."""
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2), np.float32) / 255


# ---- the corner indices (the index reader: tools/cardcam/train_index.py) -------------------

# The index reader reads the two corners of each box's region (region()) that a card shows
# its index in: the top left, and the bottom right turned half round (then it looks like a
# top left). Each is CORNER of the region's width and height, taken from the frame itself
# (not from the whole-card input: a small index there is a few pixels tall), and shrunk to
# IDX_W x IDX_H grey levels (ITU-R 601 luma, as PIL's "L"): suits by shape, not by ink.
# web/camera.js crops the same rectangles.
IDX_W, IDX_H = 40, 60
CORNER = 0.45


def corner_rects(region_, corner=CORNER):
    """The top-left and bottom-right corner rectangles (x0, y0, x1, y1) of a region, each
    `corner` of its width and height, rounded to whole pixels."""
    x, y, w, h = region_
    cw, ch = corner * w, corner * h
    tl = (round(x), round(y), round(x + cw), round(y + ch))
    br = (round(x + w - cw), round(y + h - ch), round(x + w), round(y + h))
    return [tl, br]


def corner_crops(img, regions_, corner=CORNER):
    """The index reader's inputs for regions of img (PIL RGB): (2n, IDX_H, IDX_W) uint8, each
    region's top-left corner then its bottom-right one turned half round."""
    grey = img.convert("L")
    out = []
    for reg in regions_:
        for k, rect in enumerate(corner_rects(reg, corner)):
            a = np.asarray(grey.crop(rect).resize((IDX_W, IDX_H), Image.BILINEAR))
            out.append(a[::-1, ::-1] if k else a)
    return np.stack(out)


def frame_corners(frame, n, corner=CORNER):
    """corner_crops() of the n boxes of a camera frame (PIL RGB)."""
    return corner_crops(frame, [region(b, *frame.size) for b in boxes(n, *frame.size)], corner)
