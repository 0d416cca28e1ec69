"""The match as the device keeps it: every committed action is on flash when its call returns.

Session(store) sits between the keys and the scoring core. Each action is done in RAM
first (a refusal writes nothing), then written:

  enter(rec)    one journal line, the record in hex          e.g. "0100a1"
  undo()        one journal line "u"
  redo()        one journal line "r"
  new_match()   a checkpoint (summary of the new match, empty journal)

An entry (or redo) that ends a deal is written as a checkpoint instead of a journal line:
the summary holds the match at the new deal's start, so a boot replays at most the
current deal. If the write fails (OSError), the action is taken back in RAM and the error
re-raised: what the screen shows is what the flash holds.

The summary is JSON: Match.summary() (setup line, totals at the deal's start, finished deals,
the deal before, the redo stack) plus "log" (the current deal's records in hex, empty at a
deal's end) and "id" (a match number, so statistics count each match once). The journal
may also hold "n <setup line>" (a new match); boot() replays it, this module never writes it.

Flash per action: one append, or one checkpoint when a deal ends; nothing else, except
after a failure (see _dirty) and the settings/stats blobs, written only when they change.
"""

import json

from sixtysix.errors import Refused
from sixtysix.match import Match


def _dumps(obj):
    try:
        return json.dumps(obj, separators=(",", ":"))
    except TypeError:  # an older MicroPython json without separators
        return json.dumps(obj)


def _short(problem):
    """A store problem for the screen: drop the "kept as ..." tail."""
    i = problem.find(", kept")
    return problem[:i] if i > 0 else problem


