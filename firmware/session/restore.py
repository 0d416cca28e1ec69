"""A session's boot: rebuild the match from the summary and the journal's lines.

Session.boot() (session/__init__.py) imports this module for the call and drops it after: on
the board every module's code lives in the heap, and this runs once per boot. The store's
own boot (reading, checking and repairing the files) is store/repair.py's.
"""

import json

from sixtysix.match import Match


def boot(store):
    """Load and rebuild the match. Returns (match, match id, dirty, problems): dirty when
    RAM is ahead of the flash's summary (the next action writes a checkpoint), problems
    short messages for the screen. Never raises on bad data: whatever cannot be restored
    is reported, and the match is the longest valid prefix of what was saved (an empty
    Match if nothing is left)."""
    try:
        got = store.load()
    except MemoryError:  # not the flash's fault: an empty match would overwrite it
        raise
    except Exception:  # an unreadable flash must not stop the boot
        return Match(), 0, True, ["storage: read error"]
    msgs = []
    for problem in got.problems:
        i = problem.find(", kept")  # for the screen: drop the "kept as ..." tail
        msgs.append(problem[:i] if i > 0 else problem)
    summary = None
    m, mid = Match(), 0
    if got.summary is not None:
        try:
            summary = json.loads(got.summary)
            m, mid = _rebuild(summary)
        except MemoryError:  # the heap's fault, not the summary's (see above)
            raise
        except Exception:  # not JSON, not a summary, or refused by the core
            msgs.append("summary: unreadable")
            summary = None
            m, mid = Match(), 0
    lines = got.events
    done, m, mid, dirty = _replay(m, mid, lines)
    if done < len(lines):
        # Start again up to the last good line, so that a line which failed halfway
        # leaves nothing behind; the next action checkpoints past the bad lines.
        m, mid = _rebuild(summary)
        done, m, mid, dirty = _replay(m, mid, lines[:done])
        dirty = True
        if m.state is not None:
            msgs.append("journal: line %d refused, %d dropped" % (done + 1, len(lines) - done))
    if m.state is None and (msgs or lines):
        msgs.append("summary lost: match restarted")
    return m, mid, dirty, msgs


def _rebuild(summary):
    """(match, match id) as the summary (None: none) left them."""
    m = Match()
    if summary is None:
        return m, 0
    m.restore(summary, [bytes.fromhex(h) for h in summary.get("log") or ()])
    return m, summary.get("id", 0)


def _replay(m, mid, lines):
    """Apply journal lines to m. Returns (how many applied: it stops at the first failure,
    the match and match id then, whether a deal ended after the summary)."""
    dirty = False
    for i in range(len(lines)):
        line = lines[i]
        rolled = False
        try:
            if line == "u":
                m.undo()
            elif line == "r":
                rolled = m.redo()
            elif line.startswith("n "):
                m = Match()
                m.enter_line(line[2:])
                mid += 1
            else:
                if line.startswith("u "):  # the last entry replaced by this one
                    m.undo()
                    line = line[2:]
                rolled = m.enter(bytes.fromhex(line))
        except MemoryError:  # the heap's fault, not the line's: dropping it would lose it
            raise
        except Exception:  # Refused, or a line that is no record
            return i, m, mid, dirty
        if rolled:
            dirty = True  # a deal ended after the summary: checkpoint next time
    return len(lines), m, mid, dirty
