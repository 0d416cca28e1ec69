"""The scoreboard's soft keys on four buttons: what each button does there, and their labels
on the bottom line. The scoreboard (ui/scoreboard.py) loads this module on a four-button board
only (a keypad's keys are printed on its overlay), and App.push drops it with the scoreboard.
"""

from ui import keymap
from ui.i18n import t
from ui.screen import LINE


def soft(board, app):
    """Four (label, action, argument) entries, one per button, or None."""
    state = app.match.state
    if state is None or state.over:
        return (None, None, ("OK", keymap.OK, 0), None)
    deal = state.deal
    if not deal.opened and not app.settings["quick"]:
        return (None, None, (t("next"), keymap.OK, 0), None)
    if deal.played == deal.total:
        # The claim window (hidden totals): OK scores the deal, the menu claims 66.
        return (None, None, (t("next"), keymap.OK, 0), (t("menu"), keymap.MENU, 0))
    if board.win >= 0 and app.settings["quick"]:
        return (("+1", keymap.RANK, 0), ("+2", keymap.RANK, 1), ("+3", keymap.RANK, 2),
                ("\u25c4", keymap.UNDO, 0))
    if board.win >= 0:
        if board.page == 0:
            return (("A", keymap.RANK, 0), ("10", keymap.RANK, 1), ("K", keymap.RANK, 2),
                    ("\u25ba", keymap.PICK, 1))
        return (("Q", keymap.RANK, 3), ("J", keymap.RANK, 4), ("9", keymap.RANK, 5),
                ("\u25c4", keymap.PICK, 0))
    n = state.rules.players
    keys = [None, None, None, None]  # type: list
    for seat in range(min(n, 4)):
        keys[seat] = (state.names[seat][:4], keymap.WIN, seat)
    if n < 4:
        keys[3] = (t("menu"), keymap.MENU, 0)
    if n == 2:
        keys[2] = (t("suit"), keymap.MENU, 1)
    return keys


def labels(board, app):
    """The soft keys' labels, each centred over its button on the bottom line."""
    keys = soft(board, app)
    for i in range(4):
        key = keys[i]
        if key is not None:
            label = app.text.clip(key[0], 31)
            app.write(label, i * 32 + (32 - app.text.width(label)) // 2, 64 - LINE)
