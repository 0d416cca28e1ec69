"""The match as the device keeps it: every committed action is on flash when its call returns.

Session(store) sits between the keys and the scoring core. Each action is done in RAM
first (a refusal writes nothing), then written:

  enter(rec)         one journal line, the record in hex          e.g. "0100a1"
  undo()             one journal line "u"
  redo()             one journal line "r"
  replace_last(rec)  one journal line "u " and the record in hex  e.g. "u 0100a1"
                     (undo, then enter: one line, so a power cut keeps the old or the new)
  new_match()        a checkpoint (summary of the new match, empty journal)

enter and replace_last return (rolled, why): whether the entry ended the deal (the next one
begun), and "" when it counted, else the core's refusal code (a key's entry refused is an
everyday thing at the table; the core's check, a trick's suit guesses included, is the only
one). The other actions raise Refused.

An entry (or redo, or replacement) that ends a deal is written as a checkpoint instead of a
journal line: the summary holds the match at the new deal's start, so a boot replays at most
the current deal. If the write fails (OSError), the action is taken back in RAM (to its
Match.mark()) and the error re-raised: what the screen shows is what the flash holds.
Journals written before "u <record>" existed read as they always did.

The summary is JSON: Match.summary() (setup line, totals at the deal's start, finished deals,
the deal before, the redo stack) plus "log" (the current deal's records in hex, empty at a
deal's end) and "id" (a match number, so statistics count each match once). It is written
in pieces (_summary), the finished deals last. The journal
may also hold "n <setup line>" (a new match); boot() replays it, this module never writes it.

Flash per action: one append, or one checkpoint when a deal ends; nothing else, except
after a failure (see _dirty) and the settings/stats blobs, written only when they change.
"""

import sys

from compat import dumps
from loader import drop
from sixtysix.errors import Refused
from sixtysix.match import Match


def _drop_saved():
    """Drop sixtysix/saved.py (the summary's code), sixtysix/setup.py (a match's start and
    rebuild, with sixtysix/names.py) and sixtysix/rulesets.py (the rule sets' table) once a
    checkpoint, a new match or the boot is done with them. On the board only:
    on CPython (the host tests) their heap is no concern, and importing them again at every
    checkpoint made the power-cut sweeps much slower."""
    if sys.implementation.name == "micropython":
        drop("setup")


