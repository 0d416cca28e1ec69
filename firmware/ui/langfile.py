"""Opening a language for ui/i18n.py: the index of its file. Loaded for that (at boot, when
the language changes, at the first text missing from a language) and dropped again: on the
board every module's code is heap.
"""

from array import array


def open_lang(code, hash8):
    """(file, hashes, offsets) of a language: one hash (bytes) and one offset (an array)
    per line of text, sorted by hash. hash8: ui/i18n.py's _hash (passed in: this module
    does not import that one back)."""
    here = __file__
    f = open(here[:here.rfind("/") + 1] + "lang/" + code + ".txt", "rb")
    # The lines are counted first, so that the list is made at its size: grown by appends
    # it would double, to 1 KB for 169 lines, at the boot's fullest moment.
    n = 0
    while f.readline():
        n += 1
    f.seek(0)
    lines = [0] * n  # hash << 16 | offset: small ints, sorted in place
    n = off = 0
    while True:
        line = f.readline()
        if not line:
            break
        eq = line.find(b" =")
        if eq > 0 and line[0] != 35:  # 35: "#", a comment
            lines[n] = hash8(line[:eq]) << 16 | off
            n += 1
        off += len(line)
    del lines[n:]  # the slots of comments and blank lines
    lines.sort()
    # Split in place, without a temporary list per half.
    hashes = bytearray(len(lines))
    for i in range(len(lines)):
        hashes[i] = lines[i] >> 16
        lines[i] &= 0xFFFF
    return f, bytes(hashes), array("H", lines)
