"""Two players: mariage, classic66, schnapsen, sechsundsechzig, one row per rule.

Every row quotes the seed sentence it checks (000 Ukrainian, 001 and 004
Russian), or says "spec ...:" for a rule of the project's rules spec (section
and item), or "rules.md decision N:" for a numbered decision in docs/rules.md.
Unless a row says otherwise player 1 deals (`dealer=1`), so player 2 leads
first. Cards are entered by rank only, in play order from the leader, so the
winner check does not apply; every deal holds at most four of each rank.
"""

import pytest
from rulehelp import (
    card_points,
    check_snapshot,
    deal,
    deals,
    last,
    outcome,
    play,
    refusal,
    rule_sets,
    snap,
)

# Player 1 takes 32 in three tricks, then player 2 reaches 68.
LOSER32 = ("trick 1 A T; trick 1 K Q; trick 1 J J; "
           "trick 2 A T; trick 2 A T; trick 2 T K; trick 2 K Q; trick 2 Q J")
# Player 1 takes 33 in two tricks, then player 2 reaches 70.
LOSER33 = ("trick 1 A T; trick 1 T J; "
           "trick 2 A T; trick 2 A T; trick 2 A K; trick 2 K K; trick 2 Q J")
# Player 2 takes every trick and reaches 78 on the fourth.
SWEEP = "trick 2 A T; trick 2 A T; trick 2 A T; trick 2 A K"
# Player 1 (leading: dealer=2) declares 20 and never takes a trick; player 2 reaches 70.
MARRIAGE_NO_TRICK = ("trump S; marriage 1 H; trick 2 K A; trick 2 A T; trick 2 A T; "
                     "trick 2 T Q")
# Player 2 has 33 in two tricks and declares the trump marriage (40) while leading.
MARRIAGE_REACHES = "trump H; trick 2 A T; trick 2 T J"

# All twelve tricks, nobody at 66 before the last: player 1 64, player 2 56 and
# the last trick (9 9, worth nothing).
LAST_TRICK = ("trick 1 A T; trick 1 A T; trick 1 K Q; trick 1 K Q; trick 1 K J; trick 1 J 9; "
              "trick 2 A T; trick 2 A T; trick 2 K Q; trick 2 Q J; trick 2 J 9; trick 2 9 9")
# All twelve tricks: player 1 65, player 2 55 and the last trick.
SIXTY_FIVE = ("trick 1 A T; trick 1 A T; trick 1 K Q; trick 1 K Q; trick 1 K 9; trick 1 Q 9; "
              "trick 1 J 9; trick 2 A T; trick 2 A T; trick 2 K Q; trick 2 J J; trick 2 J 9")
# SWEEP, then player 1 takes the eight tricks left (42) including the last one.
SWEEP_THEN_REST = (SWEEP + "; trick 1 T K; trick 1 K K; trick 1 Q Q; trick 1 Q Q; "
                   "trick 1 J J; trick 1 J J; trick 1 9 9; trick 1 9 9")
# The same with the 20-card pack (no nines): player 1 takes the six tricks left.
SWEEP_THEN_REST_20 = (SWEEP + "; trick 1 T K; trick 1 K K; trick 1 Q Q; trick 1 Q Q; "
                      "trick 1 J J; trick 1 J J")

# Closing. Player 1 has 34 in two tricks; player 2 closes and reaches 70.
CLOSE_WON = ("trick 1 A T; trick 1 T Q; trick 2 A T; close 2; "
             "trick 2 A T; trick 2 A K; trick 2 K K; trick 2 Q J")
# Player 2 closes while player 1 has no trick; player 1 then takes 35 after the
# close, player 2 declares 20 and reaches 68.
CLOSE_EARLY = ("trump H; trick 2 A T; close 2; trick 1 A T; trick 1 T K; trick 2 A T; "
               "marriage 2 S; trick 2 K J")
