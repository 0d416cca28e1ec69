"""The director's commands check what they count (club/actions.py, club/legal.py).

`correct` takes only a result one deal of the match's rule set can give there, asked of the
tables' own core (firmware/sixtysix/): one side scores, the winner is that side, the values
are the rule set's, and the match's winner after it is the side the totals make it. `accept`
counts a deal as the core scores its entries, whatever it says; a deal with no entries the
core can score counts only as the director gives it, checked the same way. Many rows are
accepted at once, each on its own.

The service runs here without a broker (as in test_club_rescore.py): the director's
requests go to its one path, Service.director(); test_club_director.py drives the command
through Mosquitto."""

import json
import sys

import pytest
from clubplay import Played
from conftest import ROOT

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from net import wire  # noqa: E402

INC = "abcd0001"
NAMES = {2: ("Ann", "Bob"), 3: ("Ann", "Bob", "Cy"), 4: ("Ann", "Bob", "Cy", "Dee")}


def _service(tmp_path):
    from club.service import Service

    svc = Service(str(tmp_path / "night.sqlite"), "127.0.0.1", 1, log=lambda line: None)
    svc.client.publish = lambda *a, **k: None  # no broker
    return svc


def _send(svc, payloads, table="t01"):
    for p in payloads:
        svc._handle("club/%s/result" % table, p.encode())


def _do(svc, **request):
    return svc.director(dict({"why": "the score sheet"}, **request), "test")


def _gp(svc):
    return {p["name"]: p["gp"] for p in svc.event.standings()["players"]}


def _gps(text):
    return [int(g) for g in text.split(",")]


def _restart(svc, tmp_path):
    svc.db.close()
    return _service(tmp_path)


# ---- what one deal can give: the core's answer, per rule set ----

# (rule set, what one deal can give at a match's start as GP,GP WINNER, the seed rule)
GIVES = [
    ("mariage", "1,0 0 | 2,0 0 | 3,0 0 | 0,1 1 | 0,2 1 | 0,3 1",
     "000/001: the winner gets 1, 2 or 3 (closed: 3); nobody at 66: the last trick's 1"),
    ("classic66", "1,0 0 | 2,0 0 | 3,0 0 | 0,1 1 | 0,2 1 | 0,3 1 | 0,0 -1",
     "004: 1, 2 or 3 to the winner; 65 to 65 after the +10 is a draw"),
    ("mariage3", "1,0,0 0 | 2,0,0 0 | 3,0,0 0 | 0,1,0 1 | 0,2,0 1 | 0,3,0 1 | 0,0,1 2 | "
     "0,0,2 2 | 0,0,3 2 | 0,1,1 -1 | 1,0,1 -1 | 1,1,0 -1",
     "000 three players: 1, 2 or 3 to the first at 66; a false claim: 1 to each other"),
    ("classic66-3", "1,0,0 0 | 2,0,0 0 | 3,0,0 0 | 0,1,0 1 | 0,2,0 1 | 0,3,0 1 | 0,0,1 2 | "
     "0,0,2 2 | 0,0,3 2 | 0,0,0 -1 | 0,1,1 -1 | 1,0,1 -1 | 1,1,0 -1",
     "004 three players: as above, and a tie for the highest total is a draw"),
    ("schnapsen", "1,0 0 | 2,0 0 | 3,0 0 | 0,1 1 | 0,2 1 | 0,3 1", "pagat: 1, 2 or 3"),
    ("sechsundsechzig", "1,0 0 | 2,0 0 | 3,0 0 | 0,1 1 | 0,2 1 | 0,3 1 | 0,0 -1",
     "pagat: 1, 2 or 3; equal totals when the cards run out: a draw"),
]


@pytest.mark.parametrize("rules,gives,seed", GIVES, ids=[g[0] for g in GIVES])
def test_what_one_deal_can_give_is_the_cores(rules, gives, seed):
    from club import legal

    n = 3 if rules.endswith("3") else 2
    head = {"match": 1, "rules": rules, "names": list(NAMES[n])}
    assert legal.menu(legal.outcomes(head, [], 1)) == gives, seed


