"""The event's SQLite database: every result as it came, corrections, seatings, the audit.

results      one row per (table, inc, seq): the first copy that came; later copies are
             duplicates (INSERT OR IGNORE on the primary key), so a row is never rewritten
corrections  the director's corrections and voids, never deleted: the audit trail;
             the latest per (table, inc, match, deal) counts
seating      the director's rounds: table -> players, rules
refused      messages not counted, each with its reason (why) and its kind:
               bad       not a result (bad JSON or schema, too large): its first bytes
               late      a result after the director's close; sent again after a reopen
                         it is also in results (its number taken and acked) and held
                         ("late") until the director accepts this row
               conflict  a table's number again with other content (the first counts)
               held      a result the core does not agree with (club/rescore.py; code says
                         which check), or from a table or players not seated for its round
             A late, conflict or held result is kept whole, with its table_id, inc and seq,
             so the director can count it later (refusal(id) reads one back). A held result
             is also in results (its number is taken and acked); load() holds it again.
             A bad message that comes again byte for byte on the same topic (a broken table
             resending it) is the same row: copies counts them, last is when the latest came
             (digest: the SHA-256 of the whole message, which may be longer than body). So
             is a conflict that comes again (digest_of: its result as canonical JSON): one
             row per distinct message, while that row is not accepted.
accepted     the director's accepts of refused rows (one per row): that result counts, as
             result when it is set (a deal as its entries score, or as the director gave it:
             club/actions.py), else as the row has it
director     every director action, accepted or refused: the request, the verdict, why
gaps         a table's flash went back to an older copy: results lost_from..lost_to are
             here but no longer on the table, which numbers on from seq (its "gap" result)
meta         "closed" while the director has the event closed (reopen removes it);
             "byes" every round's byes the director gave (seat --bye): {"round": [names]},
             each a won match in the standings

The service commits before it acks, so an acked result is on disk: a restart reloads the
whole event from here (load()) and nothing the tables were told is lost.
"""

import hashlib
import json
import sqlite3
import time

from net import wire

from club.standings import HELD_FIELDS, Event, late_why

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
  table_id TEXT NOT NULL, inc TEXT NOT NULL, seq INTEGER NOT NULL,
  body TEXT NOT NULL, received REAL NOT NULL,
  PRIMARY KEY (table_id, inc, seq));