class Session:
    """The match plus its storage. Call boot() once, then the actions."""

    def __init__(self, store):
        self.store = store
        self.match = Match()
        self.match_id = 0  # numbers the matches; 0: none
        # The journal alone does not bring the flash up to RAM (a failed write, a
        # journal line boot could not replay, a deal end whose checkpoint was cut):
        # the next action is written as a checkpoint instead of a journal line.
        self._dirty = False
        self._settings = None
        self._stats = None

    # ---- boot ----

    def boot(self):
        """Load and rebuild the match. Returns short problem messages; never raises on bad
        data: whatever cannot be restored is reported, and the match is the longest valid
        prefix of what was saved (an empty Match if nothing is left)."""
        self._dirty = False
        try:
            got = self.store.load()
        except Exception:  # an unreadable flash must not stop the boot
            self._rebuild(None, ())
            self._dirty = True
            return ["storage: read error"]
        msgs = [_short(p) for p in got.problems]
        summary = None
        if got.summary is not None:
            try:
                summary = json.loads(got.summary)
                self._rebuild(summary, ())
            except Exception:  # not JSON, not a summary, or refused by the core
                msgs.append("summary: unreadable")
                summary = None
        if summary is None:
            self._rebuild(None, ())
        lines = got.events
        done = self._replay(lines)
        if done < len(lines):
            # Start again up to the last good line, so that a line which failed halfway
            # leaves nothing behind; the next action checkpoints past the bad lines.
            self._rebuild(summary, lines[:done])
            self._dirty = True
            if self.match.state is not None:
                msgs.append("journal: line %d refused, %d dropped" % (done + 1, len(lines) - done))
        if self.match.state is None and (msgs or lines):
            msgs.append("summary lost: match restarted")
        return msgs

    def _rebuild(self, summary, lines):
        m = Match()
        self.match = m
        self.match_id = 0
        if summary is not None:
            self.match_id = summary.get("id", 0)
            m.restore(summary, [bytes.fromhex(h) for h in summary.get("log") or ()])
        self._replay(lines)

    def _replay(self, lines):
        """Apply journal lines; return how many applied (stops at the first failure)."""
        m = self.match
        for i in range(len(lines)):
            line = lines[i]
            prev = m.prev
            try:
                if line == "u":
                    m.undo()
                elif line == "r":
                    m.redo()
                elif line.startswith("n "):
                    m = Match()
                    m.enter_line(line[2:])
                    self.match = m
                    self.match_id += 1
                    prev = None
                else:
                    m.enter(bytes.fromhex(line))
            except Exception:  # Refused, or a line that is no record
                return i
            if m.prev is not prev and m.prev is not None and not m.log:
                self._dirty = True  # a deal ended after the summary: checkpoint next time
        return len(lines)

    # ---- actions ----

    def new_match(self, setup_line):
        """Start a new match (a `new ...` line). Refused: nothing written."""
        m = Match()
        if not setup_line.startswith("new"):
            raise Refused("syntax")
        m.enter_line(setup_line)
        mid = max(self.match_id, self._load_stats().get("last", 0)) + 1
        self.store.checkpoint(self._summary_text(m, mid))
        self.match = m
        self.match_id = mid
        self._dirty = False

    def enter(self, rec):
        """Enter one event record (bytes). Refused: nothing written."""
        m = self.match
        prev, redo = m.prev, m.redo_stack
        m.enter(rec)
        self._commit(rec.hex(), prev, redo, m.undo)

    def undo(self):
        """Take back the last entry; returns its record."""
        m = self.match
        prev, redo = m.prev, m.redo_stack[:]
        rec = m.undo()
        self._commit("u", prev, redo, m.redo)
        return rec

    def redo(self):
        """Enter again the last entry taken back; returns its record."""
        m = self.match
        prev, redo = m.prev, m.redo_stack[:]
        rec = m.redo()
        self._commit("r", prev, redo, m.undo)
        return rec

    def _commit(self, line, prev, redo, revert):
        """Write an action done in RAM; if that fails, take it back and re-raise."""
        m = self.match
        rolled = m.prev is not prev and m.prev is not None and not m.log
        try:
            if rolled or self._dirty:
                try:
                    self.store.checkpoint(self._summary_text(m, self.match_id))
                    self._dirty = False
                    return
                except ValueError:
                    # The summary outgrew a blob (some 600 deals): the journal goes on,
                    # boots replay more, and a failed write is no longer put right.
                    pass
            self.store.append(line)
        except BaseException:
            revert()
            m.prev = prev
            m.redo_stack = redo
            self._dirty = True  # the failed write may or may not be on flash
            raise

    def _summary_text(self, m, mid):
        s = m.summary()
        s["log"] = [rec.hex() for rec in m.records()]
        s["id"] = mid
        return _dumps(s)

    # ---- settings and statistics ----

    def _load_blob(self, name):
        text = self.store.load_blob(name)
        if text is not None:
            try:
                obj = json.loads(text)
                if isinstance(obj, dict):
                    return obj
            except ValueError:
                pass
        return {}

    def load_settings(self):
        """The settings as a dict ({} if none or damaged)."""
        if self._settings is None:
            self._settings = self._load_blob("settings")
        return dict(self._settings)

    def save_settings(self, settings):
        """Store the settings if they changed; returns True if written."""
        if self._settings is None:
            self._settings = self._load_blob("settings")
        if settings == self._settings:
            return False
        self.store.save_blob("settings", _dumps(settings))
        self._settings = dict(settings)
        return True

    def _load_stats(self):
        if self._stats is None:
            self._stats = self._load_blob("stats")
        return self._stats

    def load_stats(self):
        """Lifetime statistics per player name: {name: {"played", "won" (matches), "deals"
        (deals won), "won2", "won3" (deals won with 2, with 3 or more game points)}}."""
        return self._load_stats().get("players") or {}

    def record_match_end(self):
        """Add a finished match to the lifetime statistics, once per match.

        Returns True if the stats blob was written (False: match not over, or counted)."""
        s = self.match.state
        if s is None or not s.over:
            return False
        stats = self._load_stats()
        if self.match_id and stats.get("last") == self.match_id:
            return False
        players = {}
        players.update(stats.get("players") or {})
        pairs = s.rules.pairs
        for i in range(len(s.names)):
            side = i % 2 if pairs else i
            old = players.get(s.names[i])
            if not isinstance(old, dict):
                old = {}
            row = {}
            for key, add in (("played", 1), ("won", int(s.winner == side)),
                             ("deals", s.won[side]), ("won2", s.won2[side]),
                             ("won3", s.won3[side])):
                row[key] = old.get(key, 0) + add
            players[s.names[i]] = row
        new = {"last": self.match_id, "players": players}
        self.store.save_blob("stats", _dumps(new))
        self._stats = new
        return True
