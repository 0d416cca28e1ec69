"""CRC-32 in Python, the same as binascii.crc32, for a MicroPython port built without it.

store/fileformat.py imports it only there: every port the firmware runs on today (the ESP32's,
the unix and WebAssembly ports) has binascii.crc32, so this module is normally never loaded.
"""

_table = None


def crc32(data, crc=0):
    """binascii.crc32(data, crc); the table is made on first use."""
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
