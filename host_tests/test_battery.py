"""Hours of play on a cell: the evening tools/evening.py measures on the device, the currents
tools/battery.py prices it with, and the bench rows that report it.

The evening is the real loop.run() on the fake machine and a fake clock (three hours, a
deal every four minutes); nothing here is timed.
"""

import json
import os

import battery
import bench
import benchdocs
import pytest
from conftest import ROOT

EVENING_MS = 3 * 3600 * 1000


@pytest.fixture(scope="module")
def keypad(tmp_path_factory):
    """The keypad build's evening, without and with the club link."""
    evs = bench.measure_evenings(str(tmp_path_factory.mktemp("evening")), ("keypad",))
    return {ev["club"]: ev for ev in evs}


def test_the_evening_takes_three_hours_of_45_deals(keypad):
    ev = keypad[False]
    assert ev["deals"] == 45  # a deal every 4 minutes for 3 hours
    assert sum(ev["ms"].values()) == EVENING_MS
    assert ev["cpu_ms"]["awake"] + ev["cpu_ms"]["light"] == EVENING_MS
    # Every deal after the first starts with the panel off (4 min > off_s, 2 min): a press
    # wakes it first, and the firmware swallows that press (else the deals would not add up,
    # which evening.py checks against the match on the device).
    assert ev["wake_presses"] == 44
    assert ev["presses"] >= 2 * 45 + 44
    # hw/power.py's stages after each deal's last press: dim at 30 s, panel off at 120 s
    assert ev["ms"]["dim"] == 45 * 90 * 1000
    assert ev["ms"]["deep"] == 0 and ev["deepsleeps"] == 0  # deep sleep after 30 min only
    # light sleep is the dimmed and the panel-off time, and the key ends it: sleeps of the
    # watchdog's nap (startup.watchdog: half its timeout) from the dimming to the panel
    # going off, then until the deal's first key
    asleep = ev["ms"]["dim"] + ev["ms"]["off"]
    assert ev["cpu_ms"]["light"] == asleep
    assert ev["cpu_ms"]["awake"] == ev["ms"]["bright"]
    assert ev["nap_ms"] == 4000
    assert asleep // ev["nap_ms"] <= ev["lightsleeps"] <= asleep // ev["nap_ms"] + 2 * 45 + 1
    assert ev["key_wakes"] == 44  # every deal after the first, its waking press
    # the turn after a key's wake lights the panel: a few command bytes, no frame
    assert 0 < ev["wake_turn_bytes"] <= 8
    # the scanned bright time: a wake-up every 20 ms
    on = ev["ms"]["bright"]
    assert on / 20 * 0.95 <= ev["wakeups"]["bright"] <= on / 20
    assert ev["wakeups"]["dim"] <= ev["ms"]["dim"] // ev["nap_ms"] + 2 * 45
    assert 0 < ev["lit"]["bright"] < 0.5  # a scoreboard: some pixels lit, most dark


def test_the_club_link_wakes_the_sleeping_loop_twice_a_second(keypad):
    ev = keypad[True]
    assert sum(ev["ms"].values()) == EVENING_MS
    asleep = ev["ms"]["dim"] + ev["ms"]["off"]
    # net/clublink.py: 500 ms
    assert asleep / 500 - 100 <= ev["lightsleeps"] <= asleep / 500 + 100


def test_the_average_lies_between_sleep_and_active(keypad):
    cell = {"mAh": 2000, "V": 3.7, "kind": "18650 Li-ion"}
    b = battery.evening(keypad[False], cell)
    assert b["share"]["bright"] + b["share"]["dim"] + b["share"]["off"] + b["share"]["deep"] == \
        pytest.approx(1.0)
    # the chip: between light sleep and the CPU running code all evening
    assert battery.LIGHT_SLEEP_MA < b["esp32_ma"] < battery.CPU_MA[160][1]
    # the panel: between asleep and bright all evening
    assert battery.PANEL_SLEEP_MA < b["panel_ma"] < b["panel_bright_ma"]
    assert b["rail_3v3_ma"] == pytest.approx(b["esp32_ma"] + b["panel_ma"], abs=0.01)
    assert b["board_5v_ma"] == pytest.approx(b["rail_3v3_ma"] + battery.REGULATOR_IQ_MA,
                                             abs=0.01)
    # through the boost converter: the cell's current, then the hours on its charge
    assert b["cell_ma"] == pytest.approx(b["board_5v_ma"] * 5.0 / (3.7 * 0.85), rel=1e-3)
    assert b["hours"] == pytest.approx(2000 / b["cell_ma"], rel=1e-3)
    assert b["evenings"] == pytest.approx(b["hours"] / 3, rel=1e-3)
    assert b["hours"] > 3  # an evening on a charge at least
    # a bigger cell plays longer, in proportion
    big = battery.evening(keypad[False], {"mAh": 3000, "V": 3.7})
    assert big["hours"] == pytest.approx(b["hours"] * 1.5, rel=1e-3)


