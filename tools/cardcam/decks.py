"""Card designs made to break the camera model (issue 44): a seeded generator of whole decks
and a few designs drawn by hand, kept apart from it.

    python tools/cardcam/decks.py OUT [--seed N ...] [--hand NAME ... | --hand all]
    make camera-decks SEED=N                  (the generator's seed N and the hand-made designs)

Each design is the 24 cards of Sixty-six (9, 10, J, Q, K, A of clubs, diamonds, hearts and
spades), drawn by this file: OUT/<design>/<rank><suit>.png (ranks 9 T J Q K A, suits C D H
S, as tools/cardcam/render.mjs names them, WIDTH x HEIGHT pixels, transparent outside the
rounded corners), back.png and design.json (its seed and every parameter drawn).

The generator (design(seed)) varies every element of a deck: the corner indices' typeface
(FACES: @fontsource packages on npm, tools/cardcam/package.json), weight, width, size
(small, large, jumbo) and place (one corner, two or four; the suit's pip under the rank,
beside it or none), the inks of the four suits (two-colour and four-colour schemes, one ink
for all, faded), the middle of the number cards (standard pip layouts, one large symbol,
a picture, blank) and of the courts (a drawn figure, pips, one large symbol, blank), the
pips' own shapes, the card stock's colour, the border and the wear. The suit pips are
shapes drawn here (spade, heart, diamond, club: polygons and circles), so a suit can be
told by its shape whatever its ink.

The hand-made designs (HAND: hand(name)) have fixed parameters set in their own functions,
never drawn from a seed, and their index typefaces (HAND_FACES) are never among the
generator's: a model trained on any generator seed has never seen them. The German-suited
deck (Herz, Schellen, Eichel, Laub; Daus, Koenig, Ober, Unter, Zehner, Neuner) is saved
under the French names the rules use: hearts, diamonds, clubs, spades; A, K, Q, J, 10, 9
(GERMAN). A generator design can also be drawn German-suited (germanised(): bells, acorns
and leaves in shapes of its own, never the hand-made deck's), to train on.

Seeds below TRAINING_SEEDS' end are for training; MEASURED seeds are never trained on.
Needs numpy and Pillow (whose FreeType reads the .woff2 files) and, to draw, the typefaces
installed by `cd tools/cardcam && npm ci`; design() and hand() alone need neither.
"""

import argparse
import json
import math
import os

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RANKS = "9TJQKA"
SUITS = "CDHS"
CARDS = [r + s for r in RANKS for s in SUITS]
WIDTH, HEIGHT = 240, 336  # as render.mjs's decks (scenes.CARD_ASPECT)
SS = 3  # drawn at SS times the size, then shrunk: smooth edges

TRAINING_SEEDS = range(0, 10000)  # a model may train on these
MEASURED = tuple(range(10001, 10011))  # held out: measured, never trained on
# Held out too, for setting thresholds: the index reader's per-class thresholds
# (train_index.py) come from these designs, never from training seeds and never from
# MEASURED's, which stay for measuring what the thresholds give.
THRESHOLD_SEEDS = tuple(range(20001, 20061))

# The index typefaces the generator draws from: @fontsource family -> (weights, italic).
# Serif, sans, slab, condensed, display and typewriter faces, as card indices are set.
FACES = {
    "abel": ((400,), False), "abril-fatface": ((400,), False),
    "alegreya": ((400, 500, 600, 700, 800, 900), True), "anton": ((400,), False),
    "archivo": ((400, 500, 600, 700, 800, 900), True), "arimo": ((400, 500, 600, 700), True),
    "arvo": ((400, 700), True), "asap": ((400, 500, 600, 700, 800, 900), True),
    "bebas-neue": ((400,), False), "bitter": ((400, 500, 600, 700, 800, 900), True),
    "bodoni-moda": ((400, 500, 600, 700, 800, 900), True),
    "cabin": ((400, 500, 600, 700), True), "chivo": ((400, 500, 600, 700, 800, 900), True),
    "cinzel": ((400, 500, 600, 700, 800, 900), False),
    "comic-neue": ((400, 700), True), "crimson-text": ((400, 600, 700), True),
    "dm-sans": ((400, 500, 600, 700, 800, 900), True), "domine": ((400, 500, 600, 700), False),
    "dosis": ((400, 500, 600, 700, 800), False),
    "eb-garamond": ((400, 500, 600, 700, 800), True),
    "exo-2": ((400, 500, 600, 700, 800, 900), True),
    "fira-sans": ((400, 500, 600, 700, 800, 900), True),
    "heebo": ((400, 500, 600, 700, 800, 900), False),
    "ibm-plex-serif": ((400, 500, 600, 700), True),
    "jost": ((400, 500, 600, 700, 800, 900), True), "kanit": ((400, 500, 600, 700, 800, 900), True),
    "karla": ((400, 500, 600, 700, 800), True), "lato": ((400, 700, 900), True),
    "libre-baskerville": ((400, 500, 600, 700), True), "lora": ((400, 500, 600, 700), True),
    "merriweather": ((400, 500, 600, 700, 800, 900), True),
    "montserrat": ((400, 500, 600, 700, 800, 900), True),
    "noto-serif": ((400, 500, 600, 700, 800, 900), True),
    "nunito": ((400, 500, 600, 700, 800, 900), True), "oswald": ((400, 500, 600, 700), False),
    "playfair-display": ((400, 500, 600, 700, 800, 900), True),
    "poppins": ((400, 500, 600, 700, 800, 900), True), "pt-serif": ((400, 700), True),
    "raleway": ((400, 500, 600, 700, 800, 900), True),
    "roboto-slab": ((400, 500, 600, 700, 800, 900), False),
    "rokkitt": ((400, 500, 600, 700, 800, 900), True),
    "source-serif-4": ((400, 500, 600, 700, 800, 900), True),
    "special-elite": ((400,), False), "teko": ((400, 500, 600, 700), False),
    "tinos": ((400, 700), True), "ubuntu": ((400, 500, 700), True),
    "zilla-slab": ((400, 500, 600, 700), True),
}
# The hand-made designs' typefaces: never drawn by the generator.
HAND_FACES = {"libre-franklin": ((600,), False), "red-hat-display": ((500,), False),
              "yanone-kaffeesatz": ((700,), False), "im-fell-english-sc": ((400,), False)}

# Ink families: (low, high) for each of red, green and blue.
INKS = {
    "black": ((0, 40), (0, 40), (0, 45)), "red": ((175, 235), (0, 40), (10, 55)),
    "blue": ((0, 50), (50, 120), (150, 225)), "navy": ((10, 40), (20, 55), (80, 130)),
    "green": ((0, 50), (105, 160), (30, 85)), "orange": ((215, 250), (105, 160), (0, 40)),
    "purple": ((100, 150), (20, 60), (125, 180)), "grey": ((95, 140), (95, 140), (95, 140)),
    "brown": ((110, 150), (60, 90), (20, 50)), "gold": ((190, 225), (145, 180), (20, 60)),
}
STOCKS = {"white": (255, 255, 255), "cream": (250, 243, 222), "ivory": (252, 249, 236),
          "grey": (232, 232, 230), "blue": (235, 241, 250), "green": (236, 246, 234),
          "pink": (250, 237, 236)}

