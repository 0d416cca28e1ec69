"""How deals follow each other, and entries the rule tables do not cover."""

import pytest
from rulehelp import outcome, play, refusal, snap

# Player 1 takes 32 in three tricks, then player 2 reaches 68 in the eighth.
DEAL = ("trick 1 A T; trick 1 K Q; trick 1 J J; trick 2 A T; trick 2 A T; trick 2 T K; "
        "trick 2 K Q; trick 2 Q J")


@pytest.mark.parametrize("entry,code", [
    ("trick 1 A T", "deal_over"),
    ("marriage 1 H", "deal_over"),
    ("close 1", "deal_over"),
    ("claim 1", "deal_over"),
])
def test_play_after_a_deal_ended_is_refused_until_the_next_deal_opens(entry, code):
    # spec refuse: "a trick after the deal is over" - the next deal must be opened first.
    m = play("mariage dealer=1", DEAL)
    assert snap(m)["deals"] == 1
    assert refusal(m, entry) == code


@pytest.mark.parametrize("opener", ["next", "trump H", "result 1 1", "points 70 20"])
def test_the_next_deal_opens_with_next_trump_or_a_quick_result(opener):
    m = play("mariage dealer=1", DEAL, opener)
    s = snap(m)
    assert s["deals"] in (1, 2)
    if s["deals"] == 1:
        m.enter_line("trick 1 A T")  # dealer 2, so player 1 leads the second deal
        assert snap(m)["deal"]["played"] == 1


def test_next_is_refused_when_the_deal_is_already_open():
    m = play("mariage dealer=1")
    assert refusal(m, "next") == "deal_started"
    m = play("mariage dealer=1", DEAL, "next")
    assert refusal(m, "next") == "deal_started"


def test_the_dealer_passes_on_and_the_player_after_the_dealer_leads():
    # spec settled: dealing passes to the next player after every deal; the player after leads.
    m = play("mariage dealer=1", DEAL, "next")
    d = snap(m)["deal"]
    assert (d["dealer"], d["leader"]) == (2, 1)
    m = play("mariage3 dealer=3", "result 1 1; next")
    d = snap(m)["deal"]
    assert (d["dealer"], d["leader"]) == (1, 2)


def test_quick_points_in_a_closed_deal_follow_the_closing_rule():
    # 000: "У закритій грі переможцю ... завжди нараховується 3 пункту"
    m = play("mariage dealer=1", "trick 2 A T; close 2; points 70 40")
    assert outcome(m) == (1, "closed_lost", 3)
    m = play("mariage dealer=1", "trick 2 A T; close 2; points 40 70")
    assert outcome(m) == (2, "closed_won", 3)
    # spec classic66 3: closing failure -> the opponent gets 2 (it had a trick before the close)
    m = play("classic66 dealer=1", "trick 2 A T; trick 1 K Q; close 1; points 40 70")
    assert outcome(m) == (2, "closed_lost", 2)
    # 004: "если до закрытия колоды ему не удалось взять ни 1-ой взятки, то он списывает З"
    m = play("classic66 dealer=1", "trick 1 A T; close 1; points 40 70")
    assert outcome(m) == (2, "closed_lost", 3)


def test_a_redeal_is_refused_while_a_contract_bid_stands():
    m = play("mariage4 dealer=1", "bid 2 five")
    assert refusal(m, "redeal") == "too_late"


def test_undo_of_the_opening_entry_closes_the_deal_again():
    m = play("mariage dealer=1", DEAL, "next")
    m.undo()
    assert refusal(m, "trick 1 A T") == "deal_over"
    m.redo()
    m.enter_line("trick 1 A T")
    assert snap(m)["deal"]["played"] == 1
