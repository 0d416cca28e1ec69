"""The action menu offers a deal entry only when the deal can take it (ui/menus.py, ui/pairs.py).

The menu that ui/menus.py builds is read in CPython with a stand-in for the App, at every
state of random legal matches of every rule set (tools/dealgen.py) and of a few written
ones: each deal entry it lists must be taken by the core for some choice under it (a suit,
a seat, the game points), and each one it leaves out must be refused for every choice. So
after a deal ended there is no "Close the stock" or "Claim 66" (the next deal, trump and a
result stay), and with four players no cut, redeal, three nines or contract after the first
trick. With no match the menu holds the general items that need none.
"""

import pytest
from dealgen import Player
from sixtysix.errors import Refused
from sixtysix.match import Match
from sixtysix.rules import RULE_SETS
from ui import i18n

i18n.use("en")
T = i18n.t

GENERAL = [T(k) for k in ("undo", "redo", "history", "statistics", "settings", "new match")]


class FakeApp:
    """What scoreboard_menu uses of the App: the match, and push() for the list it opens."""

    def __init__(self, match):
        self.match = match
        self.pushed = None

    def push(self, screen):
        self.pushed = screen


def menu_labels(match):
    from ui import menus

    app = FakeApp(match)
    menus.scoreboard_menu(app)
    assert app.pushed.title == T("menu")
    return [label for label, _fn in app.pushed.items]


def records(state):
    """Every record each deal entry of the menu could lead to, by the entry's label: all
    seats, suits and values, not only those the menu's choosers offer."""
    r = state.rules
    seats = range(r.players)
    suits = range(4)
    # `next` opens a deal after one ended ("Next deal"); in the claim window (hidden totals,
    # the last trick in) it says nobody claims ("No claim").
    window = state.deal.played == state.deal.total
    return {
        T("next deal"): [] if window else [b"\x0d"],
        T("no claim"): [b"\x0d"] if window else [],
        T("trump"): [bytes((0, s)) for s in suits],
        T("marriage"): [bytes((2, p, s)) for p in seats for s in suits],
        T("close"): [bytes((3, p)) for p in seats],
        T("claim 66"): [bytes((4, p)) for p in seats] + [bytes((4, p, s)) for p in seats
                                                        for s in suits],
        T("result"): [bytes((5, side, g)) for side in range(r.sides) for g in (1, 2, 3)],
        T("draw"): [b"\x06"],
        T("cut nine"): [b"\x08"],
        T("redeal"): [b"\x09"],
        T("three nines"): [bytes((10, p, w)) for p in seats for w in (0, 1)],
        T("contract"): [bytes((11, p, k)) for p in seats for k in range(4)],
        T("contract made"): [b"\x0c\x01"],
        T("contract failed"): [b"\x0c\x00"],
    }


def taken(state, rec):
    try:
        state.check(rec)
    except Refused:
        return False
    return True


def check_menu(match, where):
    shown = menu_labels(match)
    assert shown[-len(GENERAL):] == GENERAL, where
    for label, recs in records(match.state).items():
        can = [rec for rec in recs if taken(match.state, rec)]
        if label in shown:
            assert can, (where, label, "listed, but the deal refuses every choice")
        else:
            assert not can, (where, label, "left out, but the deal takes", can)


def check_lines(lines):
    m = Match()
    m.enter_line(lines[0])
    check_menu(m, lines[:1])
    for i in range(1, len(lines)):
        m.enter_line(lines[i])
        check_menu(m, lines[max(0, i - 3):i + 1])
    return m


@pytest.mark.parametrize("rid", RULE_SETS)
def test_the_menu_lists_a_deal_entry_only_when_the_deal_can_take_it(rid):
    for seed in (1, 2, 3):
        player = Player("new %s dealer=%d" % (rid, 1 + seed % 2), seed, quick=15,
                        suits=seed != 2)
        player.play_match(40)
        check_lines(player.lines)


@pytest.mark.parametrize("lines,listed,left_out", [
    # A deal just ended: the next deal, trump and a result (and a draw) are taken.
    (["new mariage dealer=1", "result 1 1"], ["next deal", "trump", "result"],
     ["close", "claim 66", "draw"]),
    (["new classic66 dealer=1", "draw"], ["next deal", "trump", "result", "draw"],
     ["close", "claim 66"]),
    # Closed: no second close.
    (["new schnapsen dealer=1", "trump D", "trick 2 A T", "close 2"],
     ["marriage", "claim 66", "result"], ["close", "trump"]),
    # Four players: before anything, everything; after trump, no cut; after the first trick
    # none of the deal's opening entries.
    (["new mariage4 dealer=1"],
     ["trump", "claim 66", "result", "cut nine", "redeal", "three nines", "contract"], []),
    (["new mariage4 dealer=1", "trump S"],
     ["marriage", "redeal", "three nines", "contract"], ["cut nine"]),
    (["new mariage4 dealer=1", "trump S", "trick 1 A T K Q"], ["marriage", "claim 66"],
     ["cut nine", "redeal", "three nines", "contract", "contract made"]),
    # After three nines: a contract still, no redeal.
    (["new mariage4 dealer=1", "nines 2 won"], ["contract"],
     ["cut nine", "redeal", "three nines"]),
    # A bid standing: trump, a higher bid, the contract's result; nothing else of the deal.
    (["new mariage4 dealer=1", "bid 1 six"],
     ["trump", "contract", "contract made", "contract failed"],
     ["claim 66", "result", "cut nine", "redeal", "three nines"]),
    # A costume of the pair that plays first (player 2, left of the dealer) cannot be beaten.
    (["new mariage4 dealer=1", "bid 2 costume"], ["contract made", "contract failed"],
     ["contract"]),
    (["new mariage4 dealer=1", "bid 1 costume"], ["contract"], []),
    # Hidden totals, the last trick in (the claim window): the claim of its side, or none.
    (["new schnapsen dealer=1", "trick 2 J J", "trick 2 Q Q", "close 2", "trick 2 A A",
      "trick 2 A A", "trick 2 T T", "trick 2 K K", "trick 1 J J"], ["claim 66", "no claim"],
     ["next deal", "trump", "marriage", "close", "result"]),
    (["new sechsundsechzig dealer=1", "trump S", "trick 1 J J", "close 1", "trick 1 A A",
      "trick 1 A A", "trick 2 9 9", "trick 2 9 9", "trick 1 K Q", "trick 1 T T"],
     ["claim 66", "no claim"], ["next deal", "marriage", "result", "draw"]),
    (["new mariage4 dealer=4", "trick 2 A T K Q", "trick 1 A T K Q", "trick 2 A 9 9 9",
      "trick 1 A T K Q", "trick 2 J J J 9", "trick 2 T K Q J"], ["claim 66", "no claim"],
     ["next deal", "trump", "result", "cut nine", "redeal", "three nines", "contract"]),
])
def test_written_states(lines, listed, left_out):
    m = check_lines(lines)
    shown = menu_labels(m)
    for key in listed:
        assert T(key) in shown, (key, shown)
    for key in left_out:
        assert T(key) not in shown, (key, shown)


def test_with_no_match_the_menu_holds_the_general_items_that_need_none():
    assert menu_labels(Match()) == [T(k) for k in ("history", "statistics", "settings",
                                                   "new match")]


def test_after_the_match_the_general_items_alone():
    m = check_lines(["new mariage target=1", "result 1 1"])
    assert m.state.over
    assert menu_labels(m) == GENERAL
