"""A session's boot: rebuild the match from the summary and the journal's lines.

Session.boot() (app/session.py) imports this module for the call and drops it after: on
the board every module's code lives in the heap, and this runs once per boot. The store's
own boot (reading, checking and repairing the files) is store/repair.py's.
"""

import json

from sixtysix.match import Match


def boot(session):
    """Load and rebuild the match. Returns short problem messages; never raises on bad
    data: whatever cannot be restored is reported, and the match is the longest valid
    prefix of what was saved (an empty Match if nothing is left)."""
    session._dirty = False
    try:
        got = session.store.load()
    except MemoryError:  # not the flash's fault: an empty match would overwrite it
        raise
    except Exception:  # an unreadable flash must not stop the boot
        _rebuild(session, None, ())
        session._dirty = True
        return ["storage: read error"]
    msgs = []
    for problem in got.problems:
        i = problem.find(", kept")  # for the screen: drop the "kept as ..." tail
        msgs.append(problem[:i] if i > 0 else problem)
    summary = None
    if got.summary is not None:
        try:
            summary = json.loads(got.summary)
            _rebuild(session, summary, ())
        except MemoryError:  # the heap's fault, not the summary's (see above)
            raise
        except Exception:  # not JSON, not a summary, or refused by the core
            msgs.append("summary: unreadable")
            summary = None
    if summary is None:
        _rebuild(session, None, ())
    lines = got.events
    done = _replay(session, lines)
    if done < len(lines):
        # Start again up to the last good line, so that a line which failed halfway
        # leaves nothing behind; the next action checkpoints past the bad lines.
        _rebuild(session, summary, lines[:done])
        session._dirty = True
        if session.match.state is not None:
            msgs.append("journal: line %d refused, %d dropped" % (done + 1, len(lines) - done))
    if session.match.state is None and (msgs or lines):
        msgs.append("summary lost: match restarted")
    return msgs

def _rebuild(session, summary, lines):
    m = Match()
    session.match = m
    session.match_id = 0
    if summary is not None:
        session.match_id = summary.get("id", 0)
        m.restore(summary, [bytes.fromhex(h) for h in summary.get("log") or ()])
    _replay(session, lines)

def _replay(session, lines):
    """Apply journal lines; return how many applied (stops at the first failure)."""
    m = session.match
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
                session.match = m
                session.match_id += 1
            else:
                if line.startswith("u "):  # the last entry replaced by this one
                    m.undo()
                    line = line[2:]
                rolled = m.enter(bytes.fromhex(line))
        except MemoryError:  # the heap's fault, not the line's: dropping it would lose it
            raise
        except Exception:  # Refused, or a line that is no record
            return i
        if rolled:
            session._dirty = True  # a deal ended after the summary: checkpoint next time
    return len(lines)
