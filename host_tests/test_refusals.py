"""Every refusal: the entry is refused with its code and the match is left exactly as it was.

The first table follows the list at the end of the rules spec ("What the
device must refuse"); the later ones cover the team's decisions and the quick
entries. `refusal()` compares the whole snapshot before and after the entry.
Unless a row says otherwise player 1 deals, so player 2 (seat 1 in pairs: seat
2) leads.
"""

import pytest
from rulehelp import play, refusal, snap
from sixtysix.errors import Refused
from sixtysix.match import Match

S_RANKS = "spec refuse: more copies of a rank than the pack holds (4 of each; 9s absent in schnapsen)"
S_SIZE = "spec refuse: more cards than a trick has"
S_DECLARED = "spec refuse: a marriage for a suit already declared"
S_GONE = ("spec refuse: a marriage that the cards entered so far make impossible (all four kings, "
          "or all four queens, already played; with suits entered, that suit's K or Q already played)")
S_WINDOW = "spec refuse: a marriage outside the window the rule set allows (stock gone or closed in mariage)"
S_LEADER = "spec refuse: or by a player who is not about to lead where the entry knows it"
S_CLOSE = "spec refuse: closing with no stock, closing twice, closing in a game with no stock"
S_NO_PLAYER = "spec refuse: any entry for a player or pair that does not exist in this rule set"
S_OVER = "spec refuse: any entry after the match is over (except undo and new match)"
S_GUESS = ("rules.md decision 7: with some suits known, no suits for the rest let the winner "
           "take it")

# The six tricks that use up the stock in mariage, all won by player 2.
STOCK_GONE = ("trump H; trick 2 9 9; trick 2 9 9; trick 2 J J; trick 2 J J; trick 2 K Q; "
              "trick 2 K T")
OVER = "result 1 3; result 1 3; result 1 1"

