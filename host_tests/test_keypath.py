"""One key, followed through the calls (docs/architecture.md, "One key press" and the third
redesign step's table): the calls that cross between the App, the keymap, the Scoreboard,
the Session and the Match while the trick's last card is typed, counted by tracing the real
firmware on CPython (the unix ports have no settrace), now and at the commit before the
third redesign step. The page's calls into Python per key are test_web_page.py's."""

import json
import os
import re
import subprocess
import sys

import pytest
from conftest import ROOT

BEFORE = "e096f27"  # the last commit before the third redesign step (issue 47)
DOC = os.path.join(ROOT, "docs", "architecture.md")
ROW = "| calls between App, keymap, Scoreboard, Session and Match"

# Run in a fresh interpreter on the firmware folder given: a classic66 match, trump, a
# winner and the first card typed, then the trick's last card traced. Prints the crossings
# ("App.key -> keymap.action") as JSON. The scoreboard and the session had other files
# before the redesign (ui/board.py, app/__init__.py): the same parts.
TRACER = r'''
import json, os, sys, tempfile
sys.path.insert(0, sys.argv[1])
import wiring

class Panel:
    def __getattr__(self, name):
        return lambda *a, **k: None

PARTS = {"ui/app.py": "App", "ui/keymap.py": "keymap", "ui/scoreboard.py": "Scoreboard",
         "ui/board.py": "Scoreboard", "session/__init__.py": "Session",
         "app/__init__.py": "Session", "sixtysix/match.py": "Match"}

def part(code):
    f = code.co_filename.replace(os.sep, "/")
    for k, v in PARTS.items():
        if f.endswith("/" + k):
            return v
    return None

app = wiring.build(Panel(), tempfile.mkdtemp(), os, None, "keypad")
app.new_match("new classic66 names=Ann,Bob")
app.home()  # the scoreboard, as the new-match list leaves it
for k in "7B1":  # trump, the winner, the first card
    app.press(k)
entries = len(app.match.log)
calls = []

def profile(frame, event, arg):
    if event == "call" and frame.f_back is not None:
        to, by = part(frame.f_code), part(frame.f_back.f_code)
        if to and by and to != by:
            calls.append("%s.%s -> %s.%s" % (by, frame.f_back.f_code.co_name, to,
                                             frame.f_code.co_name))

sys.setprofile(profile)
app.key("2")  # the trick's last card: the key up to the journal, before settle and render
sys.setprofile(None)
assert len(app.match.log) > entries and not app.message, "the trick did not count"
print(json.dumps(calls))
'''


def crossings(firmware):
    out = subprocess.run([sys.executable, "-c", TRACER, firmware], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def hops(calls):
    """The parts' hand-overs, each pair once: App -> keymap, App -> Scoreboard, ..."""
    return {tuple(p.split(".")[0] for p in c.split(" -> ")) for c in calls}


def doc_row():
    """(before calls, before hops, after calls, after hops) as the table says."""
    with open(DOC, encoding="utf-8") as f:
        rows = [ln for ln in f.read().splitlines() if ln.startswith(ROW)]
    assert len(rows) == 1, "docs/architecture.md has no row %r" % ROW
    cells = [c.strip() for c in rows[0].strip("|").split("|")]
    pairs = [re.fullmatch(r"(\d+) \((\d+) hops\)", c) for c in cells[1:3]]
    assert all(pairs), cells
    return tuple(int(n) for m in pairs for n in m.groups())


def test_the_trick_s_last_key_crosses_as_the_doc_says():
    calls = crossings(os.path.join(ROOT, "firmware"))
    # The path of docs/architecture.md: the keymap asked, the scoreboard acts, reads the
    # match and hands the record to the App, the App to the Session, the Session to the
    # Match (its mark first, to take the change back if the write fails).
    assert calls == ["App.key -> keymap.action", "App.key -> Scoreboard.act",
                     "Scoreboard.act -> App.match", "Scoreboard._complete -> App.enter",
                     "App.enter -> Session.enter", "Session.enter -> Match.mark",
                     "Session.enter -> Match.enter"], calls
    assert doc_row()[2:] == (len(calls), len(hops(calls)))


def test_before_the_redesign_step_the_key_crossed_as_the_doc_says(tmp_path):
    # The "before" column, counted the same way on the firmware of the commit before.
    got = subprocess.run(["git", "-C", ROOT, "archive", BEFORE, "firmware"],
                         capture_output=True, timeout=60)
    if got.returncode != 0:
        pytest.skip("commit %s is not in this clone" % BEFORE)
    subprocess.run(["tar", "-x", "-C", str(tmp_path)], input=got.stdout, check=True)
    calls = crossings(str(tmp_path / "firmware"))
    assert doc_row()[:2] == (len(calls), len(hops(calls)))
