"""Building a key source: boot-only code, apart from the key state machine (hw/keys.py).

The sources' constructors (hw/keypad.py, hw/buttons.py) import this; the boot drops it from
RAM afterwards (loader.py's "boot" job), as its code is heap on the board and runs once.
"""

from hw import keys
from hw.keys import LONG, PRESS


def setup(source, names, depth, debounce_ms=None, long_ms=None):
    """Give `source` (a hw/keys.py Source) its machine's state for keys `names` (in the order
    of its reading's bits; 30 at most, a key a bit of a small int), all at once, so that no
    attribute is added during play; depth: the most events one reading can make.
    debounce_ms / long_ms: the keys' timing, None for hw/keys.py's (read now, as STUCK_MS,
    so a board or a test may set its own first)."""
    events = []  # per key i: [2 * i] its (name, PRESS), [2 * i + 1] its (name, LONG)
    for name in names:
        events.append((name, PRESS))
        events.append((name, LONG))
    source.names = names
    source._events = events
    source.DEBOUNCE_MS = keys.DEBOUNCE_MS if debounce_ms is None else debounce_ms
    source.LONG_MS = keys.LONG_MS if long_ms is None else long_ms
    source.STUCK_MS = keys.STUCK_MS
    source._changed = [0] * len(names)  # per key: tick of the last raw change
    source._since = [0] * len(names)  # per key: tick the debounced press started
    source._raw = source._down = source._fired = source._muted = source._stuck = 0
    source._on = 0
    source._q = [None] * depth  # the event queue: a ring of fixed size
    source._head = 0
    source._len = 0


def key_names(layout, rows, cols):
    """The key names in scan order (row-major) of a keypad with rows x cols keys.

    layout: "123A/456B/789C/*0#D" style string (one character per key, rows split by "/")
    or a sequence of rows, each a sequence of names.
    """
    if isinstance(layout, str):
        layout = layout.split("/")
    if len(layout) != rows or rows * cols > 30:  # 30: a key a bit of a small int
        raise ValueError("layout does not match rows")
    names = []
    for line in layout:
        if len(line) != cols:
            raise ValueError("layout does not match cols")
        for name in line:
            names.append(name)
    return names