# (rules, events before, refused entry, code, seed)
SPEC_LIST = [
    # Impossible tricks.
    ("mariage dealer=1", "trick 2 A A; trick 1 A A", "trick 2 A 9", "too_many", S_RANKS),
    ("mariage dealer=1", "trick 2 K K; trick 1 K Q", "trick 1 K K", "too_many", S_RANKS),
    ("classic66-3 dealer=1", "trick 2 9 9 9", "trick 2 9 9 A", "too_many", S_RANKS),
    ("mariage4 dealer=4", "trick 1 Q Q Q Q", "trick 1 A T K Q", "too_many", S_RANKS),
    ("mariage4 dealer=4", "trick 1 9 9 9 J", "trick 1 9 9 A T", "too_many", S_RANKS),
    ("schnapsen dealer=1", "", "trick 2 A 9", "bad_rank", S_RANKS),
    ("schnapsen dealer=1", "", "trick 2 9S AS", "bad_rank", S_RANKS),
    ("mariage dealer=1", "trick 2 AH TH", "trick 2 AH 9S", "card_seen",
     "spec refuse: a trick whose cards are impossible (a card entered twice)"),
    ("mariage dealer=1", "", "trick 2 A T K", "trick_size", S_SIZE),
    ("mariage dealer=1", "", "trick 2 A", "trick_size", S_SIZE),
    ("mariage3 dealer=1", "", "trick 2 A T", "trick_size", S_SIZE),
    ("mariage3 dealer=1", "", "trick 2 A T K Q", "trick_size", S_SIZE),
    ("mariage4 dealer=4", "", "trick 1 A T K", "trick_size", S_SIZE),
    ("schnapsen dealer=1", "", "trick 2 A T K", "trick_size", S_SIZE),
    # Marriages.
    ("mariage dealer=1", "trump H; marriage 2 S; trick 2 K 9", "marriage 2 S", "suit_declared",
     S_DECLARED),
    ("classic66 dealer=1", "trump H; marriage 2 H; trick 2 Q 9", "claim 2 H", "suit_declared",
     S_DECLARED),
    ("mariage3 dealer=1", "trump H; marriage 2 D; trick 2 K 9 9", "marriage 2 D",
     "suit_declared", S_DECLARED),
    ("mariage4 dealer=4", "trump H; marriage 1 C; trick 1 Q 9 9 9", "marriage 1 C",
     "suit_declared", S_DECLARED),
    ("mariage dealer=1", "trump H; trick 2 K K; trick 2 K K", "marriage 2 S", "marriage_gone",
     S_GONE),
    ("classic66 dealer=1", "trump H; trick 2 Q Q; trick 2 Q Q", "marriage 2 H", "marriage_gone",
     S_GONE),
    ("mariage dealer=1", "trump H; trick 2 KS 9S", "marriage 2 S", "marriage_gone", S_GONE),
    ("mariage dealer=1", "trump H; trick 2 AS QS", "marriage 2 S", "marriage_gone", S_GONE),
    ("mariage4 dealer=4", "trump H; trick 1 AD QD 9D JD", "claim 1 D", "marriage_gone", S_GONE),
    ("mariage dealer=1", STOCK_GONE, "marriage 2 S", "marriage_window", S_WINDOW),
    ("mariage dealer=1", STOCK_GONE, "claim 2 S", "marriage_window", S_WINDOW),
    ("mariage dealer=1", "trump H; trick 2 9 9; close 2", "marriage 2 S", "marriage_window",
     S_WINDOW),
    ("mariage dealer=1", "trump H", "marriage 1 S", "not_leader", S_LEADER),
    ("classic66 dealer=1", "trump H; trick 1 A T", "marriage 2 S", "not_leader", S_LEADER),
    ("schnapsen dealer=2", "trump H", "marriage 2 H", "not_leader", S_LEADER),
    ("mariage3 dealer=1", "trump H", "marriage 3 S", "not_leader", S_LEADER),
    ("mariage4 dealer=4", "trump H", "marriage 3 S", "not_leader", S_LEADER),
    ("mariage4 dealer=4", "trump H", "claim 2 S", "not_leader", S_LEADER),
    # Closing.
    ("mariage dealer=1", STOCK_GONE, "close 2", "no_stock", S_CLOSE),
    ("classic66 dealer=1", STOCK_GONE, "close 2", "no_stock", S_CLOSE),
    ("schnapsen dealer=1", "trick 2 J J; trick 2 J J; trick 2 Q Q; trick 2 Q Q; trick 2 K K",
     "close 2", "no_stock", S_CLOSE),
    ("mariage dealer=1", "close 2", "close 2", "closed_twice", S_CLOSE),
    ("schnapsen dealer=1", "close 2; trick 1 A T", "close 1", "closed_twice", S_CLOSE),
    ("mariage3 dealer=1", "", "close 2", "no_stock_game", S_CLOSE),
    ("classic66-3 dealer=1", "", "close 2", "no_stock_game", S_CLOSE),
    ("mariage4 dealer=4", "", "close 1", "no_stock_game", S_CLOSE),
    ("mariage dealer=1", "", "close 1", "not_leader",
     "spec settled: Closing happens between tricks, by the player about to lead"),
    ("mariage dealer=1", "trump H; marriage 2 S", "close 2", "lead_marriage",
     "spec settled: ... and not between a marriage declaration and the lead of its K or Q"),
    # Players and pairs that do not exist.
    ("mariage dealer=1", "", "trick 3 A T", "no_player", S_NO_PLAYER),
    ("mariage dealer=1", "trump H", "marriage 3 S", "no_player", S_NO_PLAYER),
    ("mariage dealer=1", "", "close 3", "no_player", S_NO_PLAYER),
    ("mariage dealer=1", "", "claim 3", "no_player", S_NO_PLAYER),
    ("schnapsen dealer=1", "", "result 3 1", "no_player", S_NO_PLAYER),
    ("mariage3 dealer=1", "", "trick 4 A T K", "no_player", S_NO_PLAYER),
    ("mariage3 dealer=1", "", "result 4 2", "no_player", S_NO_PLAYER),
    ("mariage4 dealer=4", "", "trick 5 A T K Q", "no_player", S_NO_PLAYER),
    ("mariage4 dealer=4", "", "result 3 1", "no_player", S_NO_PLAYER),
    ("mariage4 dealer=4", "", "nines 5 won", "no_player", S_NO_PLAYER),
    ("mariage4 dealer=4", "", "bid 5 six", "no_player", S_NO_PLAYER),
    ("mariage4 dealer=4", "", "claim 5", "no_player", S_NO_PLAYER),
    ("mariage dealer=1", "", "points 70 20 n", "points_count", S_NO_PLAYER),
    ("mariage3 dealer=1", "", "points 70 20", "points_count", S_NO_PLAYER),
    ("mariage4 dealer=4", "", "points 70 20 10 5", "points_count", S_NO_PLAYER),
    # After the match is over.
    ("mariage", OVER, "result 2 1", "match_over", S_OVER),
    ("mariage", OVER, "trick 1 A T", "match_over", S_OVER),
    ("mariage", OVER, "trump H", "match_over", S_OVER),
    ("classic66-3", "result 1 3", "points 70 n n", "match_over", S_OVER),
    ("mariage4", "result 1 3; result 1 3; result 1 3", "cut9", "match_over", S_OVER),
    ("mariage4", "bid 1 six; contract made; nines 1 won", "bid 2 five", "match_over", S_OVER),
]

