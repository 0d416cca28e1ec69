"""The OLED driver (firmware/hw/display.py, hw/display_spi.py) against a fake panel that
decodes the I2C or SPI stream back into the picture the panel would show.

Most tests run display_check.py in the MicroPython unix port (real framebuf) and assert on the
JSON it prints; one runs the driver on CPython over a minimal framebuf stand-in.
"""

import importlib
import json
import os
import sys
import types

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "display_check.py")
ALLOC_SCRIPT = os.path.join(HERE, "display_alloc.py")
CHIPS = ("ssd1306", "sh1106")
FULL_FRAME = 8 * (4 + 1 + 128)  # per page: 0x00 + 3 address commands, 0x40 + 128 bytes
# What a page costs on each bus besides its data bytes: on I2C a control byte before the 3
# address commands and one before the data; on SPI the D/C line says which is which.
PAGE_COST = {"plain": 5, "novec": 5, "i2c": 5, "spi": 3}
CMD_CTRL = {"i2c": 1, "spi": 0}  # bytes before each command stream


def full_frame(variant):
    return 8 * (PAGE_COST[variant] + 128)


def check(micropython, *args, heapsize=None, script=SCRIPT):
    proc = micropython([script] + list(args), heapsize=heapsize, extra_path=(HERE,))
    assert proc.returncode == 0, (proc.stdout + proc.stderr).decode()
    return json.loads(proc.stdout)


def steps_by_name(out):
    return {s["name"]: s for s in out["steps"]}


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("variant", ["plain", "rotate", "novec", "spi", "spi+rotate"])
def test_panel_shows_the_framebuffer_after_every_show(micropython, chip, variant):
    out = check(micropython, "sequence", chip, variant)
    assert out["init_on"]
    assert out["init_visible_zero"], "init must clear the panel before switching it on"
    wrong = [s["name"] for s in out["steps"] if not s["match"]]
    assert wrong == []
    assert len(out["steps"]) > 60
    assert out["unknown"] == [], "commands this chip does not have"
    assert out["overruns"] == 0, "data written past the end of a page"
    assert out["unselected"] == 0, "SPI bytes sent while the panel was not selected"
    if chip == "sh1106":
        # columns 0, 1, 130, 131 are not visible and never written (still power-up garbage)
        assert out["hidden_after_init"] == [0xA5]
        assert out["hidden_after"] == [0xA5]
    else:
        assert out["hidden_after"] == []
    if "rotate" in variant:
        assert out["other_way_differs"]


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("variant", ["plain", "novec", "spi"])
def test_bytes_sent_are_counted_and_minimal(micropython, chip, variant):
    out = check(micropython, "sequence", chip, variant)
    steps = steps_by_name(out)
    cost = PAGE_COST[variant]
    full = full_frame(variant)
    for s in out["steps"]:
        # what show() returns, last_sent, the cumulative counter and the bus all agree
        assert s["sent"] == s["last_sent"] == s["counted"] == s["bus"], s
    assert out["bytes_sent"] == out["bus_total"]
    assert steps["first"]["sent"] == full
    assert steps["first"]["tx"] == 16
    assert steps["invalidate"]["sent"] == full
    assert steps["show_full"]["sent"] == full
    for name in ("nochange", "nochange2"):
        assert steps[name]["sent"] == 0 and steps[name]["tx"] == 0
    # one 8x8 character on a page boundary: one page, at most 8 columns
    char = steps["char"]
    assert char["tx"] == 2 and cost + 1 <= char["sent"] <= cost + 8
    assert char["sent"] * 50 < full
    # a character straddling two pages
    assert steps["char_unaligned"]["tx"] == 4 and steps["char_unaligned"]["sent"] <= 2 * (cost + 8)
    # a single pixel at either edge: one data byte
    assert steps["first_col"]["sent"] == cost + 1
    assert steps["last_col"]["sent"] == cost + 1
    # both edges of one page: the span is the whole page
    assert steps["both_ends"]["sent"] == cost + 128
    # random small changes together cost far less than full frames would
    randoms = [s["sent"] for s in out["steps"] if s["name"].startswith("random")]
    assert sum(randoms) < len(randoms) * full / 5
    assert max(randoms) < full


