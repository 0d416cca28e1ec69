"""Hours of play on a cell: the currents the estimate assumes, with their sources, and the
arithmetic that turns a measured evening into an average current.

tools/evening.py measures an evening on the device (the real main loop on a fake clock):
the time in each panel state, the CPU's time awake and in light sleep, the loop's wake-ups,
the lit-pixel share of the frames and the bytes sent to the panel. This module prices that
evening with the datasheet currents below; tools/bench.py reports the result for the
keypad and the four-button builds, with and without the club link. Nothing here is
measured on a board: the currents are datasheet figures and the assumptions named below.
Runs under CPython.
"""

# ---- ESP32 (ESP32-WROOM-32 on the DevKitC) ----------------------------------------------
# ESP32 Series Datasheet (Espressif), section "RTC and Low-Power Management", table
# "Power Consumption by Power Modes", dual-core chips. Modem-sleep is the CPU powered and
# clocked with the radio off: the low end of each range is the CPU idling, the high end
# the CPU running code.
CPU_MA = {80: (20.0, 31.0), 160: (27.0, 44.0), 240: (30.0, 68.0)}
CPU_MHZ = 160  # MicroPython's default CPU clock on the ESP32
LIGHT_SLEEP_MA = 0.8  # same table, light-sleep
DEEP_SLEEP_MA = 0.010  # same table, deep-sleep with the RTC timer and RTC memory
# The loop's own work, an assumption: a loop turn (key scan, idle policy, no frame) keeps
# the CPU busy about TURN_MS at 160 MHz; the panel's bytes keep it busy while the I2C bus
# clocks them out (9 bit times a byte at the board file's bus speed).
TURN_MS = 0.5
I2C_HZ = 400000

# Light sleep ended by a key: the time from the key's edge to the CPU running the loop again.
# ESP-IDF's "Sleep Modes" page gives no figure for the ESP32; a scope measurement of an
# ESP32-C3 at 160 MHz (the esp32.com forum, "ESP32-C3 Light Sleep Timing") shows about
# 0.5 ms. WAKE_MS allows four times that.
WAKE_MS = 2.0

# ---- Wi-Fi, the club link ---------------------------------------------------------------
# ESP-IDF Programming Guide for the ESP32, "Introduction to Low Power Mode in Wi-Fi
# Scenarios", the summary table (station connected, average currents). The table's station
# runs with power save (net/: WLAN.config(pm=PM_POWERSAVE), ESP-IDF's maximum modem sleep,
# which listens every third beacon): the table's DTIM3 column, Modem-sleep with the CPU on
# and Auto Light-sleep with the CPU paused between beacons. The DTIM1 column (MicroPython's
# default, minimum modem sleep) is kept for the comparison: 31.12 and 3.34 mA.
WIFI_MODEM_SLEEP_MA = 28.81
WIFI_LIGHT_SLEEP_MA = 2.33
WIFI_DTIM1_MODEM_SLEEP_MA = 31.12
WIFI_DTIM1_LIGHT_SLEEP_MA = 3.34
# The radio's share while the CPU is awake: the modem-sleep average over the idle CPU's
# own current (the datasheet's low end at 160 MHz).
WIFI_AWAKE_EXTRA_MA = WIFI_MODEM_SLEEP_MA - CPU_MA[160][0]
# Assumption: with the panel dimmed or off, the link stays associated through the loop's
# 0.5 s light sleeps (net/clublink.py Club.wait_ms) and costs what ESP-IDF measures for auto
# light sleep.
# club_awake (below) prices the other case, the CPU kept in modem sleep.

# ---- SSD1306 0.96" module ---------------------------------------------------------------
# SSD1306 datasheet (Solomon Systech, Rev 1.5), section 8.8 "SEG/COM Driving block": a lit
# segment draws ISEG = contrast / 256 x IREF x 8, 100 uA at contrast 255 with the
# recommended IREF of 12.5 uA. Rows are multiplexed (64), so the panel draws ISEG x lit
# pixels / 64 on average from VCC: ISEG x 128 x the lit share.
ISEG_MA_AT_255 = 0.100
COLUMNS = 128
# The module makes VCC (7.5 V) with the chip's charge pump from 3.3 V: at least 7.5 / 3.3
# times the panel current is drawn from the 3.3 V rail (no pump losses counted).
PUMP_FACTOR = 7.5 / 3.3
# Display on with nothing lit (logic, oscillator, charge pump): an allowance, the
# datasheet's no-load operating currents being well below it.
PANEL_BASE_MA = 1.0
PANEL_SLEEP_MA = 0.010  # display off (0xAE, sleep mode): the datasheet's sleep current

