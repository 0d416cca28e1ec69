"""Hidden totals: the claim after the last trick (the claim window), one row per rule.

The rules spec, "Settled details": "Hidden totals (`schnapsen`, `sechsundsechzig`,
`mariage4` with totals hidden): a player may claim 66 right after taking the last trick (at a
table he gathers the trick and says "out"); the claim is judged on the totals then. A closer
who reaches 66 with the last trick has made it. Without such a claim the last-trick rules
above apply."

So with hidden totals the last trick does not end the deal: it waits for a claim by the side
that took it (`claim P`), or for `next`, which says nobody claims and ends the deal by the
last-trick rules. Every row runs in CPython here and in the MicroPython unix port through
tools/replay.py (test_rows_in_micropython), and must give the same deal there.

Rows quote the spec sentence they check, and the seed sentence where one applies (000
Ukrainian). Cards are entered by rank only; two players: player 1 deals unless the row says
otherwise, so player 2 leads; four players: seat 4 deals, pairs 1+3 and 2+4.
"""

import json
import os

import pytest
from conftest import ROOT, run_micropython
from rulehelp import card_points, deal, deals, lines, outcome, play, refusal, snap

S_CLAIM = ("spec settled: a player may claim 66 right after taking the last trick ... the claim "
           "is judged on the totals then")
S_CLOSER = "spec settled: A closer who reaches 66 with the last trick has made it."
S_NO_CLAIM = "spec settled: Without such a claim the last-trick rules above apply."
S_SCHNAPSEN_CLOSE = ("spec schnapsen: closing success -> scale judged on the opponent's points "
                     "and tricks at the moment of closing")
S_CLOSER_FAILS = ("000: Якщо закрив гру гравець не набере до кінця гри 66 очок, то 3 пункту "
                  "отримує його суперник.")
S_LAST = ("000: Якщо ні у кого не набралося за весь кін 66 очок, то одне очко дається тій "
          "парі, яка взяла останній хабар.")
S_FALSE_ONE = ("000: У тому випадку, коли гравець помиляється і у нього не виявляється 66 очок, "
               "суперникам дається одне очко.")
S_FALSE_TWO = "spec schnapsen: wrong claim -> opponent gets 2, or 3 if the claimer had no trick"
S_HIDDEN = "000: По ходу гри дивитися набрані очки заборонено."

# --- schnapsen (20 cards, five tricks a hand, ten in a deal) ----------------------------------
# Player 1 has 64 after nine tricks and reaches 72 with the last one; player 2 ends at 48.
SCH_72 = ("trick 2 J J; trick 2 Q Q; trick 2 J J; trick 2 Q Q; trick 1 A A; trick 1 A A; "
          "trick 1 T T; trick 2 K K; trick 2 T T; trick 1 K K")
# Player 2 has 64 after three tricks and never claims; player 1 takes the other seven,
# the last included, and ends at 56.
SCH_56 = ("trick 2 A A; trick 2 A A; trick 2 T T; trick 1 J J; trick 1 Q Q; trick 1 J J; "
          "trick 1 Q Q; trick 1 K K; trick 1 T T; trick 1 K K")
# Player 2 closes at once (player 1 has no trick then), has 64 after four of the five tricks
# in hand and reaches 68 with the last.
SCH_CLOSE_68 = "close 2; trick 2 A A; trick 2 A A; trick 1 J J; trick 2 T T; trick 2 J J"
# Player 2 reaches 78 in four tricks and never claims; player 1 takes the six left (42).
SCH_78_REST = ("trick 2 A T; trick 2 A T; trick 2 A T; trick 2 A K; trick 1 T K; trick 1 K K; "
               "trick 1 Q Q; trick 1 Q Q; trick 1 J J; trick 1 J J")

# --- sechsundsechzig (24 cards, +10 for the last trick) ---------------------------------------
# All twelve tricks: player 1 64, player 2 56 before the last trick (9 9) and its +10.
SSZ_66 = ("trick 1 A T; trick 1 A T; trick 1 K Q; trick 1 K Q; trick 1 K J; trick 1 J 9; "
          "trick 2 A T; trick 2 A T; trick 2 K Q; trick 2 Q J; trick 2 J 9; trick 2 9 9")
