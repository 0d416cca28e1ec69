"""The battery gauge's driver, for a board whose file names the cell's sense pin
(battery.adc): the cell's voltage through the board's divider, and its charge by a Li-ion
curve. What the charge means for play (the words, the checkpoint, the deep sleep) is the
App's (ui/app_cell.py); ui/cellwatch.py reads the gauge a minute apart and hands the
charge over.

Loaded for one check and dropped again (the loader's "gauge" job). The curve is a cell's
voltage at rest; under the board's load it reads a little low, which errs on the side of
stopping early. Runs on MicroPython and CPython (the tests).
"""

from compat import const

# A Li-ion cell's open-circuit voltage in mV at 100, 90, ..., 10, 0 % charge: the default
# single-cell Li-ion curve of the Meshtastic firmware's power code (its OCV_ARRAY).
_CURVE = const((4190, 4050, 3990, 3890, 3800, 3720, 3630, 3530, 3420, 3300, 3100))
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


def after_deep_sleep(machine):
    """True when this boot woke from a deep sleep (reset_cause() says so on a board)."""
    cause = getattr(machine, "reset_cause", None)
    return cause is not None and cause() == getattr(machine, "DEEPSLEEP_RESET", -1)