# Player 2 closes; player 1 (a trick before the close) reaches 67.
CLOSE_LOST = "trick 1 J J; trick 2 Q Q; close 2; trick 1 A T; trick 1 A T; trick 1 A T"
# Player 2 closes; player 1 (no trick before the close) reaches 69.
CLOSE_LOST_NO_TRICK = "trick 2 Q Q; close 2; trick 1 A T; trick 1 A T; trick 1 A T; trick 1 K J"
# Player 2 closes at once and is left with 63 when the six cards in hand are
# played out; player 2 takes the last trick.
CLOSE_SHORT = ("close 2; trick 2 A T; trick 2 A T; trick 2 A T; trick 1 J J; trick 2 9 9; "
               "trick 2 9 9")
# Player 2 closes after player 1 took a trick; player 2 ends at 63, player 1
# takes the last trick and has 14 (24 if the last trick counted 10).
CLOSE_SHORT_TRICK = ("trick 1 J J; trick 2 9 9; close 2; trick 2 A T; trick 2 A T; "
                     "trick 2 A T; trick 2 9 9; trick 1 J J; trick 1 Q Q")
# Schnapsen: player 2 closes after player 1 took a trick, and ends at 64.
CLOSE_SHORT_20 = ("trick 1 J J; trick 2 Q Q; close 2; trick 2 A T; trick 2 A T; "
                  "trick 2 K K; trick 2 K K; trick 1 J J")

S_SCALE_2 = "004: если же у врага не набралось и 33 очков, то победивший списывает у себя за раз 2 очка"
S_SCALE_1 = ("004: Если у соперника счет состоит из 33 или более очков, то товарищ его, "
             "победивший тур ... имеет право стереть с настольной 7-ки только 1-о очко")
S_SCALE_3 = "004: если же враг не взял ни 1-ой взятки, то товарищ его списывает З очка"
S_MARRIAGE_3 = ("spec: 'No trick' (not 'no point') is the test for 3; 001: марьяж ... "
                "приносят игроку сразу 20 очков")
S_66 = ("000: Якщо хто-небудь з гравців набере 66 очок або більше, то він стає переможцем "
        "у цій грі і гра закінчується.")
S_CLOSED_3 = ("000: У закритій грі переможцю незалежно від числа очок, які заробив суперник, "
              "завжди нараховується 3 пункту.")
S_CLOSER_FAILS_3 = ("000: Якщо закрив гру гравець не набере до кінця гри 66 очок, то 3 пункту "
                    "отримує його суперник.")
S_CLASSIC_CLOSE_OK = "spec classic66 3: Closing success: the ordinary 1/2/3 scale, judged on the opponent's final total"
S_CLASSIC_CLOSE_2 = ("004: Если игрок, заявив колоду закрытой, не набирает 66 очков, то враг, "
                     "взявший хотя бы 1-у взятку, списывает у себя 2 очка")
S_CLASSIC_CLOSE_3 = "004: а если до закрытия колоды ему не удалось взять ни 1-ой взятки, то он списывает З очка"
S_SCHNAPSEN_CLOSE = "spec schnapsen: closing success -> scale judged on the opponent's points and tricks at the moment of closing"
S_LAST10 = "004: Кто из играющих взял последнюю взятку, тот приписывает 10 очков к своему счету."
S_LAST1 = "spec mariage 7: No one reaches 66 after all 12 tricks (deal not closed): the winner of the last trick gets 1."
S_DRAW65 = "spec classic66 4: No one reaches 66 (only 65-65 is possible with the +10): the deal is drawn"
S_HIDDEN = "rules.md decision 1: hidden totals: the deal does not end by itself at 66; a claim ends it"
S_COUNTED = "rules.md decision 1: seed rule sets count the piles: the side that reached 66 first wins ('counted')"
S_UNCLAIMED = "rules.md decision 1: schnapsen/sechsundsechzig: unclaimed 66 is lost (last trick gets 1 / higher total gets 1)"
S_FALSE_ONE = ("000: У тому випадку, коли гравець помиляється і у нього не виявляється 66 очок, "
               "суперникам дається одне очко.")
S_FALSE_TWO = "rules.md decision 2: schnapsen/sechsundsechzig -> opponent 2, or 3 if the claimer had no trick"