# All twelve tricks: 65 each, player 2 with the last trick.
SSZ_65 = ("trick 1 A T; trick 1 A T; trick 1 K Q; trick 1 K Q; trick 1 K 9; trick 1 Q 9; "
          "trick 1 J 9; trick 2 A T; trick 2 A T; trick 2 K Q; trick 2 J J; trick 2 J 9")
# Player 2 deals, player 1 takes the first trick and closes; player 1 has 55 after six of
# the seven tricks and reaches 75 with the last (no +10 in a closed deal); player 2 took
# two tricks of nines after the close (0 points).
SSZ_CLOSE_75 = ("trick 1 J J; close 1; trick 1 A A; trick 1 A A; trick 2 9 9; trick 2 9 9; "
                "trick 1 K Q; trick 1 T T")

# --- mariage4 (hidden by default; six tricks of four cards) ------------------------------
# Pair 2 has 45 after five tricks, pair 1 56; pair 1 (seat 1) takes the last (19): 75.
M4_75 = ("trick 2 A T K Q; trick 1 A T K Q; trick 2 A 9 9 9; trick 1 A T K Q; "
         "trick 2 J J J 9; trick 1 T K Q J")
# The same, but seat 2 takes the last trick: pair 2 64, pair 1 56.
M4_64 = M4_75.replace("trick 1 T K Q J", "trick 2 T K Q J")
# Pair 1 takes every trick and never claims before the last: 120, pair 2 no trick.
M4_ALL = ("trick 1 A T K Q; trick 3 A T K Q; trick 1 A T K Q; trick 3 A T K Q; "
          "trick 1 J J J J; trick 3 9 9 9 9")
# Pair 2 has 35 in two tricks; pair 1 reaches 74 in three and does not claim; seat 2 takes
# the sixth trick (11): pair 2 46.
M4_74_THEN_2 = ("trick 2 A T 9 9; trick 4 T K 9 9; trick 1 A T K Q; trick 3 A T K Q; "
                "trick 1 A Q J J; trick 2 K Q J J")

