"""Opening a language for ui/i18n.py: the index of its file. Loaded for that (at boot, when
the language changes, at the first text missing from a language) and dropped again: on the
board every module's code is heap.
"""


def open_lang(code, hash16):
    """(file, index) of a language: the index is 4-byte records, hash then offset, sorted.
    hash16: ui/i18n.py's _hash (passed in: this module does not import that one back)."""
    here = __file__
    f = open(here[:here.rfind("/") + 1] + "lang/" + code + ".txt", "rb")
    index = bytearray()
    off = 0
    while True:
        line = f.readline()
        if not line:
            break
        eq = line.find(b" =")
        if eq > 0 and line[0] != 35:  # 35: "#", a comment
            h = hash16(line[:eq])
            index.extend(bytes((h >> 8, h & 255, off >> 8, off & 255)))
        off += len(line)
    # Insertion sort by hash, in place: once per language change, 150 lines.
    n = len(index) >> 2
    for i in range(1, n):
        j = i
        while j > 0:
            a = (j - 1) << 2
            b = j << 2
            if index[a] < index[b] or (index[a] == index[b] and index[a + 1] <= index[b + 1]):
                break
            for k in range(4):
                index[a + k], index[b + k] = index[b + k], index[a + k]
            j -= 1
    return f, index
