"""Key input: direct push buttons and a row/column matrix keypad.

Both sources give the same logical events through the same interface:

    ev = keys.poll(time.ticks_ms())   # None or (name, PRESS) / (name, LONG)

Semantics (the same for every key):
- A level change counts only after it has been stable for Key.DEBOUNCE_MS.
- LONG is emitted once, while the key is still held, when the contact has
  been closed for Key.LONG_MS. Such a press gives no PRESS on release (so a
  long press can mean "undo" without also doing the short-press action).
- PRESS is emitted on release (DEBOUNCE_MS after the contact opens) of a
  press shorter than that.

The edge logic lives in Key, which is fed (level, now_ms) samples and knows
nothing about pins or polling, so tests drive it with a fake clock.

Hardware is passed in: an input is any zero-argument callable returning 0/1
(machine.Pin in input mode), a matrix row output is any callable taking 0/1
(machine.Pin in output mode). No allocation happens in poll() once built:
event tuples are made per key in the constructor.
"""

from hw.compat import const

PRESS = const(1)
LONG = const(2)

# time.ticks_ms() on the ESP32 wraps at 2**30. Spelled as a mask so the
# arithmetic below stays within MicroPython's 31-bit small ints (no heap use).
_MASK = const(0x3FFFFFFF)
_HALF = const(0x20000000)
TICKS_PERIOD = _MASK + 1

_DOWN = const(1)
_UP = const(2)

DEFAULT_LAYOUT = "123A/456B/789C/*0#D"


def ticks_diff(a, b):
    """Signed a - b for tick values that wrap at TICKS_PERIOD.

    Same result as ((a - b + half) % period) - half, without intermediates
    that overflow a small int on the ESP32.
    """
    d = (a - b) & _MASK
    if d >= _HALF:
        d = d - _MASK - 1
    return d


def ticks_add(t, delta):
    """t + delta on the wrapping tick scale, for t in [0, TICKS_PERIOD) and |delta| below it.

    `t + delta` itself can pass 2**30 - 1, the largest small int on the ESP32, and would
    then allocate a long int on every call; the sum is taken a period lower instead.
    """
    if delta < 0:
        return (t + delta) & _MASK
    r = (t - _MASK) + delta - 1  # t + delta - TICKS_PERIOD, every step a small int
    return r if r >= 0 else r + _MASK + 1


class Key:
    """Debounce and long-press logic for one key, driven by samples.

    Timing constants are class attributes; override per instance or in a
    subclass. Attributes read by owners: down (debounced state), raw (last
    sample), events (indexable by PRESS / LONG).
    """

    DEBOUNCE_MS = 20
    LONG_MS = 600

    def __init__(self, name=None):
        self.name = name
        self.events = (None, (name, PRESS), (name, LONG))
        self.raw = 0
        self.down = 0
        self.changed = 0  # tick of the last raw change
        self.since = 0  # tick the current debounced press started
        self.fired = 0  # LONG already emitted for this press
        self.muted = 0  # no events until this press ends

    def settle(self, raw, now):
        """Debounce one sample (1 = closed). Return _DOWN/_UP on an edge, else 0."""
        if raw != self.raw:
            self.raw = raw
            self.changed = now
        if raw == self.down or ticks_diff(now, self.changed) < self.DEBOUNCE_MS:
            return 0
        self.down = raw
        if raw:
            self.since = self.changed
            self.fired = 0
            return _DOWN
        return _UP

    def released(self):
        """End the press; return PRESS if it is to be reported, else 0."""
        quiet = self.fired or self.muted
        self.muted = 0
        return 0 if quiet else PRESS

    def held_long(self, now):
        """True once per press when the hold reaches LONG_MS."""
        # raw too: a contact already opening is not a long press, whatever
        # the debounce delay still says.
        if (
            self.down
            and self.raw
            and not self.fired
            and not self.muted
            and ticks_diff(now, self.since) >= self.LONG_MS
        ):
            self.fired = 1
            return True
        return False

    def update(self, raw, now):
        """Whole logic for an independent key: return PRESS, LONG or 0."""
        if self.settle(raw, now) == _UP:
            return self.released()
        return LONG if self.held_long(now) else 0


