"""Whole deals from a fake camera on hand-made card designs made to break the camera model
(issue 44, tools/cardcam/decks.py): a four-colour deck (diamonds blue, clubs green: the
whole-card networks once read every blue diamond as a spade, sure) and a deck with one
large symbol in the middle of every card (nines, tens and courts once read as aces, sure).
Each deal is played in headless Chromium with camera mode on, as tools/camera_figures.py
plays the held-out deck's: a trick the camera proposes right is taken with one tap, any
other is typed with ranks only. No trick may ever be proposed that is not a trick of the
deal (the video shows nothing else), and the match must be the deal typed.
"""

import browser
import camera_figures
import decks
import pytest

pytestmark = [
    pytest.mark.skipif(browser.missing() is not None, reason=browser.missing() or ""),
    # the root package.json's devDependencies hold these two designs' typefaces
    pytest.mark.skipif(not all(decks.fonts_installed(decks.hand(n))
                               for n in ("four-colour", "one-symbol")),
                       reason="the designs' typefaces are not installed (npm ci)"),
]


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory):
    import web

    out = str(tmp_path_factory.mktemp("site"))
    web.build(out)
    return out


@pytest.mark.parametrize("design", ["four-colour", "one-symbol"])
def test_a_whole_deal_on_a_deck_made_to_break_the_model_is_never_proposed_wrong(site_dir,
                                                                                 design):
    deck = decks.deck(decks.hand(design))
    figures, by_camera, typed = camera_figures.camera_deal(site_dir, deck, throttle=0)
    assert figures["errors"] == []
    assert figures["camera_deal_wrong_proposals"] == [], figures
    assert by_camera == typed
    assert by_camera["deals"] == 1 and by_camera["history"]  # the whole deal, to its result
    print(design, "tricks by camera:", figures["camera_deal_tricks_by_camera"], "of",
          figures["camera_deal_tricks"])
