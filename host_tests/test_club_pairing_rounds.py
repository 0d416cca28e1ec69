"""Pairing as a club's scoring software does it (issue 46, finding 2): round robin and
Swiss read who has met from every round seated or played, by hand or by `pair`, never
repeat a pairing while a seating of new opponents exists, say so when none is left, take
--add and --drop, and give an odd field's bye only to a player with the fewest.

Property tests run club/pairing.py over random nights: fields of 3 to 41 players, rounds
seated by hand at random between proposed ones, players added and dropped between rounds;
each proposed round is checked against an exhaustive search of its own (small fields) or
Dirac's theorem (a graph of m vertices whose every vertex has m/2 neighbours has a
Hamiltonian cycle, so a perfect matching). Table tests run the director's `pair` against
the standings service (no broker: its link answered by the service, as test_club_once.py
does), from the docs' own round 1 seated by hand."""

import functools
import itertools
import json
import sys

import pytest
from clubkit import brokerless_service, feed
from clubplay import Played
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from club.pairing import NoneLeft, propose  # noqa: E402

# ---- an independent judge of a proposed round ----

def _perfect(players, unmet):
    """Whether `players` can all be paired with unmet(a, b) pairs (exhaustive)."""
    index = {p: i for i, p in enumerate(players)}

    @functools.lru_cache(maxsize=None)
    def go(left):
        if not left:
            return True
        first = left[0]
        return any(unmet(first, b) and go(tuple(x for x in left if x not in (first, b)))
                   for b in left[1:])

    return go(tuple(sorted(players, key=index.get)))


def _new_opponents_possible(field, met, counts):
    """Whether some seating of the field, its bye to one with the fewest byes, has no
    repeat; None where the field is too large to search and Dirac's bound says nothing."""
    def unmet(a, b):
        return b not in met.get(a, ())

    fewest = min(counts.get(p, 0) for p in field)
    choices = [[p] for p in field if counts.get(p, 0) == fewest] if len(field) % 2 else [[]]
    if len(field) <= 16:
        return any(_perfect([p for p in field if p not in out], unmet) for out in choices)
    worst = max(len(met.get(p, set()) & set(field)) for p in field)
    m = len(field) - len(field) % 2
    if m - 2 - worst >= m / 2:  # every vertex keeps m/2 unmet neighbours, a bye taken out
        return True
    return None


class Night:
    """A night's history as the service keeps it: seatings and byes per round."""

    def __init__(self, players, rnd):
        self.field = list(players)
        self.rank = list(players)
        rnd.shuffle(self.rank)
        self.seated = {}
        self.byes = {}
        self.met = {}
        self.counts = {}

    def standings(self):
        return {"players": [{"name": n} for n in self.rank], "rounds": {}}

    def record(self, r, tables, byes):
        self.seated[r] = [list(t) for t in tables]
        self.byes[r] = list(byes)
        for t in tables:
            for a, b in itertools.permutations(t, 2):
                self.met.setdefault(a, set()).add(b)
        for b in byes:
            self.counts[b] = self.counts.get(b, 0) + 1
        self.field = [n for t in tables for n in t] + list(byes)

    def by_hand(self, r, rnd):
        order = self.field[:]
        rnd.shuffle(order)
        tables = [order[i:i + 2] for i in range(0, len(order) - 1, 2)]
        # A director who gives the odd one a bye, or forgets (then they leave the field).
        byes = order[len(order) - 1:] if len(order) % 2 and rnd.random() < 0.7 else []
        self.record(r, tables, byes)