# The German-suited deck under the French cards the rules use (docs/web.md says so):
# Herz hearts, Schellen (bells) diamonds, Eichel (acorns) clubs, Laub (leaves) spades;
# Daus the ace, Koenig the king, Ober the queen, Unter the jack, Zehner and Neuner.
GERMAN = {"suits": {"H": "Herz", "D": "Schellen", "C": "Eichel", "S": "Laub"},
          "ranks": {"A": "Daus", "K": "Koenig", "Q": "Ober", "J": "Unter", "T": "Zehner",
                    "9": "Neuner"},
          "index": {"A": "A", "K": "K", "Q": "O", "J": "U", "T": "10", "9": "9"}}


def _pick(rng, options, weights=None):
    """One of options (a list), by weights (relative)."""
    if weights is None:
        return options[int(rng.integers(len(options)))]
    p = np.asarray(weights, np.float64)
    return options[int(rng.choice(len(options), p=p / p.sum()))]


def _colour(rng, family):
    return [int(rng.integers(lo, hi + 1)) for lo, hi in INKS[family]]


def _inks(rng):
    """The four suits' inks: {"scheme", "families": {suit: family}, suit: [r, g, b]}."""
    scheme = _pick(rng, ["two", "four-classic", "four", "one", "two-other"],
                   [30, 22, 25, 8, 15])
    if scheme == "two":
        fam = {"C": "black", "S": "black", "D": "red", "H": "red"}
    elif scheme == "four-classic":  # as club and online decks: clubs green, diamonds blue
        fam = {"C": "green", "S": "black", "D": _pick(rng, ["blue", "navy"]), "H": "red"}
        if rng.random() < 0.3:  # the other common one: diamonds orange
            fam["D"] = "orange"
    elif scheme == "four":  # four inks of the palette, each suit its own
        names = list(INKS)
        order = rng.permutation(len(names))[:4]
        fam = {s: names[i] for s, i in zip(SUITS, order)}
    elif scheme == "one":
        f = _pick(rng, ["black", "blue", "navy", "grey", "brown", "purple", "green", "red"])
        fam = {s: f for s in SUITS}
    else:  # two inks, but not red and black
        names = list(INKS)
        a, b = (names[i] for i in rng.permutation(len(names))[:2])
        fam = {"C": a, "S": a, "D": b, "H": b}
    out = {"scheme": scheme, "families": fam}
    for s in SUITS:
        out[s] = _colour(rng, fam[s])
    # faded: every ink mixed with the stock (an old deck, a pale print)
    out["faded"] = round(float(rng.uniform(0.25, 0.55)), 3) if rng.random() < 0.15 else 0.0
    return out


def reinked(rng, params):
    """A training design with its own ink per suit: any family of INKS for any suit,
    faded now and then, so that no suit is told by its colour."""
    p = json.loads(json.dumps(params))
    fams = sorted(INKS)
    inks = {"scheme": "reinked", "families": {}}
    for s in SUITS:
        f = fams[int(rng.integers(len(fams)))]
        inks["families"][s] = f
        inks[s] = [int(rng.integers(lo, hi + 1)) for lo, hi in INKS[f]]
    inks["faded"] = round(float(rng.uniform(0.2, 0.55)), 3) if rng.random() < 0.2 else 0.0
    p["inks"] = inks
    return p


def germanised(rng, params):
    """A training design drawn German-suited (hearts, bells, acorns, leaves; the indices A K O
    U 10 9) under the French cards the rules use (GERMAN), so that both readers learn the
    German suits by their shapes. The shapes are drawn here from parameters of their own
    (_german_drawn), never the hand-made German deck's (_german_shape), which stays
    measured only; half of such designs print the German colours, the others keep the inks
    of the design given (reinked or not)."""
    p = json.loads(json.dumps(params))

    def u(lo, hi):
        return round(float(rng.uniform(lo, hi)), 3)

    p["suits"] = "german"
    p["german"] = {
        "heart_width": u(0.85, 1.25),
        "bell": {"r": u(0.3, 0.44), "squash": u(0.82, 1.08), "band": u(-0.2, 0.06),
                 "band_h": u(0.025, 0.09), "mouth": _pick(rng, ["slit", "cross", "ring",
                                                                "none"]),
                 "knob": u(0.05, 0.12)},
        "acorn": {"w": u(0.17, 0.3), "h": u(0.27, 0.4), "cap": u(0.3, 0.55),
                  "cap_style": _pick(rng, ["dome", "cup", "hatched"]), "stalk": u(0.05, 0.16),
                  "leaf": bool(rng.random() < 0.4)},
        "leaf": {"w": u(0.45, 0.85), "tip": u(-0.15, 0.2), "stalk": u(0.1, 0.28),
                 "vein": bool(rng.random() < 0.6), "lobes": int(rng.integers(0, 4))},
        "dark": {"D": _colour(rng, _pick(rng, ["red", "brown", "black", "orange"])),
                 "C": _colour(rng, _pick(rng, ["green", "brown", "black", "gold"]))},
    }
    if rng.random() < 0.5:  # the German colours, as most such decks print them
        fam = {"H": "red", "D": _pick(rng, ["gold", "orange"]), "C": _pick(rng, ["brown", "gold"]),
               "S": "green"}
        inks = {"scheme": "german", "families": fam}
        for suit in SUITS:
            inks[suit] = _colour(rng, fam[suit])
        inks["faded"] = round(float(rng.uniform(0.2, 0.5)), 3) if rng.random() < 0.15 else 0.0
        p["inks"] = inks
    return p


def _pip_shape(rng):
    """The pips' own proportions: a design draws its suits fat or thin."""
    return {"heart_width": round(float(rng.uniform(0.85, 1.15)), 3),
            "diamond_bow": round(float(rng.uniform(0.0, 0.18)), 3),
            "diamond_width": round(float(rng.uniform(0.62, 0.85)), 3),
            "spade_stem": round(float(rng.uniform(0.12, 0.3)), 3),
            "club_lobe": round(float(rng.uniform(0.27, 0.34)), 3),
            "stem_flare": round(float(rng.uniform(0.1, 0.3)), 3)}