# (rules, events, (winner, reason, game points to the winner), card points at the end, seed)
DEAL_ENDS = [
    # The 1/2/3 scale, judged on the loser.
    ("mariage dealer=1", LOSER32, (2, "reached", 2), (32, 68), S_SCALE_2),
    ("classic66 dealer=1", LOSER32, (2, "reached", 2), (32, 68), S_SCALE_2),
    ("schnapsen dealer=1", LOSER32 + "; claim 2", (2, "claim", 2), (32, 68), S_SCALE_2),
    ("sechsundsechzig dealer=1", LOSER32 + "; claim 2", (2, "claim", 2), (32, 68), S_SCALE_2),
    ("mariage dealer=1", LOSER33, (2, "reached", 1), (33, 70), S_SCALE_1),
    ("classic66 dealer=1", LOSER33, (2, "reached", 1), (33, 70), S_SCALE_1),
    ("schnapsen dealer=1", LOSER33 + "; claim 2", (2, "claim", 1), (33, 70), S_SCALE_1),
    ("sechsundsechzig dealer=1", LOSER33 + "; claim 2", (2, "claim", 1), (33, 70), S_SCALE_1),
    ("mariage dealer=1", SWEEP, (2, "reached", 3), (0, 78), S_SCALE_3),
    ("classic66 dealer=1", SWEEP, (2, "reached", 3), (0, 78), S_SCALE_3),
    ("schnapsen dealer=1", SWEEP + "; claim 2", (2, "claim", 3), (0, 78), S_SCALE_3),
    # A declared marriage is not a trick: the loser with 20 and no trick still gives 3.
    ("mariage dealer=2", MARRIAGE_NO_TRICK, (2, "reached", 3), (20, 70), S_MARRIAGE_3),
    ("classic66 dealer=2", MARRIAGE_NO_TRICK, (2, "reached", 3), (20, 70), S_MARRIAGE_3),
    # ... and where marriages wait for a trick they never count at all.
    ("schnapsen dealer=2", MARRIAGE_NO_TRICK + "; claim 2", (2, "claim", 3), (0, 70),
     "spec schnapsen: marriages count only once the declarer has a trick"),
    ("sechsundsechzig dealer=2", MARRIAGE_NO_TRICK + "; claim 2", (2, "claim", 3), (0, 70),
     "spec sechsundsechzig: marriages count once the declarer has a trick"),
    ("mariage dealer=2 needtrick=1", MARRIAGE_NO_TRICK, (2, "reached", 3), (0, 70),
     "spec mariage 3: option marriage_needs_trick (count only once the declarer has a trick)"),
    # A marriage that reaches 66 ends the deal before its K or Q is led.
    ("mariage dealer=1", MARRIAGE_REACHES + "; marriage 2 H", (2, "reached", 3), (0, 73),
     "spec mariage 4: the deal ends at once ... (after a trick, or after a marriage declaration)"),
    ("classic66 dealer=1", MARRIAGE_REACHES + "; marriage 2 H", (2, "reached", 3), (0, 73),
     "spec mariage 4: the deal ends at once ... (after a trick, or after a marriage declaration)"),
    ("schnapsen dealer=1", MARRIAGE_REACHES + "; claim 2 H", (2, "claim", 3), (0, 73),
     "000: може оголошуючи мар'яж, сказати 20 (40), не роблячи ходу"),
    ("sechsundsechzig dealer=1", MARRIAGE_REACHES + "; claim 2 H", (2, "claim", 3), (0, 73),
     "000: може оголошуючи мар'яж, сказати 20 (40), не роблячи ходу"),
    # Closing, won.
    ("mariage dealer=1", CLOSE_WON, (2, "closed_won", 3), (34, 70), S_CLOSED_3),
    ("classic66 dealer=1", CLOSE_WON, (2, "closed_won", 1), (34, 70), S_CLASSIC_CLOSE_OK),
    ("sechsundsechzig dealer=1", CLOSE_WON + "; claim 2", (2, "closed_won", 1), (34, 70),
     "spec sechsundsechzig: scale judged on final totals"),
    ("schnapsen dealer=1", CLOSE_WON + "; claim 2", (2, "closed_won", 1), (34, 70),
     S_SCHNAPSEN_CLOSE),
    ("classic66 dealer=1", CLOSE_EARLY, (2, "closed_won", 1), (35, 68), S_CLASSIC_CLOSE_OK),
    ("sechsundsechzig dealer=1", CLOSE_EARLY + "; claim 2", (2, "closed_won", 1), (35, 68),
     "spec sechsundsechzig: scale judged on final totals"),
    ("schnapsen dealer=1", CLOSE_EARLY + "; claim 2", (2, "closed_won", 3), (35, 68),
     S_SCHNAPSEN_CLOSE),
    # Closing, lost: the opponent reaches 66 first.
    ("mariage dealer=1", CLOSE_LOST, (1, "closed_lost", 3), (67, 6), S_CLOSED_3),
    ("classic66 dealer=1", CLOSE_LOST, (1, "closed_lost", 2), (67, 6),
     "spec settled: classic66: if the opponent of the closer reaches 66 first, the closer has failed (2 ...)"),
    ("schnapsen dealer=1", CLOSE_LOST + "; claim 1", (1, "closed_lost", 2), (67, 6),
     "spec schnapsen: closing failure -> opponent 2"),
    ("sechsundsechzig dealer=1", CLOSE_LOST + "; claim 1", (1, "closed_lost", 2), (67, 6),
     "spec sechsundsechzig: closer failure -> opponent 2"),
    ("mariage dealer=1", CLOSE_LOST_NO_TRICK, (1, "closed_lost", 3), (69, 6), S_CLOSED_3),
    ("classic66 dealer=1", CLOSE_LOST_NO_TRICK, (1, "closed_lost", 3), (69, 6), S_CLASSIC_CLOSE_3),
    ("schnapsen dealer=1", CLOSE_LOST_NO_TRICK + "; claim 1", (1, "closed_lost", 3), (69, 6),
     "spec schnapsen: or 3 if the opponent had no trick at the close"),
    ("sechsundsechzig dealer=1", CLOSE_LOST_NO_TRICK + "; claim 1", (1, "closed_lost", 3),
     (69, 6), "spec sechsundsechzig: closer failure -> opponent 2 (3 if no trick at the close)"),
    # Closing, lost: the cards in hand run out before the closer has 66; no +10.
    ("mariage dealer=1", CLOSE_SHORT, (1, "closed_lost", 3), (4, 63), S_CLOSER_FAILS_3),
    ("classic66 dealer=1", CLOSE_SHORT, (1, "closed_lost", 3), (4, 63), S_CLASSIC_CLOSE_3),
    ("sechsundsechzig dealer=1", CLOSE_SHORT + "; next", (1, "closed_lost", 3), (4, 63),
     "spec sechsundsechzig: closer failure -> opponent 2 (3 if no trick at the close)"),
    ("mariage dealer=1", CLOSE_SHORT_TRICK, (1, "closed_lost", 3), (14, 63), S_CLOSER_FAILS_3),
    ("classic66 dealer=1", CLOSE_SHORT_TRICK, (1, "closed_lost", 2), (14, 63), S_CLASSIC_CLOSE_2),
    ("sechsundsechzig dealer=1", CLOSE_SHORT_TRICK + "; next", (1, "closed_lost", 2), (14, 63),
     "spec sechsundsechzig: +10 last trick ... closer failure -> opponent 2"),
    ("schnapsen dealer=1", CLOSE_SHORT_20 + "; next", (1, "closed_lost", 2), (8, 64),
     "spec schnapsen: closing failure -> opponent 2"),
    # The last trick: +10 in classic66 and sechsundsechzig, nothing in mariage.
    ("mariage dealer=1", LAST_TRICK, (2, "last_trick", 1), (64, 56), S_LAST1),
    ("classic66 dealer=1", LAST_TRICK, (2, "reached", 1), (64, 66), S_LAST10),
    ("sechsundsechzig dealer=1", LAST_TRICK + "; next", (2, "higher", 1), (64, 66),
     "spec sechsundsechzig: +10 last trick ... cards run out -> higher total wins 1"),
    ("classic66 dealer=1", SIXTY_FIVE, (None, "draw", 0), (65, 65), S_DRAW65),
    ("sechsundsechzig dealer=1", SIXTY_FIVE + "; next", (None, "draw", 0), (65, 65),
     "spec sechsundsechzig: cards run out -> higher total wins 1, equal -> draw"),
    ("mariage dealer=1", SIXTY_FIVE, (2, "last_trick", 1), (65, 55), S_LAST1),
    # Hidden totals: a claim ends the deal; unclaimed 66 counted or lost.
    ("mariage dealer=1 hidden=1", SWEEP + "; claim 2", (2, "claim", 3), (0, 78), S_HIDDEN),
    ("mariage dealer=1 hidden=1", SWEEP_THEN_REST + "; next", (2, "counted", 1), (42, 78), S_COUNTED),
    ("classic66 dealer=1 hidden=1", SWEEP_THEN_REST + "; next", (2, "counted", 1), (52, 78), S_COUNTED),
    ("sechsundsechzig dealer=1", SWEEP_THEN_REST + "; next", (2, "higher", 1), (52, 78), S_UNCLAIMED),
    ("schnapsen dealer=1", SWEEP_THEN_REST_20 + "; next", (1, "last_trick", 1), (42, 78), S_UNCLAIMED),
    ("mariage dealer=1 hidden=1", "close 2; " + SWEEP + "; trick 1 J J; trick 1 9 9; next",
     (2, "closed_won", 3), (4, 78), S_COUNTED),
    ("sechsundsechzig dealer=1", "close 2; " + SWEEP + "; trick 1 J J; trick 1 9 9; next",
     (1, "closed_lost", 3), (4, 78), S_UNCLAIMED),
    ("schnapsen dealer=1", "close 2; " + SWEEP + "; trick 1 J J; next", (1, "closed_lost", 3),
     (4, 78), S_UNCLAIMED),
    # A correct claim wins, though the other side passed 66 earlier and did not claim.
    ("schnapsen dealer=1", "trump H; trick 2 A A; trick 2 A A; trick 2 T T; trick 2 K J; "
     "trick 1 T T; marriage 1 H; trick 1 K Q; claim 1", (1, "claim", 1), (67, 70),
     "rules.md decision 13: a correct claim wins even if the other side passed 66 unclaimed"),
    # False claims.
    ("mariage dealer=1", "trick 2 A T; claim 2", (1, "false_claim", 1), (0, 21), S_FALSE_ONE),
    ("mariage dealer=1 hidden=1", "trick 2 A T; claim 2", (1, "false_claim", 1), (0, 21),
     S_FALSE_ONE),
    ("classic66 dealer=1", "trick 2 A T; claim 2", (1, "false_claim", 1), (0, 21), S_FALSE_ONE),
    ("schnapsen dealer=1", "trick 2 A T; claim 2", (1, "false_claim", 2), (0, 21), S_FALSE_TWO),
    ("schnapsen dealer=1", "claim 2", (1, "false_claim", 3), (0, 0), S_FALSE_TWO),
    ("sechsundsechzig dealer=1", "trick 2 A T; claim 2", (1, "false_claim", 2), (0, 21),
     S_FALSE_TWO),
    ("sechsundsechzig dealer=1", "claim 2", (1, "false_claim", 3), (0, 0), S_FALSE_TWO),
    # Quick entry of the piles (decision 10): one value per side, n = no trick.
    ("mariage dealer=1", "points 70 n", (1, "quick", 3), (70, 0),
     "rules.md decision 10: quick points: one value per side including marriages; n = took no trick"),
    ("mariage dealer=1", "points 32 88", (2, "quick", 2), (32, 88), S_SCALE_2),
    ("classic66 dealer=1", "points 33 97", (2, "quick", 1), (33, 97), S_SCALE_1),
    ("mariage dealer=1", "result 2 3", (2, "quick", 3), (0, 0),
     "spec: a quick result gives the game points directly"),
]


