"""The board's loop on a fake clock with a cell that runs down: for test_gauge.py.

Run in MicroPython (the unix port, 64- or 32-bit) with the firmware and the fake `machine`
(host_tests/fake_machine) on the path, in a folder holding board.json (a board file that
names the cell's sense pin) and the flash folder data/:

    mp_gauge.py KEYS FROM_MV TO_MV HOURS

The real loop.run() boots and runs HOURS on a fake clock (time moves only when the loop
sleeps: light sleeps, as a board with a key wake source takes them). The keys of KEYS (one
character a press: keypad keys, or w s e q for the buttons, capitals long) are typed one a
turn from the start; then nobody touches the board. The cell's voltage falls linearly from
FROM_MV to TO_MV over the HOURS; the fake ADC reads it through the board file's divider.

Prints "BOOT {snapshot}" after the boot, "BATT t %" whenever the charge on the scoreboard
changes, "SAY t words" for each message, "GAUGE [[...], [...]]" (the gauge's two columns as
last drawn) before "SLEEP t ms {snapshot}" when the firmware deep-sleeps (the fake machine
then ends the process, leaving its mark for the next start), and both at the END.
"""

import json
import machine
import sys

KEYS = open(sys.argv[1]).read().strip()
FROM_MV = int(sys.argv[2])
TO_MV = int(sys.argv[3])
HOURS = float(sys.argv[4])
END_MS = int(HOURS * 3600000)
clock = [0]


class FakeTime:
    """loop.py's `time`: the fake clock."""

    @staticmethod
    def ticks_ms():
        return clock[0]

    @staticmethod
    def ticks_diff(a, b):
        return a - b

    @staticmethod
    def ticks_add(a, b):
        return a + b

    @staticmethod
    def sleep_ms(ms):
        clock[0] += ms


def advance(ms):
    clock[0] += max(0, min(ms, END_MS - clock[0]))


with open("board.json") as f:
    BATTERY = json.load(f).get("battery") or {}


def cell_at_pin():
    mv = FROM_MV + (TO_MV - FROM_MV) * clock[0] // END_MS
    return mv / BATTERY["divider"]


if "adc" in BATTERY:
    machine.adc_mv[BATTERY["adc"]] = cell_at_pin
machine.lightsleep = advance


class _Esp32:
    @staticmethod
    def wake_on_gpio(pins, level):
        pass


sys.modules["esp32"] = _Esp32

import hw.power  # noqa: E402

hw.power.sleep_ms = advance

_deepsleep = machine.deepsleep


def gauge(app):
    """The scoreboard's top left corner as drawn: columns 0 and 1, rows 0-8."""
    return [[app.fb.pixel(x, y) for y in range(9)] for x in (0, 1)]


def deepsleep(ms=0):
    app = apps[0]
    print("GAUGE", json.dumps(gauge(app)))
    print("SLEEP", clock[0], ms, json.dumps(snapshot(app.session.match)))
    _deepsleep(ms)


machine.deepsleep = deepsleep

BUTTONS = {"w": "UP", "s": "DOWN", "e": "OK", "q": "BACK"}


class Keys:
    """The keys, scripted: one press a poll while keys are left."""

    def __init__(self):
        self.at = 0

    def poll(self, now):
        if self.at >= len(KEYS):
            return None
        ch = KEYS[self.at]
        self.at += 1
        if ch.lower() in BUTTONS:
            return (BUTTONS[ch.lower()], 2 if ch.isupper() else 1)
        if ch == "z":
            return ("*", 2)
        if ch == "m":
            return ("#", 2)
        return (ch.upper(), 1)

    def any_down(self):
        return False

    def idle(self):
        return self.at >= len(KEYS)

    def arm_wake(self):
        return True


apps = []


def snapshot(match):
    from sixtysix.snapshot import snapshot as snap

    return snap(match)


import os  # noqa: E402

try:
    os.stat("data")
except OSError:  # a new board: the deep sleep after 30 idle minutes off, so that only the
    from session import Session  # gauge's ends the evening
    from store.journal import Store

    Session(Store("data", os)).save_settings({"sleep_s": 0})

import startup  # noqa: E402

_boot = startup.boot


def booted(*args):
    out = _boot(*args)
    cfg, keys, power, app, club, wdt, nap = out
    apps.append(app)
    render = app.render
    seen = [None, ""]

    def watched():
        battery = getattr(app, "battery", None)
        if battery != seen[0]:
            seen[0] = battery
            print("BATT", clock[0], battery)
        if app.message and app.message != seen[1]:
            print("SAY", clock[0], app.message)
        seen[1] = app.message
        return render()

    app.render = watched
    power.key = lambda now: False  # every press acts: the script types no waking press
    print("BOOT", json.dumps(snapshot(app.session.match)))
    return cfg, Keys(), power, app, club, wdt, nap


startup.boot = booted

import loop  # noqa: E402

loop.time = FakeTime
loop.run(seconds=END_MS // 1000)
print("GAUGE", json.dumps(gauge(apps[0])))
print("END", clock[0], json.dumps(snapshot(apps[0].session.match)))