def design(seed):
    """The generator: the parameters of design `seed` (a dict, JSON-able). No files read."""
    rng = np.random.default_rng([44, int(seed)])
    family = _pick(rng, sorted(FACES))
    weights, italic = FACES[family]
    size = _pick(rng, ["small", "large", "jumbo"], [45, 35, 20])
    height = {"small": (0.065, 0.085), "large": (0.095, 0.13), "jumbo": (0.15, 0.21)}[size]
    corners = _pick(rng, [1, 2, 4], [10, 65, 25])
    numbers = _pick(rng, ["standard", "one", "picture", "blank"], [55, 20, 15, 10])
    courts = _pick(rng, ["picture", "pips", "one", "blank"], [55, 15, 20, 10])
    border = _pick(rng, ["none", "line", "frame", "inset"], [30, 30, 20, 20])
    stock = _pick(rng, sorted(STOCKS), [3, 2, 2, 1, 1, 1, 1])
    return {
        "name": "gen-%d" % seed, "kind": "generator", "seed": int(seed), "suits": "french",
        "face": {"family": family, "weight": int(_pick(rng, list(weights))),
                 "italic": bool(italic and rng.random() < 0.12),
                 "stretch": round(float(rng.uniform(0.75, 1.2)), 3)},
        "index": {"size": size, "height": round(float(rng.uniform(*height)), 4),
                  "corners": corners,
                  "pip": _pick(rng, ["below", "beside", "none"], [70, 18, 12]),
                  "pip_scale": round(float(rng.uniform(0.55, 0.95)), 3),
                  "x": round(float(rng.uniform(0.025, 0.07)), 4),
                  "y": round(float(rng.uniform(0.015, 0.05)), 4),
                  "ten": _pick(rng, ["10", "10", "10", "T"])},
        "inks": _inks(rng),
        "pips": _pip_shape(rng),
        "middle": {"numbers": numbers, "courts": courts,
                   "pip_size": round(float(rng.uniform(0.09, 0.14)), 4),
                   "one_size": round(float(rng.uniform(0.25, 0.5)), 4),
                   "palette": [_colour(rng, _pick(rng, list(INKS))) for _ in range(3)]},
        "stock": [int(min(255, max(200, v + rng.integers(-8, 9)))) for v in STOCKS[stock]],
        "border": {"kind": border, "width": round(float(rng.uniform(0.004, 0.03)), 4),
                   "colour": _colour(rng, _pick(rng, list(INKS)))},
        "radius": round(float(rng.uniform(0.03, 0.09)), 4),
        "wear": _pick(rng, [0.0, 0.0, round(float(rng.uniform(0.1, 0.4)), 3),
                            round(float(rng.uniform(0.4, 1.0)), 3)]),
        "back": _colour(rng, _pick(rng, ["red", "blue", "navy", "green", "purple", "black"])),
    }


# ---- the hand-made designs: fixed parameters, never from a seed --------------------------

def _hand_base(name):
    return {"name": name, "kind": "hand", "seed": None, "suits": "french",
            "pips": {"heart_width": 1.0, "diamond_bow": 0.08, "diamond_width": 0.72,
                     "spade_stem": 0.2, "club_lobe": 0.3, "stem_flare": 0.2},
            "stock": [255, 255, 255], "radius": 0.06, "wear": 0.0, "back": [30, 60, 140]}


def _four_colour():
    """A four-colour deck as club and online decks print it: spades black, hearts red,
    diamonds blue, clubs green; standard pips, drawn courts, a plain sans index."""
    d = _hand_base("four-colour")
    d.update({
        "face": {"family": "libre-franklin", "weight": 600, "italic": False, "stretch": 0.9},
        "index": {"size": "small", "height": 0.08, "corners": 2, "pip": "below",
                  "pip_scale": 0.75, "x": 0.045, "y": 0.03, "ten": "10"},
        "inks": {"scheme": "four-classic",
                 "families": {"C": "green", "D": "blue", "H": "red", "S": "black"},
                 "C": [20, 135, 55], "D": [20, 80, 200], "H": [210, 20, 30], "S": [15, 15, 20],
                 "faded": 0.0},
        "middle": {"numbers": "standard", "courts": "picture", "pip_size": 0.12,
                   "one_size": 0.4, "palette": [[220, 180, 40], [40, 70, 160], [190, 30, 40]]},
        "border": {"kind": "line", "width": 0.006, "colour": [120, 120, 120]},
    })
    return d


def _one_symbol():
    """A minimal deck: one large suit symbol in the middle of every card, nines and tens
    and courts alike; only the index tells the rank."""
    d = _hand_base("one-symbol")
    d.update({
        "face": {"family": "red-hat-display", "weight": 500, "italic": False, "stretch": 1.0},
        "index": {"size": "small", "height": 0.085, "corners": 2, "pip": "below",
                  "pip_scale": 0.7, "x": 0.05, "y": 0.035, "ten": "10"},
        "inks": {"scheme": "two", "families": {"C": "black", "D": "red", "H": "red",
                                               "S": "black"},
                 "C": [25, 25, 30], "D": [200, 30, 40], "H": [200, 30, 40], "S": [25, 25, 30],
                 "faded": 0.0},
        "middle": {"numbers": "one", "courts": "one", "pip_size": 0.12, "one_size": 0.38,
                   "palette": [[0, 0, 0]] * 3},
        "border": {"kind": "none", "width": 0.0, "colour": [0, 0, 0]},
        "stock": [250, 246, 236],
    })
    return d


def _large_index():
    """A large-index deck (as for poor eyes): a condensed rank in all four corners, the
    pips small between them."""
    d = _hand_base("large-index")
    d.update({
        "face": {"family": "yanone-kaffeesatz", "weight": 700, "italic": False,
                 "stretch": 1.0},
        "index": {"size": "jumbo", "height": 0.15, "corners": 4, "pip": "below",
                  "pip_scale": 0.5, "x": 0.035, "y": 0.02, "ten": "10"},
        "inks": {"scheme": "two", "families": {"C": "black", "D": "red", "H": "red",
                                               "S": "black"},
                 "C": [10, 10, 10], "D": [220, 25, 25], "H": [220, 25, 25], "S": [10, 10, 10],
                 "faded": 0.0},
        "middle": {"numbers": "standard", "courts": "picture", "pip_size": 0.085,
                   "one_size": 0.3, "palette": [[230, 190, 50], [30, 110, 60], [200, 40, 40]]},
        "border": {"kind": "frame", "width": 0.012, "colour": [30, 30, 120]},
    })
    return d


def _german():
    """Doppeldeutsche cards: the German suits drawn as their own shapes in their own
    colours (a red heart, a yellow bell, a brown acorn, a green leaf), the index letters
    A K O U, pictures on the courts (the Ober's pip above his head, the Unter's below)."""
    d = _hand_base("german")
    d.update({
        "suits": "german",
        "face": {"family": "im-fell-english-sc", "weight": 400, "italic": False,
                 "stretch": 1.0},
        "index": {"size": "small", "height": 0.08, "corners": 2, "pip": "below",
                  "pip_scale": 0.8, "x": 0.04, "y": 0.03, "ten": "10"},
        "inks": {"scheme": "german", "families": {"H": "red", "D": "gold", "C": "brown",
                                                  "S": "green"},
                 "H": [205, 30, 35], "D": [225, 175, 30], "C": [140, 85, 35],
                 "S": [40, 130, 50], "faded": 0.0},
        "middle": {"numbers": "standard", "courts": "picture", "pip_size": 0.12,
                   "one_size": 0.4, "palette": [[200, 40, 40], [40, 90, 50], [220, 180, 60]]},
        "border": {"kind": "inset", "width": 0.006, "colour": [60, 60, 60]},
        "stock": [250, 245, 230],
    })
    return d


