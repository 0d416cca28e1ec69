"""The match: its totals, the current deal, and the event log with undo/redo.

The state is the fold of the events. To keep RAM and boot time small only
the current deal's events are kept, on top of `base` (the match totals as
they stood when the deal began, a tuple of ints); the deal before is kept
too, so its last entry (often the trick that ended it) can still be undone.

Finished deals are rows of 12 bytes (_ROW), so a 100-deal match costs about 1 KB of
history:
  0 dealer, 1 reason (deal.REASONS), 2 winner + 1 (0: none),
  3-5 game points per side, 6-7 markers per pair, 8 three-nines side + 1,
  9-11 card points per side.
The rows are kept in blocks of 16 rows (_CHUNK bytes; MatchState.hist, a list of
bytearrays, all full but the last), not in one bytearray: a bytearray grows by moving to a
larger free block, and near a full heap one free kilobyte in one piece is what a long match
failed to find.
"""

from .deal import ENTRIES, REASONS, Deal
from .errors import Refused

try:
    from micropython import const
except ImportError:  # CPython (the core imports nothing outside sixtysix/, so not compat.py)

    def const(__x):
        return __x


# The type of MatchState.rules, for the type check only: MicroPython compiles this block
# away (and evaluates no annotation), CPython skips it (the annotation is a string).
_TYPE_CHECKING = const(0)
if _TYPE_CHECKING:
    from .rules import Rules

_ROW = const(12)
# 16 deals. A multiple of saved.PIECE, so none of a summary's base64 pieces straddles
# two blocks.
_CHUNK = const(16 * _ROW)


