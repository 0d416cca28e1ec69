"""Four players in two pairs: mariage4 (seed 000), one row per rule.

Pair 1 is seats 1+3, pair 2 seats 2+4. Unless a row says otherwise seat 4
deals (`dealer=4`), so seat 1 leads and pair 1 is first in play order.
Hidden totals are on by default: a pair ends the deal by a claim, or the
piles are counted when the cards run out. Cards are entered by rank only;
six tricks of four cards use the whole pack.
"""

import pytest
from rulehelp import card_points, check_snapshot, deal, deals, last, outcome, play, refusal, snap

# Pair 1 (seats 1 and 3) takes 81 in three tricks; pair 2 has no trick.
PAIR1_81 = "trick 1 A T K Q; trick 3 A T K Q; trick 1 A T J J"
# Pair 2 takes one trick worth 2 first.
PAIR2_2 = "trick 2 9 9 9 J; " + PAIR1_81
# Pair 2 has 35 in two tricks; pair 1 then reaches 74 in three.
PAIR2_35 = ("trick 2 A T 9 9; trick 4 T K 9 9; trick 1 A T K Q; trick 3 A T K Q; "
            "trick 1 A Q J J")
# PAIR2_35 and the sixth trick (11), taken by seat 2.
PAIR2_35_ALL = PAIR2_35 + "; trick 2 K Q J J"
# All six tricks, 60 each; seat 4 takes the last.
SIXTY_ALL = ("trick 1 A T K Q; trick 3 A T K Q; trick 1 J J 9 9; trick 2 A T K Q; "
             "trick 4 A T K Q; trick 4 J J 9 9")

S_3 = ("000: Якщо у них немає жодного хабара, то виграла пара відкриває на своїй вісімці "
       "3 очки")
S_1 = "000: якщо у суперників менше ніж 33 очка, то виграла пара відкриває одне очко"
S_FULL = "spec four players 5: Option: the full 1/2/3 scale of the two-player game"
S_LAST = ("000: Якщо ні у кого не набралося за весь кін 66 очок, то одне очко дається тій "
          "парі, яка взяла останній хабар.")
S_CLAIM = ("000: Якщо гравець в процесі гри бачить, що у нього з набраними очками і "
           "оголошенням буде 66 очок, то він може оголошуючи мар'яж, сказати 20 (40), не "
           "роблячи ходу")
S_FALSE = ("000: У тому випадку, коли гравець помиляється і у нього не виявляється 66 очок, "
           "суперникам дається одне очко.")
S_HIDDEN = "000: По ходу гри дивитися набрані очки заборонено."