# Decisions of the team where the spec is silent (numbered as in docs/rules.md).
DECISIONS = [
    # Decision 6: a marriage needs the trump suit, then its K or Q must lead.
    ("mariage dealer=1", "", "marriage 2 S", "need_trump",
     "rules.md decision 6: a marriage needs the trump suit entered first"),
    ("mariage4 dealer=4", "", "claim 1 S", "need_trump",
     "rules.md decision 6: a marriage needs the trump suit entered first"),
    ("mariage dealer=1", "trump H; marriage 2 S", "trick 2 A 9", "lead_marriage",
     "rules.md decision 6: after a marriage the next trick must be led with that K or Q"),
    ("mariage dealer=1", "trump H; marriage 2 S", "trick 2 KD 9D", "lead_marriage",
     "rules.md decision 6: after a marriage the next trick must be led with that K or Q"),
    ("mariage3 dealer=1", "trump H; marriage 2 S", "trick 1 J 9 9", "lead_marriage",
     "rules.md decision 6: after a marriage the next trick must be led with that K or Q"),
    ("mariage dealer=1", "trump H; marriage 2 S", "marriage 2 D", "lead_marriage",
     "rules.md decision 6: after a marriage the next trick must be led with that K or Q"),
    # Decision 7: with the trump and every suit of a trick entered, the winner is checked.
    ("mariage dealer=1", "trump S", "trick 1 AH KH", "wrong_winner",
     "rules.md decision 7: the winner is checked against the cards"),
    ("mariage dealer=1", "trump S", "trick 2 KH AH", "wrong_winner",
     "rules.md decision 7: the winner is checked against the cards"),
    ("mariage dealer=1", "trump S", "trick 2 AH 9S", "wrong_winner",
     "rules.md decision 7: the winner is checked against the cards"),
    ("mariage dealer=1", "trump S", "trick 1 AH 9D", "wrong_winner",
     "rules.md decision 7: the winner is checked against the cards"),
    ("mariage3 dealer=1", "trump S", "trick 2 AH KH 9S", "wrong_winner",
     "rules.md decision 7: the winner is checked against the cards"),
    ("mariage4 dealer=4", "trump C", "trick 1 9D AD JC TC", "wrong_winner",
     "rules.md decision 7: the winner is checked against the cards"),
    ("mariage4 dealer=4", "trump C; trick 4 9D AD JC TC", "trick 2 AH KH QH JH", "wrong_winner",
     "rules.md decision 7: the winner is checked against the cards"),
    # ... and with some suits known (the trick's or played cards'), against every way the
    # missing suits could be (sixtysix/guess.py).
    ("mariage dealer=1", "trump S", "trick 1 AS T", "wrong_winner", S_GUESS),
    ("mariage dealer=1", "trump D; trick 2 9D A", "trick 1 AS 9", "wrong_winner", S_GUESS),
    ("mariage3 dealer=1", "trump S", "trick 1 AS K 9", "wrong_winner", S_GUESS),
    ("mariage4 dealer=4", "trump C", "trick 2 AC T K Q", "wrong_winner", S_GUESS),
    # Decision 9: mariage4: before the first trick only; the bid blocks play until settled.
    ("mariage4 dealer=4", "trick 1 A T K Q", "cut9", "too_late",
     "rules.md decision 9: cut9/redeal/nines/bid only before the first trick"),
    ("mariage4 dealer=4", "trick 1 A T K Q", "redeal", "too_late",
     "rules.md decision 9: cut9/redeal/nines/bid only before the first trick"),
    ("mariage4 dealer=4", "trick 1 A T K Q", "nines 1 won", "too_late",
     "rules.md decision 9: cut9/redeal/nines/bid only before the first trick"),
    ("mariage4 dealer=4", "trick 1 A T K Q", "bid 2 six", "too_late",
     "rules.md decision 9: cut9/redeal/nines/bid only before the first trick"),
    ("mariage4 dealer=4", "nines 2 won", "redeal", "too_late",
     "rules.md decision 9: redeal refused after three nines"),
    ("mariage4 dealer=4", "nines 2 won", "nines 1 won", "nines_done",
     "spec settled: Three nines is played at most once per deal"),
    ("mariage4 dealer=4", "bid 1 five", "trick 1 A T K Q", "bid_open",
     "rules.md decision 9: tricks/marriages refused while a bid stands until contract made|failed"),
    ("mariage4 dealer=4", "trump H; bid 1 five", "marriage 1 S", "bid_open",
     "rules.md decision 9: tricks/marriages refused while a bid stands until contract made|failed"),
    ("mariage4 dealer=4", "bid 1 five", "nines 3 won", "bid_open",
     "rules.md decision 9: tricks/marriages refused while a bid stands"),
    ("mariage4 dealer=4", "bid 1 five", "claim 1", "bid_open",
     "rules.md decision 9: tricks/marriages refused while a bid stands"),
    ("mariage4 dealer=4", "bid 1 five", "result 1 3", "bid_open",
     "rules.md decision 9: tricks/marriages refused while a bid stands"),
    ("mariage4 dealer=4", "", "contract made", "no_bid",
     "spec four players 8: contracts are declared, then made or failed"),
    ("mariage4 dealer=4", "bid 1 six", "bid 4 five", "bid_low",
     "000: то гру оголошує друга пара (the higher one plays)"),
    ("mariage dealer=1", "", "cut9", "not_in_game", "spec: the cut for nines is a mariage4 rule"),
    ("classic66-3 dealer=1", "", "redeal", "not_in_game", "spec: redeal is a mariage4 rule"),
    ("schnapsen dealer=1", "", "nines 1 won", "not_in_game", "spec: three nines is a mariage4 rule"),
    ("sechsundsechzig dealer=1", "", "bid 1 six", "not_in_game", "spec: contracts are mariage4 rules"),
    ("mariage dealer=1", "", "contract made", "not_in_game", "spec: contracts are mariage4 rules"),
    # Decision 10: quick points: one value per side, exactly one side 66 or more.
    ("mariage dealer=1", "", "points 66 70", "two_winners",
     "rules.md decision 10: exactly one side must have 66+"),
    ("mariage dealer=1", "", "points 65 55", "no_winner",
     "rules.md decision 10: exactly one side must have 66+"),
    ("mariage3 dealer=1", "", "points 30 30 30", "no_winner",
     "rules.md decision 10: exactly one side must have 66+"),
    ("mariage dealer=1", "", "points 300 n", "bad_total",
     "spec: card points cannot exceed the pack, the last trick and the marriages"),
    # Quick results and draws.
    ("mariage dealer=1", "", "result 1 4", "bad_points", "spec: a deal is worth 1, 2 or 3"),
    ("mariage4 dealer=4", "", "result 1 2", "bad_points",
     "000: four players score 3 or 1 (opponents no trick -> 3; otherwise -> 1)"),
    ("mariage dealer=1", "", "draw", "no_draw",
     "spec: only classic66, classic66-3 and sechsundsechzig have drawn deals"),
    ("schnapsen dealer=1", "", "draw", "no_draw",
     "spec: only classic66, classic66-3 and sechsundsechzig have drawn deals"),
    ("mariage dealer=1", "trump H", "trump S", "trump_set", "spec: the trump suit is entered once"),
    # Malformed entries and setups.
    ("mariage dealer=1", "", "trick 2 A X", "syntax", "spec: entries are checked"),
    ("mariage dealer=1", "", "trick 0 A T", "syntax", "spec: players are counted from 1"),
    ("mariage dealer=1", "", "fold 1", "syntax", "spec: entries are checked"),
    ("mariage dealer=1", "", "new whist", "bad_rules", "spec: the rule sets the device offers"),
    ("mariage dealer=1", "", "new mariage colour=1", "bad_option", "spec: options are checked"),
    ("mariage dealer=1", "", "new mariage dealer=3", "bad_option", S_NO_PLAYER),
    ("mariage dealer=1", "", "new mariage3 judge=best", "bad_option", "spec: options are checked"),
    ("mariage dealer=1", "", "new mariage judge=weak", "bad_option",
     "spec: judging the weaker opponent is a three-player option"),
    ("mariage dealer=1", "", "new classic66 games=2", "bad_option",
     "spec: the number of eights is a mariage4 option"),
    # Two seats, one name: every screen would show them alike (the name editor refuses it
    # too, with the same code).
    ("mariage dealer=1", "", "new mariage names=Ann,Ann", "same_name", "decision: names"),
    ("mariage dealer=1", "", "new mariage4 names=Ann,Bob,Cat,Bob", "same_name",
     "decision: names"),
    ("mariage dealer=1", "", "new mariage3 names=2,1,2", "same_name", "decision: names"),
]


