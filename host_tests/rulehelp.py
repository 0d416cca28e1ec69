"""Small helpers that keep the rule tables short.

Events are written as in the journal, one entry per line; a table cell may
hold several entries separated by ";". Players and sides are 1-based in
everything these helpers return, as in the snapshot.
"""

from sixtysix.errors import Refused
from sixtysix.match import Match
from sixtysix.rules import RULE_SETS, Rules
from sixtysix.snapshot import snapshot


def rule_sets(players):
    """The rule sets for this many players, in the order of RULE_SETS."""
    return [rid for rid in RULE_SETS if Rules(rid).players == players]


def lines(*events):
    """('a; b', 'c') -> ['a', 'b', 'c']; empty pieces are skipped."""
    out = []
    for chunk in events:
        for piece in chunk.split(";"):
            piece = piece.strip()
            if piece:
                out.append(piece)
    return out


def play(rules_line, *events):
    """A new match (`new ` + rules_line) with the events entered; returns the Match.

    Any refused entry fails the test at once with the entry and its code.
    """
    m = Match()
    m.enter_line("new " + rules_line)
    for line in lines(*events):
        try:
            m.enter_line(line)
        except Refused as e:
            raise AssertionError("refused %r: %s" % (line, e.code)) from None
    return m


def snap(m):
    return snapshot(m)


def deals(m):
    """The finished deals, oldest first, as snapshot rows."""
    return snapshot(m)["history"]


def last(m):
    """The last finished deal as (winner, reason, awards); awards are (side, points, markers)."""
    rows = deals(m)
    assert rows, "no deal has ended"
    row = rows[-1]
    return row["winner"], row["reason"], [tuple(a) for a in row["awards"]]


def outcome(m):
    """(winner, reason, game points to the winner) of the last finished deal."""
    winner, reason, awards = last(m)
    points = sum(a[1] for a in awards if a[0] == winner)
    return winner, reason, points


def card_points(m):
    """Card points per side at the end of the last finished deal."""
    return tuple(deals(m)[-1]["points"])


def deal(m):
    """The deal in progress, as in the snapshot."""
    d = snapshot(m)["deal"]
    assert d is not None, "the match is over"
    return d


def refusal(m, line):
    """Enter a line that must be refused: return its code, and check nothing changed."""
    before = snapshot(m)
    try:
        m.enter_line(line)
    except Refused as e:
        assert snapshot(m) == before, "a refused entry changed the match: %r" % line
        return e.code
    raise AssertionError("accepted, but should be refused: %r" % line)


def check_snapshot(m, seed, **want):
    """Each named field of the snapshot has the wanted value; `seed` names the rule."""
    s = snapshot(m)
    for key, value in want.items():
        assert s[key] == value, seed
