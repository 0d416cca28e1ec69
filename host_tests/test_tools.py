"""The command-line tools as a user meets them.

- tools/sim.py: --help and bad arguments without a terminal, the panel modes of
  tools/termpanel.py (every mode shows the same pixels).
- tools/replay.py and `make replay`: a missing file or a JSON file is refused with one
  line and exit code 2, under both runtimes.
- tools/find_board.py: the choice `make run` makes between deploying and the simulator.
"""

import json
import os
import random
import subprocess
import sys

import pytest
import sim
import termpanel
from conftest import ROOT, TOOLS
from find_board import DEFAULT_BOARD, ESP32_USB_SERIAL, decide, esp32_ports, serial_ports
from serial.tools.list_ports_common import ListPortInfo

SIM = os.path.join(TOOLS, "sim.py")
REPLAY = os.path.join(TOOLS, "replay.py")
SCENARIO = os.path.join(ROOT, "host_tests", "scenarios", "mariage_basic.txt")

# Text lines and characters per line of each panel mode.
MODE_SIZE = {"quad": (32, 64), "half": (32, 128), "big": (64, 256), "braille": (16, 64)}


def make(*args):
    """`make -s ARGS` at the root, without the flags of a make that may be running the tests."""
    env = dict(os.environ)
    for name in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS"):
        env.pop(name, None)
    return subprocess.run(["make", "-s"] + list(args), capture_output=True, text=True, cwd=ROOT,
                          env=env)


def one_line_refusal(proc, prefix):
    err = proc.stderr.decode() if isinstance(proc.stderr, bytes) else proc.stderr
    assert proc.returncode == 2, err
    assert "Traceback" not in err
    assert len(err.strip().split("\n")) == 1, err
    assert err.startswith(prefix), err
    return err


# --- panel modes ------------------------------------------------------------------------


def test_the_modes_table_covers_every_mode():
    assert set(MODE_SIZE) == set(termpanel.MODES)


@pytest.mark.parametrize("mode", termpanel.MODES)
def test_a_panel_survives_the_trip_to_text_and_back(mode):
    rnd = random.Random(mode)
    px = [[rnd.randrange(2) for _x in range(termpanel.W)] for _y in range(termpanel.H)]
    lines = termpanel.lines(lambda x, y: px[y][x], mode)
    rows, width = MODE_SIZE[mode]
    assert len(lines) == rows
    assert {len(line) for line in lines} == {width}
    assert termpanel.pixels(lines, mode) == px


def test_the_braille_dots_sit_where_the_pixels_are():
    # Top left is dot 1 (U+2801), bottom right dot 8 (U+2880), per the Braille pattern block.
    def one(x, y):
        return lambda px, py: int((px, py) == (x, y))

    assert termpanel.lines(one(0, 0), "braille")[0][0] == "\u2801"
    assert termpanel.lines(one(1, 3), "braille")[0][0] == "\u2880"
    assert termpanel.lines(one(1, 0), "big")[0][:4] == "  \u2588\u2588"


def test_every_panel_mode_of_the_simulator_shows_the_same_pixels(micropython, tmp_path):
    seen = {}
    for mode in termpanel.MODES:
        dump = tmp_path / (mode + ".txt")
        proc = micropython([SIM, "--flash", str(tmp_path / mode), "--keys", "8812",
                            "--panel", mode, "--dump", str(dump)])
        assert proc.returncode == 0, proc.stderr.decode()
        seen[mode] = termpanel.pixels(dump.read_text().split("\n"), mode)
    lit = sum(map(sum, seen["quad"]))
    assert 300 < lit < 128 * 64 - 300  # a real screen, not an empty or a full one
    for mode in termpanel.MODES:
        assert seen[mode] == seen["quad"], mode


# --- the simulator's arguments -----------------------------------------------------------


def test_help_prints_every_option_without_a_terminal(micropython):
    proc = micropython([SIM, "--help"], stdin=b"")
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.decode()
    assert out == sim.USAGE
    for option in list(sim._VALUED) + list(sim._FLAGS):
        assert option in out, option
    for mode in termpanel.MODES:
        assert mode in out, mode


@pytest.mark.parametrize("args, says", [
    (["--bogus"], "unknown argument --bogus"),
    (["--panel"], "--panel needs a value"),
    (["--keys"], "--keys needs a value"),
    (["--panel", "huge"], "--panel is one of quad half big braille"),
])
def test_bad_arguments_are_refused_in_one_line(micropython, tmp_path, args, says):
    flash = tmp_path / "flash"
    proc = micropython([SIM, "--flash", str(flash)] + args, stdin=b"")
    assert says in one_line_refusal(proc, "sim.py: ")
    assert not flash.exists()


def test_the_interactive_simulator_without_a_terminal_says_so(micropython, tmp_path):
    flash = tmp_path / "flash"
    proc = micropython([SIM, "--flash", str(flash)], stdin=b"12")
    assert "needs a terminal" in one_line_refusal(proc, "sim.py: ")
    assert not flash.exists()


# --- replay -------------------------------------------------------------------------------


