"""Three players: mariage3 and classic66-3, one row per rule.

Each row quotes the seed sentence it checks, or "spec:" for a rule of the rules
spec, or "rules.md decision N:" for a numbered decision in docs/rules.md.
Unless a row says otherwise player 1 deals (`dealer=1`), so player 2 leads.
Cards are entered by rank only (no winner check); 8 tricks of 3 cards use
the whole pack, at most four of each rank.
"""

import pytest
from rulehelp import (
    card_points,
    check_snapshot,
    deal,
    deals,
    outcome,
    play,
    refusal,
    rule_sets,
    snap,
)

# Player 1 reaches 66 against opponents in various states:
# player 2 has 42 in two tricks, player 3 no trick.
STRONG_42 = ("trick 2 A T 9; trick 2 A T 9; trick 1 A T K; trick 1 A T K; trick 1 K Q Q; "
             "trick 1 Q Q J")
# player 2 has 21, player 3 14 (one trick each).
BOTH_LOW = "trick 2 A T 9; trick 3 T K 9; trick 1 A T K; trick 1 A T K; trick 1 A Q Q"
# player 2 has 21 (one trick), player 3 no trick.
ONE_LOW = "trick 2 A T 9; trick 1 A T K; trick 1 A T K; trick 1 A Q Q"
# neither opponent has a trick.
NONE = "trick 1 A T K; trick 1 A T K; trick 1 A Q Q"
# the stronger opponent (player 2) has 32, player 3 has 4.
AT_32 = ("trick 2 A T 9; trick 2 A 9 9; trick 3 J J 9; trick 1 A T K; trick 1 A T K; "
         "trick 1 T K Q")
# the stronger opponent (player 2) has 33, player 3 no trick.
AT_33 = "trick 2 A T 9; trick 2 T J 9; trick 1 A T K; trick 1 A T K; trick 1 A K Q"
# Player 2 declares 20 while leading and takes no trick; player 1 reaches 73.
MARRIAGE_NO_TRICK = "trump H; marriage 2 S; trick 1 K A T; trick 1 A T Q; trick 1 A T Q"

# All eight tricks, nobody at 66: player 1 55, player 2 35, player 3 30 and the last trick.
SPREAD = ("trick 1 A T K; trick 1 A T K; trick 1 Q J 9; trick 2 A T 9; trick 2 K Q 9; "
          "trick 2 Q J J; trick 3 A T 9; trick 3 K Q J")
# All eight tricks: player 1 50, player 2 30, player 3 40 and the last trick (9 9 9).
TIE_50 = ("trick 1 A T K; trick 1 A T K; trick 2 T K K; trick 2 Q Q J; trick 2 J J 9; "
          "trick 3 A A T; trick 3 Q Q J; trick 3 9 9 9")

S_STRONG = "spec three players 3: Judge against the stronger opponent"
S_JUDGE_1 = S_STRONG + ": if either opponent has 33 or more -> 1"
S_JUDGE_2 = S_STRONG + ": else if either opponent took a trick -> 2"
S_JUDGE_3 = S_STRONG + ": else -> 3"
S_WEAK = "spec three players 3: Option: judge against the weaker opponent"
S_SUM = "spec three players 3: Option: ... or against the sum of both"
S_MARIAGE3 = ("000: Гра йде за правилами Мар'яжу для двох, за винятком таких змін. "
              "Кожному гравцеві здається по 8 карт.")
S_CLASSIC3 = "004: Когда эта игра имеет 3-ех участников, то правила остаются те же самые, как в 2-ем"