def _check_round(night, field, got, system):
    seated = [n for _t, names in got.seats for n in names]
    assert sorted(seated + got.byes) == sorted(field)  # every player once a round
    assert all(len(names) == 2 for _t, names in got.seats)
    assert len(got.byes) == len(field) % 2
    fewest = min(night.counts.get(p, 0) for p in field)
    for b in got.byes:  # never a second bye while another player has none
        assert night.counts.get(b, 0) == fewest, (b, night.counts, field)
    repeats = [names for _t, names in got.seats if names[1] in night.met.get(names[0], ())]
    possible = _new_opponents_possible(field, night.met, night.counts)
    if possible:
        assert not repeats, (system, repeats, field)
    if repeats:
        assert got.notes and "avoids a repeat" in got.notes[-1]


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 41), st.sampled_from(["swiss", "roundrobin"]), st.integers(2, 7),
       st.randoms(use_true_random=False))
def test_no_repeat_while_new_opponents_exist_byes_fair_every_player_once(n, system, rounds,
                                                                       rnd):
    players = ["P%02d" % i for i in range(n)]
    night = Night(players, rnd)
    next_id = n
    for r in range(1, rounds + 1):
        add, drop = [], []
        if r > 1 and rnd.random() < 0.25:
            add = ["N%02d" % next_id]
            next_id += 1
        if r > 1 and rnd.random() < 0.25 and len(night.field) > 3:
            drop = [rnd.choice(night.field)]
        if r > 1 and rnd.random() < 0.3 and not add and not drop:
            night.by_hand(r, rnd)
            continue
        field = [p for p in night.field if p not in drop] + add
        try:
            got = propose(night.standings(), r, 2, system, add=add, drop=drop,
                          seated=night.seated, byes=night.byes)
        except NoneLeft:
            # Said only when every pair of the field has met.
            assert system == "roundrobin" and all(
                b in night.met.get(a, ()) for a, b in itertools.combinations(field, 2))
            return
        _check_round(night, field, got, system)
        night.rank = [p for p in night.rank if p not in drop] + add
        night.record(r, [names for _t, names in got.seats], got.byes)


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 30), st.sampled_from([3, 4]), st.integers(1, 5),
       st.randoms(use_true_random=False))
def test_swiss_three_or_four_a_table_seats_everyone_once_byes_fair(n, size, rounds, rnd):
    players = ["P%02d" % i for i in range(n)]
    if n < size:
        return
    night = Night(players, rnd)
    for r in range(1, rounds + 1):
        got = propose(night.standings(), r, size, "swiss", seated=night.seated,
                      byes=night.byes)
        seated = [p for _t, names in got.seats for p in names]
        assert sorted(seated + got.byes) == sorted(night.field)
        assert all(len(names) == size for _t, names in got.seats)
        fewest = sorted(night.counts.get(p, 0) for p in night.field)[len(got.byes) - 1] \
            if got.byes else 0
        assert all(night.counts.get(b, 0) <= fewest for b in got.byes)
        for t in [names for _t, names in got.seats]:
            for a, b in itertools.permutations(t, 2):
                night.met.setdefault(a, set()).add(b)
        night.seated[r] = [names for _t, names in got.seats]
        night.byes[r] = got.byes
        for b in got.byes:
            night.counts[b] = night.counts.get(b, 0) + 1


def test_round_robin_after_a_round_by_hand_goes_round_every_pair_once():
    # docs/club.md's round 1, by hand; the circle laid out from it meets each pair once.
    r1 = [["Olena", "Taras"], ["Iryna", "Bohdan"], ["Mariia", "Andrii"]]
    seated, met = {1: r1}, {frozenset(t) for t in r1}
    data = {"players": [], "rounds": {}}
    for r in range(2, 6):
        got = propose(data, r, 2, "roundrobin", seated=seated)
        pairs = {frozenset(names) for _t, names in got.seats}
        assert not pairs & met and len(pairs) == 3 and not got.byes
        met |= pairs
        seated[r] = [names for _t, names in got.seats]
    assert len(met) == 15  # 6 x 5 / 2
    with pytest.raises(NoneLeft, match="every pair of these 6 players has met"):
        propose(data, 6, 2, "roundrobin", seated=seated)


