"""A scripted evening at the table on the device as a board boots it, on a fake clock.

Runs in MicroPython's unix port with the compiled or source firmware and the fake `machine`
(host_tests/fake_machine) on the path, in a folder holding board.json, as a board's file
system does:

    evening.py KEYS [club] [SETTINGS]

The real loop.run() boots and runs the main loop for three hours of a fake clock. Time moves
only when the loop blocks: hw/power.py's time.sleep_ms and machine.lightsleep (added to the
fake machine here, ended early by a key as the board's wake source ends it), so the time in
each power state is what the idle policy chose, not an assumption. Keys are pressed on the
fake pins: a keypad key joins its column to its row while the scanner drives that row low,
a button pulls its pin low. A deal every DEAL_S seconds: KEYS has one line per deal (the
presses that enter it, tools/keyseq.py); when the panel is dimmed or off at that moment, a
press wakes it first (the firmware swallows that press). The first line of KEYS is the
number of deals the match on the device must hold at the end (a check that the keys did
enter the deals).

With `club`, a club file lies beside board.json, as on a table of a club night: the boot
sees it (startup.py: the club link's WiFi is up, so the idle policy never light-sleeps) and
builds the club link, which the loop then runs as a stand-in, up and idle: its wait is
net/clublink.py's Club.wait_ms() over a link that is up with nothing due (no broker is
involved: the radio's cost is tools/battery.py's).

SETTINGS (a JSON object, e.g. '{"dim_s": 15}') are saved as the device's settings before
it boots, as a player would set them in the settings list (tools/bench.py prices the
savings with them).

Prints one JSON line: ms per panel state (bright, dim, off, deep), CPU ms awake and in light
sleep, loop wake-ups per panel state, presses, time-weighted lit-pixel share per panel state,
the contrasts, the bytes sent to the panel, the deals on the device.
"""

import json
import sys

EVENING_S = 3 * 3600
DEAL_S = 240
HOLD_MS = 100  # a press, key down to key up (debounce is 20 ms)
LONG_HOLD_MS = 900  # a long press (hw/keys.py LONG_MS is 600)
PACE_MS = 1000  # from one press to the next: a player reading the screen
STATES = ("bright", "dim", "off", "deep")  # hw/power.py AWAKE, DIM, OFF, DEEP

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
    def sleep_ms(ms):  # the buzzer's beeps: the CPU awake
        _advance(ms, False)


import machine  # noqa: E402  (the fake, first on the path)

_lines = open(sys.argv[1]).read().splitlines()
EXPECT_DEALS = int(_lines[0])
DEALS = _lines[1:]
CLUB = "club" in sys.argv[2:]
SETTINGS = [json.loads(a) for a in sys.argv[2:] if a.startswith("{")]
with open("board.json") as f:
    CFG = json.load(f)

# ---- the keys on the pins -------------------------------------------------------------

_keys = CFG["keys"]
PINS = {}  # key character -> (row pin or None, column or button pin, long)
if _keys["type"] == "keypad":
    rows = _keys["rows"]
    cols = _keys["cols"]
    for r, line in enumerate(_keys.get("layout", "123A/456B/789C/*0#D").split("/")):
        for c, name in enumerate(line):
            PINS[name] = (rows[r], cols[c], False)
    for ch, name in (("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")):
        PINS[ch] = PINS[name]
    PINS["z"] = (PINS["*"][0], PINS["*"][1], True)  # long *
    PINS["m"] = (PINS["#"][0], PINS["#"][1], True)  # long #
    WAKE_KEY = "#"
else:
    bp = _keys["pins"]
    for ch, name in (("w", "UP"), ("s", "DOWN"), ("e", "OK"), ("q", "BACK")):
        PINS[ch] = (None, bp[name], False)
        PINS[ch.upper()] = (None, bp[name], True)
    WAKE_KEY = "e"

events = []  # [down, up, row pin, column pin], in time order
state = {"next_deal": 0, "deal": 0, "at": 0, "presses": 0, "wake_presses": 0}
power_ref = []  # the Power, once booted
naps = []  # the loop's longest sleep between two feeds of the watchdog


def _deal_events():
    """Put the presses of every deal that is due by now on the schedule."""
    while state["deal"] < len(DEALS) and state["next_deal"] <= clock[0]:
        keys = DEALS[state["deal"]]
        t = state["next_deal"]
        if power_ref and power_ref[0].state != 0:  # dimmed or off: a press to wake it
            keys = WAKE_KEY + keys
            state["wake_presses"] += 1
        for ch in keys:
            row, col, long = PINS[ch]
            hold = LONG_HOLD_MS if long else HOLD_MS
            events.append([t, t + hold, row, col])
            t += hold + PACE_MS - HOLD_MS
            state["presses"] += 1
        state["deal"] += 1
        state["next_deal"] += DEAL_S * 1000


def _next_down():
    """The next key-down time after now (a deal's first press counts when it is due)."""
    now = clock[0]
    for i in range(state["at"], len(events)):
        if events[i][0] > now:
            return events[i][0]
    if state["deal"] < len(DEALS):
        return state["next_deal"]
    return None


def _held():
    """(row, column) of the key held now, or None."""
    _deal_events()
    now = clock[0]
    at = state["at"]
    while at < len(events) and events[at][1] <= now:
        at += 1
    state["at"] = at
    if at < len(events) and events[at][0] <= now:
        return events[at][2], events[at][3]
    return None


_pin_value = machine.Pin.value