# (rules, events, (winner, reason, game points to the winner), card points, seed)
WINDOW = [
    # A claim right after the last trick, with 66 or more: a win on the scale.
    ("schnapsen dealer=1", SCH_72 + "; claim 1", (1, "claim", 1), (72, 48), S_CLAIM),
    ("sechsundsechzig dealer=1", SSZ_66 + "; claim 2", (2, "claim", 1), (64, 66), S_CLAIM),
    ("mariage4 dealer=4", M4_75 + "; claim 1", (1, "claim", 1), (75, 45), S_CLAIM),
    ("mariage4 dealer=4", M4_75 + "; claim 3", (1, "claim", 1), (75, 45), S_CLAIM),
    ("mariage4 dealer=4", M4_ALL + "; claim 3", (1, "claim", 3), (120, 0),
     "000: Якщо у них немає жодного хабара, то виграла пара відкриває на своїй вісімці 3 очки"),
    ("mariage4 dealer=4 scale=full", M4_75 + "; claim 1", (1, "claim", 1), (75, 45), S_CLAIM),
    # ... with less: a false claim.
    ("schnapsen dealer=1", SCH_56 + "; claim 1", (2, "false_claim", 2), (56, 64), S_FALSE_TWO),
    ("schnapsen dealer=1", SCH_78_REST + "; claim 1", (2, "false_claim", 2), (42, 78),
     S_FALSE_TWO),
    ("sechsundsechzig dealer=1", SSZ_65 + "; claim 2", (1, "false_claim", 2), (65, 65),
     "spec sechsundsechzig: a false claim gives the opponent 2, or 3 if the claimer had no trick"),
    ("mariage4 dealer=4", M4_64 + "; claim 2", (1, "false_claim", 1), (56, 64), S_FALSE_ONE),
    ("mariage4 dealer=4", M4_74_THEN_2 + "; claim 4", (1, "false_claim", 1), (74, 46),
     S_FALSE_ONE),
    # The closer reaches 66 with the last trick and claims: he has made it.
    ("schnapsen dealer=1", SCH_CLOSE_68 + "; claim 2", (2, "closed_won", 3), (4, 68),
     S_CLOSER + " " + S_SCHNAPSEN_CLOSE),
    ("sechsundsechzig dealer=2", SSZ_CLOSE_75 + "; claim 1", (1, "closed_won", 2), (75, 0),
     S_CLOSER + " spec sechsundsechzig: scale judged on final totals"),
    # Nobody claims (`next`): the last-trick rules, as when the last trick ended the deal.
    ("schnapsen dealer=1", SCH_72 + "; next", (1, "last_trick", 1), (72, 48), S_NO_CLAIM),
    ("schnapsen dealer=1", SCH_56 + "; next", (1, "last_trick", 1), (56, 64),
     S_NO_CLAIM + " spec schnapsen: cards run out without a claim -> the winner of the last "
     "trick gets 1"),
    ("schnapsen dealer=1", SCH_78_REST + "; next", (1, "last_trick", 1), (42, 78),
     S_NO_CLAIM),
    ("schnapsen dealer=1", SCH_CLOSE_68 + "; next", (1, "closed_lost", 3), (4, 68),
     S_NO_CLAIM + " spec schnapsen: closing failure -> opponent 2, or 3 if the opponent had "
     "no trick at the close"),
    ("sechsundsechzig dealer=1", SSZ_66 + "; next", (2, "higher", 1), (64, 66),
     S_NO_CLAIM + " spec sechsundsechzig: cards run out -> higher total wins 1"),
    ("sechsundsechzig dealer=1", SSZ_65 + "; next", (None, "draw", 0), (65, 65),
     S_NO_CLAIM + " spec sechsundsechzig: equal -> draw"),
    ("sechsundsechzig dealer=2", SSZ_CLOSE_75 + "; next", (2, "closed_lost", 3), (75, 0),
     S_NO_CLAIM + " " + S_CLOSER_FAILS),
    ("mariage4 dealer=4", M4_75 + "; next", (1, "counted", 1), (75, 45),
     S_NO_CLAIM + " rules.md decision 1: seed rule sets count the piles"),
    ("mariage4 dealer=4", M4_74_THEN_2 + "; next", (1, "counted", 1), (74, 46),
     S_NO_CLAIM + " rules.md decision 1: seed rule sets count the piles"),
    ("mariage4 dealer=4", M4_64 + "; next", (2, "last_trick", 1), (56, 64),
     S_NO_CLAIM + " " + S_LAST),
    # Any rule set with totals hidden by its option.
    ("mariage dealer=1 hidden=1", "close 2; trick 2 A T; trick 2 A T; trick 2 A T; "
     "trick 2 A K; trick 1 J J; trick 1 9 9; next", (2, "closed_won", 3), (4, 78),
     S_NO_CLAIM + " rules.md decision 1: seed rule sets count the piles"),
]


def check_row(m, expected, points, seed):
    assert len(deals(m)) == 1, seed
    assert outcome(m) == expected, seed
    assert card_points(m) == points, seed
    score = [0] * m.state.rules.sides
    if expected[0]:
        score[expected[0] - 1] = expected[2]
    assert snap(m)["score"] == score, seed


@pytest.mark.parametrize("rules,events,expected,points,seed", WINDOW)
def test_claim_window(rules, events, expected, points, seed):
    *before, last = lines(events)
    m = play(rules, "; ".join(before))
    # The last trick is in, and the deal waits: nothing scored, nothing ended.
    assert deals(m) == [], seed
    assert deal(m)["played"] == m.state.deal.total, seed
    assert snap(m)["score"] == [0, 0], seed
    m.enter_line(last)
    check_row(m, expected, points, seed)
    # Then the next deal waits for `next` (or trump, a result) as after any deal.
    assert not m.state.deal.opened, seed


