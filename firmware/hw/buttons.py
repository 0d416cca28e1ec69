"""Direct push buttons as a key source (hw/keys.py): the scanner a button board keeps
resident. They are built by hw/keys_build.py at boot; a keypad board never loads this.
"""

from hw.keys import Source


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