def _value(self, v=None):
    if v is not None:
        return _pin_value(self, v)
    held = _held()
    if held is not None and self.id == held[1]:
        row = held[0]
        if row is None or machine.pins[row].level == 0:
            return 0
    return self.level


machine.Pin.value = _value

# ---- the clock, the sleeps and what they measure ----------------------------------------

spans = {}  # ms per panel state
wakes = {}  # loop wake-ups (sleeps) per panel state
lit_ms = {}  # lit share x ms per panel state
cpu = {"awake": 0, "light": 0}
lit = [0.0]  # lit share of the frame on the panel
lightsleeps = [0]
key_wakes = [0, 0, -1]  # light sleeps a key ended; the most bytes a turn after one sent; bus mark


def _bus_bytes():
    return sum(b.sent for b in machine.buses)


def _turn_after_wake_ends():
    """The loop blocks again: the turn after a key's wake is over; its bytes are counted."""
    if key_wakes[2] >= 0:
        key_wakes[1] = max(key_wakes[1], _bus_bytes() - key_wakes[2])
        key_wakes[2] = -1


def _advance(ms, light):
    ms = max(0, min(ms, EVENING_S * 1000 - clock[0]))  # the evening ends at its hour
    st = STATES[power_ref[0].state] if power_ref else "bright"
    spans[st] = spans.get(st, 0) + ms
    wakes[st] = wakes.get(st, 0) + 1
    lit_ms[st] = lit_ms.get(st, 0) + lit[0] * ms
    cpu["light" if light else "awake"] += ms
    clock[0] += ms


def _lightsleep(ms=None):
    _turn_after_wake_ends()
    lightsleeps[0] += 1
    _deal_events()
    end = clock[0] + ms
    key = _next_down()
    if key is not None and key < end:  # the key wake source ends the sleep
        end = key
        key_wakes[0] += 1
    _advance(max(0, end - clock[0]), True)
    if end == key:
        key_wakes[2] = _bus_bytes()


def _deepsleep(ms=None):
    pass  # Power.update() records DEEP; the board would reboot on the next key


machine.lightsleep = _lightsleep
machine.deepsleep = _deepsleep


class _Esp32:
    """The esp32 module as parts.py asks it for a key wake source."""

    @staticmethod
    def wake_on_gpio(pins, level):
        pass


sys.modules["esp32"] = _Esp32

import hw.power  # noqa: E402


def _plain_sleep(ms):  # the loop's waits with the panel bright or a key busy
    _turn_after_wake_ends()
    _advance(ms, False)


hw.power.sleep_ms = _plain_sleep

_BITS = bytes([bin(i).count("1") for i in range(256)])


def _watch_frames(display):
    show = display.show

    def counted():
        r = show()
        _count(display)
        return r

    display.show = counted
    _count(display)  # the frame the boot drew


def _count(display):
    n = 0
    for b in display.buffer:
        n += _BITS[b]
    lit[0] = n / (len(display.buffer) * 8)


import startup  # noqa: E402

_boot = startup.boot


def _booted(*args):
    out = _boot(*args)
    cfg, keys, power, app, club, wdt, nap = out
    power_ref.append(power)
    naps.append(nap)
    _watch_frames(power._display)
    if CLUB:
        from net import mqtt
        from net.clublink import Club

        class _Link:
            state = mqtt.UP

            def due(self):
                return False

        class _ClubUp:
            link = _Link()
            wait_ms = Club.wait_ms

            def poll(self, now):
                pass

        club = _ClubUp()
    return cfg, keys, power, app, club, wdt, nap


startup.boot = _booted
if CLUB:  # the club file the boot looks for (loop.CLUB_FILE); no WiFi name: no network
    with open("club.json", "w") as f:
        json.dump({"table": "1", "broker": "127.0.0.1"}, f)
if SETTINGS:  # the player's settings, on the flash before the boot
    import os

    from session import Session
    from store.journal import Store

    Session(Store("data", os)).save_settings(SETTINGS[0])

import loop  # noqa: E402

loop.time = FakeTime
app = loop.run(seconds=EVENING_S)
power = power_ref[0]
state_now = app.match.state
deals = state_now.deals() if state_now is not None else 0
if deals != EXPECT_DEALS or state["deal"] != len(DEALS):
    raise SystemExit("evening: %d deals on the device, %d expected (%d of %d typed)"
                     % (deals, EXPECT_DEALS, state["deal"], len(DEALS)))
print(json.dumps({
    "ms": {s: spans.get(s, 0) for s in STATES},
    "lit": {s: (lit_ms.get(s, 0) / spans[s] if spans.get(s) else 0.0) for s in STATES},
    "wakeups": {s: wakes.get(s, 0) for s in STATES},
    "cpu_ms": cpu, "lightsleeps": lightsleeps[0], "deepsleeps": power.deepsleeps,
    "turns": loop.turns, "presses": state["presses"], "wake_presses": state["wake_presses"],
    "key_wakes": key_wakes[0], "wake_turn_bytes": key_wakes[1], "nap_ms": naps[0],
    "deals": len(DEALS), "deal_s": DEAL_S, "evening_s": EVENING_S,
    "contrast": power.contrast, "dim_contrast": power.dim_contrast,
    "panel_bytes": sum(b.sent for b in machine.buses), "club": CLUB,
    "keys": _keys["type"], "settings": SETTINGS[0] if SETTINGS else {},
    "scan_ms": power.scan_ms, "dim_s": power.dim_ms // 1000}))
