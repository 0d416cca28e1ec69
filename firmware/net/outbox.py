"""The table's club results: numbered, kept on flash, and kept until the service acks them.

The outbox lives in its own Store (store/journal.py: an append-only, checksummed journal) in
the folder "outbox", beside the match's "data". Its journal lines:

  i <inc>                        first line ever: this outbox's incarnation (8 hex digits)
  p <seq> <mid> <n> <key> <json> a result, numbered <seq>; <mid> <n> <key> say which
                                 match, how many deals it had and what its last deal was
                                 when this was sent (so a reboot knows what is published)
  c <seq> <k> <piece>            piece k (0, 1, ...) of result <seq>'s JSON, when its "p"
                                 line would pass the store's 200 bytes (a deal carries its
                                 entries): the "p" line that follows ends the JSON, and
                                 piece 0 starts it afresh (a cut mid-way leaves pieces that
                                 the next try of that number replaces)
  a <seq>                        the service has applied every result up to <seq>
  r <round>                      a seating (director) for this round was taken up
  s <next> <acked> <seated> <round> <mid> <n> <key>
                                 where the outbox stood (in a summary only, see below)

Once the journal holds COMPACT_LINES lines, an ack compacts it: the store's checkpoint
(its atomic summary-then-new-journal protocol) takes the "i" line, the results still
waiting for their ack and one "s" line, and the journal starts empty. A night's flash
stays a few KB however many deals it has.

Nothing is ever rewritten in place: an ack is a new line; a result is superseded by a later one for
the same match and deal (a deal undone is a "void", a deal entered again is sent again),
and the service keeps, per (table, inc, match, deal), the result with the highest seq.
The incarnation keeps sequence numbers unique when a table's flash is wiped mid-event.
A flash restored from an older copy keeps its incarnation but has forgotten the numbers
it gave since: the service's ack then names a number at or beyond this outbox's next one.
ack() takes it as a gap: the next result is a "gap" message numbered after the service's
number (so no number is given twice), and numbering goes on from there.

The messages are net/wire.py's (the same from the browser build).

sync(session) diffs the match against what was last sent; the caller runs it only when
the session's change count has moved, so a key press that changes nothing costs nothing here.
"""

from compat import const

from net import wire

COMPACT_LINES = 64  # journal lines that make an ack compact the outbox
_LINE = const(200)  # bytes of a journal line (store/fileformat.py's MAX_LINE)
_PIECE = const(160)  # bytes of JSON in a "c" line


def new_inc():
    import os

    try:
        return "%08x" % int.from_bytes(os.urandom(4), "big")
    except (AttributeError, NotImplementedError):
        import time

        return "%08x" % (int(time.time() * 1000003) & 0xFFFFFFFF)  # a float on some ports