def test_what_one_deal_of_the_four_player_game_can_give():
    from club import legal

    head = {"match": 1, "rules": "mariage4", "names": list(NAMES[4])}
    outs = legal.outcomes(head, [], 1)
    pair0 = {gp for gp, w in outs if w == 0}
    # Seed 000: 66 with the opponents trickless 3, else 1 (the default scale); five and six
    # 5 and 6; a coat or a costume is a marker, no points; three nines 3 to either pair,
    # beside whatever the deal then gives.
    assert pair0 == {(1, 0), (3, 0), (5, 0), (6, 0), (0, 0),
                     (4, 0), (6, 0), (8, 0), (9, 0), (3, 0),
                     (1, 3), (3, 3), (5, 3), (6, 3), (0, 3)}
    assert {gp for gp, w in outs if w == 1} == {(b, a) for a, b in pair0}
    assert {gp for gp, w in outs if w == -1} == {(0, 0)}  # a redeal scores nothing
    full = legal.outcomes(dict(head, rules="mariage4 scale=full"), [], 1)
    assert ((2, 0), 0) in full and ((2, 0), 0) not in outs  # the full 1/2/3 scale's option
    # The third nine in the cut: 1 to the dealing pair (seed 000), here the dealer's, seat 1
    assert ((1, 0), 0) in outs


# ---- correct ----

# (rule set, GP,GP WINNER of a correction of deal 1, None if accepted else the refusal)
CORRECT = {
    "classic66": [
        ("2,2 0", "game points 2:2 won by side 0 are not what one deal of classic66 can give;"
                  " give one of (GP,GP WINNER): 1,0 0 | 2,0 0 | 3,0 0 | 0,1 1 | 0,2 1 | "
                  "0,3 1 | 0,0 -1"),  # 004: the winner alone scores
        ("0,3 0", "winner: game points 0:3 are won by side 1: give winner 1"),  # got 0
        ("3,0 -1", "winner: game points 3:0 are won by side 0: give winner 0"),
        ("9,0 0", "game points: 9 is not what one deal can give (0..3)"),
        ("0,0 -1", None),  # 004: 65 to 65 is a draw
        ("0,3 1", None),
    ],
    "mariage": [
        ("0,0 -1", "game points 0:0 won by no side are not what one deal of mariage can give;"
                   " give one of (GP,GP WINNER): 1,0 0 | 2,0 0 | 3,0 0 | 0,1 1 | 0,2 1 | "
                   "0,3 1"),  # 000/001: nobody at 66, the last trick gets 1: no draw
        ("1,0 0", None),
    ],
    "mariage3": [
        ("1,1,1 0", "game points 1:1:1 won by side 0 are not what one deal of mariage3 can "
                    "give;"),
        ("2,0,0 1", "winner: game points 2:0:0 are won by side 0: give winner 0"),
        ("0,0,0 -1", "game points 0:0:0 won by no side are not what one deal of mariage3"),
        ("1,1 0", "game points: 3 numbers, one per side"),
        ("0,0,3 2", None),
    ],
    "classic66-3": [
        ("0,2,2 1", "game points 0:2:2 won by side 1 are not"),
        ("0,0,0 -1", None),  # 004: the highest total gets 1, a tie for it is a draw
    ],
    "mariage4": [
        ("2,0 0", "game points 2:0 won by side 0 are not what one deal of mariage4 can give;"
                  " give one of (GP,GP WINNER): 0,0 0 | 0,3 0 | 1,0 0 | 1,3 0 | 3,0 0"),
        ("7,0 0", "game points 7:0 won by side 0 are not"),  # no contract is worth 7
        ("10,0 0", "game points: 10 is not what one deal can give (0..9)"),
        ("1,1 0", "game points 1:1 won by side 0 are not"),
        ("0,6 0", "winner: game points 0:6 are won by side 1: give winner 1"),
        ("5,0 0", None),  # 000: five made
        ("0,6 1", None),  # six failed or made
        ("0,0 0", None),  # a coat: a marker, no points
        ("4,0 0", None),  # three nines and a deal of 1
        ("3,1 1", None),  # three nines to one pair, the deal's 1 to the other
        ("0,0 -1", None),  # a redeal
    ],
    "mariage4 scale=full": [
        ("2,0 0", None),
        ("1,1 0", "game points 1:1 won by side 0 are not"),
    ],
}


