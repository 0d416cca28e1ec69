"""The battery gauge: a board that reads its cell shows the charge, warns at 10 %, and at 3 %
writes its checkpoint, says "charge me" and deep-sleeps; charged, it resumes the match.

host_tests/mp_gauge.py runs the real loop.run() on a fake clock, on the unix port and the
32-bit one, with the Heltec's board file (its sense pin and divider) and the fake machine's
ADC, whose cell runs down through an evening while a match's first deals are typed.
"""

import json
import os

import pytest
from conftest import FIRMWARE, ROOT

FAKE_MACHINE = os.path.join(ROOT, "host_tests", "fake_machine")
RUNNER = os.path.join(ROOT, "host_tests", "mp_gauge.py")
SLEPT = ".fake_deepsleep"  # the fake machine's mark of a deep sleep


def _keys():
    """The buttons' presses of a classic match's setup and first three deals (results)."""
    from keyseq import match_keys, random_match

    lines, _m = random_match("classic66", 5, suits=False, quick=100)
    return "".join(k for _line, k in match_keys(lines, "buttons", results=True)[:4])


def _run(run, folder, keys, from_mv, to_mv, hours):
    with open(os.path.join(folder, "keys.txt"), "w") as f:
        f.write(keys)
    proc = run([RUNNER, "keys.txt", str(from_mv), str(to_mv), str(hours)], cwd=folder,
               paths=[FIRMWARE, FAKE_MACHINE], heapsize="1m", timeout=120)
    assert proc.returncode == 0, proc.stdout.decode()[-2000:] + proc.stderr.decode()
    out = {"batt": [], "say": [], "sleep": None, "boot": None, "end": None, "gauge": None}
    for line in proc.stdout.decode().splitlines():
        word, _, rest = line.partition(" ")
        if word == "BATT":
            t, pct = rest.split()
            out["batt"].append((int(t), None if pct == "None" else int(pct)))
        elif word == "SAY":
            t, words = rest.split(" ", 1)
            out["say"].append((int(t), words))
        elif word == "SLEEP":
            t, ms, js = rest.split(" ", 2)
            out["sleep"] = (int(t), int(ms), json.loads(js))
        elif word == "BOOT":
            out["boot"] = json.loads(rest)
        elif word == "GAUGE":
            out["gauge"] = json.loads(rest)
        elif word == "END":
            out["end"] = json.loads(rest.split(" ", 1)[1])
    return out


@pytest.fixture
def board(tmp_path):
    with open(os.path.join(ROOT, "boards", "heltec-wifi-kit-32.json")) as f:
        cfg = json.load(f)
    (tmp_path / "board.json").write_text(json.dumps(cfg))
    return str(tmp_path)


def test_an_evening_runs_the_cell_down_then_a_charge_resumes_the_match(unix_port, board):
    keys = _keys()
    # 4.10 V to 3.10 V in three hours: 93 % to nothing, the keys typed at the start.
    ev = _run(unix_port, board, keys, 4100, 3100, 3)
    charges = [p for _t, p in ev["batt"]]
    assert charges[0] == 93 and charges == sorted(charges, reverse=True)
    assert len(charges) > 80  # a check a minute: every percent on the way down
    # the warning once, when the charge reached 10 %
    low = [(t, w) for t, w in ev["say"] if w == "Battery low"]
    ten = [t for t, p in ev["batt"] if p == 10]
    assert low == [(ten[0], "Battery low")]
    # at 3 %: "charge me", the match as it was, the deep sleep (10 minutes, then a check)
    assert ev["sleep"] is not None, ev
    t, ms, slept = ev["sleep"]
    assert ms == 600000
    assert [p for at, p in ev["batt"] if at == t] == [3]
    assert (t, "Charge me") in ev["say"]
    assert slept["deals"] == 3 and ev["end"] is None  # the process ended in the deep sleep
    assert ev["gauge"] == [[0] * 8 + [1]] * 2  # 3 %: the bar's last pixel
    assert os.path.exists(os.path.join(board, SLEPT))
    # The deep sleep ends (the chip boots): still empty, so "charge me" and sleep again.
    ev = _run(unix_port, board, "", 3150, 3150, 0.1)
    assert ev["boot"] == slept
    assert [p for _t, p in ev["batt"]] == [2] and ev["sleep"][2] == slept
    # Woken again at 5 % (not yet RESUME): asleep again, the warning not said first.
    ev = _run(unix_port, board, "", 3200, 3200, 0.1)
    assert ev["sleep"] is not None and [w for _t, w in ev["say"]] == ["Charge me"]
    # Charged: the match resumes where it was, and plays on.
    ev = _run(unix_port, board, "", 4000, 4000, 0.1)
    assert ev["boot"] == slept and ev["end"] == slept
    assert ev["sleep"] is None and [p for _t, p in ev["batt"]] == [81]
    assert ev["gauge"] == [[0] + [1] * 8] * 2  # 81 %: 8 of the bar's 9 pixels
    assert not os.path.exists(os.path.join(board, SLEPT))


