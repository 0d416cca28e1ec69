"""Boards and deploy: the board file check, and `make deploy` onto a virtual board.

The virtual board is the MicroPython unix port behind a pseudo-terminal (tools/vboard.py),
driven by the real mpremote. Its "flash" is a folder; a fake machine module
(host_tests/fake_machine/machine.py) stands in for Pin, I2C and PWM, so the deployed firmware
boots there with main.run(loops=N).
"""

import hashlib
import json
import os
import subprocess
import sys
import time

import boardcheck
import pytest
from conftest import FIRMWARE, ROOT, run_micropython

BOARDS = os.path.join(ROOT, "boards")
BOARD_FILES = sorted(n for n in os.listdir(BOARDS) if n.endswith(".json"))
FAKE_MACHINE = os.path.join(ROOT, "host_tests", "fake_machine")
BIN = os.path.dirname(sys.executable)
MPREMOTE = os.path.join(BIN, "mpremote")
# Heap of the virtual board. The unix port is 64-bit: every object costs about twice what it
# costs on the ESP32, so the firmware needs more than the ESP32's 56 KiB here (the figures:
# docs/boards.md). Boot and restore are what is tested, not memory.
HEAP = "256k"

REFERENCE = "devkitc-ssd1306-keypad"


def load(name):
    with open(os.path.join(BOARDS, name)) as f:
        return json.load(f)


# ---- every board file passes -------------------------------------------------------------


def test_there_are_the_seven_boards():
    assert BOARD_FILES == [
        "devkitc-sh1106-keypad.json", "devkitc-ssd1306-buttons.json",
        "devkitc-ssd1306-keypad.json", "devkitc-ssd1306-spi-keypad.json",
        "heltec-wifi-kit-32.json", "host-sim.json", "wemos-lolin32-oled.json"]


@pytest.mark.parametrize("name", BOARD_FILES)
def test_board_file_passes_the_check(name):
    cfg, errors = boardcheck.load(os.path.join(BOARDS, name))
    assert errors == []
    assert boardcheck.display_errors(cfg) == []


def test_board_files_pass_on_micropython_too(micropython):
    code = "import boardcheck\nfor n in %r:\n print(n, boardcheck.load('boards/' + n)[1])\n" % (
        BOARD_FILES,)
    out = micropython(["-c", code]).stdout.decode().splitlines()
    assert out == ["%s []" % n for n in BOARD_FILES]


def test_board_files_say_what_the_design_says():
    ref = load("devkitc-ssd1306-keypad.json")
    assert (ref["display"]["chip"], ref["display"]["sda"], ref["display"]["scl"]) == (
        "ssd1306", 21, 22)
    assert len(ref["keys"]["rows"]) == len(ref["keys"]["cols"]) == 4
    assert load("devkitc-sh1106-keypad.json")["display"]["chip"] == "sh1106"
    heltec = load("heltec-wifi-kit-32.json")["display"]
    assert (heltec["sda"], heltec["scl"], heltec["reset"]) == (4, 15, 16)
    lolin = load("wemos-lolin32-oled.json")["display"]
    assert (lolin["sda"], lolin["scl"]) == (5, 4)
    for n in ("devkitc-ssd1306-buttons.json", "heltec-wifi-kit-32.json",
              "wemos-lolin32-oled.json"):
        assert sorted(load(n)["keys"]["pins"]) == ["BACK", "DOWN", "OK", "UP"]
    # The SPI module on the VSPI pins (SCK 18, MOSI 23: the ESP32's fastest routing), the
    # keypad wired as on the reference build.
    spi = load("devkitc-ssd1306-spi-keypad.json")
    d = spi["display"]
    assert (d["bus"], d["sck"], d["mosi"]) == ("spi", 18, 23)
    assert spi["keys"] == ref["keys"]
    # The reference builds name their cell (the bench's hours of play); the board file
    # without one is good too.
    for n in ("devkitc-ssd1306-keypad.json", "devkitc-ssd1306-buttons.json"):
        assert load(n)["battery"] == {"mAh": 2000, "V": 3.7, "kind": "18650 Li-ion"}
    # Every DevKitC build names its supply: the AMS1117's quiescent current and the power
    # LED's (docs/boards.md, Battery).
    for n in os.listdir(os.path.join(ROOT, "boards")):
        if n.startswith("devkitc-"):
            assert load(n)["supply"] == {"iq_mA": 5.0, "led_mA": 1.0}, n
    assert boardcheck.errors(edit(ref, "battery-", None)) == []
    # The Heltec reads its cell (the gauge): GPIO 37 through 220k/100k, switched by GPIO 21.
    b = load("heltec-wifi-kit-32.json")["battery"]
    assert (b["adc"], b["divider"], b["adc_on"]) == (37, 3.2, 21)
    for n in os.listdir(os.path.join(ROOT, "boards")):
        if n != "heltec-wifi-kit-32.json":
            assert "adc" not in load(n).get("battery", {}), n


