"""Flash figures of the session: bytes written per event and per deal, lines replayed at boot.

    python3 tools/flash_figures.py              (from the project root)
    micropython tools/flash_figures.py          (MICROPYPATH=firmware:tools:.frozen)

measure() plays a random legal match of 100+ deals through a Session over an in-memory
file system and returns the figures as a dict (benchmarks reuse it):
  bytes_per_event       average flash bytes of one journal line, journal headers included
  bytes_per_checkpoint  average flash bytes of one deal-end checkpoint
  bytes_per_deal        all bytes written / deals played (journal lines + checkpoints)
  summary_bytes         size of the summary at the end
  deals, events         deals played, entries made
  boot_lines            journal lines a boot replays at the end of the match
  longest_deal          entries of the longest deal (what boot_lines must stay under)
  restored              True if that boot rebuilt the match exactly
"""

import sys

try:
    from dealgen import Player
except ImportError:  # run as a script from the project root under CPython
    sys.path.insert(0, "tools")
    sys.path.insert(0, "firmware")
    from dealgen import Player

from session import Session
from sixtysix.events import parse
from sixtysix.snapshot import snapshot
from store.journal import Store

SETUP = "new schnapsen target=99"  # 102 deals with seed 2
SEED = 2


class _Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def read(self, n=-1):
        end = len(self.data) if n < 0 else self.pos + n
        out = self.data[self.pos:end]
        self.pos += len(out)
        return out

    def readline(self, limit=-1):
        end = self.data.find(b"\n", self.pos) + 1 or len(self.data)
        if 0 <= limit < end - self.pos:
            end = self.pos + limit
        return self.read(end - self.pos)

    def close(self):
        pass


class _Writer:
    def __init__(self, fs, name, data):
        self.fs = fs
        self.name = name
        self.data = data

    def write(self, b):
        self.data += bytes(b)
        return len(b)

    def flush(self):
        self.fs.files[self.name] = self.data

    close = flush


class MemFS:
    """Just enough of os for Store, in RAM."""

    def __init__(self):
        self.files = {}

    def open(self, name, mode="rb"):
        if "r" in mode:
            if name not in self.files:
                raise OSError(2)
            return _Reader(self.files[name])
        w = _Writer(self, name, self.files.get(name, b"") if "a" in mode else b"")
        w.flush()
        return w

    def rename(self, old, new):
        self.files[new] = self.files.pop(old)

    def remove(self, name):
        if name not in self.files:
            raise OSError(2)
        del self.files[name]

    def stat(self, name):
        if name not in self.files:
            raise OSError(2)
        return (0o100000, 0, 0, 0, 0, 0, len(self.files[name]), 0, 0, 0)

    def mkdir(self, name):
        pass


def measure(setup=SETUP, seed=SEED):
    player = Player(setup, seed)
    player.play_match()
    fs = MemFS()
    store = Store("", fs)
    session = Session(store)
    session.boot()
    session.new_match(setup)
    written = store.bytes_written
    lines = line_bytes = checkpoints = ckpt_bytes = 0
    deal_len = longest = 0
    for text in player.lines[1:]:
        deals = session.match.state.deals()
        session.enter(parse(text))
        step = store.bytes_written - written
        written = store.bytes_written
        deal_len += 1
        if session.match.state.deals() > deals:
            longest = max(longest, deal_len)
            deal_len = 0
        if session.match.state.deals() > deals and not session.match.state.over:
            checkpoints += 1  # the deal's end: a checkpoint instead of a journal line
            ckpt_bytes += step
        else:
            lines += 1  # a journal line (the first of a deal also brings the header)
            line_bytes += step
    state = session.match.state
    booted = Session(Store("", fs))
    booted.boot()
    boot_lines = len(Store("", fs).load().events)
    events = len(player.lines) - 1
    return {
        "deals": state.deals(),
        "events": events,
        "bytes_per_event": line_bytes / max(lines, 1),
        "bytes_per_checkpoint": ckpt_bytes / max(checkpoints, 1),
        "bytes_per_deal": (store.bytes_written) / state.deals(),
        "summary_bytes": len(fs.files["summary"]),
        "boot_lines": boot_lines,
        "longest_deal": longest,
        "restored": snapshot(booted.match) == snapshot(session.match),
    }


if __name__ == "__main__":
    f = measure()
    for key in sorted(f):
        v = f[key]
        print("%-22s %s" % (key, ("%.1f" % v) if isinstance(v, float) else v))
