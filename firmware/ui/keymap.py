"""Keys to actions: one table per key layout, so screens never see raw key names.

Two layouts (DESIGN.md): the 4x4 membrane keypad, whose overlay prints the
meaning of every key, and four buttons (UP, DOWN, OK, BACK), which act on the
labels the screen shows above them ("soft keys") on the scoreboard and move a
cursor in lists.
"""

try:
    from micropython import const
except ImportError:  # CPython in tests

    def const(__x):  # dunder name: positional-only, like the real one
        return __x


# Actions a screen receives as (action, argument).
WIN = const(0)  # a player (or pair) takes the trick: argument = seat
RANK = const(1)  # a card rank: 0..5 = A T K Q J 9
SUIT = const(2)  # a suit: 0..3 = spades hearts diamonds clubs
UNDO = const(3)
REDO = const(4)
OK = const(5)
MENU = const(6)
BACK = const(7)
UP = const(8)
DOWN = const(9)
PICK = const(10)  # a list item by number: argument = index
SOFT = const(11)  # four-button layout: the n-th soft key

KEYPAD = "keypad"
BUTTONS = "buttons"

# Keypad: A-D players, 1-6 ranks, 7 8 9 0 suits, * undo, # OK / menu.
_PAD_BOARD = {
    "A": (WIN, 0), "B": (WIN, 1), "C": (WIN, 2), "D": (WIN, 3),
    "1": (RANK, 0), "2": (RANK, 1), "3": (RANK, 2), "4": (RANK, 3), "5": (RANK, 4),
    "6": (RANK, 5), "7": (SUIT, 0), "8": (SUIT, 1), "9": (SUIT, 2), "0": (SUIT, 3),
    "*": (UNDO, 0), "#": (OK, 0),
}
# In lists a digit picks its item; A/B move the cursor; * goes back.
_PAD_LIST = {"A": (UP, 0), "B": (DOWN, 0), "#": (OK, 0), "*": (BACK, 0)}
BUTTON_NAMES = ("UP", "DOWN", "OK", "BACK")


def action(layout, name, long, in_list):
    """(action, argument) for a key event, or None for a key that means nothing here."""
    if layout == KEYPAD:
        if long:
            # A long press has one meaning everywhere: * redo (undo in lists), # menu.
            if name == "*":
                return (UNDO, 0) if in_list else (REDO, 0)
            if name == "#":
                return (MENU, 0)
            return None
        if in_list:
            if name in "123456789" and len(name) == 1:
                return (PICK, int(name) - 1)
            return _PAD_LIST.get(name)
        return _PAD_BOARD.get(name)
    if name not in BUTTON_NAMES:
        return None
    i = BUTTON_NAMES.index(name)
    if long:
        # Long BACK undoes from every screen; long OK opens the menu; long UP redoes.
        return ((REDO, 0), None, (MENU, 0), (UNDO, 0))[i]
    if in_list:
        return ((UP, 0), (DOWN, 0), (OK, 0), (BACK, 0))[i]
    return (SOFT, i)
