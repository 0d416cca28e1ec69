"""Mount a ROMFS image at /rom, first on sys.path, as a board with a ROMFS partition does
at boot (docs/memory.md). Runs in MicroPython, for the heap drivers (heap_drive.py,
club_heap.py): on a board the image is mapped from flash; here it is read into the heap,
in one block of its size, so it leaves no holes behind.
"""

import gc
import os
import sys

import vfs


def mount(path):
    """Mount the image file; returns the heap bytes it holds here (to subtract)."""
    gc.collect()
    before = gc.mem_alloc()
    image = bytearray(os.stat(path)[6])
    with open(path, "rb") as f:
        f.readinto(image)
    vfs.mount(vfs.VfsRom(image), "/rom")
    sys.path.insert(0, "/rom")
    gc.collect()
    return gc.mem_alloc() - before
