"""The watchdog: fed by the main loop only; a hang anywhere resets the board, and the match
boots again exactly as the journal holds it.

The real loop.run() runs in the MicroPython unix port with the fake machine module, whose
WDT watches for real (FAKE_WDT=1): when the loop has not fed it for the timeout it prints
"WDT reset" and kills the process, as a board resets. host_tests/mp_watchdog.py types a
match's first deals into the loop and hangs at the N-th occurrence of one point (a screen, a
frame, the panel's bus, the journal's file, the club link's socket); the test then boots the
firmware again from the same flash folder and compares the match with the snapshots of a
run without a hang.
"""

import json
import os
import re

import pytest
from conftest import FIRMWARE, ROOT, run_micropython

FAKE_MACHINE = os.path.join(ROOT, "host_tests", "fake_machine")
RUNNER = os.path.join(ROOT, "host_tests", "mp_watchdog.py")
TIMEOUT_MS = 2000  # the board file's "watchdog" here (the firmware's default is 8 s)


def _board(folder):
    with open(os.path.join(ROOT, "boards", "devkitc-ssd1306-keypad.json")) as f:
        cfg = json.load(f)
    cfg["watchdog"] = TIMEOUT_MS
    with open(os.path.join(folder, "board.json"), "w") as f:
        json.dump(cfg, f)


def _keys():
    """The presses of a classic match's setup and first three deals, entered as results."""
    from keyseq import match_keys, random_match

    lines, _m = random_match("classic66", 5, suits=False, quick=100)
    return "".join(k for _line, k in match_keys(lines, "keypad", results=True)[:4])