CREATE TABLE IF NOT EXISTS corrections (
  id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, table_id TEXT NOT NULL,
  inc TEXT NOT NULL, match INTEGER NOT NULL, deal INTEGER NOT NULL, action TEXT NOT NULL,
  result TEXT, why TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seating (
  id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, round INTEGER NOT NULL,
  table_id TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS refused (
  id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, topic TEXT NOT NULL,
  body BLOB, why TEXT NOT NULL, kind TEXT NOT NULL DEFAULT 'bad', code TEXT,
  table_id TEXT, inc TEXT, seq INTEGER, copies INTEGER NOT NULL DEFAULT 1, last REAL,
  digest TEXT);
CREATE TABLE IF NOT EXISTS gaps (
  table_id TEXT NOT NULL, inc TEXT NOT NULL, seq INTEGER NOT NULL,
  lost_from INTEGER NOT NULL, lost_to INTEGER NOT NULL, at REAL NOT NULL,
  PRIMARY KEY (table_id, inc, seq));
CREATE TABLE IF NOT EXISTS accepted (
  id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, refused_id INTEGER NOT NULL UNIQUE,
  why TEXT NOT NULL, result TEXT);
CREATE TABLE IF NOT EXISTS director (
  id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, via TEXT NOT NULL,
  request TEXT NOT NULL, verdict TEXT NOT NULL, reason TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


BYES = "byes"  # the meta key of every round's byes

# The word for each kind of refused row, as the log, the commands and the pages say it.
WORDS = {"held": "held", "conflict": "conflict", "late": "late", "bad": "refused"}


class Db:
    def __init__(self, path):
        self.conn = sqlite3.connect(path, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.executescript(SCHEMA)
        cols = [r[1] for r in self.conn.execute("PRAGMA table_info(refused)")]
        for col, decl in (("kind", "TEXT NOT NULL DEFAULT 'bad'"), ("code", "TEXT"),
                          ("table_id", "TEXT"), ("inc", "TEXT"), ("seq", "INTEGER"),
                          ("copies", "INTEGER NOT NULL DEFAULT 1"), ("last", "REAL"),
                          ("digest", "TEXT")):
            if col not in cols:  # a database of an earlier version
                self.conn.execute("ALTER TABLE refused ADD COLUMN %s %s" % (col, decl))
        if "result" not in [r[1] for r in self.conn.execute("PRAGMA table_info(accepted)")]:
            self.conn.execute("ALTER TABLE accepted ADD COLUMN result TEXT")
        self.conn.execute("CREATE INDEX IF NOT EXISTS refused_digest ON refused (digest)")
        self.conn.commit()

    def load(self):
        """The Event as the database holds it."""
        ev = Event()
        for table, body in self.conn.execute(
                "SELECT table_id, body FROM seating ORDER BY id"):
            ev.seat(table, json.loads(body))
        held = {}
        for row in self.conn.execute(
                "SELECT id, at, topic, body, why, kind, code, table_id, inc, seq FROM refused "
                "WHERE kind = 'held' ORDER BY id"):
            h = _held(row)
            held[(h["table"], h["inc"], h["seq"])] = {k: h.get(k) for k in HELD_FIELDS}
        for row in self.conn.execute(
                "SELECT f.id, f.at, f.topic, f.body, f.why, f.kind, f.code, f.table_id, f.inc, "
                "f.seq FROM refused f JOIN results r ON r.table_id = f.table_id AND "
                "r.inc = f.inc AND r.seq = f.seq WHERE f.kind = 'late' AND r.received >= f.at "
                "ORDER BY f.id"):
            # A late result sent again after a reopen: held as late (the accept below, if
            # any, makes it count).
            h = dict(_held(row), code="late", why=late_why(row[0]))
            held[(h["table"], h["inc"], h["seq"])] = {k: h.get(k) for k in HELD_FIELDS}
        rows = self.conn.execute(
            "SELECT table_id, body FROM results ORDER BY received, rowid")  # as they came
        for table, body in rows:
            ev.apply(table, json.loads(body), held)
        # Corrections and accepts in the order they were made (the audit's order).
        steps = [(at, 0, cid, row) for at, cid, row in (
            (r[-1], r[-2], r[:-1]) for r in self.conn.execute(
                "SELECT table_id, inc, match, deal, action, result, why, id, at "
                "FROM corrections"))]
        steps += [(at, 1, aid, (rid, why, res)) for aid, at, rid, why, res in self.conn.execute(
            "SELECT id, at, refused_id, why, result FROM accepted")]
        for _at, kind, _n, row in sorted(steps, key=lambda s: s[:3]):
            if kind == 0:
                ev.correct(_fix(row))
            else:
                table, msg = self.refused_result(row[0])
                if row[2]:  # what counted: the row's result as the core scored it, or given
                    msg = json.loads(row[2])
                ev.take(table, msg, accept_entry(row[0], table, msg, row[1]), held)
        ev.closed = self.meta("closed") is not None
        ev.set_byes(self.byes())
        return ev

    def add_result(self, table, msg):
        """Store a result unless (table, inc, seq) is there; True if it was new."""
        cur = self.conn.execute(
            "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?)",
            (table, msg["inc"], msg["seq"], json.dumps(msg, separators=(",", ":")),
             time.time()))
        return cur.rowcount == 1

    def add_gap(self, table, msg):
        self.conn.execute("INSERT OR IGNORE INTO gaps VALUES (?, ?, ?, ?, ?, ?)",
                          (table, msg["inc"], msg["seq"], msg["from"], msg["to"], time.time()))

    def stored(self, table, inc, seq):
        """The stored body of a result (a JSON text), or None."""
        row = self.conn.execute(
            "SELECT body FROM results WHERE table_id = ? AND inc = ? AND seq = ?",
            (table, inc, seq)).fetchone()
        return row[0] if row else None

    def add_refused(self, topic, body, why, kind="bad", code=None, key=(None, None, None),
                    digest=None):
        """Keep a message that does not count (see refused above); key: its (table, inc,
        seq) when it is a result. Returns the row's id."""
        cur = self.conn.execute(
            "INSERT INTO refused (at, topic, body, why, kind, code, table_id, inc, seq, "
            "digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (time.time(), topic, body, why, kind, code) + tuple(key) + (digest,))
        return cur.lastrowid

    def add_bad(self, topic, body, why, digest):
        """A bad message (kind "bad"), of which digest is the whole message's SHA-256: a new
        row, or one more copy of the row that has it on this topic. Returns (id, copies)."""
        return self.add_copy("bad", topic, body, why, digest)

    def add_copy(self, kind, topic, body, why, digest, key=(None, None, None)):
        """A message of this kind (bad or conflict) whose digest is that of a row on this
        topic not accepted: one more copy of that row, else a new row. Returns (id,
        copies)."""
        row = self.conn.execute(
            "SELECT id, copies FROM refused WHERE kind = ? AND topic = ? AND digest = ? AND "
            "id NOT IN (SELECT refused_id FROM accepted)", (kind, topic, digest)).fetchone()
        if row is None:
            return self.add_refused(topic, body, why, kind, None, key, digest), 1
        self.conn.execute("UPDATE refused SET copies = copies + 1, last = ? WHERE id = ?",
                          (time.time(), row[0]))
        return row[0], row[1] + 1

    def has_refused(self, kind, key):
        """Whether a result (table, inc, seq) is kept as refused of this kind."""
        return self.conn.execute(
            "SELECT 1 FROM refused WHERE kind = ? AND table_id = ? AND inc = ? AND seq = ?",
            (kind,) + tuple(key)).fetchone() is not None

    def late_row(self, key):
        """The row of a result (table, inc, seq) kept as late and not accepted, or None."""
        row = self.conn.execute(
            "SELECT id FROM refused WHERE kind = 'late' AND table_id = ? AND inc = ? AND "
            "seq = ? AND id NOT IN (SELECT refused_id FROM accepted)", tuple(key)).fetchone()
        return row[0] if row else None

    def refusal(self, rid):
        """One refused message by its id, as a dict ("body" as stored: the whole message
        for late, conflict and held ones), or None."""
        row = self.conn.execute(
            "SELECT id, at, topic, body, why, kind, code, table_id, inc, seq FROM refused "
            "WHERE id = ?", (rid,)).fetchone()
        return _held(row) if row else None

    def refusals(self, kind=None):
        """Every refused message (of that kind), oldest first, as refusal() has them."""
        sql = "SELECT id, at, topic, body, why, kind, code, table_id, inc, seq FROM refused"
        args = ()
        if kind is not None:
            sql += " WHERE kind = ?"
            args = (kind,)
        return [_held(row) for row in self.conn.execute(sql + " ORDER BY id", args)]

    def refused_row(self, rid):
        """(topic, body bytes, why) of a refused row, or None."""
        row = self.conn.execute("SELECT topic, body, why FROM refused WHERE id = ?",
                                (rid,)).fetchone()
        if row is None:
            return None
        body = row[1]
        return row[0], body.encode() if isinstance(body, str) else bytes(body or b""), row[2]

    def refused_result(self, rid):
        """(table, result) a refused row holds whole; raises ValueError (the reason) if the
        row is not a whole result on a table's result topic."""
        from club.standings import validate

        row = self.refused_row(rid)
        if row is None:
            raise ValueError("no row %d among the results that did not count" % rid)
        topic, body, _why = row
        table = wire.table_of(topic, wire.RESULT)
        if table is None:
            raise ValueError("row %d is not a table's result (%s)" % (rid, topic))
        try:
            msg = json.loads(body)
            validate(msg)
        except ValueError as e:
            raise ValueError("row %d is not a whole result: %s" % (rid, e)) from None
        return table, msg

    def not_counted(self, limit=200):
        """The refused rows that were not accepted, newest first: [{"id","at","topic",
        "why","body","copies"}] (body as text, at most 300 characters; copies: how many
        times that bad message came)."""
        rows = self.conn.execute(
            "SELECT id, at, topic, body, why, copies FROM refused WHERE id NOT IN "
            "(SELECT refused_id FROM accepted) ORDER BY id DESC LIMIT ?", (limit,))
        out = []
        for rid, at, topic, body, why, copies in rows:
            if not isinstance(body, str):
                body = bytes(body or b"").decode("utf-8", "replace")
            out.append({"id": rid, "at": at, "topic": topic, "why": why, "body": body[:300],
                        "copies": copies})
        return out

    def not_counted_counts(self):
        """{kind: how many rows of it do not count}, counted in SQL over every row (not
        accepted), with the outcome's word: "held", "conflict", "late", "refused" (a
        message that is no result, kind "bad")."""
        out = {"held": 0, "conflict": 0, "late": 0, "refused": 0}
        for kind, n in self.conn.execute(
                "SELECT kind, COUNT(*) FROM refused WHERE id NOT IN "
                "(SELECT refused_id FROM accepted) GROUP BY kind"):
            word = WORDS.get(kind, "refused")
            out[word] += n
        return out

    def not_counted_page(self, before=None, limit=40):
        """A page of the rows not accepted, newest first: those with an id below `before`
        (None: from the newest), at most `limit`, as refusal() has them with "kind" the
        outcome's word and body as text; and how many rows are newer than the page."""
        cond = "id NOT IN (SELECT refused_id FROM accepted)"
        args = ()
        newer = 0
        if before is not None:
            newer = self.conn.execute("SELECT COUNT(*) FROM refused WHERE %s AND id >= ?"
                                      % cond, (before,)).fetchone()[0]
            cond += " AND id < ?"
            args = (before,)
        rows = self.conn.execute(
            "SELECT id, at, topic, body, why, kind, code, table_id, inc, seq, copies "
            "FROM refused WHERE %s ORDER BY id DESC LIMIT ?" % cond, args + (limit,))
        out = []
        for row in rows:
            r = _held(row[:10])
            r["copies"] = row[10]  # how many times that bad message came
            if not isinstance(r["body"], str):
                r["body"] = bytes(r["body"] or b"").decode("utf-8", "replace")
            r["kind"] = WORDS.get(r["kind"], "refused")
            out.append(r)
        return out, newer

    def accepted_of(self, rid):
        row = self.conn.execute("SELECT id FROM accepted WHERE refused_id = ?",
                                (rid,)).fetchone()
        return row[0] if row else None

    def add_accepted(self, rid, why, result=None):
        """The director's accept of refused row rid; result: what counts when it is not the
        row's result as it came (its entries scored otherwise, or the director gave it)."""
        self.conn.execute(
            "INSERT INTO accepted (at, refused_id, why, result) VALUES (?, ?, ?, ?)",
            (time.time(), rid, why, json.dumps(result, separators=(",", ":"))
             if result is not None else None))

    def add_director(self, via, request, verdict, reason):
        self.conn.execute(
            "INSERT INTO director (at, via, request, verdict, reason) VALUES (?, ?, ?, ?, ?)",
            (time.time(), via, json.dumps(request, sort_keys=True), verdict, reason))

    def director_log(self, limit=200):
        """The director's actions, newest first: [{"at","via","request","verdict","reason"}]."""
        return [{"at": at, "via": via, "request": json.loads(req), "verdict": verdict,
                 "reason": reason} for at, via, req, verdict, reason in self.conn.execute(
                     "SELECT at, via, request, verdict, reason FROM director "
                     "ORDER BY id DESC LIMIT ?", (limit,))]

    def add_correction(self, fix):
        cur = self.conn.execute(
            "INSERT INTO corrections (at, table_id, inc, match, deal, action, result, why) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (time.time(), fix["table"], fix["inc"], fix["match"], fix["deal"], fix["action"],
             json.dumps(fix.get("result")) if fix.get("result") else None, fix["why"]))
        return cur.lastrowid

    def add_seating(self, table, seat):
        self.conn.execute("INSERT INTO seating (at, round, table_id, body) VALUES (?, ?, ?, ?)",
                          (time.time(), seat["round"], table, json.dumps(seat)))

    def audit(self):
        """Every correction, oldest first, as dicts."""
        return [_fix(row) for row in self.conn.execute(
            "SELECT table_id, inc, match, deal, action, result, why, id FROM corrections "
            "ORDER BY id")]

    def byes(self):
        """{"round": [names]} of the byes the director gave (seat --bye)."""
        got = self.meta(BYES)
        return json.loads(got) if got else {}

    def meta(self, key):
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key, value):
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def del_meta(self, key):
        self.conn.execute("DELETE FROM meta WHERE key = ?", (key,))

    def commit(self):
        self.conn.commit()

    def close(self):
        self.conn.close()


def digest_of(msg):
    """A conflict's digest: the SHA-256 of its result as canonical JSON (the same result
    in any key order or spacing is the same message)."""
    return hashlib.sha256(json.dumps(msg, sort_keys=True, separators=(",", ":"))
                          .encode()).hexdigest()


def accept_entry(rid, table, msg, why):
    """The audit's entry for an accept of refused row rid (table's result msg)."""
    return {"table": table, "inc": msg["inc"], "match": msg["match"],
            "deal": msg.get("deal", 0), "seq": msg["seq"], "action": "accept",
            "result": msg, "why": why, "row": rid}


def _fix(row):
    table, inc, match, deal, action, result, why, cid = row
    return {"table": table, "inc": inc, "match": match, "deal": deal, "action": action,
            "result": json.loads(result) if result else None, "why": why, "id": cid}


def _held(row):
    """A refused row as a dict; a held result's fields as the standings list them."""
    rid, at, topic, body, why, kind, code, table, inc, seq = row
    if isinstance(body, bytes):
        try:
            body = body.decode()
        except UnicodeError:
            pass
    out = {"id": rid, "at": at, "topic": topic, "body": body, "why": why, "kind": kind,
           "code": code, "table": table, "inc": inc, "seq": seq}
    if table is not None:  # a result: which match and deal it is
        try:
            msg = json.loads(body)
            out.update(match=msg["match"], deal=msg.get("deal"), what=msg["kind"])
        except (ValueError, KeyError, TypeError):
            pass
    return out
