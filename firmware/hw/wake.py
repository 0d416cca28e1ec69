"""Wake sources (ESP32): which key pins may end machine.lightsleep(), set up once at boot.

Apart from hw/power.py because only the boot needs it: parts.py calls it while building the
parts, and both are dropped from RAM once the boot is done.
"""

GPIO = "gpio"
EXT0 = "ext0"
EXT1 = "ext1"


def wake_on_keys(machine, pins, level=0, esp32=None, deep=False, any_low=False):
    """Let key pins end machine.lightsleep() (and, with deep=True, machine.deepsleep()).

    pins: machine.Pin inputs, already set up with their pulls, whose level is `level` while a
      key is pressed: 0 for buttons to GND with pull-ups, and for keypad columns (pulled up)
      while Keypad.arm_wake() drives every row low, so that any key joins its column to a
      low row. Power calls the arm function (its `wake` argument) before each sleep; the
      next keys.poll() restores the rows for scanning.
    esp32: the esp32 module (None: only machine.Pin.irq is used).
    Returns the mechanism used: GPIO, EXT0 or EXT1.

    What the ESP32 port offers (checked against the MicroPython sources, not on a board):
    - esp32.wake_on_gpio(pins, level) (in the 1.29 stubs, not in older firmware): any
      GPIO, any number of pins, each pin wakes on its own at the level. Light sleep only
      on the original ESP32 (there, machine.deepsleep() raises ValueError while GPIO wake
      pins are set; Power then gives up deep sleep and keeps light-sleeping).
    - pin.irq(trigger=Pin.WAKE_LOW or WAKE_HIGH, wake=machine.SLEEP | machine.DEEPSLEEP):
      ext0, ONE pin only (a second pin raises "no resources"), an RTC GPIO (0, 2, 4, 12-15,
      25-27, 32-39). Wakes light and deep sleep. The handler is not called.
    - esp32.wake_on_ext1(pins, level): several RTC GPIOs; on the original ESP32 the modes
      are "any high" and "ALL low", so active-low keys cannot use it there (any_low=True
      for chips whose ext1 low mode is "any low": ESP32-S2, -S3, -C6, -H2).
    For deep sleep the rows of a keypad must stay low while the chip sleeps (pad hold:
    Pin(..., hold=True) and esp32.gpio_deep_sleep_hold(True)), and 34-39 have no pull-ups.
    """
    pins = list(pins)
    if not pins:
        raise ValueError("no wake pins")
    if not deep and esp32 is not None and hasattr(esp32, "wake_on_gpio"):
        esp32.wake_on_gpio(pins, bool(level))
        return GPIO
    if len(pins) == 1:
        pin_cls = machine.Pin
        trigger = pin_cls.WAKE_HIGH if level else pin_cls.WAKE_LOW
        pins[0].irq(trigger=trigger, wake=machine.SLEEP | machine.DEEPSLEEP)
        return EXT0
    if esp32 is not None and (level or any_low):
        esp32.wake_on_ext1(pins, bool(level))
        return EXT1
    raise ValueError("several active-low wake pins need wake_on_gpio or any-low ext1")