# ---- one row per schema error ------------------------------------------------------------


def good():
    return load("devkitc-ssd1306-keypad.json")


def buttons():
    return load("devkitc-ssd1306-buttons.json")


def heltec():
    return load("heltec-wifi-kit-32.json")


def spi():
    return load("devkitc-ssd1306-spi-keypad.json")


def spi_sh1106():
    return edit(spi(), "display.chip", "sh1106")


def edit(base, path, value):
    """A copy of the board with path ("display.sda", "keys.rows.0") set (None value with
    path ending in '-' deletes it)."""
    cfg = json.loads(json.dumps(base))
    keys = path.split(".")
    obj = cfg
    for k in keys[:-1]:
        obj = obj[int(k)] if isinstance(obj, list) else obj[k]
    last = keys[-1]
    if last.endswith("-"):
        del obj[last[:-1]]
    elif isinstance(obj, list):
        obj[int(last)] = value
    else:
        obj[last] = value
    return cfg


ERRORS = [
    # (board, path, value, the messages)
    (good, "colour", "red",
     ["unknown field 'colour' (allowed: name, display, keys, buzzer, wake, wifi, battery, "
     "watchdog, supply)"]),
    (good, "display.sdaa", 21,
     ["display: unknown field 'sdaa' (allowed: bus, chip, sda, scl, addr, freq, reset, "
      "rotate)"]),
    (good, "keys.colums", [1],
     ["keys: unknown field 'colums' (allowed: type, rows, cols, layout)"]),
    (buttons, "keys.pins.LEFT", 13,
     ["keys.pins: unknown field 'LEFT' (allowed: UP, DOWN, OK, BACK)"]),
    (good, "display-", None, ["missing field 'display'"]),
    (good, "keys-", None, ["missing field 'keys'"]),
    (good, "display.sda-", None, ["display: missing field 'sda'"]),
    (buttons, "keys.pins.OK-", None, ["keys.pins: missing field 'OK'"]),
    (good, "display.chip", "ssd1309", ["display.chip: unknown chip 'ssd1309' (ssd1306 or sh1106)"]),
    (good, "display.addr", "0x3E", ["display.addr: '0x3E' is not an OLED address (0x3C or 0x3D)"]),
    (good, "display.freq", 5000000,
     ["display.freq: 5000000 is not a bus speed in Hz (10000-1000000)"]),
    (good, "display.rotate", 1, ["display.rotate: must be true or false"]),
    # Pins that do not exist, or are the flash.
    (good, "buzzer", 24,
     ["buzzer: pin 24 does not exist on the ESP32 (valid: 0-5, 12-19, 21-23, 25-27, 32-39)"]),
    (good, "keys.cols.3", 40,
     ["keys.cols[3]: pin 40 does not exist on the ESP32 (valid: 0-5, 12-19, 21-23, 25-27, "
      "32-39)"]),
    (good, "display.scl", 7,
     ["display.scl: pin 7 is wired to the flash chip (GPIO 6-11); use another pin"]),
    (good, "keys.rows.0", "32", ["keys.rows[0]: '32' is not a pin number"]),
    (good, "buzzer", True, ["buzzer: True is not a pin number"]),
    # Input-only pins asked for an output or a pull-up.
    (good, "keys.rows.1", 34,
     ["keys.rows[1]: pin 34 is input-only (34-39) and cannot be an output"]),
    (good, "keys.cols.0", 35,
     ["keys.cols[0]: pin 35 is input-only (34-39) and has no internal pull-up"]),
    (buttons, "keys.pins.UP", 36,
     ["keys.pins.UP: pin 36 is input-only (34-39) and has no internal pull-up"]),
    (good, "display.sda", 39, ["display.sda: pin 39 is input-only (34-39) and cannot drive I2C"]),
    (good, "display.reset", 37,
     ["display.reset: pin 37 is input-only (34-39) and cannot be an output"]),
    (good, "buzzer", 38, ["buzzer: pin 38 is input-only (34-39) and cannot be an output"]),
    # Strapping pins as keys; the console pins.
    (good, "keys.cols.2", 12,
     ["keys.cols[2]: pin 12 is a strapping pin (0, 2, 12, 15): a key held at power-on can "
      "stop the board from booting"]),
    (buttons, "keys.pins.BACK", 0,
     ["keys.pins.BACK: pin 0 is a strapping pin (0, 2, 12, 15): a key held at power-on can "
      "stop the board from booting"]),
    (good, "keys.rows.2", 2,
     ["keys.rows[2]: pin 2 is a strapping pin (0, 2, 12, 15): a key held at power-on can "
      "stop the board from booting"]),
    (good, "buzzer", 1, ["buzzer: pin 1 is the serial console (TX) used by the REPL and deploy"]),
    # The same pin twice.
    (good, "buzzer", 21, ["pin 21 is used twice: display.sda and buzzer"]),
    (good, "keys.cols.0", 32, ["pin 32 is used twice: keys.rows[0] and keys.cols[0]"]),
    (buttons, "keys.pins.OK", 32,
     ["pin 32 is used twice: keys.pins.UP and keys.pins.OK"]),
    (good, "display.reset", 22, ["pin 22 is used twice: display.scl and display.reset"]),
    # Keys and layout.
    (good, "keys.type", "joystick", ["keys.type: unknown type 'joystick' (keypad or buttons)"]),
    (good, "keys.rows", [], ["keys.rows: must be a list of pins"]),
    (good, "keys.layout", "123A/456B/*0#D", ["keys.layout: 3 rows of keys for 4 row pins"]),
    (good, "keys.layout", "123A/456B/789C/D0#C",
     ["keys.layout: key 'C' appears twice",
      "keys.layout: key '*' is missing (undo and OK need it)"]),
    (good, "keys.layout", "123A/456B/789C/*0#",
     ["keys.layout: row 4 has 3 keys for 4 column pins"]),
    (good, "keys.layout", "123A/456B/789C/*0#1", ["keys.layout: key '1' appears twice"]),
    (good, "keys.layout", "123A/456B/789C/*0#E",
     ["keys.layout: unknown key 'E' (keys are 0123456789ABCD*#)"]),
    (good, "wake", "yes", ["wake: must be true or false"]),
    # The SPI display: its own fields, every line an output, the chips' clock limits.
    (good, "display.bus", "uart", ["display.bus: unknown bus 'uart' (i2c or spi)"]),
    (spi, "display.sda", 26,
     ["display: unknown field 'sda' (allowed: bus, chip, sck, mosi, dc, cs, freq, reset, "
      "rotate)"]),
    (spi, "display.cs-", None, ["display: missing field 'cs'"]),
    (spi, "display.sck", 36,
     ["display.sck: pin 36 is input-only (34-39) and cannot be an output"]),
    (spi, "display.mosi", 39,
     ["display.mosi: pin 39 is input-only (34-39) and cannot be an output"]),
    (spi, "display.dc", 34, ["display.dc: pin 34 is input-only (34-39) and cannot be an output"]),
    (spi, "display.cs", 35, ["display.cs: pin 35 is input-only (34-39) and cannot be an output"]),
    (spi, "display.reset", 38,
     ["display.reset: pin 38 is input-only (34-39) and cannot be an output"]),
    (spi, "display.dc", 8,
     ["display.dc: pin 8 is wired to the flash chip (GPIO 6-11); use another pin"]),
    (spi, "display.cs", 23, ["pin 23 is used twice: display.mosi and display.cs"]),
    (spi, "display.freq", 20000000,
     ["display.freq: 20000000 is not an SPI clock in Hz for the ssd1306 (100000-10000000)"]),
    (spi_sh1106, "display.freq", 8000000,
     ["display.freq: 8000000 is not an SPI clock in Hz for the sh1106 (100000-4000000)"]),
    (good, "name", "", ["name: must be a non-empty string"]),
    # The cell (optional; the bench's hours of play).
    (good, "battery", 2000, ["battery: must be an object {...}"]),
    (good, "battery.V-", None, ["battery: missing field 'V'"]),
    (good, "battery.Ah", 2, ["battery: unknown field 'Ah' (allowed: mAh, V, kind, adc, "
                                   "divider, adc_on)"]),
    (good, "battery.mAh", "2000",
     ["battery.mAh: '2000' is not a capacity in mAh (50-100000)"]),
    (good, "battery.mAh", 0, ["battery.mAh: 0 is not a capacity in mAh (50-100000)"]),
    (good, "battery.mAh", True, ["battery.mAh: True is not a capacity in mAh (50-100000)"]),
    (good, "battery.V", 37, ["battery.V: 37 is not a cell voltage in V (1-24)"]),
    (good, "battery.kind", "", ["battery.kind: must be a non-empty string"]),
    # The gauge's sense pin (ADC1 only), its divider (required with it), its switch.
    (good, "battery.adc", 33,
     ["battery: missing field 'divider'", "pin 33 is used twice: keys.rows[1] and battery.adc"]),
    (heltec, "battery.adc", 12,
     ["battery.adc: pin 12 is not on ADC1 (32-39; ADC2 cannot be read while WiFi is on)"]),
    (heltec, "battery.adc", 27,
     ["battery.adc: pin 27 is not on ADC1 (32-39; ADC2 cannot be read while WiFi is on)",
      "pin 27 is used twice: keys.pins.OK and battery.adc"]),
    (heltec, "battery.divider", 0.5, ["battery.divider: 0.5 is not a divider ratio (1-10)"]),
    (heltec, "battery.divider", "3", ["battery.divider: '3' is not a divider ratio (1-10)"]),
    (heltec, "battery.adc_on", 36,
     ["battery.adc_on: pin 36 is input-only (34-39) and cannot be an output"]),
    (heltec, "battery.adc_on", 4, ["pin 4 is used twice: display.sda and battery.adc_on"]),
    # The watchdog's timeout.
    (good, "watchdog", 500, ["watchdog: 500 is not a timeout in ms (2000-60000, or 0 for none)"]),
    (good, "watchdog", True,
     ["watchdog: True is not a timeout in ms (2000-60000, or 0 for none)"]),
    (good, "watchdog", 0, []),
    (good, "watchdog", 60000, []),
    # The supply (optional; the bench's hours of play): the regulator's and the LED's mA.
    (good, "supply", 5, ["supply: must be an object {...}"]),
    (good, "supply.led_mA-", None, ["supply: missing field 'led_mA'"]),
    (good, "supply.led", 1,
     ["supply: unknown field 'led' (allowed: iq_mA, led_mA)"]),
    # whether the LED can be taken off is the bench's (tools/battery.py), not the board's
    (good, "supply.led_removable", True,
     ["supply: unknown field 'led_removable' (allowed: iq_mA, led_mA)"]),
    (good, "supply.iq_mA", 60, ["supply.iq_mA: 60 is not a current in mA (0-50)"]),
    (good, "supply.led_mA", -1, ["supply.led_mA: -1 is not a current in mA (0-50)"]),
    (good, "supply.led_mA", True, ["supply.led_mA: True is not a current in mA (0-50)"]),
    (good, "supply.iq_mA", "5", ["supply.iq_mA: '5' is not a current in mA (0-50)"]),
    (good, "supply.led_mA", 0, []),
    (good, "supply.iq_mA", 0.055, []),
    (good, "supply-", None, []),
]


