"""The List screen, the base of every menu and chooser, and helpers for its items.

A List shows numbered items, five at a time, with a mark at the right end of the first
or last row when more are above or below. Keypad: a digit picks its item (0 the tenth),
A/B move (round the ends: A from the top reaches the last), # picks, * goes back. Four
buttons: UP/DOWN move, OK picks, BACK goes back. Each item is (label, function); the
function gets the app.
"""

from compat import const
from sixtysix.errors import Refused
from ui import keymap
from ui.screen import LINE, Screen, W

_ROWS = const(5)  # items below the title


class List(Screen):
    key_mode = keymap.LIST_KEYS
    numbered = True  # keypad digits pick items 1-9, so the list shows their numbers
    # A method detail(app, i) in a subclass: a line about item i, shown at the bottom while
    # it is picked (None: no line). None here: the base list has no such line.
    detail = None

    def __init__(self, title, items, pick=0):
        self.title = title
        self.items = items
        self.pick = pick

    def act(self, app, action, arg):
        n = len(self.items)
        if action == keymap.PICK:
            if arg >= n:
                return
            self.pick = arg
            action = keymap.OK  # a digit picks its item as # picks the cursor's
        if action == keymap.OK:
            fn = self.items[self.pick][1]
            if fn is not None:
                fn(app)
        elif action == keymap.BACK:
            app.pop()
        elif action == keymap.UP:
            self.pick = (self.pick - 1) % n
        elif action == keymap.DOWN:
            self.pick = (self.pick + 1) % n
        elif action == keymap.MENU:
            app.home()

    def draw(self, app, fb):
        items = self.items
        pick = self.pick
        text = app.text
        write = app.write
        fb.fill_rect(0, 0, W, LINE, 1)
        write(text.clip(self.title, W - 2), 1, 0, 0)
        more = self.detail(app, pick) if self.detail else None
        rows = _ROWS - 1 if more is not None else _ROWS
        n = len(items)
        top = min(max(0, pick - rows + 1), max(0, n - rows))
        for i in range(top, min(top + rows, n)):
            y = LINE + 1 + (i - top) * LINE
            label = items[i][0]
            if self.numbered:
                label = (str((i + 1) % 10) + " " if i < 10 else "  ") + label
            # Scroll marks at the right end: more above the first row, more below the last.
            mark = "\u25b2" if i == top and top else "\u25bc" if i == top + rows - 1 < n - 1 \
                else ""
            if mark:
                write(mark, W - 6, y)  # its ink: five columns from W - 6
            label = text.clip(label, W - 8 if mark else W - 2)
            color = 1
            if i == pick:
                # Inverted under the text only: a cursor move then changes fewer columns.
                # Beside a mark the bar stops two columns before it.
                fb.fill_rect(0, y, min(text.width(label) + 2, W - 8 if mark else W), LINE, 1)
                color = 0
            write(label, 1, y, color)
        if more is not None:
            write(text.clip(more, W - 2), 1, 64 - LINE)


def entry(rec):
    """An item function that enters a record and returns to the scoreboard if it counted
    (it returns whether it did)."""

    def go(app):
        if app.enter(rec)[1]:
            return False
        app.home()
        return True

    return go


def takes(state, rec):
    """Whether the deal would take this record now: the core's own check, which changes
    nothing. The menus offer an entry only if some choice under it can count."""
    try:
        state.check(rec)
    except Refused:
        return False
    return True


def bind(fn, value):
    return lambda app: fn(app, value)


def choose_seat(app, title, then):
    """A list of the players; `then(app, seat)` runs for the one picked."""
    state = app.match.state
    items = []
    for seat in range(state.rules.players):
        items.append((state.names[seat], bind(then, seat)))
    app.push(List(title, items, state.deal.leader))