def _run(folder, keys, seconds, hang=None):
    with open(os.path.join(folder, "keys.txt"), "w") as f:
        f.write(keys)
    args = [RUNNER, "keys.txt", str(seconds)] + (list(hang) if hang else [])
    os.environ["FAKE_WDT"] = "1"  # the fake watchdog watches (the runtime inherits it)
    try:
        proc = run_micropython([str(a) for a in args], cwd=folder,
                               paths=[FIRMWARE, FAKE_MACHINE], heapsize="1m", timeout=60)
    finally:
        del os.environ["FAKE_WDT"]
    out = proc.stdout.decode()
    snaps = {}
    boot = None
    for line in out.splitlines():
        if line.startswith("SNAP "):
            _, n, js = line.split(" ", 2)
            snaps[int(n)] = json.loads(js)
        elif line.startswith("BOOT "):
            boot = json.loads(line[5:].rsplit(" ", 2)[0])
    return proc, out, snaps, boot


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The snapshots after each press of a run without a hang; it runs on idle for more than
    twice the timeout after the last key (the loop's naps are short enough to feed it)."""
    folder = str(tmp_path_factory.mktemp("wdt-ref"))
    _board(folder)
    keys = _keys()
    proc, out, snaps, boot = _run(folder, keys, 3 * TIMEOUT_MS // 1000)
    assert proc.returncode == 0, out + proc.stderr.decode()
    assert "WDT reset" not in out and "IDLE" in out
    assert sorted(snaps) == list(range(1, len(keys) + 1))
    snaps[0] = boot
    assert snaps[len(keys)]["deals"] == 3
    return keys, snaps


# (point, N): where the N-th occurrence of the point never returns, and which presses the
# journal holds then: "before" (not the press in progress), "after" (it too), or "either"
# (the hang comes between the two: the test says which one the journal kept).
HANGS = [
    ("press", 1, "before"),  # the first press's screen loops
    ("press", 8, "before"),  # the press that ends the first deal
    ("press", 12, "before"),  # the last press
    ("frame", 1, "after"),  # the frame of a press that is in the journal
    ("frame", 8, "after"),  # the frame of a deal's end (its checkpoint written)
    ("i2c", 1, "either"),  # the panel's bus stops answering
    ("i2c", 40, "either"),
    ("flash", 1, "either"),  # the journal's file write never returns
    ("flash", 4, "either"),
    ("socket", 3, "either"),  # the club link's socket blocks between presses
    ("socket", 40, "after"),  # ... with the keys all typed
]


@pytest.mark.parametrize("point,n,held", HANGS, ids=["%s-%d" % h[:2] for h in HANGS])
def test_a_hang_resets_the_board_and_the_match_resumes(reference, tmp_path, point, n, held):
    keys, snaps = reference
    folder = str(tmp_path)
    _board(folder)
    proc, out, printed, _ = _run(folder, keys, 30, (point, n))
    # killed by the watchdog, not ended: a hang, then the reset
    assert proc.returncode == -9, out + proc.stderr.decode()  # SIGKILL
    assert ("HANG %s %d" % (point, n)) in out
    assert re.search(r"WDT reset after \d+ feeds", out)
    assert out.index("HANG") < out.index("WDT reset")
    done = max(printed) if printed else 0  # presses whose frame was drawn before the hang
    for k, snap in printed.items():  # the run agreed with the reference up to the hang
        assert snap == snaps[k]
    # The board again, from its flash folder: no keys, no hang.
    proc2, out2, _, resumed = _run(folder, "", 1)
    assert proc2.returncode == 0, out2 + proc2.stderr.decode()
    if held == "before":
        assert resumed == snaps[n - 1]
    elif held == "after" and point == "frame":
        assert resumed == snaps[done + 1]
    elif held == "after":
        assert done == len(keys) and resumed == snaps[done]
    else:
        assert resumed in (snaps[done], snaps[min(done + 1, len(keys))])


def test_the_loop_feeds_it_and_naps_at_most_half_the_timeout(tmp_path):
    """The idle policy may ask for an hour's light sleep: the loop sleeps at most half the
    watchdog's timeout, feeding it before each sleep."""
    _board(str(tmp_path))
    code = """
import main, machine
import hw.power
waits = []
Power = hw.power.Power
Power.wait_ms = lambda self, now, idle: 3600000
Power.sleep = lambda self, ms: waits.append(ms)
app = main.run(loops=20)
w = machine.watchdog
print("WDT", w.timeout, w.feeds, max(waits), len(waits))
"""
    proc = run_micropython(["-c", code], cwd=str(tmp_path), paths=[FIRMWARE, FAKE_MACHINE],
                           heapsize="1m")
    assert proc.returncode == 0, proc.stderr.decode()
    line = [x for x in proc.stdout.decode().splitlines() if x.startswith("WDT")][0]
    assert line.split()[1:] == [str(TIMEOUT_MS), "20", str(TIMEOUT_MS // 2), "20"]


def test_no_watchdog_when_the_board_file_says_0(tmp_path):
    with open(os.path.join(ROOT, "boards", "devkitc-ssd1306-keypad.json")) as f:
        cfg = json.load(f)
    cfg["watchdog"] = 0
    (tmp_path / "board.json").write_text(json.dumps(cfg))
    code = "import main, machine\nmain.run(loops=3)\nprint('WDT', machine.watchdog.started)\n"
    proc = run_micropython(["-c", code], cwd=str(tmp_path), paths=[FIRMWARE, FAKE_MACHINE],
                           heapsize="1m")
    assert proc.returncode == 0, proc.stderr.decode()
    assert "WDT 0" in proc.stdout.decode()


def test_only_the_main_loop_feeds_it():
    """No timer, no thread, no other module feeds the watchdog: a hung loop must not be kept
    alive by anything."""
    feeds = []
    for top, _dirs, files in os.walk(FIRMWARE):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(top, name)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                rel = os.path.relpath(path, FIRMWARE)
                feeds += [rel for line in text.splitlines()
                          if ".feed()" in line and not line.lstrip().startswith("#")]
                assert "Timer(" not in text and "_thread" not in text, rel
    assert set(feeds) == {"loop.py"}
