"""Replay a file of events and print the match as JSON.

    python3 tools/replay.py FILE        (with firmware/ on the import path)
    micropython tools/replay.py FILE    (MICROPYPATH=firmware:tools:.frozen)

One event per line (docs/events.md). Blank lines and lines starting with #
are skipped; `undo` and `redo` lines press those keys. A refused line is
reported under "refused" with its line number and code, and the replay goes
on: the output is the same byte for byte under both runtimes.
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


def main(argv):
    if len(argv) != 2:
        print("usage: replay.py EVENTS_FILE")
        return 2
    with open(argv[1]) as f:
        lines = f.read().split("\n")
    print(dumps(replay(lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
