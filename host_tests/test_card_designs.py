"""Card designs made to break the camera model (issue 44, tools/cardcam/decks.py): the deck
generator is the same for a seed and varies every element of a design across seeds; the
hand-made designs are never a generator seed's, above all not a training seed's; the suits
are told apart by the pips' shapes. The cards are drawn with the root's one typeface
(package.json's devDependency), so this runs in make test; a design drawn in its own
typeface needs tools/cardcam's packages and is skipped without them.
"""

import json
import os
import sys

import numpy as np
import pytest
from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools", "cardcam"))
import decks  # noqa: E402
import scenes  # noqa: E402

TEST_FACE = {"family": "abel", "weight": 400, "italic": False, "stretch": 1.0}
SAMPLE = range(400)  # generator seeds whose spread is checked


def in_test_face(params):
    """A design drawn in the root's typeface (decks.FACES' abel), the rest as it is."""
    return dict(params, face=dict(TEST_FACE, stretch=params["face"]["stretch"]))


def test_a_seed_gives_the_same_design():
    for seed in (0, 1, 44, 9999, 10001):
        a, b = decks.design(seed), decks.design(seed)
        assert a == b
        assert json.loads(json.dumps(a)) == a  # the manifest holds every parameter
    assert decks.design(1) != decks.design(2)


def test_the_generator_varies_every_element():
    designs = [decks.design(s) for s in SAMPLE]

    def spread(get):
        return {json.dumps(get(d)) for d in designs}

    assert len(spread(lambda d: d["face"]["family"])) >= 40  # dozens of typefaces
    assert len(spread(lambda d: d["face"]["weight"])) >= 5
    assert spread(lambda d: d["index"]["size"]) == {'"small"', '"large"', '"jumbo"'}
    assert spread(lambda d: d["index"]["corners"]) == {"1", "2", "4"}
    assert spread(lambda d: d["index"]["pip"]) == {'"below"', '"beside"', '"none"'}
    assert spread(lambda d: d["inks"]["scheme"]) == {
        '"two"', '"four-classic"', '"four"', '"one"', '"two-other"'}
    assert len(spread(lambda d: [d["inks"]["families"][s] for s in "CDHS"])) >= 60
    assert spread(lambda d: d["middle"]["numbers"]) == {
        '"standard"', '"one"', '"picture"', '"blank"'}
    assert spread(lambda d: d["middle"]["courts"]) == {
        '"picture"', '"pips"', '"one"', '"blank"'}
    assert len(spread(lambda d: d["stock"])) >= 100
    assert spread(lambda d: d["border"]["kind"]) == {'"none"', '"line"', '"frame"', '"inset"'}
    assert len(spread(lambda d: d["pips"])) == len(designs)
    assert any(d["wear"] == 0 for d in designs) and any(d["wear"] > 0.5 for d in designs)
    assert any(d["inks"]["faded"] for d in designs)
    # every suit in every ink family, so a suit's colour never says which suit it is
    for suit in "CDHS":
        assert {d["inks"]["families"][suit] for d in designs} == set(decks.INKS)
    # the four-colour decks of the issue: clubs green, diamonds blue
    assert any(d["inks"]["families"]["C"] == "green" and d["inks"]["families"]["D"] == "blue"
               for d in designs)
    # two seeds: other typefaces and other inks
    a, b = decks.design(10001), decks.design(10002)
    assert a["face"] != b["face"] and a["inks"] != b["inks"]


def test_a_reinked_design_ties_no_ink_to_a_suit():
    # Both networks learn from training designs drawn again this way (decks.reinked): any
    # ink family for any suit, each colour inside its family's range, the rest untouched.
    rng = np.random.default_rng(44)
    base = decks.design(7)
    seen = {s: set() for s in "CDHS"}
    for _ in range(300):
        p = decks.reinked(rng, base)
        assert {k: v for k, v in p.items() if k != "inks"} == \
            {k: v for k, v in base.items() if k != "inks"}
        for s in "CDHS":
            family = p["inks"]["families"][s]
            seen[s].add(family)
            assert all(lo <= c <= hi for c, (lo, hi) in zip(p["inks"][s], decks.INKS[family]))
    assert all(families == set(decks.INKS) for families in seen.values())
    assert base == decks.design(7)  # the design it was given is not changed


def test_the_typefaces_are_the_pinned_npm_packages():
    with open(os.path.join(ROOT, "tools", "cardcam", "package.json"), encoding="utf-8") as f:
        deps = json.load(f)["dependencies"]
    pinned = {name.split("/")[1] for name in deps if name.startswith("@fontsource/")}
    assert pinned == set(decks.FACES) | set(decks.HAND_FACES)
    assert not set(decks.FACES) & set(decks.HAND_FACES)
    assert all(v.count(".") == 2 and v[0].isdigit() for n, v in deps.items()
               if n.startswith("@fontsource/"))  # exact versions


