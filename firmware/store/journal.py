"""Power-safe store: an append-only event journal plus atomically replaced blobs.

Files in the root folder (format version 1, text headers, CRC-32 as 8 lowercase hex digits):

  summary       "S66S 1 <gen> <len> <crc>\\n" + summary text      (checkpoint)
  journal       "S66J 1 <gen> <crc>\\n", then one record per event:
                "<line> <crc>\\n"                                   (append)
  <name>.blob   "S66B 1 0 <len> <crc>\\n" + text                  (save_blob / load_blob)
  *.tmp         a write in progress: never read, removed by load()
  *.bad         a copy of the latest damaged file of that name, kept for inspection

A header CRC covers the header fields and the body. Journal records are chained: a record's
CRC is computed over "<line> " seeded with the previous record's CRC (the first one with the
header's CRC), so a record only verifies in its own place in its own generation's journal:
a duplicated, reordered or foreign record fails like a flipped bit does.

Protocol. littlefs renames atomically and commits a file's new data at flush()/close().
  append(line)   one write of one record to the open journal, then flush. When the current
                 generation has no journal yet, header + record go to journal.tmp, which is
                 closed and renamed over journal (so a journal never has a torn header).
                 After a failed append the next one first loads (and repairs) again, so a
                 record never lands after a torn one.
  checkpoint(s)  1. write summary.tmp with generation gen+1, close
                 2. rename summary.tmp -> summary          (the commit point)
                 3. remove journal
  load()         summary generation G, journal generation J:
                 J == G   the summary plus the journal's events;
                 J < G    power was cut between 2 and 3: the journal's events are already
                          inside the summary, so the journal is dropped, never replayed;
                 J > G, or the summary is missing or corrupt: reported as a problem.
A cut before step 2 leaves the old summary and the whole journal: the checkpoint did not
happen. A cut after step 2 leaves the new summary, and the old journal loses by generation.
A cut inside an append can leave a torn last record on file systems that keep partial
writes (littlefs does not): it fails its CRC, is dropped, and its append() never returned.

load() keeps the longest valid prefix of the journal and never raises on bad data: a damaged
file is kept as <name>.bad, and the journal is repaired by writing the valid prefix to
journal.tmp and renaming it over journal (never rewritten in place), so the next append
continues cleanly. Nothing is written except by append, checkpoint and save_blob, and by
load() only when it repairs damage. bytes_written counts every byte this store writes.

Runs unmodified on MicroPython (no os.path, no fsync) and CPython: all I/O goes through
`fs` (os-like: rename, remove, stat, mkdir) and `opener` (open-like), so tests inject faults.
"""

import os

from compat import const
from loader import drop

from store.fileformat import (
    JOURNAL,
    MAG_BLOB,
    MAG_JOURNAL,
    MAG_SUMMARY,
    MAX_BLOB,
    MAX_LINE,
    SUMMARY,
    VERSION,
    crc32,
    crc_hex,
)

