"""The standings service counts only what the tables' own core agrees with (club/rescore.py):
each deal message carries its entries, which the service scores again in the sixtysix core
(firmware/sixtysix/, the same code as the boards), and a match of a seated round must come
from the table and players the director seated. Anything else is held: stored whole with
its reason at once, logged, listed for the director, acked, never counted.

The service runs here without a broker where only its verdicts are looked at (as
test_club_safety does), and with real Mosquitto and a firmware table in the MicroPython
unix port for the end to end case."""

import json
import os
import sqlite3
import sys

import mosquitto
import pytest
from clubkit import (
    PASSWORDS,
    ServiceThread,
    brokerless_service,
    club_file,
    expected,
    feed,
    last_json,
    need_broker,
    players,
    run_table,
    seat_heard,
    table_passwords,
)
from clubplay import Played
from conftest import ROOT

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


_service = brokerless_service
_send = feed
_seat = seat_heard


def _held(svc):
    return [(h["table"], h["seq"], h["code"]) for h in svc.event.standings()["held"]]


def _restart(svc, tmp_path):
    """The service stopped and started again on its database: the verdicts stand."""
    svc.db.close()
    return _service(tmp_path)[0]


def test_a_99_to_99_deal_is_held_and_changes_no_standing(tmp_path):
    # Issue: a deal of 99:99 game points was accepted and counted (its schema was fine).
    svc, lines = _service(tmp_path)
    p = Played()
    p.deal("result 1 2")
    _send(svc, p.payloads)
    before = svc.event.standings()
    forged = {"kind": "deal", "match": 1, "deal": 2, "gp": [99, 99], "reason": "quick",
              "winner": 0, "over": -1, "ev": "050002"}
    payload = p.send(forged)
    _send(svc, [payload])
    after = svc.event.standings()
    assert after["players"] == before["players"]
    assert after["rounds"] == before["rounds"]
    assert _held(svc) == [("t01", 3, "score")]
    assert svc.event.ack("t01") == ("abcd0001", 3)  # acked: the table stops sending it
    # Logged in one line, stored whole with its reason at once (another connection sees it).
    assert lines[-1] == ("held t01 abcd0001 #3 deal (score): the entries score gp 2:0, "
                         "the result says gp 99:99, not counted")
    row = sqlite3.connect(str(tmp_path / "night.sqlite")).execute(
        "SELECT id, body, kind, code, table_id, inc, seq FROM refused").fetchall()
    assert row == [(1, payload, "held", "score", "t01", "abcd0001", 3)]
    got = svc.db.refusal(1)
    assert json.loads(got["body"]) == json.loads(payload) and got["kind"] == "held"
    # The director sees it: in the standings' list and in `director show`.
    from club.view import render

    assert after["held"][0]["id"] == 1
    text = render(after)
    assert "Held, not counted (1)" in text and "gp 99:99" in text
    # After a restart the verdict stands and the standings are the same.
    svc2 = _restart(svc, tmp_path)
    again = svc2.event.standings()
    assert again["players"] == after["players"] and again["held"] == after["held"]
    # ...and the core's match is rebuilt from the database: the table's real second deal
    # (a higher number than the forged one) is scored from the first and counts.
    p.deal("result 2 1")
    _send(svc2, p.payloads[-1:])
    assert {q["name"]: q["gp"] for q in svc2.event.standings()["players"]} == {"Ann": 2,
                                                                              "Bob": 1}
    assert len(svc2.event.held) == 1
    svc2.db.close()


def test_a_deal_whose_entries_score_otherwise_is_held(tmp_path):
    svc, lines = _service(tmp_path)
    p = Played()
    real = p.deal("result 1 1")  # one game point to Ann
    claimed = dict(real, deal=2, gp=[3, 0])  # the same entries claimed as three
    p.send(claimed)
    _send(svc, p.payloads)
    assert _held(svc) == [("t01", 3, "score")]
    assert svc.event.standings()["players"][0]["gp"] == 1
    assert "gp 1:0" in lines[-1] and "gp 3:0" in lines[-1]


@pytest.mark.parametrize("ev,why", [
    (None, "entries are missing"),
    ("zz", "not records"),
    ("0500", "not a record"),  # a result with no points
    ("050105", "refused by the core: bad_points"),  # 5 game points: no such deal
    ("050002 050101", "the deal ended at entry 1 of 2"),
])
def test_entries_the_core_refuses_are_held(tmp_path, ev, why):
    svc, lines = _service(tmp_path)
    p = Played()
    p.send({"kind": "deal", "match": 1, "deal": 1, "gp": [2, 0], "reason": "quick",
            "winner": 0, "over": -1, "ev": ev})
    _send(svc, p.payloads)
    assert _held(svc) == [("t01", 2, "events")]
    assert why in svc.event.held[("t01", "abcd0001", 2)]["why"]
    assert svc.event.standings()["players"] == []