@pytest.mark.parametrize("rules", list(CORRECT))
def test_correct_takes_only_what_one_deal_can_give(tmp_path, rules):
    svc = _service(tmp_path)
    n = {"mariage3": 3, "classic66-3": 3}.get(rules, 4 if "4" in rules else 2)
    p = Played(names=NAMES[n], rules=rules)
    p.deal("result 1 1")
    _send(svc, p.payloads)
    for given, why in CORRECT[rules]:
        gp, winner = given.split()
        reply = _do(svc, cmd="correct", table="t01", inc=INC, match=1, deal=1,
                    result={"gp": _gps(gp), "winner": int(winner), "over": -1})
        if why is None:
            assert reply["ok"] and reply["note"].startswith(  # it says what changed
                "t01 %s match 1 deal 1: " % INC), (given, reply)
            assert svc.event.corrections[("t01", INC, 1, 1)]["result"]["gp"] == _gps(gp)
        else:
            assert not reply["ok"] and reply["why"].startswith(why), (given, reply)


def test_correct_over_is_the_side_the_totals_make_the_match_winner(tmp_path):
    # Seed 004: the first to 7 wins the match; a deal's result says who, if anyone, has.
    svc = _service(tmp_path)
    p = Played()
    p.deal("result 1 3")
    p.deal("result 1 2")  # Ann at 5 of 7
    _send(svc, p.payloads)
    for gp, winner, over, why in [
            ("2,0", 0, -1, "over: after this deal side 0 has won the match: give over 0"),
            ("2,0", 0, 1, "over: after this deal side 0 has won the match: give over 0"),
            ("1,0", 0, 0, "over: the match goes on after this deal: give over -1"),
            ("0,3", 1, 1, "over: the match goes on after this deal: give over -1"),
            ("2,0", 0, 5, "over: not an integer in -1..1"),
            ("2,0", 0, 0, None)]:
        reply = _do(svc, cmd="correct", table="t01", inc=INC, match=1, deal=3,
                    result={"gp": _gps(gp), "winner": winner, "over": over})
        assert reply.get("why") == why, (gp, over, reply)
    assert svc.event.standings()["rounds"]["0"][0]["winner"] == 0
    # The deals before count as corrected: deal 1 given to Bob, Ann's 2 then ends nothing
    # (the match no longer over: only with reopen_match, test_club_once.py).
    reply = _do(svc, cmd="correct", table="t01", inc=INC, match=1, deal=1,
                result={"gp": [0, 3], "winner": 1, "over": -1}, reopen_match=True)
    assert reply["ok"] and reply["note"].endswith("not over (3 deals) (reopened: "
                                                  "--reopen-match)"), reply
    reply = _do(svc, cmd="correct", table="t01", inc=INC, match=1, deal=3,
                result={"gp": [2, 0], "winner": 0, "over": 0})
    assert reply["why"] == "over: the match goes on after this deal: give over -1"


def test_correct_in_the_four_player_game_ends_the_match_on_the_eight(tmp_path):
    # Seed 000: a pair wins on the eight; points past it carry into the next eight and the
    # other pair's starts again. With one eight to play, six made after 3 ends the match.
    svc = _service(tmp_path)
    p = Played(names=NAMES[4], rules="mariage4")
    p.deal("result 1 3")
    _send(svc, p.payloads)
    reply = _do(svc, cmd="correct", table="t01", inc=INC, match=1, deal=2,
                result={"gp": [6, 0], "winner": 0, "over": -1})
    assert reply["why"] == "over: after this deal side 0 has won the match: give over 0"
    reply = _do(svc, cmd="correct", table="t01", inc=INC, match=1, deal=2,
                result={"gp": [0, 6], "winner": 1, "over": -1})
    assert reply["ok"], reply  # 6 of 8 for the other pair: the match goes on


# ---- accept ----


def _held_99(svc, ev, table="t01"):
    """Match 1 at `table`: deal 1 Ann's 2, then deal 2 claimed as 99:99 with entries ev
    (held); returns the held row's id."""
    p = Played()
    p.deal("result 1 2")
    p.send({"kind": "deal", "match": 1, "deal": 2, "gp": [99, 99], "reason": "quick",
            "winner": 0, "over": -1, "ev": ev})
    _send(svc, p.payloads, table)
    return [h["id"] for h in svc.db.refusals("held") if h["table"] == table][-1]