@pytest.mark.parametrize("rules,events,expected,points,seed", DEAL_ENDS)
def test_deal_end(rules, events, expected, points, seed):
    m = play(rules, events)
    assert len(deals(m)) == 1, seed
    assert outcome(m) == expected, seed
    assert card_points(m) == points, seed
    winner = expected[0]
    score = [0, 0]
    if winner:
        score[winner - 1] = expected[2]
    assert snap(m)["score"] == score, seed


# Reaching 66 ends the deal by itself only when totals are open.
# (rules, events, deal over?, seed)
REACH_66 = [
    ("mariage dealer=1", SWEEP, True, S_66),
    ("classic66 dealer=1", SWEEP, True, S_66),
    ("mariage dealer=1 hidden=1", SWEEP, False, S_HIDDEN),
    ("classic66 dealer=1 hidden=1", SWEEP, False, S_HIDDEN),
    ("schnapsen dealer=1", SWEEP, False, "spec schnapsen: 66 must be claimed by the player (hidden totals on)"),
    ("sechsundsechzig dealer=1", SWEEP, False, "rules.md options: hidden defaults to 1 for sechsundsechzig"),
    ("schnapsen dealer=1 hidden=0", SWEEP, True, "spec: hidden totals are an option of every rule set"),
]


@pytest.mark.parametrize("rules,events,ended,seed", REACH_66)
def test_reaching_66_ends_the_deal_unless_hidden(rules, events, ended, seed):
    m = play(rules, events)
    assert (len(deals(m)) == 1) == ended, seed
    if not ended:
        assert deal(m)["points"] == [0, 78]
        assert deal(m)["played"] == 4


