"""The board's main loop sleeps between key scans: it does not spin while idle.

The real loop.run() runs in the MicroPython unix port with the fake machine
module (host_tests/fake_machine) for a fixed wall time with no key pressed;
the loop turns are counted. With the panel on, a turn is one key scan every
20 ms (hw/power.py scan_ms), so about 50 turns a second; a busy loop would make
tens of thousands.
"""

import json
import os

from conftest import FIRMWARE, ROOT, run_micropython

FAKE_MACHINE = os.path.join(ROOT, "host_tests", "fake_machine")


def test_the_idle_main_loop_blocks_between_scans(tmp_path):
    with open(os.path.join(ROOT, "boards", "devkitc-ssd1306-keypad.json")) as f:
        cfg = json.load(f)
    (tmp_path / "board.json").write_text(json.dumps(cfg))
    code = ("import main\napp = main.run(seconds=2)\nimport loop\nprint('LOOPS', loop.turns)\n")
    proc = run_micropython(["-c", code], cwd=str(tmp_path), paths=[FIRMWARE, FAKE_MACHINE],
                           heapsize="256k")
    assert proc.returncode == 0, proc.stderr.decode()
    loops = [int(line.split()[1]) for line in proc.stdout.decode().splitlines()
             if line.startswith("LOOPS")][0]
    per_second = loops / 2
    print("idle main loop: %.1f turns per second" % per_second)
    # 20 ms per scan: 50 a second; allow for a slow shared machine, never a spin.
    assert 10 <= per_second <= 60


def test_the_idle_policy_hears_the_settings_at_boot_and_when_they_change(tmp_path):
    """The power timeouts come from the app: the saved ones at boot, a changed one at once
    (App's on_settings, wired by startup.py), not from the loop after every key."""
    with open(os.path.join(ROOT, "boards", "devkitc-ssd1306-keypad.json")) as f:
        (tmp_path / "board.json").write_text(f.read())
    code = """
import os
from session import Session
from store.journal import Store
Session(Store("data", os)).save_settings({"off_s": 300})
import main
app = main.run(loops=1)
import loop
power = loop.held[1]
print("BOOT", power.off_ms, power.dim_ms)
app.settings["dim_s"] = 60
app.save_settings()
print("CHANGED", power.off_ms, power.dim_ms)
"""
    proc = run_micropython(["-c", code], cwd=str(tmp_path), paths=[FIRMWARE, FAKE_MACHINE],
                           heapsize="256k")
    assert proc.returncode == 0, proc.stderr.decode()
    lines = [line for line in proc.stdout.decode().splitlines() if line[:1] in "BC"]
    assert lines == ["BOOT 300000 30000", "CHANGED 300000 60000"]


def test_a_stuck_keypad_does_not_keep_the_board_awake(tmp_path):
    """Every column reads low (a shorted keypad, or something lying on it): no key event,
    and once the keys count as stuck (hw/keys.py STUCK_MS, shortened here) the board dims
    and switches the panel off as if idle, instead of scanning at full speed all night."""
    with open(os.path.join(ROOT, "boards", "devkitc-ssd1306-keypad.json")) as f:
        (tmp_path / "board.json").write_text(f.read())
    code = """
import os
import machine
from session import Session
from store.journal import Store
from hw import keys


class LowPin(machine.Pin):
    def value(self, v=None):
        if v is None and self.mode == machine.Pin.IN:
            return 0  # every key closed
        return super().value(v)


machine.Pin = LowPin
keys.STUCK_MS = 300
Session(Store("data", os)).save_settings({"dim_s": 1, "off_s": 2})
import main
app = main.run(seconds=3)
import loop
k, power = loop.held[0], loop.held[1]
print("STATE", power.state, k.idle(), k.any_down())
"""
    proc = run_micropython(["-c", code], cwd=str(tmp_path), paths=[FIRMWARE, FAKE_MACHINE],
                           heapsize="256k")
    assert proc.returncode == 0, proc.stderr.decode()
    line = [x for x in proc.stdout.decode().splitlines() if x.startswith("STATE")][0]
    assert line.split()[1:] == ["2", "True", "False"]  # OFF, idle, nothing down
