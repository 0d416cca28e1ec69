"""The event's SQLite database: every result as it came, corrections, seatings, the audit.

results      one row per (table, inc, seq): the first copy that came; later copies are
             duplicates (INSERT OR IGNORE on the primary key), so a row is never rewritten
corrections  the director's corrections and voids, never deleted: the audit trail;
             the latest per (table, inc, match, deal) counts
seating      the director's rounds: table -> players, rules
refused      messages that were not results (bad JSON or schema), with the reason
gaps         a table's flash went back to an older copy: results lost_from..lost_to are
             here but no longer on the table, which numbers on from seq (its "gap" result)
meta         "closed" once the director closes the event

The service commits before it acks, so an acked result is on disk: a restart reloads the
whole event from here (load()) and nothing the tables were told is lost.
"""

import json
import sqlite3
import time

from club.standings import Event

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
  body BLOB, why TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS gaps (
  table_id TEXT NOT NULL, inc TEXT NOT NULL, seq INTEGER NOT NULL,
  lost_from INTEGER NOT NULL, lost_to INTEGER NOT NULL, at REAL NOT NULL,
  PRIMARY KEY (table_id, inc, seq));
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class Db:
    def __init__(self, path):
        self.conn = sqlite3.connect(path, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.executescript(SCHEMA)
        self.conn.commit()

    def load(self):
        """The Event as the database holds it."""
        ev = Event()
        rows = self.conn.execute(
            "SELECT table_id, body FROM results ORDER BY table_id, inc, seq")
        for table, body in rows:
            ev.apply(table, json.loads(body))
        for row in self.conn.execute(
                "SELECT table_id, inc, match, deal, action, result, why, id FROM corrections "
                "ORDER BY id"):
            ev.correct(_fix(row))
        for table, body in self.conn.execute(
                "SELECT table_id, body FROM seating ORDER BY id"):
            ev.seating[table] = json.loads(body)
        ev.closed = self.meta("closed") is not None
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

    def add_refused(self, topic, body, why):
        self.conn.execute("INSERT INTO refused (at, topic, body, why) VALUES (?, ?, ?, ?)",
                          (time.time(), topic, body, why))

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

    def meta(self, key):
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key, value):
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def commit(self):
        self.conn.commit()

    def close(self):
        self.conn.close()


def _fix(row):
    table, inc, match, deal, action, result, why, cid = row
    return {"table": table, "inc": inc, "match": match, "deal": deal, "action": action,
            "result": json.loads(result) if result else None, "why": why, "id": cid}
