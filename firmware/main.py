"""The board runs this file at boot. It stays source, so it is kept tiny: the work is
in loop.py, which deploy compiles to .mpy."""

from loop import run

if __name__ == "__main__":
    run()
