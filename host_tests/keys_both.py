"""Both key builds driven by the same presses, for test_keys.py: in CPython, and in the unix
ports of MicroPython (64- and 32-bit, with firmware/ and host_tests/ on the path):

    from keys_both import main; main(CASES)

prints one line per case and build: the case's number, the build, its events and the changes
of its idle(), as Python literals.

A press is (key, down, up, down_bounce, up_bounce): key 0-3 of the four, its contact closing
at down and opening at up (ms from the run's start; up None: held to the end), each edge
followed by glitches back of the given lengths (1 ms of the new level after each). The four
keys are the buttons UP DOWN OK BACK, and on the 4x4 keypad 1 6 8 D (one in every row and
column). A case is (presses, start tick, poll step ms, run length ms, STUCK_MS or None).
"""

from compat import ticks_add
from hw.buttons import Buttons
from hw.keypad import Keypad

BUTTONS = ("UP", "DOWN", "OK", "BACK")
CELLS = ((0, 0), (1, 2), (2, 1), (3, 3))  # key i's (row, col) on the keypad


def changes(presses):
    """[(ms, key, level)] of every contact change, in time order."""
    out = []
    for key, down, up, down_b, up_b in presses:
        for at, level, bounce in ((down, 1, down_b), (up, 0, up_b)):
            if at is None:
                continue
            for glitch in bounce:
                out.append((at, key, level))
                out.append((at + glitch, key, 1 - level))
                at += glitch + 1
            out.append((at, key, level))
    out.sort()
    return out


class Contacts:
    """The four keys' contacts, wired as buttons (to GND, pulled up) and as a matrix."""

    def __init__(self):
        self.closed = [0, 0, 0, 0]
        self.rows = [1, 1, 1, 1]

    def pin(self, key):
        def read():
            return 1 - self.closed[key]

        return read

    def row(self, r):
        def drive(v):
            self.rows[r] = v

        return drive

    def col(self, c):
        def read():
            for key in range(4):
                r, cc = CELLS[key]
                if cc == c and self.closed[key] and not self.rows[r]:
                    return 0
            return 1

        return read


def run(build, presses, start, step, until, stuck_ms=None):
    """([(ms, key, kind)] the events, [(ms, idle)] each change of idle()) of one build,
    polled every step ms from tick start (the loop's order: drain the events, then ask)."""
    wires = Contacts()
    if build == "buttons":
        src = Buttons([wires.pin(k) for k in range(4)], BUTTONS)
        names = BUTTONS
    else:
        src = Keypad([wires.row(r) for r in range(4)], [wires.col(c) for c in range(4)])
        names = [src.names[4 * r + c] for r, c in CELLS]
    if stuck_ms:
        src.STUCK_MS = stuck_ms
    todo = changes(presses)
    done = 0
    events = []
    idles = []
    was = True
    e = 0
    while e <= until:
        while done < len(todo) and todo[done][0] <= e:
            wires.closed[todo[done][1]] = todo[done][2]
            done += 1
        now = ticks_add(start, e)
        ev = src.poll(now)
        while ev is not None:
            events.append((e, names.index(ev[0]), ev[1]))
            ev = src.poll(now)
        idle = src.idle()
        if idle != was:
            idles.append((e, idle))
            was = idle
        e += step
    return events, idles


def main(cases):
    for n in range(len(cases)):
        for build in ("buttons", "keypad"):
            events, idles = run(build, *cases[n])
            print(n, build, events, idles)
