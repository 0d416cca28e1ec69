"""The battery gauge, for a board whose file names the cell's sense pin (battery.adc).

hw/cellwatch.py loads this module for one check a minute and drops it again (the loader's
"gauge" job): nothing of it stays in RAM during play but the charge on the app
(app.battery, set by the first check, which the scoreboard draws as a small gauge). A check
reads the cell through the board's divider, turns the voltage into a charge with a Li-ion
curve, and:

- at WARN % or below, says "battery low" once (on the way down);
- at EMPTY % or below, writes the match's checkpoint, says "charge me" on the scoreboard
  (the panel keeps the picture, dimmed, while the chip sleeps) and deep-sleeps for SLEEP_MS;
  the chip then boots again as after a reset, the match comes back from the flash, and the
  first check sleeps again unless the cell is above RESUME % (charged, or charging).

The curve is a cell's voltage at rest; under the board's load it reads a little low, which
errs on the side of stopping early. Runs on MicroPython and CPython (the tests).
"""

from compat import const

# A Li-ion cell's open-circuit voltage in mV at 100, 90, ..., 10, 0 % charge: the default
# single-cell Li-ion curve of the Meshtastic firmware's power code (its OCV_ARRAY).
_CURVE = const((4190, 4050, 3990, 3890, 3800, 3720, 3630, 3530, 3420, 3300, 3100))
WARN = 10
EMPTY = 3
RESUME = 5  # after a deep sleep at EMPTY: the play resumes above this
SLEEP_MS = 600000  # the deep sleep at EMPTY, then a check again
SAMPLES = 8  # readings averaged a check (the ESP32's ADC is noisy)


def percent(mv):
    """The charge (0-100) of a Li-ion cell at mv millivolts, linear between the curve's
    points."""
    c = _CURVE
    if mv >= c[0]:
        return 100
    for i in range(1, len(c)):
        lo = c[i]
        if mv >= lo:
            hi = c[i - 1]
            return 100 - 10 * i + (mv - lo) * 10 // (hi - lo)
    return 0


def read_mv(machine, battery):
    """The cell's voltage in mV: the sense pin's (calibrated, 0-3.1 V at 11 dB) times the
    divider. The divider's switch (adc_on) is driven low and left low: on the Heltec the
    same line switches the board's Vext rail, which may feed other parts; the divider then
    draws about 13 uA (4.2 V over 320 kOhm)."""
    on = battery.get("adc_on")
    if on is not None:
        machine.Pin(on, machine.Pin.OUT, value=0)
    adc = machine.ADC(machine.Pin(battery["adc"]), atten=machine.ADC.ATTN_11DB)
    uv = 0
    for _ in range(SAMPLES):
        uv += adc.read_uv()
    return int(uv * battery["divider"]) // (SAMPLES * 1000)


def check(machine, battery, app):
    """One check: the charge on the app, the warning, the deep sleep at EMPTY."""
    from ui.i18n import t

    was = getattr(app, "battery", None)  # set here: only a board with a gauge has it
    pct = percent(read_mv(machine, battery))
    if pct != was:
        app.battery = pct
        app.dirty = True
    if pct <= EMPTY or (was is None and pct <= RESUME and _after_empty(machine)):
        empty(machine, app)
    elif pct <= WARN and (was is None or was > WARN):
        app.say(t("battery low"))


def _after_empty(machine):
    """Woken from the deep sleep at EMPTY (a board: reset_cause() says deep sleep)."""
    cause = getattr(machine, "reset_cause", None)
    return cause is not None and cause() == getattr(machine, "DEEPSLEEP_RESET", -1)


def empty(machine, app):
    """The checkpoint, "charge me" on the scoreboard, the deep sleep."""
    from ui.i18n import t

    checkpoint(app.session)
    app.say(t("charge me"))
    app.render()
    app.fb.contrast(0)  # the panel keeps the picture, as dim as it goes
    machine.deepsleep(SLEEP_MS)  # on the board: no return; the next boot restores


def checkpoint(session):
    """Write the match as a checkpoint now (the journal's lines folded in), so the boot
    after the charge has nothing to replay. Every action is on flash already: a failed
    write loses nothing."""
    import session as pkg

    m = session.match
    if m.state is None:
        return
    try:
        session.store.checkpoint(session._summary(m, session.match_id))
    except (OSError, ValueError):
        pass
    finally:
        pkg._drop_saved()
