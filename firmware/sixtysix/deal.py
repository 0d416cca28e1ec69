"""One deal: card points, tricks, marriages, closing, claims, contracts.

Each entry is one method named after its verb, taking the event record
(events.py) and `do`. The method first checks everything and raises Refused;
only then, and only if `do` is true, it changes the deal. So a refused entry
never leaves a half-applied deal, and the match can ask "would this be
accepted?" with do=False. A trick's suit guesses (guess.py) run in that check only: the
apply that follows it, and the fold of records checked before, skip them. Seats and sides
are 0-based here.
"""

from .cards import KING, QUEEN, VALUES, suit_of
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
            if c < b:  # same suit bits: the lower card has the lower rank index, which beats
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
    first66 = -1  # the side that reached 66 first (unclaimed when hidden)
    cut9 = 0
    nines_side = -1  # the side that scored the three-nines side game
    bid_kind = -1
    started = False  # anything entered besides nines in the cut
    opened = True  # False for a deal that follows another: see on_trump
    over = False
    reason = ""
    winner = -1
    # No default for these: each is set before it is read. The class dict holds 29
    # names (with __module__ and __qualname__), its hash table's size; one more would
    # grow it by 8 slots (64 bytes).
    # (An annotation without a value compiles to nothing.)
    bid_seat: int  # who bid; read only while bid_kind >= 0 (deal4.bid)
    # The card points and tricks of the closer's opponent when the stock was closed.
    opp_points_at_close: int
    opp_tricks_at_close: int

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
        self.awards = []  # (side, game points, markers): what the match adds up

    # --- derived facts -------------------------------------------------

    def side(self, seat):
        return seat % 2 if self.rules.pairs else seat

    def stock_left(self):
        if self.closer >= 0:
            return 0
        r = self.rules
        return max(0, r.stock - r.players * self.played)  # 0 too in a game without a stock

    # --- shared checks --------------------------------------------------

    def _need(self, seat=0, play=True, quick=False):
        """The checks entries share: the deal runs, the seat exists; for play
        (tricks, marriages, closing, claims) the deal was opened, and for play
        and quick results no contract bid is waiting for its result."""
        if self.over or self.played == self.total:
            # Over; or, with hidden totals, the last trick is in and the deal waits in its
            # claim window for a claim by that trick's side or for `next` (on_claim, on_trump).
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

    def _end(self, winner, reason, points=0):
        if points:
            self.awards.append((winner, points, 0))
        self.over = True
        self.winner = winner
        self.reason = reason

    def _win(self, side, reason):
        """`side` wins the deal: by the closing rule if the stock was closed, else on
        the ordinary scale, judged on the others' card points and tricks."""
        r = self.rules
        gp = 0
        if self.closer >= 0:
            won = side == self.side(self.closer)
            reason = "closed_won" if won else "closed_lost"
            if r.closing == CLOSE_MARIAGE:
                gp = 3  # seeds 000/001: 3 whatever the loser has
            elif not won:
                gp = 3 if self.opp_tricks_at_close == 0 else 2
            elif r.closing == CLOSE_SCHNAPSEN:
                gp = scale(self.opp_points_at_close, self.opp_tricks_at_close)
            # A classic close that succeeds is judged now, as a deal won without a close.
        if not gp:
            if r.players == 3:
                # The two opponents' card points and tricks.
                pts = self.points[:]
                trk = self.tricks[:]
                del pts[side], trk[side]
                # judge3: 0 the stronger opponent decides, 1 the weaker, 2 their sum.
                if r.judge3 == 2:
                    pts = [sum(pts)]
                pick = min if r.judge3 == 1 else max
                gp = 1 if pick(pts) >= 33 else (2 if pick(trk) > 0 else 3)
            else:
                other = 1 - side
                if r.pairs and r.scale4 == 0:
                    # Seed 000: "Якщо у них немає жодного хабара ... 3 очки", else 1.
                    gp = 3 if self.tricks[other] == 0 else 1
                else:
                    gp = scale(self.points[other], self.tricks[other])
        self._end(side, reason, gp)

    def _scored(self, side):
        """After `side` gained points: reaching 66 ends the deal unless hidden."""
        if self.points[side] >= 66:
            if self.first66 < 0:
                self.first66 = side
            if not self.rules.hidden:
                self._win(side, "reached")

    # --- entries: check, then apply when `do` -----------------------------

    def on_trump(self, rec, do):
        """`trump S`, and `next`. After a deal ended, either opens the next one (`next`
        without entering anything else). In the claim window (hidden totals: the last trick
        is in and nobody has claimed), `next` says nobody claims: the deal ends by the
        last-trick rules. on_trick ends a deal with open totals here at its last trick."""
        trump = rec[0] == 0  # else verb 13, `next`
        if trump or self.over or self.played < self.total:
            self._need(play=False)
            if trump:
                if self.trump >= 0:
                    raise Refused("trump_set")
            elif self.opened:
                raise Refused("deal_started")
            if do:
                if trump:
                    self.trump = rec[1]
                    self.started = True
                self.opened = True
            return
        if not do:
            return
        # The cards ran out and nobody has (claimed) 66.
        r = self.rules
        if r.count_at_end and self.first66 >= 0:
            self._win(self.first66, "counted")
        elif self.closer >= 0:
            self._win(1 - self.side(self.closer), "")  # the closer failed: closed_lost
        elif r.end_rule == END_LAST:
            self._end(self.side(self.leader), "last_trick", 1)  # the leader took the last trick
        else:
            points = self.points
            best = max(points)
            if points.count(best) > 1:
                self._end(-1, "draw")
            else:
                self._end(points.index(best), "higher", 1)

    def on_trick(self, rec, do):
        seat = rec[1]
        cards = rec[2:]
        self._need(seat)
        r = self.rules
        if len(cards) != r.players:
            raise Refused("trick_size")
        # A card's rank is `c & 7`: cards.rank_of written out, as importing it would
        # make this module's 18th global, growing its dict from 17 slots to 23.
        seen = self.seen
        known = self.known  # with this trick's cards added
        suited = True  # every card has its suit
        for c in cards:
            rk = c & 7
            if rk >= r.ranks:
                raise Refused("bad_rank")
            same = 0
            for d in cards:
                if d & 7 == rk:
                    same += 1
            if seen[rk] + same > 4:
                raise Refused("too_many")
            s = suit_of(c)
            if s >= 0:
                bit = 1 << (rk * 4 + s)
                if known & bit:
                    raise Refused("card_seen")
                known |= bit
            else:
                suited = False
        if self.to_lead >= 0:
            lead = cards[0]
            if lead & 7 not in (KING, QUEEN) or suit_of(lead) not in (-1, self.to_lead):
                raise Refused("lead_marriage")
        if self.trump >= 0:
            if suited:
                if (self.leader + trick_winner(cards, self.trump)) % r.players != seat:
                    raise Refused("wrong_winner")
            elif known and not do:
                # Some suits known, not all of this trick's: can any of the missing ones let
                # the stated winner take it? (guess.py, loaded for such a trick only.) With
                # no suit known anywhere every winner is possible.
                from .guess import check

                check(self, rec)
        if not do:
            return
        side = self.side(seat)
        pts = self.pending[side]  # marriages that waited for this side's first trick
        self.pending[side] = 0
        for c in cards:
            rk = c & 7
            seen[rk] += 1
            pts += VALUES[rk]
        self.known = known
        self.tricks[side] += 1
        self.played += 1
        last = self.played == self.total
        if last and self.closer < 0:
            pts += r.bonus
        self.points[side] += pts
        self.leader = seat
        self.to_lead = -1
        self.started = True
        self._scored(side)
        if last and not (self.over or r.hidden):
            # Open totals: the cards ran out and nobody has 66, the deal ends now. Hidden
            # totals: it waits for a claim by this trick's side, or `next` (on_trump).
            self.on_trump(b"\x0d", True)

    def on_marriage(self, rec, do):
        """`marriage P S`, and the marriage that `claim P S` declares (on_claim)."""
        seat = rec[1]
        suit = rec[2]
        self._need(seat)
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
        seen = self.seen
        if seen[KING] >= 4 or seen[QUEEN] >= 4 or self.known & (
                1 << (KING * 4 + suit) | 1 << (QUEEN * 4 + suit)):
            raise Refused("marriage_gone")
        if not do:
            return
        side = self.side(seat)
        val = 40 if suit == self.trump else 20
        self.marriages.append((seat, suit, val))
        self.to_lead = suit
        self.started = True
        if self.rules.needs_trick and self.tricks[side] == 0:
            self.pending[side] += val  # counts with the side's first trick
        else:
            self.points[side] += val
            if rec[0] == 2:  # verb `marriage`: a claim (4) judges the points itself
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
        if len(rec) > 2:
            self.on_marriage(rec, do)  # checks the seat and the marriage, declares it when `do`
        elif self.over or self.played < self.total:
            self._need(seat)
        else:
            # The claim window: the last trick is in, and only its side may claim, judged
            # on the totals now (a closer with 66 has made it: _win).
            if not 0 <= seat < self.rules.players:
                raise Refused("no_player")
            if self.side(seat) != self.side(self.leader):
                raise Refused("claim_last")
        if not do:
            return
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
                    self.awards.append((s, 1, 0))
            self._end(1 - side if r.sides == 2 else -1, "false_claim")
        else:
            self._end(1 - side, "false_claim", 3 if self.tricks[side] == 0 else 2)

    def on_imported(self, rec, do):
        """The entries whose code is imported on first use: result, draw, points
        (quick.py), and cut9, redeal, nines, bid, contract for four players only
        (deal4.py)."""
        verb = rec[0]
        if verb < 8:  # result (5), draw, points
            self._need(play=False, quick=True)
            from .quick import QUICK  # only matches entered by results pay for this code

            QUICK[verb - 5](self, rec, do)
            return
        if not self.rules.pairs:
            raise Refused("not_in_game")
        self._need(play=False)
        from .deal4 import ENTRIES4  # only four-player matches pay for this code

        ENTRIES4[verb - 8](self, rec, do)  # verbs from cut9 (8) on
        if do:
            self.opened = True


# The entry for each verb number of events.VERBS, in the same order.
ENTRIES = (Deal.on_trump, Deal.on_trick, Deal.on_marriage, Deal.on_close, Deal.on_claim) + (
    Deal.on_imported,) * 8 + (Deal.on_trump,)