@pytest.mark.parametrize("rules,before,entry,code,seed", SPEC_LIST + DECISIONS)
def test_refused_and_unchanged(rules, before, entry, code, seed):
    m = play(rules, before)
    assert refusal(m, entry) == code, seed


# Positive controls: the same kinds of entry are accepted when they are right.
ACCEPTED = [
    ("mariage dealer=1", "trick 2 A A; trick 1 A A", "trick 2 T 9"),
    ("mariage dealer=1", "trump S", "trick 2 AH KH"),
    ("mariage dealer=1", "trump S", "trick 1 AH 9S"),
    ("mariage3 dealer=1", "trump S", "trick 1 AH KH 9S"),
    ("mariage4 dealer=4", "trump C", "trick 4 9D AD JC TC"),
    ("mariage4 dealer=4", "trump C; trick 4 9D AD JC TC", "trick 4 AH KH QH JH"),
    # Some suits known: some suits for the rest let the winner take it (a trump 9), or no
    # suit is known anywhere and any winner is possible.
    ("mariage dealer=1", "trump D", "trick 1 AS 9"),
    ("mariage dealer=1", "trump D; trick 2 9D A", "trick 1 AS J"),
    ("mariage dealer=1", "trump S", "trick 1 A 9"),
    ("mariage dealer=1", "trump H; marriage 2 S", "trick 2 QS 9S"),
    ("mariage dealer=1", "trump H; trick 2 K K; trick 2 K Q", "marriage 2 S"),
    ("mariage dealer=1", "trump H; trick 2 KS 9S", "marriage 2 H"),
    ("mariage dealer=1", "trump H; trick 2 9 9; trick 2 9 9; trick 2 J J; trick 2 J J; "
     "trick 2 K Q", "close 2"),
    ("mariage4 dealer=4", "bid 1 five; bid 2 six", "contract failed"),
    ("mariage4 dealer=4", "cut9; cut9", "redeal"),
    ("mariage", "result 1 3; result 1 3", "result 2 3"),
    ("mariage", "", "new mariage3 names=2,1,Ann"),
]


