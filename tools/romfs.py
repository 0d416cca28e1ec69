"""The firmware's code and read-only data as one ROMFS image.

A board whose MicroPython has a ROMFS partition (MicroPython 1.25 and later, built with one)
mounts the image at /rom, puts /rom first on sys.path, and runs the .mpy files in it where
they lie in flash: their bytecode and strings are not copied into the heap, only the objects
their import builds are. The scoreboard then needs about half the heap (docs/boards.md,
`make bench`). What the board writes (data/) and what it runs by name (main.py, board.json,
club.json) stay on the read-write filesystem.

`make romfs` writes build/firmware.romfs (tools/deploy.py --image); `make deploy` writes
the image itself when the board has a ROMFS partition big enough for it. The format is
MicroPython's own; mpremote (pinned in requirements-dev.txt) builds and writes it.
"""

import contextlib
import io
import os
import shutil
import tempfile

# Run by name from the read-write filesystem, never from the image.
OUTSIDE = ("main.py",)


def image(build_dir, outside=OUTSIDE):
    """The ROMFS image (bytes) of a folder that tools/deploy.py build() filled, without
    the top-level names in `outside` (what stays on the read-write filesystem)."""
    from mpremote.romfs import make_romfs

    with tempfile.TemporaryDirectory(prefix="romfs-") as tmp:
        src = os.path.join(tmp, "rom")
        shutil.copytree(build_dir, src, ignore=lambda d, names: outside if d == build_dir else ())
        with contextlib.redirect_stdout(io.StringIO()):  # it lists every file it packs
            return make_romfs(src, mpy_cross=False)
