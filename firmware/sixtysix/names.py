"""A player's name, the one definition: the `new` line (sixtysix/setup.py) takes only these,
and the name editor (ui/nameentry.py), the club's wire (net/wire.py) and the director
(club/director.py) hold to the same. A side's name is sixtysix/rules.py's side_name (that
module stays in the heap during play; this one is loaded only to check names).

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

