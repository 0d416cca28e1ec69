"""The match as plain data (dicts, lists, ints, strings) for the replay tool and tests.

Players, sides and dealers are 1-based here, as people count them.
"""

from .events import SUITS
from .match import log_records
from .rules import CONTRACTS


def undo_count(match):
    """How many entries undo can still take back in Match `match` (the current deal's and
    the deal before's records). Here, not a Match method: a board never asks, and each
    method of a class it keeps is heap."""
    n = 0
    for log in (match.log, match.prev[1] if match.prev else b""):
        n += len(list(log_records(log)))
    return n


def _one(i):
    return i + 1 if i >= 0 else None


def _deal(d):
    r = d.rules
    return {
        "dealer": d.dealer + 1,
        "leader": d.leader + 1,
        "trump": SUITS[d.trump] if d.trump >= 0 else None,
        "points": d.points[:],
        "pending": d.pending[:],
        "tricks": d.tricks[:],
        "played": d.played,
        "stock": d.stock_left() if r.stock else None,
        "closed_by": _one(d.closer),
        "marriages": [[m[0] + 1, SUITS[m[1]], m[2]] for m in d.marriages],
        "cut9": d.cut9,
        "bid": [d.bid_seat + 1, CONTRACTS[d.bid_kind]] if d.bid_kind >= 0 else None,
    }


def snapshot(match):
    s = match.state
    if s is None:
        return {"match": None}
    r = s.rules
    history = []
    for i in range(s.deals()):
        h = s.row(i)
        history.append({
            "dealer": h[0] + 1,
            "reason": h[1],
            "winner": _one(h[2]),
            "awards": [[a[0] + 1, a[1], a[2]] for a in h[3]],
            "points": list(h[4]),
        })
    out = {
        "rules": r.id,
        "players": r.players,
        "names": list(s.names),
        "target": r.target,
        "score": s.score[:],
        "shown": [s.score_shown(i) for i in range(r.sides)],
        "over": s.over,
        "winner": _one(s.winner),
        "deals": s.deals(),
        "history": history,
        "stats": {"won": s.won[:], "won2": s.won2[:], "won3": s.won3[:]},
        "deal": None if s.over else _deal(s.deal),
        "undo": undo_count(match),
        "redo": len(match.redo_stack),
    }
    if r.pairs:
        out["games"] = s.games[:]
        out["markers"] = s.markers[:]
    return out