# (rules, events, (winner, reason, game points), card points, seed)
DEAL_ENDS = [
    ("mariage3 dealer=1", STRONG_42, (1, "reached", 1), (68, 42, 0), S_JUDGE_1),
    ("classic66-3 dealer=1", STRONG_42, (1, "reached", 1), (68, 42, 0), S_JUDGE_1),
    ("mariage3 dealer=1 judge=weak", STRONG_42, (1, "reached", 3), (68, 42, 0), S_WEAK),
    ("mariage3 dealer=1 judge=sum", STRONG_42, (1, "reached", 1), (68, 42, 0), S_SUM),
    ("mariage3 dealer=1", BOTH_LOW, (1, "reached", 2), (67, 21, 14), S_JUDGE_2),
    ("classic66-3 dealer=1", BOTH_LOW, (1, "reached", 2), (67, 21, 14), S_JUDGE_2),
    ("mariage3 dealer=1 judge=weak", BOTH_LOW, (1, "reached", 2), (67, 21, 14), S_WEAK),
    ("classic66-3 dealer=1 judge=sum", BOTH_LOW, (1, "reached", 1), (67, 21, 14), S_SUM),
    ("mariage3 dealer=1", ONE_LOW, (1, "reached", 2), (67, 21, 0), S_JUDGE_2),
    ("mariage3 dealer=1 judge=weak", ONE_LOW, (1, "reached", 3), (67, 21, 0), S_WEAK),
    ("mariage3 dealer=1 judge=sum", ONE_LOW, (1, "reached", 2), (67, 21, 0), S_SUM),
    ("mariage3 dealer=1", NONE, (1, "reached", 3), (67, 0, 0), S_JUDGE_3),
    ("classic66-3 dealer=1", NONE, (1, "reached", 3), (67, 0, 0), S_JUDGE_3),
    ("mariage3 dealer=1", AT_32, (1, "reached", 2), (67, 32, 4),
     "004: если же у врага не набралось и 33 очков, то победивший списывает у себя за раз 2 очка"),
    ("classic66-3 dealer=1", AT_32, (1, "reached", 2), (67, 32, 4),
     "004: если же у врага не набралось и 33 очков, то победивший списывает у себя за раз 2 очка"),
    ("mariage3 dealer=1", AT_33, (1, "reached", 1), (68, 33, 0),
     "004: Если у соперника счет состоит из 33 или более очков ... только 1-о очко"),
    ("classic66-3 dealer=1", AT_33, (1, "reached", 1), (68, 33, 0),
     "004: Если у соперника счет состоит из 33 или более очков ... только 1-о очко"),
    # A declared marriage is not a trick.
    ("mariage3 dealer=1", MARRIAGE_NO_TRICK, (1, "reached", 3), (73, 20, 0),
     "spec: 'No trick' (not 'no point') is the test for 3"),
    # Nobody reaches 66.
    ("mariage3 dealer=1", SPREAD, (3, "last_trick", 1), (55, 35, 30),
     "spec three players 4: mariage3 -> the winner of the last trick gets 1"),
    ("classic66-3 dealer=1", SPREAD, (1, "higher", 1), (55, 35, 40),
     "spec three players 4: classic66-3 (which has the +10 last trick) -> the highest total gets 1"),
    ("mariage3 dealer=1", TIE_50, (3, "last_trick", 1), (50, 30, 40),
     "spec three players 4: mariage3 -> the winner of the last trick gets 1"),
    ("classic66-3 dealer=1", TIE_50, (None, "draw", 0), (50, 30, 50),
     "spec three players 4: classic66-3 ... a tie for highest is a draw"),
    # Quick entry: judged against the stronger opponent too.
    ("classic66-3 dealer=1", "points 70 20 n", (1, "quick", 2), (70, 20, 0), S_JUDGE_2),
    ("mariage3 dealer=1", "points 20 n 80", (3, "quick", 2), (20, 0, 80), S_JUDGE_2),
    ("mariage3 dealer=1", "points 40 n 80", (3, "quick", 1), (40, 0, 80), S_JUDGE_1),
]


@pytest.mark.parametrize("rules,events,expected,points,seed", DEAL_ENDS)
def test_deal_end(rules, events, expected, points, seed):
    m = play(rules, events)
    assert len(deals(m)) == 1, seed
    assert outcome(m) == expected, seed
    assert card_points(m) == points, seed
    score = [0, 0, 0]
    if expected[0]:
        score[expected[0] - 1] = expected[2]
    assert snap(m)["score"] == score, seed


# (rules, events, (deal points), seed)
LAST_TRICK_BONUS = [
    ("classic66-3 dealer=1", SPREAD, (55, 35, 40),
     "004: Кто из играющих взял последнюю взятку, тот приписывает 10 очков к своему счету."),
    ("mariage3 dealer=1", SPREAD, (55, 35, 30), S_MARIAGE3),
]


@pytest.mark.parametrize("rules,events,points,seed", LAST_TRICK_BONUS)
def test_last_trick_bonus(rules, events, points, seed):
    assert card_points(play(rules, events)) == points, seed


