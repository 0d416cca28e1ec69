"""Once: one row per distinct conflicting message (with its copies), a round played seated
again only with --force, one match a pair a round (a second one held, `second` or `twin`),
and a correction or void said with what changed, a deal voided once, and never a match the
core could not have made (a winner under the target).

The standings service runs here without a broker (its verdicts alone are looked at, as in
test_club_checks.py); the director's command (club/director.py, its --help and its words)
runs with its link answered by that service, so what it prints is what the director reads."""

import json
import sys

import pytest
from clubkit import brokerless_service, feed, seat_heard
from clubplay import Played
from conftest import ROOT

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from net import wire  # noqa: E402

INC = "abcd0001"


class Answered:
    """The director's link (club/director.py's Link) answered by the service itself."""

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
    """(exit status, what the director's command printed) of `python -m club.director
    ARGV` against the service svc."""
    from club import director as cmd

    monkeypatch.setattr(cmd, "Link", lambda a: Answered(svc))
    capsys.readouterr()
    try:
        cmd.main([str(x) for x in argv])
        code = 0
    except SystemExit as e:
        code = e.code
    return code, capsys.readouterr().out


def _restart(svc, tmp_path):
    svc.db.commit()
    svc.db.close()
    return brokerless_service(tmp_path)[0]


def _gp(svc):
    return {p["name"]: p["gp"] for p in svc.event.standings()["players"]}


# ---- 3. a conflict sent again is one row with its copies ----

def test_a_conflict_sent_again_is_one_row_with_its_copies(tmp_path, capsys, monkeypatch):
    # Issue 46: a repeated conflict was a new row each time (7 rows of one body; the count
    # said 11 conflicts for 5 distinct messages). Refused and late copies were merged.
    svc, lines = brokerless_service(tmp_path)
    p = Played()
    first = p.deal("result 1 2")
    feed(svc, p.payloads)
    other = dict(first, gp=[0, 1], winner=1, ev="050101")  # #2 again, other content
    third = dict(first, gp=[3, 0], ev="050003")
    a = wire.result(INC, 2, other)
    a_spaced = json.dumps(json.loads(a), indent=1, sort_keys=True)  # the same message
    b = wire.result(INC, 2, third)
    feed(svc, [a, a, b, a_spaced, b, a, b])
    rows = svc.db.refusals("conflict")
    assert len(rows) == 2, [r["id"] for r in rows]
    copies = {r["id"]: r["copies"] for r in svc.db.not_counted()}
    ra, rb = rows[0]["id"], rows[1]["id"]
    assert copies == {ra: 4, rb: 3}
    assert json.loads(rows[0]["body"]) == json.loads(a)  # the first copy, whole
    assert svc.db.not_counted_counts() == {"held": 0, "conflict": 2, "late": 0, "refused": 0}
    said = [ln for ln in lines if ln.startswith("conflict")]
    assert said[0] == "conflict t01 %s #2 deal: differs from the copy kept, not counted" % INC
    assert said[-1] == ("conflict t01 %s #2 deal again (row %d, 3 copies): differs from the "
                        "copy kept, not counted" % (INC, rb))
    assert _gp(svc) == {"Ann": 2, "Bob": 0}  # the first copy counts
    code, out = director(svc, capsys, monkeypatch, "list")
    assert code == 0
    assert "row %d  conflict  t01 %s #2 deal: differs from the copy kept (4 copies)" % (
        ra, INC) in out
    assert out.splitlines()[-1] == ("2 results do not count (held 0, conflict 2, late 0, "
                                    "refused 0): every one is listed above")
    code, out = director(svc, capsys, monkeypatch, "show")
    assert "differs from the copy kept (4 copies)" in out
    # The director chooses one: the copy that counted is kept aside as one row, and its
    # copies sent again are copies of that row, not new rows.
    code, out = director(svc, capsys, monkeypatch, "accept", ra, "--why", "the sheet")
    assert code == 0 and _gp(svc) == {"Ann": 0, "Bob": 1}, out
    feed(svc, p.payloads[1:] * 3)
    kept = [r for r in svc.db.not_counted() if r["id"] not in (ra, rb)]
    assert [(json.loads(r["body"]), r["copies"]) for r in kept] == [(json.loads(
        p.payloads[1]), 4)]
    assert svc.db.not_counted_counts()["conflict"] == 2
    again = _restart(svc, tmp_path)  # the rows and the verdicts stand
    assert again.db.not_counted_counts()["conflict"] == 2 and _gp(again) == {"Ann": 0,
                                                                            "Bob": 1}
    again.db.close()


