"""What MicroPython has built in and CPython (the host tests) lacks, in one place.

`const` is folded by the MicroPython compiler wherever it is called, so a module
may import it from here; on CPython it is the identity.
"""

try:
    from micropython import const as const  # `as`: re-exported
except ImportError:  # CPython

    def const(__x):  # dunder name: positional-only, like the real one
        return __x


def dumps(obj):
    """Compact JSON (the journal's blobs, the club's messages): no spaces where this json
    takes separators (an older MicroPython json does not)."""
    import json

    try:
        return json.dumps(obj, separators=(",", ":"))
    except TypeError:
        return json.dumps(obj)


try:
    from time import sleep_ms as sleep_ms
except ImportError:  # CPython
    from time import sleep as _sleep

    def sleep_ms(__ms):
        _sleep(__ms / 1000)


# time.ticks_ms() on the ESP32 wraps at 2**30. Spelled as a mask so the
# arithmetic below stays within MicroPython's 31-bit small ints (no heap use).
_MASK = const(0x3FFFFFFF)
_HALF = const(0x20000000)
TICKS_PERIOD = _MASK + 1


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
