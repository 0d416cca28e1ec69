"""A row/column matrix keypad as a key source (hw/keys.py): the scanner a keypad board keeps
resident; a board with buttons never loads it.

The keys' states are kept as bits and two lists of ticks, not as a Key object per key (see
hw/buttons.py): the same logic as Key's (debounce, LONG once while held, PRESS on release),
for all keys of the matrix at once. Sixteen Key objects and their event tuples would hold
about 2.5 KB of heap.
"""

from compat import ticks_diff

from hw import keys
from hw.keys import LONG, PRESS, Source

DEFAULT_LAYOUT = "123A/456B/789C/*0#D"


class Keypad(Source):
    """Matrix keypad scanned one row at a time; reports one key at a time.

    rows: callables taking 0/1 (outputs; 1 = idle). Open-drain outputs are
      best (machine.Pin.OPEN_DRAIN): two keys in one column then cannot
      short a high row to a low one.
    cols: zero-argument callables, pulled up, reading 0 when connected.
    layout: the key names, "123A/456B/789C/*0#D" style (one character per key, rows split
      by "/") or a sequence of rows, each a sequence of names.
    debounce_ms / long_ms: the keys' timing, None for hw/keys.py's.

    Several keys at once:
    - Two keys: the first one pressed is reported; the second is reported
      after the first is released if it is still held then (2-key rollover,
      so fast entry loses nothing). A second key released before the first
      gives nothing.
    - Three or more keys (debounced) can show phantom keys in a matrix
      without diodes, so the whole chord is void: every key held at that
      moment, including one already being reported, gives no event until it
      is released.
    """

    def __init__(self, rows, cols, layout=DEFAULT_LAYOUT, debounce_ms=None, long_ms=None):
        from hw.keys_build import key_names  # boot-only: parts.py drops it after the boot

        names = key_names(layout, len(rows), len(cols))  # in scan order (row-major)
        events = []  # per key i: [2 * i] its (name, PRESS), [2 * i + 1] its (name, LONG)
        for name in names:
            events.append((name, PRESS))
            events.append((name, LONG))
        self.names = names
        self._events = events
        self.DEBOUNCE_MS = keys.DEBOUNCE_MS if debounce_ms is None else debounce_ms
        self.LONG_MS = keys.LONG_MS if long_ms is None else long_ms
        self.STUCK_MS = keys.STUCK_MS
        self._rows = list(rows)
        self._cols = list(cols)
        # A bit per key (bit i = key i), as Key's raw (closed at the last scan), down
        # (debounced), fired (LONG already emitted), muted (no events until it ends) and
        # stuck (held for STUCK_MS: not down for idle() until released, hw/keys.py).
        self._raw = self._down = self._fired = self._muted = self._stuck = 0
        self._changed = [0] * len(names)  # per key: tick of the last raw change
        self._since = [0] * len(names)  # per key: tick the debounced press started
        self._active = -1  # index of the key being reported, or -1
        self._rest()  # sets _armed: rows driven low by arm_wake()
        super().__init__(2)  # one release PRESS plus one LONG from the next key at most

    def _rest(self):
        for r in self._rows:
            r(1)
        self._armed = False

    def _read(self):
        """One matrix scan: a bit per closed contact (row-major)."""
        cols = self._cols
        ncols = len(cols)
        bits = 0
        bit = 1
        for row in self._rows:
            row(0)
            for c in range(ncols):
                if not cols[c]():
                    bits |= bit << c
            row(1)
            bit <<= ncols
        return bits

    def _scan(self, now):
        if self._armed:
            self._rest()
        # Debounce the scan (for every key, as Key.update does for a button); a released key
        # ends its press.
        bits = self._read()
        changed = self._changed
        since = self._since
        edges = bits ^ self._raw
        self._raw = bits
        for i in range(len(changed)):
            if (edges >> i) & 1:
                changed[i] = now
        moving = bits ^ self._down  # raw differs from debounced: an edge once it is stable
        if moving:
            deb = self.DEBOUNCE_MS
            for i in range(len(changed)):
                bit = 1 << i
                if not moving & bit or ticks_diff(now, changed[i]) < deb:
                    continue
                if bits & bit:  # pressed
                    self._down |= bit
                    since[i] = changed[i]
                    self._fired &= ~bit
                    continue
                self._down &= ~bit  # released
                quiet = (self._fired | self._muted) & bit
                self._muted &= ~bit
                self._stuck &= ~bit
                if i == self._active:
                    self._active = -1
                    if not quiet:
                        self._push(self._events[2 * i])
        down = self._down
        if not down:
            return
        # A key held for STUCK_MS is stuck: muted, and no longer the key reported (so the
        # others can be).
        fresh = down & ~self._stuck
        if fresh:
            stuck_ms = self.STUCK_MS
            for i in range(len(since)):
                if (fresh >> i) & 1 and ticks_diff(now, since[i]) >= stuck_ms:
                    self._stuck |= 1 << i
                    self._muted |= 1 << i
                    if i == self._active:
                        self._active = -1
        # Which key is reported, and its LONG.
        m = down & (down - 1)
        if m & (m - 1):  # three or more keys: void the chord
            self._muted |= down
            self._active = -1
            return
        a = self._active
        if a < 0:
            # The earliest-pressed key that is down and not muted, if any.
            live = down & ~self._muted
            for i in range(len(since)):
                if (live >> i) & 1 and (a < 0 or ticks_diff(since[i], since[a]) < 0):
                    a = i
            self._active = a
        if a < 0:
            return
        # Its hold reaching LONG_MS: LONG, once per press (as in Key.update). raw too: a contact
        # already opening is not a long press, whatever the debounce delay still says.
        bit = 1 << a
        if (
            down & self._raw & bit
            and not (self._fired | self._muted) & bit
            and ticks_diff(now, since[a]) >= self.LONG_MS
        ):
            self._fired |= bit
            self._push(self._events[2 * a + 1])

    def any_down(self):
        """True while any key is held or still settling (as of the last poll); a stuck key
        does not count."""
        return bool((self._raw | self._down) & ~self._stuck)

    def arm_wake(self):
        """Drive every row low so any key pulls its column low (wake source), but a row
        with a stuck key, which would end the sleep at once: False when that leaves no row
        (hw/power.py then naps without the wake source).

        The next poll() restores scanning.
        """
        ncols = len(self._cols)
        row_bits = (1 << ncols) - 1
        stuck = self._stuck
        armed = False
        for r in self._rows:
            if stuck & row_bits:
                r(1)
            else:
                r(0)
                armed = True
            stuck >>= ncols
        self._armed = True
        return armed
