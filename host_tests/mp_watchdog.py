"""The board's loop with a scripted keypad and, on request, a hang: for test_watchdog.py.

Run in the MicroPython unix port with the firmware and the fake `machine`
(host_tests/fake_machine) on the path, in a folder holding board.json and the flash folder
data/, as a board's file system does:

    mp_watchdog.py KEYS SECONDS [HANG N]

The real loop.run() boots (startup.boot, the watchdog last) and runs; the keys are typed one
a loop turn from the file KEYS (one character a press, z / m a long * / #), each press the
loop's own: keys.poll() returns it, power.key() and app.press() take it. After every turn
that took a press the match's snapshot is printed ("SNAP n {json}"), n presses done.
With HANG, the N-th occurrence of that point never comes back:

    press    App.press, before it does anything (a screen's endless loop)
    frame    App.render, after the press it draws (the same, after the journal's write)
    i2c      the panel's bus: a write that never returns (a bus held low)
    flash    the journal's file: a write that never returns
    socket   the club link's poll: recv() on a socket that never answers

The fake watchdog (FAKE_WDT=1) then kills the process; the test boots it again. Without keys
left, the loop runs on ("IDLE" printed once) until the test stops it or the watchdog fires.
"""

import json
import machine
import sys

KEYS = open(sys.argv[1]).read().strip()
SECONDS = int(sys.argv[2])
HANG = sys.argv[3] if len(sys.argv) > 4 else None
AT = int(sys.argv[4]) if HANG else 0
seen = [0]


armed = [False]  # points count from the first turn on, not during the boot


def hang_here(point):
    """Count this point; at the N-th, hang the way the point hangs."""
    if point != HANG or not armed[0]:
        return
    seen[0] += 1
    if seen[0] != AT:
        return
    print("HANG", point, AT)
    if point == "socket":
        import socket

        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(socket.getaddrinfo("127.0.0.1", 0)[0][-1])
        s.recv(1)  # blocks in the system call: nobody ever sends
    while True:  # an endless loop: a screen's, a driver's spin on a bus
        pass


# ---- the hang points ------------------------------------------------------------------

_writeto = machine.I2C.writeto
_writevto = machine.I2C.writevto


def writeto(self, addr, buf, stop=True):
    hang_here("i2c")
    return _writeto(self, addr, buf, stop)


def writevto(self, addr, bufs, stop=True):
    hang_here("i2c")
    return _writevto(self, addr, bufs, stop)


machine.I2C.writeto = writeto
machine.I2C.writevto = writevto

from store import journal  # noqa: E402

_write = journal.Store._write


def write(self, f, data):
    hang_here("flash")
    return _write(self, f, data)


journal.Store._write = write


class Keys:
    """The keypad, scripted: one press a poll while keys are left."""

    def __init__(self):
        self.at = 0

    def poll(self, now):
        if self.at >= len(KEYS):
            return None
        ch = KEYS[self.at]
        self.at += 1
        if ch == "z":
            return ("*", 2)
        if ch == "m":
            return ("#", 2)
        return (ch.upper(), 1)

    def any_down(self):
        return False

    def idle(self):
        return self.at >= len(KEYS)


class Club:
    """The club link's place in the loop: a poll each turn, a wait."""

    def poll(self, now):
        hang_here("socket")

    def wait_ms(self):
        return 500


import startup  # noqa: E402

_boot = startup.boot


def booted(*args):
    out = _boot(*args)
    cfg, keys, power, app, club, wdt, nap = out
    press = app.press
    render = app.render
    done = [0, 0, 0]  # presses done, the snapshot last printed, idle said

    def hanging_press(name, long):
        hang_here("press")
        press(name, long)
        done[0] += 1

    def hanging_render():
        if done[0] != done[1]:
            hang_here("frame")
        render()
        if done[0] != done[1]:
            done[1] = done[0]
            from sixtysix.snapshot import snapshot

            print("SNAP", done[0], json.dumps(snapshot(app.session.match)))
        elif done[0] == len(KEYS) and not done[2]:
            done[2] = 1
            print("IDLE")

    app.press = hanging_press
    app.render = hanging_render
    power.key = lambda now: False  # every press acts: no panel to wake in this script
    print("BOOT", json.dumps(_snapshot(app)), wdt is not None, nap)
    armed[0] = True
    return cfg, Keys(), power, app, Club(), wdt, nap


def _snapshot(app):
    from sixtysix.snapshot import snapshot

    return snapshot(app.session.match)


startup.boot = booted

import loop  # noqa: E402

loop.run(seconds=SECONDS)
