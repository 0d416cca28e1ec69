"""A row/column matrix keypad as a key source (hw/keys.py): the scanner a keypad board keeps
resident; a board with buttons never loads it. Its scan is a bit per key, fed to hw/keys.py's
key state machine, the buttons' too.
"""

from hw.keys import Source

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

    Several keys at once (hw/keys.py's ONE_KEY):
    - Two keys: the first one pressed is reported; the second is reported
      after the first is released if it is still held then (2-key rollover,
      so fast entry loses nothing). A second key released before the first
      gives nothing.
    - Three or more keys (debounced) can show phantom keys in a matrix
      without diodes, so the whole chord is void: every key held at that
      moment, including one already being reported, gives no event until it
      is released.
    """

    ONE_KEY = True

    def __init__(self, rows, cols, layout=DEFAULT_LAYOUT, debounce_ms=None, long_ms=None):
        from hw.keys_build import key_names, setup  # boot-only: dropped after the boot

        # Its depth: one release PRESS plus one LONG from the next key at most.
        setup(self, key_names(layout, len(rows), len(cols)), 2, debounce_ms, long_ms)
        self._rows = list(rows)
        self._cols = list(cols)
        self._rest()  # sets _armed: rows driven low by arm_wake()

    def _rest(self):
        for r in self._rows:
            r(1)
        self._armed = False

    def _read(self):
        """One matrix scan: a bit per closed contact (row-major)."""
        if self._armed:
            self._rest()
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