def test_the_goals_a_season_on_a_charge(keypad):
    """Issue 28's goals for the keypad build on the reference cell: 40 evenings without the
    club link, 30 with it; a key's wake to its frame within 50 ms."""
    cell = battery.DEFAULT_CELL
    assert battery.evening(keypad[False], cell)["evenings"] >= 40
    assert battery.evening(keypad[True], cell)["evenings"] >= 30
    assert battery.wake_to_frame_ms(keypad[False]["wake_turn_bytes"]) <= 50
    # the club link's power save: the DTIM1 currents (no power save) cost more
    saved = battery.evening(keypad[True], cell)
    assert battery.WIFI_LIGHT_SLEEP_MA < battery.WIFI_DTIM1_LIGHT_SLEEP_MA
    assert battery.WIFI_MODEM_SLEEP_MA < battery.WIFI_DTIM1_MODEM_SLEEP_MA
    assert saved["cell_ma"] < battery.evening(keypad[True], cell, club_awake=True)["cell_ma"]


def test_the_club_link_costs_more_than_no_link(keypad):
    cell = battery.DEFAULT_CELL
    plain = battery.evening(keypad[False], cell)
    club = battery.evening(keypad[True], cell)
    awake = battery.evening(keypad[True], cell, club_awake=True)
    assert plain["cell_ma"] < club["cell_ma"] < awake["cell_ma"]
    assert plain["hours"] > club["hours"] > awake["hours"]


def test_the_panel_current_follows_lit_pixels_and_contrast():
    assert battery.panel_ma(0, 255) == battery.PANEL_BASE_MA
    assert battery.panel_ma(0.1, 200) < battery.panel_ma(0.2, 200) < battery.panel_ma(0.2, 255)
    # all pixels lit at full contrast: 128 segments x 100 uA through the charge pump
    full = battery.panel_ma(1.0, 256) - battery.PANEL_BASE_MA
    assert full == pytest.approx(12.8 * battery.PUMP_FACTOR)


def test_the_cell_comes_from_the_board_file():
    with open(os.path.join(ROOT, "boards", "devkitc-ssd1306-keypad.json")) as f:
        cfg = json.load(f)
    assert battery.cell_of(cfg) == cfg["battery"]
    del cfg["battery"]
    assert battery.cell_of(cfg) == battery.DEFAULT_CELL


def test_the_bench_reports_the_four_builds():
    with open(os.path.join(ROOT, "bench.json")) as f:
        result = json.load(f)
    with open(os.path.join(ROOT, benchdocs.TABLE_DOC), encoding="utf-8") as f:
        table = f.read()
    rows = {r["key"]: r for r in result["rows"]}
    for key in ("battery_keypad", "battery_keypad_club", "battery_buttons",
                "battery_buttons_club"):
        assert key in rows, "bench.json has no %s row: run make bench" % key
        r = rows[key]
        raw = r["raw"]
        b = raw["battery"]
        assert sum(raw["ms"].values()) == raw["evening_s"] * 1000
        assert raw["deals"] == raw["evening_s"] // raw["deal_s"] == 45
        assert b["cell"] == battery.DEFAULT_CELL  # the reference boards' cell
        assert set(b["share"]) == {"bright", "dim", "off", "deep"}
        assert ("| %s | %s |" % (r["figure"], r["value"])) in table
    for layout in ("keypad", "buttons"):
        assert (rows["battery_%s" % layout]["raw"]["battery"]["hours"] >
                rows["battery_%s_club" % layout]["raw"]["battery"]["hours"])
