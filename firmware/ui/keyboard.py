"""A computer keyboard's characters as the device's keys: the browser page (web/webmain.py)
and the terminal simulator (tools/sim.py) read the same table, so both speak the same keys.
The board never imports it (its keys are wired, hw/keys.py); key names are ui/keymap.py's.

Keypad: a b c d the players, digits as they are, * and Backspace undo, # and Enter OK,
z / m a long * / #. Four buttons: w s e q UP DOWN OK BACK (Enter OK, Backspace BACK),
capitals held long.
"""

from ui.keymap import KEYPAD

PAD_KEYS = {"a": "A", "b": "B", "c": "C", "d": "D", "*": "*", "#": "#", "\r": "#", "\n": "#",
            "\x7f": "*", "\x08": "*"}
PAD_LONG = {"z": "*", "m": "#"}
BUTTON_KEYS = {"w": "UP", "s": "DOWN", "e": "OK", "\r": "OK", "\n": "OK", "q": "BACK",
               "\x7f": "BACK", "\x08": "BACK"}
BUTTON_LONG = {"W": "UP", "S": "DOWN", "E": "OK", "Q": "BACK"}


def key_of(layout, ch):
    """(key name, long press) for a keyboard character, (None, False) if it is no key."""
    if layout == KEYPAD:
        name = PAD_KEYS.get(ch) or (ch if ch and ch in "0123456789" else None)
        if name is None and ch in PAD_LONG:
            return PAD_LONG[ch], True
        return name, False
    name = BUTTON_KEYS.get(ch)
    if name is None and ch in BUTTON_LONG:
        return BUTTON_LONG[ch], True
    return name, False