class MatchState:
    """Match totals plus the deal in progress. A new match's are set by sixtysix/setup.py
    (new_match), which the board loads only to start or rebuild a match."""

    rules: "Rules"
    names: tuple
    score: list  # game points; with pairs, the count on the current eight
    games: list  # eights completed (four players)
    markers: list  # coat/costume markers (four players)
    won: list  # deals won
    won2: list  # deals won with 2 game points
    won3: list  # deals won with 3 or more
    over: bool
    winner: int
    deal: Deal
    applied: int  # awards of the current deal already added to the totals
    rolled: bool  # set when a deal ended and the next one began
    hist: list  # blocks of the finished deals' rows (see _CHUNK)

    # --- the totals as a tuple, taken between deals -------------------------

    def freeze(self):
        """The totals as one flat tuple of ints: dealer, over, winner, deals
        recorded, then score, games, markers, won, won2, won3."""
        return tuple([self.deal.dealer, int(self.over), self.winner, self.deals() * _ROW] +
                     self.score + self.games + self.markers + self.won + self.won2 +
                     self.won3)

    def thaw(self, t):
        n = self.rules.sides
        self.over = bool(t[1])
        self.winner = t[2]
        h = self.hist
        while len(h) * _CHUNK >= t[3] + _CHUNK:  # blocks wholly past the deals recorded
            h.pop()
        keep = t[3] - (len(h) - 1) * _CHUNK  # what the last block holds of them
        if h and len(h[-1]) > keep:
            h[-1] = h[-1][:keep]  # MicroPython's bytearray has no slice deletion
        self.score = list(t[4:4 + n])
        self.games = list(t[4 + n:6 + n])
        self.markers = list(t[6 + n:8 + n])
        i = 8 + n
        self.won = list(t[i:i + n])
        self.won2 = list(t[i + n:i + 2 * n])
        self.won3 = list(t[i + 2 * n:i + 3 * n])
        d = self.deal = Deal(self.rules, t[0])
        d.opened = t[3] == 0  # every deal but a match's first waits for `next`
        self.applied = 0
        self.rolled = False

    # --- entries --------------------------------------------------------

    def check(self, rec):
        """Raise Refused if the record would not be accepted now."""
        if self.over:
            raise Refused("match_over")
        ENTRIES[rec[0]](self.deal, rec, False)

    def take(self, rec, new=True):
        """The one way a new record enters the match: every check (the suit guesses of a
        trick typed in part included), then the change; raises Refused and changes nothing.
        new=False: a record the match took before, again (the fold of its log:
        Match._fold), whose suit guesses ran when it was taken."""
        # One function for the entry, its awards and the deal's end: on the board each
        # function costs heap.
        if new:
            self.check(rec)
        d = self.deal
        r = self.rules
        ENTRIES[rec[0]](d, rec, True)
        awards = d.awards
        if self.applied < len(awards):
            # The entry's new awards go into the totals.
            score = self.score
            while self.applied < len(awards):
                side, points, markers = awards[self.applied]
                self.applied += 1
                score[side] += points
                if r.pairs:
                    self.markers[side] += markers
                    # Seed 000: points beyond the eight carry into the next one; the
                    # other pair's eight starts again.
                    while score[side] >= r.target:
                        score[side] -= r.target
                        score[1 - side] = 0
                        self.games[side] += 1
            # After all awards of an entry: a side alone at or past the target wins.
            tally = self.games if r.pairs else score
            best = max(tally)
            if best >= (r.games if r.pairs else r.target) and tally.count(best) == 1:
                self.over = True
                self.winner = tally.index(best)
        if not (d.over or self.over):
            return
        # The deal is over: its row goes into the history, and the next deal begins.
        row = bytearray(_ROW)
        row[0] = d.dealer
        row[1] = REASONS.index(d.reason or "match_over")
        row[2] = d.winner + 1
        for side, points, markers in awards:
            row[3 + side] += points
            if markers:
                row[6 + side] += markers
        if d.nines_side >= 0:
            row[3 + d.nines_side] -= 3
            row[8] = d.nines_side + 1
        card_points = d.points
        for s in range(len(card_points)):
            row[9 + s] = min(card_points[s], 255)
        self.add_rows(row)
        w = d.winner
        if w >= 0 and d.reason != "cut_nines":  # a third nine in the cut is no deal won
            gp = row[3 + w]
            self.won[w] += 1
            if gp == 2:
                self.won2[w] += 1
            elif gp >= 3:
                self.won3[w] += 1
        if self.over:
            d.over = True
            return
        dealer = d.dealer if d.reason == "redeal" else (d.dealer + 1) % r.players
        d = self.deal = Deal(r, dealer)
        d.opened = False
        self.applied = 0
        self.rolled = True

    # --- reading ----------------------------------------------------------

    def add_rows(self, rows):
        """Record finished deals' rows (a multiple of _ROW bytes) after the others."""
        h = self.hist
        for i in range(0, len(rows), _ROW):
            if not h or len(h[-1]) == _CHUNK:
                h.append(bytearray())
            h[-1].extend(rows[i:i + _ROW])

    def deals(self):
        h = self.hist
        return ((len(h) - 1) * _CHUNK + len(h[-1])) // _ROW if h else 0

    def row_bytes(self, i):
        """Deal i's row as bytes."""
        o = i * _ROW % _CHUNK
        return bytes(self.hist[i * _ROW // _CHUNK][o:o + _ROW])

    def row(self, i):
        """Deal i as (dealer, reason, winner, awards, card points); awards are
        (side, game points, markers), the three-nines side game first."""
        h = self.hist[i * _ROW // _CHUNK]  # a row never straddles two blocks
        o = i * _ROW % _CHUNK
        sides = self.rules.sides
        awards = []
        if h[o + 8]:
            awards.append((h[o + 8] - 1, 3, 0))
        for s in range(sides):
            mk = h[o + 6 + s] if s < 2 else 0
            if h[o + 3 + s] or mk:
                awards.append((s, h[o + 3 + s], mk))
        return (h[o], REASONS[h[o + 1]], h[o + 2] - 1, tuple(awards),
                tuple(h[o + 9:o + 9 + sides]))

    def score_shown(self, side):
        """The score as players read it: remaining to the target when counting down, never
        below 0 (a last deal worth more than what was left shows 0)."""
        if self.rules.down:
            return max(0, self.rules.target - self.score[side])
        return self.score[side]


def log_records(log):
    """The records in a log buffer, oldest first (each is framed by its length): the one
    reading of that framing, for the match, the club's messages (net/wire.py) and the
    snapshot's undo count (snapshot.py)."""
    i = 0
    while i < len(log):
        n = log[i]
        yield bytes(log[i + 1:i + 1 + n])
        i += n + 2


class Match:
    """The event log: enter, undo, redo. The state is always the fold of the log."""

    def __init__(self):
        self.setup = None  # the `new` line
        self.state = None
        self.base = None
        self.log = bytearray()  # the current deal's records: len, record, len
        self.prev = None  # (base, log) of the deal before
        self.redo_stack = []

    def enter_line(self, line):
        """enter() in text, for tools and tests (events.parse); a `new ...` line is no entry:
        it sets the match up (a match's start and its rebuild use it)."""
        if line.startswith("new"):
            from .setup import new_match  # a match's start: sixtysix/setup.py

            new_match(self, line, MatchState())
            return
        from .events import parse  # text is for tools and tests; the board enters records

        self.enter(parse(line))

    def enter(self, rec):
        """Take one event record (MatchState.take: checked, then applied) and log it.
        Raises Refused and changes nothing. Returns True when the entry ended the deal and
        the next one began."""
        state = self.state
        if state is None:
            raise Refused("no_match")
        state.take(rec)
        n = len(rec)
        log = self.log
        log.append(n)
        log.extend(rec)
        log.append(n)
        self.redo_stack = []
        if not state.rolled:
            return False
        state.rolled = False
        self.prev = (self.base, bytes(log))
        self.base = state.freeze()
        self.log = bytearray()
        return True

    def undo(self):
        """Drop the last event; returns its record. Refused when nothing is left to undo."""
        state = self.state
        if state is None:
            raise Refused("nothing_to_undo")
        log = self.log
        if not log:
            if self.prev is None:
                raise Refused("nothing_to_undo")
            self.base, log = self.prev
            log = bytearray(log)
            self.prev = None
        n = log[-1]
        rec = bytes(log[-1 - n:-1])
        self.log = log[:-2 - n]
        # A new list, not the old one changed: a mark() may hold the old one.
        self.redo_stack = self.redo_stack + [rec]
        self._fold(self.base, self.log)
        return rec

    def redo(self):
        """Enter again the last entry taken back; returns what enter() does."""
        stack = self.redo_stack
        if not stack:
            raise Refused("nothing_to_redo")
        rolled = self.enter(stack[-1])
        self.redo_stack = stack[:-1]  # enter() began a new one: the rest can still be redone
        return rolled

    def _fold(self, base, log):
        """The state is the fold of the log: again from the deal's start."""
        state = self.state
        if state is not None:  # a match begun (undo and mark need one)
            state.thaw(base)
            for r in log_records(log):
                state.take(r, False)

    def mark(self):
        """A token of what enter, undo and redo change, for rollback(). No copy: enter only
        appends to the log (its length is kept), undo and redo replace the rest."""
        return (self.base, self.log, len(self.log), self.prev, self.redo_stack)

    def rollback(self, token):
        """Put the match back as it was at mark() (after a write that failed)."""
        self.base, log, n, prev, self.redo_stack = token
        self.prev = prev
        if prev:
            # An undo into the deal before took its row from the history: folding that
            # deal again puts the row back.
            self._fold(prev[0], prev[1])
        self.log = log = log[:n]
        self._fold(self.base, log)

    # --- persistence hooks -------------------------------------------------

    def records(self):
        """The current deal's event records, oldest first (what the journal holds)."""
        return list(log_records(self.log))

    def summary(self, hist=True):
        """What a summary file holds: the setup line, the match at this deal's start, the
        deal before (so undo can cross back into it) and the redo stack; and with `hist`
        the finished deals (else see hist_b64)."""
        from .saved import summary

        return summary(self, hist)

    def hist_b64(self):
        """The summary's history (the finished deals' rows) in base64, in pieces of 128
        characters (sixtysix/saved.py)."""
        from .saved import hist_b64

        return hist_b64(self)

    def restore(self, summary, records):
        """Rebuild from a summary and the current deal's event records (as they were
        when the summary was taken: the redo stack is set after them)."""
        from .setup import restore

        restore(self, summary, records)
