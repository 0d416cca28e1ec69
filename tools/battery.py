"""Hours of play on a cell: the currents the estimate assumes, with their sources, and the
arithmetic that turns a measured evening into an average current.

tools/evening.py measures an evening on the device (the real main loop on a fake clock):
the time in each panel state, the CPU's time awake and in light sleep, the loop's wake-ups,
the lit-pixel share of the frames and the bytes sent to the panel. This module prices that
evening with the datasheet currents below and the board file's cell ("battery") and supply
(the regulator's quiescent current and the power LED's); tools/bench.py reports the result
for the keypad and the four-button builds, with and without the club link, the keypad
build with each saving, and the club link up only to send (wifi_per_deal(), with its
sessions measured on the firmware by tools/bench.py). Nothing here is measured on a board:
the currents are datasheet figures and the assumptions named below. Runs under CPython.
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
# An estimate, not a measurement: ESP-IDF's "Sleep Modes" page gives no figure for the ESP32;
# a scope measurement of an ESP32-C3 at 160 MHz (the esp32.com forum, "ESP32-C3 Light Sleep
# Timing") shows about 0.5 ms. WAKE_MS allows four times that. Only a board on a scope can
# measure it (the host has no light sleep to time).
WAKE_MS = 2.0

# ---- Wi-Fi, the club link ---------------------------------------------------------------
# ESP-IDF Programming Guide for the ESP32, "Introduction to Low Power Mode in Wi-Fi
# Scenarios", the summary table (station connected, average currents; the modem-sleep
# table beside it: 160 MHz, DFS off). The table's station runs with power save (net/:
# WLAN.config(pm=PM_POWERSAVE), ESP-IDF's maximum modem sleep, which listens every third
# beacon): the DTIM3 column. The DTIM1 column (MicroPython's default, minimum modem sleep)
# is kept for the comparison: 31.12 mA.
WIFI_MODEM_SLEEP_MA = 28.81
WIFI_DTIM1_MODEM_SLEEP_MA = 31.12
# Auto light sleep keeps the association with the CPU paused between beacons (same table),
# but only ESP-IDF's power management enters it; an explicit light sleep (what
# machine.lightsleep() is) powers the radio down and the association is lost (ESP-IDF,
# "Sleep Modes"). So the firmware never light-sleeps while the club link is up (hw/power.py,
# Power's `wifi`): the CPU idles awake all evening in modem sleep. Kept for the docs only.
WIFI_AUTO_LIGHT_SLEEP_MA = 2.33
# The radio's share while the CPU is awake: the modem-sleep average over the idle CPU's
# own current (the datasheet's low end at 160 MHz).
WIFI_AWAKE_EXTRA_MA = WIFI_MODEM_SLEEP_MA - CPU_MA[160][0]

# The club link up only to send (net/clubsend.py, club.json "connect": "to_send"; priced by
# wifi_per_deal()): WiFi up only for a session that sends the results and hears the club's
# news and offers (retained, so heard at each session), the chip light-sleeping as without
# the club link in between. A session is two parts:
# - joining the network: the start of the radio, the scan and WPA2 handshake, DHCP. Not
#   measurable here (no radio): WIFI_JOIN_S, a cited input. A scope capture of an ESP32
#   waking and making a TCP connection with every WiFi parameter given (channel, BSSID,
#   static IP, an open network) shows about 200 ms (T. von Eicken, "ESP32 Deep-Sleep with
#   Periodic Wake-up", 2018); WPA2 and DHCP take longer: 2 s allowed, ten times that.
# - the MQTT part (connect, the subscriptions and the retained news, the results, their
#   PUBACKs and the service's ack, the quiet grace, the disconnect) and the sessions per
#   deal: MEASURED by tools/bench.py on the firmware itself (tools/club_battery.py: the real
#   loop.run() on the unix port against Mosquitto and the standings service), on loopback.
# The current while a session is up: the ESP32 Series Datasheet's "RF Power-Consumption
# Specifications" give 95-100 mA receiving and 180-240 mA transmitting (802.11n MCS7 to
# 802.11b at full power); a session listens far more than it sends: 120 mA.
WIFI_JOIN_S = 2.0
WIFI_CONNECT_MA = 120.0

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

# ---- the supply -----------------------------------------------------------------------
# The board file's "supply": the regulator's quiescent current ("iq_mA", drawn from its
# input on top of the load) and the power LED's current ("led_mA"), both counted at the
# regulator's input. The DevKitC's: AMS1117-3.3 (Advanced Monolithic Systems datasheet,
# electrical characteristics: quiescent current 5 mA typical) and a red power LED on the
# 3.3 V rail, 1 mA (an estimate from its resistor; a meter on a real board settles it).
# The USB-UART bridge: nothing counted (no USB host on battery: it sits in suspend).
#
# The cell feeds the board's 5 V pin through a boost converter (an 18650 holder with a 5 V
# output, as the DevKitC's AMS1117 needs more than a Li-ion cell's 3.0-4.2 V). Its
# efficiency depends on the load: the loss is taken as a fixed part (switching and control,
# BOOST_NOLOAD_MA from the cell) plus a share of the power (BOOST_EFFICIENCY_MAX, the
# efficiency at hundreds of mA). No datasheet curve at a load of 10-40 mA was found for the
# converters of the common 18650 holders, so both are assumed, chosen to err low: they give
# about 76 % at the keypad build's 11 mA (where 85 % was assumed before) and 85 % at the
# club link's 36 mA. A converter that skips pulses at light load (PFM) loses much less than
# 3 mA with nothing to power, so a holder with one plays longer than these rows say.
SUPPLY_V = 5.0
BOOST_EFFICIENCY_MAX = 0.90
BOOST_NOLOAD_MA = 3.0

# ---- levers: what a board or the firmware could change, priced on a measured evening --
# A regulator with a quiescent current in uA instead of the AMS1117's 5 mA: the AP2112K-3.3
# (Diodes Incorporated, AP2112 datasheet, "Electrical Characteristics": quiescent current
# 55 uA typical, 600 mA output, dropout 250 mV typical at 600 mA). The DevKitC does not
# carry one; a board that does, with its cell's jack on the regulator's input (the cell
# feeds the LDO directly, no boost converter: supply_from "cell" in evening()), is not one
# of this project's boards.
REGULATORS = {"AMS1117-3.3": 5.0, "AP2112K-3.3": 0.055}
# The club link's listen interval: ESP-IDF's summary table (above) at DTIM10, modem sleep:
# 29.66 mA, more than DTIM3's 28.81 (the CPU's idle current is most of it either way).
WIFI_DTIM10_MODEM_SLEEP_MA = 29.66

from targets import TARGETS  # noqa: E402 (the goals, beside the model's inputs)

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


# Whether a board's power LED can be taken off (the LED lever), by the board file's name:
# the DevKitC's LED and its resistor are parts on the 3.3 V rail with no jumper, so they can
# be desoldered. Kept here, not in the board file: the board parses its file at boot, and a
# field there (with its check) cost the 32-bit heap peak 208 B for a figure only the bench
# uses.
LED_REMOVABLE = ("ESP32 DevKitC",)


def supply_of(board):
    """The board file's "supply" ({"iq_mA", "led_mA"}) with "led_removable" (LED_REMOVABLE):
    a board without one cannot be priced."""
    supply = board.get("supply")
    if supply is None:
        raise ValueError("%s: no \"supply\" (iq_mA, led_mA) in the board file" %
                         board.get("name"))
    return dict(supply, led_removable=board.get("name", "").startswith(LED_REMOVABLE))


def boost(board_ma, cell_v):
    """(the cell's current in mA, the converter's efficiency) for `board_ma` drawn at
    SUPPLY_V: the power over BOOST_EFFICIENCY_MAX plus the fixed loss."""
    out = board_ma * SUPPLY_V
    cell_ma = out / (cell_v * BOOST_EFFICIENCY_MAX) + BOOST_NOLOAD_MA
    return cell_ma, out / (cell_ma * cell_v)


def evening(ev, cell, supply, cpu_mhz=CPU_MHZ, led=True, wifi_connects=0, iq_mA=None,
            supply_from="boost", wifi_mA=WIFI_MODEM_SLEEP_MA, connect_s=WIFI_JOIN_S):
    """Price an evening measured by tools/evening.py (its JSON, parsed): the average
    current on each rail and from the cell, the time share of each state, hours of play
    and evenings per charge on `cell` ({"mAh", "V"}) with the board's `supply` ({"iq_mA",
    "led_mA", "led_removable"}: supply_of()).

    The levers: led=False, the power LED taken off (only where it can be: "led_removable",
    LED_REMOVABLE); iq_mA, another regulator's quiescent current (REGULATORS);
    supply_from "cell", the regulator fed from the cell directly, no boost converter;
    cpu_mhz, the CPU's clock (machine.freq(); a loop turn takes TURN_MS x 160 / cpu_mhz);
    wifi_mA, the modem-sleep average with the club link up (the listen interval);
    wifi_connects, the club link up only to send (wifi_per_deal()): that many WiFi
    sessions of connect_s seconds each at WIFI_CONNECT_MA in an evening that light-sleeps
    between them."""
    if ev["club"] and ev["lightsleeps"]:
        raise ValueError("an evening with the club link up and light sleeps: WiFi does not "
                         "survive them (hw/power.py)")
    if not led and supply.get("led_removable") is False:
        raise ValueError("this board's power LED cannot be taken off (battery.LED_REMOVABLE)")
    if supply_from not in ("boost", "cell"):
        raise ValueError("supply_from: boost or cell")
    total = float(ev["evening_s"] * 1000)
    ms = ev["ms"]
    awake_ms = ev["cpu_ms"]["awake"]
    light_ms = ev["cpu_ms"]["light"]
    idle, busy = CPU_MA[cpu_mhz]
    # the CPU: idle between scans, busy for its turns and while frames go out
    busy_ms = ev["turns"] * TURN_MS * CPU_MHZ / cpu_mhz + ev["panel_bytes"] * 9 * 1000.0 / I2C_HZ
    busy_share = min(1.0, busy_ms / awake_ms) if awake_ms else 0.0
    cpu_awake = idle + (busy - idle) * busy_share
    if ev["club"]:  # the CPU awake all evening, the radio in modem sleep
        cpu_awake += wifi_mA - CPU_MA[160][0]  # the radio's share, as measured at 160 MHz
    light = LIGHT_SLEEP_MA
    # deep sleep: the fake machine's deepsleep() returns and the loop naps on; on a board
    # the chip sleeps at the deep-sleep current instead
    light_ms = max(0, light_ms - ms["deep"])
    esp_mah_ms = cpu_awake * awake_ms + light * light_ms + DEEP_SLEEP_MA * ms["deep"]
    # a wake-up from light sleep runs a loop turn at the busy current
    esp_mah_ms += ev["lightsleeps"] * TURN_MS * CPU_MHZ / cpu_mhz * (busy - light)
    # the sessions, on top of the time they take from the sleeps (errs high)
    esp_mah_ms += wifi_connects * connect_s * 1000 * WIFI_CONNECT_MA
    bright = panel_ma(ev["lit"]["bright"], ev["contrast"])
    dim = panel_ma(ev["lit"]["dim"], ev["dim_contrast"])
    panel_mah_ms = (bright * ms["bright"] + dim * ms["dim"] +
                    PANEL_SLEEP_MA * (ms["off"] + ms["deep"]))
    esp = esp_mah_ms / total
    panel = panel_mah_ms / total
    rail = esp + panel  # the 3.3 V rail
    led_ma = supply["led_mA"] if led else 0.0
    iq = supply["iq_mA"] if iq_mA is None else iq_mA
    board = rail + led_ma + iq  # into the regulator
    if supply_from == "cell":  # an LDO's input current is its load plus its own
        cell_ma, efficiency = board, None
    else:  # at 5 V, through the boost converter
        cell_ma, efficiency = boost(board, cell["V"])
    hours = cell["mAh"] / cell_ma
    return {
        "esp32_ma": round(esp, 3), "panel_ma": round(panel, 3), "rail_3v3_ma": round(rail, 3),
        "led_ma": led_ma, "iq_ma": iq, "supply_from": supply_from, "wifi_ma": wifi_mA,
        "board_5v_ma": round(board, 3),
        "boost_efficiency": None if efficiency is None else round(efficiency, 4),
        "cell_ma": round(cell_ma, 3),
        "hours": round(hours, 2), "evenings": round(hours / EVENING_H, 2),
        "share": {s: round(ms[s] / total, 4) for s in ("bright", "dim", "off", "deep")},
        "cpu_share": {"awake": round(awake_ms / total, 4), "light": round(light_ms / total, 4)},
        "cpu_awake_ma": round(cpu_awake, 3), "cpu_busy_share": round(busy_share, 4),
        "panel_bright_ma": round(bright, 3), "panel_dim_ma": round(dim, 3),
        "cell": cell, "cpu_mhz": cpu_mhz, "wifi_connects": wifi_connects,
        "connect_s": round(connect_s, 3) if wifi_connects else 0,
    }


def wifi_per_deal(ev, cell, supply, session, **levers):
    """The club link up only to send (net/clubsend.py), priced: an evening without the club
    link up (`ev`, the chip light-sleeping), plus its sessions. `session`: as tools/bench.py
    measures it on the firmware ({"sessions_per_deal", "up_s"}): the evening's deals times
    the sessions per deal (the measured run's own, its boot's session included: errs high),
    each WIFI_JOIN_S (cited) plus the measured seconds up. With a deal every 4 minutes no
    session is made for the news alone (news_s, 600 s by default, passes only after 10
    minutes without a result). A result reaches the standings a session's start after its
    deal instead of at once; a seating and an update's offer wait for the table's next
    result, or news_s at most."""
    if ev["club"]:
        raise ValueError("the design's evening is one without the club link up")
    return evening(ev, cell, supply, wifi_connects=round(ev["deals"] * session[
        "sessions_per_deal"], 2), connect_s=WIFI_JOIN_S + session["up_s"], **levers)


# Each lever: (name, what it is, the evening it changes: "plain" (no club link) or "club",
# the settings the evening is measured again with (None: the base evening), the model's
# arguments (evening()), the club link up only to send (wifi_per_deal()) or not).
# The settings are the firmware's own (the settings list: contrast 40-255, dim_s 15-120,
# off_s 60-600; scan_ms and dim_contrast as hw/power.py reads them). tools/bench.py
# measures and prices each (rows "battery_keypad_" + name), goal GOALS[evening].
GOALS = {"plain": TARGETS["evenings"], "club": TARGETS["evenings_club"]}  # tools/targets.py
SETUP = {"contrast": 40, "dim_s": 15}  # the players' settings of the set-ups below
LEVERS = (
    ("led_off", "power LED taken off (the DevKitC has no switch for it: desolder it or cut "
     "its resistor)", "plain", None, {"led": False}, False),
    ("contrast40", "contrast 40 (the settings list's lowest; 200 before)", "plain",
     {"contrast": 40}, {}, False),
    ("dim15", "dimmed after 15 s (the settings list's shortest; 30 before)", "plain",
     {"dim_s": 15}, {}, False),
    ("dimc1", "dimmed harder: contrast 1 while dimmed (`dim_contrast`; 8 before)", "plain",
     {"dim_contrast": 1}, {}, False),
    ("off60", "panel off after 60 s (the settings list's shortest; 120 before)", "plain",
     {"off_s": 60}, {}, False),
    ("off300", "panel off after 300 s: the scoreboard stays readable, dimmed, through a "
     "4-minute deal (a cost)", "plain", {"off_s": 300}, {}, False),
    ("scan40", "keys scanned every 40 ms (`scan_ms`; 20 before)", "plain", {"scan_ms": 40},
     {}, False),
    ("cpu80", "CPU at 80 MHz (machine.freq; 160 before)", "plain", None, {"cpu_mhz": 80},
     False),
    ("ap2112", "regulator AP2112K-3.3 (55 uA) instead of the AMS1117 (5 mA), the same boost "
     "holder: not one of the project's boards", "plain", None,
     {"iq_mA": REGULATORS["AP2112K-3.3"]}, False),
    ("ldo_cell", "regulator AP2112K-3.3 fed from the cell, no boost converter: not one of "
     "the project's boards", "plain", None,
     {"iq_mA": REGULATORS["AP2112K-3.3"], "supply_from": "cell"}, False),
    ("all", "all four together: LED off, contrast 40, dimmed after 15 s, keys every 40 ms",
     "plain", dict(SETUP, scan_ms=40), {"led": False}, False),
    ("setup", "the set-up: LED off, contrast 40, dimmed after 15 s", "plain", SETUP,
     {"led": False}, False),
    ("setup_readable", "the set-up, the panel off after 300 s (readable through a deal)",
     "plain", dict(SETUP, off_s=300), {"led": False}, False),
    ("club_dtim10", "listen interval 10 beacons (DTIM10: 29.66 mA; DTIM3 before)",
     "club", None, {"wifi_mA": WIFI_DTIM10_MODEM_SLEEP_MA}, False),
    ("club_scan40", "keys scanned every 40 ms (20 before)", "club",
     {"scan_ms": 40}, {}, False),
    ("club_cpu80", "CPU at 80 MHz (machine.freq; 160 before)", "club", None,
     {"cpu_mhz": 80}, False),
    ("club_setup", "the set-up and the CPU at 80 MHz", "club", SETUP,
     {"led": False, "cpu_mhz": 80}, False),
    ("club_ldo_cell", "the set-up and 80 MHz on an AP2112K-3.3 fed from the cell: "
     "not one of the project's boards", "club", SETUP,
     {"led": False, "cpu_mhz": 80, "iq_mA": REGULATORS["AP2112K-3.3"],
      "supply_from": "cell"}, False),
    ("club_per_deal", "up only to send (club.json \"connect\": \"to_send\", built; its "
     "sessions measured): the set-up, light sleep between", "plain", SETUP, {"led": False},
     True),
    ("club_per_deal_ldo_cell", "up only to send (built): the set-up on an AP2112K-3.3 fed "
     "from the cell", "plain", SETUP,
     {"led": False, "iq_mA": REGULATORS["AP2112K-3.3"], "supply_from": "cell"}, True),
)


def goal_of(base, per_deal):
    """A lever's goal: the club link's (GOALS["club"]) for a club evening and for the
    design that connects per result, else GOALS["plain"]."""
    return GOALS["club" if base == "club" or per_deal else "plain"]


def lever(ev, cell, supply, price, per_deal=False, session=None):
    """One lever's evening priced: evening() with the lever's arguments `price`, through
    wifi_per_deal() with the measured `session` for the link up only to send."""
    if per_deal:
        return wifi_per_deal(ev, cell, supply, session, **price)
    return evening(ev, cell, supply, **price)
