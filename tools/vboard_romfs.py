# A ROMFS partition for the virtual board (tools/vboard.py --romfs FILE). Runs in the
# MicroPython unix port before its REPL starts, as a board's boot does before main.py.
#
# A board built with ROMFS answers vfs.rom_ioctl (mpremote's `romfs deploy` writes through
# it) and, at boot, mounts a valid image at /rom, first on sys.path. The unix port has
# VfsRom but no partition, so this gives it one: FILE is the partition's flash, read at
# boot, written back when a write completes. `import vfs` then finds this module's stand-in
# (sys.modules comes first), which forwards everything else to the built-in vfs.

import os
import sys

import vfs as _builtin

_HEADER = b"\xd2\xcd\x31"  # the first bytes of every ROMFS image
_EINVAL = 22


class _Partition:
    def __init__(self, path):
        self.path = path
        self.flash = bytearray(os.stat(path)[6])
        with open(path, "rb") as f:
            f.readinto(self.flash)

    def rom_ioctl(self, op, *args):
        if op == 1:  # how many partitions
            return 1
        if args[:1] != (0,):
            return -_EINVAL
        if op == 2:  # the partition, memory-mapped
            return memoryview(self.flash)
        if op == 3:  # prepare to write (erase): (id, length); the smallest write is 4 bytes
            for i in range(args[1]):
                self.flash[i] = 0xFF
            return 4
        if op == 4:  # write: (id, offset, data)
            self.flash[args[1]:args[1] + len(args[2])] = args[2]
            return 0
        if op == 5:  # writing done
            with open(self.path, "wb") as f:
                f.write(self.flash)
            return 0
        if op == 6:  # erase block size: the whole partition at once
            return len(self.flash)
        return -_EINVAL


class _Vfs:
    """The built-in vfs module with rom_ioctl added."""


def _install(path):
    part = _Partition(path)
    stand_in = _Vfs()
    for name in dir(_builtin):
        if not name.startswith("__"):
            setattr(stand_in, name, getattr(_builtin, name))
    stand_in.rom_ioctl = part.rom_ioctl
    sys.modules["vfs"] = stand_in
    # Run as a script, this file's folder took the place of the board's "" on sys.path.
    here = __file__.rsplit("/", 1)[0]
    if here in sys.path:
        sys.path[sys.path.index(here)] = ""
    if bytes(part.flash[:3]) == _HEADER:
        _builtin.mount(_builtin.VfsRom(memoryview(part.flash)), "/rom")
        sys.path.insert(0, "/rom")


_install(os.getenv("VBOARD_ROMFS"))
del _install
