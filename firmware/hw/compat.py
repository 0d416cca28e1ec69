"""What MicroPython has built in and CPython (the host tests) lacks, in one place.

`const` is folded by the MicroPython compiler wherever it is called, so a module
may import it from here; on CPython it is the identity.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(__x):  # dunder name: positional-only, like the real one
        return __x


try:
    from time import sleep_ms
except ImportError:  # CPython
    from time import sleep as _sleep

    def sleep_ms(__ms):
        _sleep(__ms / 1000)


__all__ = ("const", "sleep_ms")
