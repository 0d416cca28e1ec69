"""Run by test_web_camera.py in MicroPython (the unix ports, the browser's): the browser app
(web/webmain.py) typed an entry at a time, and after each what camera mode may not read
(web/webcamera.py gone()), or with --played the cards it has played (played()).

    micropython mp_web_gone.py [--played] KEYS...    (one argument per entry: its keys)

Prints one JSON list: gone() (played()) before the first entry's keys and after each entry's.
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
    ask = webcamera.gone
    if entries and entries[0] == "--played":
        ask = webcamera.played
        entries = entries[1:]
    webmain.start(Storage())
    out = [ask()]
    for keys in entries:
        for ch in keys:
            webmain.char(ch)
        out.append(ask())
    print(json.dumps(out))


main(sys.argv[1:])
