"""Replay a file of events and print the match as JSON.

    python3 tools/replay.py FILE        (with firmware/ on the import path)
    micropython tools/replay.py FILE    (MICROPYPATH=firmware:tools:.frozen)

The input is text, one event per line (docs/events.md); the output is JSON.
Blank lines and lines starting with # are skipped; `undo` and `redo` lines
press those keys. A refused line is reported under "refused" with its line
number and code, and the replay goes on: the output is the same byte for byte
under both runtimes. A file that is missing or that holds JSON (this tool's
output, say) is refused with one line on stderr and exit code 2.
"""

import sys

try:
    from jsonout import dumps
except ImportError:  # run as a script from the project root under CPython
    sys.path.insert(0, "tools")
    from jsonout import dumps

try:
    from sixtysix.errors import Refused
except ImportError:
    sys.path.insert(0, "firmware")
    from sixtysix.errors import Refused

from sixtysix.match import Match
from sixtysix.snapshot import snapshot


def replay(lines):
    match = Match()
    refused = []
    for no, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            if line == "undo":
                match.undo()
            elif line == "redo":
                match.redo()
            else:
                match.enter_line(line)
        except Refused as e:
            refused.append([no, e.code])
    out = snapshot(match)
    out["refused"] = refused
    return out


def read_events(path):
    """The file's lines, or a string saying why it is not a file of event lines."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return "cannot read " + path + " (missing?)"
    except UnicodeError:
        return path + " is not text"
    if text.lstrip()[:1] in ("{", "["):
        return path + " holds JSON; the input is event lines (docs/events.md)"
    return text.split("\n")


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: replay.py EVENTS_FILE (text, one event per line)\n")
        return 2
    lines = read_events(argv[1])
    if isinstance(lines, str):
        sys.stderr.write("replay: " + lines + "\n")
        return 2
    print(dumps(replay(lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
