"""Every result scored again by the tables' own core, before it counts.

A table's `deal` message carries the deal's entries ("ev": its records in hex, as the
match's journal has them; net/wire.py's deal_body). The service keeps, per (table, inc,
match), the sixtysix core's Match (firmware/sixtysix/, the same code the boards run), started
from the `match` message's rules and names, and the totals at the start of every deal it
has scored (MatchState.freeze()). A deal is scored from the totals at its start: each entry
must be one the core accepts, the last one must end the deal, and the core's game points,
winner, reason and match winner must be the ones the table claims (net/wire.py's
deal_body builds both, so they are compared field by field).

A `match` message of a round the director seated (round >= 1) must come from a table seated
for that round, with the names seated there and the rules seated there (the first dealer
may differ), and from the table's one device: a table's match of a round that counts
already from another incarnation (a second device on the table's login: a phone beside the
board, a second laptop) is held. Round 0 is a table's own match, started by hand with no
seating: it is not checked against a seating of its own, but one that names a player seated
in the latest round the director seated is held (the player's seated match is elsewhere).

judge() returns None when the core agrees, else (code, why): the result is held, not
counted (club/standings.py), and the service stores it whole with the reason (club/db.py).
Codes:
  rules   the core refuses the match's rules or names     seat    the table was not seated
  names   not the players seated for that round           for that round
  match   the deal's match is held (or never came)        order   no scored deal before it
  events  the entries are missing, malformed, refused by the core, or do not end the deal
          (or the table left them out: with them its message passed the broker's limit)
  score   the entries score otherwise than the result says
  twin    the table's match of this round counts already from another incarnation (another
          device on the table's login)
  second  the table's match of this round counts already from the same device (one match a
          pair a round)
  unseated  a round-0 match naming a player seated in the latest round
(club/standings.py adds "before", a result numbered before where the table's results began,
and "late", a result kept as late at the close and sent again after a reopen.)
Results of one (table, inc) are judged in their number's order (club/standings.py waits for
a gap to fill), which is the order the table's match went through them.
"""

from net.wire import MAX, deal_body
from sixtysix.errors import Refused
from sixtysix.match import Match

CODES = ("rules", "seat", "names", "match", "order", "events", "score", "twin", "second",
         "unseated")
MAX_ENTRIES = 400  # a deal's entries (a trick-by-trick deal has some 20)
_COMPARED = ("gp", "winner", "reason", "over")


class _Game:
    """One match of one table as the core scores it."""

    __slots__ = ("core", "starts", "held", "round")

    def __init__(self, core, held, rnd):
        self.core = core  # a sixtysix Match
        self.starts = {1: core.base}  # deal number -> the totals at its start
        self.held = held  # why the match message is held, or None
        self.round = rnd  # the match message's round


def _rules_words(text):
    return [w for w in text.split() if not w.startswith("dealer=")]


