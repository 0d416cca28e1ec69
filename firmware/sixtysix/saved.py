"""The match in writing: the `new` line that starts it, the summary a checkpoint holds and
the rebuild from a summary (Match.enter_line, summary, hist_b64 and restore call these;
it does not import sixtysix/match.py, so the imports go round no circle).

Apart from sixtysix/match.py because the scoreboard's entries never need it: the board
loads it for a new match, a deal's end (its checkpoint) and the boot, and drops it after
(app/session.py), so its code is not in the heap while the deal is typed.
"""

try:
    # The built-in, by its other name: on the WebAssembly port (the browser build) plain
    # `binascii` is micropython-lib's Python code, whose base64 of a 100-deal history took
    # 70 ms and 270 KB of garbage at every deal's end; the built-in's takes 3 ms.
    from ubinascii import a2b_base64, b2a_base64
except ImportError:  # CPython
    from binascii import a2b_base64, b2a_base64

from .errors import Refused
from .rules import Rules

SUMMARY_VERSION = 2  # 2: the history in base64 (a third smaller than hex on flash)


def setup_match(line):
    """A `new RULES key=value ...` line -> (rules, names, first dealer).

    Refuses bad options. `dealer` and `names` are the match's; the other
    keys are rule options (rulesets.fill)."""
    words = line.split()
    if len(words) < 2 or words[0] != "new":
        raise Refused("syntax")
    rules_opts = {}
    names = None
    dealer = 0
    for word in words[2:]:
        key, eq, val = word.partition("=")
        if not eq or not key or not val:
            raise Refused("syntax")
        if key == "dealer":
            if not val.isdigit():
                raise Refused("bad_option")
            dealer = int(val) - 1
        elif key == "names":
            names = tuple(val.split(","))
        else:
            rules_opts[key] = val
    rules = Rules(words[1], rules_opts)
    if not 0 <= dealer < rules.players:
        raise Refused("bad_option")
    if names is None:
        names = ("1", "2", "3", "4")[:rules.players]
    if len(names) != rules.players or "" in names:
        raise Refused("bad_option")
    return rules, names, dealer


def summary(m, hist=True):
    """Match.summary."""
    state = m.state
    base = m.base
    assert state is not None and base is not None
    prev = None
    if m.prev:
        pbase, plog = m.prev
        assert pbase is not None
        prev = [list(pbase), bytes(plog).hex()]
    s = {"v": SUMMARY_VERSION, "setup": m.setup, "base": list(base), "prev": prev,
         "redo": [rec.hex() for rec in m.redo_stack]}
    if hist:
        s["hist"] = "".join(hist_b64(m))
    return s


def hist_b64(m):
    """Match.hist_b64: a checkpoint writes the pieces one by one and never holds the history
    of a long match as one string (whole, base64 and JSON copies took some 5 KB at once)."""
    state = m.state
    base = m.base
    assert state is not None and base is not None
    h = memoryview(state.hist)
    n = base[3]
    for i in range(0, n, 48):  # 48 bytes: 64 characters, no padding but at the end
        yield _b64(h[i:i + 48 if i + 48 < n else n])


def _b64(data):
    return b2a_base64(data).decode().strip()


def restore(m, summary, records):
    """Match.restore."""
    if summary.get("v") != SUMMARY_VERSION:
        raise Refused("bad_summary")
    m.enter_line(summary["setup"])
    state = m.state
    assert state is not None
    # bytes, not str: micropython-lib's binascii (a port without the built-in) takes bytes.
    state.hist.extend(a2b_base64(summary["hist"].encode()))
    base = list(summary["base"])
    base[3] = len(state.hist)
    m.base = tuple(base)
    state.thaw(m.base)
    prev = summary.get("prev")
    if prev:
        m.prev = (tuple(prev[0]), bytes.fromhex(prev[1]))
    for rec in records:
        m.enter(rec)
    m.redo_stack = [bytes.fromhex(h) for h in summary.get("redo") or ()]