HAND = {"four-colour": _four_colour, "one-symbol": _one_symbol,
        "large-index": _large_index, "german": _german}


def hand(name):
    """The parameters of a hand-made design (HAND)."""
    return HAND[name]()


# ---- the pips: shapes in a unit box (x and y from -0.5 to 0.5, y down, the point up) -----

def _bezier(p0, p1, p2, n=16):
    return [((1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * p1[0] + t * t * p2[0],
             (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * p1[1] + t * t * p2[1])
            for t in np.linspace(0, 1, n)]


def _heart_poly(width=1.0, n=72):
    """A heart, its point down: the outline of a classic parametric curve, fitted to the
    unit box."""
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    x = np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)) / 16
    x = x / (2 * np.abs(x).max()) * width
    y = (y - y.min()) / (y.max() - y.min()) - 0.5
    return list(zip(x.tolist(), y.tolist()))


def _stem(flare, top=0.1, bottom=0.5, waist=0.04):
    """A pip's foot: narrow at the top, flared at the bottom."""
    return [(-waist, top), (waist, top), (waist + flare * 0.5, bottom),
            (-waist - flare * 0.5, bottom)]


def shape(suit, p, german=False, drawn=None):
    """A pip as parts: ("poly", points, role) and ("ellipse", (cx, cy, rx, ry), role) in the
    unit box; role "ink" (the suit's colour), "dark" (its details), "stock" (cut out).
    German: the hand-made deck's shapes, or those of a germanised design's `drawn`."""
    if german:
        return _german_drawn(suit, drawn) if drawn else _german_shape(suit)
    if suit == "H":
        return [("poly", _heart_poly(p["heart_width"]), "ink")]
    if suit == "D":
        w, b = p["diamond_width"] / 2, p["diamond_bow"]
        top, right, bottom, left = (0, -0.5), (w, 0), (0, 0.5), (-w, 0)
        pts = []
        for a, c in ((top, right), (right, bottom), (bottom, left), (left, top)):
            mid = ((a[0] + c[0]) / 2 * (1 - b * 2), (a[1] + c[1]) / 2 * (1 - b * 2))
            pts += _bezier(a, mid, c)[:-1]
        return [("poly", pts, "ink")]
    if suit == "S":
        # a heart turned over (its point up), squashed into the top, and a foot
        body = [(x * 1.0, -y * 0.78 - 0.1) for x, y in _heart_poly(p["heart_width"])]
        return [("poly", body, "ink"),
                ("poly", _stem(p["stem_flare"], top=0.05, bottom=0.5,
                               waist=p["spade_stem"] * 0.25), "ink")]
    # clubs: three round lobes and a foot
    r = p["club_lobe"] * 0.72
    return [("ellipse", (0, -0.5 + r, r, r), "ink"),
            ("ellipse", (-0.5 + r, 0.02 + r * 0.3, r, r), "ink"),
            ("ellipse", (0.5 - r, 0.02 + r * 0.3, r, r), "ink"),
            ("poly", [(0, -0.2), (0.16, 0.12), (-0.16, 0.12)], "ink"),
            ("poly", _stem(p["stem_flare"], top=0.0, bottom=0.5, waist=0.05), "ink")]


def _german_shape(suit):
    if suit == "H":  # Herz: a round heart
        return [("poly", _heart_poly(1.1), "ink")]
    if suit == "D":  # Schellen: a bell (a ball with a band, a slit and a knob)
        return [("ellipse", (0, 0.06, 0.42, 0.42), "ink"),
                ("ellipse", (0, -0.42, 0.08, 0.08), "dark"),
                ("poly", [(-0.41, -0.04), (0.41, -0.04), (0.41, 0.04), (-0.41, 0.04)], "dark"),
                ("ellipse", (0, 0.24, 0.07, 0.07), "dark"),
                ("poly", [(-0.025, 0.24), (0.025, 0.24), (0.025, 0.47), (-0.025, 0.47)],
                 "dark")]
    if suit == "C":  # Eichel: an acorn (a nut, its cap and a stalk)
        return [("ellipse", (0, 0.13, 0.27, 0.35), "ink"),
                ("poly", _bezier((-0.33, -0.02), (0, -0.42), (0.33, -0.02)), "dark"),
                ("poly", [(-0.04, -0.5), (0.04, -0.5), (0.04, -0.2), (-0.04, -0.2)], "dark")]
    # Laub: a leaf, pointed at the top, a stalk and a vein
    left = _bezier((0, -0.5), (-0.75, -0.05), (0, 0.3))
    right = _bezier((0, 0.3), (0.75, -0.05), (0, -0.5))
    return [("poly", left + right, "ink"),
            ("poly", [(-0.03, 0.2), (0.03, 0.2), (0.05, 0.5), (-0.05, 0.5)], "ink"),
            ("poly", [(-0.012, -0.35), (0.012, -0.35), (0.012, 0.25), (-0.012, 0.25)],
             "stock")]


