"""A match set up: from its `new` line (Match.enter_line), or rebuilt from a summary
(Match.restore). It does not import sixtysix/match.py, so the imports go round no circle.

Apart from sixtysix/match.py because the scoreboard's entries never need it: the board
loads it for a new match and the boot and drops it after (session/__init__.py), so its code is
not in the heap while a match is played.
"""

try:
    from ubinascii import a2b_base64  # the built-in: see sixtysix/saved.py
except ImportError:  # CPython
    from binascii import a2b_base64

from .deal import Deal
from .errors import Refused
from .names import valid
from .rules import Rules


def new_match(m, line, state):
    """Match.enter_line for a `new RULES key=value ...` line: start match `m` afresh on
    `state`, an empty MatchState.

    Refuses bad options, before anything is set. `dealer` and `names` are the match's (a
    name as sixtysix/names.py has it); the other keys are rule options (rulesets.fill)."""
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
    n = rules.players
    if not 0 <= dealer < n:
        raise Refused("bad_option")
    if names is None:
        names = ("1", "2", "3", "4")[:n]
    if len(names) != n:
        raise Refused("bad_option")
    for i in range(n):
        if not valid(names[i]):
            raise Refused("bad_option")
        if names[i] in names[:i]:
            raise Refused("same_name")  # two seats, one name: the screens could not tell them apart
    n = rules.sides
    state.rules = rules  # the attributes are MatchState's: see its class body
    state.names = names
    state.score = [0] * n
    state.games = [0, 0]
    state.markers = [0, 0]
    state.won = [0] * n
    state.won2 = [0] * n
    state.won3 = [0] * n
    state.over = False
    state.winner = -1
    state.deal = Deal(rules, dealer)
    state.applied = 0
    state.rolled = False
    state.hist = []
    m.setup = " ".join(words)
    m.state = state
    m.base = state.freeze()
    m.log = bytearray()
    m.prev = None
    m.redo_stack = []


def restore(m, summary, records):
    """Match.restore."""
    # 2: saved.SUMMARY_VERSION, written by its number so that a boot need not load saved.py.
    if summary.get("v") != 2:
        raise Refused("bad_summary")
    m.enter_line(summary["setup"])
    state = m.state
    assert state is not None
    # In pieces of 128 characters (96 bytes, whole rows), so no long copy of the history
    # is made: any 4 characters of base64 decode on their own. bytes, not str:
    # micropython-lib's binascii (a port without the built-in) takes bytes.
    text = summary["hist"]
    size = 0
    for i in range(0, len(text), 128):
        data = a2b_base64(text[i:i + 128].encode())
        state.add_rows(data)
        size += len(data)
    base = list(summary["base"])
    base[3] = size
    m.base = tuple(base)
    state.thaw(m.base)
    prev = summary.get("prev")
    if prev:
        m.prev = (tuple(prev[0]), bytes.fromhex(prev[1]))
    for rec in records:
        m.enter(rec)
    redo = []  # a loop, not a comprehension: that would be one more function in the heap
    for h in summary.get("redo") or ():
        redo.append(bytes.fromhex(h))
    m.redo_stack = redo