# (rules, events up to the last trick, refused entry, refusal code, seed)
REFUSED = [
    # Only the side that took the last trick may claim: an unclaimed 66 of the other side
    # stays unclaimed.
    ("schnapsen dealer=1", SCH_78_REST, "claim 2", "claim_last", S_CLAIM),
    ("schnapsen dealer=1", SCH_72, "claim 2", "claim_last", S_CLAIM),
    ("sechsundsechzig dealer=1", SSZ_65, "claim 1", "claim_last", S_CLAIM),
    ("mariage4 dealer=4", M4_74_THEN_2, "claim 1", "claim_last", S_CLAIM),
    ("mariage4 dealer=4", M4_74_THEN_2, "claim 3", "claim_last", S_CLAIM),
    ("mariage4 dealer=4", M4_75, "claim 5", "no_player", S_CLAIM),
    # After the last trick no marriage goes with a claim, and nothing else is played.
    ("mariage4 dealer=4", M4_75, "claim 1 S", "deal_over", S_CLAIM),
    ("schnapsen dealer=1", SCH_72, "trick 1 A A", "deal_over", S_CLAIM),
    ("schnapsen dealer=1", SCH_72, "marriage 1 H", "deal_over", S_CLAIM),
    ("schnapsen dealer=1", SCH_72, "trump H", "deal_over", S_CLAIM),
    ("schnapsen dealer=1", SCH_72, "close 1", "deal_over", S_CLAIM),
    ("schnapsen dealer=1", SCH_72, "result 1 3", "deal_over", S_NO_CLAIM),
    ("sechsundsechzig dealer=1", SSZ_65, "draw", "deal_over", S_NO_CLAIM),
    ("mariage4 dealer=4", M4_75, "cut9", "deal_over", S_CLAIM),
    ("mariage4 dealer=4", M4_75, "bid 1 six", "deal_over", S_CLAIM),
]


@pytest.mark.parametrize("rules,events,entry,code,seed", REFUSED)
def test_refused_in_the_claim_window_and_nothing_changes(rules, events, entry, code, seed):
    m = play(rules, events)
    assert refusal(m, entry) == code, seed  # refusal() checks that nothing changed
    # ... and the window is still open: its own entries are still taken.
    assert deals(m) == [], seed
    m.state.check(b"\x0d")


@pytest.mark.parametrize("rules,events", [
    ("schnapsen dealer=1", SCH_72), ("sechsundsechzig dealer=2", SSZ_CLOSE_75),
    ("mariage4 dealer=4", M4_75)])
def test_undo_leaves_the_window_and_redo_comes_back(rules, events):
    m = play(rules, events)
    before = snap(m)
    undone = m.undo()
    assert undone[0] == 1  # the last trick
    d = deal(m)
    assert d["played"] == m.state.deal.total - 1
    # Out of the window: `next` is refused as in any deal under way, a trick is taken.
    assert refusal(m, "next") == "deal_started"
    m.redo()
    assert snap(m) == before
    # `next` scores the deal; undo takes it back into the window, the deal unscored.
    m.enter_line("next")
    assert len(deals(m)) == 1
    m.undo()
    assert snap(m)["deals"] == 0 and snap(m)["score"] == [0, 0]
    assert deal(m)["played"] == m.state.deal.total
    assert snap(m)["redo"] == 1


def test_open_totals_end_at_the_last_trick_as_before():
    # No window without hidden totals: the same tricks end the deal at once.
    m = play("schnapsen dealer=1 hidden=0", SCH_56)
    assert outcome(m) == (1, "last_trick", 1)
    m = play("mariage4 dealer=4 hidden=0", M4_64)
    assert outcome(m) == (2, "last_trick", 1)


def test_a_claim_before_the_last_trick_is_taken_from_any_player_as_before():
    # rules.md decision 14: a claim without a marriage for any player at any moment of play.
    m = play("schnapsen dealer=1", SCH_78_REST.rsplit(";", 1)[0] + "; claim 2")
    assert outcome(m) == (2, "claim", 1)


def _replay_micropython(tmp_path, rules, events):
    path = tmp_path / "events.txt"
    path.write_text("\n".join(["new " + rules] + lines(events)) + "\n")
    out = run_micropython([os.path.join(ROOT, "tools", "replay.py"), str(path)])
    assert out.returncode == 0, out.stderr.decode()
    return json.loads(out.stdout)


def test_rows_in_micropython(tmp_path):
    """Every row of WINDOW and REFUSED in the MicroPython unix port: the same snapshot as in
    CPython (the finished deal, the score, the refusal)."""
    for rules, events, expected, points, seed in WINDOW:
        got = _replay_micropython(tmp_path, rules, events)
        assert got["refused"] == [], seed
        del got["refused"]
        assert got == json.loads(json.dumps(snap(play(rules, events)))), seed
        row = got["history"][0]
        assert (row["winner"], row["reason"], tuple(row["points"])) == (
            expected[0], expected[1], points), seed
    for rules, events, entry, code, seed in REFUSED:
        got = _replay_micropython(tmp_path, rules, events + "; " + entry)
        assert got["refused"] == [[len(lines(events)) + 2, code]], seed