def test_a_table_never_seated_for_the_round_is_held(tmp_path):
    # Issue: a table that was never seated appeared under Round 2.
    svc, lines = _service(tmp_path)
    _seat(svc, "t01", 2, ["Ann", "Bob"])
    p = Played(rnd=2, names=("Eve", "Mal"))
    p.deal("result 1 3")
    _send(svc, p.payloads, table="t09")
    st = svc.event.standings()
    assert _held(svc) == [("t09", 1, "seat"), ("t09", 2, "match")]
    assert "2" not in st["rounds"] and st["players"] == []
    assert svc.event.ack("t09") == ("abcd0001", 2)
    assert ("held t09 abcd0001 #1 match (seat): table t09 was not seated for round 2, not "
            "counted") in lines
    # The seated table counts.
    q = Played(rnd=2)
    q.deal("result 1 3")
    _send(svc, q.payloads)
    assert [r["table"] for r in svc.event.standings()["rounds"]["2"]] == ["t01"]


def test_players_not_those_seated_are_held(tmp_path):
    svc, lines = _service(tmp_path)
    _seat(svc, "t01", 1, ["Ann", "Bob"])
    p = Played(rnd=1, names=("Ann", "Eve"))
    p.deal("result 2 3")
    _send(svc, p.payloads)
    assert _held(svc) == [("t01", 1, "names"), ("t01", 2, "match")]
    assert svc.event.standings()["players"] == []
    assert [ln for ln in lines if ln.startswith("held")][0].endswith(
        "(names): round 1 seated Ann,Bob at table t01, not Ann,Eve, not counted")


def test_a_second_device_on_a_seated_tables_login_is_held_as_twin(tmp_path):
    # Issue: a second laptop or phone on a table's login (another incarnation) made a
    # second counted match for the seated round.
    svc, lines = _service(tmp_path)
    _seat(svc, "t01", 1, ["Ann", "Bob"])
    board = Played(rnd=1)
    board.deal("result 1 2")
    _send(svc, board.payloads)
    phone = Played(inc="abcd0002", rnd=1)
    phone.deal("result 2 3")
    phone.deal("result 2 3")
    _send(svc, phone.payloads)
    held = sorted((h["inc"], h["seq"], h["code"]) for h in svc.event.standings()["held"])
    assert held == [("abcd0002", 1, "twin"), ("abcd0002", 2, "match"),
                    ("abcd0002", 3, "match")]
    assert ("held t01 abcd0002 #1 match (twin): table t01 plays round 1 on another device "
            "(abcd0001, match 1), which counts: one device a table, not counted") in lines
    st = svc.event.standings()
    assert [r["inc"] for r in st["rounds"]["1"]] == ["abcd0001"]
    assert {q["name"]: q["gp"] for q in st["players"]} == {"Ann": 2, "Bob": 0}
    assert svc.event.ack("t01") == ("abcd0002", 3)  # acked: the phone stops sending
    # The board plays on and counts; a restart judges the same.
    board.deal("result 1 1")
    _send(svc, board.payloads[-1:])
    svc.db.commit()  # as the service's loop does before its acks
    again = _restart(svc, tmp_path)
    st2 = again.event.standings()
    assert st2["held"] == svc.event.standings()["held"]
    assert {q["name"]: q["gp"] for q in st2["players"]} == {"Ann": 3, "Bob": 0}
    # The director may choose the phone's match too: accepted, it counts, and its deals
    # with it (accept --round).
    reply = again.director({"cmd": "accept", "round": 1, "why": "both were played"}, "test")
    assert reply["ok"], reply
    assert len(again.event.standings()["rounds"]["1"]) == 2
    again.db.close()


def test_a_twin_counts_where_the_first_device_does_not(tmp_path):
    # The first device's match is held (other names): the second is the table's one.
    svc, _ = _service(tmp_path)
    _seat(svc, "t01", 1, ["Ann", "Bob"])
    _send(svc, Played(rnd=1, names=("Ann", "Eve")).payloads)
    second = Played(inc="abcd0002", rnd=1)
    second.deal("result 1 2")
    _send(svc, second.payloads)
    assert _held(svc) == [("t01", 1, "names")]
    assert [r["inc"] for r in svc.event.standings()["rounds"]["1"]] == ["abcd0002"]


