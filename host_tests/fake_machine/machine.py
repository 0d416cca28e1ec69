"""A fake `machine` module for the virtual board (MicroPython unix port, tools/vboard.py).

Put its folder on the virtual board's module path (vboard.py --path): the deployed firmware
then builds its display, keys and buzzer from these. Pins read their idle level (inputs
pulled up read 1: no key pressed). The I2C bus answers at 0x3C and records every write, the
SPI bus counts what it is given; `buses`, `pins` and `pwms` list what the firmware made, for
tests to inspect.
"""

import sys

buses = []
pins = {}
pwms = []

SLEEP = 2
DEEPSLEEP = 4
PWRON_RESET = 1
DEEPSLEEP_RESET = 4
adc_mv = {}  # pin -> its voltage in mV, a number or a function of nothing (tests set it)
_SLEPT = ".fake_deepsleep"  # in the working directory: the deep sleep's mark, read at boot


def _woke_from_deep_sleep():
    import os

    try:
        os.remove(_SLEPT)
        return True
    except Exception:  # none there (OSError), or a port without os.remove
        return False


_cause = DEEPSLEEP_RESET if _woke_from_deep_sleep() else PWRON_RESET


class Pin:
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_UP = 2
    PULL_DOWN = 1
    WAKE_LOW = 4
    WAKE_HIGH = 5
    IRQ_FALLING = 2
    IRQ_RISING = 1

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self.level = 1 if pull == Pin.PULL_UP or mode in (Pin.OPEN_DRAIN,) else 0
        if value is not None:
            self.level = 1 if value else 0
        pins[id] = self

    def __call__(self, v=None):
        return self.value(v)

    def value(self, v=None):
        if v is None:
            return self.level
        if self.mode in (Pin.OUT, Pin.OPEN_DRAIN):
            self.level = 1 if v else 0
        return None

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=0, wake=None):
        return None


class ADC:
    """An ADC input: reads adc_mv[pin] (read_uv(), calibrated, as the ESP32 port's)."""

    ATTN_0DB = 0
    ATTN_2_5DB = 1
    ATTN_6DB = 2
    ATTN_11DB = 3

    def __init__(self, pin, atten=None):
        self.pin = pin.id if isinstance(pin, Pin) else pin
        self.atten = atten

    def read_uv(self):
        v = adc_mv.get(self.pin, 0)
        return int((v() if callable(v) else v) * 1000)


class I2C:
    def __init__(self, id, scl=None, sda=None, freq=400000):
        self.addresses = [0x3C]
        self.freq = freq
        self.writes = 0
        self.sent = 0
        buses.append(self)

    def _check(self, addr):
        if addr not in self.addresses:
            raise OSError(19)  # ENODEV, as the ESP32 port says when nobody answers

    def writeto(self, addr, buf, stop=True):
        self._check(addr)
        self.writes += 1
        self.sent += len(buf)
        return 1

    def writevto(self, addr, bufs, stop=True):
        self._check(addr)
        self.writes += 1
        for b in bufs:
            self.sent += len(b)
        return 1

    def scan(self):
        return list(self.addresses)


class SPI:
    """The SPI bus of the 7-pin panels: records its settings and counts what is written."""

    def __init__(self, id, baudrate=500000, polarity=0, phase=0, sck=None, mosi=None,
                 miso=-1):
        self.id = id
        self.baudrate = baudrate
        self.sck = sck
        self.mosi = mosi
        self.miso = miso  # None: no MISO pin taken (the firmware passes it so)
        self.writes = 0
        self.sent = 0
        buses.append(self)

    def write(self, buf):
        self.writes += 1
        self.sent += len(buf)


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin = pin
        self._freq = freq
        self._duty = duty_u16
        pwms.append(self)

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d

    def deinit(self):
        pass


class _Watchdog:
    """machine.WDT: one watchdog, as on the ESP32 (built once, at import: the board's costs
    no heap either). It counts its feeds. With FAKE_WDT set in the environment it also
    watches: a thread checks the feeds, and when none came for the timeout it prints
    "WDT reset" and kills the process at once (SIGKILL: no finally, no flush, as a board's
    reset), for the test to boot the firmware again from its flash folder."""

    def __init__(self):
        self.timeout = 0
        self.feeds = 0
        self.fed = 0
        self.started = 0

    def start(self, timeout):
        import os
        import time

        self.timeout = timeout
        self.fed = time.ticks_ms()
        self.started += 1
        getenv = getattr(os, "getenv", None)  # the WebAssembly port's os has none
        if getenv is not None and getenv("FAKE_WDT") and self.started == 1:
            import _thread

            _thread.start_new_thread(self._watch, ())

    def feed(self):
        import time

        self.fed = time.ticks_ms()
        self.feeds += 1

    def _watch(self):
        import os
        import time

        while True:
            time.sleep_ms(20)
            if time.ticks_diff(time.ticks_ms(), self.fed) > self.timeout:
                print("WDT reset after %d feeds" % self.feeds)
                os.system("kill -KILL $PPID")  # the shell's parent: this process


watchdog = _Watchdog()


def WDT(id=0, timeout=5000):
    watchdog.start(timeout)
    return watchdog


def reset():
    sys.stderr.write("machine.reset\n")  # for the tests: a reset, not the end of a run
    sys.exit(0)  # the virtual board's bridge restarts the process: a reboot


def soft_reset():
    sys.exit(0)


def deepsleep(ms=0):
    """The chip sleeps and boots again: a mark in the working directory for the next
    start's reset_cause(), then the process ends (the test starts it again)."""
    with open(_SLEPT, "w") as f:
        f.write(str(ms))
    print("DEEPSLEEP", ms)
    sys.exit(0)


def reset_cause():
    return _cause  # PWRON_RESET, or DEEPSLEEP_RESET after deepsleep()


def unique_id():
    return b"vboard"