@pytest.mark.parametrize("base,path,value,messages", ERRORS,
                         ids=["%s=%r" % (row[1], row[2]) for row in ERRORS])
def test_schema_error(base, path, value, messages):
    assert boardcheck.errors(edit(base(), path, value)) == messages


def test_several_problems_are_all_reported():
    cfg = edit(edit(good(), "display.sda", 6), "keys.cols.1", 36)
    cfg["extra"] = 1
    assert boardcheck.errors(cfg) == [
        "unknown field 'extra' (allowed: name, display, keys, buzzer, wake, wifi, battery, "
     "watchdog, supply)",
        "display.sda: pin 6 is wired to the flash chip (GPIO 6-11); use another pin",
        "keys.cols[1]: pin 36 is input-only (34-39) and has no internal pull-up",
    ]


def test_not_an_object_and_not_json(tmp_path):
    assert boardcheck.errors([1, 2]) == ["the board file must be a JSON object {...}"]
    assert boardcheck.errors(edit(good(), "keys", 5)) == ["keys: must be an object {...}"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "x",')
    cfg, errors = boardcheck.load(str(bad))
    assert cfg is None and len(errors) == 1 and "not valid JSON" in errors[0]


def test_display_part_alone():
    # A key problem leaves the display usable (main.py shows the problems on it)...
    assert boardcheck.display_errors(edit(good(), "keys.cols.0", 35)) == []
    # ...a display problem does not.
    assert boardcheck.display_errors(edit(good(), "display.sda", 36)) == [
        "display.sda: pin 36 is input-only (34-39) and cannot drive I2C"]
    assert boardcheck.address("0x3D") == 0x3D and boardcheck.address(60) == 0x3C


def test_schema_errors_read_the_same_on_micropython(micropython, tmp_path):
    cfgs = [edit(b(), p, v) for b, p, v, _ in ERRORS]
    src = tmp_path / "cfgs.json"
    src.write_text(json.dumps(cfgs))
    code = ("import json, boardcheck\nfor c in json.load(open(%r)):\n"
            " print(json.dumps(boardcheck.errors(c)))\n" % str(src))
    out = micropython(["-c", code]).stdout.decode().splitlines()
    assert [json.loads(line) for line in out] == [m for _, _, _, m in ERRORS]


# ---- main.py with a bad board file (the unix port, fake machine) --------------------------


def boot_with(tmp_path, cfg, micropython_run):
    (tmp_path / "board.json").write_text(json.dumps(cfg))
    code = ("import machine, main\napp = main.run(loops=3)\nprint('APP', app is not None)\n"
            "print('BUS', [b.sent for b in machine.buses])\n")
    proc = micropython_run(["-c", code], cwd=str(tmp_path), paths=[FIRMWARE, FAKE_MACHINE])
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout.decode()


def test_boot_stops_with_the_problems_on_console_and_panel(tmp_path):
    out = boot_with(tmp_path, edit(good(), "keys.cols.0", 35), run_micropython)
    assert "board.json: 1 problem:" in out
    assert "keys.cols[0]: pin 35 is input-only (34-39) and has no internal pull-up" in out
    assert "APP False" in out  # run() returned: no loop, no crash, back to the REPL
    bus = [line for line in out.splitlines() if line.startswith("BUS")][0]
    assert eval(bus[4:])[0] > 1024  # the panel was started and the problems drawn on it
    assert not (tmp_path / "data").exists()  # the app never started


def test_boot_with_a_bad_display_reports_on_the_console_only(tmp_path):
    out = boot_with(tmp_path, edit(good(), "display.chip", "ssd1309"), run_micropython)
    assert "display.chip: unknown chip 'ssd1309' (ssd1306 or sh1106)" in out
    assert "APP False" in out
    assert "BUS []" in out  # no bus was even made


def test_boot_without_a_board_file(tmp_path):
    code = "import main\nprint('APP', main.run(loops=3))\n"
    proc = run_micropython(["-c", code], cwd=str(tmp_path), paths=[FIRMWARE, FAKE_MACHINE])
    out = proc.stdout.decode()
    assert "board.json: cannot be read" in out and "APP None" in out


# ---- make deploy onto the virtual board ------------------------------------------------


@pytest.fixture
def vboard(tmp_path):
    yield from _vboard(tmp_path)


@pytest.fixture
def vboard_romfs(tmp_path):
    # A board whose MicroPython has a 128 KiB ROMFS partition; the virtual board holds the
    # partition in its heap, so it gets that much more.
    yield from _vboard(tmp_path, "--romfs", str(tmp_path / "romfs.bin"), heap="384k")


def _vboard(tmp_path, *extra, heap=HEAP):
    flash = tmp_path / "flash"
    link = tmp_path / "board.tty"
    proc = subprocess.Popen(
        [sys.executable, os.path.join(ROOT, "tools", "vboard.py"), "--dir", str(flash),
         "--link", str(link), "--heapsize", heap, "--path", FAKE_MACHINE] + list(extra),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            if link.exists():
                break
            time.sleep(0.05)
        assert link.exists(), "the virtual board did not start"
        yield str(link), flash
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def make_deploy(board, port):
    proc = subprocess.run(["make", "-s", "deploy", "BOARD=" + board, "PORT=" + port],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def on_board(port, code):
    for _ in range(3):
        proc = subprocess.run([MPREMOTE, "connect", port, "exec", code],
                              capture_output=True, text=True, timeout=60)
        # Right after a deploy's reset the virtual board may still be starting its new
        # process (a ROMFS mount makes that slower), and the REPL banner of the restart
        # can reach this connection after mpremote's first prompt, before any code ran:
        # try again, as a person at a board that is still rebooting would. Any other
        # failure fails at once.
        if proc.returncode == 0 or not ("could not enter raw repl" in proc.stderr
                                        or "could not exec command" in proc.stderr):
            break
        time.sleep(1)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def answers(out):
    """The KEY value lines a board printed, as a dict."""
    got = {}
    for line in out.splitlines():
        if line.startswith("@"):
            key, _, value = line[1:].partition(" ")
            got[key] = value
    return got


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


BOOT = """
import gc, machine, main
from ui.i18n import t
app = main.run(loops=30)
print('@screen', type(app.screen).__name__)
print('@title', getattr(app.screen, 'title', '') == t('new match'))
print('@match', None if app.match.state is None else app.match.state.rules.id)
print('@bus', machine.buses[0].sent)
p = machine.pins
print('@pins', p[32].mode == machine.Pin.OPEN_DRAIN, p[27].pull == machine.Pin.PULL_UP)
print('@buzzer', [w.pin.id for w in machine.pwms])
"""


def test_deploy_boot_restore_and_redeploy(vboard):
    port, flash = vboard
    first = make_deploy(REFERENCE, port)
    assert "check passed" in first
    n = int(first.split("copied ")[1].split(" of ")[1].split()[0])
    assert "copied %d of %d files" % (n, n) in first  # an empty board gets everything
    # What the board holds is what was built, byte for byte; main.py stays source.
    build = os.path.join(ROOT, "build", "firmware")
    for top, _dirs, names in os.walk(build):
        for name in names:
            rel = os.path.relpath(os.path.join(top, name), build)
            assert sha(os.path.join(flash, rel)) == sha(os.path.join(top, name)), rel
    assert (flash / "main.py").read_bytes() == open(os.path.join(FIRMWARE, "main.py"),
                                                    "rb").read()
    assert (flash / "ui" / "app.mpy").exists() and not (flash / "ui" / "app.py").exists()
    assert json.loads((flash / "board.json").read_text()) == load(REFERENCE + ".json")

    # The firmware boots to the new-match list (nothing saved yet), with the board's pins.
    out = on_board(port, BOOT)
    assert "scorekeeper: " + load(REFERENCE + ".json")["name"] + "; heap free" in out
    got = answers(out)
    assert got["screen"] == "List" and got["title"] == "True" and got["match"] == "None"
    assert int(got["bus"]) > 1024  # init cleared the panel and the first render was sent
    assert got["pins"] == "True True" and got["buzzer"] == "[18]"

    # Start a match with the keys (first rule set, dealer by lot): it is saved on "flash".
    out = on_board(port, BOOT + "app.key('1')\napp.key('1')\napp.render()\n"
                   "print('@started', app.match.state.rules.id, type(app.screen).__name__)\n")
    rid = answers(out)["started"].split()[0]
    assert answers(out)["started"].split()[1] == "Scoreboard"
    assert os.listdir(flash / "data")

    # A new process (mpremote soft-resets the virtual board): the match is restored and the
    # scoreboard is shown.
    got = answers(on_board(port, BOOT))
    assert got["screen"] == "Scoreboard" and got["match"] == rid

    # Deploying again copies nothing and leaves the match alone.
    data_before = {n: (flash / "data" / n).read_bytes() for n in os.listdir(flash / "data")}
    again = make_deploy(REFERENCE, port)
    assert "copied 0 of %d files" % n in again
    assert {n: (flash / "data" / n).read_bytes() for n in os.listdir(flash / "data")} == \
        data_before

    # Another board: only board.json changes. Stale files go: a .py that would shadow its
    # .mpy, and a module no longer in the firmware.
    (flash / "boardcheck.py").write_text("raise ImportError('stale')\n")
    (flash / "ui" / "gone.mpy").write_bytes(b"M")
    other = make_deploy("devkitc-ssd1306-buttons", port)
    assert "copied 1 of %d files: board.json" % n in other
    assert "removed 2 stale files: boardcheck.py ui/gone.mpy" in other
    assert not (flash / "boardcheck.py").exists() and not (flash / "ui" / "gone.mpy").exists()
    got = answers(on_board(port, BOOT.replace(
        "p[32].mode == machine.Pin.OPEN_DRAIN, p[27]", "p[32].pull == machine.Pin.PULL_UP, p[26]")))
    assert got["screen"] == "Scoreboard" and got["match"] == rid and got["pins"] == "True True"

    # A board running an update over WiFi (its record names fw/a, whose loop never starts):
    # make deploy is the way back: the record goes, the copied firmware runs, the match stays.
    (flash / "fw" / "a").mkdir(parents=True)
    (flash / "fw" / "a" / "loop.py").write_text("raise ImportError('the update')\n")
    (flash / "fw" / "boot").write_text('{"slot": "a", "ver": 9, "prev": "", "pver": 0, "ok": 1}')
    assert "ImportError" in on_board_fails(port, BOOT)
    back = make_deploy("devkitc-ssd1306-buttons", port)
    assert "an update over WiFi ran: fw/boot removed" in back
    assert not (flash / "fw" / "boot").exists()
    got = answers(on_board(port, BOOT.replace(
        "p[32].mode == machine.Pin.OPEN_DRAIN, p[27]", "p[32].pull == machine.Pin.PULL_UP, p[26]")))
    assert got["screen"] == "Scoreboard" and got["match"] == rid


def on_board_fails(port, code):
    proc = subprocess.run([MPREMOTE, "connect", port, "exec", code], capture_output=True,
                          text=True, timeout=60)
    return proc.stdout + proc.stderr


SPI_BOOT = BOOT + """
bus = machine.buses[0]
print('@spi', type(bus).__name__, bus.baudrate, bus.sck.id, bus.mosi.id, bus.miso)
out = machine.Pin.OUT
print('@lines', [(p[n].mode == out, p[n].level) for n in (21, 5, 22)])
before = bus.sent
app.key('1')
app.render()
print('@more', bus.sent > before)
"""


def test_an_spi_board_deploys_and_boots(vboard):
    # The 7-pin SPI module's board file: the firmware builds SPI(2) on the file's pins, with no
    # MISO, and DC, CS and RES as outputs; the panel is started and drawn through it.
    port, flash = vboard
    board = "devkitc-ssd1306-spi-keypad"
    assert "check passed" in make_deploy(board, port)
    assert (flash / "hw" / "display_spi.mpy").exists()
    assert json.loads((flash / "board.json").read_text()) == load(board + ".json")
    out = on_board(port, SPI_BOOT)
    assert "scorekeeper: " + load(board + ".json")["name"] + "; heap free" in out
    got = answers(out)
    assert got["screen"] == "List" and got["match"] == "None"
    assert got["spi"] == "SPI 4000000 18 23 None"
    # DC, CS and RES are outputs: DC high (display data was the last stream), CS high (the
    # panel is deselected between streams), RES high (out of reset).
    assert got["lines"] == "[(True, 1), (True, 1), (True, 1)]"
    # Init (about 25 command bytes), the panel cleared and the first frame: 2 x 8 pages.
    assert int(got["bus"]) >= 2 * 8 * (3 + 128)
    assert got["more"] == "True"  # a key press redraws through the same bus
    assert got["buzzer"] == "[19]"


ROM_BOOT = BOOT + """
import ui.app, loop
print('@from', ui.app.__file__, loop.__file__)
"""


def test_a_board_with_a_romfs_partition_gets_the_image(vboard_romfs, tmp_path):
    port, flash = vboard_romfs
    # Files first (--files), as a board deployed before ROMFS was used: then the image, and
    # the filesystem's copies of the code go.
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "deploy.py"), "--board",
                           REFERENCE, "--port", port, "--files"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ROMFS partition of 131072 bytes: not used (--files)" in proc.stdout
    assert (flash / "ui" / "app.mpy").exists()
    on_board(port, BOOT + "app.key('1')\napp.key('1')\napp.render()\n")  # a match starts
    data_before = {n: (flash / "data" / n).read_bytes() for n in os.listdir(flash / "data")}
    assert data_before
    copies = [rel for rel in (os.path.relpath(os.path.join(top, n), flash)
                              for top, _dirs, names in os.walk(flash) for n in names)
              if not rel.startswith("data") and rel not in ("main.py", "board.json")]

    first = make_deploy(REFERENCE, port)
    assert "ROMFS partition of 131072 bytes: writing the " in first
    assert "copied 0 of 2 files" in first  # main.py and board.json are already there
    code = sorted(os.path.relpath(os.path.join(top, n), flash)
                  for top, _dirs, names in os.walk(flash) for n in names)
    assert code == sorted(["board.json", "main.py"] + ["data/" + n for n in data_before])
    assert "removed %d stale files" % len(copies) in first and len(copies) > 20
    got = answers(on_board(port, ROM_BOOT))
    assert got["from"] == "/rom/ui/app.mpy /rom/loop.mpy"  # the code runs from the image
    assert got["screen"] == "Scoreboard" and got["match"] is not None and got["match"] != "None"
    assert {n: (flash / "data" / n).read_bytes() for n in os.listdir(flash / "data")} == \
        data_before

    # The same firmware again: the partition is left alone, nothing is copied.
    again = make_deploy(REFERENCE, port)
    assert "holds this firmware already" in again and "copied 0 of 2 files" in again


def test_deploy_refuses_a_bad_board_before_touching_the_port(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(edit(good(), "keys.rows.0", 6)))
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "deploy.py"), "--board", str(bad),
         "--port", str(tmp_path / "no-such-port")], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "keys.rows[0]: pin 6 is wired to the flash chip (GPIO 6-11); use another pin" in \
        proc.stderr
    assert "mpremote" not in proc.stderr


def test_deploy_names_the_boards_for_an_unknown_one():
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "deploy.py"),
                           "--board", "esp8266", "--port", "auto"], capture_output=True,
                          text=True)
    assert proc.returncode == 2
    assert "unknown board 'esp8266'; boards: " + ", ".join(n[:-5] for n in BOARD_FILES) in \
        proc.stderr