# Marriage points: at once, or waiting for the declarer's first trick.
# Player 1 leads first (dealer=2).
# (rules, events, deal points, pending marriage points, seed)
MARRIAGE_POINTS = [
    ("mariage dealer=2", "trump H; marriage 1 S", [20, 0], [0, 0],
     "001: Король и дама одной масти составляют марьяж и приносят игроку сразу 20 очков"),
    ("mariage dealer=2", "trump H; marriage 1 H", [40, 0], [0, 0],
     "000: мар'яж козирний - 40 очок"),
    ("classic66 dealer=2", "trump H; marriage 1 S", [20, 0], [0, 0],
     "004: говорит 20 и пользуется правом приписать себе 20 Очков"),
    ("mariage dealer=2 needtrick=1", "trump H; marriage 1 S", [0, 0], [20, 0],
     "spec mariage 3: option marriage_needs_trick"),
    ("schnapsen dealer=2", "trump H; marriage 1 S", [0, 0], [20, 0],
     "spec schnapsen: marriages count only once the declarer has a trick"),
    ("schnapsen dealer=2", "trump H; marriage 1 H", [0, 0], [40, 0],
     "spec schnapsen: marriages count only once the declarer has a trick"),
    ("schnapsen dealer=2", "trump H; marriage 1 S; trick 1 K A", [35, 0], [0, 0],
     "spec schnapsen: marriages count only once the declarer has a trick"),
    ("schnapsen dealer=2", "trump H; marriage 1 S; trick 2 K A", [0, 15], [20, 0],
     "spec schnapsen: marriages count only once the declarer has a trick"),
    ("schnapsen dealer=2", "trump H; trick 1 J J; marriage 1 S", [24, 0], [0, 0],
     "spec schnapsen: marriages count only once the declarer has a trick"),
    ("sechsundsechzig dealer=2", "trump H; marriage 1 S", [0, 0], [20, 0],
     "spec sechsundsechzig: marriages count once the declarer has a trick"),
]


