"""A row/column matrix keypad as a key source (hw/keys.py): the scanner a keypad board keeps
resident. It is built by hw/keys_build.py at boot; a board with buttons never loads it.
"""

from hw.compat import const
from hw.keys import LONG, PRESS, Source, ticks_diff

# Key.settle()'s edges (hw/keys.py's _DOWN and _UP; folded here, so spelled again).
_DOWN = const(1)
_UP = const(2)


class Keypad(Source):
    """Matrix keypad scanned one row at a time; reports one key at a time.

    rows: callables taking 0/1 (outputs; 1 = idle). Open-drain outputs are
      best (machine.Pin.OPEN_DRAIN): two keys in one column then cannot
      short a high row to a low one.
    cols: zero-argument callables, pulled up, reading 0 when connected.
    (hw.keys_build.make_keypad() also takes the layout: the key names.)

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

    _rows: list
    _cols: list
    _down: int  # bit per debounced-down key
    _active: int  # index of the key being reported, or -1
    _armed: bool  # rows driven low by arm_wake()

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
