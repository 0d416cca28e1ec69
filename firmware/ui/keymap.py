"""Keys to actions: one table per key layout, so screens never see raw key names.

Two layouts (docs/keys.md): the 4x4 membrane keypad, whose overlay prints the
meaning of every key, and four buttons (UP, DOWN, OK, BACK), which act on the
labels the screen shows above them ("soft keys") on the scoreboard and move a
cursor in lists.
"""

from compat import const

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

BUTTON_NAMES = ("UP", "DOWN", "OK", "BACK")
# Keypad on the scoreboard: A-D players, 1-6 ranks, 7 8 9 0 suits, * undo, # OK.
# Strings, not dicts: a lookup table costs far more RAM on the board.
_PLAYERS = const("ABCD")
_RANKS = const("123456")
_SUITS = const("7890")


# How keys read on a screen (its key_mode, ui/screen.py).
SCOREBOARD_KEYS = const(0)  # the scoreboard: players, ranks, suits
LIST_KEYS = const(1)  # lists: digits pick an item, A/B move
NUMBER_KEYS = const(2)  # a number being typed: keypad digits give PICK 0-9


def action(layout, name, long, mode):
    """(action, argument) for a key event, or None for a key that means nothing here.

    mode: the screen's key_mode (SCOREBOARD_KEYS, LIST_KEYS or NUMBER_KEYS)."""
    if layout == KEYPAD:
        if long:
            # A long press has one meaning everywhere: * redo (undo in lists), # menu.
            if name == "*":
                return (REDO, 0) if mode == SCOREBOARD_KEYS else (UNDO, 0)
            if name == "#":
                return (MENU, 0)
            return None
        if len(name) != 1:
            return None
        if mode == NUMBER_KEYS and name in "0123456789":
            return (PICK, int(name))
        if mode != SCOREBOARD_KEYS:
            # A digit picks its item (0 the tenth); A/B move the cursor; # picks; * goes back.
            i = "1234567890".find(name)
            if i >= 0:
                return (PICK, i)
            i = "AB#*".find(name)
            return ((UP, 0), (DOWN, 0), (OK, 0), (BACK, 0))[i] if i >= 0 else None
        for kind, keys in ((WIN, _PLAYERS), (RANK, _RANKS), (SUIT, _SUITS)):
            i = keys.find(name)
            if i >= 0:
                return (kind, i)
        if name == "*":
            return (UNDO, 0)
        return (OK, 0) if name == "#" else None
    if name not in BUTTON_NAMES:
        return None
    i = BUTTON_NAMES.index(name)
    if long:
        # Long BACK undoes from every screen; long OK opens the menu; long UP redoes.
        return ((REDO, 0), None, (MENU, 0), (UNDO, 0))[i]
    if mode != SCOREBOARD_KEYS:
        return ((UP, 0), (DOWN, 0), (OK, 0), (BACK, 0))[i]
    return (SOFT, i)
