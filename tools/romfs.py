"""The firmware's code and read-only data as one ROMFS image.

A board whose MicroPython has a ROMFS partition (MicroPython 1.25 and later, built with one)
mounts the image at /rom, puts /rom first on sys.path, and runs the .mpy files in it where
they lie in flash: their bytecode and strings are not copied into the heap, only the objects
their import builds are. The scoreboard then needs about half the heap (docs/boards.md,
`make bench`). What the board writes (data/) and what it runs by name (main.py, board.json,
club.json) stay on the read-write filesystem.

    python tools/romfs.py OUT.romfs            (from the compiled firmware, bytecode only)

The image format is MicroPython's own; mpremote (pinned in requirements-dev.txt) writes it.
"""

import contextlib
import io
import os
import shutil
import sys
import tempfile

# Run by name from the read-write filesystem, never from the image.
OUTSIDE = ("main.py",)


def image(build_dir):
    """The ROMFS image (bytes) of a folder that tools/deploy.py build() filled."""
    from mpremote.romfs import make_romfs

    with tempfile.TemporaryDirectory(prefix="romfs-") as tmp:
        src = os.path.join(tmp, "rom")
        shutil.copytree(build_dir, src, ignore=shutil.ignore_patterns(*OUTSIDE))
        with contextlib.redirect_stdout(io.StringIO()):  # it lists every file it packs
            return make_romfs(src, mpy_cross=False)


def build(out_file, march=None):
    """Compile the firmware and write its image to out_file; returns the image's size."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import deploy

    with tempfile.TemporaryDirectory(prefix="romfs-build-") as tmp:
        deploy.build(tmp, march=march)
        data = image(tmp)
    with open(out_file, "wb") as f:
        f.write(data)
    return len(data)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tools/romfs.py OUT.romfs")
    print("%s: %d bytes" % (sys.argv[1], build(sys.argv[1])))
