"""Direct push buttons as a key source (hw/keys.py): the scanner a button board keeps
resident, and Key, the logic of one key. They are built by hw/keys_build.py at boot; a
keypad board never loads this (hw/keypad.py keeps the same logic for all its keys at once).
"""

from hw.compat import const
from hw.keys import DEBOUNCE_MS, LONG, LONG_MS, PRESS, Source, ticks_diff

_DOWN = const(1)
_UP = const(2)


class Key:
    """Debounce and long-press logic for one key, driven by samples.

    Timing constants are class attributes; override per instance or in a
    subclass. Attributes read by owners: down (debounced state), raw (last
    sample), events (indexable by PRESS / LONG).
    """

    DEBOUNCE_MS = DEBOUNCE_MS
    LONG_MS = LONG_MS

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


class Buttons(Source):
    """Direct buttons, each an independent key (several may be held at once).

    Built by hw.keys_build.make_buttons(pins, names, pressed): pins, zero-argument callables
    returning 0/1; names, the key names; pressed, the pin level that means pressed (0 for a
    button to GND with pull-up).
    """

    _pins: list
    _pressed: int

    def _scan(self, now):
        pins = self._pins
        level = self._pressed
        i = 0
        for k in self.keys:
            kind = k.update(1 if pins[i]() == level else 0, now)
            if kind:
                self._push(k.events[kind])
            i += 1
