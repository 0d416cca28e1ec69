"""What one deal of a match can give, asked of the tables' own core (firmware/sixtysix/):
the check behind the director's `correct` and `accept` (club/actions.py).

There is no table of results here. The match is started in the core from its `match`
message (rules, options, names, first dealer), the deals that count before the one in
question are played into it, and at that deal's start the core is given every way a deal
can end in one to four entries (a quick result of each side and each digit, a draw, a
claim by each player, and with four players the third nine in the cut, a redeal, each
bid made or failed, three nines won or lost alone or before any of those). What the core
accepts and ends the deal with is what one deal can give there: the game points per side,
the deal's winner and the match's winner after it (net/wire.py's deal_body, as a table
sends them). So the rule set, its options (the four-player scale, a target) and the totals
so far (a target reached) all come from the core, and a change to the core's rules is a
change here.

    outs = outcomes(head, live, deal)     {(gp tuple, winner): [over, ...]}
    given(head, live, deal, gp, winner, over)   raises Illegal(what to give)
    ended(head, live)                     how the match ends after the deals that count
    scored(head, live, deal, ev)          the core's deal message for these entries

head is the match's `match` message, live the deals that count ([(deal, message)] in
deal order, club/standings.py's TableMatch.live()), deal the deal's number.
"""

from net.wire import deal_body
from sixtysix.errors import Refused
from sixtysix.events import parse
from sixtysix.rules import CONTRACTS

from club.rescore import play, start


class Illegal(ValueError):
    """A result one deal cannot give, or a match the core cannot replay: args[0] says
    why and what to give."""


def _endings(rules):
    """Entry sequences (text lines, docs/events.md) that may end a deal at its start; the
    core refuses those the rule set or the moment does not allow."""
    seats = range(1, rules.players + 1)
    ends = [["result %d %d" % (s, g)] for s in range(1, rules.sides + 1) for g in range(10)]
    ends.append(["draw"])
    # A claim is play: a deal after the first is opened first (`next`).
    ends += [pre + ["claim %d" % p] for p in seats for pre in ([], ["next"])]
    if rules.pairs:
        ends.append(["cut9"] * 3)
        ends.append(["redeal"])
        ends += [["bid %d %s" % (p, k), "contract " + w] for p in seats for k in CONTRACTS
                 for w in ("made", "failed")]
        # Three nines is a side game: the deal goes on after it (it ends the deal alone
        # only when its 3 end the match).
        ends += [["nines %d %s" % (p, w)] + e for p in seats for w in ("won", "lost")
                 for e in [[]] + ends]
    return [[parse(line) for line in e] for e in ends]


def _try(core, base, recs):
    """Play recs from base: True when the core takes every one and the last ends the
    deal (the state is then the one after it)."""
    st = core.state
    st.thaw(base)
    n = st.deals()
    for rec in recs:
        if st.deals() > n or st.over:
            return False  # it ended before this entry
        try:
            st.take(rec)
        except Refused:
            return False
    st.rolled = False
    return st.deals() > n


class _Start:
    """The core's match at the start of a deal, with the deals that count played in."""

    def __init__(self, head, live, deal=None):
        if head is None:
            raise Illegal("its match's rules are not known (the match's first result "
                          "never came)")
        try:
            self.core = start(head)
        except Refused as e:
            raise Illegal("the core refuses the match's rules %r: %s"
                          % (head.get("rules"), e.code)) from None
        self.rules = self.core.state.rules
        self.endings = _endings(self.rules)
        self.base = self.core.base
        self.holes = []  # deals before this one that do not count
        want = 1
        for k, msg in live:
            if deal is not None and k >= deal:
                break
            self.holes += range(want, k)
            want = k + 1
            self._over(k)
            recs = self._find(tuple(msg["gp"]), msg["winner"], msg.get("over"))
            if recs is None:
                raise Illegal("deal %d counts %s won by %s, which one deal cannot give: "
                              "correct deal %d first" % (k, _gp(msg["gp"]),
                                                         _side(msg["winner"]), k))
            _try(self.core, self.base, recs)
            self.base = self.core.state.freeze()
        if deal is not None:  # None: every deal that counts, the match as it ends
            self.holes += range(want, deal)
            self._over(deal)
        self.core.state.thaw(self.base)

    def _over(self, k):
        st = self.core.state
        if st.over:
            raise Illegal("side %d won the match before deal %d, so no deal follows: void "
                          "the deals after its end, or correct the deal that ended it"
                          % (st.winner, k))

    def _find(self, gp, winner, over):
        """The first entries that end the deal as given (over too, if one does)."""
        found = None
        for recs in self.endings:
            if _try(self.core, self.base, recs):
                b = deal_body(self.core, 0, self.core.state.deals() - 1)
                if (tuple(b["gp"]), b["winner"]) == (gp, winner):
                    if b["over"] == over:
                        return recs
                    found = found or recs
        return found

    def outcomes(self):
        outs = {}
        for recs in self.endings:
            if _try(self.core, self.base, recs):
                b = deal_body(self.core, 0, self.core.state.deals() - 1)
                overs = outs.setdefault((tuple(b["gp"]), b["winner"]), [])
                if b["over"] not in overs:
                    overs.append(b["over"])
        self.core.state.thaw(self.base)
        return outs


