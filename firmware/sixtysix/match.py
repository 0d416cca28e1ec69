"""The match: its totals, the current deal, and the event log with undo/redo.

The state is the fold of the events. To keep RAM and boot time small only
the current deal's events are kept, on top of `base` (the match as it stood
when the deal began); the deal before is kept too, so its last entry (often
the trick that ended it) can still be undone.
"""

from .deal import Deal
from .errors import Refused
from .events import format_event, parse
from .rules import make_rules

SUMMARY_VERSION = 1


class MatchState:
    """Match totals plus the deal in progress."""

    def __init__(self, rules, names, dealer):
        self.rules = rules
        self.names = names
        n = rules.sides
        self.score = [0] * n  # game points; with pairs, the count on the current eight
        self.games = [0] * n  # eights completed (four players)
        self.markers = [0] * n  # coat/costume markers (four players)
        self.won = [0] * n  # deals won
        self.won2 = [0] * n  # deals won with 2 game points
        self.won3 = [0] * n  # deals won with 3 or more
        self.history = []  # one row per finished deal: see _finish_deal
        self.over = False
        self.winner = -1
        self.deal = Deal(rules, dealer)
        self.applied = 0  # awards of the current deal already added to the totals
        self.rolled = False  # set when a deal ended and the next one began

    def copy(self):
        """A copy taken between deals (the current deal must be untouched)."""
        c = MatchState(self.rules, self.names, self.deal.dealer)
        c.score = self.score[:]
        c.games = self.games[:]
        c.markers = self.markers[:]
        c.won = self.won[:]
        c.won2 = self.won2[:]
        c.won3 = self.won3[:]
        c.history = self.history[:]
        c.over = self.over
        c.winner = self.winner
        return c

    # --- entries --------------------------------------------------------

    def check(self, ev):
        if self.over:
            raise Refused("match_over")
        d = self.deal
        verb = ev[0]
        if verb == "trick":
            d.check_trick(ev[1], ev[2])
        elif verb == "marriage":
            d.check_marriage(ev[1], ev[2])
        elif verb == "trump":
            d.check_trump(ev[1])
        elif verb == "close":
            d.check_close(ev[1])
        elif verb == "claim":
            d.check_claim(ev[1], ev[2])
        elif verb == "result":
            d.check_result(ev[1], ev[2])
        elif verb == "draw":
            d.check_draw()
        elif verb == "points":
            d.check_points(ev[1])
        elif verb == "cut9":
            d.check_cut9()
        elif verb == "redeal":
            d.check_redeal()
        elif verb == "nines":
            d.check_nines(ev[1], ev[2])
        elif verb == "bid":
            d.check_bid(ev[1], ev[2])
        elif verb == "contract":
            d.check_contract(ev[1])
        else:
            raise Refused("syntax")

    def apply(self, ev):
        d = self.deal
        verb = ev[0]
        if verb == "trick":
            d.apply_trick(ev[1], ev[2])
        elif verb == "marriage":
            d.apply_marriage(ev[1], ev[2])
        elif verb == "trump":
            d.apply_trump(ev[1])
        elif verb == "close":
            d.apply_close(ev[1])
        elif verb == "claim":
            d.apply_claim(ev[1], ev[2])
        elif verb == "result":
            d.apply_result(ev[1], ev[2])
        elif verb == "draw":
            d.apply_draw()
        elif verb == "points":
            d.apply_points(ev[1])
        elif verb == "cut9":
            d.apply_cut9()
        elif verb == "redeal":
            d.apply_redeal()
        elif verb == "nines":
            d.apply_nines(ev[1], ev[2])
        elif verb == "bid":
            d.apply_bid(ev[1], ev[2])
        elif verb == "contract":
            d.apply_contract(ev[1])
        while self.applied < len(d.awards):
            side, points, markers = d.awards[self.applied]
            self.applied += 1
            self._add(side, points, markers)
        self._match_end()
        if d.over or self.over:
            self._finish_deal()

    def _add(self, side, points, markers):
        r = self.rules
        self.markers[side] += markers
        self.score[side] += points
        if r.pairs:
            # Seed 000: points beyond the eight carry into the next one; the
            # other pair's eight starts again.
            while self.score[side] >= r.target:
                self.score[side] -= r.target
                self.score[1 - side] = 0
                self.games[side] += 1
            if self.games[side] >= r.games:
                self.over = True
                self.winner = side
            return

    def _match_end(self):
        """After all awards of an entry: a side alone at or past the target wins.

        Checked once per entry, not per award: a false claim with three
        players gives both others 1, and two players reaching the target
        together is no winner yet.
        """
        r = self.rules
        if r.pairs or self.over:
            return
        best = max(self.score)
        if best >= r.target and self.score.count(best) == 1:
            self.over = True
            self.winner = self.score.index(best)

    def _finish_deal(self):
        d = self.deal
        gp = 0
        for side, points, _markers in d.awards:
            if side == d.winner:
                gp += points
        if d.winner >= 0 and d.reason != "cut_nines":
            self.won[d.winner] += 1
            if gp == 2:
                self.won2[d.winner] += 1
            elif gp >= 3:
                self.won3[d.winner] += 1
        # Row: dealer, why it ended, winner (-1: none), awards, card points.
        self.history.append(
            (d.dealer, d.reason or "match_over", d.winner, tuple(d.awards), tuple(d.points))
        )
        if self.over:
            d.over = True
            return
        n = self.rules.players
        dealer = d.dealer if d.reason == "redeal" else (d.dealer + 1) % n
        self.deal = Deal(self.rules, dealer)
        self.applied = 0
        self.rolled = True

    def score_shown(self, side):
        """The score as players read it: remaining to the target when counting down."""
        if self.rules.down:
            return self.rules.target - self.score[side]
        return self.score[side]

    # --- summary for storage ---------------------------------------------

    def to_dict(self):
        """Plain data for a summary file (taken between deals)."""
        return {
            "v": SUMMARY_VERSION,
            "dealer": self.deal.dealer,
            "score": self.score,
            "games": self.games,
            "markers": self.markers,
            "won": [self.won, self.won2, self.won3],
            "history": [[h[0], h[1], h[2], [list(a) for a in h[3]], list(h[4])]
                        for h in self.history],
            "over": self.over,
            "winner": self.winner,
        }

    @staticmethod
    def from_dict(rules, names, data):
        if data.get("v") != SUMMARY_VERSION:
            raise Refused("bad_summary")
        s = MatchState(rules, names, data["dealer"])
        s.score = list(data["score"])
        s.games = list(data["games"])
        s.markers = list(data["markers"])
        s.won = list(data["won"][0])
        s.won2 = list(data["won"][1])
        s.won3 = list(data["won"][2])
        s.history = [(h[0], h[1], h[2], tuple([tuple(a) for a in h[3]]), tuple(h[4]))
                     for h in data["history"]]
        s.over = data["over"]
        s.winner = data["winner"]
        return s


