"""Lists that are whole: `list` pages through every row of the results that do not count
(`--all`, `--before ROW`), with counts made over every row, not over the rows one reply
carries; `show` lists the held, conflicting and late results with their rows and prints
each match's INC; the director's page pages too and says how many rows there are. Through
a real Mosquitto started from venue.conf, whose 8 KB message limit every reply must pass."""

import json
import re
import sys

import pytest
from clubkit import ServiceThread, club_broker
from conftest import FIRMWARE, ROOT
from test_club_director import DIRECTOR_WEB, INC, Table, _open, a_match, cli, played, run, until

sys.path.insert(0, ROOT)
sys.path.insert(0, FIRMWARE)

from net import wire  # noqa: E402

BAD = 70  # malformed messages: far more rows than one reply carries


@pytest.fixture
def broker(tmp_path):
    with club_broker(tmp_path, 2) as b:
        yield b


def _night(svc, broker, tmp_path, capsys):
    """t01: a match (2 results counted), a held deal, a conflict, BAD malformed messages of
    ~250 bytes each; the night closed, then a late deal. Returns {kind: [row ids]}."""
    t = Table(broker.port)
    n = a_match(t)
    t.send(wire.result(INC, n + 1, dict(wire.deal(1, 2, [0, 3], "reached", 1, -1), ev=None)))
    t.send(played([(0, 3)])[1])  # #2 again, other content
    for i in range(BAD):
        t.send('{"v":1,"inc":"%s","seq":%d,"kind":"deal","pad":"%s"' % (INC, 100 + i, "x" * 200))
    until(lambda: len(svc.svc.db.refusals()) == BAD + 2, 20)
    code, out = run(capsys, cli(tmp_path, broker, "close", "--csv", tmp_path / "f.csv"))
    assert code == 0, out
    t.send(wire.result(INC, n + 2, wire.deal(1, 3, [1, 0], "reached", 0, -1)))  # late
    until(lambda: svc.svc.db.refusals("late"))
    t.close()
    kinds = {}
    for r in svc.svc.db.refusals():
        kinds.setdefault(r["kind"], []).append(r["id"])
    assert {k: len(v) for k, v in kinds.items()} == {"held": 1, "conflict": 1, "bad": BAD,
                                                      "late": 1}
    return kinds


COUNTS = "73 results do not count (held 1, conflict 1, late 1, refused 70)"


def _rows(out):
    return [int(m) for m in re.findall(r"(?m)^row (\d+)  ", out)]


def test_list_pages_through_every_row_and_counts_them_all(tmp_path, broker, capsys):
    # Issue: `list` showed the newest 40 rows and counted only those ("22 results do not
    # count" when about 290 did not).
    with ServiceThread(str(tmp_path / "ev.sqlite"), broker.port) as svc:
        kinds = _night(svc, broker, tmp_path, capsys)
        every = sorted((i for ids in kinds.values() for i in ids), reverse=True)
        assert len(every) == 73
        code, out = run(capsys, cli(tmp_path, broker, "list"))
        first = _rows(out)
        assert code == 0 and first == every[:len(first)] and 1 < len(first) < 40, out
        assert out.splitlines()[-1] == (
            COUNTS + "; results 1 to %d of them (newest first) are above: `list --before %d` "
            "for the next page, `list --all` for every one" % (len(first), first[-1]))
        code, out = run(capsys, cli(tmp_path, broker, "list", "--before", first[-1]))
        second = _rows(out)
        assert code == 0 and second == every[len(first):len(first) + len(second)], out
        assert out.splitlines()[-1].startswith(
            COUNTS + "; results %d to %d of them" % (len(first) + 1, len(first) + len(second)))
        code, out = run(capsys, cli(tmp_path, broker, "list", "--all"))
        assert code == 0 and _rows(out) == every, out
        assert out.splitlines()[-1] == COUNTS + ": every one is listed above"
        held, = kinds["held"]
        assert "row %d  held  t01 %s #3 deal: the deal's entries are missing\n" % (held, INC) \
            in out


def test_show_lists_held_conflict_and_late_results_and_each_matchs_inc(tmp_path, broker,
                                                                       capsys):
    # Issue: conflicts appeared only in `list`, not in `show`; show did not print the INC
    # that `correct` and `void` need.
    with ServiceThread(str(tmp_path / "ev.sqlite"), broker.port) as svc:
        kinds = _night(svc, broker, tmp_path, capsys)
        code, out = run(capsys, cli(tmp_path, broker, "show"))
    assert code == 0, out
    assert "  t01   %s 1: Ann v Bob  2 : 0  (playing)\n" % INC in out
    (held,), (conflict,), (late,) = kinds["held"], kinds["conflict"], kinds["late"]
    assert ("\nHeld, not counted (1)\n  row %d  t01 %s #3 match 1 deal 2 (events)\n"
            "      the deal's entries are missing\n" % (held, INC)) in out
    assert ("\nConflict, not counted (another copy counts) (1)\n  row %d  t01 %s #2 match 1 "
            "deal 1\n      differs from the copy kept\n" % (conflict, INC)) in out
    assert ("\nLate, not counted (after the close) (1)\n  row %d  t01 %s #4 match 1 deal 3\n"
            "      the night is closed\n" % (late, INC)) in out
    assert "\nRefused, not results (70): `list` shows them\n" in out
    assert out.endswith("\n2 results counted, 1 held\n")


def test_the_directors_page_pages_and_says_how_many_rows(tmp_path, broker, capsys):
    # Issue: the director's page stopped at 200 rows and said nothing of the rest.
    with ServiceThread(str(tmp_path / "ev.sqlite"), broker.port, http=True,
                       director_password=DIRECTOR_WEB) as svc:
        kinds = _night(svc, broker, tmp_path, capsys)
        every = sorted((i for ids in kinds.values() for i in ids), reverse=True)
        base = "http://127.0.0.1:%d/director/state.json" % svc.http.server_address[1]
        me = ("director", DIRECTOR_WEB)
        code, body = _open(base, me)
        first = json.loads(body)
        code2, body = _open(base + "?before=%d" % first["next"], me)
        second = json.loads(body)
        assert _open(base + "?before=x", me)[0] == 400
    assert code == code2 == 200
    want = {"held": 1, "conflict": 1, "late": 1, "refused": BAD}
    for page in (first, second):
        assert (page["total"], page["counts"]) == (73, want)
    assert [r["id"] for r in first["not_counted"]] == every[:50]
    assert (first["newer"], first["next"]) == (0, every[49])
    assert [r["id"] for r in second["not_counted"]] == every[50:]
    assert (second["newer"], second["next"]) == (50, None)
    kind = {r["id"]: r["kind"] for r in first["not_counted"] + second["not_counted"]}
    assert {k: kind[i] for k, (i, *_) in kinds.items()} == {
        "held": "held", "conflict": "conflict", "late": "late", "bad": "refused"}
