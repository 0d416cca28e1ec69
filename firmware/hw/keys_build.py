"""Building a key source from its pins: boot-only code, apart from the scanners.

parts.py calls this while it builds the board's parts; both are dropped from RAM once the
boot is done, so the construction's bytecode never stays in the heap. Only the board's own
scanner is imported: hw/keypad.py or hw/buttons.py.
"""

from hw import keys
from hw.keys import LONG, PRESS

DEFAULT_LAYOUT = "123A/456B/789C/*0#D"


def make_buttons(pins, names, pressed=0, debounce_ms=None, long_ms=None):
    """Direct buttons (hw.buttons.Buttons), a Key each.

    pins: sequence of zero-argument callables returning 0/1.
    names: key names, same length as pins.
    pressed: pin level that means pressed (0 for a button to GND with pull-up).
    """
    from hw.buttons import Buttons, Key

    if len(pins) != len(names):
        raise ValueError("pins and names differ in length")
    keys = [Key(n) for n in names]
    for k in keys:
        if debounce_ms is not None:
            k.DEBOUNCE_MS = debounce_ms
        if long_ms is not None:
            k.LONG_MS = long_ms
    b = Buttons()
    b.keys = keys
    b._q = [None] * len(keys)  # every button's event in one scan at most
    b._head = 0
    b._len = 0
    b._pins = list(pins)
    b._pressed = pressed
    return b


def make_keypad(rows, cols, layout=DEFAULT_LAYOUT, debounce_ms=None, long_ms=None):
    """A matrix keypad (hw.keypad.Keypad).

    rows: callables taking 0/1 (outputs; 1 = idle), open-drain at best.
    cols: zero-argument callables, pulled up, reading 0 when connected.
    layout: "123A/456B/789C/*0#D" style string (one char per key, rows split
      by "/") or a sequence of rows, each a sequence of names.
    debounce_ms / long_ms: the keys' timing, None for hw/keys.py's.
    """
    from hw.keypad import Keypad

    if isinstance(layout, str):
        layout = layout.split("/")
    if len(layout) != len(rows) or len(rows) * len(cols) > 30:
        raise ValueError("layout does not match rows")
    names = []
    for line in layout:
        if len(line) != len(cols):
            raise ValueError("layout does not match cols")
        for name in line:
            names.append(name)
    kp = Keypad()
    kp.names = names
    kp.DEBOUNCE_MS = keys.DEBOUNCE_MS if debounce_ms is None else debounce_ms
    kp.LONG_MS = keys.LONG_MS if long_ms is None else long_ms
    events = []
    for name in names:
        events.append((name, PRESS))
        events.append((name, LONG))
    kp._events = events
    # One release PRESS plus one LONG from the next key is the most a scan makes.
    kp._q = [None] * 2
    kp._head = 0
    kp._len = 0
    kp._rows = list(rows)
    kp._cols = list(cols)
    kp._raw = kp._down = kp._fired = kp._muted = 0
    kp._changed = [0] * len(names)
    kp._since = [0] * len(names)
    kp._active = -1
    kp._rest()
    return kp