# (rules, events, (winner, reason, game points), card points per pair, seed)
DEAL_ENDS = [
    ("mariage4 dealer=4", PAIR1_81 + "; claim 1", (1, "claim", 3), (81, 0), S_3),
    ("mariage4 dealer=4", PAIR1_81 + "; claim 3", (1, "claim", 3), (81, 0), S_3),
    ("mariage4 dealer=4", PAIR2_2 + "; claim 1", (1, "claim", 1), (81, 2), S_1),
    ("mariage4 dealer=4 scale=full", PAIR2_2 + "; claim 1", (1, "claim", 2), (81, 2), S_FULL),
    ("mariage4 dealer=4", PAIR2_35 + "; claim 3", (1, "claim", 1), (74, 35),
     "spec four players 5: 000 states '<33 -> 1'; >=33 is unstated and is read as 1"),
    ("mariage4 dealer=4 scale=full", PAIR2_35 + "; claim 3", (1, "claim", 1), (74, 35), S_FULL),
    ("mariage4 dealer=4 scale=full", PAIR1_81 + "; claim 1", (1, "claim", 3), (81, 0), S_FULL),
    # Open totals (option): reaching 66 ends the deal by itself.
    ("mariage4 dealer=4 hidden=0", PAIR1_81, (1, "reached", 3), (81, 0),
     "000: Якщо якась пара набрала 66 очок, то розіграш припиняється"),
    # Nobody claims: the piles are counted when the cards run out.
    ("mariage4 dealer=4", PAIR2_35_ALL + "; next", (1, "counted", 1), (74, 46),
     "rules.md decision 1: seed rule sets count the piles: the side that reached 66 first wins"),
    ("mariage4 dealer=4", SIXTY_ALL + "; next", (2, "last_trick", 1), (60, 60), S_LAST),
    ("mariage4 dealer=4", SIXTY_ALL.replace("trick 4 J J 9 9", "trick 3 J J 9 9") + "; next",
     (1, "last_trick", 1), (64, 56), S_LAST),
    # Claims with a marriage, good and false.
    ("mariage4 dealer=4", "trump H; trick 1 A T K Q; claim 1 H", (1, "claim", 3), (68, 0),
     S_CLAIM),
    ("mariage4 dealer=4", "trump H; trick 3 A T K Q; claim 3 H", (1, "claim", 3), (68, 0),
     S_CLAIM),
    ("mariage4 dealer=4", "trump H; trick 2 A T K Q; trick 4 A T K Q; claim 4 S",
     (2, "claim", 3), (0, 76), S_CLAIM),
    ("mariage4 dealer=4", "trump H; trick 1 A T K Q; claim 1 S", (2, "false_claim", 1),
     (48, 0), S_FALSE),
    ("mariage4 dealer=4", "trick 1 A T K Q; claim 1", (2, "false_claim", 1), (28, 0), S_FALSE),
    ("mariage4 dealer=4", "trick 2 A T K Q; claim 4", (1, "false_claim", 1), (0, 28), S_FALSE),
]


@pytest.mark.parametrize("rules,events,expected,points,seed", DEAL_ENDS)
def test_deal_end(rules, events, expected, points, seed):
    m = play(rules, events)
    assert len(deals(m)) == 1, seed
    assert outcome(m) == expected, seed
    assert card_points(m) == points, seed
    score = [0, 0]
    score[expected[0] - 1] = expected[2]
    assert snap(m)["score"] == score, seed


def test_hidden_totals_do_not_end_the_deal_at_66():
    # 000: "По ходу гри дивитися набрані очки заборонено." (spec: hidden on for mariage4)
    m = play("mariage4 dealer=4", PAIR1_81)
    assert deals(m) == [] and deal(m)["points"] == [81, 0] and deal(m)["played"] == 3


def test_partners_add_up():
    # spec four players: A pair's card points are the sum of both partners' tricks and marriages.
    m = play("mariage4 dealer=4", "trump S; trick 1 A 9 9 9; trick 3 T J J J; trick 2 K K Q Q; "
             "trick 4 A T T T; marriage 4 H")
    assert deal(m)["points"] == [11 + 16, 14 + 41 + 20]
    assert deal(m)["tricks"] == [2, 2]
    assert deal(m)["marriages"] == [[4, "H", 20]]


# --- before the first trick: cut for nines, redeal, three nines ---------------------------