@pytest.mark.parametrize("rules,events,points,pending,seed", MARRIAGE_POINTS)
def test_marriage_points(rules, events, points, pending, seed):
    d = deal(play(rules, events))
    assert d["points"] == points, seed
    assert d["pending"] == pending, seed


def test_pending_marriage_reaches_66_with_the_first_trick():
    # Schnapsen: 40 waits for a trick, then 40 + 26 = 66 may be claimed.
    m = play("schnapsen dealer=2", "trump H; marriage 1 H; trick 1 K A; trick 1 A J")
    assert deal(m)["points"] == [40 + 15 + 13, 0]
    m.enter_line("claim 1")
    assert outcome(m) == (1, "claim", 3)


# Six tricks use up the stock: 4 nines, 4 jacks, K Q and K T (29 points).
STOCK_GONE = ("trump H; trick 2 9 9; trick 2 9 9; trick 2 J J; trick 2 J J; trick 2 K Q; "
              "trick 2 K T")
FIVE_TRICKS = "trump H; trick 2 9 9; trick 2 9 9; trick 2 J J; trick 2 J J; trick 2 K Q"
CLOSED = "trump H; trick 2 9 9; close 2"

# (rules, events before, marriage entry, refusal code or the declarer's points, seed)
MARRIAGE_WINDOW = [
    ("mariage dealer=1", FIVE_TRICKS, "marriage 2 S", 15 + 20,
     "000: а після цього зайти з короля або дами, за умови, що є карти в колоді"),
    ("mariage dealer=1", STOCK_GONE, "marriage 2 S", "marriage_window",
     "000: а після цього зайти з короля або дами, за умови, що є карти в колоді"),
    ("mariage dealer=1", CLOSED, "marriage 2 S", "marriage_window",
     "000: З цього моменту гра ведеться так, як ніби колода вже закінчилася."),
    ("classic66 dealer=1", STOCK_GONE, "marriage 2 S", 29 + 20,
     "spec classic66 2: Marriages may be declared whenever the player leads, also after the stock is gone"),
    ("classic66 dealer=1", CLOSED, "marriage 2 S", 20,
     "spec classic66 2: Marriages may be declared whenever the player leads (004 has no restriction)"),
    ("sechsundsechzig dealer=1", STOCK_GONE, "marriage 2 S", 29 + 20,
     "spec: marriages whenever the player leads"),
]


