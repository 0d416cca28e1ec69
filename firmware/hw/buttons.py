"""Direct push buttons as a key source (hw/keys.py): the scanner a button board keeps
resident, and Key, the logic of one key. A keypad board never loads this (hw/keypad.py
keeps the same logic for all its keys at once).
"""

from compat import ticks_diff

from hw.keys import DEBOUNCE_MS, LONG, LONG_MS, PRESS, STUCK_MS, Source


class Key:
    """Debounce and long-press logic for one key, driven by samples.

    Timing constants are class attributes; override per instance or in a
    subclass. Attributes read by owners: down (debounced state), raw (last
    sample), events (indexable by PRESS / LONG).
    """

    DEBOUNCE_MS = DEBOUNCE_MS
    LONG_MS = LONG_MS
    STUCK_MS = STUCK_MS

    def __init__(self, name=None):
        self.name = name
        self.events = (None, (name, PRESS), (name, LONG))
        self.raw = 0
        self.down = 0
        self.changed = 0  # tick of the last raw change
        self.since = 0  # tick the current debounced press started
        self.fired = 0  # LONG already emitted for this press
        self.muted = 0  # no events until this press ends
        self.stuck = 0  # held for STUCK_MS: not down for idle() until released (hw/keys.py)

    def update(self, raw, now):
        """Whole logic for an independent key, one sample (1 = closed): return PRESS, LONG
        or 0. One method rather than one per step: on the board each costs heap."""
        # Debounce: a change of the sample counts once it has lasted DEBOUNCE_MS.
        if raw != self.raw:
            self.raw = raw
            self.changed = now
        if raw != self.down and ticks_diff(now, self.changed) >= self.DEBOUNCE_MS:
            self.down = raw
            if not raw:  # released: the press is reported unless it went LONG or is muted
                quiet = self.fired or self.muted
                self.muted = 0
                self.stuck = 0
                return 0 if quiet else PRESS
            self.since = self.changed  # pressed: the press started at the change
            self.fired = 0
        if self.down and not self.stuck and ticks_diff(now, self.since) >= self.STUCK_MS:
            self.stuck = 1  # no more events from this press, and its release is silent
            self.muted = 1
            return 0
        # LONG once per press when the hold reaches LONG_MS. raw too: a contact already
        # opening is not a long press, whatever the debounce delay still says.
        if (
            self.down
            and raw
            and not self.fired
            and not self.muted
            and ticks_diff(now, self.since) >= self.LONG_MS
        ):
            self.fired = 1
            return LONG
        return 0


class Buttons(Source):
    """Direct buttons, each an independent key (several may be held at once).

    pins: zero-argument callables returning 0/1. names: the key names, one per pin.
    pressed: the pin level that means pressed (0 for a button to GND with pull-up).
    debounce_ms / long_ms: the keys' timing, None for hw/keys.py's.
    """

    def __init__(self, pins, names, pressed=0, debounce_ms=None, long_ms=None):
        if len(pins) != len(names):
            raise ValueError("pins and names differ in length")
        keys = [Key(n) for n in names]
        for k in keys:
            if debounce_ms is not None:
                k.DEBOUNCE_MS = debounce_ms
            if long_ms is not None:
                k.LONG_MS = long_ms
        self.keys = keys
        self._pins = list(pins)
        self._pressed = pressed
        super().__init__(len(keys))  # every button's event in one scan at most

    def arm_wake(self):
        """Power's wake function, called before a machine sleep: False while a key is stuck,
        as its pin would end the sleep at once (hw/power.py then naps without it)."""
        for k in self.keys:
            if k.stuck:
                return False
        return True

    def _scan(self, now):
        pins = self._pins
        level = self._pressed
        i = 0
        for k in self.keys:
            kind = k.update(1 if pins[i]() == level else 0, now)
            if kind:
                self._push(k.events[kind])
            i += 1