def outcomes(head, live, deal):
    """{(game points per side, the deal's winner): [the match's winner after it]} of what
    deal `deal` can give after the deals that count before it; raises Illegal."""
    return _Start(head, live, deal).outcomes()


def menu(outs):
    """What one deal can give, as the director types it: "GP,GP WINNER" each."""
    keys = sorted(outs, key=lambda k: (k[1] < 0, k[1], k[0][k[1]] if k[1] >= 0 else 0,
                                       k[0]))
    return " | ".join("%s %d" % (",".join(str(g) for g in gp), w) for gp, w in keys)


def given(head, live, deal, gp, winner, over):
    """Check a result the director gives for deal `deal`: game points per side, the
    deal's winner side (-1: none) and the match's winner after it (-1: not over). Raises
    Illegal with what to give instead."""
    s = _Start(head, live, deal)
    rules = s.rules
    outs = s.outcomes()
    if not isinstance(gp, list) or len(gp) != rules.sides:
        raise Illegal("game points: %d numbers, one per side" % rules.sides)
    top = max(max(k[0]) for k in outs)
    for g in gp:
        if isinstance(g, bool) or not isinstance(g, int) or not 0 <= g <= top:
            raise Illegal("game points: %s is not what one deal can give (0..%d)"
                          % (str(g)[:10], top))
    for name, v in (("winner", winner), ("over", over)):  # as the wire's validate() says it
        if isinstance(v, bool) or not isinstance(v, int) or not -1 <= v < rules.sides:
            raise Illegal("%s: not an integer in -1..%d" % (name, rules.sides - 1))
    key = (tuple(gp), winner)
    if key not in outs:
        sides = sorted(w for g, w in outs if g == key[0])
        if sides:
            raise Illegal("winner: game points %s are won by %s: give winner %d"
                          % (_gp(gp), " or ".join(_side(w) for w in sides), sides[0]))
        raise Illegal("game points %s won by %s are not what one deal of %s can give; "
                      "give one of (GP,GP WINNER): %s"
                      % (_gp(gp), _side(winner), rules.id, menu(outs)))
    overs = outs[key]
    if over not in overs:
        if overs == [-1]:
            raise Illegal("over: the match goes on after this deal: give over -1")
        raise Illegal("over: after this deal side %d has won the match: give over %d"
                      % (overs[0], overs[0]))


def ended(head, live):
    """The match after every deal that counts, played in the core: {"over": the side that
    has won it, or -1, "tally": per side what counts toward the target (game points; the
    games with four players), "goal": the target (the games to win with four players)}.
    Raises Illegal: a deal one deal cannot give there, or a deal after the match's end."""
    s = _Start(head, live)
    st, r = s.core.state, s.rules
    return {"over": st.winner if st.over else -1,
            "tally": list(st.games if r.pairs else st.score),
            "goal": r.games if r.pairs else r.target}


def scored(head, live, deal, ev):
    """The core's `deal` message (net/wire.py's deal_body: gp, winner, reason, over) for
    deal `deal` played from its entries ev after the deals that count before it. Raises
    Illegal: why the entries give no deal (missing, refused, or deals before it that do
    not count, so the deal's start is not known)."""
    s = _Start(head, live, deal)
    if s.holes:
        raise Illegal("deal %s before it does not count, so its start is not known: "
                      "accept or correct %s first" % (
                          ", ".join(str(k) for k in s.holes),
                          "it" if len(s.holes) == 1 else "them"))
    why = play(s.core, s.base, s.core.state.deals() + 1, ev)
    if why is not None:
        raise Illegal(why)
    return deal_body(s.core, head["match"], s.core.state.deals() - 1)


def _gp(gp):
    return ":".join(str(g) for g in gp)


def _side(w):
    return "side %d" % w if w >= 0 else "no side"
