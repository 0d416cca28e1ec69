"""The store's file format: names, magic numbers, limits and the CRC.

Shared by hw/storage.py (writing, appending), hw/recover.py (reading a packed file, with
the header checks) and hw/repair.py (the boot's journal scan and repair); the formats
themselves are described in hw/storage.py's docstring.
"""

VERSION = 1
MAX_LINE = 200  # bytes of one event line (UTF-8)
MAX_BLOB = 16384  # bytes of one summary or blob
_MAG_SUMMARY = b"S66S"
_MAG_JOURNAL = b"S66J"
_MAG_BLOB = b"S66B"
_SUMMARY = "summary"
_JOURNAL = "journal"

try:
    from binascii import crc32
except ImportError:  # a port built without it: the same CRC in Python
    from hw.softcrc import crc32  # noqa: F401  (for hw/storage.py, recover.py, repair.py)


def _hex(crc):
    return b"%08x" % (crc & 0xFFFFFFFF)
