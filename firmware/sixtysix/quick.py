"""The quick entries: a deal's result, a draw, or the card points the players counted,
for tables that count their piles instead of entering every trick.

Kept apart from deal.py and imported on first use, so matches entered trick by trick do
not spend RAM on this code. Deal.on_imported has already checked that the deal runs and no
contract bid is waiting. Each function checks first and changes the deal only when `do`
is true, as in deal.py.
"""

from .cards import NO_TRICK, PACK
from .errors import Refused

# Marriages add at most 40 + 3 * 20 points to the card points of one deal.
MARRIAGE_MAX = 100


def result(d, rec, do):
    side = rec[1]
    if side >= d.rules.sides:
        raise Refused("no_player")
    if rec[2] not in d.rules.choices():
        raise Refused("bad_points")
    if do:
        d._end(side, "quick", rec[2])


def draw(d, rec, do):
    if not d.rules.draws:
        raise Refused("no_draw")
    if do:
        d._end(-1, "draw")


def points(d, rec, do):
    """Counted card points per side (marriages included); NO_TRICK for no trick."""
    r = d.rules
    values = rec[1:]
    if len(values) != r.sides:
        raise Refused("points_count")
    limit = PACK + r.bonus + MARRIAGE_MAX
    total = 0
    winner = -1
    for s in range(r.sides):
        v = values[s]
        if v == NO_TRICK:
            continue
        if v > limit:
            raise Refused("bad_total")
        if v >= 66:
            if winner >= 0:
                raise Refused("two_winners")
            winner = s
        total += v
    if total > limit:
        raise Refused("bad_total")
    if winner < 0:
        raise Refused("no_winner")
    if not do:
        return
    for s in range(r.sides):
        v = values[s]
        d.points[s] = 0 if v == NO_TRICK else v
        d.tricks[s] = 0 if v == NO_TRICK else max(d.tricks[s], 1)
    # A closed deal is still judged by the closing rule.
    d._win(winner, "quick")


# In the order of events.VERBS from `result` on.
QUICK = (result, draw, points)