def test_a_held_99_to_99_accepted_counts_what_its_entries_score(tmp_path):
    # Issue: a held 99:99 result, accepted, counted 99:99 (a player at 102 game points).
    svc = _service(tmp_path)
    row = _held_99(svc, "050002")  # `result 1 2`: the core scores 2:0
    reply = _do(svc, cmd="accept", row=row)
    assert reply == {"ok": True, "verdict": "accepted", "note":
                     "t01 %s #3 deal counts as its entries score: 2:0 winner 0 (it said "
                     "99:99 winner 0)" % INC}
    assert _gp(svc) == {"Ann": 4, "Bob": 0}
    assert svc.event.audit[-1]["result"]["gp"] == [2, 0]
    again = _restart(svc, tmp_path)  # what counted is on disk, not the row as it came
    assert _gp(again) == {"Ann": 4, "Bob": 0}


@pytest.mark.parametrize("ev,unusable", [
    (None, "the deal's entries are missing"),  # a table on firmware from before entries
    ("050105", "entry 1 (050105) refused by the core: bad_points"),  # 5 points: no deal
    ("050002 050101", "the deal ended at entry 1 of 2"),
])
def test_a_held_result_without_usable_entries_counts_only_as_given(tmp_path, ev, unusable):
    svc = _service(tmp_path)
    row = _held_99(svc, ev)
    reply = _do(svc, cmd="accept", row=row)
    assert reply["why"] == (
        "row %d has no entries the core can score (%s): give its result: accept %d --gp "
        "GP,GP --winner SIDE [--over SIDE]; one deal can give (GP,GP WINNER): 1,0 0 | 2,0 0 "
        "| 3,0 0 | 0,1 1 | 0,2 1 | 0,3 1 | 0,0 -1" % (row, unusable, row))
    for gp, winner, why in [
            ([99, 99], 0, "game points: 99 is not what one deal can give (0..3)"),
            ([2, 2], 0, "game points 2:2 won by side 0 are not what one deal of classic66"),
            ([0, 3], 0, "winner: game points 0:3 are won by side 1: give winner 1")]:
        reply = _do(svc, cmd="accept", row=row, result={"gp": gp, "winner": winner})
        assert reply["why"].startswith("row %d: %s" % (row, why)), reply
    assert _gp(svc) == {"Ann": 2, "Bob": 0}  # nothing of these counted
    reply = _do(svc, cmd="accept", row=row, result={"gp": [0, 3], "winner": 1})
    assert reply["note"] == ("t01 %s #3 deal counts as given: 0:3 winner 1 (it said 99:99 "
                             "winner 0)" % INC)
    assert _gp(svc) == {"Ann": 2, "Bob": 3}
    assert _gp(_restart(svc, tmp_path)) == {"Ann": 2, "Bob": 3}


def test_a_result_given_where_the_entries_score_is_declined(tmp_path):
    svc = _service(tmp_path)
    row = _held_99(svc, "050002")
    reply = _do(svc, cmd="accept", row=row, result={"gp": [0, 3], "winner": 1})
    assert reply["why"] == ("row %d's entries score 2:0 winner 0: accept it without a "
                            "result to count that, or correct the deal after" % row)
    reply = _do(svc, cmd="accept", row=row, result={"gp": [2, 0], "winner": 0})
    assert reply["ok"] and _gp(svc) == {"Ann": 4, "Bob": 0}


def test_a_conflicts_other_copy_and_a_late_result_count_as_their_entries_score(tmp_path):
    svc = _service(tmp_path)
    p = Played()
    p.deal("result 1 2")
    p.deal("result 1 1")
    _send(svc, p.payloads)
    q = Played()
    q.deal("result 1 2")
    other = dict(q.deal("result 2 1"), gp=[0, 3])  # its entries give Bob 1, it says 3
    _send(svc, [wire.result(INC, 3, other)])
    row, = [r["id"] for r in svc.db.not_counted() if r["why"].startswith("conflict")]
    reply = _do(svc, cmd="accept", row=row)
    assert reply["note"] == ("t01 %s #3 deal counts as its entries score: 0:1 winner 1 (it "
                             "said 0:3 winner 1), in place of the copy that did" % INC)
    assert _gp(svc) == {"Ann": 2, "Bob": 1}
    # After the close: a late deal that says 0:3 of entries that give Bob 1.
    assert _do(svc, cmd="close")["ok"]
    q.deal("result 2 1")
    _send(svc, [wire.result(INC, 4, dict(q.deal("result 2 1"), deal=3, gp=[0, 3]))])
    late, = [r["id"] for r in svc.db.not_counted() if r["why"].startswith("late")]
    assert _do(svc, cmd="reopen")["ok"]
    reply = _do(svc, cmd="accept", row=late)
    assert reply["note"] == ("t01 %s #4 deal counts as its entries score: 0:1 winner 1 (it "
                             "said 0:3 winner 1)" % INC), reply
    assert _gp(svc) == {"Ann": 2, "Bob": 2}