def _german_drawn(suit, g):
    """The German suits of a germanised design, from its own parameters."""
    if suit == "H":
        return [("poly", _heart_poly(g["heart_width"]), "ink")]
    if suit == "D":  # a bell: a ball (rounder or flatter), a band, a knob, its mouth
        b = g["bell"]
        r, ry = b["r"], b["r"] * b["squash"]
        cy = 0.5 - ry - 0.02
        parts = [("ellipse", (0, cy, r, ry), "ink"),
                 ("ellipse", (0, cy - ry - b["knob"] * 0.6, b["knob"], b["knob"]), "dark"),
                 ("poly", [(-r, cy + b["band"]), (r, cy + b["band"]),
                           (r, cy + b["band"] + b["band_h"]),
                           (-r, cy + b["band"] + b["band_h"])], "dark")]
        mouth = cy + ry * 0.5
        if b["mouth"] == "slit":
            parts += [("ellipse", (0, mouth, r * 0.16, r * 0.16), "dark"),
                      ("poly", [(-0.02, mouth), (0.02, mouth), (0.02, cy + ry),
                                (-0.02, cy + ry)], "dark")]
        elif b["mouth"] == "cross":
            parts.append(("poly", [(-r * 0.6, mouth - 0.02), (r * 0.6, mouth - 0.02),
                                   (r * 0.6, mouth + 0.02), (-r * 0.6, mouth + 0.02)], "dark"))
        elif b["mouth"] == "ring":
            parts += [("ellipse", (0, mouth, r * 0.25, r * 0.2), "dark"),
                      ("ellipse", (0, mouth, r * 0.13, r * 0.1), "stock")]
        return parts
    if suit == "C":  # an acorn: a nut, its cap (a dome, a cup or hatched), a stalk
        a = g["acorn"]
        ny = 0.5 - a["h"]
        cap_y = ny - a["h"] * (1 - a["cap"] * 1.2)
        parts = [("ellipse", (0, ny, a["w"], a["h"]), "ink")]
        cw = a["w"] * 1.15
        if a["cap_style"] == "dome":
            parts.append(("poly", _bezier((-cw, cap_y), (0, cap_y - a["h"] * a["cap"] * 2),
                                          (cw, cap_y)), "dark"))
        else:
            top = cap_y - a["h"] * a["cap"]
            parts.append(("poly", [(-cw * 0.75, top), (cw * 0.75, top), (cw, cap_y),
                                   (-cw, cap_y)], "dark"))
            if a["cap_style"] == "hatched":  # rows of scales: lines across the cup
                for k in (1, 2):
                    y = top + (cap_y - top) * k / 3
                    parts.append(("poly", [(-cw, y - 0.01), (cw, y - 0.01), (cw, y + 0.01),
                                           (-cw, y + 0.01)], "stock"))
        stalk_top = max(-0.5, cap_y - a["h"] * a["cap"] * 1.6 - a["stalk"])
        parts.append(("poly", [(-0.03, stalk_top), (0.03, stalk_top), (0.03, cap_y - 0.02),
                               (-0.03, cap_y - 0.02)], "dark"))
        if a["leaf"]:  # a small leaf on the stalk
            parts.append(("poly", _bezier((0.02, stalk_top + 0.03), (0.3, stalk_top - 0.08),
                                          (0.32, stalk_top + 0.12))
                          + _bezier((0.32, stalk_top + 0.12), (0.12, stalk_top + 0.14),
                                    (0.02, stalk_top + 0.05)), "dark"))
        return parts
    # a leaf: its width, where it is widest, a stalk, a vein, lobes along its edge
    f = g["leaf"]
    w, tip, stalk = f["w"], f["tip"], f["stalk"]
    bottom = 0.5 - stalk
    left = _bezier((0, -0.5), (-w, tip), (0, bottom))
    right = _bezier((0, bottom), (w, tip), (0, -0.5))
    parts = [("poly", left + right, "ink"),
             ("poly", [(-0.03, bottom - 0.05), (0.03, bottom - 0.05), (0.045, 0.5),
                       (-0.045, 0.5)], "ink")]
    for k in range(f["lobes"]):  # bumps on both sides
        t = (k + 1) / (f["lobes"] + 1)
        x, y = left[int(t * (len(left) - 1))]
        parts += [("ellipse", (x, y, 0.07, 0.07), "ink"), ("ellipse", (-x, y, 0.07, 0.07), "ink")]
    if f["vein"]:
        parts.append(("poly", [(-0.012, -0.38), (0.012, -0.38), (0.012, bottom - 0.04),
                               (-0.012, bottom - 0.04)], "stock"))
    return parts


# Suits and ranks of other card systems, drawn by the generator for the index reader to
# learn "none" (train_index.py): Latin coins, cups, swords and batons, Swiss roses and
# shields, and plain marks; ranks no card of the rules shows (other digits, other
# languages' court letters). German bells, acorns and leaves are left out: the hand-made
# German deck is measured, never trained on, so nothing of it is drawn here.
FOREIGN_PIPS = ("coin", "cup", "sword", "baton", "rose", "shield", "star", "crescent",
                "triangle", "square", "cross", "ring")
FOREIGN_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "11", "12", "0", "B", "C", "D", "E",
                 "H", "M", "O", "P", "R", "S", "U", "V", "W", "X", "Z")
FOREIGN_MODES = ("pips", "ranks", "both")


def foreign(rng, params):
    """A design as another card system would draw it: its own pips, its own rank letters or
    both (FOREIGN_MODES); no corner of it shows a card of the rules."""
    p = json.loads(json.dumps(params))
    mode = FOREIGN_MODES[int(rng.integers(len(FOREIGN_MODES)))]
    f = {"mode": mode}
    if mode != "ranks":
        kinds = rng.permutation(len(FOREIGN_PIPS))[:4]
        f["pips"] = {s: FOREIGN_PIPS[int(k)] for s, k in zip(SUITS, kinds)}
    if mode != "pips":
        glyphs = rng.permutation(len(FOREIGN_RANKS))[:len(RANKS)]
        f["ranks"] = {r: FOREIGN_RANKS[int(k)] for r, k in zip(RANKS, glyphs)}
    p["foreign"] = f
    return p


def _star(points, outer=0.5, inner=0.21):
    pts = []
    for i in range(2 * points):
        r = outer if i % 2 == 0 else inner
        a = math.pi * i / points - math.pi / 2
        pts.append((r * math.cos(a), r * math.sin(a)))
    return pts


def _foreign_shape(kind):
    if kind == "coin":
        return [("ellipse", (0, 0, 0.46, 0.46), "ink"), ("ellipse", (0, 0, 0.32, 0.32), "stock"),
                ("ellipse", (0, 0, 0.14, 0.14), "dark")]
    if kind == "cup":
        bowl = _bezier((-0.4, -0.45), (0, 0.25), (0.4, -0.45))
        return [("poly", bowl, "ink"),
                ("poly", [(-0.05, -0.1), (0.05, -0.1), (0.06, 0.35), (-0.06, 0.35)], "ink"),
                ("ellipse", (0, 0.42, 0.28, 0.08), "dark")]
    if kind == "sword":
        return [("poly", [(0, -0.5), (0.06, -0.4), (0.06, 0.22), (-0.06, 0.22), (-0.06, -0.4)],
                 "ink"),
                ("poly", [(-0.3, 0.22), (0.3, 0.22), (0.3, 0.29), (-0.3, 0.29)], "dark"),
                ("poly", [(-0.04, 0.29), (0.04, 0.29), (0.04, 0.42), (-0.04, 0.42)], "dark"),
                ("ellipse", (0, 0.45, 0.06, 0.06), "dark")]
    if kind == "baton":
        return [("poly", [(-0.08, 0.5), (0.1, 0.5), (0.2, -0.45), (-0.2, -0.45)], "ink"),
                ("ellipse", (-0.12, -0.1, 0.07, 0.07), "dark"),
                ("ellipse", (0.1, 0.15, 0.06, 0.06), "dark")]
    if kind == "rose":
        parts = [("ellipse", (0.28 * math.cos(a), 0.28 * math.sin(a), 0.2, 0.2), "ink")
                 for a in (math.pi * 2 * i / 5 - math.pi / 2 for i in range(5))]
        return parts + [("ellipse", (0, 0, 0.15, 0.15), "dark")]
    if kind == "shield":
        return [("poly", [(-0.4, -0.45), (0.4, -0.45), (0.4, 0.05), (0, 0.5), (-0.4, 0.05)],
                 "ink"),
                ("poly", [(-0.4, -0.12), (0.4, -0.12), (0.4, -0.02), (-0.4, -0.02)], "dark")]
    if kind == "star":
        return [("poly", _star(5), "ink")]
    if kind == "crescent":
        return [("ellipse", (0, 0, 0.45, 0.45), "ink"), ("ellipse", (0.18, -0.08, 0.36, 0.36),
                                                         "stock")]
    if kind == "triangle":
        return [("poly", [(0, -0.47), (0.47, 0.4), (-0.47, 0.4)], "ink")]
    if kind == "square":
        return [("poly", [(-0.38, -0.38), (0.38, -0.38), (0.38, 0.38), (-0.38, 0.38)], "ink")]
    if kind == "cross":
        return [("poly", [(-0.12, -0.48), (0.12, -0.48), (0.12, 0.48), (-0.12, 0.48)], "ink"),
                ("poly", [(-0.45, -0.12), (0.45, -0.12), (0.45, 0.12), (-0.45, 0.12)], "ink")]
    return [("ellipse", (0, 0, 0.45, 0.45), "ink"), ("ellipse", (0, 0, 0.3, 0.3), "stock")]