class Judge:
    def __init__(self, seats):
        self.seats = seats  # (table, round) -> the director's seating (a dict)
        self.games = {}  # (table, inc, match) -> _Game
        self.rounds = {}  # (table, round) -> [(inc, match)] of the games of a seated round

    def judge(self, table, msg):
        kind = msg["kind"]
        key = (table, msg["inc"], msg["match"])
        if kind == "match":
            return self._match(table, key, msg)
        g = self.games.get(key)
        if kind == "void":
            if g is not None:  # what followed the deal voided follows it no more
                for d in [d for d in g.starts if d > msg["deal"]]:
                    del g.starts[d]
            return None
        if g is None:
            return "match", "its match (%d) was never started" % msg["match"]
        why = self._deal(g, msg)
        if why is None and g.held is not None:
            why = "match", "its match is held (%s)" % g.held
        return why

    def _match(self, table, key, msg):
        try:
            core = start(msg)
        except Refused as e:
            self.games.pop(key, None)
            return "rules", "the core refuses the match %r: %s" % (msg["rules"], e.code)
        held = self._seated(table, msg)
        rnd = msg["round"]
        self.games[key] = _Game(core, held[1] if held else None, rnd)
        if rnd >= 1:
            self.rounds.setdefault((table, rnd), []).append(key[1:])
        return held

    def held_as(self, table, msg, why):
        """A match message's verdict as it stands (why: the reason it is held, or None when
        it counts), where it is not the judge's own: a verdict stored at a restart, a late
        result, the director's accept. The deals of a held match are held too."""
        g = self.games.get((table, msg["inc"], msg["match"]))
        if g is not None:
            g.held = why

    def _seated(self, table, msg):
        """None when a match agrees with its round's seating (or is a round-0 match), else
        (code, why)."""
        rnd = msg["round"]
        if rnd < 1:
            return self._unseated(msg["names"])
        seat = self.seats.get((table, rnd))
        names = msg["names"]
        if seat is None:
            return "seat", "table %s was not seated for round %d" % (table, rnd)
        # One match a pair a round: the table's match of this round that counts already
        # (from another device: twin; from this one, a match started after it: second)
        # holds this one, whatever its names and rules, and the reason says so.
        for inc, mid in self.rounds.get((table, rnd), ()):
            g = self.games.get((table, inc, mid))
            if (inc, mid) == (msg["inc"], msg["match"]) or g is None or g.held is not None \
                    or g.round != rnd:
                continue
            if inc != msg["inc"]:
                return "twin", ("table %s plays round %d on another device (%s, match %d), "
                                "which counts: one device a table" % (table, rnd, inc, mid))
            other = []
            if list(seat.get("names") or ()) != list(names):
                other.append("names %s" % ",".join(names))
            if _rules_words(str(seat.get("rules"))) != _rules_words(msg["rules"]):
                other.append("rules %r" % msg["rules"])
            return "second", ("a second match of round %d at table %s: its match %d of the "
                              "round counts (one match a pair a round)%s" % (
                                  rnd, table, mid, "; this one has " + " and ".join(other)
                                  if other else ""))
        if list(seat.get("names") or ()) != list(names):
            return "names", "round %d seated %s at table %s, not %s" % (
                rnd, ",".join(seat.get("names") or ()), table, ",".join(names))
        if _rules_words(str(seat.get("rules"))) != _rules_words(msg["rules"]):
            return "rules", "round %d is played by %r, not %r" % (
                rnd, seat.get("rules"), msg["rules"])
        return None

    def _unseated(self, names):
        """None unless a round-0 match names a player seated in the latest round seated."""
        if not self.seats:
            return None
        last = max(r for _t, r in self.seats)
        for (t, r), seat in sorted(self.seats.items()):
            if r == last:
                for n in seat.get("names") or ():
                    if n in names:
                        return "unseated", ("a match of round 0 with %s, who is seated at %s "
                                            "in round %d" % (n, t, last))
        return None

    def reseat(self, table, msg):
        """A match held as not seated ("seat"), judged again once its round's seating has
        come: None when it now agrees (its match counts from here on, and the deals held
        only for it may count), else (code, why). The deals the core scored stay scored."""
        g = self.games.get((table, msg["inc"], msg["match"]))
        if g is None:  # the core refused its rules: nothing a seating changes
            return "rules", "the core refuses the match %r" % msg["rules"]
        held = self._seated(table, msg)
        g.held = held[1] if held else None
        return held

    def _deal(self, g, msg):
        d = msg["deal"]
        base = g.starts.get(d)
        if base is None:
            return "order", "deal %d follows no deal the core has scored" % d
        m = g.core
        if msg.get("cut"):
            return "events", ("the table sent it without its entries: with them its message "
                              "was %d bytes, over the broker's %d" % (msg["cut"], MAX))
        why = play(m, base, d, msg.get("ev"))
        if why is not None:
            return "events", why
        # The entries are the deal: what follows it starts from here, whatever was claimed.
        for n in [n for n in g.starts if n > d]:
            del g.starts[n]
        g.starts[d + 1] = m.state.freeze()
        core = deal_body(m, msg["match"], d - 1)
        wrong = [f for f in _COMPARED if msg.get(f) != core[f]]
        if wrong:
            return "score", "the entries score %s, the result says %s" % (
                ", ".join("%s %s" % (f, _text(core[f])) for f in wrong),
                ", ".join("%s %s" % (f, _text(msg.get(f))) for f in wrong))
        return None


def start(head):
    """The core's Match started as a `match` message says (its rules and names); raises
    the core's Refused."""
    core = Match()
    core.enter_line("new %s names=%s" % (head["rules"], ",".join(head["names"])))
    return core


def play(m, base, d, ev):
    """Play deal d's entries ev (the records in hex, space-separated, as a `deal` message
    carries them) in the core's Match m from the totals base (MatchState.freeze()): None
    when they are entries the core accepts and the last one ends deal d (m's state is then
    the state after it), else why not."""
    if ev is None:
        return "the deal's entries are missing"
    words = ev.split()
    if not words or len(words) > MAX_ENTRIES:
        return "%d entries" % len(words)
    try:
        recs = [bytes.fromhex(w) for w in words]
    except ValueError:
        return "the entries are not records"
    st = m.state
    # The log stays empty: deal_body then builds no entries of its own.
    m.base = base
    m.log = bytearray()
    m.prev = None
    m.redo_stack = []
    st.thaw(base)
    for k, rec in enumerate(recs):
        if st.deals() >= d:
            return "the deal ended at entry %d of %d" % (k, len(recs))
        try:
            st.take(rec)  # as Match.enter takes it at the table: every check, then the change
        except Refused as e:
            return "entry %d (%s) refused by the core: %s" % (k + 1, words[k], e.code)
        except (IndexError, KeyError, TypeError, ValueError):
            return "entry %d (%s) is not a record" % (k + 1, words[k])
    st.rolled = False
    if st.deals() < d:
        return "the entries do not end deal %d" % d
    return None


def _text(v):
    if isinstance(v, list):
        return ":".join(str(x) for x in v)
    return str(v)
