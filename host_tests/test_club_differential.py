"""The club judges exactly as the table does: one way into the core (MatchState.take), and a
differential run of random and mutated deals (tools/clubdiff.py) in which whatever the
table's core refuses, the service holds, naming the core's code. make fuzz runs a million
cases of the same generator."""

import os
import sys

from clubkit import brokerless_service, feed
from clubplay import Played
from conftest import ROOT

TOOLS = os.path.join(ROOT, "tools")
for _p in (ROOT, TOOLS):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import clubdiff  # noqa: E402
from sixtysix.errors import Refused  # noqa: E402
from sixtysix.events import parse  # noqa: E402
from sixtysix.match import Match  # noqa: E402


def _refusal(lines):
    m = Match()
    m.enter_line("new classic66 names=Ann,Bob")
    try:
        for line in lines:
            m.enter_line(line)
    except Refused as e:
        return e.code
    return None


def test_a_trick_whose_open_suits_cannot_give_its_winner_is_held_by_the_club(tmp_path):
    # Issue 46, finding 1: the suit guesses (guess.py) ran in the table's check only, so the
    # service, which applied the records, counted a trick the table refuses. Player 2 leads
    # (Ann deals first); the ace of trumps led wins whatever the 9's suit: "trick 1" is
    # refused at the table.
    lines = ["trump H", "trick 1 AH 9"]
    assert _refusal(lines) == "wrong_winner"
    ok = ["trump H", "trick 2 AH 9"]
    assert _refusal(ok) is None
    svc, log = brokerless_service(tmp_path)
    p = Played()
    ev = " ".join(parse(x).hex() for x in lines + ["result 1 2"])
    p.send({"kind": "deal", "match": 1, "deal": 1, "gp": [2, 0], "reason": "quick",
            "winner": 0, "over": -1, "ev": ev})
    feed(svc, p.payloads)
    held = svc.event.held[("t01", "abcd0001", 2)]
    assert held["code"] == "events"
    assert held["why"].endswith("entry 2 (%s) refused by the core: wrong_winner"
                                % parse(lines[1]).hex())
    assert svc.event.standings()["players"] == []


def test_the_club_holds_exactly_what_the_table_refuses():
    # 3,000 cases, every rule set: no disagreement. (On the code before the one entry point,
    # seed 2 gave 79 disagreements in 4,200 cases.)
    n, bad, _counts = clubdiff.run(7, 3000, out=lambda *a: None)
    assert n == 3000 and bad == []


def test_the_cases_reach_every_kind_of_verdict():
    # A differential run that never made the table refuse would prove nothing: the mutated
    # deals reach the suit-guess refusal and the other verdicts.
    seen = clubdiff.verdicts(11, 1500)
    for want in ("ok", "ended", "open", "wrong_winner", "too_many", "not_leader",
                 "lead_marriage"):
        assert seen.get(want, 0) > 0, (want, seen)
    assert sum(v for k, v in seen.items() if k not in ("ok",)) > 700