def setup_match(ev):
    """A `new` event -> (rules, names, first dealer). Refuses bad options."""
    rules_opts = {}
    names = None
    dealer = 0
    for key, val in ev[2]:
        if key == "dealer":
            if not val.isdigit():
                raise Refused("bad_option")
            dealer = int(val) - 1
        elif key == "names":
            names = tuple(val.split(","))
        else:
            rules_opts[key] = val
    rules = make_rules(ev[1], rules_opts)
    if not 0 <= dealer < rules.players:
        raise Refused("bad_option")
    if names is None:
        names = tuple([str(i + 1) for i in range(rules.players)])
    if len(names) != rules.players or "" in names:
        raise Refused("bad_option")
    return rules, names, dealer


class Match:
    """The event log: enter, undo, redo. The state is always the fold of the log."""

    def __init__(self):
        self.setup = None  # the `new` event
        self.state = None
        self.base = None
        self.events = []  # the current deal's events
        self.prev = None  # (base, events) of the deal before
        self.redo_stack = []

    def enter_line(self, line):
        return self.enter(parse(line))

    def enter(self, ev, _redoing=False):
        """Validate then append one event. Raises Refused and changes nothing."""
        if ev[0] == "new":
            rules, names, dealer = setup_match(ev)
            self.setup = ev
            self.state = MatchState(rules, names, dealer)
            self.base = self.state.copy()
            self.events = []
            self.prev = None
            self.redo_stack = []
            return
        state = self.state
        if state is None:
            raise Refused("no_match")
        state.check(ev)
        state.apply(ev)
        self.events.append(ev)
        if not _redoing:
            self.redo_stack = []
        if state.rolled:
            state.rolled = False
            self.prev = (self.base, self.events)
            self.base = state.copy()
            self.events = []

    def undo(self):
        """Drop the last event; returns it. Refused when nothing can be undone."""
        if self.state is None:
            raise Refused("nothing_to_undo")
        if not self.events:
            if self.prev is None:
                raise Refused("nothing_to_undo")
            self.base, self.events = self.prev
            self.prev = None
        ev = self.events.pop()
        self.redo_stack.append(ev)
        self._refold()
        return ev

    def redo(self):
        if not self.redo_stack:
            raise Refused("nothing_to_redo")
        ev = self.redo_stack.pop()
        self.enter(ev, True)
        return ev

    def _refold(self):
        base = self.base
        assert base is not None
        state = base.copy()
        for ev in self.events:
            state.apply(ev)
        self.state = state

    # --- persistence hooks -------------------------------------------------

    def deal_lines(self):
        """The current deal's events as text, as the journal holds them."""
        return [format_event(ev) for ev in self.events]

    def summary(self):
        """What a summary file holds: the setup line and the match at this deal's start."""
        assert self.setup is not None and self.base is not None
        return {"setup": format_event(self.setup), "base": self.base.to_dict()}

    def restore(self, summary, lines):
        """Rebuild from a summary and the current deal's event lines."""
        setup = parse(summary["setup"])
        rules, names, _dealer = setup_match(setup)
        self.setup = setup
        self.base = MatchState.from_dict(rules, names, summary["base"])
        self.events = []
        self.prev = None
        self.redo_stack = []
        self.state = self.base.copy()
        for line in lines:
            self.enter_line(line)