def _completes(players, unmet_pairs):
    """Whether the unmet pairs split into rounds that each pair every player (searched
    exhaustively: small fields)."""
    if not unmet_pairs:
        return True

    def rounds_of(left, pairs):
        if not left:
            yield pairs
            return
        a = min(left)
        for b in sorted(left - {a}):
            if frozenset((a, b)) in unmet_pairs:
                yield from rounds_of(left - {a, b}, pairs + [frozenset((a, b))])

    return any(_completes(players, unmet_pairs - set(r))
               for r in rounds_of(frozenset(players), []))


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 9), st.randoms(use_true_random=False))
def test_round_robin_after_two_rounds_by_hand_reaches_its_end(n, rnd):
    # Two rounds seated by hand, neither the circle's: each later round is the first of a
    # split of the unmet pairs into rounds, so the round robin ends with every pair met
    # once wherever such a split exists (a round at a time, any pairing could strand it).
    players = ["P%d" % i for i in range(n)]
    seated, byes, met = {}, {}, set()
    for r in (1, 2):
        for _ in range(500):
            order = players[:]
            rnd.shuffle(order)
            pairs = {frozenset(order[i:i + 2]) for i in range(0, n - 1, 2)}
            if not pairs & met and (not n % 2 or r == 1 or order[-1] not in byes[1]):
                break
        else:
            return
        met |= pairs
        seated[r] = [sorted(p) for p in pairs]
        byes[r] = order[-1:] if n % 2 else []
    field = players + (["-"] if n % 2 else [])  # "-": the bye, met by who had one
    unmet = {frozenset(p) for p in itertools.combinations(field, 2) if frozenset(p) not in met
             and not ("-" in p and set(p) & {b for r in byes.values() for b in r})}
    if not _completes(field, unmet):
        return
    data = {"players": [{"name": p} for p in players], "rounds": {}}
    for r in range(3, n + n % 2):
        got = propose(data, r, 2, "roundrobin", seated=seated, byes=byes)
        pairs = {frozenset(names) for _t, names in got.seats}
        assert not got.repeats and not pairs & met, (r, got.seats, seated)
        met |= pairs
        seated[r], byes[r] = [names for _t, names in got.seats], got.byes
    assert len(met) == n * (n - 1) // 2 and sorted(b for r in byes.values() for b in r) == (
        sorted(players) if n % 2 else [])


def test_round_robin_odd_field_every_bye_once():
    field = ["P%d" % i for i in range(7)]
    seated, byes = {}, {}
    data = {"players": [{"name": n} for n in field], "rounds": {}}
    for r in range(1, 8):
        got = propose(data, r, 2, "roundrobin", seated=seated, byes=byes)
        seated[r] = [names for _t, names in got.seats]
        byes[r] = got.byes
    assert sorted(b for r in byes.values() for b in r) == field
    pairs = [frozenset(n) for r in seated.values() for n in r]
    assert len(pairs) == len(set(pairs)) == 21


# ---- through the director's command and the service ----

class Answered:
    """The director's link answered by the service itself (as test_club_once.py's)."""

    def __init__(self, svc):
        self.svc = svc
        self.published = []

    def ask(self, body):
        return json.loads(json.dumps(self.svc.director(body, "test")))

    def publish(self, messages):
        self.published += messages

    def standings(self, ready=None, timeout=10):
        return json.loads(json.dumps(self.svc.event.standings()))

    def close(self):
        pass


def director(svc, capsys, monkeypatch, *argv):
    from club import director as cmd

    monkeypatch.setattr(cmd, "Link", lambda a: Answered(svc))
    capsys.readouterr()
    try:
        cmd.main([str(x) for x in argv])
        code = 0
    except SystemExit as e:
        code = e.code
    return code, capsys.readouterr().out


def _seat_line(out):
    """(tables {table: names}, byes) of the seat command `pair` printed (its first line)."""
    words = out.splitlines()[0].split()
    at = words.index("seat")
    tables, byes = {}, []
    rest = words[at + 3:]
    if "--bye" in rest:
        byes = rest[rest.index("--bye") + 1:]
        rest = rest[:rest.index("--bye")]
    for w in rest:
        t, _eq, names = w.partition("=")
        tables[t] = names.split(",")
    return tables, byes


