"""The next round proposed from the standings (club/pairing.py, `club.director pair`).

Issue: pairing for the next round, the movement a club's scoring software offers: Swiss
(no repeat opponents, a bye with an odd number of players) or round robin for a fixed
field, printed as the `seat` command and sent with --send. (Issue 46's rounds seated by
hand, --add, --drop and byes: test_club_pairing_rounds.py.)
"""

import itertools
import sys

from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from club.pairing import History, circle, propose  # noqa: E402


def _standings(rounds):
    """A standings dict of played rounds ({round: [names of each table]}), ranked by name."""
    names = sorted({n for tables in rounds.values() for t in tables for n in t})
    return {"players": [{"name": n} for n in names],
            "rounds": {str(r): [{"names": t} for t in tables] for r, tables in rounds.items()}}


def test_round_robin_meets_everyone_once():
    field = ["P%d" % i for i in range(8)]
    pairs = [frozenset(p) for r in range(1, 8) for p in circle(field, r)]
    assert len(pairs) == len(set(pairs)) == 28  # 8 x 7 / 2: every pair once


def test_round_robin_odd_field_gives_each_a_bye_in_turn():
    field = ["P%d" % i for i in range(7)]
    data = {"players": [{"name": n} for n in field], "rounds": {}}
    seated, byes = {}, {}
    for r in range(1, 8):
        got = propose(data, r, 2, "roundrobin", seated=seated, byes=byes)
        seated[r], byes[r] = [n for _t, n in got.seats], got.byes
    assert sorted(b for r in byes.values() for b in r) == sorted(field)


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 24), st.sampled_from([2, 3, 4]), st.integers(1, 4), st.randoms())
def test_swiss_seats_everyone_once_and_avoids_repeats_when_it_can(n, size, played, rnd):
    players = ["P%02d" % i for i in range(n)]
    rounds, byes = {}, {}
    for r in range(1, played + 1):  # earlier rounds, seated at random
        order = players[:]
        rnd.shuffle(order)
        rounds[r] = [order[i:i + size] for i in range(0, n - n % size, size)]
        byes[r] = order[n - n % size:]  # who sat out (seat --bye): still in the field
    data = _standings(rounds)
    got = propose(data, played + 1, size, "swiss", seated=rounds, byes=byes)
    seats, out = got.seats, got.byes
    seated = [p for _t, names in seats for p in names]
    assert sorted(seated + out) == sorted(players)  # each player once, at a table or out
    assert all(len(names) == size for _t, names in seats) and len(out) == n % size
    before = History(seated=rounds).met(played + 1)
    repeats = sum(1 for _t, names in seats for a, b in itertools.combinations(names, 2)
                  if b in before.get(a, ()))
    # If a seating without repeats exists, the proposal has none (checked by brute force
    # where the field is small enough to try every seating).
    if n - len(out) <= 8 and size == 2:
        best = _no_repeat_exists(sorted(seated), before)
        assert repeats == 0 or not best


def _no_repeat_exists(players, before):
    if not players:
        return True
    a = players[0]
    for b in players[1:]:
        if b not in before.get(a, ()):
            if _no_repeat_exists([p for p in players[1:] if p != b], before):
                return True
    return False


def test_swiss_pairs_the_top_together_and_gives_the_bye_to_the_lowest():
    data = {"players": [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee", "Eve")],
            "rounds": {}}
    got = propose(data, 1, 2)
    assert got.seats == [("t01", ["Ann", "Bob"]), ("t02", ["Cy", "Dee"])]
    assert got.byes == ["Eve"]
    # Round 2: Ann met Bob, Cy met Dee, Eve had the bye (seat --bye): she is not out again.
    data["rounds"] = {"1": [{"names": ["Ann", "Bob"]}, {"names": ["Cy", "Dee"]}]}
    got = propose(data, 2, 2, byes={1: ["Eve"]})
    assert got.byes == ["Dee"] and ["Ann", "Bob"] not in [n for _t, n in got.seats]