class _Source:
    """Fixed-size event queue and the common poll()/idle() interface."""

    def __init__(self, keys, depth, debounce_ms, long_ms):
        for k in keys:
            if debounce_ms is not None:
                k.DEBOUNCE_MS = debounce_ms
            if long_ms is not None:
                k.LONG_MS = long_ms
        self.keys = keys
        self._q = [None] * depth
        self._head = 0
        self._len = 0

    def _push(self, ev):
        # depth covers the most events one scan can make, and poll() drains
        # before scanning, so this never drops.
        n = len(self._q)
        if self._len < n:
            self._q[(self._head + self._len) % n] = ev
            self._len += 1

    def poll(self, now):
        """Scan (unless events are waiting) and return the next event or None."""
        if not self._len:
            self._scan(now)
            if not self._len:
                return None
        ev = self._q[self._head]
        self._q[self._head] = None
        self._head = (self._head + 1) % len(self._q)
        self._len -= 1
        return ev

    def any_down(self):
        """True while any key is held or still settling (as of the last poll)."""
        for k in self.keys:
            if k.raw or k.down:
                return True
        return False

    def idle(self):
        """Nothing held, settling or queued: safe to sleep."""
        return not self._len and not self.any_down()

    def _scan(self, now):
        raise NotImplementedError


class Buttons(_Source):
    """Direct buttons, each an independent key (several may be held at once).

    pins: sequence of zero-argument callables returning 0/1.
    names: key names, same length as pins.
    pressed: pin level that means pressed (0 for a button to GND with pull-up).
    """

    def __init__(self, pins, names, pressed=0, debounce_ms=None, long_ms=None):
        if len(pins) != len(names):
            raise ValueError("pins and names differ in length")
        keys = [Key(n) for n in names]
        _Source.__init__(self, keys, len(keys), debounce_ms, long_ms)
        self._pins = list(pins)
        self._pressed = pressed

    def _scan(self, now):
        pins = self._pins
        level = self._pressed
        i = 0
        for k in self.keys:
            kind = k.update(1 if pins[i]() == level else 0, now)
            if kind:
                self._push(k.events[kind])
            i += 1


class Keypad(_Source):
    """Matrix keypad scanned one row at a time; reports one key at a time.

    rows: callables taking 0/1 (outputs; 1 = idle). Open-drain outputs are
      best (machine.Pin.OPEN_DRAIN): two keys in one column then cannot
      short a high row to a low one.
    cols: zero-argument callables, pulled up, reading 0 when connected.
    layout: "123A/456B/789C/*0#D" style string (one char per key, rows split
      by "/") or a sequence of rows, each a sequence of names.

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
        _Source.__init__(self, keys, 2, debounce_ms, long_ms)
        self._rows = list(rows)
        self._cols = list(cols)
        self._down = 0  # bit per debounced-down key
        self._active = -1  # index of the key being reported
        self._rest()

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
        bits = self._read()
        keys = self.keys
        for i in range(len(keys)):
            k = keys[i]
            edge = k.settle((bits >> i) & 1, now)
            if edge == _DOWN:
                self._down |= 1 << i
            elif edge == _UP:
                self._down &= ~(1 << i)
                if i == self._active:
                    self._active = -1
                    if k.released():
                        self._push(k.events[PRESS])
                else:
                    k.muted = 0
        down = self._down
        if not down:
            return
        m = down & (down - 1)
        if m & (m - 1):  # three or more keys: void the chord
            for i in range(len(keys)):
                if (down >> i) & 1:
                    keys[i].muted = 1
            self._active = -1
            return
        if self._active < 0:
            self._active = self._first(down)
        if self._active >= 0 and keys[self._active].held_long(now):
            self._push(keys[self._active].events[LONG])

    def _first(self, down):
        """The earliest-pressed key that is down and not muted, or -1."""
        keys = self.keys
        best = -1
        for i in range(len(keys)):
            k = keys[i]
            if (down >> i) & 1 and not k.muted:
                if best < 0 or ticks_diff(k.since, keys[best].since) < 0:
                    best = i
        return best

    def arm_wake(self):
        """Drive every row low so any key pulls its column low (wake source).

        The next poll() restores scanning.
        """
        for r in self._rows:
            r(0)
        self._armed = True