def test_accept_many_rows_each_on_its_own(tmp_path):
    svc = _service(tmp_path)
    scored = _held_99(svc, "050002")  # its entries give Ann 2
    bare = _held_99(svc, None, table="t02")  # no entries: its result must be given
    with svc.lock:
        bad = svc.db.add_refused("club/t01/result", b'{"v":1,"inc', "bad JSON")
        svc.db.commit()
    reply = _do(svc, cmd="accept", rows=[bare, scored, bad])
    assert (reply["ok"], reply["verdict"]) == (False, "partly accepted")
    want = [(bare, False, "row %d has no entries the core can score" % bare),
            (scored, True, "t01 %s #3 deal counts as its entries score" % INC),
            (bad, False, "row %d is not a whole result" % bad)]
    for r, (rid, ok, said) in zip(reply["rows"], want, strict=True):
        assert (r["row"], r["ok"]) == (rid, ok) and (r.get("note") or r["why"]).startswith(
            said), r
    assert reply["why"].startswith("2 of 3 rows declined: row %d: " % bare)
    assert _gp(svc) == {"Ann": 6, "Bob": 0}  # t01's 2 + 2, t02's 2: the accepted one counts
    assert svc.db.accepted_of(scored) and not svc.db.accepted_of(bare)
    log = svc.db.director_log(1)[0]
    assert (log["verdict"], log["request"]["rows"]) == ("partly accepted", [bare, scored, bad])


def test_accept_a_rounds_held_results(tmp_path):
    svc = _service(tmp_path)
    for table, rnd, names in [("t01", 1, ["Ann", "Bob"]), ("t02", 2, ["Cy", "Dee"])]:
        svc._handle("club/%s/seat" % table, json.dumps(
            {"round": rnd, "names": names, "rules": "classic66"}).encode())
    p = Played(rnd=1, names=("Ann", "Eve"))  # not the players seated: all of it held
    p.deal("result 1 2")
    p.deal("result 2 3")
    _send(svc, p.payloads)
    q = Played(rnd=2, names=("Cy", "Max"))
    q.deal("result 1 1")
    _send(svc, q.payloads, "t02")
    assert len(svc.event.held) == 5
    reply = _do(svc, cmd="accept", round=1)
    assert reply["ok"] and [r["ok"] for r in reply["rows"]] == [True] * 3, reply
    assert [r["note"] for r in reply["rows"]] == ["t01 %s #%d %s counts" % (INC, n, k) for
                                                  n, k in ((1, "match"), (2, "deal"),
                                                           (3, "deal"))]
    assert _gp(svc) == {"Ann": 2, "Eve": 3}
    assert sorted(h[0] for h in svc.event.held) == ["t02", "t02"]  # round 2's still held
    reply = _do(svc, cmd="accept", round=1)
    assert reply["why"] == "round 1 has no held result"


def test_a_database_of_before_keeps_its_accepts_and_takes_what_counted(tmp_path):
    # A night's database from before what counted was stored beside an accept.
    import sqlite3

    from club.db import Db

    path = str(tmp_path / "night.sqlite")
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE accepted (id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT "
                "NULL, refused_id INTEGER NOT NULL UNIQUE, why TEXT NOT NULL)")
    old.commit()
    old.close()
    db = Db(path)
    db.add_accepted(7, "the sheet", {"gp": [2, 0]})
    assert db.conn.execute("SELECT refused_id, result FROM accepted").fetchall() == [
        (7, '{"gp":[2,0]}')]
    db.close()