def suit_parts(params, suit):
    """The pip of a suit in a design: its own shape, the German one or another system's."""
    other = params.get("foreign", {}).get("pips")
    if other:
        return _foreign_shape(other[suit])
    return shape(suit, params["pips"], params["suits"] == "german", params.get("german"))


def _draw_shape(d, parts, cx, cy, size, turned, colours):
    """Draw a pip's parts on d (ImageDraw), centred at (cx, cy), size pixels tall, turned
    half round if turned; colours: {role: rgb}."""
    k = -1 if turned else 1
    for kind, data, role in parts:
        fill = tuple(colours[role])
        if kind == "poly":
            d.polygon([(cx + k * x * size, cy + k * y * size) for x, y in data], fill=fill)
        else:
            ex, ey, rx, ry = data
            x, y = cx + k * ex * size, cy + k * ey * size
            d.ellipse((x - rx * size, y - ry * size, x + rx * size, y + ry * size), fill=fill)


# ---- a card -------------------------------------------------------------------------------

def _font_file(family, weight, italic):
    """The .woff2 of a typeface: tools/cardcam's npm packages, else the root's."""
    name = "%s-latin-%d-%s.woff2" % (family, weight, "italic" if italic else "normal")
    for base in (HERE, ROOT):
        path = os.path.join(base, "node_modules", "@fontsource", family, "files", name)
        if os.path.exists(path):
            return path
    raise FileNotFoundError("%s: install the typefaces: cd tools/cardcam && npm ci" % name)


def fonts_installed(params=None):
    """Whether the typefaces of params (default: every one) are installed."""
    faces = [(params["face"]["family"], params["face"]["weight"], params["face"]["italic"])] \
        if params else [(f, w[0], False) for f, (w, _i) in {**FACES, **HAND_FACES}.items()]
    try:
        for face in faces:
            _font_file(*face)
    except FileNotFoundError:
        return False
    return True


def _mix(a, b, t):
    return [int(round(x * (1 - t) + y * t)) for x, y in zip(a, b)]


def _dark(c):
    return [int(v * 0.55) for v in c]


def _rank_text(params, rank):
    other = params.get("foreign", {}).get("ranks")
    if other:
        return other[rank]
    if params["suits"] == "german":
        return GERMAN["index"][rank]
    return params["index"]["ten"] if rank == "T" else rank


def _index(params, rank, suit, ink, colours):
    """The corner index (rank, and the suit's pip under or beside it) on its own
    transparent layer, at SS times the size."""
    ix, face = params["index"], params["face"]
    h = HEIGHT * SS * ix["height"]
    font = ImageFont.truetype(_font_file(face["family"], face["weight"], face["italic"]),
                              max(4, int(h * 1.35)))
    text = _rank_text(params, rank)
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    left, top, right, bottom = probe.textbbox((0, 0), text, font=font)
    glyph = Image.new("L", (right + 4, bottom + 4), 0)
    ImageDraw.Draw(glyph).text((0, 0), text, font=font, fill=255)
    glyph = glyph.crop((left, top, right + 1, bottom + 1))
    # the rank's ink height is the index height, its width stretched as the design says
    gh = max(1, int(round(h)))
    gw = max(1, int(round(glyph.width * gh / max(1, glyph.height) * face["stretch"])))
    glyph = glyph.resize((gw, gh), Image.LANCZOS)
    pip = int(round(h * ix["pip_scale"])) if ix["pip"] != "none" else 0
    gap = int(h * 0.15)
    if ix["pip"] == "below":
        w, hh = max(gw, pip), gh + gap + pip
        gx, px, py = (w - gw) // 2, w / 2, gh + gap + pip / 2
    elif ix["pip"] == "beside":
        w, hh = gw + gap + pip, max(gh, pip)
        gx, px, py = 0, gw + gap + pip / 2, gh - pip / 2
    else:
        w, hh, gx, px, py = gw, gh, 0, 0, 0
    layer = Image.new("RGBA", (w + 2, hh + 2), (0, 0, 0, 0))
    layer.paste(Image.new("RGBA", glyph.size, tuple(ink) + (255,)), (gx, 0), glyph)
    if pip:
        _draw_shape(ImageDraw.Draw(layer), suit_parts(params, suit),
                    px, py, pip, False, colours)
    return layer


def _layout(rank, german):
    """Where a number card's pips lie, in the middle's unit box (x, y from 0 to 1)."""
    if rank == "A":
        return [(0.5, 0.5)]
    if german and rank == "9":  # Neuner: three rows of three (the Zehner as a French ten)
        return [(x, y) for y in (0, 0.5, 1) for x in (0, 0.5, 1)]
    cols = [(x, y) for x in (0, 1) for y in (0, 1 / 3, 2 / 3, 1)]
    if rank == "9":
        return cols + [(0.5, 0.5)]
    return cols + [(0.5, 1 / 6), (0.5, 5 / 6)]