# ---- 4. a round played is seated again only with --force ----

def _played_round_1(svc, capsys, monkeypatch):
    code, out = director(svc, capsys, monkeypatch, "seat", 1, "classic66", "t01=Ann,Bob",
                         "t02=Cy,Dee")
    assert code == 0, out
    p = Played(rnd=1)
    p.deal("result 1 2")
    feed(svc, p.payloads)
    assert _gp(svc) == {"Ann": 2, "Bob": 0}


def test_a_round_played_is_seated_again_only_with_force(tmp_path, capsys, monkeypatch):
    # Issue 46: after round 8, `pair 3 --send` replaced the stored seating of round 3.
    svc, _ = brokerless_service(tmp_path)
    _played_round_1(svc, capsys, monkeypatch)
    stored = svc.db.conn.execute("SELECT COUNT(*) FROM seating").fetchone()[0]
    code, out = director(svc, capsys, monkeypatch, "seat", 1, "classic66", "t01=Ann,Cy",
                         "t02=Bob,Dee")
    assert (code, out) == (1, "refused: round 1 is played already (1 match heard): seating "
                              "it again replaces t01=Ann,Bob t02=Cy,Dee; give --force to "
                              "replace it\n")
    assert director(svc, capsys, monkeypatch, "seat", 2, "classic66", "t01=Ann,Cy",
                    "t02=Bob,Dee")[0] == 0
    # pair proposes round 1 again from the standings: --send is refused as seat is.
    code, out = director(svc, capsys, monkeypatch, "pair", 1, "classic66", "--add", "Cy",
                         "Dee", "--send")
    assert code == 1 and ("refused: round 1 is played already (1 match heard, round 2 "
                          "seated): seating it again replaces") in out, out
    assert svc.event.seats[("t01", 1)]["names"] == ["Ann", "Bob"]
    assert svc.db.conn.execute("SELECT COUNT(*) FROM seating").fetchone()[0] == stored + 2
    # The same seating again replaces nothing (a seating published again): accepted.
    assert director(svc, capsys, monkeypatch, "seat", 1, "classic66", "t01=Ann,Bob",
                    "t02=Cy,Dee")[0] == 0
    # --force replaces it and says what it replaced.
    code, out = director(svc, capsys, monkeypatch, "seat", 1, "classic66", "t01=Ann,Cy",
                         "t02=Bob,Dee", "--force")
    assert code == 0 and out.startswith(
        "accepted: round 1: 2 tables; replaced (--force) t01=Ann,Bob t02=Cy,Dee of a round "
        "played already (1 match heard, round 2 seated): its matches stay as they were "
        "judged; not heard from yet"), out
    assert svc.event.seats[("t01", 1)]["names"] == ["Ann", "Cy"]
    assert _gp(svc) == {"Ann": 2, "Bob": 0}
    # A round not played yet is seated again freely (a seating mended before play).
    code, out = director(svc, capsys, monkeypatch, "seat", 2, "classic66", "t01=Ann,Dee",
                         "t02=Bob,Cy")
    assert code == 0, out
    # --help says so, as docs/club.md does.
    from club.director import parser

    text = parser().format_help() + " ".join(
        a.format_help() for a in parser()._subparsers._group_actions[0].choices.values())
    assert "--force" in text and "a round played already" in text
    svc.db.close()


# ---- 5. one match a pair a round ----

