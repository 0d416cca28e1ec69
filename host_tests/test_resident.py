"""What the board's boot leaves in RAM: on the board every imported module's code is heap, so
the code that only builds the parts is dropped after the boot, and a board loads only the
scanner and the bus of its own wiring.

The real loop.run() on the unix port with the fake machine, one loop turn, for each wiring.
"""

import json
import os

import pytest
from conftest import FIRMWARE, ROOT, run_micropython

FAKE_MACHINE = os.path.join(ROOT, "host_tests", "fake_machine")
BOOT = """
import sys, json, loop
app = loop.run(loops=1)
# what the loop held stays referenced, so a heap measured now counts it (bench)
print("HELD", " ".join(type(x).__name__ for x in loop.held))
print(json.dumps(sorted(sys.modules)))
"""

# Loaded for the boot and dropped after it.
BOOT_ONLY = ("startup", "boardcheck", "parts", "hw.keys_build", "hw.display_build",
             "hw.wake", "store.recover", "store.repair")


def resident(tmp_path, board):
    with open(os.path.join(ROOT, "boards", board)) as f:
        (tmp_path / "board.json").write_text(f.read())
    proc = run_micropython(["-c", BOOT], cwd=str(tmp_path), paths=[FIRMWARE, FAKE_MACHINE],
                           timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    lines = proc.stdout.decode().splitlines()
    held = [line.split()[1:] for line in lines if line.startswith("HELD")][0]
    assert held[1] == "Power" and held[2] == "NoneType", held  # no club.json here
    return set(json.loads(lines[-1]))


@pytest.mark.parametrize("board,own,other", [
    ("devkitc-ssd1306-keypad.json", ("hw.keypad",), ("hw.buttons", "hw.display_spi")),
    ("devkitc-ssd1306-buttons.json", ("hw.buttons",), ("hw.keypad", "hw.display_spi")),
    ("devkitc-ssd1306-spi-keypad.json", ("hw.keypad", "hw.display_spi"), ("hw.buttons",)),
])
def test_the_boot_leaves_only_the_boards_own_hardware_code(tmp_path, board, own, other):
    mods = resident(tmp_path, board)
    assert "hw.keys" in mods and "hw.display" in mods and "hw.power" in mods
    for name in own:
        assert name in mods
    for name in other + BOOT_ONLY:
        assert name not in mods


AMEND = """
import sys, json, loop
app = loop.run(loops=1)
# Mariage, dealer 2, trump diamonds; player 2 takes A♠ with a 9, then ♠ for that 9: the
# amend makes the trick one its winner cannot take (ui/amend.py, both of its paths).
for k in "139B1767":
    app.press(k)
print(app.message)
print(json.dumps(sorted(sys.modules)))
"""


def test_the_code_for_some_suits_entered_leaves_after_its_key(tmp_path):
    with open(os.path.join(ROOT, "boards", "devkitc-ssd1306-keypad.json")) as f:
        (tmp_path / "board.json").write_text(f.read())
    proc = run_micropython(["-c", AMEND], cwd=str(tmp_path), paths=[FIRMWARE, FAKE_MACHINE],
                           timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    lines = proc.stdout.decode().splitlines()
    assert lines[-2].startswith("9\u2660 ")  # the 9♠ loses: ui/amend.py said so
    mods = set(json.loads(lines[-1]))
    assert "ui.amend" not in mods  # dropped once it had acted
    assert "sixtysix.guess" in mods  # the core's suit guesses stay, as quick.py and deal4.py
