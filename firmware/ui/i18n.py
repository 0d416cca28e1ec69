"""The words on screen, in the language chosen in settings.

Each language is a text file `ui/lang/XX.txt`, one `key = text` per line, keys being the
English words. The texts stay in the file on flash: RAM holds only an index, 4 bytes per
line (a 16-bit hash of the key, the line's offset), sorted by hash, and the open file. A
lookup is a binary search, a seek and one short line read. Holding the whole file in RAM
took 3-5 KB of the board's heap; a dict of the texts several times more. A key missing from
a language falls back to English (opened on the first miss), then to the key itself.
Building the index (ui/langfile.py) is code for the boot and a change of language only: it
is loaded for that and dropped again.
"""

from hw.compat import unload

LANGS = ("uk", "ru", "en", "de")
NAMES = ("Українська", "Русский", "English", "Deutsch")

_code = ""
_main = None  # (open file, index) of the chosen language
_english = None  # the same for English, once a text was missing


def _hash(key):
    """16 bits of a key's bytes, the same on every runtime (str hashes are not)."""
    h = 0
    for b in key:
        h = (h * 31 + b) & 0xFFFF
    return h


def _open(code):
    """(file, index) of a language (ui/langfile.py reads it, and is dropped again)."""
    from ui.langfile import open_lang

    pair = open_lang(code, _hash)
    unload("ui.langfile")
    return pair


def _close(pair):
    if pair is not None:
        pair[0].close()


def use(code):
    global _code, _main, _english
    if code not in LANGS:
        code = "en"
    _close(_main)
    _close(_english)
    _english = None
    _main = _open(code)
    _code = code
    return code


def _find(pair, key):
    """The text of `key` (bytes) in a language, or None."""
    f, index = pair
    h = _hash(key)
    lo = 0
    hi = len(index) >> 2
    while lo < hi:  # the first record whose hash is >= h
        mid = (lo + hi) >> 1
        i = mid << 2
        if (index[i] << 8 | index[i + 1]) < h:
            lo = mid + 1
        else:
            hi = mid
    n = len(key)
    i = lo << 2
    while i < len(index) and (index[i] << 8 | index[i + 1]) == h:
        f.seek(index[i + 2] << 8 | index[i + 3])
        line = f.readline()
        if line[n:n + 2] == b" =" and line[:n] == key:  # not another key of the same hash
            start = n + 3 if line[n + 2:n + 3] == b" " else n + 2
            end = len(line) - 1 if line[-1:] == b"\n" else len(line)
            return line[start:end].decode()
        i += 4
    return None


def t(key):
    global _english
    k = key.encode()
    s = _find(_main, k) if _main is not None else None
    if s is None and _code != "en":
        if _english is None:
            _english = _open("en")
        s = _find(_english, k)
    return key if s is None else s
