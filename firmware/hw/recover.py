"""A store's boot: read the summary and the journal, keep damaged files, repair.

Store.load() (hw/storage.py, whose docstring has the file formats and the protocol) runs
this once per boot and drops the module again: on the board every imported module's code
is heap, and none of this is needed between boots, but after a failed append (the next
append loads again first). Store.load_blob reads the settings and statistics blobs through
it too, loading it for the call.
"""

from hw.fileformat import (
    _JOURNAL,
    _MAG_JOURNAL,
    _MAG_SUMMARY,
    _SUMMARY,
    MAX_BLOB,
    MAX_LINE,
    VERSION,
    _hex,
    crc32,
)

_MAXREC = MAX_LINE + 10  # line + " " + 8 hex digits + "\n"
_ENOENT = 2


class _Bad(Exception):
    """Internal: a file's content is unusable; args[0] is the reason."""


def _num(field):
    # Strict: int() would also take "+1", " 1" or "1_0".
    if not field or not field.isdigit() or len(field) > 9:
        raise _Bad("unreadable header")
    return int(field)


def _check_header(fields, magic, count):
    if len(fields) < 2 or fields[0] != magic:
        raise _Bad("unreadable header")
    if fields[1] != b"%d" % VERSION:
        if fields[1].isdigit() and len(fields[1]) < 6:
            raise _Bad("unknown format version " + fields[1].decode())
        raise _Bad("unreadable header")
    if len(fields) != count:
        raise _Bad("unreadable header")


class Loaded:
    """What load() found: summary text (or None), event lines after it, problems."""

    def __init__(self, summary, events, problems, gen):
        self.summary = summary
        self.events = events
        self.problems = problems
        self.gen = gen

    def __iter__(self):
        return iter((self.summary, self.events, self.problems))


def keep_bad(s, name, copy):
    """Keep name as name.bad: a rename, or a copy when the file stays in use."""
    bad = name + ".bad"
    try:
        if not copy:
            s._fs.rename(s._p(name), s._p(bad))
            return bad
        src = s._open(s._p(name), "rb")
        try:
            dst = s._open(s._p(bad), "wb")
            try:
                while True:
                    chunk = src.read(256)
                    if not chunk:
                        break
                    s._write(dst, chunk)
            finally:
                dst.close()
        finally:
            src.close()
    except OSError:
        return "nothing (could not write " + bad + ")"
    return bad


# -- packed files (summary and blobs): Store.load_blob reads blobs through these too --


def open_header(s, name, magic, count):
    """Open one of our files and read its header line: (file, line, fields), or None
    if the file does not exist. Raises _Bad, with the file closed, for a bad header."""
    try:
        f = s._open(s._p(name), "rb")
    except OSError as e:
        if e.args[0] == _ENOENT:
            return None
        raise
    try:
        line = f.readline(64)
        if not line.endswith(b"\n"):
            raise _Bad("unreadable header")
        fields = line[:-1].split(b" ")
        _check_header(fields, magic, count)
    except Exception:
        f.close()
        raise
    return f, line, fields


def unpack(s, name, magic):
    """Return (body, gen) of a packed file, or None if it does not exist.

    Raises _Bad if it exists but is not a valid file of this kind.
    """
    got = open_header(s, name, magic, 5)
    if got is None:
        return None
    f, line, fields = got
    try:
        gen = _num(fields[2])
        size = _num(fields[3])
        if size > MAX_BLOB:
            raise _Bad("unreadable header")
        body = f.read(size + 1)
    finally:
        f.close()
    if len(body) != size:
        raise _Bad("length %d, header says %d" % (len(body), size))
    head = line[: len(line) - 9]
    if _hex(crc32(body, crc32(head))) != fields[4]:
        raise _Bad("bad checksum")
    return body, gen


def load_packed(s, name, magic, problems):
    """(text, gen) of a valid packed file, (None, None) if missing or damaged."""
    try:
        got = unpack(s, name, magic)
        if got is None:
            return None, None
        return got[0].decode(), got[1]
    except _Bad as e:
        reason = e.args[0]
    except UnicodeError:
        reason = "not UTF-8"
    except OSError:
        reason = "read error"
    problems.append("%s: %s, kept as %s" % (name, reason, keep_bad(s, name, copy=False)))
    return None, None