# (rules, events, score, dealer of the deal in progress, finished deals, seed)
BEFORE_PLAY = [
    ("mariage4 dealer=1", "cut9; cut9", [0, 0], 1, 0,
     "000: Якщо ця карта знову дев'ятка, то здавач дає зняти суперникам втретє."),
    ("mariage4 dealer=1", "cut9; cut9; cut9", [1, 0], 2, 1,
     "000: Якщо нижній картою знову виявляється дев'ятка, то здавати пара відкриває на своїй "
     "вісімці одне очко і потім сдатчиком стає наступний гравець по колу"),
    ("mariage4 dealer=2", "cut9; cut9; cut9", [0, 1], 3, 1,
     "000: ... то здавати пара відкриває на своїй вісімці одне очко"),
    ("mariage4 dealer=3", "cut9; cut9; cut9", [1, 0], 4, 1,
     "000: ... то здавати пара відкриває на своїй вісімці одне очко"),
    ("mariage4 dealer=4", "cut9; cut9; cut9; cut9; cut9; cut9", [1, 1], 2, 2,
     "000: ... і потім сдатчиком стає наступний гравець по колу"),
    ("mariage4 dealer=2", "redeal", [0, 0], 2, 1,
     "spec four players 4: A redeal scores nothing; the same dealer deals again."),
    ("mariage4 dealer=2", "cut9; redeal", [0, 0], 2, 1,
     "spec four players 4: A redeal scores nothing; the same dealer deals again."),
    ("mariage4 dealer=3", "nines 1 won", [3, 0], 3, 0,
     "000: якщо масть не збіглася, 3 очка відкриває гравець, який оголосив гру"),
    ("mariage4 dealer=3", "nines 3 won", [3, 0], 3, 0,
     "000: якщо масть не збіглася, 3 очка відкриває гравець, який оголосив гру"),
    ("mariage4 dealer=3", "nines 2 won", [0, 3], 3, 0,
     "000: якщо масть не збіглася, 3 очка відкриває гравець, який оголосив гру"),
    ("mariage4 dealer=3", "nines 2 lost", [3, 0], 3, 0,
     "000: Якщо у кого-небудь з них карта збігається по масті з залишеної дев'яткою ... "
     "ця пара відкриває на своїй вісімці 3 очка"),
    ("mariage4 dealer=3", "nines 1 lost", [0, 3], 3, 0,
     "000: ... ця пара відкриває на своїй вісімці 3 очка"),
    # Three nines does not end the deal: play goes on and is scored as usual.
    ("mariage4 dealer=4", "nines 2 lost; " + PAIR1_81 + "; claim 1", [6, 0], 1, 1,
     "000: Після розіграшу гри на 3 дев'ятки, або йде звичайний розіграш, або ... інші ігри."),
    ("mariage4 dealer=4", "nines 4 won; bid 1 six; contract made", [6, 3], 1, 1,
     "000: Після розіграшу гри на 3 дев'ятки ... партнер або суперники можуть оголосити інші ігри."),
]


@pytest.mark.parametrize("rules,events,score,dealer,finished,seed", BEFORE_PLAY)
def test_before_play(rules, events, score, dealer, finished, seed):
    m = play(rules, events)
    assert snap(m)["score"] == score, seed
    assert deal(m)["dealer"] == dealer, seed
    assert len(deals(m)) == finished, seed


def test_cut_nines_and_redeal_rows():
    m = play("mariage4 dealer=1", "cut9; cut9; cut9")
    assert last(m) == (1, "cut_nines", [(1, 1, 0)])
    assert deal(m)["cut9"] == 0
    m = play("mariage4 dealer=2", "redeal")
    assert last(m) == (None, "redeal", [])
    assert snap(m)["stats"]["won"] == [0, 0]


def test_three_nines_keeps_the_deal_open():
    m = play("mariage4 dealer=4", "nines 1 won")
    assert deals(m) == [] and deal(m)["played"] == 0
    m.enter_line("trick 1 A T K Q")
    assert deal(m)["points"] == [28, 0]


# --- contracts ------------------------------------------------------------------------------

S_FIVE = ("000: Якщо вони цього зробити не можуть, то грає відкриває на своїй вісімці 5 очок, "
          "а якщо суперники беруть хабар, то вони відкривають 5 очок собі.")
S_SIX = ("000: Якщо суперники не беруть хабар, то грає відкриває 6 очок, якщо беруть, то "
         "відкривають 6 очок собі.")
S_COAT = ("000: У тому випадку, якщо суперники не беруть хабар, то грає \"одягає\" на "
          "суперників \"шубу\"")