def test_a_round_0_match_of_players_seated_elsewhere_is_held(tmp_path):
    # Issue: a match started by hand (round 0) with the names of seated players counted
    # unflagged beside their seated match.
    svc, lines = _service(tmp_path)
    _seat(svc, "t01", 1, ["Ann", "Bob"])
    _seat(svc, "t01", 2, ["Ann", "Eve"])
    _seat(svc, "t02", 2, ["Bob", "Mal"])
    spare = Played(names=("Zoe", "Bob"))
    spare.deal("result 1 3")
    _send(svc, spare.payloads, table="t03")
    assert _held(svc) == [("t03", 1, "unseated"), ("t03", 2, "match")]
    assert ("held t03 abcd0001 #1 match (unseated): a match of round 0 with Bob, who is "
            "seated at t02 in round 2, not counted") in lines
    assert svc.event.standings()["players"] == []
    # Players seated in no round of now (round 2) play a match of their own: it counts.
    casual = Played(names=("Kim", "Lee"))
    casual.deal("result 1 3")
    _send(svc, casual.payloads, table="t04")
    assert [p["name"] for p in svc.event.standings()["players"]] == ["Kim", "Lee"]
    again = _restart(svc, tmp_path)
    assert _held(again) == _held(svc)
    again.db.close()


def test_results_out_of_order_wait_and_undo_is_scored_again(tmp_path):
    svc, _ = _service(tmp_path)
    p = Played()
    p.deal("result 1 2")
    p.deal("result 2 1")
    p.m.undo()  # the second deal taken back: its void, then entered again otherwise
    from net import wire

    p.send(wire.void(1, 2))
    p.deal("result 2 3")
    payloads = p.payloads
    _send(svc, [payloads[2], payloads[0]])  # #3 before #2: it waits
    assert svc.event.ack("t01") == ("abcd0001", 1)
    _send(svc, payloads[1:])
    assert svc.event.ack("t01") == ("abcd0001", 5) and _held(svc) == []
    assert {p["name"]: p["gp"] for p in svc.event.standings()["players"]} == {"Ann": 2,
                                                                             "Bob": 3}


def test_a_new_nights_service_counts_a_table_whose_numbers_run_on(tmp_path):
    # A table's outbox keeps its incarnation from night to night: a new night's service
    # (a fresh database) first hears #57, a match's start. It counts from there, and a
    # result numbered before that start that comes later is held for the director, never
    # counted silently nor left waiting for numbers another night's service acked.
    svc, lines = _service(tmp_path)
    p = Played(seq=57)
    p.deal("result 1 2")
    p.deal("result 2 1")
    _send(svc, p.payloads)
    assert svc.event.ack("t01") == ("abcd0001", 59) and _held(svc) == []
    assert {q["name"]: q["gp"] for q in svc.event.standings()["players"]} == {"Ann": 2,
                                                                             "Bob": 1}
    old = Played(seq=50)
    old.deal("result 1 3")
    _send(svc, old.payloads[1:])  # #51: last week's deal, heard late
    assert _held(svc) == [("t01", 51, "before")]
    assert svc.event.ack("t01") == ("abcd0001", 59)
    assert {q["name"]: q["gp"] for q in svc.event.standings()["players"]} == {"Ann": 2,
                                                                             "Bob": 1}
    # A restart judges the same.
    again = _restart(svc, tmp_path)
    assert _held(again) == [("t01", 51, "before")] and again.event.ack("t01")[1] == 59
    # A deal (not a match) first is no start: it waits for the numbers before it.
    (tmp_path / "other").mkdir()
    svc2, _ = _service(tmp_path / "other")
    _send(svc2, p.payloads[1:2])
    assert svc2.event.ack("t01") == ("abcd0001", 0)


def test_good_results_from_firmware_tables_still_count_and_are_acked(tmp_path):
    # A table in the unix port: seated by the director, deals played card by card, then
    # quick results to the match's end, through a real Mosquitto with the project's ACL.
    import types

    from club import director

    need_broker()
    users = dict(PASSWORDS, **table_passwords(1))
    with mosquitto.Broker(str(tmp_path / "broker"), users=users) as b:
        pw = os.path.join(str(tmp_path), "director.pw")
        with open(pw, "w") as f:
            f.write(PASSWORDS["director"])
        a = types.SimpleNamespace(broker="127.0.0.1:%d" % b.port, user="director",
                                  password_file=pw)
        club = club_file(str(tmp_path), "t01", b.port, "pw-t01")
        with ServiceThread(str(tmp_path / "ev.sqlite"), b.port) as svc:
            seats = director.parse_seats(["t01=Ann,Bob"])
            director.publish(a, director.seat_messages(1, "classic66", seats))
            r = run_table(str(tmp_path), "t01", club, "seat 1 15;cards 3 7;play 3;wait 20")
            out = last_json(r.stdout)
            assert out["pending"] == 0 and out["mark"] == 2, (out, r.stderr)
            got = svc.settle({"t01": out["acked"]})
    assert got["held"] == [], got["held"]
    assert players(got) == expected(str(tmp_path))
    assert got["rounds"]["1"][0]["winner"] >= 0
    bodies = [json.loads(b) for (b,) in sqlite3.connect(str(tmp_path / "ev.sqlite")).execute(
        "SELECT body FROM results")]
    entries = [len(m["ev"].split()) for m in bodies if m["kind"] == "deal"]
    assert max(entries) >= 6, entries  # the card-by-card deals carried their tricks