@pytest.mark.parametrize("rules,before,entry,expected,seed", MARRIAGE_WINDOW)
def test_marriage_window(rules, before, entry, expected, seed):
    m = play(rules, before)
    if isinstance(expected, str):
        assert refusal(m, entry) == expected, seed
    else:
        m.enter_line(entry)
        assert deal(m)["points"][1] == expected, seed
        assert deal(m)["marriages"] == [[2, "S", 20]], seed


def test_stock_runs_out_after_six_tricks():
    # 000: "Після розіграшу хабара гравці добирають карти до шести": 12 cards in the stock.
    m = play("mariage dealer=1", FIVE_TRICKS)
    assert deal(m)["stock"] == 2
    m.enter_line("trick 2 K T")
    assert deal(m)["stock"] == 0
    assert deal(play("schnapsen dealer=1", "trick 2 J J"))["stock"] == 8


# --- match: dealer, target, counting down, undo -------------------------------------------


@pytest.mark.parametrize("rules", rule_sets(2))
def test_dealers_alternate(rules):
    # 000: "Перший здавач в грі визначається жеребкуванням, в наступних іграх гравці
    # здають карти по черзі. ... Перший хід належить гравцю, який сидить зліва від здавальника."
    m = play(rules + " dealer=2")
    seen = []
    for n in range(4):
        d = deal(m)
        seen.append((d["dealer"], d["leader"]))
        m.enter_line("result %d 1" % (n % 2 + 1))
    assert seen == [(2, 1), (1, 2), (2, 1), (1, 2)]
    assert [row["dealer"] for row in deals(m)] == [2, 1, 2, 1]


def test_a_drawn_deal_passes_the_deal():
    # spec classic66 4: the deal is drawn, nobody scores, the deal passes on.
    m = play("classic66 dealer=1", SIXTY_FIVE)
    assert deal(m)["dealer"] == 2
    assert snap(m)["score"] == [0, 0]
    m = play("classic66 dealer=1", "draw")
    assert last(m) == (None, "draw", [])
    assert deal(m)["dealer"] == 2


