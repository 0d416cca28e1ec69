"""Start the scorekeeper on a board: boot (startup.py), then run the loop.

With main.py, startup.py and parts.py, the only files that know both the board (pins,
display, keys) and the app. Everything else takes its hardware as arguments. It lives here,
compiled to .mpy, rather than in main.py: the board compiles a .py file at every boot and
keeps its bytecode in the heap.

The boot is startup.py's: board.json is checked first (boardcheck.py). A bad file is
reported on the serial console, and on the display too when its display part is good; then
run() returns to the REPL (no crash loop: fix the file with mpremote and reset). The parts
are built next (parts.py; a panel that does not answer is said once on the console, beeped
and tried again every few seconds until it does: startup.wait_for_panel), the app on its
store by wiring.py (the wiring the simulator and the browser use too), then the idle
policy, and last the watchdog (startup.watchdog). All of that is the loader's "boot" job,
dropped from RAM once the boot is done: what stays of the start is this module, the loop.

The loop, one turn (the one place it is written; docs/architecture.md follows a key press
through it):

    now = time.ticks_ms()
    ev = keys.poll(now)                    # (name, PRESS or LONG) or None
    power.watch(now, keys.any_down())      # light the panel on key down
    if ev and not power.key(now):          # a press that only woke the device does nothing
        app.press(name, long)              # the key, App.settle(), a frame
    ticker.poll(now)                       # the club link's step, the cell's reading
    power.update(now)                      # dim / panel off / deep sleep when due
    app.render()                           # a frame if the ticker changed anything
    wdt.feed()                             # the watchdog: fed here and nowhere else
    power.sleep(min(power.wait_ms(now, keys.idle()), ticker.wait_ms(), nap))

`ticker` is what the loop gives a step each turn besides the keys: anything with
poll(now) and wait_ms() (the longest the loop may sleep before its next step). It is the
club link (club night only), or ui/cellwatch.py's CellWatch on a board that reads its cell,
which reads the cell a minute apart and gives the link (if any) its step; None on a board
with neither, and then the loop holds none of that code.

main.py calls run(). Tests call run(loops=N): N turns of the loop, then it returns the app.
"""

import gc

gc.collect()

import machine  # noqa: E402
import time  # noqa: E402

CLUB_FILE = "club.json"  # club night: the broker, table id and credentials (docs/club.md)
turns = 0  # the loop's turns when run() returned (its tests count them)
# What the loop held (keys, power, ticker) when run() returned, kept so that a heap
# measured after it counts them as a board's does.
held = None


def make_buzzer(cfg):
    pin = cfg.get("buzzer")
    if pin is None:
        return None
    pwm = machine.PWM(machine.Pin(pin), freq=2000, duty_u16=0)
    # refused, deal over, -, match over, no panel (startup.py: three times)
    tones = ((220, 80), (880, 60), (0, 0), (1320, 200), (330, 150))

    def beep(kind):
        freq, ms = tones[kind]
        if freq:
            pwm.freq(freq)
            for _ in range(3 if kind == 4 else 1):
                pwm.duty_u16(20000)
                time.sleep_ms(ms)
                pwm.duty_u16(0)
                if kind == 4:
                    time.sleep_ms(ms)

    return beep


def run(loops=None, board="board.json", seconds=None, trial=None):
    """Boot and run the loop (forever, `loops` turns, or `seconds` of wall time). Returns
    the app (and `turns`, the turns made), or None when the board file is bad. trial: a
    new version's Trial (update/boot.py, from main.py), told of each key handled until it
    is confirmed."""
    import startup  # the boot: its code is heap, given back once the boot is done

    # The data folder is relative to the working directory: "/" on the board.
    booted = startup.boot(board, "data", CLUB_FILE, make_buzzer)
    del startup
    from loader import drop

    drop("boot")
    if booted is None:
        return None
    cfg, keys, power, app, ticker, wdt, nap = booted
    gc.collect()
    from hw.keys import LONG

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
            app.press(ev[0], ev[1] == LONG)
            if trial is not None:
                trial.key(now)  # handled: a new version's trial counts it (update/boot.py)
        if ticker is not None:
            ticker.poll(now)
        power.update(now)
        app.render()
        wait = power.wait_ms(now, keys.idle())
        if ticker is not None:
            wait = min(wait, ticker.wait_ms())
        if wdt is not None:
            wdt.feed()  # here only: a turn that hangs stops it (startup.watchdog)
            wait = min(wait, nap)
        power.sleep(wait)
        if trial is not None and trial.due(now):
            trial = None  # confirmed: the version is the board's
        n += 1
    global turns, held
    turns = n
    held = (keys, power, ticker)
    return app
