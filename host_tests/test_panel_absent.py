"""A board whose panel does not answer at boot (a loose connector): the real loop.run() in
the MicroPython unix port with the fake machine, its I2C bus answering nobody at first.

The boot says so once on the console, with no traceback, beeps the no-panel pattern and
tries the panel again every few seconds (startup.PANEL_RETRY_MS, shortened here); once the
panel answers the app boots and a key works. A panel that leaves the bus while the app
runs does not stop the loop: show() fails quietly and brings the panel up again at the next
frame once it answers (docs/boards.md).
"""

import os

import pytest
from conftest import FIRMWARE, ROOT, run_micropython

FAKE_MACHINE = os.path.join(ROOT, "host_tests", "fake_machine")

# {errno}: what the bus raises while nobody answers. Key "1" is row 0 (pin 32) and column 0
# (pin 27) of devkitc-ssd1306-keypad.json; it is held from press_at for 150 ms.
CODE = """
import time
import machine
import startup

startup.PANEL_RETRY_MS = 100
state = {"fails": 0, "press_at": None, "answers": True}
beeps = []


class LateBus(machine.I2C):
    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.addresses = []

    def _check(self, addr):
        if not self.addresses and state["answers"]:
            state["fails"] += 1
            if state["fails"] > 3:  # the connector is pushed home after three tries
                self.addresses.append(0x3C)
                state["press_at"] = time.ticks_add(time.ticks_ms(), 300)
        if addr not in self.addresses:
            raise OSError({errno})


class Key1(machine.Pin):
    def value(self, v=None):
        if v is None and self.id == 27:
            at = state["press_at"]
            if at is not None and 0 <= time.ticks_diff(time.ticks_ms(), at) < 150:
                if machine.pins[32].level == 0:
                    return 0
        return super().value(v)


class Buzzer(machine.PWM):
    def duty_u16(self, d=None):
        if d:
            beeps.append(self.freq())
        return super().duty_u16(d)


machine.I2C = LateBus
machine.Pin = Key1
machine.PWM = Buzzer
import loop
app = loop.run(seconds=1.5)
print("FAILS", state["fails"], "BEEPS", len(beeps), "LISTS", len(app.lists))
print("SENT", machine.buses[0].writes > 20)
{then}
"""

# The panel leaves the bus while the app runs, a key is pressed (a frame), the panel comes
# back and the next key's frame brings it up again.
VANISH = """
bus = machine.buses[0]
state["answers"] = False
bus.addresses = []
app.dirty = True
app.fb.invalidate()  # a frame to send
print("SHOW GONE", app.render(), app.fb.lost)
bus.addresses = [0x3C]
before = bus.writes
app.dirty = True  # the same frame: sent whole, after the init sequence
print("SHOW BACK", app.render(), app.fb.lost, bus.writes - before > 20)
"""


def boot(tmp_path, errno, then=""):
    with open(os.path.join(ROOT, "boards", "devkitc-ssd1306-keypad.json")) as f:
        (tmp_path / "board.json").write_text(f.read())
    code = CODE.replace("{errno}", str(errno)).replace("{then}", then)
    proc = run_micropython(["-c", code], cwd=str(tmp_path), paths=[FIRMWARE, FAKE_MACHINE],
                           heapsize="256k", timeout=60)
    return proc, proc.stdout.decode(), proc.stderr.decode()


@pytest.mark.parametrize("errno", [19, 110, 116], ids=["ENODEV", "ETIMEDOUT", "ETIMEDOUT-esp"])
def test_no_panel_at_boot_is_said_once_beeped_and_retried_until_it_answers(tmp_path, errno):
    proc, out, err = boot(tmp_path, errno)
    assert proc.returncode == 0, out + err
    assert "Traceback" not in out + err
    assert out.count("display: no answer at 0x3C") == 1, out
    assert "scorekeeper:" in out  # the app booted
    fields = [line.split() for line in out.splitlines() if line.startswith("FAILS")][0]
    assert int(fields[1]) >= 4  # tried at boot and again until it answered
    assert int(fields[3]) >= 3  # the no-panel pattern: three beeps at least
    assert fields[5] == "2", out  # key 1 picked a game: the dealer's list over the new match's
    assert "SENT True" in out


def test_a_panel_that_leaves_the_bus_while_running_comes_back(tmp_path):
    proc, out, err = boot(tmp_path, 19, VANISH)
    assert proc.returncode == 0, out + err
    assert "Traceback" not in out + err
    assert "SHOW GONE True True" in out
    assert "SHOW BACK True False True" in out