def _figure(d, params, rank, suit, box, colours, rng):
    """A court's picture, drawn: the top half of a double-headed figure (a head, its
    headgear by rank, shoulders in the design's colours, the suit's pip beside it); the
    card's bottom half is this turned half round (card())."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, (y1 - y0) / 2
    pal = params["middle"]["palette"]
    skin = (235, 200, 170)
    cx = x0 + w / 2
    head = min(w, h) * 0.16
    hy = y0 + h * 0.42
    # shoulders and robe
    d.polygon([(cx - w * 0.42, y0 + h), (cx - w * 0.3, hy + head * 1.3),
               (cx + w * 0.3, hy + head * 1.3), (cx + w * 0.42, y0 + h)], fill=tuple(pal[1]))
    d.polygon([(cx - w * 0.12, hy + head * 1.3), (cx + w * 0.12, hy + head * 1.3),
               (cx, y0 + h)], fill=tuple(pal[0]))
    d.ellipse((cx - head, hy - head, cx + head, hy + head), fill=skin, outline=(60, 40, 30),
              width=SS)
    top = hy - head
    if rank == "K":  # a crown with three points
        d.polygon([(cx - head, top + head * 0.2), (cx - head, top - head * 0.9),
                   (cx - head * 0.5, top - head * 0.3), (cx, top - head * 1.1),
                   (cx + head * 0.5, top - head * 0.3), (cx + head, top - head * 0.9),
                   (cx + head, top + head * 0.2)], fill=tuple(pal[2]))
    elif rank == "Q":  # a round tiara with stones
        d.chord((cx - head * 1.1, top - head * 0.9, cx + head * 1.1, top + head * 0.9), 180, 360,
                fill=tuple(pal[2]))
        for k in (-0.5, 0, 0.5):
            r = head * 0.14
            d.ellipse((cx + k * head - r, top - head * 0.45 - r, cx + k * head + r,
                       top - head * 0.45 + r), fill=tuple(pal[0]))
    else:  # a flat cap with a feather
        d.rectangle((cx - head * 1.2, top - head * 0.35, cx + head * 1.0, top + head * 0.25),
                    fill=tuple(pal[2]))
        d.polygon([(cx + head * 0.6, top - head * 0.3), (cx + head * 1.6, top - head * 1.3),
                   (cx + head * 1.1, top - head * 0.2)], fill=tuple(pal[0]))
    # the suit's pip beside the figure (a German Ober holds his above, an Unter below)
    size = min(w, h) * 0.22
    german = params["suits"] == "german"
    parts = suit_parts(params, suit)
    if german and rank == "Q":
        _draw_shape(d, parts, cx, y0 + size * 0.6, size * 0.9, False, colours)
    elif german and rank == "J":
        _draw_shape(d, parts, cx - w * 0.3, y0 + h * 0.85, size * 0.9, False, colours)
    else:
        _draw_shape(d, parts, x0 + w * 0.18, y0 + h * 0.2, size, False, colours)


def _scene(d, box, rng, palette):
    """A picture on a number card: sky, hills and a sun in the design's colours."""
    x0, y0, x1, y1 = box
    sky = _mix(palette[1], [255, 255, 255], 0.6)
    d.rectangle(box, fill=tuple(sky))
    r = (x1 - x0) * rng.uniform(0.08, 0.16)
    sx, sy = rng.uniform(x0 + r, x1 - r), rng.uniform(y0 + r, (y0 + y1) / 2)
    d.ellipse((sx - r, sy - r, sx + r, sy + r), fill=tuple(palette[0]))
    for k in range(3):
        base = y0 + (y1 - y0) * (0.55 + 0.15 * k)
        pts = [(x0, y1), (x0, base)]
        for x in np.linspace(x0, x1, 8):
            pts.append((x, base - (y1 - y0) * 0.12 * rng.random()))
        pts += [(x1, base), (x1, y1)]
        d.polygon(pts, fill=tuple(_mix(palette[2], [0, 0, 0], 0.2 * k)))


def _wear(rng, a, level, stock):
    """An old card: yellowed, dirt and scratches, worn edges. a: (H, W, 4) float32."""
    if level <= 0:
        return a
    h, w = a.shape[:2]
    rgb = a[..., :3]
    rgb *= 1 - level * np.array([0.0, 0.03, 0.1]) * rng.uniform(0.5, 1.5)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for _ in range(int(level * 30)):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(1, 6 + 10 * level)
        spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (r * r))
        rgb -= (spot * rng.uniform(10, 50) * level)[..., None]
    img = Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8), "RGB")
    d = ImageDraw.Draw(img)
    for _ in range(int(level * 12)):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        ang, ln = rng.uniform(0, np.pi), rng.uniform(10, 80)
        tone = tuple(int(v) for v in _mix(stock, [255, 255, 255], 0.5))
        d.line((x, y, x + np.cos(ang) * ln, y + np.sin(ang) * ln), fill=tone, width=1)
    rgb = np.asarray(img, np.float32).copy()
    # the edges rubbed: a greyish rim of uneven width
    edge = np.minimum(np.minimum(xx, w - 1 - xx), np.minimum(yy, h - 1 - yy))
    rim = np.clip(1 - edge / (2 + 4 * level * rng.uniform(0.5, 1.5)), 0, 1)
    rgb = rgb * (1 - rim[..., None] * 0.25 * level) + rim[..., None] * 0.25 * level * 160
    rgb += rng.normal(0, 3 + 6 * level, rgb.shape)
    a[..., :3] = rgb
    return a


