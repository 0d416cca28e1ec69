"""The action menu as ui/menus.py builds it, read in CPython with a stand-in for the App.

With no match the menu holds the general items that need none: history, statistics,
settings (the language of a new device) and a new match.
"""

from sixtysix.match import Match
from ui import i18n

i18n.use("en")
T = i18n.t


class FakeApp:
    """What board_menu uses of the App: the match, and push() for the list it opens."""

    def __init__(self, match):
        self.match = match
        self.pushed = None

    def push(self, screen):
        self.pushed = screen


def menu_labels(match):
    from ui import menus

    app = FakeApp(match)
    menus.board_menu(app)
    assert app.pushed.title == T("menu")
    return [label for label, _fn in app.pushed.items]


def test_with_no_match_the_menu_holds_the_general_items_that_need_none():
    assert menu_labels(Match()) == [T(k) for k in ("history", "statistics", "settings",
                                                   "new match")]
