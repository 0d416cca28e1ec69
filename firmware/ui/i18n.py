"""The words on screen, in the language chosen in settings.

Each language is a module `ui/lang_XX.py` holding one dict S from an English
key to the text; only the chosen one is in RAM. A key missing from a
language falls back to English, then to the key itself.
"""

LANGS = ("uk", "ru", "en", "de")
_texts = {}
_english = {}


def use(code):
    global _texts, _english
    if code not in LANGS:
        code = "en"
    _texts = _load(code)
    _english = _texts if code == "en" else {}
    return code


def _load(code):
    mod = __import__("ui.lang_" + code)
    return getattr(mod, "lang_" + code).S


def t(key):
    s = _texts.get(key)
    if s is None:
        if not _english:
            _set_english()
        s = _english.get(key, key)
    return s


def _set_english():
    global _english
    _english = _load("en")