@pytest.mark.parametrize("rules", rule_sets(3))
def test_marriage_without_a_stock(rules):
    # spec three players 2: Marriages: when leading (there is no stock). 20/40, once per suit.
    m = play(rules + " dealer=1", "trump H; trick 2 9 9 9; trick 2 J J J; trick 2 J 9 Q; "
             "trick 2 A T Q")
    assert deal(m)["points"] == [0, 35, 0] and deal(m)["played"] == 4
    m.enter_line("marriage 2 H")
    assert outcome(m) == (2, "reached", 3)
    assert card_points(m) == (0, 35 + 40, 0)
    m = play(rules + " dealer=1", "trump H; marriage 2 S; trick 2 K A T")
    assert deal(m)["points"] == [0, 20 + 25, 0]
    assert refusal(m, "marriage 2 S") == "suit_declared"


@pytest.mark.parametrize("rules", rule_sets(3))
def test_eight_tricks_and_no_close(rules):
    # 004: "Сдается вся колода за раз и приходится по 8 карт каждому участнику";
    # "Вся игра идет обязательно, так как колоды не существует."
    m = play(rules + " dealer=1", SPREAD.rsplit(";", 1)[0])
    assert deal(m)["played"] == 7 and deals(m) == []
    assert deal(m)["stock"] is None
    assert refusal(m, "close 3") == "no_stock_game"


@pytest.mark.parametrize("rules", rule_sets(3))
def test_dealer_rotates(rules):
    # 000: "в наступних іграх гравці здають карти по черзі"; the player left of the dealer leads.
    m = play(rules + " dealer=3")
    seen = []
    for n in range(4):
        d = deal(m)
        seen.append((d["dealer"], d["leader"]))
        m.enter_line("result %d 1" % (n % 3 + 1))
    assert seen == [(3, 1), (1, 2), (2, 3), (3, 1)]


# (rules, results, over, winner, score, shown, seed)
MATCH_END = [
    ("classic66-3", "result 1 2", False, None, [2, 0, 0], [1, 3, 3],
     "004: 1) Вместо 7 очков для списывания назначается З очка или черточки"),
    ("classic66-3", "result 1 2; result 2 1; result 1 1", True, 1, [3, 1, 0], [0, 2, 3],
     "004: 1) Вместо 7 очков для списывания назначается З очка или черточки"),
    ("classic66-3 down=0", "result 1 2; result 2 1", False, None, [2, 1, 0], [2, 1, 0],
     "spec: counting down is only how scores are shown"),
    ("mariage3", "result 1 3; result 1 3", False, None, [6, 0, 0], [6, 0, 0],
     "spec three players 5: mariage3 7 (option 8)"),
    ("mariage3", "result 1 3; result 1 3; result 3 1; result 1 1", True, 1, [7, 0, 1],
     [7, 0, 1], "spec three players 5: mariage3 7 (option 8)"),
    ("mariage3 target=8", "result 1 3; result 1 3; result 1 1", False, None, [7, 0, 0],
     [7, 0, 0], "spec three players 5: mariage3 7 (option 8)"),
    # A false claim gives both others 1: two players at 7 together is no winner yet.
    ("mariage3", "result 2 3; result 2 3; result 3 3; result 3 3; next; claim 1", False, None,
     [0, 7, 7], [0, 7, 7], "rules.md decision 5: the match ends when a side reaches the target and is alone in the lead"),
    ("mariage3", "result 2 3; result 2 3; result 3 3; result 3 3; next; claim 1; result 3 1", True, 3,
     [0, 7, 8], [0, 7, 8], "rules.md decision 5: the match ends when a side reaches the target and is alone in the lead"),
]


@pytest.mark.parametrize("rules,results,over,winner,score,shown,seed", MATCH_END)
def test_match_end_and_display(rules, results, over, winner, score, shown, seed):
    check_snapshot(play(rules, results), seed, over=over, winner=winner, score=score,
                   shown=shown)


def test_false_claim_gives_both_others_one():
    # 000: "У тому випадку, коли гравець помиляється і у нього не виявляється 66 очок,
    # суперникам дається одне очко."
    m = play("mariage3 dealer=1", "trick 2 A T K; claim 2")
    assert outcome(m)[:2] == (None, "false_claim")
    assert snap(m)["score"] == [1, 0, 1]
    assert [tuple(a) for a in deals(m)[-1]["awards"]] == [(1, 1, 0), (3, 1, 0)]


def test_undo_and_redo_across_a_deal_end():
    m = play("classic66-3 dealer=1", SPREAD)
    ended = snap(m)
    assert ended["score"] == [1, 0, 0] and ended["deal"]["dealer"] == 2
    m.undo()
    back = snap(m)
    assert back["deals"] == 0 and back["score"] == [0, 0, 0]
    assert back["deal"]["played"] == 7 and back["deal"]["dealer"] == 1
    m.redo()
    assert snap(m) == ended