# ---- the DevKitC's supply -----------------------------------------------------------------
# AMS1117-3.3 (Advanced Monolithic Systems datasheet, electrical characteristics):
# quiescent current 5 mA typical, drawn from its input on top of the 3.3 V load.
REGULATOR_IQ_MA = 5.0
# The USB-UART bridge: nothing counted. On battery no USB host is attached; the DevKitC's
# power LED is not counted either (a meter on a real board will show it).
USB_UART_MA = 0.0
# The cell feeds the board's 5 V pin through a boost converter (an 18650 holder with a 5 V
# output, as the DevKitC's AMS1117 needs more than a Li-ion cell's 3.0-4.2 V): assumed
# 85 % efficient.
SUPPLY_V = 5.0
BOOST_EFFICIENCY = 0.85

DEFAULT_CELL = {"mAh": 2000, "V": 3.7, "kind": "18650 Li-ion"}
EVENING_H = 3


def cell_of(board):
    """The board file's "battery" entry, or DEFAULT_CELL."""
    return board.get("battery") or DEFAULT_CELL


def iseg_ma(contrast):
    """Segment current at a contrast setting (0-255)."""
    return ISEG_MA_AT_255 * contrast / 256.0


def panel_ma(lit, contrast):
    """The module's current from 3.3 V with the display on: lit share of the pixels
    (0..1) at the contrast."""
    return PANEL_BASE_MA + iseg_ma(contrast) * COLUMNS * lit * PUMP_FACTOR


def wake_to_frame_ms(turn_bytes, i2c_hz=I2C_HZ):
    """Key to frame after a light sleep, an estimate: the chip's wake (WAKE_MS), then the
    first loop turn (TURN_MS), which sees the key down and lights the panel (hw/power.py
    watch(): contrast and power commands), sending `turn_bytes` to the panel (measured by
    tools/evening.py: the most the turn after a key's wake sent all evening; 9 bit times a
    byte on the bus)."""
    return WAKE_MS + TURN_MS + turn_bytes * 9 * 1000.0 / i2c_hz


def evening(ev, cell, cpu_mhz=CPU_MHZ, club_awake=False):
    """Price an evening measured by tools/evening.py (its JSON, parsed): the average
    current on each rail and from the cell, the time share of each state, hours of play
    and evenings per charge on `cell` ({"mAh", "V"})."""
    total = float(ev["evening_s"] * 1000)
    ms = ev["ms"]
    awake_ms = ev["cpu_ms"]["awake"]
    light_ms = ev["cpu_ms"]["light"]
    idle, busy = CPU_MA[cpu_mhz]
    # the CPU: idle between scans, busy for its turns and while frames go out
    busy_ms = ev["turns"] * TURN_MS + ev["panel_bytes"] * 9 * 1000.0 / I2C_HZ
    busy_share = min(1.0, busy_ms / awake_ms) if awake_ms else 0.0
    cpu_awake = idle + (busy - idle) * busy_share
    if ev["club"]:
        cpu_awake += WIFI_AWAKE_EXTRA_MA
        light = cpu_awake if club_awake else WIFI_LIGHT_SLEEP_MA
    else:
        light = LIGHT_SLEEP_MA
    # deep sleep: the fake machine's deepsleep() returns and the loop naps on; on a board
    # the chip sleeps at the deep-sleep current instead
    light_ms = max(0, light_ms - ms["deep"])
    esp_mah_ms = cpu_awake * awake_ms + light * light_ms + DEEP_SLEEP_MA * ms["deep"]
    # a wake-up from light sleep runs a loop turn at the busy current
    esp_mah_ms += ev["lightsleeps"] * TURN_MS * (busy - light)
    bright = panel_ma(ev["lit"]["bright"], ev["contrast"])
    dim = panel_ma(ev["lit"]["dim"], ev["dim_contrast"])
    panel_mah_ms = (bright * ms["bright"] + dim * ms["dim"] +
                    PANEL_SLEEP_MA * (ms["off"] + ms["deep"]))
    esp = esp_mah_ms / total
    panel = panel_mah_ms / total
    rail = esp + panel  # the 3.3 V rail
    board = rail + REGULATOR_IQ_MA + USB_UART_MA  # into the regulator, at 5 V
    cell_ma = board * SUPPLY_V / (cell["V"] * BOOST_EFFICIENCY)
    hours = cell["mAh"] / cell_ma
    return {
        "esp32_ma": round(esp, 3), "panel_ma": round(panel, 3), "rail_3v3_ma": round(rail, 3),
        "board_5v_ma": round(board, 3), "cell_ma": round(cell_ma, 3),
        "hours": round(hours, 2), "evenings": round(hours / EVENING_H, 2),
        "share": {s: round(ms[s] / total, 4) for s in ("bright", "dim", "off", "deep")},
        "cpu_share": {"awake": round(awake_ms / total, 4), "light": round(light_ms / total, 4)},
        "cpu_awake_ma": round(cpu_awake, 3), "cpu_busy_share": round(busy_share, 4),
        "panel_bright_ma": round(bright, 3), "panel_dim_ma": round(dim, 3),
        "cell": cell, "cpu_mhz": cpu_mhz,
    }
