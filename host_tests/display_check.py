"""Drive hw.display against the fake panel and print the findings as one JSON object.

Run by test_display.py under the MicroPython unix port (framebuf is built in there):
    micropython display_check.py SCENARIO CHIP [FLAGS]
FLAGS, joined by "+" or given apart: rotate; novec (an I2C bus without writevto); spi (the
SPI panel, hw/display_spi.py, on its fake bus). Allocation checks: display_alloc.py.
"""

import json
import sys

from hw.display import Display
from hw.display_build import init_display


class Rand:
    """Small LCG, so both runtimes draw the same 'random' pictures."""

    def __init__(self, seed):
        self.s = seed

    def __call__(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n


def make(chip, rotate=False, bus="i2c", events=None, reset=False):
    """(fake panel, driver) on bus "i2c", "novec" (I2C without writevto) or "spi".

    The fakes are imported here: the alloc scenario, run in an ESP32-sized heap, needs none.
    """
    if bus == "spi":
        from fake_oled_spi import FakeSPIPanel
        from hw.display_spi import SPIDisplay

        panel = FakeSPIPanel(chip, events=events)
        d = SPIDisplay(panel, panel.dc_pin, panel.cs_pin, chip=chip, rotate=rotate,
                       reset=panel.reset_pin if reset else None)
        return panel, d
    from fake_oled import FakePanel, FakePanelNoVector

    panel = (FakePanel if bus == "i2c" else FakePanelNoVector)(chip, events=events)
    d = Display(panel, chip=chip, rotate=rotate, reset=panel.reset_pin if reset else None)
    return panel, d


def scene(d, rnd):
    d.fill(0)
    d.text("SIXTY-SIX", 0, 0, 1)
    d.text("We 33  They 41", 0, 16, 1)
    d.rect(0, 30, 128, 20, 1)
    d.fill_rect(100, 52, 28, 12, 1)
    for _ in range(60):
        d.pixel(rnd(128), rnd(64), 1)


def random_change(d, rnd):
    k = rnd(5)
    if k == 0:
        x, y = rnd(128), rnd(64)
        d.pixel(x, y, 1 - d.pixel(x, y))
    elif k == 1:
        d.hline(rnd(128), rnd(64), 1 + rnd(40), rnd(2))
    elif k == 2:
        d.text(chr(0x21 + rnd(90)), rnd(124), rnd(60), rnd(2))
    elif k == 3:
        d.fill_rect(rnd(128), rnd(64), 1 + rnd(20), 1 + rnd(20), rnd(2))
    else:
        for _ in range(1 + rnd(6)):
            d.pixel(rnd(128), rnd(64), rnd(2))


def run_sequence(chip, rotate, bus):
    panel, d = make(chip, rotate, bus)
    out = {
        "init_visible_zero": panel.visible(rotate) == bytearray(1024),
        "init_on": panel.on,
        "init_sent": d.bytes_sent,
        "hidden_after_init": sorted(set(panel.hidden_columns())),
    }
    steps = []

    def step(name, fn=None):
        before_bus = panel.bytes_in
        before_tx = panel.transactions
        before_total = d.bytes_sent
        sent = (fn or d.show)()
        steps.append(
            {
                "name": name,
                "sent": sent,
                "last_sent": d.last_sent,
                "counted": d.bytes_sent - before_total,
                "bus": panel.bytes_in - before_bus,
                "tx": panel.transactions - before_tx,
                "match": panel.visible(rotate) == d.buffer,
            }
        )

    rnd = Rand(66)
    scene(d, rnd)
    step("first")
    # rotation must really turn the picture: seen the other way up it differs
    out["other_way_differs"] = panel.visible(not rotate) != d.buffer
    step("nochange")
    d.fill_rect(24, 16, 8, 8, 0)  # "We 33" -> "We 43": one aligned character
    d.text("4", 24, 16, 1)
    step("char")
    d.fill_rect(64, 36, 8, 8, 0)  # a character across two pages
    d.text("7", 64, 36, 1)
    step("char_unaligned")
    d.pixel(0, 63, 1 - d.pixel(0, 63))
    step("first_col")
    d.pixel(127, 0, 1 - d.pixel(127, 0))
    step("last_col")
    d.pixel(0, 10, 1 - d.pixel(0, 10))
    d.pixel(127, 10, 1 - d.pixel(127, 10))
    step("both_ends")
    for i in range(60):
        random_change(d, rnd)
        step("random%d" % i)
    d.fill(1)
    step("all_on")
    d.fill(0)
    step("all_off")
    scene(d, rnd)
    step("scene2")
    d.invalidate()
    step("invalidate")
    step("show_full", d.show_full)
    step("nochange2")
    out["steps"] = steps
    out["bytes_sent"] = d.bytes_sent
    out["bus_total"] = panel.bytes_in
    out["unknown"] = panel.unknown
    out["overruns"] = panel.overruns
    out["hidden_after"] = sorted(set(panel.hidden_columns()))
    out["data_bytes"] = panel.data_bytes
    out["unselected"] = getattr(panel, "unselected", 0)
    return out


def panel_state(panel):
    return {
        "on": panel.on,
        "contrast": panel.contrast,
        "inverted": panel.inverted,
        "entire_on": panel.entire_on,
        "charge_pump": panel.charge_pump,
        "dcdc": panel.dcdc,
        "mux": panel.mux,
        "mode": panel.mode,
        "seg_remap": panel.seg_remap,
        "com_reverse": panel.com_reverse,
        "display_offset": panel.display_offset,
        "start_line": panel.start_line,
    }


def run_commands(chip, bus):
    panel, d = make(chip, bus=bus)
    out = {"after_init": panel_state(panel), "unknown_init": list(panel.unknown)}
    d.text("42", 0, 0, 1)
    d.show()
    n = len(panel.commands)
    before = d.bytes_sent
    d.contrast(0x10)
    out["contrast"] = panel.contrast
    out["contrast_cmds"] = panel.commands[n:]
    out["contrast_bytes"] = d.bytes_sent - before
    d.contrast(0xFF)
    out["contrast_max"] = panel.contrast
    ram_before = panel.visible()
    n = len(panel.commands)
    d.power(False)
    out["off_cmds"] = panel.commands[n:]
    out["off"] = panel.on
    out["off_keeps_ram"] = panel.visible() == ram_before
    d.text("X", 40, 40, 1)
    d.show()
    out["draw_while_off"] = panel.visible() == d.buffer
    d.power(True)
    out["on_again"] = panel.on
    out["on_matches"] = panel.visible() == d.buffer
    d.poweroff()
    out["poweroff"] = panel.on
    d.poweron()
    out["poweron"] = panel.on
    d.invert(True)
    out["inverted"] = panel.inverted
    d.invert(False)
    out["normal"] = panel.inverted
    out["unknown"] = panel.unknown
    try:
        if bus == "spi":
            from hw.display_spi import SPIDisplay

            SPIDisplay(panel, panel.dc_pin, panel.cs_pin, chip="ssd1309")
        else:
            Display(panel, chip="ssd1309")
        out["bad_chip"] = "accepted"
    except ValueError:
        out["bad_chip"] = "ValueError"
    return out


def run_reset(chip, bus):
    events = []
    panel, d = make(chip, bus=bus, events=events, reset=True)
    first_write = [i for i, e in enumerate(events) if e[0] != "reset"][0]
    out = {
        "before_bus": [e[1] for e in events[:first_write] if e[0] == "reset"],
        "writes_in_reset": panel.writes_in_reset,
        "on": panel.on,
        "reset_events": [e[1] for e in events if e[0] == "reset"],
    }
    d.text("KEEP", 0, 0, 1)
    d.show()
    d.contrast(0x10)
    del events[:]
    init_display(d)  # re-init after, say, a brown-out of the panel
    out["reinit_reset"] = [e[1] for e in events if e[0] == "reset"]
    out["reinit_first_is_reset"] = events[0][0] == "reset"
    out["reinit_contrast"] = panel.contrast
    out["drawing_kept"] = d.buffer != bytearray(1024)
    out["reinit_visible_zero"] = panel.visible() == bytearray(1024)
    out["reinit_show"] = d.show()
    out["reinit_match"] = panel.visible() == d.buffer
    _, d2 = make(chip, bus=bus, events=[], reset=False)
    out["no_reset_ok"] = d2.bytes_sent > 0
    return out


def run_retry(chip, bus):
    panel, d = make(chip, bus=bus)
    rnd = Rand(7)
    scene(d, rnd)
    d.show()
    out = {}
    d.text("A", 0, 0, 1)  # changes in pages 0, 3 and 7
    d.text("B", 40, 24, 1)
    d.text("C", 80, 56, 1)
    panel.fail_at = 4  # the data write of the second changed page
    try:
        out["failed_sent"] = d.show()
        out["raised"] = False
    except OSError:
        out["raised"] = True
    out["lost"] = d.lost
    out["match_after_failure"] = panel.visible() == d.buffer
    out["retry_sent"] = d.show()
    out["lost_after_retry"] = d.lost
    out["on_after_retry"] = panel.on
    out["match_after_retry"] = panel.visible() == d.buffer
    d.invalidate()
    d.fill_rect(10, 10, 30, 30, 1)
    panel.fail_at = 7
    try:
        d.show()
        out["raised_full"] = False
    except OSError:
        out["raised_full"] = True
    panel.fail_at = 1  # a command fails too (power, contrast): no raise, lost
    d.contrast(0x40)
    out["lost_after_command"] = d.lost
    out["retry_full_sent"] = d.show()
    out["match_after_full_retry"] = panel.visible() == d.buffer
    return out


def main():
    args = sys.argv[1:]
    scenario, chip = args[0], args[1]
    flags = "+".join(args[2:]).split("+")
    bus = "spi" if "spi" in flags else "novec" if "novec" in flags else "i2c"
    if scenario == "sequence":
        out = run_sequence(chip, "rotate" in flags, bus)
    elif scenario == "commands":
        out = run_commands(chip, bus)
    elif scenario == "reset":
        out = run_reset(chip, bus)
    elif scenario == "retry":
        out = run_retry(chip, bus)
    else:
        raise SystemExit("unknown scenario " + scenario)
    print(json.dumps(out))


main()
