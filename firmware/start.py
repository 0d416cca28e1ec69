"""Start the scorekeeper on a board: check board.json, build the parts, run the loop.

With main.py, the only file that knows both the board (pins, display, keys) and
the app. Everything else takes its hardware as arguments. It lives here, compiled
to .mpy, rather than in main.py: the board compiles a .py file at every boot and
keeps its bytecode in the heap.

At boot board.json is checked first (boardcheck.py). A bad file is reported on the serial
console, and on the display too when its display part is good; then run() returns to the
REPL (no crash loop: fix the file with mpremote and reset).

main.py calls run(). Tests call run(loops=N): N turns of the loop, then it returns the app.
"""

import gc

gc.collect()

import machine  # noqa: E402
import time  # noqa: E402

BOARD_FILE = "board.json"
CLUB_FILE = "club.json"  # club night: the broker, table id and credentials (docs/club.md)
DATA = "data"  # relative to the working directory: "/" on the board


def make_display(cfg):
    d = cfg["display"]
    reset = d.get("reset")
    reset = machine.Pin(reset, machine.Pin.OUT, value=1) if reset is not None else None
    if d.get("bus") == "spi":  # the 7-pin module: SPI(2) routed to the board file's pins
        from hw.display_spi import SPIDisplay

        pin = machine.Pin
        spi = machine.SPI(2, baudrate=d.get("freq", 4000000), sck=pin(d["sck"]),
                          mosi=pin(d["mosi"]), miso=None)  # None: no pin taken for MISO
        gc.collect()
        return SPIDisplay(spi, pin(d["dc"], pin.OUT, value=0), pin(d["cs"], pin.OUT, value=1),
                          d["chip"], reset, d.get("rotate", False))
    from hw.display import Display

    i2c = machine.I2C(0, sda=machine.Pin(d["sda"]), scl=machine.Pin(d["scl"]),
                      freq=d.get("freq", 400000))
    addr = d.get("addr", 0x3C)
    if isinstance(addr, str):  # "0x3C" (boardcheck has checked it)
        addr = int(addr, 16)
    gc.collect()  # the frame buffers want one contiguous block each
    try:
        return Display(i2c, addr, d["chip"], reset, d.get("rotate", False))
    except OSError:
        found = i2c.scan()
        print("display: no answer at 0x%02X on SDA %d / SCL %d; the bus has %s"
              % (addr, d["sda"], d["scl"],
                 ", ".join("0x%02X" % a for a in found) if found else "no device"))
        raise


def make_keys(cfg):
    """(key source, layout name, the pins that can wake the chip)."""
    from hw.keys import Buttons, Keypad

    k = cfg["keys"]
    pin = machine.Pin
    if k["type"] == "keypad":
        rows = [pin(p, pin.OPEN_DRAIN, value=1) for p in k["rows"]]
        cols = [pin(p, pin.IN, pin.PULL_UP) for p in k["cols"]]
        return Keypad(rows, cols, k.get("layout", "123A/456B/789C/*0#D")), "keypad", cols
    names = ("UP", "DOWN", "OK", "BACK")
    pins = [pin(k["pins"][n], pin.IN, pin.PULL_UP) for n in names]
    return Buttons(pins, names), "buttons", pins


def make_buzzer(cfg):
    pin = cfg.get("buzzer")
    if pin is None:
        return None
    pwm = machine.PWM(machine.Pin(pin), freq=2000, duty_u16=0)
    tones = ((220, 80), (880, 60), (0, 0), (1320, 200))  # refused, deal over, -, match over

    def beep(kind):
        freq, ms = tones[kind]
        if freq:
            pwm.freq(freq)
            pwm.duty_u16(20000)
            time.sleep_ms(ms)
            pwm.duty_u16(0)

    return beep


