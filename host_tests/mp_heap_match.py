"""Replay whole matches from event records under a small heap; report the peak.

Run as `micropython -X heapsize=32k host_tests/mp_heap_match.py FILE`, where
FILE has a setup line (`new ...`) and then one record per line in hex, as
the board's journal holds them. Matches follow each other in the file. A
MemoryError (exit 1) means the core would not fit.
"""

import gc
import sys

# As the board's main.py does: import the parts one by one and collect in
# between, so that loading garbage does not split the heap into small holes.
for name in ("sixtysix.errors", "sixtysix.cards", "sixtysix.rules", "sixtysix.deal"):
    __import__(name)
    gc.collect()
import sixtysix  # noqa: E402
from sixtysix.match import Match  # noqa: E402

gc.collect()
loaded = gc.mem_alloc()
peak = 0
deals = 0
m = Match()
with open(sys.argv[1]) as f:
    for line in f:
        line = line.strip()
        if line.startswith("new"):
            deals += m.state.deals() if m.state else 0
            m.enter_line(line)
            # As the board's session does (session/__init__.py): a match's start and the rule
            # sets' table are loaded for a new match and dropped after.
            for name in ("sixtysix.setup", "sixtysix.saved", "sixtysix.rulesets"):
                sys.modules.pop(name, None)
                if hasattr(sixtysix, name[9:]):
                    delattr(sixtysix, name[9:])
        else:
            m.enter(bytes.fromhex(line))
        gc.collect()
        used = gc.mem_alloc()
        if used > peak:
            peak = used
deals += m.state.deals()
print("deals", deals, "loaded", loaded, "peak", peak, "free", gc.mem_free())