def card(params, code):
    """Draw one card of a design: code "9C" to "AS", or "back". PIL RGBA, WIDTH x HEIGHT."""
    W, H = WIDTH * SS, HEIGHT * SS
    rng = np.random.default_rng([45, params["seed"] if params["seed"] is not None else 7,
                                 len(params["name"]), (CARDS + ["back"]).index(code)])
    stock = params["stock"]
    radius = int(params["radius"] * W)
    img = Image.new("RGB", (W, H), tuple(stock))
    d = ImageDraw.Draw(img)
    german = params["suits"] == "german"
    border = params["border"]
    bw = max(SS, int(border["width"] * W))
    if code == "back":
        back = tuple(params["back"])
        m = int(0.05 * W)
        d.rounded_rectangle((m, m, W - m, H - m), radius=radius, fill=back)
        light = tuple(_mix(params["back"], [255, 255, 255], 0.35))
        for k in range(-H, W, int(0.05 * W)):
            d.line((k, m, k + H, m + H), fill=light, width=SS * 2)
            d.line((k + H, m, k, m + H), fill=light, width=SS * 2)
        d.rectangle((0, 0, W, m), fill=tuple(stock))
        d.rectangle((0, H - m, W, H), fill=tuple(stock))
        d.rectangle((0, 0, m, H), fill=tuple(stock))
        d.rectangle((W - m, 0, W, H), fill=tuple(stock))
    else:
        rank, suit = code[0], code[1]
        inks = params["inks"]
        ink = _mix(inks[suit], stock, inks["faded"])
        colours = {"ink": ink, "dark": _mix(_dark(inks[suit]), stock, inks["faded"]),
                   "stock": stock}
        if german and suit in "DC":  # the bell's band and knob red, the acorn's cap darker
            own = params.get("german")
            dark = own["dark"][suit] if own else {"D": [190, 40, 30], "C": [90, 100, 40]}[suit]
            colours["dark"] = _mix(dark, stock, inks["faded"])
        if border["kind"] == "frame":
            d.rounded_rectangle((0, 0, W - 1, H - 1), radius=radius,
                                outline=tuple(border["colour"]), width=bw * 2)
        elif border["kind"] == "line":
            m = int(0.03 * W)
            d.rounded_rectangle((m, m, W - 1 - m, H - 1 - m), radius=max(0, radius - m),
                                outline=tuple(border["colour"]), width=bw)
        index = _index(params, rank, suit, ink, colours)
        if index.width > 0.36 * W:  # a jumbo "10" with its pip beside: kept off the middle
            k = 0.36 * W / index.width
            index = index.resize((int(index.width * k), int(index.height * k)), Image.LANCZOS)
        ix = params["index"]
        x, y = int(ix["x"] * W), int(ix["y"] * H)
        if border["kind"] == "frame":
            x, y = x + bw * 2, y + bw * 2
        # the middle: between the indices (their width on both sides)
        mx = min(max(x + index.width + int(0.03 * W), int(0.16 * W)), int(0.3 * W))
        my = int(0.06 * H)
        if ix["corners"] == 1:
            my = max(my, int(0.04 * H))
        box = (mx, my, W - mx, H - my)
        if border["kind"] == "inset":
            d.rectangle(box, outline=tuple(border["colour"]), width=bw)
        inner = (box[0] + int(0.03 * W), box[1] + int(0.03 * H), box[2] - int(0.03 * W),
                 box[3] - int(0.03 * H))
        parts = suit_parts(params, suit)
        mid = params["middle"]
        kind = mid["courts"] if rank in "JQK" else mid["numbers"]
        if german and rank == "A":
            kind = "one"
        if kind == "standard" or (kind == "pips" and rank in "JQK"):
            pip = mid["pip_size"] * H
            if rank in "JQK":  # pips on courts: two, three, four
                pts = {"J": [(0.5, 0.15), (0.5, 0.85)], "Q": [(0.5, 0.1), (0.5, 0.5), (0.5, 0.9)],
                       "K": [(0.25, 0.15), (0.75, 0.15), (0.25, 0.85), (0.75, 0.85)]}[rank]
            else:
                pts = _layout(rank, german)
            if rank == "A":
                pip *= 2.4
            else:  # no wider or taller than the middle holds them in rows and columns
                cols = len({px for px, _ in pts})
                rows = len({py for _, py in pts})
                pip = min(pip, (inner[2] - inner[0]) / cols * 0.9,
                          (inner[3] - inner[1]) / rows * 0.95)
            ix0, iy0 = inner[0] + pip / 2, inner[1] + pip / 2
            iw, ih = max(1, inner[2] - inner[0] - pip), max(1, inner[3] - inner[1] - pip)
            for px, py in pts:
                _draw_shape(d, parts, ix0 + px * iw, iy0 + py * ih, pip, py > 0.5, colours)
        elif kind == "one":
            size = max(0.12 * H, min(mid["one_size"] * H, (inner[2] - inner[0]) * 1.1))
            _draw_shape(d, parts, W / 2, H / 2, size, False, colours)
        elif kind == "picture":
            if rank in "JQK":
                fig = Image.new("RGB", (box[2] - box[0], box[3] - box[1]), tuple(stock))
                fd = ImageDraw.Draw(fig)
                fd.rectangle((0, 0, fig.width - 1, fig.height // 2),
                             fill=tuple(_mix(mid["palette"][0], stock, 0.75)))
                _figure(fd, params, rank, suit, (0, 0, fig.width, fig.height), colours, rng)
                top = fig.crop((0, 0, fig.width, fig.height // 2))
                fig.paste(top.rotate(180), (0, fig.height - fig.height // 2))
                fd.rectangle((0, 0, fig.width - 1, fig.height - 1), outline=tuple(ink),
                             width=SS)
                img.paste(fig, box[:2])
            else:
                _scene(d, inner, rng, mid["palette"])
        # the indices: top left; turned half round in the bottom right; four: also the
        # other two corners
        img.paste(index, (x, y), index)
        turned = index.rotate(180)
        if ix["corners"] >= 2:
            img.paste(turned, (W - x - index.width, H - y - index.height), turned)
        if ix["corners"] == 4:
            img.paste(index, (W - x - index.width, y), index)
            img.paste(turned, (x, H - y - index.height), turned)
    img = img.resize((WIDTH, HEIGHT), Image.LANCZOS)
    a = np.asarray(img, np.float32).copy()
    a = np.concatenate([a, np.full(a.shape[:2] + (1,), 255, np.float32)], axis=2)
    a = _wear(rng, a, params["wear"], stock)
    out = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8), "RGBA")
    if params["wear"] > 0.3:
        out = out.filter(ImageFilter.GaussianBlur(0.4 * params["wear"]))
    # the rounded corners cut out, a thin grey edge
    mask = Image.new("L", (W, H), 0)
    md = ImageDraw.Draw(mask)
    md.rounded_rectangle((0, 0, W - 1, H - 1), radius=radius, fill=255)
    edge = Image.new("L", (W, H), 0)
    ImageDraw.Draw(edge).rounded_rectangle((0, 0, W - 1, H - 1), radius=radius, outline=255,
                                           width=SS)
    mask = mask.resize((WIDTH, HEIGHT), Image.LANCZOS)
    edge = edge.resize((WIDTH, HEIGHT), Image.LANCZOS)
    out.paste(Image.new("RGB", out.size, (140, 140, 140)), (0, 0), edge)
    out.putalpha(mask)
    return out


def deck(params):
    """Every card of a design: {"9C": RGBA, ..., "back": RGBA} (as scenes.load_deck)."""
    return {code: card(params, code) for code in CARDS + ["back"]}


def write(params, out):
    """Draw a design into out/<name>/: its cards, back.png and design.json."""
    folder = os.path.join(out, params["name"])
    os.makedirs(folder, exist_ok=True)
    for code, img in deck(params).items():
        img.save(os.path.join(folder, code + ".png"))
    with open(os.path.join(folder, "design.json"), "w", encoding="utf-8") as f:
        json.dump(params, f, indent=1, sort_keys=True)
        f.write("\n")
    return folder


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, nargs="*", default=[],
                    help="generator seeds (MEASURED: %d to %d)" % (MEASURED[0], MEASURED[-1]))
    ap.add_argument("--measured", action="store_true", help="the MEASURED seeds")
    ap.add_argument("--hand", nargs="*", default=[], help="hand-made designs, or all")
    args = ap.parse_args(argv)
    hands = sorted(HAND) if "all" in args.hand else args.hand
    seeds = list(args.seed) + (list(MEASURED) if args.measured else [])
    for params in [design(s) for s in seeds] + [hand(n) for n in hands]:
        folder = write(params, args.out)
        print("%s: %s, %s index %s (%d corners), %s inks, middle %s/%s" % (
            folder, params["kind"], params["index"]["size"], params["face"]["family"],
            params["index"]["corners"], params["inks"]["scheme"],
            params["middle"]["numbers"], params["middle"]["courts"]))


if __name__ == "__main__":
    main()
