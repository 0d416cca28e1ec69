"""The board runs this file at boot. It stays source, so it is kept tiny: the work is
in loop.py, which deploy compiles to .mpy. A board that took an update over WiFi has its
record fw/boot: update/boot.py then picks the folder the firmware runs from (and watches
a new version's first frame and key); without one, nothing of it is loaded."""

import os

try:
    os.stat("fw/boot")
    from update.boot import start

    start()
    del start
except OSError:
    pass  # no update over WiFi: the firmware `make deploy` copied
del os
from loop import run  # noqa: E402

if __name__ == "__main__":
    run()