def make_wake(cfg, keys, layout, pins):
    """The Power `wake` argument: None unless the board file asks for it and it works."""
    if not cfg.get("wake"):
        return None
    from hw.power import wake_on_keys

    try:
        import esp32
    except ImportError:
        esp32 = None
    try:
        wake_on_keys(machine, pins, 0, esp32)
    except (ValueError, OSError, AttributeError) as e:
        print("wake on keys not available (%s): short naps instead" % e)
        return None
    return keys.arm_wake if layout == "keypad" else True


def report(cfg, errors):
    """Board file problems: always on the console, on the panel when its part is good."""
    from boardcheck import check_display

    print("%s: %d problem%s:" % (BOARD_FILE, len(errors), "" if len(errors) == 1 else "s"))
    for e in errors:
        print("  " + e)
    print("Fix %s (see docs/boards.md) and reset." % BOARD_FILE)
    if cfg is None or check_display(cfg):
        return
    try:
        d = make_display(cfg)
    except Exception as e:  # the panel is a courtesy here: the console has it all
        print("display:", e)
        return
    d.fill(0)
    d.text(BOARD_FILE + ":", 0, 0, 1)
    y = 10
    for e in errors:
        while e and y <= 56:
            d.text(e[:16], 0, y, 1)
            e = e[16:]
            y += 8
    d.show()


def make_club(cfg, session, app):
    """The club-night link, or None. Its code (net/) is imported only on a board with WiFi
    and a club file: on every other board it costs no heap at all."""
    import os

    if not cfg.get("wifi"):
        return None
    try:
        os.stat(CLUB_FILE)
    except OSError:
        return None
    import json
    import socket

    from hw.storage import Store
    from net.club import Club

    try:
        with open(CLUB_FILE) as f:
            club = json.load(f)
        wlan = None
        if club.get("ssid"):
            import network

            wlan = network.WLAN(network.STA_IF)
        gc.collect()
        return Club(club, session, app, Store("outbox", os), socket, wlan, time.ticks_ms())
    except (ValueError, KeyError, TypeError, OSError) as e:
        print("%s: %r; no club results" % (CLUB_FILE, e))  # the table still keeps score
        app.say(CLUB_FILE + ": bad")
        return None


def run(loops=None, board=BOARD_FILE, seconds=None):
    """Boot and run the loop (forever, `loops` turns, or `seconds` of wall time). Returns
    the app, with app.loops the turns made, or None when the board file is bad."""
    import os
    import sys

    import boardcheck

    cfg, errors = boardcheck.load(board)
    if cfg is None or errors:
        report(cfg, errors)
        return None
    del boardcheck
    sys.modules.pop("boardcheck")  # its code is heap: give it back before the app loads
    gc.collect()

    from app.session import Session
    from hw.keys import LONG
    from hw.power import Power
    from hw.storage import Store
    from ui.app import App
    from ui.text import board_font

    display = make_display(cfg)
    keys, layout, wake_pins = make_keys(cfg)
    session = Session(Store(DATA, os))
    app = App(display, session, board_font(), layout, buzzer=make_buzzer(cfg))
    app.boot()
    display.contrast(app.settings["contrast"])
    power = Power(display, app.settings, machine, make_wake(cfg, keys, layout, wake_pins))
    club = make_club(cfg, session, app)
    app.render()
    gc.collect()
    print("scorekeeper: %s; heap free %d" % (cfg["name"], gc.mem_free()))
    power.start(time.ticks_ms())
    n = 0
    start = time.ticks_ms()
    while loops is None or n < loops:
        if seconds is not None and time.ticks_diff(time.ticks_ms(), start) >= seconds * 1000:
            break
        now = time.ticks_ms()
        ev = keys.poll(now)
        power.watch(now, keys.any_down())
        if ev is not None and not power.key(now):
            app.key(ev[0], ev[1] == LONG)
            power.configure(app.settings)
        if club is not None:
            club.poll(now)
        power.update(now)
        app.render()
        wait = power.wait_ms(now, keys.idle())
        if club is not None:
            wait = min(wait, club.wait_ms())
        power.sleep(wait)
        n += 1
    app.loops = n
    return app
