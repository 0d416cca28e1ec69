"""The device fuzz (tools/fuzz.py) in short, in MicroPython, plus its own checks.

A short run (20,000 random presses, power cuts, every rule set, both layouts) must finish
with no exception and every invariant holding; the invariant checker must catch a wrong
score, an impossible deal and a flash that does not boot to RAM; the run must be the same
for the same seed. The regressions at the end are crashes the fuzz found in files outside
its own (see their reasons).
"""

import os
import re

from conftest import ROOT
from sixtysix.rules import RULE_SETS

HERE = os.path.dirname(os.path.abspath(__file__))
FUZZ = os.path.join(ROOT, "tools", "fuzz.py")


def _fuzz(micropython, *args):
    proc = micropython([FUZZ, "--quiet"] + [str(a) for a in args], extra_path=(HERE,),
                       timeout=300)
    return proc.returncode, proc.stdout.decode() + proc.stderr.decode()


def _number(out, pattern):
    m = re.search(pattern, out)
    assert m, "%r not in output:\n%s" % (pattern, out)
    return int(m.group(1))


def test_twenty_thousand_presses_with_power_cuts(micropython):
    rc, out = _fuzz(micropython, "--seed", 11, "--presses", 20000, "--segment", 1500)
    assert rc == 0, out[-3000:]
    assert out.rstrip().endswith("OK")
    assert _number(out, r"seed 11: (\d+) presses") == 20000
    assert _number(out, r"power cuts (\d+)") >= 50
    assert _number(out, r"replay checks (\d+)") >= 200
    assert _number(out, r"matches ended (\d+)") >= 1
    assert _number(out, r"entries (\d+)") >= 1000
    seen = out.split("presses per rule set: ")[1].splitlines()[0]
    for rid in RULE_SETS:
        assert re.search(r"\b%s \d+" % re.escape(rid), seen), (rid, seen)


def test_the_same_seed_plays_the_same_presses(micropython):
    runs = [_fuzz(micropython, "--seed", 5, "--presses", 3000, "--segment", 1000)
            for _ in range(2)]
    for rc, out in runs:
        assert rc == 0, out[-3000:]
    # Drop the timing; everything else (counts, cuts, checks) must match.
    strip = [re.sub(r"in [\d.]+ s \(\d+ presses/s\)", "", out) for _rc, out in runs]
    assert strip[0] == strip[1]


CHECKER = """
import sys
from fuzz import Failure, check_state, Fuzz, FlakyFS, Device, ROOT
from sixtysix.match import Match
from sixtysix.events import parse
from sixtysix.snapshot import snapshot

def expect_failure(m, what):
    try:
        check_state(m)
    except Failure as e:
        print(what, "caught:", e)
        return
    print(what, "MISSED")

m = Match()
m.enter_line("new mariage")
for line in ("trump S", "trick 1 A T", "trick 2 K Q"):
    m.enter_line(line)
check_state(m)
print("legal ok")
m.state.score[0] += 1
expect_failure(m, "score")
m = Match()
m.enter_line("new mariage")
m.enter_line("trump S")
m.state.deal.seen[0] = 5
expect_failure(m, "rank")
m = Match()
m.enter_line("new mariage")
m.enter_line("trump S")
m.state.deal.points[1] = 200
expect_failure(m, "points")
m = Match()
m.enter_line("new schnapsen")
m.enter_line("trump S")
m.state.deal.seen[5] = 1
expect_failure(m, "nine")

# A flash that does not boot to what RAM holds.
fz = Fuzz(1)
fs = FlakyFS(dirs=[ROOT])
dev = Device(fs, "keypad")
dev.session.new_match("new mariage")
dev.session.enter(parse("trump S"))
fz.check_replay(fs, dev)
print("replay ok")
dev.session.match.enter(parse("trick 1 A T"))  # in RAM only, never written
try:
    fz.check_replay(fs, dev)
    print("replay MISSED")
except Failure as e:
    print("replay caught:", str(e).splitlines()[0])
"""


def test_the_checks_catch_what_they_are_for(micropython):
    proc = micropython(["-c", CHECKER], extra_path=(HERE,))
    out = proc.stdout.decode()
    assert proc.returncode == 0, out + proc.stderr.decode()
    assert "legal ok" in out
    assert "replay ok" in out
    for what in ("score", "rank", "points", "nine", "replay"):
        assert "%s caught:" % what in out, out
    assert "MISSED" not in out


# ---- regressions: crashes the fuzz found -------------------------------------------------

# A store whose blobs cannot be written (flash full), the app on it.
FAILING_BLOBS = """
import os
from session import Session
from fakebus import CountingBus
from hw.display import Display
from store.journal import Store
from fuzz import FlakyFS, ROOT
import font6x10
from ui.app import App


class FullStore(Store):
    def save_blob(self, name, text):
        raise OSError(28)


session = Session(FullStore(ROOT, FlakyFS(dirs=[ROOT])))
session.boot()
session.new_match("new mariage target=1")
app = App(Display(CountingBus()), session, font6x10, "keypad")
app.boot()
"""


def test_a_failed_statistics_write_at_a_match_end_does_not_crash(micropython):
    code = FAILING_BLOBS + """
ok = not app.enter(bytes((5, 0, 1)))[1]  # side 1 wins the deal, 1 point: the match ends
print("entered", ok, app.match.state.over)
app.settle()
app.render()
print("screen ok")
"""
    proc = micropython(["-c", code], extra_path=(HERE,))
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    assert "entered True True" in out
    assert "screen ok" in out


def test_a_failed_settings_write_does_not_crash(micropython):
    code = FAILING_BLOBS + """
app.settings["lang"] = "de"  # as the settings list changes it
app.save_settings()
app.render()
print("screen ok")
"""
    proc = micropython(["-c", code], extra_path=(HERE,))
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    assert "screen ok" in proc.stdout.decode()