def test_the_i2c_figures_are_the_ones_the_bench_reports():
    # The I2C page cost above is the one the panel figures (docs/performance.md) were
    # measured with.
    assert full_frame("plain") == full_frame("novec") == FULL_FRAME == 1064
    assert full_frame("spi") == 8 * 131


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("bus", ["i2c", "spi"])
def test_init_state_and_commands(micropython, chip, bus):
    out = check(micropython, "commands", chip, bus)
    st = out["after_init"]
    assert out["unknown_init"] == [] and out["unknown"] == []
    assert st["on"] and not st["inverted"] and not st["entire_on"]
    assert st["mux"] == 63 and st["display_offset"] == 0 and st["start_line"] == 0
    assert st["seg_remap"] == 1 and st["com_reverse"]
    if chip == "ssd1306":
        assert st["charge_pump"] == 0x14
        assert st["mode"] == 2
    else:
        assert st["dcdc"] == 0x8B
    assert out["contrast"] == 0x10
    assert out["contrast_cmds"] == [[0x81, [0x10]]]
    assert out["contrast_bytes"] == CMD_CTRL[bus] + 2
    assert out["contrast_max"] == 0xFF
    assert out["off_cmds"] == [[0xAE, []]]
    assert out["off"] is False
    assert out["off_keeps_ram"]
    assert out["draw_while_off"]
    assert out["on_again"] is True and out["on_matches"]
    assert out["poweroff"] is False and out["poweron"] is True
    assert out["inverted"] is True and out["normal"] is False
    assert out["bad_chip"] == "ValueError"


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("bus", ["i2c", "spi"])
def test_reset_pin_sequence(micropython, chip, bus):
    out = check(micropython, "reset", chip, bus)
    assert out["before_bus"] == [1, 0, 1]
    assert out["reset_events"] == [1, 0, 1]
    assert out["writes_in_reset"] == 0
    assert out["on"]
    # a later init_display() pulses reset again, reprograms, and keeps the drawing
    assert out["reinit_first_is_reset"] and out["reinit_reset"] == [1, 0, 1]
    assert out["reinit_contrast"] != 0x10
    assert out["drawing_kept"]
    assert out["reinit_visible_zero"]
    assert out["reinit_show"] == full_frame(bus)
    assert out["reinit_match"]
    assert out["no_reset_ok"]


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("bus", ["i2c", "spi"])
def test_failed_write_is_repaired_by_next_show(micropython, chip, bus):
    """A failed write (the panel gone from the bus, or a glitch) raises nothing: the panel
    is lost, and the next show() sends its init sequence and the whole frame."""
    out = check(micropython, "retry", chip, bus)
    assert out["raised"] is False and out["failed_sent"] == 0 and out["lost"] is True
    assert out["match_after_failure"] is False
    assert out["retry_sent"] == full_frame(bus)
    assert out["lost_after_retry"] is False and out["on_after_retry"]
    assert out["match_after_retry"]
    assert out["raised_full"] is False
    assert out["retry_full_sent"] == full_frame(bus)
    assert out["match_after_full_retry"]
    assert out["lost_after_command"] is True


def test_show_does_not_allocate(micropython):
    out = check(micropython, "sh1106", script=ALLOC_SCRIPT)
    view = 4 * out["word"]  # one memoryview object
    for path, most in (("vector", 1), ("novector", 2), ("spi", 1)):
        res = out[path]
        assert res["nochange"] == 0
        assert res["full"] == 0
        assert res["show_full"] == 0
        assert res["contrast"] == 0
        # only the slice of a partly changed page
        assert 0 < res["one_page"] <= most * view
        assert res["three_pages"] <= 3 * most * view


def test_driver_heap_cost_in_esp32_sized_heap(micropython):
    out = check(micropython, "ssd1306", heapsize="56k", script=ALLOC_SCRIPT)
    # frame + shadow (2 x 1024), then views, small buffers and the instance (word-sized)
    assert 2048 < out["construct"] < 2048 + 256 * out["word"]


# -- CPython: the same driver over a minimal framebuf stand-in ---------------------------------


def _framebuf_stand_in():
    mod = types.ModuleType("framebuf")
    mod.MONO_VLSB = 0

    class FrameBuffer:
        def __init__(self, buf, width, height, fmt):
            assert fmt == mod.MONO_VLSB
            self._b, self._w, self._h = buf, width, height

        def pixel(self, x, y, c=None):
            i, bit = (y >> 3) * self._w + x, 1 << (y & 7)
            if c is None:
                return 1 if self._b[i] & bit else 0
            self._b[i] = self._b[i] | bit if c else self._b[i] & ~bit

        def fill(self, c):
            for i in range(len(self._b)):
                self._b[i] = 0xFF if c else 0

        def fill_rect(self, x, y, w, h, c):
            for yy in range(max(y, 0), min(y + h, self._h)):
                for xx in range(max(x, 0), min(x + w, self._w)):
                    self.pixel(xx, yy, c)

    mod.FrameBuffer = FrameBuffer
    return mod


@pytest.fixture
def cpython_display(monkeypatch):
    monkeypatch.setitem(sys.modules, "framebuf", _framebuf_stand_in())
    sys.modules.pop("hw.display", None)
    module = importlib.import_module("hw.display")
    yield module
    sys.modules.pop("hw.display", None)  # nobody else gets the stand-in-based module


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("bus", ["i2c", "spi"])
def test_driver_runs_on_cpython(cpython_display, chip, bus):
    import fake_oled

    if bus == "spi":
        sys.modules.pop("hw.display_spi", None)
        import fake_oled_spi
        from hw.display_spi import SPIDisplay  # on the stand-in-based hw.display

        panel = fake_oled_spi.FakeSPIPanel(chip)
        d = SPIDisplay(panel, panel.dc_pin, panel.cs_pin, chip=chip, reset=panel.reset_pin)
        sys.modules.pop("hw.display_spi", None)
        cost = PAGE_COST["spi"]
    else:
        from hw.display import Display  # the stand-in-based module's

        panel = fake_oled.FakePanel(chip)
        d = Display(panel, chip=chip, reset=panel.reset_pin)
        assert isinstance(d, cpython_display.Display)  # the stand-in-based module's
        cost = PAGE_COST["plain"]
    assert panel.on and panel.visible() == bytearray(1024)
    assert d.show() == 8 * (cost + 128) and panel.visible() == d.buffer
    seed = 1
    for _ in range(40):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        x, y = seed % 128, (seed >> 8) % 64
        d.fill_rect(x, y, 1 + (seed >> 16) % 12, 1 + (seed >> 20) % 12, (seed >> 24) & 1)
        before = panel.bytes_in
        sent = d.show()
        assert sent == d.last_sent == panel.bytes_in - before
        assert panel.visible() == d.buffer
    assert d.show() == 0
    d.pixel(127, 63, 1 - d.pixel(127, 63))
    assert d.show() == cost + 1 and panel.visible() == d.buffer
    assert panel.unknown == [] and panel.overruns == 0