DOCS_ROUND_1 = ["t01=Olena,Taras", "t02=Iryna,Bohdan", "t03=Mariia,Andrii"]


def test_round_robin_after_the_docs_round_by_hand_repeats_nobody(tmp_path, capsys,
                                                                  monkeypatch):
    # Issue 46: `pair 2 --system roundrobin` after docs/club.md's round 1 seated by hand
    # seated two pairs who met in round 1, rounds 4 and 6 one more each.
    svc, _ = brokerless_service(tmp_path)
    code, out = director(svc, capsys, monkeypatch, "seat", 1, "classic66", *DOCS_ROUND_1)
    assert code == 0, out
    for i, seat in enumerate(DOCS_ROUND_1):  # round 1 played: a deal at each table
        p = Played(inc="abcd000%d" % i, rnd=1, names=seat.split("=")[1].split(","))
        p.deal("result 1 2")
        feed(svc, p.payloads, table=seat.split("=")[0])
    met = {frozenset(s.split("=")[1].split(",")) for s in DOCS_ROUND_1}
    for rnd in range(2, 6):
        code, out = director(svc, capsys, monkeypatch, "pair", rnd, "classic66", "--system",
                             "roundrobin", "--send")
        assert code == 0, out
        tables, byes = _seat_line(out)
        pairs = {frozenset(n) for n in tables.values()}
        assert not pairs & met and len(pairs) == 3 and not byes, (rnd, out)
        met |= pairs
    code, out = director(svc, capsys, monkeypatch, "pair", 6, "classic66", "--system",
                         "roundrobin")
    assert code == 1 and out.startswith("refused: round robin: every pair of these 6 "
                                        "players has met: the round robin is over"), out
    svc.db.close()


def test_round_robin_takes_add_and_gives_the_bye(tmp_path, capsys, monkeypatch):
    # Issue 46: round robin ignored --add (41 players, no bye).
    svc, _ = brokerless_service(tmp_path)
    names = ["P%02d" % i for i in range(40)]
    seats = ["t%02d=%s,%s" % (i + 1, names[2 * i], names[2 * i + 1]) for i in range(20)]
    assert director(svc, capsys, monkeypatch, "seat", 1, "classic66", *seats)[0] == 0
    code, out = director(svc, capsys, monkeypatch, "pair", 2, "classic66", "--system",
                         "roundrobin", "--add", "Zed", "--send")
    assert code == 0, out
    tables, byes = _seat_line(out)
    seated = [n for t in tables.values() for n in t]
    assert len(tables) == 20 and len(byes) == 1 and sorted(seated + byes) == sorted(
        names + ["Zed"])
    assert "# a bye (no match, scores a won match): %s" % byes[0] in out
    # The bye is kept with the round: the next bye goes to another player.
    code, out = director(svc, capsys, monkeypatch, "pair", 3, "classic66", "--system",
                         "roundrobin", "--drop", "P00")
    assert code == 0, out
    tables3, byes3 = _seat_line(out)
    assert len(tables3) == 20 and byes3 == [] and "P00" not in str(tables3)
    round1 = {frozenset(s.split("=")[1].split(",")) for s in seats}
    round2 = {frozenset(n) for n in tables.values()}
    assert not {frozenset(n) for n in tables3.values()} & (round1 | round2)
    svc.db.close()


def test_swiss_reads_a_round_seated_by_hand_not_played_yet(tmp_path, capsys, monkeypatch):
    svc, _ = brokerless_service(tmp_path)
    assert director(svc, capsys, monkeypatch, "seat", 1, "classic66", "t01=Ann,Bob",
                    "t02=Cy,Dee", "--bye", "Eve")[0] == 0
    code, out = director(svc, capsys, monkeypatch, "pair", 2, "classic66")
    assert code == 0, out
    tables, byes = _seat_line(out)
    assert {"Ann", "Bob"} not in [set(n) for n in tables.values()]
    assert {"Cy", "Dee"} not in [set(n) for n in tables.values()]
    assert byes and byes != ["Eve"]  # Eve had round 1's bye