def test_a_second_match_of_a_seated_round_is_held_as_second(tmp_path):
    # Issue 46: a match started by hand after the seated one was held as `rules` with a
    # reason that read as a wrong rule set, and a second match with the exact rules from
    # the same device counted: two matches for one pair in a round.
    svc, lines = brokerless_service(tmp_path)
    seat_heard(svc, "t01", 9, ["Ann", "Bob"])
    seated = Played(rnd=9)
    seated.deal("result 1 2")
    feed(svc, seated.payloads)
    by_hand = Played(mid=2, rnd=9, rules="classic66 dealer=2 down=1", seq=3)
    by_hand.deal("result 2 3")
    feed(svc, by_hand.payloads)
    crafted = Played(mid=3, rnd=9, seq=5)
    crafted.deal("result 2 3")
    feed(svc, crafted.payloads)
    held = [(h["seq"], h["code"]) for h in svc.event.standings()["held"]]
    assert held == [(3, "second"), (4, "match"), (5, "second"), (6, "match")]
    said = [ln for ln in lines if ln.startswith("held") and "(second)" in ln]
    assert said == [
        "held t01 %s #3 match (second): a second match of round 9 at table t01: its match 1 "
        "of the round counts (one match a pair a round); this one has rules 'classic66 "
        "dealer=2 down=1', not counted" % INC,
        "held t01 %s #5 match (second): a second match of round 9 at table t01: its match 1 "
        "of the round counts (one match a pair a round), not counted" % INC]
    st = svc.event.standings()
    assert [r["match"] for r in st["rounds"]["9"] if r["deals"]] == [1]
    assert _gp(svc) == {"Ann": 2, "Bob": 0}
    # Another device's match of the round is still a twin; a restart judges the same.
    phone = Played(inc="abcd0002", rnd=9, names=("Ann", "Eve"))
    feed(svc, phone.payloads)
    assert svc.event.held[("t01", "abcd0002", 1)]["code"] == "twin"
    again = _restart(svc, tmp_path)
    assert again.event.standings()["held"] == svc.event.standings()["held"]
    assert _gp(again) == {"Ann": 2, "Bob": 0}
    # The seated match held (other names): the next match of the round is the table's one.
    seat_heard(again, "t02", 9, ["Cy", "Dee"])
    wrong = Played(rnd=9, names=("Cy", "Max"))
    feed(again, wrong.payloads, "t02")
    right = Played(mid=2, rnd=9, names=("Cy", "Dee"), seq=2)
    right.deal("result 1 1")
    feed(again, right.payloads, "t02")
    assert [h["code"] for h in again.event.standings()["held"] if h["table"] == "t02"] == [
        "names"]
    assert _gp(again)["Cy"] == 1
    again.db.close()


# ---- 6. correct and void say what changed; a deal voided once; no impossible match ----

def _won_match(svc):
    """Ann v Bob, classic66 to 7: 2:0, 0:1, 2:0, 3:0: Ann wins 7 of 7 at deal 4."""
    p = Played()
    for line in ("result 1 2", "result 2 1", "result 1 2", "result 1 3"):
        p.deal(line)
    feed(svc, p.payloads)
    row, = svc.event.standings()["rounds"]["0"]
    assert (row["gp"], row["winner"]) == ([7, 1], 0)
    return p


def _row(svc):
    row, = svc.event.standings()["rounds"]["0"]
    return row["gp"], row["winner"], row["deals"]


