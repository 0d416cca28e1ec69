"""The four-player game's entries in the action menu: nine in the cut, redeal, three nines,
contracts, and a claim with a marriage. A module of their own, loaded only when four play
(ui/menus.py) and dropped with the menus on the way home (App.home)."""

from ui.i18n import t
from ui.lists import List, choose_seat, entry, takes
from ui.screen import SUIT_TEXT


def pairs_items(items, state):
    """Add the four-player items to the action menu's list, each while the deal can take it
    (docs/rules.md: the cut, redeal, three nines and bids before the first trick; the cut
    before any other entry; no redeal or three nines once three nines is in or a bid
    stands). Asked of the core itself: the code that checks them (sixtysix/deal4.py) is
    loaded for four players only."""
    deal = state.deal
    seat = deal.leader
    if takes(state, b"\x08"):
        items.append((t("cut nine"), _cut9))
    if takes(state, b"\x09"):
        items.append((t("redeal"), entry(b"\x09")))
    if takes(state, bytes((10, seat, 1))):
        items.append((t("three nines"), lambda a: choose_seat(a, t("three nines"), _nines)))
    # The highest bid from the pair that plays first: refused only when no bid can count.
    if takes(state, bytes((11, (deal.dealer + 1) % 4, 3))):
        items.append((t("contract"), lambda a: choose_seat(a, t("contract"), _bid)))
    if deal.bid_kind >= 0:
        items.append((t("contract made"), entry(b"\x0c\x01")))
        items.append((t("contract failed"), entry(b"\x0c\x00")))


def _cut9(app):
    """A nine in the cut changes nothing on the scoreboard: the message says how many are
    cut (the third ends the deal, and its result says so)."""
    if entry(b"\x08")(app):
        n = app.match.state.deal.cut9
        if n:
            app.say(t("nines cut") + ": " + str(n))


def claim_with_marriage(app, seat):
    """Seed 000: with four players a claim may come with a marriage, declared without leading."""
    items = [(t("no marriage"), entry(bytes((4, seat))))]
    for s in range(4):
        items.append((t("marriage") + " " + SUIT_TEXT[s], entry(bytes((4, seat, s)))))
    app.push(List(t("claim 66"), items))


def _nines(app, seat):
    app.push(List(t("three nines"), [(t("won"), entry(bytes((10, seat, 1)))),
                                     (t("lost"), entry(bytes((10, seat, 0))))]))


def _bid(app, seat):
    items = [(t("bid_" + str(k)), entry(bytes((11, seat, k)))) for k in range(4)]
    app.push(List(t("contract"), items))
