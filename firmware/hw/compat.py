"""What MicroPython has built in and CPython (the host tests) lacks, in one place.

`const` is folded by the MicroPython compiler wherever it is called, so a module
may import it from here; on CPython it is the identity.
"""

try:
    from micropython import const as const  # `as`: re-exported
except ImportError:  # CPython

    def const(__x):  # dunder name: positional-only, like the real one
        return __x


try:
    from time import sleep_ms as sleep_ms
except ImportError:  # CPython
    from time import sleep as _sleep

    def sleep_ms(__ms):
        _sleep(__ms / 1000)


def unload(name):
    """Drop module `name` from RAM once nothing else holds it: on the board a module's code
    lives in the heap. The package keeps a submodule as an attribute too: drop both."""
    import sys

    sys.modules.pop(name, None)
    cut = name.rfind(".")
    if cut > 0:
        pkg = sys.modules.get(name[:cut])
        if pkg is not None and hasattr(pkg, name[cut + 1:]):
            delattr(pkg, name[cut + 1:])