S_COSTUME = ("000: в разі виграшу на суперників надаватися \"костюм\": на вісімку кладеться "
             "шуба, а під вісімку - підкладка.")

# (bid, made?, winner, score, markers, seed)
CONTRACTS = [
    ("bid 1 five", "made", 1, [5, 0], [0, 0], S_FIVE),
    ("bid 1 five", "failed", 2, [0, 5], [0, 0], S_FIVE),
    ("bid 4 five", "made", 2, [0, 5], [0, 0], S_FIVE),
    ("bid 2 six", "made", 2, [0, 6], [0, 0], S_SIX),
    ("bid 2 six", "failed", 1, [6, 0], [0, 0], S_SIX),
    ("bid 3 six", "made", 1, [6, 0], [0, 0], S_SIX),
    ("bid 1 coat", "made", 1, [0, 0], [0, 1], S_COAT),
    ("bid 1 coat", "failed", 2, [0, 0], [1, 0],
     "spec four players 8: Coat ... failed -> the coat goes on the declaring pair"),
    ("bid 4 coat", "made", 2, [0, 0], [1, 0], S_COAT),
    ("bid 4 costume", "made", 2, [0, 0], [2, 0], S_COSTUME),
    ("bid 4 costume", "failed", 1, [0, 0], [0, 2],
     "spec four players 8: Costume ... made -> coat plus lining on the opponents; failed -> on the declaring pair"),
    ("bid 3 costume", "made", 1, [0, 0], [0, 2], S_COSTUME),
]


@pytest.mark.parametrize("bid,made,winner,score,markers,seed", CONTRACTS)
def test_contract(bid, made, winner, score, markers, seed):
    m = play("mariage4 dealer=4", bid)
    assert deals(m) == [], seed
    m.enter_line("contract " + made)
    s = snap(m)
    assert deals(m)[-1]["reason"] == "contract", seed
    assert deals(m)[-1]["winner"] == winner, seed
    assert s["score"] == score, seed
    assert s["markers"] == markers, seed
    # spec settled: dealing passes to the next player after every deal (contracts included).
    assert deal(m)["dealer"] == 1, seed


def test_markers_add_up_and_never_change_points():
    # spec settled: Coat and costume markers add up over the whole match and never change points.
    m = play("mariage4 dealer=4", "bid 1 coat; contract made; bid 3 costume; contract made; "
             "bid 2 coat; contract failed")
    s = snap(m)
    assert s["markers"] == [0, 1 + 2 + 1]
    assert s["score"] == [0, 0] and s["games"] == [0, 0] and not s["over"]


# (events, the standing bid [seat, kind] or the refusal of the last entry, seed)
S_PRECEDENCE = ("000: Якщо у першій пари гра молодше, припустимо, \"на п'ять\", а у другої пари "
                "старше - \"на шість\", то гру оголошує друга пара.")
S_EQUAL = "spec four players 8: for an equal declaration the pair earlier in play order keeps it"
BIDS = [
    ("mariage4 dealer=4", "bid 1 five; bid 2 six", [2, "six"], S_PRECEDENCE),
    ("mariage4 dealer=4", "bid 2 five; bid 3 costume", [3, "costume"], S_PRECEDENCE),
    ("mariage4 dealer=4", "bid 2 six; bid 1 five", "bid_low", S_PRECEDENCE),
    ("mariage4 dealer=4", "bid 1 coat; bid 4 six", "bid_low", S_PRECEDENCE),
    # Seat 4 deals: seat 1 plays first, so pair 1 is earlier.
    ("mariage4 dealer=4", "bid 2 six; bid 1 six", [1, "six"], S_EQUAL),
    ("mariage4 dealer=4", "bid 1 six; bid 2 six", "bid_low", S_EQUAL),
    ("mariage4 dealer=4", "bid 3 coat; bid 4 coat", "bid_low", S_EQUAL),
    # Seat 1 deals: seat 2 plays first, so pair 2 is earlier.
    ("mariage4 dealer=1", "bid 1 six; bid 2 six", [2, "six"], S_EQUAL),
    ("mariage4 dealer=1", "bid 4 five; bid 3 five", "bid_low", S_EQUAL),
]