def test_the_hand_made_designs_are_never_a_seeds():
    hands = [decks.hand(n) for n in sorted(decks.HAND)]
    assert {h["name"] for h in hands} >= {"four-colour", "one-symbol", "large-index", "german"}
    for h in hands:
        assert h["kind"] == "hand" and h["seed"] is None
        assert h["face"]["family"] in decks.HAND_FACES
    names = {h["name"] for h in hands}
    assert not set(decks.MEASURED) & set(decks.TRAINING_SEEDS)
    for seed in decks.TRAINING_SEEDS:
        d = decks.design(seed)
        assert d["kind"] == "generator" and d["name"] not in names
        assert d["face"]["family"] in decks.FACES  # never a hand-made design's typeface
        assert d["suits"] == "french"  # German suits only in the hand-made deck
        assert d not in hands
    # what each hand-made design is made to test
    four = decks.hand("four-colour")["inks"]
    assert four["families"]["D"] == "blue" and four["families"]["C"] == "green"
    assert decks.hand("one-symbol")["middle"] == dict(decks.hand("one-symbol")["middle"],
                                                      numbers="one", courts="one")
    assert decks.hand("large-index")["index"]["size"] == "jumbo"
    german = decks.hand("german")
    assert german["suits"] == "german"
    assert set(decks.GERMAN["suits"]) == set("CDHS")
    assert set(decks.GERMAN["ranks"]) == set("9TJQKA")


def parts_mask(parts):
    """Where a pip's parts (decks.shape) cover a 120 x 120 square, drawn 100 pixels tall."""
    from PIL import Image, ImageDraw

    img = Image.new("L", (120, 120), 0)
    colours = {"ink": (255,), "dark": (255,), "stock": (0,)}
    decks._draw_shape(ImageDraw.Draw(img), parts, 60, 60, 100, False, colours)
    return np.asarray(img) > 127


def pip_mask(suit, german=False):
    return parts_mask(decks.shape(suit, decks.design(0)["pips"], german))


@pytest.mark.parametrize("german", [False, True])
def test_the_suits_differ_in_shape(german):
    masks = {s: pip_mask(s, german) for s in "CDHS"}
    for a in "CDHS":
        assert masks[a].sum() > 1500  # drawn, not a speck
        for b in "CDHS":
            if a < b:
                overlap = (masks[a] & masks[b]).sum() / (masks[a] | masks[b]).sum()
                # the nearest are the club and the spade (0.81): a point against lobes
                assert overlap < 0.85, (a, b, overlap)


def test_germanised_designs_draw_german_suits_of_their_own():
    # Training designs drawn German-suited (decks.germanised): each suit its own shape,
    # told apart by it as the French ones are, never the hand-made German deck's shapes
    # (that deck stays measured only), the rest of the design untouched.
    rng = np.random.default_rng(46)
    base = decks.design(7)
    hand = {s: decks.shape(s, base["pips"], True) for s in "CDHS"}
    schemes = set()
    for _ in range(60):
        p = decks.germanised(rng, base)
        assert p["suits"] == "german" and base["suits"] == "french"
        assert {k: v for k, v in p.items() if k not in ("suits", "german", "inks")} == \
            {k: v for k, v in base.items() if k not in ("suits", "inks")}
        schemes.add(p["inks"]["scheme"])
        parts = {s: decks.suit_parts(p, s) for s in "CDHS"}
        masks = {s: parts_mask(parts[s]) for s in "CDHS"}
        for a in "CDHS":
            assert parts[a] != hand[a]
            assert masks[a].sum() > 1000
            for b in "CDHS":
                if a < b:
                    overlap = (masks[a] & masks[b]).sum() / (masks[a] | masks[b]).sum()
                    assert overlap < 0.85, (a, b, overlap, p["german"])
    assert schemes == {"german", base["inks"]["scheme"]}
    assert base == decks.design(7)  # the design it was given is not changed
    for code in ("9C", "TD", "QH", "AS"):  # its cards draw, with ink on each
        arr = np.asarray(decks.card(in_test_face(p), code))
        assert arr.shape == (decks.HEIGHT, decks.WIDTH, 4) and arr[..., :3].std() > 20
    assert [decks._rank_text(p, r) for r in "9TJQKA"] == ["9", "10", "U", "O", "K", "A"]


def test_cards_are_drawn_the_same_for_a_seed():
    p = in_test_face(decks.design(10004))
    q = in_test_face(decks.design(10005))
    for code in ("9D", "TH", "KS", "AC", "back"):
        a, b = decks.card(p, code), decks.card(p, code)
        assert a.size == (decks.WIDTH, decks.HEIGHT) and a.mode == "RGBA"
        assert a.tobytes() == b.tobytes()
        arr = np.asarray(a)
        assert arr[0, 0, 3] == 0 and arr[decks.HEIGHT // 2, decks.WIDTH // 2, 3] == 255
        assert a.tobytes() != decks.card(q, code).tobytes()
    # the cards of a design differ from each other
    shots = {c: decks.card(p, c).tobytes() for c in ("9D", "9H", "TD", "AD")}
    assert len(set(shots.values())) == 4


def test_every_hand_made_design_draws():
    for name in sorted(decks.HAND):
        p = in_test_face(decks.hand(name))
        for code in ("9C", "TD", "QH", "AS"):
            arr = np.asarray(decks.card(p, code))
            assert arr.shape == (decks.HEIGHT, decks.WIDTH, 4)
            assert arr[..., :3].std() > 20  # ink on the card


@pytest.mark.skipif(not decks.fonts_installed(),
                    reason="tools/cardcam's typefaces are not installed (cd tools/cardcam "
                           "&& npm ci)")
def test_a_design_in_its_own_typefaces(tmp_path):
    p = decks.design(10001)
    folder = decks.write(p, str(tmp_path))
    deck = scenes.load_deck(folder)  # as the scenes and the measurement read it
    assert set(deck) == set(scenes.CARDS) | {"back"}
    with open(os.path.join(folder, "design.json"), encoding="utf-8") as f:
        assert json.load(f) == p
    german = decks.card(decks.hand("german"), "QH")
    assert german.size == (decks.WIDTH, decks.HEIGHT)