@pytest.mark.parametrize("rules,before,entry", ACCEPTED)
def test_accepted_controls(rules, before, entry):
    m = play(rules, before)
    before_snap = snap(m)
    m.enter_line(entry)
    assert snap(m) != before_snap


def test_undo_and_new_match_are_allowed_after_the_match_is_over():
    m = play("mariage", OVER)
    assert snap(m)["over"]
    m.undo()
    assert not snap(m)["over"]
    m.redo()
    assert snap(m)["over"]
    m.enter_line("new classic66")
    s = snap(m)
    assert not s["over"] and s["rules"] == "classic66" and s["score"] == [0, 0]


def _code(fn):
    try:
        fn()
    except Refused as e:
        return e.code
    return None


def test_nothing_to_undo_or_redo_and_no_match():
    m = Match()
    assert _code(m.undo) == "nothing_to_undo"
    assert refusal(m, "trump H") == "no_match"
    m = play("mariage dealer=1")
    before = snap(m)
    assert _code(m.undo) == "nothing_to_undo"
    assert _code(m.redo) == "nothing_to_redo"
    assert snap(m) == before
    m.enter_line("trump H")
    m.undo()
    assert _code(m.undo) == "nothing_to_undo"
    m.redo()
    assert _code(m.redo) == "nothing_to_redo"
    assert snap(m)["deal"]["trump"] == "H"


def test_a_new_entry_clears_redo():
    m = play("mariage dealer=1", "trump H; trick 2 A T")
    m.undo()
    m.enter_line("trick 1 9 9")
    assert _code(m.redo) == "nothing_to_redo"
    assert snap(m)["deal"]["points"] == [0, 0]
