"""One word per outcome of a result, the same everywhere: counted, held, conflict, late,
refused. The service's console, the director's command, the live page, the director's
page (in Chromium) and docs/club.md say it so, through a real Mosquitto from venue.conf."""

import json
import os
import re
import sys

import pytest
from clubkit import ServiceThread, club_broker
from conftest import FIRMWARE, ROOT
from test_club_director import DIRECTOR_WEB, INC, Table, _open, a_match, cli, played, run, until

sys.path.insert(0, ROOT)
sys.path.insert(0, FIRMWARE)

from net import wire  # noqa: E402

WORDS = ("counted", "held", "conflict", "late", "refused")


@pytest.fixture
def broker(tmp_path):
    with club_broker(tmp_path, 2) as b:
        yield b


PAGES_JS = """(async () => {
  const $ = (id) => document.getElementById(id);
  for (let i = 0; i < 200 && !/counted/.test($(ID).textContent); i++)
    await new Promise(r => setTimeout(r, 50));
  return [$(ID).textContent, [...document.querySelectorAll("#rows .kind")].map(e =>
    e.textContent), $("count") ? $("count").textContent : null];
})()"""


def test_one_word_for_each_outcome(tmp_path, broker, capsys):
    # Issue: the console logged `accepted X` and then `held X` for one result; the
    # director's page labelled held rows "refused", and its "N results counted" counted
    # the held ones too.
    lines = []
    with ServiceThread(str(tmp_path / "ev.sqlite"), broker.port, http=True,
                       director_password=DIRECTOR_WEB, log=lines.append) as svc:
        t = Table(broker.port)
        n = a_match(t)
        t.send(wire.result(INC, n + 1, dict(wire.deal(1, 2, [0, 3], "reached", 1, -1),
                                            ev=None)))  # no entries: held
        t.send(played([(0, 3)])[1])  # #2 again, other content: a conflict
        t.send("not a result")
        until(lambda: len(svc.svc.db.refusals()) == 3)
        svc.settle({"t01": n + 1})
        base = "http://127.0.0.1:%d" % svc.http.server_address[1]
        code, body = _open(base + "/director/state.json", ("director", DIRECTOR_WEB))
        state = json.loads(body)
        code, shown = run(capsys, cli(tmp_path, broker, "show"))
        import browser

        pages = None
        if not browser.missing():
            got = browser.drive(base + "/director", [
                {"do": "goto"}, {"do": "eval", "js": PAGES_JS.replace("ID", '"state"')},
                {"do": "goto", "url": base + "/"},
                {"do": "eval", "js": PAGES_JS.replace("ID", '"title"')}],
                credentials=("director", DIRECTOR_WEB))
            assert got["failed"] is None and not got["errors"], got
            pages = got["results"][1], got["results"][3]
        code2, closed = run(capsys, cli(tmp_path, broker, "close", "--csv", tmp_path / "f.csv"))
        t.send(wire.result(INC, n + 2, wire.deal(1, 3, [1, 0], "reached", 0, -1)))  # late
        until(lambda: svc.svc.db.refusals("late"))
        t.close()
    said = [ln for ln in lines if ln.split(" ", 1)[0] in WORDS + ("accepted",)]
    assert said == [
        "counted t01 %s #1 match" % INC, "counted t01 %s #2 deal" % INC,
        "held t01 %s #3 deal (events): the deal's entries are missing, not counted" % INC,
        "conflict t01 %s #2 deal: differs from the copy kept, not counted" % INC,
        "refused club/t01/result: Expecting value: line 1 column 1 (char 0)",
        "late t01 %s #4 deal: the night is closed, not counted" % INC], lines
    # the director's page: each row's word, and the counts exact (2 counted, 1 held)
    assert (state["counted"], state["held"]) == (2, 1)
    assert [r["kind"] for r in state["not_counted"]] == ["refused", "conflict", "held"]
    assert state["counts"] == {"held": 1, "conflict": 1, "late": 0, "refused": 1}
    # the command
    assert code == 0 and shown.endswith("\n2 results counted, 1 held\n"), shown
    assert "\nHeld, not counted (1)\n" in shown and "\nConflict, not counted" in shown
    assert code2 == 0 and closed.startswith("accepted: closed: 2 results counted, 1 held\n")
    # the pages as Chromium shows them
    if pages is not None:
        director, live = pages
        assert director == ["open · 2 results counted, 1 held",
                            ["refused", "conflict", "held"],
                            "3 results do not count (held 1, conflict 1, late 0, refused 1); "
                            "1 to 3 of them shown, newest first"]
        assert live[0] == "live · 2 results counted, 1 held"
    # the docs say the same words for the same outcomes
    with open(os.path.join(ROOT, "docs", "club.md"), encoding="utf-8") as f:
        docs = " ".join(f.read().split())
    for word in WORDS:
        assert re.search(r"`standings: %s [^`]+`" % word, docs), word
    assert "`accepted t" not in docs and "standings: accepted t" not in docs