@pytest.mark.parametrize("rules,events,expected,seed", BIDS)
def test_bid_precedence(rules, events, expected, seed):
    entries = [e.strip() for e in events.split(";")]
    m = play(rules, *entries[:-1])
    if isinstance(expected, str):
        assert refusal(m, entries[-1]) == expected, seed
    else:
        m.enter_line(entries[-1])
        assert deal(m)["bid"] == expected, seed


def test_the_higher_bid_is_the_one_scored():
    m = play("mariage4 dealer=4", "bid 1 five; bid 2 six; contract made")
    assert snap(m)["score"] == [0, 6]


# --- the eight, carry-over, match end, dealer ----------------------------------------------


# (rules, events, score on the eight, games, over, winner, seed)
EIGHT = [
    ("mariage4", "result 2 3; result 1 3; result 1 3; result 1 1", [7, 3], [0, 0], False, None,
     "spec four players 1: a pair wins a game when it reaches 8"),
    ("mariage4 games=2", "result 2 3; result 1 3; result 1 3; result 1 1; result 1 3", [2, 0],
     [1, 0], False, None,
     "000: Якщо була зіграна гра, а відкрити на вісімці залишилося меншу кількість очок, то "
     "інші окуляри переходять на наступну гру."),
    ("mariage4", "result 2 3; result 1 3; result 1 3; result 1 1; result 1 3", [2, 0], [1, 0],
     True, 1, "spec settled: mariage4: a match is one game (one eight) by default"),
    ("mariage4 games=2", "result 2 3; bid 1 six; contract made; result 1 3", [1, 0], [1, 0],
     False, None, "000: ... то інші окуляри переходять на наступну гру."),
    ("mariage4 games=2", "bid 2 six; contract made; result 2 3; result 2 3; result 2 3; "
     "bid 2 six; contract made", [0, 5], [0, 2], True, 2,
     "spec settled: mariage4: ... option: a number of games"),
    ("mariage4 games=3", "bid 4 five; contract made; bid 3 six; contract made; bid 2 six; "
     "contract made", [0, 3], [0, 1], False, None,
     "spec settled: When a pair completes its eight, its surplus carries into its next eight"),
]


@pytest.mark.parametrize("rules,events,score,games,over,winner,seed", EIGHT)
def test_the_eight(rules, events, score, games, over, winner, seed):
    check_snapshot(play(rules, events), seed, score=score, games=games, over=over,
                   winner=winner)


def test_the_match_can_end_on_three_nines():
    m = play("mariage4", "result 1 3; result 1 3; nines 1 won")
    s = snap(m)
    assert s["over"] and s["winner"] == 1 and s["games"] == [1, 0]


def test_dealer_rotates_round_the_table():
    # 000: "потім сдатчиком стає наступний гравець по колу"; the seat left of the dealer leads.
    m = play("mariage4 dealer=3")
    seen = []
    for _ in range(5):
        d = deal(m)
        seen.append((d["dealer"], d["leader"]))
        m.enter_line("result 1 1" if len(seen) % 2 else "result 2 1")
    assert seen == [(3, 4), (4, 1), (1, 2), (2, 3), (3, 4)]


def test_undo_and_redo_across_a_contract():
    m = play("mariage4 dealer=4 games=2", "nines 1 won; bid 2 six; contract failed")
    ended = snap(m)
    assert ended["score"] == [1, 0] and ended["games"] == [1, 0] and ended["deals"] == 1
    m.undo()
    back = snap(m)
    assert back["deals"] == 0 and back["score"] == [3, 0] and back["deal"]["bid"] == [2, "six"]
    m.redo()
    assert snap(m) == ended
