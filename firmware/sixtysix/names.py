"""A player's name, the one definition: the `new` line (sixtysix/setup.py) takes only these,
and the name editor (ui/nameentry.py), the club's wire (net/wire.py) and the director
(club/director.py) hold to the same. A side's name too (side_name), for the panel
(ui/), the page's export (web/export.py) and the standings (club/standings.py).

MAX is 8: a two-player scoreboard shows it in full, dealer's dot and all, in its half of
the 128-pixel panel (6-pixel letters); docs/club.md says more.
"""

MAX = 8  # characters
# The `new` line's separators (words, `key=value`, the names' commas): no name holds one,
# nor a control character.
SEPARATORS = " ,="


def valid(name):
    """True if `name` can be a player's name: a str of 1 to MAX characters, no separator."""
    if type(name) is not str or not 0 < len(name) <= MAX:
        return False
    for c in name:
        if c <= " " or c in SEPARATORS:
            return False
    return True


def side_name(names, sides, s, joint="+"):
    """Side s's name of `sides`: its player's name, or with four players in two pairs both
    names (seats s and s+2) joined by `joint` (a "," can be split again: no name holds one)."""
    return joint.join([names[i] for i in range(s, len(names), sides)])