def test_a_deal_after_one_that_does_not_count_waits_for_it(tmp_path):
    # Deal 1 came without entries (held), so deal 2 is held too (`order`): its entries are
    # scored from the deals that count before it, and until deal 1 counts its start (the
    # totals, the dealer) is not known.
    svc = _service(tmp_path)
    p = Played()
    first = p.deal("result 1 2")
    p.deal("result 2 3")
    p.payloads[1] = wire.result(INC, 2, dict(first, ev=None))
    _send(svc, p.payloads)
    held = {h["seq"]: (h["id"], h["code"]) for h in svc.db.refusals("held")}
    assert [c for _i, c in held.values()] == ["events", "order"]
    second = held[3][0]
    reply = _do(svc, cmd="accept", row=second)
    assert reply["why"].startswith(
        "row %d has no entries the core can score (deal 1 before it does not count, so its "
        "start is not known: accept or correct it first): give its result" % second)
    reply = _do(svc, cmd="accept", rows=[held[2][0], second])
    assert [r["ok"] for r in reply["rows"]] == [False, False]  # deal 1 needs its result
    assert reply["verdict"] == "refused" and _gp(svc) == {}
    reply = _do(svc, cmd="accept", row=held[2][0], result={"gp": [2, 0], "winner": 0})
    assert reply["ok"] and _gp(svc) == {"Ann": 2, "Bob": 0}
    reply = _do(svc, cmd="accept", row=second)
    assert reply["note"] == "t01 %s #3 deal counts" % INC  # its entries say what it says
    assert _gp(svc) == {"Ann": 2, "Bob": 3}


def test_no_deal_is_given_after_the_match_is_won(tmp_path):
    svc = _service(tmp_path)
    p = Played()
    p.deal("result 1 3")
    p.deal("result 1 3")
    p.deal("result 1 1")  # Ann at 7 of 7: the match is over
    _send(svc, p.payloads)
    reply = _do(svc, cmd="correct", table="t01", inc=INC, match=1, deal=4,
                result={"gp": [0, 1], "winner": 1, "over": -1})
    assert reply["why"] == ("side 0 won the match before deal 4, so no deal follows: void "
                            "the deals after its end, or correct the deal that ended it")


def test_a_late_result_accepted_as_given_is_not_held_again(tmp_path):
    # A late deal without entries, accepted with its result given, counts; the judge that
    # scores it as it is added holds it (no entries), which must not list it as held.
    svc = _service(tmp_path)
    p = Played()
    p.deal("result 1 2")
    _send(svc, p.payloads)
    assert _do(svc, cmd="close")["ok"]
    late = dict(p.deal("result 2 1"), ev=None)
    _send(svc, [wire.result(INC, 3, late)])
    row, = [r["id"] for r in svc.db.not_counted() if r["why"].startswith("late")]
    assert _do(svc, cmd="reopen")["ok"]
    reply = _do(svc, cmd="accept", row=row, result={"gp": [0, 1], "winner": 1})
    assert reply["ok"] and _gp(svc) == {"Ann": 2, "Bob": 1}
    p.deal("result 1 1")
    _send(svc, p.payloads[-1:])  # the next result: the service stores what was held
    assert [h["seq"] for h in svc.db.refusals("held")] == [4]  # after a deal it did not score
    assert svc.event.held.keys() == {("t01", INC, 4)} and _gp(svc) == {"Ann": 2, "Bob": 1}
    again = _restart(svc, tmp_path)
    assert again.event.held.keys() == {("t01", INC, 4)} and _gp(again) == {"Ann": 2, "Bob": 1}
    assert again.event.new_held == []


def test_a_deal_counted_before_the_checks_is_named_for_correction(tmp_path):
    # A night's database from before: an accept counted a held 99:99 as it came. What
    # follows it is checked against the deals that count, so that deal is named first.
    svc = _service(tmp_path)
    row = _held_99(svc, "050002")
    with svc.lock:
        svc.db.add_accepted(row, "as it came")  # what the accept of before did
        svc.db.commit()
    svc = _restart(svc, tmp_path)
    assert _gp(svc) == {"Ann": 101, "Bob": 99}
    reply = _do(svc, cmd="correct", table="t01", inc=INC, match=1, deal=3,
                result={"gp": [1, 0], "winner": 0})
    assert reply["why"] == ("deal 2 counts 99:99 won by side 0, which one deal cannot give: "
                            "correct deal 2 first")
    assert _do(svc, cmd="correct", table="t01", inc=INC, match=1, deal=2,
               result={"gp": [2, 0], "winner": 0})["ok"]
    assert _do(svc, cmd="correct", table="t01", inc=INC, match=1, deal=3,
               result={"gp": [1, 0], "winner": 0})["ok"]
    assert _gp(svc) == {"Ann": 5, "Bob": 0}
