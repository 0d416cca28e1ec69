"""Refusals and flash errors become messages in one place (App.attempt), in MicroPython.

The app runs as main.py builds it (real Display on the simulator's bus, real Session and
Store on a folder); a Session that fails once on a chosen call stands in for a refusal
or a write error that a key sequence alone cannot bring about.
"""

import json

import pytest
from conftest import ROOT
from ui import i18n

i18n.use("en")
T = i18n.t

SETUP = """
import json, os, sys
from session import Session
from hw.display import Display
from store.journal import Store
from sixtysix.cards import suit_of
from sixtysix.errors import Refused
from sim import CountingBus
import font6x10
from ui.app import App


class FailingSession(Session):
    # fail: (call name, exception) raised once, the next time that call is made
    fail = None

    def _maybe(self, name):
        if self.fail is not None and self.fail[0] == name:
            exc = self.fail[1]
            self.fail = None
            raise exc

    def enter(self, rec):
        self._maybe("enter")
        return Session.enter(self, rec)

    def undo(self):
        self._maybe("undo")
        return Session.undo(self)

    def redo(self):
        self._maybe("redo")
        return Session.redo(self)

    def replace_last(self, rec):
        # The amend's take-back and entry are one call: an "undo" fault strikes before it
        # (a refusal comes back as the session's refusals do), an "enter" write fault in
        # its write (FailingStore), after RAM has the new trick.
        try:
            self._maybe("undo")
        except Refused as e:
            return False, e.code
        return Session.replace_last(self, rec)


class FailingStore(Store):
    session = None

    def append(self, line):
        self.session._maybe("enter")
        Store.append(self, line)


def make(root):
    beeps = []
    store = FailingStore(root, os)
    session = store.session = FailingSession(store)
    session.boot()
    session.new_match("new mariage dealer=1")
    app = App(Display(CountingBus()), session, font6x10, "keypad", buzzer=beeps.append)
    app.boot()
    return app, session, beeps


def tricks(app):
    return sum(app.match.state.deal.tricks)
"""

# A trick whose lead carries a suit and whose last card has none yet: the next suit key
# completes that card (Scoreboard._amend). With spades trump and the seat after the leader named
# as the winner, K of hearts led and a 10: the 10 of diamonds makes the named winner lose
# (the trick leaves the match for the entry line); the 10 of hearts wins, so the amend
# goes on to replace the trick (Session.replace_last), where the faults below strike.
AMEND = SETUP + """
app, session, beeps = make(sys.argv[1])
fault = json.loads(sys.argv[2])
leader = app.match.state.deal.leader
for k in ("7", "AB"[1 - leader]) + tuple(sys.argv[3]) + ("2",):
    app.key(k)
before = tricks(app)
if fault:
    session.fail = (fault[0], Refused(fault[1]) if fault[1] else OSError(5))
app.key(sys.argv[4])
print(json.dumps({"before": before, "after": tricks(app), "message": app.message,
                  "beeps": beeps, "last_suit": suit_of(app.match.log[-2])}))
"""

AMEND_CASES = [
    # (fault: (call, refusal code or "" for a write error), message, tricks after, beeps)
    (None, "10\u2666 " + T("loses suit"), 0, [0]),
    (("undo", "nothing_to_undo"), T("x nothing_to_undo"), 1, [0]),  # was "flash error"
    (("undo", ""), T("flash error"), 1, []),
    (("enter", ""), T("flash error"), 1, []),  # the trick is given back as it was
]


@pytest.mark.parametrize("fault,message,after,beeps", AMEND_CASES,
                         ids=["rules", "undo-refused", "undo-write", "enter-write"])
def test_a_suit_that_completes_a_trick_reports_why_it_did_not_count(
        micropython, tmp_path, fault, message, after, beeps):
    suit = "9" if fault is None else "8"  # diamonds; hearts
    proc = micropython(["-c", AMEND, str(tmp_path / "flash"), json.dumps(fault), "38", suit],
                       cwd=ROOT)
    assert proc.returncode == 0, proc.stderr.decode()
    out = json.loads(proc.stdout)
    assert out["before"] == 1
    assert out["message"] == message
    assert out["after"] == after
    assert out["beeps"] == beeps
    assert out["last_suit"] == -1, "no suit came in: the last record is as before the key"


ATTEMPT = SETUP + """
app, session, beeps = make(sys.argv[1])
calls = []


def ok(*args):
    calls.append(list(args))


def refused(*args):
    raise Refused("too_many")


def failed(*args):
    raise OSError(28)


for fn in (ok, refused, failed):
    app.message = "old"
    del beeps[:]
    done = app.attempt(fn, 1, "x")
    print(json.dumps([fn.__name__, done, app.message, beeps]))
print(json.dumps(calls))
"""


def test_attempt_turns_each_outcome_into_its_message(micropython, tmp_path):
    proc = micropython(["-c", ATTEMPT, str(tmp_path / "flash")], cwd=ROOT)
    assert proc.returncode == 0, proc.stderr.decode()
    lines = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert lines == [
        ["ok", True, "old", []],
        ["refused", False, T("x too_many"), [0]],
        ["failed", False, T("flash error"), []],
        [[1, "x"]],
    ]


# Drawing writes nothing: a match's end goes into the statistics in settle(), the step the
# loop takes after a key. The settings are reported once at boot and at each change.
SETTLE = SETUP + """
heard = []
store = FailingStore(sys.argv[1], os)
session = store.session = FailingSession(store)
session.boot()
session.new_match("new mariage target=1 dealer=1 names=Ann,Bob")
app = App(Display(CountingBus()), session, font6x10, "keypad",
          on_settings=lambda s: heard.append(s["lang"]))
app.boot()
print(json.dumps(["boot", heard]))
app.enter(bytes((5, 0, 1)))  # a result worth the one point the match needs: it is over
written = store.bytes_written
print(json.dumps(["render", app.render(), store.bytes_written == written]))
app.settle()
print(json.dumps(["settle", store.bytes_written > written,
                  sorted(session.load_stats()), heard]))
app.key("*")  # undo: the match goes on, no settings changed
app.settle()
app.settings["lang"] = "de"  # as the settings list changes it
app.save_settings()
print(json.dumps(["lang", heard]))
"""


def test_render_writes_nothing_settle_records_the_match_and_settings_are_reported(
        micropython, tmp_path):
    proc = micropython(["-c", SETTLE, str(tmp_path / "flash")], cwd=ROOT)
    assert proc.returncode == 0, proc.stderr.decode()
    lines = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert lines == [["boot", ["en"]], ["render", True, True],
                     ["settle", True, ["Ann", "Bob"], ["en"]], ["lang", ["en", "de"]]]