def _scan_journal(s):
    """Read the journal without side effects.

    Returns None if there is none, else (gen, events, crc, damage) where damage is
    None or (kind, byte offset, records dropped). Raises _Bad for a bad header.
    """
    got = open_header(s, _JOURNAL, _MAG_JOURNAL, 4)
    if got is None:
        return None
    f, line, fields = got
    try:
        gen = _num(fields[2])
        expect, crc = s._journal_header(gen)
        if expect != line:
            raise _Bad("bad header checksum")
        pos = len(line)
        events = []
        damage = None
        while True:
            line = f.readline(_MAXREC)
            if not line:
                break
            if line[-1] != 10:
                more = f.read(1) if len(line) == _MAXREC else b""
                if not more:
                    damage = ("torn", pos, 1)
                    break
                line += more
            kind = "bad"
            c = crc
            if len(line) > 10 and line[-1] == 10 and line[-10] == 32:
                c = crc32(line[:-9], crc)
                if _hex(c) == line[-9:-1]:
                    try:
                        events.append(line[:-10].decode())
                        kind = None
                    except UnicodeError:
                        pass
            if kind:
                dropped = 1
                while True:
                    rest = f.readline(_MAXREC)
                    if not rest:
                        break
                    if rest[-1] == 10:
                        dropped += 1
                damage = (kind, pos, dropped)
                break
            crc = c
            pos += len(line)
    finally:
        f.close()
    return gen, events, crc, damage


def load(s):
    """Store.load(): read summary and journal; repair what is damaged. Never raises on
    bad data."""
    try:
        s._close_journal()
    except OSError:
        pass
    s._loaded = True
    s._carry = []
    problems = []
    for name in (_SUMMARY, _JOURNAL):
        s._remove_quiet(name + ".tmp")
    summary, sgen = load_packed(s, _SUMMARY, _MAG_SUMMARY, problems)
    summary_lost = bool(problems)
    try:
        scan = _scan_journal(s)
    except _Bad as e:
        kept = keep_bad(s, _JOURNAL, copy=False)
        problems.append("journal: %s, kept as %s" % (e.args[0], kept))
        scan = None
    except OSError:
        # Keep the unread events out of the way of the next append's fresh journal.
        problems.append("journal: read error, kept as " + keep_bad(s, _JOURNAL, copy=False))
        scan = None
    events = []
    gen = sgen or 0
    s._jexists = False
    s._crc = 0
    if scan is not None:
        jgen, jevents, crc, damage = scan
        if sgen is not None and jgen < sgen:
            # Cut between checkpoint steps 2 and 3: these events are in the summary.
            s._remove_quiet(_JOURNAL)
        elif sgen is not None and jgen > sgen:
            kept = keep_bad(s, _JOURNAL, copy=False)
            problems.append(
                "journal: generation %d but summary is %d, kept as %s" % (jgen, sgen, kept)
            )
        else:
            if sgen is None and (jgen > 0 or summary_lost):
                problems.append("summary: missing, journal continues generation %d" % jgen)
            gen = jgen
            events = jevents
            s._crc = crc
            s._jexists = True
            if damage is not None:
                kind, pos, dropped = damage
                kept = keep_bad(s, _JOURNAL, copy=True)
                if kind == "torn":
                    msg = "journal: dropped torn record at byte %d" % pos
                else:
                    msg = "journal: bad record at byte %d, dropped %d record%s" % (
                        pos,
                        dropped,
                        "" if dropped == 1 else "s",
                    )
                problems.append(msg + ", kept copy as " + kept)
                try:
                    s._crc = s._rewrite_journal(gen, events)
                except OSError:
                    # Never append after a torn tail: the next append rewrites it all.
                    s._carry = events
                    s._jexists = False
    s.gen = gen
    s.problems.extend(problems)
    return Loaded(summary, events, problems, gen)
