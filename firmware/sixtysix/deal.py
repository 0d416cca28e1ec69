"""One deal: card points, tricks, marriages, closing, claims, contracts.

Every entry comes in two steps: `check_*` raises Refused and changes nothing;
`apply_*` changes the state and must not fail once its check passed. The
match calls check, then apply, so a refused entry never leaves a half-applied
deal behind. Seats and sides are 0-based here.
"""

from .cards import KING, QUEEN, rank_of, suit_of, value
from .errors import Refused
from .rules import (
    CLOSE_CLASSIC,
    CLOSE_MARIAGE,
    END_LAST,
    FALSE_ONE,
    JUDGE_STRONG,
    JUDGE_SUM,
    SCALE_31,
    WINDOW_STOCK,
)

# Marriages add at most 40 + 3 * 20 points to the card points of one deal.
MARRIAGE_MAX = 100


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
    def __init__(self, rules, dealer):
        self.rules = rules
        n = rules.sides
        self.dealer = dealer
        self.leader = (dealer + 1) % rules.players
        self.trump = -1
        self.points = [0] * n
        self.pending = [0] * n  # marriages that count once the side has a trick
        self.tricks = [0] * n
        self.played = 0
        self.total = rules.tricks_in_deal()
        self.seen = [0] * 6  # cards played per rank
        self.known = 0  # bit rank*4+suit for every played card whose suit was entered
        self.married = 0  # bit per declared suit
        self.marriages = []  # (seat, suit, value) in order of declaration
        self.to_lead = -1  # suit of a declared marriage whose K or Q must lead next
        self.closer = -1
        self.close_pts = 0  # the closer's opponent at the moment of closing
        self.close_tricks = 0
        self.first66 = -1  # the side that reached 66 first (unclaimed when hidden)
        self.last_side = -1
        self.cut9 = 0
        self.nines = False
        self.bid_seat = -1
        self.bid_kind = -1
        self.started = False
        self.over = False
        self.reason = ""
        self.winner = -1
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

    def total_points(self, side):
        return self.points[side]

    # --- shared checks --------------------------------------------------

    def _live(self):
        if self.over:
            raise Refused("deal_over")

    def _seat(self, seat):
        if not 0 <= seat < self.rules.players:
            raise Refused("no_player")

    def _play(self, seat):
        """Checks for any entry that is part of normal play."""
        self._live()
        self._seat(seat)
        if self.bid_kind >= 0:
            raise Refused("bid_open")

    def _pairs_only(self):
        if not self.rules.pairs:
            raise Refused("not_in_game")
        self._live()

    def _before_play(self):
        if self.played:
            raise Refused("too_late")

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
            return self._scale3(side)
        other = 1 - side
        if r.pairs and r.scale4 == SCALE_31:
            # Seed 000: "Якщо у них немає жодного хабара ... 3 очки", else 1.
            return 3 if self.tricks[other] == 0 else 1
        return scale(self.points[other], self.tricks[other])

    def _scale3(self, side):
        pts = [self.points[s] for s in range(3) if s != side]
        trk = [self.tricks[s] for s in range(3) if s != side]
        judge = self.rules.judge3
        if judge == JUDGE_STRONG:
            if max(pts) >= 33:
                return 1
            return 2 if max(trk) > 0 else 3
        if judge == JUDGE_SUM:
            if pts[0] + pts[1] >= 33:
                return 1
            return 2 if max(trk) > 0 else 3
        # The weaker opponent decides.
        if min(pts) >= 33:
            return 1
        return 2 if min(trk) > 0 else 3

    def _win(self, side, reason):
        if self.closer >= 0:
            if side == self.side(self.closer):
                self._close_won()
            else:
                self._close_lost()
            return
        self._end(side, reason, self._scale_for(side))

    def _close_won(self):
        r = self.rules
        side = self.side(self.closer)
        other = 1 - side
        if r.closing == CLOSE_MARIAGE:
            gp = 3
        elif r.closing == CLOSE_CLASSIC:
            gp = scale(self.points[other], self.tricks[other])
        else:
            gp = scale(self.close_pts, self.close_tricks)
        self._end(side, "closed_won", gp)

    def _close_lost(self):
        other = 1 - self.side(self.closer)
        if self.rules.closing == CLOSE_MARIAGE:
            gp = 3
        else:
            gp = 3 if self.close_tricks == 0 else 2
        self._end(other, "closed_lost", gp)

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
            self._close_lost()
        elif r.end_rule == END_LAST:
            self._end(self.last_side, "last_trick", 1)
        else:
            best = max(self.points)
            leaders = [s for s in range(r.sides) if self.points[s] == best]
            if len(leaders) > 1:
                self._end(-1, "draw")
            else:
                self._end(leaders[0], "higher", 1)

    # --- trump ----------------------------------------------------------

    def check_trump(self, suit):
        self._live()
        if self.trump >= 0:
            raise Refused("trump_set")

    def apply_trump(self, suit):
        self.trump = suit
        self.started = True

    # --- tricks ---------------------------------------------------------

    def check_trick(self, seat, cards):
        self._play(seat)
        r = self.rules
        if len(cards) != r.players:
            raise Refused("trick_size")
        bits = 0
        for c in cards:
            rk = rank_of(c)
            if not r.has_rank(rk):
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
        if self.to_lead >= 0:
            lead = cards[0]
            if rank_of(lead) not in (KING, QUEEN) or suit_of(lead) not in (-1, self.to_lead):
                raise Refused("lead_marriage")
        if self.trump >= 0:
            for c in cards:
                if suit_of(c) < 0:
                    return
            won = (self.leader + trick_winner(cards, self.trump)) % r.players
            if won != seat:
                raise Refused("wrong_winner")

    def apply_trick(self, seat, cards):
        side = self.side(seat)
        pts = 0
        for c in cards:
            rk = rank_of(c)
            self.seen[rk] += 1
            if suit_of(c) >= 0:
                self.known |= 1 << (rk * 4 + suit_of(c))
            pts += value(c)
        self.points[side] += pts + self.pending[side]
        self.pending[side] = 0
        self.tricks[side] += 1
        self.played += 1
        self.leader = seat
        self.to_lead = -1
        self.last_side = side
        self.started = True
        if self.played == self.total and self.closer < 0:
            self.points[side] += self.rules.bonus
        self._scored(side)
        if not self.over and self.played == self.total:
            self._cards_out()

    # --- marriages ------------------------------------------------------

    def check_marriage(self, seat, suit):
        self._play(seat)
        if self.trump < 0:
            raise Refused("need_trump")
        if seat != self.leader:
            raise Refused("not_leader")
        if self.to_lead >= 0:
            raise Refused("lead_marriage")
        if self.married & (1 << suit):
            raise Refused("suit_declared")
        if self.rules.window == WINDOW_STOCK and self.stock_left() == 0:
            raise Refused("marriage_window")
        king = 1 << (KING * 4 + suit)
        queen = 1 << (QUEEN * 4 + suit)
        if self.seen[KING] >= 4 or self.seen[QUEEN] >= 4 or self.known & (king | queen):
            raise Refused("marriage_gone")

    def _add_marriage(self, seat, suit):
        side = self.side(seat)
        val = 40 if suit == self.trump else 20
        self.married |= 1 << suit
        self.marriages.append((seat, suit, val))
        self.to_lead = suit
        self.started = True
        if self.rules.needs_trick and self.tricks[side] == 0:
            self.pending[side] += val
            return -1
        self.points[side] += val
        return side

    def apply_marriage(self, seat, suit):
        side = self._add_marriage(seat, suit)
        if side >= 0:
            self._scored(side)

    # --- closing --------------------------------------------------------

    def check_close(self, seat):
        self._play(seat)
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

    def apply_close(self, seat):
        other = 1 - self.side(seat)
        self.closer = seat
        self.close_pts = self.points[other]
        self.close_tricks = self.tricks[other]
        # After a close only the cards in hand are played out.
        self.total = self.played + self.rules.hand
        self.started = True

    # --- claims ---------------------------------------------------------

    def check_claim(self, seat, suit):
        self._play(seat)
        if suit >= 0:
            self.check_marriage(seat, suit)

    def apply_claim(self, seat, suit):
        if suit >= 0:
            self._add_marriage(seat, suit)
        side = self.side(seat)
        self.started = True
        if self.points[side] >= 66:
            self._win(side, "claim")
            return
        r = self.rules
        if r.false_claim == FALSE_ONE:
            # Seed 000: "суперникам дається одне очко".
            for s in range(r.sides):
                if s != side:
                    self._award(s, 1)
            self._end(1 - side if r.sides == 2 else -1, "false_claim")
        else:
            self._end(1 - side, "false_claim", 3 if self.tricks[side] == 0 else 2)

    # --- quick entry ----------------------------------------------------

    def check_result(self, side, points):
        self._live()
        if not 0 <= side < self.rules.sides:
            raise Refused("no_player")
        if self.bid_kind >= 0:
            raise Refused("bid_open")
        if points not in self.rules.game_point_choices():
            raise Refused("bad_points")

    def apply_result(self, side, points):
        self._end(side, "quick", points)

    def check_draw(self):
        self._live()
        if not self.rules.draws_possible():
            raise Refused("no_draw")

    def apply_draw(self):
        self._end(-1, "draw")

    def check_points(self, values):
        self._live()
        r = self.rules
        if len(values) != r.sides:
            raise Refused("points_count")
        limit = r.pack_points() + r.bonus + MARRIAGE_MAX
        total = 0
        winners = 0
        for v in values:
            if v > limit:
                raise Refused("bad_total")
            if v >= 66:
                winners += 1
            if v > 0:
                total += v
        if total > limit:
            raise Refused("bad_total")
        if winners == 0:
            raise Refused("no_winner")
        if winners > 1:
            raise Refused("two_winners")

    def apply_points(self, values):
        for s in range(len(values)):
            v = values[s]
            self.points[s] = v if v > 0 else 0
            self.tricks[s] = 0 if v < 0 else 1
        for s in range(len(values)):
            if values[s] >= 66:
                self._end(s, "quick", self._scale_for(s))

    # --- four players: cut, redeal, three nines, contracts ----------------

    def check_cut9(self):
        self._pairs_only()
        if self.started:
            raise Refused("too_late")

    def apply_cut9(self):
        self.cut9 += 1
        if self.cut9 == 3:
            # Seed 000: the third nine in the cut gives the dealing pair 1.
            self._end(self.side(self.dealer), "cut_nines", 1)

    def check_redeal(self):
        self._pairs_only()
        self._before_play()
        if self.nines:
            raise Refused("too_late")

    def apply_redeal(self):
        self._end(-1, "redeal")

    def check_nines(self, seat, won):
        self._pairs_only()
        self._seat(seat)
        self._before_play()
        if self.nines:
            raise Refused("nines_done")
        if self.bid_kind >= 0:
            raise Refused("bid_open")

    def apply_nines(self, seat, won):
        side = self.side(seat)
        self.nines = True
        self.started = True
        self._award(side if won else 1 - side, 3)

    def _pair_rank(self, seat):
        """0 for the pair that plays first (left of the dealer), else 1."""
        return 0 if (seat - self.dealer) % 2 == 1 else 1

    def check_bid(self, seat, kind):
        self._pairs_only()
        self._seat(seat)
        self._before_play()
        if self.bid_kind >= 0:
            if kind < self.bid_kind:
                raise Refused("bid_low")
            if kind == self.bid_kind and not (
                self._pair_rank(seat) < self._pair_rank(self.bid_seat)
            ):
                raise Refused("bid_low")

    def apply_bid(self, seat, kind):
        self.bid_seat = seat
        self.bid_kind = kind
        self.started = True

    def check_contract(self, made):
        self._pairs_only()
        if self.bid_kind < 0:
            raise Refused("no_bid")

    def apply_contract(self, made):
        side = self.side(self.bid_seat)
        other = 1 - side
        kind = self.bid_kind
        if kind < 2:
            points = 5 + kind  # five or six
            self._end(side if made else other, "contract", points)
            return
        markers = kind - 1  # coat 1, costume 2 (coat plus lining)
        self._award(other if made else side, 0, markers)
        self._end(side if made else other, "contract")