def test_the_checkpoint_at_3_percent_holds_the_deal_in_progress(micropython, board):
    """Tricks entered one by one, the deal not over: the journal has its lines. At 3 % the
    checkpoint folds them into the summary (its log), the journal is gone, and the boot
    after the charge has the deal as it was, with nothing to replay."""
    from keyseq import match_keys, random_match

    lines, _m = random_match("classic66", 7, suits=False, quick=0)
    keys = "".join(k for _line, k in match_keys(lines, "buttons")[:6])  # trump, 4 tricks
    ev = _run(micropython, board, keys, 3300, 3100, 0.5)
    slept = ev["sleep"][2]
    assert slept["deals"] == 0 and slept["deal"] is not None
    data = os.path.join(board, "data")
    assert sorted(os.listdir(data)) == ["settings.blob", "summary"]  # no journal
    with open(os.path.join(data, "summary"), encoding="utf-8") as f:
        summary = json.loads(f.read().split("\n", 1)[1])
    assert len(summary["log"]) == 5  # the trump and four tricks
    ev = _run(micropython, board, "", 4000, 4000, 0.1)
    assert ev["boot"] == slept and ev["sleep"] is None


def test_a_low_cell_after_a_plain_reset_warns_and_plays_on(micropython, board):
    """At 7 % after a power-on (not the gauge's deep sleep) the board warns and plays: only
    the deep sleep at 3 % waits for RESUME."""
    ev = _run(micropython, board, "", 3250, 3250, 0.1)
    assert [p for _t, p in ev["batt"]] == [7]
    assert [w for _t, w in ev["say"]] == ["Battery low"]
    assert ev["sleep"] is None and ev["end"] == {"match": None}


def test_no_gauge_without_a_sense_pin(micropython, board):
    path = os.path.join(board, "board.json")
    with open(path) as f:
        cfg = json.load(f)
    for k in ("adc", "divider", "adc_on"):
        del cfg["battery"][k]
    with open(path, "w") as f:
        json.dump(cfg, f)
    ev = _run(micropython, board, _keys(), 3100, 3100, 0.1)
    assert ev["batt"] == [] and ev["sleep"] is None and ev["end"]["deals"] == 3
    assert ev["gauge"] == [[0] * 9] * 2  # the scoreboard's corner: nothing drawn there


@pytest.mark.parametrize("mv,pct", [(4300, 100), (4190, 100), (4120, 95), (4050, 90),
                                    (3800, 60), (3760, 55), (3300, 10), (3160, 3),
                                    (3100, 0), (2900, 0)])
def test_the_li_ion_curve(mv, pct):
    from hw import gauge

    assert gauge.percent(mv) == pct


def test_the_sense_pin_through_the_divider():
    """read_mv: the pin's calibrated microvolts averaged, times the divider; the switch
    (adc_on) driven low, and left so (on the Heltec it also switches the Vext rail)."""
    from hw import gauge

    levels = []

    class Pin:
        OUT = 3

        def __init__(self, n, mode=None, value=None):
            self.n = n
            if value is not None:
                levels.append((n, value))

        def value(self, v):
            levels.append((self.n, v))

    class ADC:
        ATTN_11DB = 3

        def __init__(self, pin, atten=None):
            assert pin.n == 37 and atten == 3
            self.k = 0

        def read_uv(self):
            self.k += 1
            return 1200000 + (self.k % 2) * 10000  # noise: the average is 1.205 V

    class Machine:
        pass

    Machine.Pin = Pin
    Machine.ADC = ADC
    cell = {"adc": 37, "divider": 3.2, "adc_on": 21}
    assert gauge.read_mv(Machine, cell) == 3856
    assert levels == [(21, 0)]
    del cell["adc_on"]
    levels.clear()
    assert gauge.read_mv(Machine, cell) == 3856 and levels == []
