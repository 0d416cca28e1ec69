"""A store's boot: read the summary and the journal, keep damaged files, repair.

Store.load() (store/journal.py, whose docstring has the file formats and the protocol) runs
this once per boot and drops the module again: on the board every imported module's code
is heap, and none of this is needed between boots, but after a failed append (the next
append loads again first). The packed files' reading is store/recover.py's, which a blob read
loads without this module.
"""

from store.fileformat import JOURNAL, MAG_JOURNAL, MAG_SUMMARY, MAX_LINE, SUMMARY, crc32, crc_hex
from store.recover import BadFile, header_num, keep_bad, load_packed, open_header


class Loaded:
    """What load() found: summary text (or None), event lines after it, problems."""

    def __init__(self, summary, events, problems, gen):
        self.summary = summary
        self.events = events
        self.problems = problems
        self.gen = gen

    def __iter__(self):
        return iter((self.summary, self.events, self.problems))


def _scan_journal(s):
    """Read the journal without side effects.

    Returns None if there is none, else (gen, events, crc, damage) where damage is
    None or (kind, byte offset, records dropped). Raises BadFile for a bad header.
    """
    got = open_header(s, JOURNAL, MAG_JOURNAL, 4)
    if got is None:
        return None
    f, line, fields = got
    maxrec = MAX_LINE + 10  # line + " " + 8 hex digits + "\n"
    try:
        gen = header_num(fields[2])
        expect, crc = s._journal_header(gen)
        if expect != line:
            raise BadFile("bad header checksum")
        pos = len(line)
        events = []
        damage = None
        while True:
            line = f.readline(maxrec)
            if not line:
                break
            if line[-1] != 10:
                more = f.read(1) if len(line) == maxrec else b""
                if not more:
                    damage = ("torn", pos, 1)
                    break
                line += more
            kind = "bad"
            c = crc
            if len(line) > 10 and line[-1] == 10 and line[-10] == 32:
                c = crc32(line[:-9], crc)
                if crc_hex(c) == line[-9:-1]:
                    try:
                        events.append(line[:-10].decode())
                        kind = None
                    except UnicodeError:
                        pass
            if kind:
                dropped = 1
                while True:
                    rest = f.readline(maxrec)
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
    for name in (SUMMARY, JOURNAL):
        s._remove_quiet(name + ".tmp")
    summary, sgen = load_packed(s, SUMMARY, MAG_SUMMARY, problems)
    summary_lost = bool(problems)
    try:
        scan = _scan_journal(s)
    except BadFile as e:
        kept = keep_bad(s, JOURNAL, copy=False)
        problems.append("journal: %s, kept as %s" % (e.args[0], kept))
        scan = None
    except OSError:
        # Keep the unread events out of the way of the next append's fresh journal.
        problems.append("journal: read error, kept as " + keep_bad(s, JOURNAL, copy=False))
        scan = None
    events = []
    gen = sgen or 0
    s._jexists = False
    s._crc = 0
    if scan is not None:
        jgen, jevents, crc, damage = scan
        if sgen is not None and jgen < sgen:
            # Cut between checkpoint steps 2 and 3: these events are in the summary.
            s._remove_quiet(JOURNAL)
        elif sgen is not None and jgen > sgen:
            kept = keep_bad(s, JOURNAL, copy=False)
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
                kept = keep_bad(s, JOURNAL, copy=True)
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
