"""A table whose flash goes back to an older copy (restored, or a card swapped) never gives a
result number twice: the service's retained ack names a number the table never gave, so the
table numbers on after it, says so on its panel, and the service records the gap for the
director. The firmware under the MicroPython unix port against a real Mosquitto."""

import os
import shutil
import sqlite3

import pytest
from clubkit import (
    ServiceThread,
    club_broker,
    club_file,
    expected,
    last_json,
    players,
    run_table,
)
from conftest import FIRMWARE


@pytest.fixture
def broker(tmp_path):
    with club_broker(tmp_path, 1) as b:
        yield b


def text(lang, key):
    """A message as the table's language file has it."""
    with open(os.path.join(FIRMWARE, "ui", "lang", lang + ".txt"), encoding="utf-8") as f:
        for line in f:
            k, sep, v = line.rstrip("\n").partition(" = ")
            if sep and k == key:
                return v
    raise KeyError(key)


def rows(db, sql, *args):
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def test_a_table_restored_from_an_older_copy_numbers_on_after_the_service(tmp_path, broker):
    folder = str(tmp_path)
    flash = os.path.join(folder, "t01")
    older = str(tmp_path / "copies" / "t01")  # not beside the tables: truth() reads those
    club = club_file(folder, "t01", broker.port, "pw-t01")
    db = str(tmp_path / "ev.sqlite")
    log = []
    svc = ServiceThread(db, broker.port)
    svc.svc.log = log.append
    with svc:
        # The match and two deals, acked (1..3); the flash is copied; two more deals, acked
        # (4, 5). The target is out of reach of four deals: one match throughout.
        out = last_json(run_table(folder, "t01", club,
                                  "new classic66 target=30 names=Ann,Bob;deals 2 1;wait 10"
                                  ).stdout)
        assert (out["acked"], out["next"]) == (3, 4), out
        shutil.copytree(flash, older)
        out = last_json(run_table(folder, "t01", club, "deals 2 5;wait 10").stdout)
        assert (out["acked"], out["next"]) == (5, 6), out
        inc = out["inc"]
        # The flash restored from the copy, and the table switched on again: it hears the
        # service's ack (5, retained) before its players type the lost deals again, here
        # otherwise than the first time.
        shutil.rmtree(flash)
        shutil.copytree(older, flash)
        out = last_json(run_table(folder, "t01", club,
                                  "lang uk;acked 5 15;deals 2 9;wait 10").stdout)
        got = svc.settle({"t01": out["next"] - 1})
    assert out["inc"] == inc  # the copy's incarnation: only the numbers tell
    # 6 is the gap, 7 and 8 the deals typed again: no number given twice.
    assert out["pending"] == 0 and out["acked"] == out["next"] - 1 == 8, out
    assert text("uk", "club gap") in out["said"]
    seqs = rows(db, "SELECT seq, json_extract(body, '$.kind'), json_extract(body, '$.deal') "
                "FROM results WHERE table_id = 't01' AND inc = ? ORDER BY seq", inc)
    assert [s for s, _k, _d in seqs] == list(range(1, 9))
    assert seqs[5:] == [(6, "gap", None), (7, "deal", 3), (8, "deal", 4)]
    # The director's view: the gap as a row, a log line, and no conflict anywhere.
    assert rows(db, "SELECT table_id, inc, seq, lost_from, lost_to FROM gaps") == [
        ("t01", inc, 6, 4, 5)]
    assert got["gaps"] == [{"table": "t01", "inc": inc, "seq": 6, "from": 4, "to": 5}]
    assert [ln for ln in log if ln.startswith("gap t01")], log
    assert rows(db, "SELECT why FROM refused") == []
    assert not [ln for ln in log if "conflict" in ln or ln.startswith("refused")], log
    # The deals typed again supersede the lost ones: the standings are the table's match.
    assert got["tables"]["t01"]["acked"] == 8
    assert players(got) == expected(folder)
