"""Building a key source from its pins: boot-only code, apart from the scanners.

parts.py calls this while it builds the board's parts; both are dropped from RAM once the
boot is done, so the construction's bytecode never stays in the heap. Only the board's own
scanner is imported: hw/keypad.py or hw/buttons.py.
"""

from hw.keys import Key

DEFAULT_LAYOUT = "123A/456B/789C/*0#D"


def _source(src, keys, depth, debounce_ms, long_ms):
    """Fill in what every source has (hw.keys.Source): its keys and an event queue of
    `depth`. debounce_ms / long_ms: per-key timing, None for Key's defaults."""
    for k in keys:
        if debounce_ms is not None:
            k.DEBOUNCE_MS = debounce_ms
        if long_ms is not None:
            k.LONG_MS = long_ms
    src.keys = keys
    src._q = [None] * depth
    src._head = 0
    src._len = 0
    return src


def make_buttons(pins, names, pressed=0, debounce_ms=None, long_ms=None):
    """Direct buttons (hw.buttons.Buttons).

    pins: sequence of zero-argument callables returning 0/1.
    names: key names, same length as pins.
    pressed: pin level that means pressed (0 for a button to GND with pull-up).
    """
    from hw.buttons import Buttons

    if len(pins) != len(names):
        raise ValueError("pins and names differ in length")
    keys = [Key(n) for n in names]
    b = _source(Buttons(), keys, len(keys), debounce_ms, long_ms)
    b._pins = list(pins)
    b._pressed = pressed
    return b


def make_keypad(rows, cols, layout=DEFAULT_LAYOUT, debounce_ms=None, long_ms=None):
    """A matrix keypad (hw.keypad.Keypad).

    rows: callables taking 0/1 (outputs; 1 = idle), open-drain at best.
    cols: zero-argument callables, pulled up, reading 0 when connected.
    layout: "123A/456B/789C/*0#D" style string (one char per key, rows split
      by "/") or a sequence of rows, each a sequence of names.
    """
    from hw.keypad import Keypad

    if isinstance(layout, str):
        layout = layout.split("/")
    if len(layout) != len(rows) or len(rows) * len(cols) > 30:
        raise ValueError("layout does not match rows")
    keys = []
    for line in layout:
        if len(line) != len(cols):
            raise ValueError("layout does not match cols")
        for name in line:
            keys.append(Key(name))
    # One release PRESS plus one LONG from the next key is the most a scan makes.
    kp = _source(Keypad(), keys, 2, debounce_ms, long_ms)
    kp._rows = list(rows)
    kp._cols = list(cols)
    kp._down = 0
    kp._active = -1
    kp._rest()
    return kp
