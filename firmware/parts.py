"""The board's parts, built from its checked board file: the display, the keys and waking
on a key, the club-night link; and the report of a bad board file.

loop.run() imports this module for the boot and drops it afterwards: on the board every
module's code lives in the heap, and none of this runs again before the next boot.
"""

import gc
import machine


def make_display(cfg):
    from loader import unload

    d = cfg["display"]
    reset = d.get("reset")
    reset = machine.Pin(reset, machine.Pin.OUT, value=1) if reset is not None else None
    try:
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
        display = Display(i2c, addr, d["chip"], reset, d.get("rotate", False))
        if display.lost:  # said once here; startup.py keeps trying
            try:
                found = ", ".join("0x%02X" % a for a in i2c.scan()) or "no device"
            except OSError as e:  # ETIMEDOUT: a line held low
                found = "no answer (%s)" % e
            print("display: no answer at 0x%02X on SDA %d / SCL %d; the bus has %s"
                  % (addr, d["sda"], d["scl"], found))
        return display
    finally:
        unload("hw.display_build")  # the panel's bring-up: boot-only code, like this module


def make_keys(cfg):
    """(key source, layout name, the Power `wake` argument). wake: None unless the board file
    asks for waking on a key and it works."""
    from loader import unload

    k = cfg["keys"]
    pin = machine.Pin
    if k["type"] == "keypad":  # only the board's own scanner is imported
        from hw.keypad import DEFAULT_LAYOUT, Keypad

        rows = [pin(p, pin.OPEN_DRAIN, value=1) for p in k["rows"]]
        pins = [pin(p, pin.IN, pin.PULL_UP) for p in k["cols"]]  # the columns wake
        keys = Keypad(rows, pins, k.get("layout", DEFAULT_LAYOUT))
        unload("hw.keys_build")  # the layout's reading: boot-only code, like this module
        layout = "keypad"
        wake = keys.arm_wake  # Power drives the rows low with it before a sleep
    else:
        from hw.buttons import Buttons

        names = ("UP", "DOWN", "OK", "BACK")
        pins = [pin(k["pins"][n], pin.IN, pin.PULL_UP) for n in names]
        keys = Buttons(pins, names)
        layout = "buttons"
        wake = keys.arm_wake  # it tells Power when a stuck button would end every sleep
    if not cfg.get("wake"):
        return keys, layout, None
    from hw.wake import wake_on_keys

    try:
        import esp32
    except ImportError:
        esp32 = None
    try:
        wake_on_keys(machine, pins, 0, esp32)
    except (ValueError, OSError, AttributeError) as e:
        print("wake on keys not available (%s): short naps instead" % e)
        return keys, layout, None
    finally:
        unload("hw.wake")  # boot-only code, like this module
    return keys, layout, wake


def report(cfg, errors, name):
    """Board file problems: always on the console, on the panel when its part is good."""
    from boardcheck import display_errors

    print("%s: %d problem%s:" % (name, len(errors), "" if len(errors) == 1 else "s"))
    for e in errors:
        print("  " + e)
    print("Fix %s (see docs/boards.md) and reset." % name)
    if cfg is None or display_errors(cfg):
        return
    try:
        d = make_display(cfg)
    except Exception as e:  # the panel is a courtesy here: the console has it all
        print("display:", e)
        return
    d.fill(0)
    d.text(name + ":", 0, 0, 1)
    y = 10
    for e in errors:
        while e and y <= 56:
            d.text(e[:16], 0, y, 1)
            e = e[16:]
            y += 8
    d.show()


def make_club(cfg, app, club_file, link_club, power=None):
    """The club-night link, or None; link_club: wiring.py's; power: the idle policy, told
    by a link that is up only to send when its WiFi is on (net/clubsend.py). Its code (net/)
    is imported only on a board with WiFi and a club file: on every other board it costs no
    heap at all."""
    import os

    if not cfg.get("wifi"):
        return None
    try:
        os.stat(club_file)
    except OSError:
        return None
    import json
    import socket
    from time import ticks_ms

    from net.mqtt import MQTT
    from store.journal import Store

    try:
        with open(club_file) as f:
            club = json.load(f)
        # WiFi always up (the default), or up only to send (net/clubsend.py), hearing the
        # club's news at least every news_s seconds
        if club.get("connect", "always") not in ("always", "to_send") or not 0 < club.get(
                "news_s", 600) < 86400:
            raise ValueError("connect: always or to_send; news_s: 1 to 86399")
        wlan = None
        if club.get("ssid"):
            import network

            wlan = network.WLAN(network.STA_IF)
        gc.collect()
        table = club["table"]
        link = MQTT("table-" + table, table, club.get("password"), club.get("keepalive", 30))
        return link_club(app, club, Store("outbox", os), link, ticks_ms(), socket, wlan,
                         power=power)
    except (ValueError, KeyError, TypeError, OSError) as e:
        print("%s: %r; no club results" % (club_file, e))  # the table still keeps score
        app.say(club_file + ": bad")
        return None
