"""Direct push buttons as a key source (hw/keys.py): the scanner a button board keeps
resident; a keypad board never loads it. Its pins' levels are a bit per key, fed to
hw/keys.py's key state machine, the keypad's too.
"""

from hw.keys import Source


class Buttons(Source):
    """Direct buttons, each an independent key (several may be held at once, each reported).

    pins: zero-argument callables returning 0/1. names: the key names, one per pin.
    pressed: the pin level that means pressed (0 for a button to GND with pull-up).
    debounce_ms / long_ms: the keys' timing, None for hw/keys.py's.
    """

    def __init__(self, pins, names, pressed=0, debounce_ms=None, long_ms=None):
        from hw.keys_build import setup  # boot-only: dropped after the boot

        if len(pins) != len(names):
            raise ValueError("pins and names differ in length")
        # Its depth: every button's event in one reading at most.
        setup(self, list(names), len(names), debounce_ms, long_ms)
        self._pins = list(pins)
        self._pressed = pressed

    def _read(self):
        """The pins' levels: a bit per button pressed, in the order of its name."""
        level = self._pressed
        bits = 0
        bit = 1
        for pin in self._pins:
            if pin() == level:
                bits |= bit
            bit <<= 1
        return bits

    def arm_wake(self):
        """Power's wake function, called before a machine sleep: False while a key is stuck,
        as its pin would end the sleep at once (hw/power.py then naps without it)."""
        return not self._stuck
