"""Run by test_web_store.py in the MicroPython unix port: the browser app (web/webmain.py)
over a recorded localStorage, and a boot from the storage as it was after every single
write (setItem or removeItem): each is an instant at which the tab could die.

    micropython mp_web_cuts.py KEYS       (keypad keys, the simulator's characters)

Prints one JSON object: cuts tried and failures (a boot whose match is not the one
after the last finished key press, or, for a cut inside a press, the one after it).
"""

import json
import sys

import webmain


class Storage:
    """localStorage's three calls over a dict; records the items after every write."""

    def __init__(self, items=None):
        self.items = dict(items or {})
        self.images = None  # a list to record into, or None

    def getItem(self, key):  # noqa: N802 (the Web Storage API's names)
        return self.items.get(key)

    def setItem(self, key, value):  # noqa: N802
        self.items[key] = value
        self._note()

    def removeItem(self, key):  # noqa: N802
        self.items.pop(key, None)
        self._note()

    def _note(self):
        if self.images is not None:
            self.images.append(dict(self.items))


def main(keys):
    live = Storage()
    live.images = []
    webmain.start(live)
    states = [webmain.state()]  # the match after 0, 1, 2 ... key presses
    writes = [len(live.images)]  # writes made by the end of each press
    for ch in keys:
        webmain.char(ch)
        states.append(webmain.state())
        writes.append(len(live.images))
    images = live.images
    live.images = None
    failures = []
    for cut in range(len(images)):
        made = cut + 1  # the tab dies right after this many writes
        done = 0  # presses whose writes all happened
        while done + 1 < len(writes) and writes[done + 1] <= made:
            done += 1
        allowed = states[done:done + 2] if made < writes[-1] else states[done:done + 1]
        webmain.start(Storage(images[cut]))
        got = webmain.state()
        if got not in allowed:
            failures.append("cut after write %d (press %d): %s" % (made, done + 1, got))
    print(json.dumps({"cuts": len(images), "presses": len(keys), "failures": failures}))


main(sys.argv[1])