def replay_json(tmp_path):
    """What replay prints for a scenario: JSON, which replay must not take as input."""
    out = subprocess.run([sys.executable, REPLAY, SCENARIO], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    path = tmp_path / "replayed.json"
    path.write_text(out.stdout)
    return path


def runtimes(micropython):
    return {
        "python3": lambda path: subprocess.run([sys.executable, REPLAY, str(path)],
                                               capture_output=True, cwd=ROOT),
        "micropython": lambda path: micropython([REPLAY, str(path)]),
    }


@pytest.mark.parametrize("runtime", ["python3", "micropython"])
@pytest.mark.parametrize("case, says", [
    ("missing", "cannot read"),
    ("own output", "holds JSON"),
    ("json list", "holds JSON"),
    ("not text", "is not text"),
])
def test_replay_refuses_what_is_not_event_lines(micropython, tmp_path, runtime, case, says):
    if case == "missing":
        path = tmp_path / "nowhere.txt"
    elif case == "own output":
        path = replay_json(tmp_path)
    else:
        path = tmp_path / "input"
        path.write_bytes(b'  ["trump S"]\n' if case == "json list" else b"\xff\xfe\x00")
    proc = runtimes(micropython)[runtime](path)
    assert says in one_line_refusal(proc, "replay: ")
    assert proc.stdout == b""


@pytest.mark.parametrize("runtime", ["python3", "micropython"])
def test_replay_still_takes_event_lines(micropython, runtime):
    proc = runtimes(micropython)[runtime](SCENARIO)
    assert proc.returncode == 0, proc.stderr.decode()
    out = json.loads(proc.stdout)
    assert out["refused"] == [[8, "deal_over"]]  # the scenario's late trick, line 8
    assert out["deals"] == 1


def test_make_replay_refuses_a_json_file(tmp_path):
    proc = make("replay", "EVENTS=" + str(replay_json(tmp_path)))
    assert proc.returncode != 0
    assert proc.stderr.startswith("replay: ") and "holds JSON" in proc.stderr.split("\n")[0]
    assert proc.stdout == ""


# --- make run: a board or the simulator ----------------------------------------------------


def port(device, vid=None, pid=None):
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = vid, pid
    return info


CP210X = port("/dev/ttyUSB0", 0x10C4, 0xEA60)
CH340 = port("/dev/ttyUSB1", 0x1A86, 0x7523)
MODEM = port("/dev/ttyACM0", 0x2341, 0x0043)  # an Arduino Uno: USB serial, not an ESP32
BUILTIN = port("/dev/ttyS0")  # a serial port with no USB ids
DEPLOY = "deploy BOARD=%s PORT=" % DEFAULT_BOARD


@pytest.mark.parametrize("board, given_port, ports, goal", [
    ("", "auto", [], "sim"),
    ("", "auto", [BUILTIN, MODEM], "sim"),
    ("", "auto", [CP210X], DEPLOY + "/dev/ttyUSB0"),
    ("", "auto", [MODEM, CH340], DEPLOY + "/dev/ttyUSB1"),
    ("", "", [CH340], DEPLOY + "/dev/ttyUSB1"),
    ("heltec-wifi-kit-32", "auto", [], "deploy BOARD=heltec-wifi-kit-32 PORT=auto"),
    ("heltec-wifi-kit-32", "auto", [CP210X], "deploy BOARD=heltec-wifi-kit-32 PORT=/dev/ttyUSB0"),
    ("", "/dev/ttyACM0", [MODEM], DEPLOY + "/dev/ttyACM0"),
    ("wemos-lolin32-oled", "/dev/ttyUSB9", [CP210X],
     "deploy BOARD=wemos-lolin32-oled PORT=/dev/ttyUSB9"),
])
def test_make_run_deploys_only_to_an_esp32_or_when_asked(board, given_port, ports, goal):
    got, why = decide(board, given_port, ports)
    assert " ".join(got) == goal
    assert why.endswith(": the simulator" if goal == "sim" else ": deploy")


def test_every_listed_chip_counts_as_a_board():
    for (vid, pid), chip in ESP32_USB_SERIAL.items():
        assert esp32_ports([BUILTIN, port("/dev/x", vid, pid)])[0].device == "/dev/x", chip
        assert esp32_ports([port("/dev/x", vid, pid ^ 1)]) == []  # same maker, other chip


def test_make_run_with_a_board_named_goes_to_deploy():
    # An unknown board stops in deploy's board check, before any port is opened.
    proc = make("run", "BOARD=no-such-board")
    assert proc.returncode != 0
    assert "make run: asked for a board" in proc.stderr
    assert "unknown board 'no-such-board'" in proc.stderr


def test_make_run_without_a_board_starts_the_simulator(tmp_path):
    if esp32_ports(serial_ports()):
        pytest.skip("an ESP32 is attached: make run would deploy to it")
    args = "--flash %s --keys 12 --state" % (tmp_path / "flash")
    proc = make("run", "ARGS=" + args)
    assert proc.returncode == 0, proc.stderr
    assert "make run: no ESP32 USB-serial chip attached: the simulator" in proc.stderr
    assert json.loads(proc.stdout)["rules"] == "mariage"
