"""Run by test_web_camera.py in MicroPython (the unix ports, the browser's): the browser app
(web/webmain.py) typed an entry at a time, and after each what camera mode may not read
(web/webcamera.py gone()).

    micropython mp_web_gone.py KEYS...    (one argument per entry: its keypad keys)

Prints one JSON list: gone() before the first entry's keys and after each entry's.
"""

import json
import sys

import webcamera
import webmain


class Storage:
    """localStorage's three calls over a dict."""

    def __init__(self):
        self.items = {}

    def getItem(self, key):  # noqa: N802 (the Web Storage API's names)
        return self.items.get(key)

    def setItem(self, key, value):  # noqa: N802
        self.items[key] = value

    def removeItem(self, key):  # noqa: N802
        self.items.pop(key, None)


def main(entries):
    webmain.start(Storage())
    out = [webcamera.gone()]
    for keys in entries:
        for ch in keys:
            webmain.char(ch)
        out.append(webcamera.gone())
    print(json.dumps(out))


main(sys.argv[1:])
