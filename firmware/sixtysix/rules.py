"""The rules a match plays by: Rules, the object the deal logic reads.

Each rule set is a row of a table, not a subclass: the deal logic reads the
attributes of Rules, so adding a variant is adding a row. The table and the
options of a `new` entry are in rulesets.py, which only building a Rules
needs: the board loads it for a new match and the boot and drops it after
(session/__init__.py), so its code is not in the heap while a match is played.
docs/rules.md explains every attribute in words, with the seed sentence
behind it. side_name() is the one rule for naming a side (a player, or a pair with four
players), here because this module stays in the heap while a match is played.
"""

from .errors import Refused

# Contract kinds of the four-player game, in rising precedence.
CONTRACTS = ("five", "six", "coat", "costume")

# The rule sets, in the order of the table's rows (rulesets.py).
RULE_SETS = ("mariage", "classic66", "mariage3", "classic66-3", "mariage4",
             "schnapsen", "sechsundsechzig")


class Rules:
    """One rule set with its options applied. Plain attributes, read-only by convention.
    rulesets.fill sets them; the annotations (no code on MicroPython) name them for the
    type check, in the table's column order."""

    players: int
    ranks: int
    hand: int
    stock: int
    bonus: int
    stock_window: int
    needs_trick: int
    closing: int
    end_rule: int
    count_at_end: int
    target: int
    down: int
    hidden: int
    false_claim_23: int
    pairs: bool
    sides: int
    tricks: int
    judge3: int
    scale4: int
    games: int
    draws: bool

    def __init__(self, rid, options=None):
        """Build a rule set with options given as {name: text}; refuse anything unknown."""
        if rid not in RULE_SETS:
            raise Refused("bad_rules")
        from .rulesets import fill  # the table: see the module's comment

        self.id = rid
        fill(self, RULE_SETS.index(rid), options or {})

    def choices(self):
        """Game points a quick `result` entry may give."""
        return (1, 3) if self.pairs and self.scale4 == 0 else (1, 2, 3)


def side_name(names, sides, s, joint="+"):
    """Side s's name of `sides`, the one rule for the panel (ui/), the page's export
    (web/export.py) and the standings (club/standings.py): its player's name, or with four
    players in two pairs both names (seats s and s+2) joined by `joint` (a "," can be split
    again: no name holds one, sixtysix/names.py)."""
    return joint.join([names[i] for i in range(s, len(names), sides)])
