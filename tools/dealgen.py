"""Random legal matches: a real shuffled pack played out by random players.

Used by the property tests, the heap test and the benchmarks. Every line it
produces is a legal entry for the match it feeds, so the core must accept
each one; a refusal here is a bug in the core. It has its own small random
generator so CPython and MicroPython produce the same games from one seed.
"""

from sixtysix.cards import KING, NINE, QUEEN, card, rank_of, suit_of
from sixtysix.deal import trick_winner
from sixtysix.errors import Refused
from sixtysix.events import VERBS, card_text
from sixtysix.match import Match

SUIT_LETTERS = "SHDC"


class Rng:
    """xorshift32: tiny, and identical on every runtime."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def below(self, n):
        return self.next() % n

    def chance(self, percent):
        return self.below(100) < percent

    def pick(self, seq):
        return seq[self.below(len(seq))]

    def shuffle(self, seq):
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]


class Player:
    """Feeds one match with random legal play; `lines` records what was entered."""

    def __init__(self, setup_line, seed, quick=10, suits=True, forget_claim=10):
        self.rng = Rng(seed)
        self.match = Match()
        self.lines = []
        self.quick = quick  # percent of deals entered as a result only
        self.suits = suits  # enter suits with the ranks (enables the winner check)
        self.forget_claim = forget_claim  # percent of missed claims (hidden totals)
        self.enter(setup_line)

    def enter(self, line):
        self.match.enter_line(line)
        self.lines.append(line)

    # --- one deal -------------------------------------------------------

    def play_deal(self):
        """Play the current deal to its end; returns False once the match is over."""
        m = self.match
        state = m.state
        if state.over:
            return False
        deals = state.deals()
        rules = state.rules
        rng = self.rng
        if rng.chance(self.quick):
            self._quick(rules)
        else:
            self._cards(rules)
        assert m.state.deals() > deals or m.state.over
        return not m.state.over

    def _quick(self, rules):
        rng = self.rng
        sides = rules.sides
        if rng.chance(50):
            choices = rules.choices()
            self.enter("result %d %d" % (rng.below(sides) + 1, rng.pick(choices)))
            return
        winner = rng.below(sides)
        words = []
        win = 66 + rng.below(40)
        left = 120 - win + 20
        for s in range(sides):
            if s == winner:
                words.append(str(win))
            elif rng.chance(15):
                words.append("n")
            else:
                v = rng.below(min(66, left + 1))
                left -= v
                words.append(str(v))
        self.enter("points " + " ".join(words))

    def _deal_cards(self, rules, dealer):
        pack = [card(r, s) for r in range(rules.ranks) for s in range(4)]
        self.rng.shuffle(pack)
        n = rules.players
        hands = [[] for _ in range(n)]
        for i in range(rules.hand * n):
            hands[(dealer + 1 + i) % n].append(pack[i])
        stock = pack[rules.hand * n:]
        if stock:
            trump = suit_of(stock[0])
            stock = stock[1:] + stock[:1]  # the turned card lies under the stock
        else:
            trump = suit_of(hands[dealer][-1]) if n == 3 else suit_of(
                hands[(dealer + 1) % n][-1])
        return hands, stock, trump

    def _cards(self, rules):
        m = self.match
        rng = self.rng
        deal = m.state.deal
        dealer = deal.dealer
        n = rules.players
        start = m.state.deals()
        if rules.pairs and self._four_extras(rules, dealer):
            return
        hands, stock, trump = self._deal_cards(rules, dealer)
        self.enter("trump " + SUIT_LETTERS[trump])
        if rules.pairs and self._nines_and_contracts(hands):
            return
        while m.state.deals() == start and not m.state.over:
            deal = m.state.deal
            leader = deal.leader
            hand = hands[leader]
            strict = rules.stock == 0 or deal.closer >= 0 or deal.stock_left() == 0
            lead = None
            # Marriage: K and Q of a suit not yet declared, when allowed.
            for s in range(4):
                k = card(KING, s)
                q = card(QUEEN, s)
                if k in hand and q in hand and rng.chance(60):
                    try:
                        m.state.check(bytes((VERBS.index("marriage"), leader, s)))
                    except Refused:
                        continue
                    self.enter("marriage %d %s" % (leader + 1, SUIT_LETTERS[s]))
                    lead = rng.pick((k, q))
                    break
            if m.state.deals() != start or m.state.over:
                return
            if self._maybe_claim(rules):
                return
            if lead is None and rules.stock and deal.closer < 0 and deal.stock_left() > 0:
                if rng.chance(6):
                    self.enter("close %d" % (leader + 1))
                    strict = True
            if lead is None:
                lead = rng.pick(hand)
            played = [lead]
            hand.remove(lead)
            for i in range(1, n):
                p = (leader + i) % n
                c = self._follow(hands[p], lead, trump, strict)
                hands[p].remove(c)
                played.append(c)
            won = (leader + trick_winner(played, trump)) % n
            words = [card_text(c) if self.suits else card_text(card(rank_of(c)))
                     for c in played]
            self.enter("trick %d %s" % (won + 1, " ".join(words)))
            if m.state.deal is deal and deal.closer < 0 and stock:
                for i in range(n):
                    p = (won + i) % n
                    if stock:
                        hands[p].append(stock.pop(0))
            if m.state.deals() != start or m.state.over:
                return
            if deal.played == deal.total:
                # Hidden totals: the last trick is in and the deal waits. Its taker gathers
                # it and says "out" when his side has 66, else nobody claims (`next`). No
                # random choice here, so the games are the ones made before the claim window.
                self.enter("claim %d" % (won + 1) if deal.points[deal.side(won)] >= 66
                           else "next")
                return
            self._maybe_claim(rules)

    def _follow(self, hand, lead, trump, strict):
        rng = self.rng
        if not strict:
            return rng.pick(hand)
        same = [c for c in hand if suit_of(c) == suit_of(lead)]
        if same:
            return rng.pick(same)
        trumps = [c for c in hand if suit_of(c) == trump]
        if trumps:
            return rng.pick(trumps)
        return rng.pick(hand)

    def _maybe_claim(self, rules):
        """With hidden totals, a side that has 66 usually says so."""
        m = self.match
        if not rules.hidden or m.state.over:
            return False
        deal = m.state.deal
        for seat in range(rules.players):
            side = deal.side(seat)
            if deal.points[side] >= 66 and not self.rng.chance(self.forget_claim):
                self.enter("claim %d" % (seat + 1))
                return True
        if self.rng.chance(1):
            self.enter("claim %d" % (deal.leader + 1))  # a false claim now and then
            return True
        return False

    def _four_extras(self, rules, dealer):
        """Four players: nines in the cut and redeals; True if the deal ended."""
        rng = self.rng
        m = self.match
        start = m.state.deals()
        while rng.chance(8) and m.state.deals() == start:
            self.enter("cut9")
        if m.state.deals() != start:
            return True
        if rng.chance(4):
            self.enter("redeal")
            return True
        return False

    def _nines_and_contracts(self, hands):
        rng = self.rng
        m = self.match
        start = m.state.deals()
        for seat in range(4):
            if len([c for c in hands[seat] if rank_of(c) == NINE]) >= 3 and rng.chance(70):
                self.enter("nines %d %s" % (seat + 1, rng.pick(("won", "lost"))))
                break
        if m.state.over or m.state.deals() != start:
            return True
        if rng.chance(6):
            seat = rng.below(4)
            self.enter("bid %d %s" % (seat + 1, rng.pick(("five", "six", "coat", "costume"))))
            self.enter("contract %s" % rng.pick(("made", "failed")))
            return True
        return False

    def play_match(self, max_deals=1000):
        deals = 0
        while deals < max_deals and self.play_deal():
            deals += 1
        return self.match
