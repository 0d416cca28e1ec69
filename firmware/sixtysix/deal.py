"""One deal: card points, tricks, marriages, closing, claims, contracts.

Each entry is one method named after its verb, taking the event record
(events.py) and `do`. The method first checks everything and raises Refused;
only then, and only if `do` is true, it changes the deal. So a refused entry
never leaves a half-applied deal, and the match can ask "would this be
accepted?" with do=False. Seats and sides are 0-based here.
"""

from .cards import KING, QUEEN, VALUES, rank_of, suit_of
from .errors import Refused

# How a deal ends when the cards run out and nobody has (claimed) 66 (Rules.end_rule).
END_LAST = 0  # the side that took the last trick gets 1
END_HIGHER = 1  # the highest total gets 1; a tie for highest is a draw

# Closing rules: how a closed deal is scored (Rules.closing).
CLOSE_MARIAGE = 0  # seeds 000/001: the winner always gets 3
CLOSE_CLASSIC = 1  # seed 004: success on the ordinary scale; failure 2 (3)
CLOSE_SCHNAPSEN = 2  # as classic, but success is judged on the state at the close

# Why a deal ended: Deal.reason is one of these words; the history stores its index.
REASONS = ("reached", "counted", "claim", "false_claim", "closed_won", "closed_lost",
           "last_trick", "higher", "draw", "quick", "cut_nines", "redeal", "contract",
           "match_over")


def scale(points, tricks):
    """Game points for beating a side with these card points and tricks.

    Seeds 000/001/004: no trick -> 3 (a declared marriage alone is not a
    trick); under 33 -> 2; 33 or more -> 1.
    """
    if tricks == 0:
        return 3
    return 2 if points < 33 else 1


def trick_winner(cards, trump):
    """Index of the winning card; cards are in play order and all have suits."""
    best = 0
    for i in range(1, len(cards)):
        c = cards[i]
        b = cards[best]
        if suit_of(c) == suit_of(b):
            if rank_of(c) < rank_of(b):
                best = i
        elif suit_of(c) == trump:
            best = i
    return best