class Outbox:
    """Results waiting for the service's ack, numbered 1, 2, ... per incarnation."""

    def __init__(self, store):
        self.store = store
        self.inc = None
        self.next = 1  # the next result's sequence number
        self.acked = 0  # every result up to this one is applied by the service
        self.pending = []  # [(seq, json)], oldest first: what a resend sends
        self.seated = 0  # the last round whose seating this table took up
        self.round = 0  # the round of the match being played (0: none)
        self._mid = 0  # the match, deal count and last deal key last published
        self._n = 0
        self._key = "-"
        self._lines = 0  # lines in the journal since the last compaction
        self._buf = None  # [seq, piece, ...] of "c" lines being read back
        self.problems = []
        self.cut = 0  # the last result made without its entries (net/wire.py's MAX)

    def load(self):
        got = self.store.load()
        self.problems = got.problems
        lines = got.events
        if got.summary:
            lines = got.summary.split("\n") + lines
        for line in lines:
            try:
                self._replay(line)
            except (ValueError, IndexError):  # a line of a later version: skip it
                self.problems.append("outbox: line skipped")
        self._lines = len(got.events)
        if self.inc is None:
            self.inc = new_inc()
            self._append("i " + self.inc)

    def _append(self, line):
        self.store.append(line)
        self._lines += 1

    def _replay(self, line):
        kind = line[0]
        if kind == "i":
            self.inc = line[2:]
        elif kind == "c":
            seq, k, piece = line[2:].split(" ", 2)
            if k == "0":
                self._buf = [seq]
            if self._buf:
                self._buf.append(piece)
        elif kind == "p":
            seq, mid, n, key, payload = line[2:].split(" ", 4)
            b = self._buf
            if b and b[0] == seq:
                b[0] = ""
                b.append(payload)
                payload = "".join(b)
            self._buf = None
            seq = int(seq)
            self.next = seq + 1
            if seq > self.acked:
                self.pending.append((seq, payload))
            mid = int(mid)
            if mid != self._mid:
                self.round = self.seated
            self._mid, self._n, self._key = mid, int(n), key
        elif kind == "a":
            self._acked(int(line[2:]))
        elif kind == "r":
            self.seated = int(line[2:])
        elif kind == "s":
            w = line[2:].split(" ")
            self.next, acked, self.seated, self.round, self._mid, self._n = [
                int(x) for x in w[:6]]
            self._key = w[6]
            self._acked(acked)

    def compact(self):
        """Replace the journal with what it amounts to (see the module's text)."""
        pieces = ["i %s\n" % self.inc]
        for seq, payload in self.pending:
            pieces.append("p %d %d %d %s %s\n" % (seq, self._mid, self._n, self._key, payload))
        pieces.append("s %d %d %d %d %d %d %s" % (self.next, self.acked, self.seated,
                                                   self.round, self._mid, self._n, self._key))
        try:
            self.store.checkpoint(pieces)
        except ValueError:  # more waits than a summary holds (16 KB): the journal goes on
            return
        self._lines = 0

    def _acked(self, seq):
        self.acked = seq
        p = self.pending
        while p and p[0][0] <= seq:
            p.pop(0)

    # ---- the service's answers ----

    def ack(self, inc, seq):
        """The service has applied everything up to seq: 1 if that is news, 2 if it is
        beyond anything numbered here (a gap, below), 0 otherwise."""
        if inc != self.inc or seq <= self.acked:
            return 0
        gap = seq >= self.next
        if gap:
            # The service has numbers this outbox never gave: the flash was restored from
            # an older copy. Number on after the service's, and tell it (a "gap" result,
            # on flash before its ack line, so a cut between leaves the new numbering).
            first = self.next
            self.next = seq + 1
            self._add(self._mid, self._n, self._key, {"kind": "gap", "from": first, "to": seq})
        self._append("a %d" % seq)
        self._acked(seq)
        if self._lines >= COMPACT_LINES:
            self.compact()
        return 2 if gap else 1

    def take_seating(self, rnd):
        """Note that this round's seating started a match (so a reboot does not start it
        again)."""
        self._append("r %d" % rnd)
        self.seated = rnd

    # ---- results ----

    def _add(self, mid, n, key, body):
        seq = self.next
        payload = wire.result(self.inc, seq, body)  # never over the broker's limit
        if '"cut":' in payload:
            self.cut = seq
        head = "p %d %d %d %s " % (seq, mid, n, key)
        rest = payload
        if len(head) + len(payload.encode()) > _LINE:
            # In "c" lines of at most _PIECE bytes (whole characters); the "p" line ends it.
            i = k = 0
            while i < len(payload):
                j = i + _PIECE
                while len(payload[i:j].encode()) > _PIECE:
                    j -= 1 + (j - i) // 8
                self._append("c %d %d %s" % (seq, k, payload[i:j]))
                i = j
                k += 1
            rest = ""
        self._append(head + rest)
        self.next = seq + 1
        self.pending.append((seq, payload))
        self._mid, self._n, self._key = mid, n, key

    def sync(self, session):
        """Publish what the match holds and the service has not been told: a new match,
        deals ended, deals taken back. Returns how many results were added."""
        state = session.match.state
        mid = session.match_id
        if state is None or not mid:
            return 0
        added = 0
        if mid != self._mid:
            self.round = self.seated
            # The names as the `new` line has them (sixtysix/names.py's); the rules are the
            # rest of that line but "new": what the service starts the same match from.
            rules = []
            for w in (session.match.setup or "").split()[1:]:
                if not w.startswith("names="):
                    rules.append(w)
            self._add(mid, 0, "-", wire.match(mid, self.round, list(state.names),
                                              " ".join(rules)))
            added += 1
        n = state.deals()
        while self._n > n:  # deals taken back (undo): void them, newest first
            d = self._n
            key = self._row_key(state, d - 2) if d > 1 else "-"
            self._add(mid, d - 1, key, wire.void(mid, d))
            added += 1
        if n and self._n == n and self._key != self._row_key(state, n - 1):
            self._n = n - 1  # the last deal changed since it was sent: send it again
        while self._n < n:
            i = self._n
            self._add(mid, i + 1, self._row_key(state, i), wire.deal_body(session.match, mid, i))
            added += 1
        return added

    def _row_key(self, state, i):
        last = i == state.deals() - 1
        return "%s%d" % (state.row_bytes(i).hex(),
                         state.winner + 1 if last and state.over else 0)

