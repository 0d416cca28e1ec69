"""The store's file format: names, magic numbers, limits, the CRC and header checks.

Shared by hw/storage.py (writing, appending) and hw/recover.py (the boot's reading and
repair); the formats themselves are described in hw/storage.py's docstring.
"""

VERSION = 1
MAX_LINE = 200  # bytes of one event line (UTF-8)
MAX_BLOB = 16384  # bytes of one summary or blob
_MAXREC = MAX_LINE + 10  # line + " " + 8 hex digits + "\n"
_ENOENT = 2
_MAG_SUMMARY = b"S66S"
_MAG_JOURNAL = b"S66J"
_MAG_BLOB = b"S66B"
_SUMMARY = "summary"
_JOURNAL = "journal"
_NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"

_table = None


def _soft_crc32(data, crc=0):
    # The same CRC-32 as binascii's, for ports built without it; table made on first use.
    global _table
    if _table is None:
        _table = []
        for n in range(256):
            c = n
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            _table.append(c)
    crc ^= 0xFFFFFFFF
    for b in data:
        crc = _table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


try:
    import binascii

    crc32 = binascii.crc32
except (ImportError, AttributeError):
    crc32 = _soft_crc32


class _Bad(Exception):
    """Internal: a file's content is unusable; args[0] is the reason."""


def _hex(crc):
    return b"%08x" % (crc & 0xFFFFFFFF)


def _num(field):
    # Strict: int() would also take "+1", " 1" or "1_0".
    if not field or not field.isdigit() or len(field) > 9:
        raise _Bad("unreadable header")
    return int(field)


def _check_header(fields, magic, count):
    if len(fields) < 2 or fields[0] != magic:
        raise _Bad("unreadable header")
    if fields[1] != b"%d" % VERSION:
        if fields[1].isdigit() and len(fields[1]) < 6:
            raise _Bad("unknown format version " + fields[1].decode())
        raise _Bad("unreadable header")
    if len(fields) != count:
        raise _Bad("unreadable header")
