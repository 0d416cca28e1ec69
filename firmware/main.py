"""The board runs this file at boot. It stays source, so it is kept tiny: the work is
in loop.py, which deploy compiles to .mpy. First update/slots.py picks the folder the
firmware runs from (an update over WiFi, or what `make deploy` copied)."""

from update.slots import start

start()  # the firmware's folder: an update's (fw/a, fw/b) or the base (update/slots.py)
del start
from loop import run  # noqa: E402

if __name__ == "__main__":
    run()