# (rules, results, over, winner, score, shown, seed)
MATCH_END = [
    ("mariage", "result 1 3; result 1 3", False, None, [6, 0], [6, 0],
     "000: Повна гра йде до тих пір, поки хто-небудь з гравців не набере 7 або 8 пунктів"),
    ("mariage", "result 1 3; result 1 3; result 1 1", True, 1, [7, 0], [7, 0],
     "000: Повна гра йде до тих пір, поки хто-небудь з гравців не набере 7 або 8 пунктів"),
    ("mariage target=8", "result 1 3; result 1 3; result 1 1", False, None, [7, 0], [7, 0],
     "000: ... не набере 7 або 8 пунктів (за домовленістю)"),
    ("mariage target=8", "result 1 3; result 1 3; result 2 2; result 1 2", True, 1, [8, 2],
     [8, 2], "000: ... не набере 7 або 8 пунктів (за домовленістю)"),
    ("mariage", "result 2 3; result 2 3; result 2 3", True, 2, [0, 9], [0, 9],
     "spec mariage 8: The match score may exceed the target by the last deal's points; show it."),
    ("classic66", "result 1 2; result 2 3", False, None, [2, 3], [5, 4],
     "004: каждый участник ставит себе 7-ку или 7 очков ... Кто 1-ый уничтожит все 7 очков, тот победил"),
    ("classic66", "result 1 3; result 1 3; result 2 1; result 1 1", True, 1, [7, 1], [0, 6],
     "004: Кто 1-ый уничтожит все 7 очков, тот победил всю партию"),
    ("classic66 down=0", "result 1 2; result 2 3", False, None, [2, 3], [2, 3],
     "spec classic66 5: shown counting down from 7 by default, option up"),
    ("schnapsen", "result 1 2; result 2 3", False, None, [2, 3], [5, 4],
     "spec schnapsen: Match 7, counted down"),
    ("sechsundsechzig down=1", "result 1 2", False, None, [2, 0], [5, 7],
     "spec: counting down is only how scores are shown (remaining = target - score)"),
]


@pytest.mark.parametrize("rules,results,over,winner,score,shown,seed", MATCH_END)
def test_match_end_and_display(rules, results, over, winner, score, shown, seed):
    check_snapshot(play(rules, results), seed, over=over, winner=winner, score=score,
                   shown=shown)


def test_history_keeps_every_deal():
    m = play("mariage dealer=1", LOSER32, "next", LOSER33, "result 1 1")
    rows = deals(m)
    assert [(r["dealer"], r["reason"], r["winner"]) for r in rows] == [
        (1, "reached", 2), (2, "reached", 2), (1, "quick", 1)]
    assert snap(m)["score"] == [1, 3]
    assert snap(m)["stats"] == {"won": [1, 2], "won2": [0, 1], "won3": [0, 0]}


def test_undo_and_redo_across_a_deal_end():
    m = play("mariage dealer=1", LOSER32)
    ended = snap(m)
    assert ended["deals"] == 1 and ended["score"] == [0, 2]
    # spec: a trick after the deal is over is refused until the next deal is opened.
    assert refusal(m, "trick 1 A T") == "deal_over"
    m.enter_line("trump S")
    with_trump = snap(m)
    m.undo()
    assert snap(m)["deals"] == 1 and snap(m)["deal"]["trump"] is None
    # The next undo reaches back into the finished deal and reopens it.
    m.undo()
    back = snap(m)
    assert back["deals"] == 0 and back["score"] == [0, 0]
    assert back["deal"]["played"] == 7 and back["deal"]["points"] == [32, 63]
    assert back["deal"]["dealer"] == 1
    m.redo()
    assert snap(m)["score"] == [0, 2] and snap(m)["deals"] == 1
    assert snap(m)["deal"]["dealer"] == 2
    m.redo()
    assert snap(m) == with_trump


def test_undo_reopens_a_finished_match():
    m = play("mariage", "result 1 3; result 1 3; result 1 1")
    assert snap(m)["over"]
    m.undo()
    s = snap(m)
    assert not s["over"] and s["score"] == [6, 0] and s["winner"] is None
    m.enter_line("result 2 1")
    assert snap(m)["score"] == [6, 1]
