"""Seatings that survive, and the `seat` command checked by the service (docs/club.md).

Issue findings: a crash after `seat` held the whole round, because a restarted service hears
its queued results before the retained seatings and judged each "not seated"; and `seat`
took anything (an unknown rule set, a table twice, a player at two tables) with no verdict
from the service. The service here is the real one on a real database, fed its messages
directly (no broker: what the broker delivers, and in which order, is the input).
"""

import os
import sys

import pytest
from clubkit import brokerless_service, feed, seat_heard
from clubplay import Played
from conftest import ROOT

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def _service(path):
    return brokerless_service(path)


_send = feed
_seat_msg = seat_heard


def _round_played(rnd=1, names=("Ann", "Bob")):
    p = Played(rnd=rnd, names=names)
    p.deal("result 1 2")
    p.deal("result 2 1")
    return p


def test_results_heard_before_their_seating_count_when_it_comes(tmp_path):
    # The restarted service's order: the queued results first, the retained seating after.
    svc, lines = _service(tmp_path)
    p = _round_played()
    _send(svc, p.payloads)
    assert [h["code"] for h in svc.event.standings()["held"]] == ["seat", "match", "match"]
    _seat_msg(svc, "t01", 1, ["Ann", "Bob"])
    st = svc.event.standings()
    assert st["held"] == []
    assert {p["name"]: p["gp"] for p in st["players"]} == {"Ann": 2, "Bob": 1}
    assert [r["table"] for r in st["rounds"]["1"]] == ["t01"]
    assert sum("round 1's seating came after this result" in ln for ln in lines) == 3
    # The next deal counts as any other, and a restart agrees with what was counted.
    p.deal("result 1 1")
    _send(svc, p.payloads[-1:])
    before = svc.event.standings()
    svc.db.commit()  # as the service's loop does before its acks
    svc.db.close()
    again, _ = _service(tmp_path)
    assert again.event.standings() == before
    assert {p["name"]: p["gp"] for p in before["players"]} == {"Ann": 3, "Bob": 1}


def test_a_late_seating_of_other_players_leaves_the_round_held(tmp_path):
    svc, _ = _service(tmp_path)
    _send(svc, _round_played(names=("Eve", "Mal")).payloads)
    _seat_msg(svc, "t01", 1, ["Ann", "Bob"])
    held = svc.event.standings()["held"]
    assert [h["code"] for h in held] == ["seat", "match", "match"]
    assert svc.event.standings()["players"] == []


def test_a_seating_is_on_disk_the_moment_it_is_heard(tmp_path):
    svc, _ = _service(tmp_path)
    _seat_msg(svc, "t01", 1, ["Ann", "Bob"])
    # No result came after it (nothing else committed): a crash now keeps it.
    other = _service(tmp_path)[0]
    assert other.event.seats[("t01", 1)]["names"] == ["Ann", "Bob"]
    svc.db.close()
    other.db.close()


def _seat(svc, rnd, seats, rules="classic66"):
    return svc.director({"cmd": "seat", "round": rnd, "rules": rules, "seats": seats}, "test")


SEATS_REFUSED = [
    # (rules, seats, what the refusal says)
    ("classic99", [["t01", ["Ann", "Bob"]]], "the core refuses 'classic99'"),
    ("classic66", [["t01", ["Ann", "Bob"]], ["t01", ["Eve", "Mal"]]], "seated twice"),
    ("classic66", [["t01", ["Ann", "Bob"]], ["t02", ["Ann", "Mal"]]],
     "Ann is seated at t01 and at t02"),
    ("classic66", [["t01", ["Ann", "Bob", "Eve"]]], "the core refuses"),  # 2 players
    ("classic66", [["t 1", ["Ann", "Bob"]]], "letters, digits"),
    ("classic66", [], "1 to 200 tables"),
]


@pytest.mark.parametrize("rules,seats,why", SEATS_REFUSED)
def test_seat_refuses_what_no_round_can_be_and_changes_nothing(tmp_path, rules, seats, why):
    svc, _ = _service(tmp_path)
    reply = _seat(svc, 1, seats, rules)
    assert not reply["ok"] and why in reply["why"], reply
    assert svc.event.seats == {}
    assert _service(tmp_path)[0].event.seats == {}


def test_seat_is_stored_and_answered(tmp_path):
    svc, _ = _service(tmp_path)
    reply = _seat(svc, 1, [["t01", ["Ann", "Bob"]], ["t02", ["Eve", "Mal"]]])
    assert reply["ok"], reply
    assert "not heard from yet" in reply["note"] and "t01 t02" in reply["note"]
    assert svc.event.seats[("t02", 1)] == {"round": 1, "names": ["Eve", "Mal"],
                                           "rules": "classic66"}
    # A player moved to another table of the round only by seating their old table again.
    reply = _seat(svc, 1, [["t03", ["Ann", "Zoe"]]])
    assert not reply["ok"] and "Ann is seated at t01 and at t03" in reply["why"]
    assert _seat(svc, 1, [["t01", ["Bob", "Kim"]], ["t03", ["Ann", "Zoe"]]])["ok"]
    # Results held before the director's seating count once it is accepted.
    _send(svc, _round_played(rnd=2).payloads)
    reply = _seat(svc, 2, [["t01", ["Ann", "Bob"]]])
    assert reply["ok"] and "3 results held as not seated now count" in reply["note"]
    assert os.path.exists(tmp_path / "night.sqlite")