# The package's submodules become attributes of this module while they run (loader.py
# drops them again). restore and blobs run at boot; stats first runs when a match ends, and
# its name would then grow this module's dict for good (+96 B after the first match): so
# its slot is here from the start, and it is imported as `import session.stats as stats`
# (a `from session import stats` would take this None).
stats = None


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
        # Counts the changes to the match written so far (entries, undo, redo, a new match):
        # a reader (the club link) compares it with the count it last saw.
        self.changes = 0
        self._settings = None
        # The stats blob's "last" (the match counted last) once read, None before: the blob
        # itself is read when wanted, not kept (a dict per player would stay in the heap).
        self._last = None

    # ---- boot ----

    def boot(self):
        """Load and rebuild the match (session/restore.py). Returns short problem messages;
        never raises on bad data: whatever cannot be restored is reported, and the match
        is the longest valid prefix of what was saved (an empty Match if nothing is left)."""
        from session import restore

        try:
            self.match, self.match_id, self._dirty, problems = restore.boot(self.store)
            return problems
        finally:
            del restore
            drop("restore")
            _drop_saved()

    # ---- actions ----

    def new_match(self, setup_line):
        """Start a new match (a `new ...` line). Refused: nothing written."""
        m = Match()
        if not setup_line.startswith("new"):
            raise Refused("syntax")
        try:
            m.enter_line(setup_line)
            last = self._last
            if last is None:
                last = self._stats_blob().get("last", 0)
            mid = max(self.match_id, last) + 1
            self.store.checkpoint(self._summary(m, mid))
        finally:
            _drop_saved()
        self.match = m
        self.match_id = mid
        self._dirty = False
        self.changes += 1

    def enter(self, rec):
        """Enter one event record (bytes): (rolled, why) as the module says. Refused:
        nothing changed, nothing written."""
        m = self.match
        token = m.mark()
        try:
            rolled = m.enter(rec)
        except Refused as e:
            return False, e.code
        self._commit(rec.hex(), rolled, token)
        return rolled, ""

    def undo(self):
        """Take back the last entry; returns its record."""
        m = self.match
        token = m.mark()
        rec = m.undo()
        self._commit("u", False, token)
        return rec

    def redo(self):
        """Enter again the last entry taken back."""
        m = self.match
        token = m.mark()
        self._commit("r", m.redo(), token)

    def replace_last(self, rec):
        """Put rec (bytes) in place of the last entry, as one write: a suit given to the
        trick just entered. Checked in its place first; (rolled, why) as enter returns,
        and refused, nothing has changed."""
        m = self.match
        token = m.mark()
        try:
            m.undo()
            rolled = m.enter(rec)
        except BaseException as e:
            m.rollback(token)
            if isinstance(e, Refused):
                return False, e.code
            raise
        self._commit("u " + rec.hex(), rolled, token)
        return rolled, ""

    def _commit(self, line, rolled, token):
        """Write an action done in RAM (rolled: it ended a deal); if that fails, take it
        back to Match.mark()'s token and re-raise."""
        m = self.match
        try:
            if rolled or self._dirty:
                try:
                    self.store.checkpoint(self._summary(m, self.match_id))
                    self._dirty = False
                    self.changes += 1
                    return
                except ValueError:
                    # The summary outgrew a blob (some 600 deals): the journal goes on,
                    # boots replay more, and a failed write is no longer put right.
                    pass
                finally:
                    _drop_saved()
            self.store.append(line)
            self.changes += 1
        except BaseException:
            m.rollback(token)
            self._dirty = True  # the failed write may or may not be on flash
            raise

    def _summary(self, m, mid):
        """The summary for Store.checkpoint: a function that makes its JSON pieces afresh
        at each call: all but the history in one piece, then the history's base64 in pieces
        of 128 characters (Match.hist_b64). The store runs it for the size, the checksum
        and the writing, so a checkpoint holds one piece at a time, however long the match.
        The pieces joined are one JSON object."""
        s = m.summary(hist=False)
        s["log"] = [rec.hex() for rec in m.records()]
        s["id"] = mid
        head = dumps(s)[:-1]  # the JSON ends in "}": the history goes in before it

        def pieces():
            yield head
            yield ',"hist":"'
            for piece in m.hist_b64():
                yield piece
            yield '"}'

        return pieces

    # ---- settings and statistics (session/blobs.py, session/stats.py) ----

    def _blob(self, name):
        """The blob `name` as a dict (session/blobs.py, dropped again after the read)."""
        from session import blobs

        try:
            return blobs.load(self.store, name)
        finally:
            del blobs
            drop("blobs")

    def load_settings(self):
        """The settings as a dict ({} if none or damaged)."""
        if self._settings is None:
            self._settings = self._blob("settings")
        return dict(self._settings)

    def save_settings(self, settings):
        """Store the settings if they changed; returns True if written."""
        if settings == self.load_settings():
            return False
        self.store.save_blob("settings", dumps(settings))
        self._settings = dict(settings)
        return True

    def _stats_blob(self):
        """The stats blob as a dict, read from the flash at each call (its "last" is kept)."""
        stats = self._blob("stats")
        self._last = stats.get("last", 0)
        return stats

    def load_stats(self):
        """Lifetime statistics per player name: {name: {"played", "won" (matches), "deals"
        (deals won), "won2", "won3" (deals won with 2, with 3 or more game points)}}."""
        return self._stats_blob().get("players") or {}

    def record_match_end(self):
        """Add a finished match to the lifetime statistics, once per match (session/stats.py).

        Returns True if the stats blob was written (False: match not over, or counted)."""
        import session.stats as stats

        try:
            new = stats.record(self.store, self.match.state, self.match_id, self._stats_blob,
                               dumps)
        finally:
            del stats
            drop("stats")
        if new is None:
            return False
        self._last = new["last"]
        return True