# What a blob's name may be made of.
_NAME_CHARS = const("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def _chunks(head, pieces):
    """A packed file's chunks as they are written: the header, then each piece encoded."""
    yield head
    for piece in pieces():
        yield piece.encode()


class Store:
    """The journal, summary and blobs in one folder. Call load() first, once per boot."""

    def __init__(self, root, fs=os, opener=None):
        if opener is None:
            # CPython's os.open is the low-level fd call, not a file opener.
            opener = open if fs is os else fs.open
        self._fs = fs
        self._open = opener
        self._root = root
        self._root_ok = root in ("", "/")
        self.bytes_written = 0
        self.problems = []
        self.gen = 0
        self._loaded = False
        self._jf = None  # journal kept open for append between flushes
        self._jexists = False  # a journal of generation self.gen exists and is clean
        self._crc = 0  # CRC of the journal's last record (chain seed for the next)
        self._carry = []  # valid events the next journal must start with (failed repair)

    # ---- paths and small helpers ----

    def _p(self, name):
        root = self._root
        if not root:
            return name
        if root[-1] == "/":
            return root + name
        return root + "/" + name

    def _write(self, f, data):
        n = f.write(data)
        if n is None:
            n = len(data)
        self.bytes_written += n
        if n != len(data):
            raise OSError(28)  # ENOSPC: a short write

    def _remove_quiet(self, name):
        try:
            self._fs.remove(self._p(name))
        except OSError:
            pass

    def _write_atomic(self, name, chunks):
        if not self._root_ok:  # the folder, made at the first write
            try:
                self._fs.stat(self._root)
            except OSError:
                self._fs.mkdir(self._root)
            self._root_ok = True
        tmp = self._p(name + ".tmp")
        f = self._open(tmp, "wb")
        try:
            for chunk in chunks:
                self._write(f, chunk)
        finally:
            f.close()
        self._fs.rename(tmp, self._p(name))

    def _close_journal(self):
        """Close the journal file (appends stay durable without it)."""
        f = self._jf
        self._jf = None
        if f is not None:
            f.close()

    close = _close_journal  # the public name; store/repair.py calls the other

    # ---- packed files (summary and blobs) ----

    def _pack(self, magic, gen, pieces):
        """The file's chunks, header first. `pieces`: a function that returns the body's
        pieces (str) afresh at each call. It runs three times: for the header's size, for
        its checksum (which covers the header) and for the writing, so a long body is never
        in RAM whole, only a piece of it at a time. Raises ValueError before anything is
        written if the body is longer than MAX_BLOB."""
        size = 0
        for piece in pieces():
            size += len(piece.encode())
        if size > MAX_BLOB:
            raise ValueError("too long")
        head = b"%s %d %d %d " % (magic, VERSION, gen, size)
        crc = crc32(head)
        for piece in pieces():
            crc = crc32(piece.encode(), crc)
        return _chunks(head + crc_hex(crc) + b"\n", pieces)

    def save_blob(self, name, text):
        """Atomically replace a small settings/statistics blob (str)."""
        fname = self._blob_name(name)
        self._write_atomic(fname, self._pack(MAG_BLOB, 0, lambda: (text,)))

    def load_blob(self, name):
        """Return the blob's text, or None if missing or damaged (see self.problems). The
        reading is store/recover.py's, loaded for the call: blobs are read at boot, and after
        it only when a match ends or a list needs one."""
        fname = self._blob_name(name)
        self._remove_quiet(fname + ".tmp")
        from store import recover

        try:
            return recover.load_packed(self, fname, MAG_BLOB, self.problems)[0]
        finally:
            del recover
            drop("blob")

    def _blob_name(self, name):
        # A name of allowed characters only is left empty by stripping them.
        if not name or len(name) > 24 or name.strip(_NAME_CHARS):
            raise ValueError("blob name")
        return name + ".blob"

    # ---- journal ----

    def _journal_header(self, gen):
        head = b"%s %d %d" % (MAG_JOURNAL, VERSION, gen)
        crc = crc32(head)
        return head + b" " + crc_hex(crc) + b"\n", crc

    def _rewrite_journal(self, gen, events):
        """Write a clean journal of events through journal.tmp; return the chain CRC."""
        head, crc = self._journal_header(gen)
        recs = [head]
        for ev in events:
            rec = ev.encode() + b" "
            crc = crc32(rec, crc)
            recs.append(rec + crc_hex(crc) + b"\n")
        self._write_atomic(JOURNAL, recs)
        return crc

    # ---- the API ----

    def load(self):
        """Read summary and journal; repair what is damaged. Never raises on bad data.
        Returns a store.repair.Loaded. The code lives in store/repair.py, loaded for the call
        and dropped after it: on the board every module's code is heap, and this runs
        once per boot."""
        from store import repair

        try:
            return repair.load(self)
        finally:
            del repair
            drop("repair")

    def append(self, line):
        """Durably append one event line (str, no newline). Durable when this returns."""
        body = line.encode() + b" "
        if b"\n" in body or len(body) > MAX_LINE + 1:
            raise ValueError("event line")
        if not self._loaded:
            self.load()
        try:
            if self._jexists:
                crc = crc32(body, self._crc)
                jf = self._jf
                if jf is None:
                    jf = self._jf = self._open(self._p(JOURNAL), "ab")
                self._write(jf, body + crc_hex(crc) + b"\n")
                jf.flush()
            else:
                # First event of this generation: the header comes with it, atomically.
                crc = self._rewrite_journal(self.gen, self._carry + [line])
                self._carry = []
                self._jexists = True
        except BaseException:
            # The file may now end in a torn record: re-read (and repair) before the next
            # append, so that it never lands after garbage.
            self._loaded = False
            try:
                self._close_journal()
            except OSError:
                pass
            raise
        self._crc = crc

    def checkpoint(self, summary):
        """Atomically store the summary of everything so far and start an empty journal.
        `summary`: its text, a list of pieces of it (str), or a function that returns its
        pieces afresh at each call (see _pack): a long match's summary is then made and
        written a piece at a time, never held in RAM."""
        if not self._loaded:
            self.load()
        self._close_journal()
        gen = self.gen + 1
        if callable(summary):
            pieces = summary
        else:
            body = (summary,) if isinstance(summary, str) else summary

            def pieces():
                return body

        self._write_atomic(SUMMARY, self._pack(MAG_SUMMARY, gen, pieces))
        # Committed: from here on the old journal is stale by generation.
        self.gen = gen
        self._jexists = False
        self._carry = []
        # Housekeeping only: a journal left behind is stale by generation, and the next
        # append replaces it through a rename.
        self._remove_quiet(JOURNAL)
