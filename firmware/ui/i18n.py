"""The words on screen, in the language chosen in settings.

Each language is a text file `ui/lang/XX.txt`, one `key = text` per line, keys being the
English words. The texts stay in the file on flash: RAM holds only an index, 3 bytes per
line (an 8-bit hash of the key, and the line's offset in an array of their own), sorted by
hash, and the open file. A lookup is a binary search, a seek and a short line read or two.
Holding the whole file in RAM took 3-5 KB of the board's heap; a dict of the texts several
times more. A key missing from a language falls back to English (opened on the first
miss), then to the key itself. Building the index (ui/langfile.py) is code for the boot and
a change of language only: it is loaded for that and dropped again.
"""

from loader import drop

LANGS = ("uk", "ru", "en", "de")

_code = ""
_main = None  # (open file, hashes, offsets) of the chosen language
_english = None  # the same for English, once a text was missing


def _hash(key):
    """8 bits of a key's bytes, the same on every runtime (str hashes are not). With 8
    bits some keys share a hash: a lookup reads 1.5 lines on average."""
    h = 0
    for b in key:
        h = (h * 31 + b) & 0xFF
    return h


def _open(code):
    """(file, hashes, offsets) of a language (ui/langfile.py, dropped again)."""
    from ui.langfile import open_lang

    pair = open_lang(code, _hash)
    drop("lang")
    return pair


def use(code):
    global _code, _main, _english
    if code not in LANGS:
        code = "en"
    for lang in (_main, _english):
        if lang is not None:
            lang[0].close()
    _english = None
    _main = _open(code)
    _code = code
    return code


def _find(lang, key):
    """The text of `key` (bytes) in a language, or None."""
    f, hashes, offs = lang
    h = _hash(key)
    lo = 0
    hi = len(hashes)
    while lo < hi:  # the first line whose key's hash is >= h
        mid = (lo + hi) >> 1
        if hashes[mid] < h:
            lo = mid + 1
        else:
            hi = mid
    n = len(key)
    while lo < len(hashes) and hashes[lo] == h:
        f.seek(offs[lo])
        line = f.readline()
        if line.startswith(key) and line[n:n + 2] == b" =":  # not another key, same hash
            start = n + 2
            if line[start:start + 1] == b" ":  # "key = text" (also read: "key =text")
                start += 1
            end = len(line)
            if line[-1:] == b"\n":  # the last line may have none
                end -= 1
            return line[start:end].decode()
        lo += 1
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
