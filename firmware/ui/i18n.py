"""The words on screen, in the language chosen in settings.

Each language is a text file `ui/lang/XX.txt`, one `key = text` per line,
keys being the English words. The chosen file is held in RAM as one bytes
object (3-5 KB) and searched per lookup: a dict of the same texts costs
several times more heap on the board. A key missing from a language falls
back to English, then to the key itself.
"""

LANGS = ("uk", "ru", "en", "de")
NAMES = ("Українська", "Русский", "English", "Deutsch")

_blob = b""
_code = ""
_english = b""


def _folder():
    here = __file__
    cut = here.rfind("/")
    return (here[:cut + 1] if cut >= 0 else "") + "lang/"


def load(code):
    """The file of a language as bytes, starting with a newline so every key follows one."""
    with open(_folder() + code + ".txt", "rb") as f:
        return b"\n" + f.read()


def use(code):
    global _blob, _code, _english
    if code not in LANGS:
        code = "en"
    _blob = load(code)
    _code = code
    _english = b""
    return code


def find(blob, key):
    """The text of `key` in a language file, or None."""
    k = b"\n" + key.encode() + b" ="
    i = blob.find(k)
    if i < 0:
        return None
    i += len(k)
    if blob[i:i + 1] == b" ":
        i += 1
    j = blob.find(b"\n", i)
    return blob[i:j if j >= 0 else len(blob)].decode()


def t(key):
    global _english
    s = find(_blob, key)
    if s is None:
        if not _english and _code != "en":
            _english = load("en")
        s = find(_english, key) if _english else None
    return key if s is None else s