def test_swiss_odd_field_each_player_one_bye(tmp_path, capsys, monkeypatch):
    svc, _ = brokerless_service(tmp_path)
    assert director(svc, capsys, monkeypatch, "pair", 1, "classic66", "--add", "Ann", "Bob",
                    "Cy", "Dee", "Eve", "--send")[0] == 0
    given_byes = []
    for rnd in range(1, 6):
        if rnd > 1:
            code, out = director(svc, capsys, monkeypatch, "pair", rnd, "classic66",
                                 "--send")
            assert code == 0, out
        given_byes += svc.event and json.loads(svc.db.meta("byes"))[str(rnd)]
    assert sorted(given_byes) == ["Ann", "Bob", "Cy", "Dee", "Eve"]


def test_add_drop_and_byes_are_checked(tmp_path, capsys, monkeypatch):
    svc, _ = brokerless_service(tmp_path)
    assert director(svc, capsys, monkeypatch, "seat", 1, "classic66", "t01=Ann,Bob",
                    "t02=Cy,Dee")[0] == 0
    for argv, words in (
            (["--add", "Ann"], "refused: --add Ann: in the field already (round 1's "
                               "players)"),
            (["--drop", "Zed"], "refused: --drop Zed: not in the field (round 1's "
                                "players)"),
            (["--drop", "Ann", "Bob", "Cy"], "refused: 1 players for tables of 2: --add "
                                             "players")):
        code, out = director(svc, capsys, monkeypatch, "pair", 2, "classic66", *argv)
        assert (code, out.splitlines()[0]) == (1, words), out
    code, out = director(svc, capsys, monkeypatch, "pair", 2, "classic66", "--tables",
                         "standings", "t02", "--send")
    assert code == 3 and 2 not in {r for _t, r in svc.event.seats}
    # A bye for a player seated in the round is refused, and nothing changes.
    code, out = director(svc, capsys, monkeypatch, "seat", 1, "classic66", "t01=Ann,Bob",
                         "--bye", "Cy")
    assert code == 1 and "Cy has round 1's bye and is seated at t02" in out, out
    assert svc.db.meta("byes") is None


def test_pair_reads_every_seated_round_page_after_page(tmp_path, capsys, monkeypatch):
    # 200 tables a round: the service's seatings come in several replies (8 KB each).
    svc, _ = brokerless_service(tmp_path)
    names = ["Pl%03d" % i for i in range(400)]
    for rnd, step in ((1, 1), (2, 3)):
        order = names[::step] + [n for n in names if n not in names[::step]]
        seats = ["t%03d=%s,%s" % (i + 1, order[2 * i], order[2 * i + 1]) for i in range(200)]
        assert director(svc, capsys, monkeypatch, "seat", rnd, "classic66", *seats)[0] == 0
    replies = []
    ask = {"cmd": "rounds"}
    while True:
        replies.append(svc.director(ask, "test"))
        if replies[-1]["next"] is None:
            break
        ask = {"cmd": "rounds", "after": replies[-1]["next"]}
    assert len(replies) > 1 and sum(len(r["seats"]) for r in replies) == 400
    assert all(len(json.dumps(r)) < 7000 for r in replies)
    code, out = director(svc, capsys, monkeypatch, "pair", 3, "classic66")
    assert code == 0, out
    tables, byes = _seat_line(out)
    met = {frozenset(t) for r in (1, 2) for (t_, rr), s in svc.event.seats.items()
           if rr == r for t in [s["names"]]}
    assert len(met) > 300 and len(tables) == 200 and not byes
    assert not {frozenset(n) for n in tables.values()} & met
