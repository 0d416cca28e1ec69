"""Start the scorekeeper on a board: check board.json, build the parts, run the loop.

With main.py, the only file that knows both the board (pins, display, keys) and
the app. Everything else takes its hardware as arguments. It lives here, compiled
to .mpy, rather than in main.py: the board compiles a .py file at every boot and
keeps its bytecode in the heap.

At boot board.json is checked first (boardcheck.py). A bad file is reported on the serial
console, and on the display too when its display part is good; then run() returns to the
REPL (no crash loop: fix the file with mpremote and reset). The parts are built by
parts.py. Both modules are dropped from RAM once the boot is done.

main.py calls run(). Tests call run(loops=N): N turns of the loop, then it returns the app.
"""

import gc

gc.collect()

import machine  # noqa: E402
import time  # noqa: E402

BOARD_FILE = "board.json"
CLUB_FILE = "club.json"  # club night: the broker, table id and credentials (docs/club.md)
DATA = "data"  # relative to the working directory: "/" on the board


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


def run(loops=None, board=BOARD_FILE, seconds=None):
    """Boot and run the loop (forever, `loops` turns, or `seconds` of wall time). Returns
    the app, with app.loops the turns made, or None when the board file is bad."""
    import os
    import sys

    import boardcheck

    cfg, errors = boardcheck.load(board)
    if cfg is None or errors:
        import parts

        parts.report(cfg, errors, board)
        return None
    del boardcheck
    sys.modules.pop("boardcheck")  # its code is heap: give it back before the app loads
    gc.collect()

    import parts

    display = parts.make_display(cfg)
    keys, layout, wake_pins = parts.make_keys(cfg)
    wake = parts.make_wake(cfg, keys, layout, wake_pins)
    del parts
    sys.modules.pop("parts")
    gc.collect()

    from app.session import Session
    from hw.compat import unload
    from hw.keys import LONG
    from hw.power_build import make_power
    from hw.storage import Store
    from ui.app import App
    from ui.text import board_font

    session = Session(Store(DATA, os))
    app = App(display, session, board_font(), layout, buzzer=make_buzzer(cfg))
    app.boot()
    display.contrast(app.settings["contrast"])
    power = make_power(display, app.settings, machine, wake)
    del make_power
    unload("hw.power_build")  # boot-only code, like parts.py
    import parts  # again, for the club link: dropped again straight after

    club = parts.make_club(cfg, session, app, CLUB_FILE)
    del parts
    sys.modules.pop("parts")
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
