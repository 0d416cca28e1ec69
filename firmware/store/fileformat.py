"""The store's file format: names, magic numbers, limits and the CRC.

Shared by store/journal.py (writing, appending), store/recover.py (reading a packed file, with
the header checks) and store/repair.py (the boot's journal scan and repair); the formats
themselves are described in store/journal.py's docstring.
"""

VERSION = 1
MAX_LINE = 200  # bytes of one event line (UTF-8)
MAX_BLOB = 16384  # bytes of one summary or blob
MAG_SUMMARY = b"S66S"
MAG_JOURNAL = b"S66J"
MAG_BLOB = b"S66B"
SUMMARY = "summary"
JOURNAL = "journal"

try:
    from binascii import crc32
except ImportError:  # a port built without it: the same CRC in Python
    from store.softcrc import crc32  # noqa: F401  (for store/journal.py, recover.py, repair.py)


def crc_hex(crc):
    return b"%08x" % (crc & 0xFFFFFFFF)