class Deal:
    # Scalars that start the same in every deal live here as class defaults;
    # an instance gets its own only once one changes. Most deals never close,
    # bid or cut a nine, so their attribute dicts stay small on the board.
    trump = -1
    played = 0
    known = 0  # bit rank*4+suit for every played card whose suit was entered
    to_lead = -1  # suit of a declared marriage whose K or Q must lead next
    closer = -1
    # The card points and tricks of the closer's opponent when the stock was closed.
    opp_points_at_close = 0
    opp_tricks_at_close = 0
    first66 = -1  # the side that reached 66 first (unclaimed when hidden)
    last_side = -1
    cut9 = 0
    nines_side = -1  # the side that scored the three-nines side game
    bid_seat = -1
    bid_kind = -1
    started = False  # anything entered besides nines in the cut
    opened = True  # False for a deal that follows another: see on_next
    over = False
    reason = ""
    winner = -1

    def __init__(self, rules, dealer):
        self.rules = rules
        n = rules.sides
        self.dealer = dealer
        self.leader = (dealer + 1) % rules.players
        self.points = [0] * n
        self.pending = [0] * n  # marriages that count once the side has a trick
        self.tricks = [0] * n
        self.total = rules.tricks
        self.seen = bytearray(6)  # cards played per rank
        self.marriages = []  # (seat, suit, value) in order of declaration
        self.awards = []  # (side, game points, markers)

    # --- derived facts -------------------------------------------------

    def side(self, seat):
        return seat % 2 if self.rules.pairs else seat

    def stock_left(self):
        r = self.rules
        if r.stock == 0 or self.closer >= 0:
            return 0
        left = r.stock - r.players * self.played
        return left if left > 0 else 0

    # --- shared checks --------------------------------------------------

    def _need(self, seat=0, play=True, quick=False):
        """The checks entries share: the deal runs, the seat exists; for play
        (tricks, marriages, closing, claims) the deal was opened, and for play
        and quick results no contract bid is waiting for its result."""
        if self.over:
            raise Refused("deal_over")
        if not 0 <= seat < self.rules.players:
            raise Refused("no_player")
        if play and not self.opened:
            # The deal before just ended: an entry now is more likely a late
            # trick of that deal than the first of this one.
            raise Refused("deal_over")
        if (play or quick) and self.bid_kind >= 0:
            raise Refused("bid_open")

    # --- ends and awards ------------------------------------------------

    def _award(self, side, points, markers=0):
        self.awards.append((side, points, markers))

    def _end(self, winner, reason, points=0):
        if points:
            self._award(winner, points)
        self.over = True
        self.winner = winner
        self.reason = reason

    def _scale_for(self, side):
        """Game points for `side` winning the deal normally, judged on the others."""
        r = self.rules
        if r.players == 3:
            a = (side + 1) % 3
            b = (side + 2) % 3
            pts = (self.points[a], self.points[b])
            trk = (self.tricks[a], self.tricks[b])
            # judge3: 0 the stronger opponent decides, 1 the weaker, 2 their sum.
            if r.judge3 == 2:
                pts = (pts[0] + pts[1],)
            pick = min if r.judge3 == 1 else max
            return 1 if pick(pts) >= 33 else (2 if pick(trk) > 0 else 3)
        other = 1 - side
        if r.pairs and r.scale4 == 0:
            # Seed 000: "Якщо у них немає жодного хабара ... 3 очки", else 1.
            return 3 if self.tricks[other] == 0 else 1
        return scale(self.points[other], self.tricks[other])

    def _win(self, side, reason):
        if self.closer >= 0:
            self._closed(side == self.side(self.closer))
        else:
            self._end(side, reason, self._scale_for(side))

    def _closed(self, won):
        """A closed deal ends: the closer reached 66 (won) or did not."""
        r = self.rules
        side = self.side(self.closer)
        other = 1 - side
        if r.closing == CLOSE_MARIAGE:
            gp = 3  # seeds 000/001: 3 whatever the loser has
        elif not won:
            gp = 3 if self.opp_tricks_at_close == 0 else 2
        elif r.closing == CLOSE_CLASSIC:
            gp = scale(self.points[other], self.tricks[other])
        else:
            gp = scale(self.opp_points_at_close, self.opp_tricks_at_close)
        self._end(side if won else other, "closed_won" if won else "closed_lost", gp)

    def _scored(self, side):
        """After `side` gained points: reaching 66 ends the deal unless hidden."""
        if self.points[side] >= 66:
            if self.first66 < 0:
                self.first66 = side
            if not self.rules.hidden:
                self._win(side, "reached")

    def _cards_out(self):
        r = self.rules
        if r.count_at_end and self.first66 >= 0:
            self._win(self.first66, "counted")
        elif self.closer >= 0:
            self._closed(won=False)
        elif r.end_rule == END_LAST:
            self._end(self.last_side, "last_trick", 1)
        else:
            best = max(self.points)
            if self.points.count(best) > 1:
                self._end(-1, "draw")
            else:
                self._end(self.points.index(best), "higher", 1)

    # --- entries: check, then apply when `do` -----------------------------

    def on_trump(self, rec, do):
        self._need(play=False)
        if self.trump >= 0:
            raise Refused("trump_set")
        if do:
            self.trump = rec[1]
            self.started = True
            self.opened = True

    def on_next(self, rec, do):
        """Start this deal without entering anything else (the deal before is over)."""
        self._need(play=False)
        if self.opened:
            raise Refused("deal_started")
        if do:
            self.opened = True

    def on_trick(self, rec, do):
        seat = rec[1]
        cards = rec[2:]
        self._need(seat)
        r = self.rules
        if len(cards) != r.players:
            raise Refused("trick_size")
        bits = 0
        suited = 0
        for c in cards:
            rk = rank_of(c)
            if rk >= r.ranks:
                raise Refused("bad_rank")
            same = 0
            for d in cards:
                if rank_of(d) == rk:
                    same += 1
            if self.seen[rk] + same > 4:
                raise Refused("too_many")
            s = suit_of(c)
            if s >= 0:
                bit = 1 << (rk * 4 + s)
                if (self.known | bits) & bit:
                    raise Refused("card_seen")
                bits |= bit
                suited += 1
        if self.to_lead >= 0:
            lead = cards[0]
            if rank_of(lead) not in (KING, QUEEN) or suit_of(lead) not in (-1, self.to_lead):
                raise Refused("lead_marriage")
        if self.trump >= 0 and suited == len(cards):
            won = (self.leader + trick_winner(cards, self.trump)) % r.players
            if won != seat:
                raise Refused("wrong_winner")
        if not do:
            return
        side = self.side(seat)
        pts = 0
        for c in cards:
            self.seen[rank_of(c)] += 1
            pts += VALUES[rank_of(c)]
        self.known |= bits
        self.points[side] += pts + self.pending[side]
        self.pending[side] = 0
        self.tricks[side] += 1
        self.played += 1
        self.leader = seat
        self.to_lead = -1
        self.last_side = side
        self.started = True
        if self.played == self.total and self.closer < 0:
            self.points[side] += r.bonus
        self._scored(side)
        if not self.over and self.played == self.total:
            self._cards_out()

    def _check_marriage(self, seat, suit):
        if self.trump < 0:
            raise Refused("need_trump")
        if seat != self.leader:
            raise Refused("not_leader")
        if self.to_lead >= 0:
            raise Refused("lead_marriage")
        for m in self.marriages:
            if m[1] == suit:
                raise Refused("suit_declared")
        if self.rules.stock_window and self.stock_left() == 0:
            raise Refused("marriage_window")
        king = 1 << (KING * 4 + suit)
        queen = 1 << (QUEEN * 4 + suit)
        if self.seen[KING] >= 4 or self.seen[QUEEN] >= 4 or self.known & (king | queen):
            raise Refused("marriage_gone")

    def _add_marriage(self, seat, suit):
        """Count a marriage; returns the side it counted for, or -1 if it waits for a trick."""
        side = self.side(seat)
        val = 40 if suit == self.trump else 20
        self.marriages.append((seat, suit, val))
        self.to_lead = suit
        self.started = True
        if self.rules.needs_trick and self.tricks[side] == 0:
            self.pending[side] += val
            return -1
        self.points[side] += val
        return side

    def on_marriage(self, rec, do):
        seat = rec[1]
        self._need(seat)
        self._check_marriage(seat, rec[2])
        if do:
            side = self._add_marriage(seat, rec[2])
            if side >= 0:
                self._scored(side)

    def on_close(self, rec, do):
        seat = rec[1]
        self._need(seat)
        if self.rules.stock == 0:
            raise Refused("no_stock_game")
        if self.closer >= 0:
            raise Refused("closed_twice")
        if self.stock_left() == 0:
            raise Refused("no_stock")
        if seat != self.leader:
            raise Refused("not_leader")
        if self.to_lead >= 0:
            raise Refused("lead_marriage")
        if not do:
            return
        other = 1 - self.side(seat)
        self.closer = seat
        self.opp_points_at_close = self.points[other]
        self.opp_tricks_at_close = self.tricks[other]
        # After a close only the cards in hand are played out.
        self.total = self.played + self.rules.hand
        self.started = True

    def on_claim(self, rec, do):
        """`claim P` says "we have 66"; `claim P S` first declares the marriage S (seed 000)."""
        seat = rec[1]
        suit = rec[2] if len(rec) > 2 else -1
        self._need(seat)
        if suit >= 0:
            self._check_marriage(seat, suit)
        if not do:
            return
        if suit >= 0:
            self._add_marriage(seat, suit)
        side = self.side(seat)
        self.started = True
        if self.points[side] >= 66:
            self._win(side, "claim")
            return
        r = self.rules
        if not r.false_claim_23:
            # Seed 000: "суперникам дається одне очко".
            for s in range(r.sides):
                if s != side:
                    self._award(s, 1)
            self._end(1 - side if r.sides == 2 else -1, "false_claim")
        else:
            self._end(1 - side, "false_claim", 3 if self.tricks[side] == 0 else 2)

    def on_quick(self, rec, do):
        """result, draw, points: the quick entries (quick.py)."""
        self._need(play=False, quick=True)
        from .quick import QUICK  # only matches entered by results pay for this code

        QUICK[rec[0] - 5](self, rec, do)  # verbs from result (5) on

    def on_four(self, rec, do):
        """cut9, redeal, nines, bid, contract: four players only (deal4.py)."""
        if not self.rules.pairs:
            raise Refused("not_in_game")
        self._need(play=False)
        from .deal4 import ENTRIES4  # only four-player matches pay for this code

        ENTRIES4[rec[0] - 8](self, rec, do)  # verbs from cut9 (8) on
        if do:
            self.opened = True


# The entry for each verb number of events.VERBS, in the same order.
ENTRIES = (Deal.on_trump, Deal.on_trick, Deal.on_marriage, Deal.on_close, Deal.on_claim,
           Deal.on_quick, Deal.on_quick, Deal.on_quick) + (Deal.on_four,) * 5 + (Deal.on_next,)
