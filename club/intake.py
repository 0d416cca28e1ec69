"""What a table's message becomes: the standings service's intake policy.

club/service.py pumps the broker's messages and hands a table's result or seating here.
A result is counted, waits for a lower number, is held (the core does not agree), or is
kept aside, never counted and never dropped silently: refused (too large, not a result),
a duplicate (acked again), a conflict (the same number, other content: the first copy
counts), late (the night is closed), a gap (the table's flash went back to an older copy:
numbered on, counted nothing). A seating is stored the moment it is heard and releases the
results held only because they came before it. Each verdict is on disk before its ack and
said in one line under its one word (docs/club.md)."""

import hashlib
import json

from net import wire

from club.db import accept_entry, digest_of
from club.standings import Invalid, validate

# A result is a few hundred bytes: anything past this is refused before it is parsed, and
# only its first bytes are kept (the broker's venue.conf caps messages at the same size).
MAX_PAYLOAD = 8192
KEEP_REFUSED = 256  # bytes of a refused payload kept for the director


class Intake:
    """The policy over the service's Desk (club/httpd.py): its database and its event, which
    the director's reopen replaces, so it is read from the desk at each message. log: one
    line per verdict."""

    def __init__(self, desk, log):
        self.desk = desk
        self.db = desk.db
        self.log = log
        self.duplicates = 0  # copies of results already applied (acked again, not counted)

    event = property(lambda self: self.desk.event)

    def too_large(self, topic, payload):
        """Refuse a message past MAX_PAYLOAD before it is parsed: True if refused."""
        if len(payload) <= MAX_PAYLOAD:
            return False
        self.refuse(topic, payload, "too large: %d bytes (at most %d)"
                    % (len(payload), MAX_PAYLOAD))
        return True

    def result(self, table, payload):
        """A table's result: (table, counted) when the table is to hear its ack (counted:
        the standings changed), else None."""
        topic = wire.topic(table, wire.RESULT)
        if self.too_large(topic, payload):
            return None
        try:
            msg = json.loads(payload)
            validate(msg)
        except (ValueError, Invalid) as e:
            self.refuse(topic, payload, str(e))
            return None
        what = "%s %s #%d %s" % (table, msg["inc"], msg["seq"], msg["kind"])
        key = (table, msg["inc"], msg["seq"])
        if self.event.closed:
            return self._after_close(table, topic, payload, msg, key, what)
        if self.db.add_result(table, msg):
            return table, self._new(table, msg, key, what)
        if self.event.copy(table, msg["inc"], msg["seq"]) != msg:
            # The same number with other content: the first copy counts, this one is
            # kept beside it for the director, never dropped silently.
            self.refuse(topic, payload, "conflict: %s differs from the copy kept" % what,
                        MAX_PAYLOAD, "conflict", key, what)
            return table, False
        self.duplicates += 1
        self.log("duplicate " + what)
        return table, False  # a duplicate: the table hears its ack again

    def _after_close(self, table, topic, payload, msg, key, what):
        if self.event.copy(table, msg["inc"], msg["seq"]) == msg:
            # A copy of a result that came before the close: not late, acked again.
            self.duplicates += 1
            self.log("duplicate " + what)
            return table, False
        # Kept whole for the director, never counted: the standings were final at
        # close. Once: the table sends it again until acked, and no ack comes.
        if self.db.has_refused("late", key):
            self.log("duplicate late " + what)
            return None
        self.refuse(topic, payload, "late: the night is closed", MAX_PAYLOAD, "late", key, what)
        return None

    def _new(self, table, msg, key, what):
        """A result stored for the first time: applied; True if the standings changed."""
        late = self.db.late_row(key) if msg["kind"] != "gap" else None
        if late is not None:
            # Kept as late at the close, sent again now the night is open: its number is
            # taken and acked (the table stops sending it), and it stays late, counting
            # only if the director accepts its row (judged() says so).
            self.event.late[key] = late
        elif msg["kind"] == "gap":
            self.db.add_gap(table, msg)
            self.log("gap %s %s: results #%d to #%d are here but no longer on the table "
                     "(its flash went back to an older copy); it numbers on from #%d"
                     % (table, msg["inc"], msg["from"], msg["to"], msg["seq"]))
        new = self.event.apply(table, msg)
        if not self.event.judged and msg["kind"] != "gap":
            self.log("waiting %s: a lower number has not come" % what)
        self.judged()
        return new

    def seat(self, table, payload):
        """A table's retained seating: stored if it is new. Acks nothing: None."""
        if self.too_large(wire.topic(table, wire.SEAT), payload) or not payload:
            return None
        try:
            seat = json.loads(payload)
        except ValueError:
            return None
        if not isinstance(seat, dict) or type(seat.get("round")) is not int:
            return None
        if self.event.seats.get((table, seat["round"])) != seat:
            self.seated(table, seat)
        return None

    def seated(self, table, seat):
        """Store a seating the moment it is heard (on disk before anything else), and count
        the results that were held only because they came before it."""
        self.db.add_seating(table, seat)
        released = self.event.seat(table, seat)
        why = "seated: round %d's seating came after this result" % seat["round"]
        for h in released:
            self.db.add_accepted(h["id"], why)
            msg = self.event.results[(h["table"], h["inc"], h["seq"])]
            self.event.audit.append(accept_entry(h["id"], table, msg, why))
            self.log("counted %s %s #%d %s (row %d): %s" % (
                table, h["inc"], h["seq"], h["what"], h["id"], why))
        self.db.commit()
        return released

    def refuse(self, topic, payload, why, keep=KEEP_REFUSED, kind="bad", key=(None,) * 3,
               what=None):
        """Keep a message that does not count (its first bytes, or whole), the reason and
        its kind, on disk at once, and say so in one line under the kind's one word:
        "refused TOPIC: why" (not a result), "conflict X: why", "late X: why"."""
        if kind == "bad":  # a bad message again, byte for byte: one more copy of its row
            digest = hashlib.sha256(payload).hexdigest()
            rid, copies = self.db.add_bad(topic, payload[:keep], why, digest)
            self.db.commit()
            if copies > 1:
                self.log("refused %s again (row %d, %d copies): %s" % (topic, rid, copies, why))
            else:
                self.log("refused %s: %s" % (topic, why))
            return
        text = why.split(": ", 1)[-1] if why.startswith(kind + ":") else why
        if text.startswith(what + " "):
            text = text[len(what) + 1:]
        if kind == "conflict":  # the same other copy again: one more copy of its row
            rid, copies = self.db.add_copy(kind, topic, payload[:keep], why,
                                           digest_of(json.loads(payload)), key)
            self.db.commit()
            if copies > 1:
                self.log("conflict %s again (row %d, %d copies): %s, not counted"
                         % (what, rid, copies, text))
            else:
                self.log("conflict %s: %s, not counted" % (what, text))
            return
        self.db.add_refused(topic, payload[:keep], why, kind, None, key)
        self.db.commit()
        self.log("%s %s: %s, not counted" % (kind, what, text))

    def judged(self):
        """Say what became of each result judged (Event.judged), in order, one word each:
        "counted X", or "held X (code): why, not counted" once the held result is stored
        whole with its reason, on disk at once: never counted, never dropped silently."""
        ev = self.event
        held = {(h["table"], h["inc"], h["seq"]): h for h in ev.new_held}
        for verdict, key in ev.judged:
            msg = ev.results.get(key)
            what = "%s %s #%d %s" % (key + (msg["kind"] if msg else "?",))
            h = held.pop(key, None)
            if verdict == "counted" or h is None:
                if verdict == "counted" and msg is not None and msg["kind"] != "gap":
                    self.log("counted " + what)
                continue
            body = json.dumps(ev.held_msgs.pop(key), separators=(",", ":"))
            if h["code"] == "late":  # its row is the late one, kept at the close
                self.log("late %s (row %d) sent again: acked, not counted unless accepted"
                         % (what, h["id"]))
                continue
            h["id"] = self.db.add_refused(wire.topic(h["table"], wire.RESULT), body, h["why"],
                                          "held", h["code"], key)
            self.log("held %s (%s): %s, not counted" % (what, h["code"], h["why"]))
        for key, h in held.items():  # judged before a caller took the list (not expected)
            body = json.dumps(ev.held_msgs.pop(key), separators=(",", ":"))
            h["id"] = self.db.add_refused(wire.topic(h["table"], wire.RESULT), body, h["why"],
                                          "held", h["code"], key)
        ev.judged = []
        if ev.new_held:
            ev.new_held = []
            self.db.commit()