def test_correct_and_void_say_what_changed_and_never_leave_an_impossible_match(
        tmp_path, capsys, monkeypatch):
    # Issue 46: correct and void answered a bare `accepted`; voiding the same deal twice
    # was accepted again; voiding deal 1 of a finished match left a winner on 5 of 7.
    svc, lines = brokerless_service(tmp_path)
    _won_match(svc)
    at = ("t01", INC, 1)
    code, out = director(svc, capsys, monkeypatch, "void", *at, 2, "--why", "dealt twice")
    assert (code, out) == (0, "accepted: t01 %s match 1 deal 2: 0:1 won by Bob -> void; the "
                              "match: Ann 7, Bob 0, won by Ann (3 deals)\n" % INC)
    assert lines[-1] == ("director accepted: void t01 %s match 1 deal 2 (dealt twice) - t01 "
                         "%s match 1 deal 2: 0:1 won by Bob -> void; the match: Ann 7, Bob "
                         "0, won by Ann (3 deals)" % (INC, INC))
    code, out = director(svc, capsys, monkeypatch, "void", *at, 2, "--why", "again")
    assert (code, out) == (1, "refused: t01 %s match 1 deal 2 does not count already "
                              "(voided by the director: dealt twice): nothing to void\n" % INC)
    # Deal 1 voided would leave Ann the winner on 5 of 7: refused, nothing stored.
    stored = svc.db.conn.execute("SELECT COUNT(*) FROM corrections").fetchone()[0]
    code, out = director(svc, capsys, monkeypatch, "void", *at, 1, "--why", "misdealt")
    assert (code, out) == (1, "refused: void deal 1 leaves the match not over: Ann has 5 of "
                              "7 after deal 4, where Ann had won it; give --reopen-match to "
                              "store the match so, or correct another deal first so that it "
                              "ends as it did\n")
    code, out = director(svc, capsys, monkeypatch, "correct", *at, 3, "0,1", 1, "--why", "x")
    assert code == 1 and out.startswith("refused: correct deal 3 leaves the match not over: "
                                        "Ann has 5 of 7 after deal 4"), out
    assert svc.db.conn.execute("SELECT COUNT(*) FROM corrections").fetchone()[0] == stored
    assert _row(svc) == ([7, 0], 0, 3)
    # A correction says the deal before and after, and the match's totals and winner.
    code, out = director(svc, capsys, monkeypatch, "correct", *at, 4, "2,0", 0, "--over", -1,
                         "--why", "the sheet")
    assert code == 1 and "--reopen-match" in out, out  # Ann on 6: no longer over
    code, out = director(svc, capsys, monkeypatch, "correct", *at, 3, "3,0", 0, "--why",
                         "the sheet")
    assert (code, out) == (0, "accepted: t01 %s match 1 deal 3: 2:0 won by Ann -> 3:0 won by "
                              "Ann; the match: Ann 8, Bob 0, won by Ann (3 deals)\n" % INC)
    # With --reopen-match the match is stored as the core makes it: not over.
    code, out = director(svc, capsys, monkeypatch, "void", *at, 1, "--reopen-match", "--why",
                         "misdealt")
    assert (code, out) == (0, "accepted: t01 %s match 1 deal 1: 2:0 won by Ann -> void; the "
                              "match: Ann 6, Bob 0, not over (2 deals) (reopened: "
                              "--reopen-match)\n" % INC)
    assert _row(svc) == ([6, 0], -1, 2)
    assert [p["won"] for p in svc.event.standings()["players"]] == [0, 0]
    # ...and a second correction finishes it: the deal the table never sent.
    code, out = director(svc, capsys, monkeypatch, "correct", *at, 5, "1,0", 0, "--over", 0,
                         "--why", "the last deal, from the sheet")
    assert (code, out) == (0, "accepted: t01 %s match 1 deal 5: none -> 1:0 won by Ann, the "
                              "match to Ann; the match: Ann 7, Bob 0, won by Ann (3 deals) (the "
                              "match now ends at deal 5)\n" % INC)
    again = _restart(svc, tmp_path)
    assert _row(again) == ([7, 0], 0, 3)
    again.db.close()


def test_a_correction_that_ends_the_match_or_leaves_deals_after_its_end(tmp_path):
    svc, _ = brokerless_service(tmp_path)
    p = Played()
    for line in ("result 1 2", "result 2 1", "result 1 2", "result 2 1"):  # 4:2, going on
        p.deal(line)
    feed(svc, p.payloads)
    ask = {"cmd": "correct", "table": "t01", "inc": INC, "match": 1, "why": "the sheet"}
    # Deal 2 as 3:0 for Ann ends the match at deal 3 (7 of 7), and deal 4 follows: refused.
    reply = svc.director(dict(ask, deal=2, result={"gp": [3, 0], "winner": 0}), "test")
    assert reply["why"] == ("correct deal 2: side 0 won the match before deal 4, so no deal "
                            "follows: void the deals after its end, or correct the deal that "
                            "ended it")
    # Deal 4 voided first, deal 2 then ends the match at its last deal: stored as won.
    assert svc.director(dict(ask, cmd="void", deal=4), "test")["ok"]
    reply = svc.director(dict(ask, deal=2, result={"gp": [3, 0], "winner": 0}), "test")
    assert reply["note"] == ("t01 %s match 1 deal 2: 0:1 won by Bob -> 3:0 won by Ann; the "
                             "match: Ann 7, Bob 0, won by Ann (3 deals) (the match now ends "
                             "at deal 3)" % INC)
    assert _row(svc) == ([7, 0], 0, 3)


def _words(text):
    return " ".join(text.split()).lower()


@pytest.mark.parametrize("cmd", ["correct", "void"])
def test_help_and_the_docs_say_what_correct_and_void_answer(cmd):
    import os

    from club.director import parser

    sub = parser()._subparsers._group_actions[0].choices[cmd]
    with open(os.path.join(ROOT, "docs", "club.md"), encoding="utf-8") as f:
        docs = _words(f.read())
    for text in (_words(sub.format_help()), docs):
        assert "the verdict says what changed: the deal before -> after, the match's totals " \
            "and winner" in text
        assert "--reopen-match" in text and "(its winner under the target)" in text
    for words in ("a round played already", "--force", "(one match a pair a round)",
                  "`second`", "(n copies)", "nothing to void"):
        assert words in docs, words
