"""Property tests: random legal matches keep the invariants of the rules.

The games come from tools/dealgen.py (a real shuffled pack played by random
but legal players), so the core must accept every entry they make.
"""

from dealgen import Player
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sixtysix.cards import PACK, VALUES, rank_of
from sixtysix.errors import Refused
from sixtysix.events import parse
from sixtysix.match import Match
from sixtysix.rules import RULE_SETS, Rules
from sixtysix.snapshot import snapshot

SETUPS = [
    "new mariage",
    "new mariage target=8",
    "new mariage hidden=1",
    "new mariage needtrick=1",
    "new classic66",
    "new classic66 hidden=1",
    "new mariage3",
    "new mariage3 judge=weak",
    "new classic66-3 judge=sum",
    "new mariage4",
    "new mariage4 hidden=0 scale=full games=2",
    "new schnapsen",
    "new sechsundsechzig",
]

setups = st.sampled_from(SETUPS)
seeds = st.integers(min_value=0, max_value=2**31 - 1)
COMMON = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def allowed_game_points(rules):
    if rules.pairs:
        return {0, 1, 2, 3, 5, 6}  # contracts give 5 or 6, coat/costume markers give 0
    return {1, 2, 3}


class Checked(Player):
    """A random player that checks the invariants after every entry."""

    def __init__(self, setup, seed, **kw):
        self.trick_points = 0
        self.deal_obj = None
        Player.__init__(self, setup, seed, **kw)

    def enter(self, line):
        state = self.match.state
        if state is not None and state.deal is not self.deal_obj:
            self.deal_obj = state.deal
            self.trick_points = 0
        verb = line.split()[0]
        Player.enter(self, line)
        if verb == "trick":
            self.trick_points += sum(VALUES[rank_of(c)] for c in parse(line)[2:])
        self.check(verb)

    def check(self, verb):
        state = self.match.state
        if state is None:
            return
        rules = state.rules
        # The deal this entry went to (it may have just ended).
        deal = self.deal_obj
        if deal is not None and verb not in ("points", "new"):
            counted = 0
            for _seat, _suit, val in deal.marriages:
                counted += val
            counted -= sum(deal.pending)
            bonus = rules.bonus if deal.played == deal.total and deal.closer < 0 else 0
            # Card points of a deal: the tricks' cards, the last-trick bonus, the marriages.
            assert sum(deal.points) == self.trick_points + bonus + counted
            assert self.trick_points <= PACK
            if deal.played == rules.tricks:
                assert self.trick_points == PACK
            assert max(deal.seen) <= 4
            if rules.ranks == 5:
                assert deal.seen[5] == 0
        allowed = allowed_game_points(rules)
        rows = [state.row(i) for i in range(state.deals())]
        for row in rows:
            for _side, gp, markers in row[3]:
                assert gp in allowed
                assert markers in (0, 1, 2)
        if not rules.pairs:
            for s in range(rules.sides):
                assert state.score[s] == sum(
                    a[1] for row in rows for a in row[3] if a[0] == s
                )
        else:
            assert all(0 <= x < rules.target for x in state.score) or state.over


@COMMON
@given(setups, seeds)
def test_random_matches_keep_the_invariants(setup, seed):
    p = Checked(setup, seed)
    m = p.play_match()
    assert m.state.over
    r = m.state.rules
    if r.pairs:
        assert max(m.state.games) >= r.games
    else:
        assert max(m.state.score) >= r.target


@COMMON
@given(setups, seeds)
def test_replaying_the_log_gives_the_same_state(setup, seed):
    p = Player(setup, seed)
    p.play_match()
    fresh = Match()
    for line in p.lines:
        fresh.enter_line(line)
    assert snapshot(fresh) == snapshot(p.match)


@COMMON
@given(setups, seeds, st.data())
def test_undo_then_redo_returns_the_identical_state(setup, seed, data):
    p = Player(setup, seed)
    p.play_match()
    m = p.match
    n = len(p.lines)
    cut = data.draw(st.integers(min_value=2, max_value=n))
    # Rebuild the match up to a random point, then undo k and redo k.
    m = Match()
    for line in p.lines[:cut]:
        m.enter_line(line)
    before = snapshot(m)
    undoable = before["undo"]
    k = data.draw(st.integers(min_value=0, max_value=undoable))
    undone = [m.undo() for _ in range(k)]
    # After k undos the state equals a fresh replay without the last k entries.
    fresh = Match()
    for line in p.lines[: cut - k]:
        fresh.enter_line(line)
    assert snapshot(fresh)["score"] == snapshot(m)["score"]
    assert snapshot(fresh)["deal"] == snapshot(m)["deal"]
    assert snapshot(fresh)["history"] == snapshot(m)["history"]
    for _ in undone:
        m.redo()
    assert snapshot(m) == before


VERBS = ["trick", "marriage", "close", "claim", "result", "points", "trump", "draw",
         "cut9", "redeal", "nines", "bid", "contract", "new", "bogus"]
WORDS = ["1", "2", "3", "4", "5", "0", "A", "T", "K", "Q", "J", "9", "AS", "KH", "QH",
         "H", "S", "x", "n", "66", "70", "won", "lost", "six", "coat", "made", "failed"]


@COMMON
@given(setups, seeds, st.lists(st.tuples(st.sampled_from(VERBS),
                                         st.lists(st.sampled_from(WORDS), max_size=5)),
                               min_size=1, max_size=40))
def test_a_refused_entry_changes_nothing(setup, seed, entries):
    p = Player(setup, seed)
    for _ in range(2):
        if not p.play_deal():
            break
    m = p.match
    for verb, words in entries:
        if verb == "new":
            continue
        line = " ".join([verb] + words)
        before = snapshot(m)
        try:
            m.enter_line(line)
        except Refused as e:
            assert isinstance(e.code, str) and e.code
            assert snapshot(m) == before


def test_every_rule_set_is_known_and_options_are_checked():
    for rid in RULE_SETS:
        assert Rules(rid).id == rid
    for bad in ({"target": "x"}, {"nope": "1"}, {"hidden": "2"}, {"judge": "weak"}):
        try:
            Rules("mariage", bad)
        except Refused as e:
            assert e.code == "bad_option"
        else:
            raise AssertionError("option %r was accepted" % (bad,))
