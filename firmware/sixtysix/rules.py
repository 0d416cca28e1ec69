"""The rule sets and their options.

Each rule set is a table row, not a subclass: the deal logic reads these
attributes, so adding a variant is adding a row. docs/rules.md explains every
attribute in words, with the seed sentence behind it.
"""

from .errors import Refused

# How a deal ends when the cards run out and nobody has (claimed) 66.
END_LAST = "last"  # the side that took the last trick gets 1
END_HIGHER = "higher"  # the highest total gets 1; a tie for highest is a draw

# Closing rules: how a closed deal is scored.
CLOSE_MARIAGE = "mariage"  # seeds 000/001: the winner always gets 3
CLOSE_CLASSIC = "classic"  # seed 004: success on the ordinary scale; failure 2 (3)
CLOSE_SCHNAPSEN = "schnapsen"  # success judged on the state at the close

# When marriages may be declared.
WINDOW_STOCK = "stock"  # only while the stock has cards and is open
WINDOW_LEAD = "lead"  # whenever the player leads

# Three-player judging of the losers.
JUDGE_STRONG = "strong"
JUDGE_WEAK = "weak"
JUDGE_SUM = "sum"

# Four-player scale: "3 or 1" (seed 000) or the two-player 1/2/3.
SCALE_31 = "31"
SCALE_FULL = "full"

# False claim penalty.
FALSE_ONE = "one"  # every other side gets 1 (seed 000)
FALSE_TWO = "two"  # the opponent gets 2, 3 if the claimer had no trick (pagat)

# Contract kinds of the four-player game, in rising precedence.
CONTRACTS = ("five", "six", "coat", "costume")

# Options a player may set in the `new` entry: name -> (attribute, kind).
# kind: "int" a whole number, "bool" 0/1, or a tuple of allowed words.
OPTIONS = {
    "target": ("target", "int"),
    "down": ("down", "bool"),
    "hidden": ("hidden", "bool"),
    "needtrick": ("needs_trick", "bool"),
    "judge": ("judge3", (JUDGE_STRONG, JUDGE_WEAK, JUDGE_SUM)),
    "scale": ("scale4", (SCALE_31, SCALE_FULL)),
    "games": ("games", "int"),
}


class Rules:
    """One rule set with its options applied. Plain attributes, read-only by convention."""

    def __init__(self, rid, players, pairs, ranks, hand, stock, bonus, window,
                 needs_trick, closing, end_rule, count_at_end, target, down, hidden,
                 false_claim, judge3=JUDGE_STRONG, scale4=SCALE_31, games=1):
        self.id = rid
        self.players = players
        self.pairs = pairs  # four players in two pairs: seats 1+3 against 2+4
        self.sides = 2 if pairs else players
        self.ranks = ranks  # how many ranks the pack has: 6 (A..9) or 5 (no nines)
        self.hand = hand
        self.stock = stock  # cards left in the stock after dealing
        self.bonus = bonus  # card points for the last trick (not in a closed deal)
        self.window = window
        self.needs_trick = needs_trick
        self.closing = closing
        self.end_rule = end_rule
        # Seed rule sets count the piles when the cards run out, so an
        # unclaimed 66 still wins; the pagat variants require the claim.
        self.count_at_end = count_at_end
        self.target = target
        self.down = down
        self.hidden = hidden
        self.false_claim = false_claim
        self.judge3 = judge3
        self.scale4 = scale4
        self.games = games

    def tricks_in_deal(self):
        return (self.ranks * 4) // self.players

    def pack_points(self):
        # Nines are worth nothing, so the 20- and 24-card packs both hold 120.
        return 120

    def has_rank(self, r):
        return r < self.ranks

    def draws_possible(self):
        return self.end_rule == END_HIGHER

    def game_point_choices(self):
        """Game points a quick `result` entry may give."""
        if self.pairs and self.scale4 == SCALE_31:
            return (1, 3)
        return (1, 2, 3)


def _base(rid):
    if rid == "mariage":
        return Rules(rid, 2, False, 6, 6, 12, 0, WINDOW_STOCK, False, CLOSE_MARIAGE,
                     END_LAST, True, 7, False, False, FALSE_ONE)
    if rid == "classic66":
        return Rules(rid, 2, False, 6, 6, 12, 10, WINDOW_LEAD, False, CLOSE_CLASSIC,
                     END_HIGHER, True, 7, True, False, FALSE_ONE)
    if rid == "mariage3":
        return Rules(rid, 3, False, 6, 8, 0, 0, WINDOW_LEAD, False, CLOSE_MARIAGE,
                     END_LAST, True, 7, False, False, FALSE_ONE)
    if rid == "classic66-3":
        return Rules(rid, 3, False, 6, 8, 0, 10, WINDOW_LEAD, False, CLOSE_CLASSIC,
                     END_HIGHER, True, 3, True, False, FALSE_ONE)
    if rid == "mariage4":
        return Rules(rid, 4, True, 6, 6, 0, 0, WINDOW_LEAD, False, CLOSE_MARIAGE,
                     END_LAST, True, 8, False, True, FALSE_ONE)
    if rid == "schnapsen":
        return Rules(rid, 2, False, 5, 5, 10, 0, WINDOW_LEAD, True, CLOSE_SCHNAPSEN,
                     END_LAST, False, 7, True, True, FALSE_TWO)
    if rid == "sechsundsechzig":
        return Rules(rid, 2, False, 6, 6, 12, 10, WINDOW_LEAD, True, CLOSE_CLASSIC,
                     END_HIGHER, False, 7, False, True, FALSE_TWO)
    raise Refused("bad_rules")


RULE_SETS = ("mariage", "classic66", "mariage3", "classic66-3", "mariage4",
             "schnapsen", "sechsundsechzig")


def make_rules(rid, options=None):
    """Build a rule set with options given as {name: text}; refuse anything unknown."""
    r = _base(rid)
    if options:
        for name in options:
            spec = OPTIONS.get(name)
            if spec is None:
                raise Refused("bad_option")
            attr, kind = spec
            text = options[name]
            if kind == "int" or kind == "bool":
                if not text.isdigit():
                    raise Refused("bad_option")
                val = int(text)
                if kind == "bool":
                    if val > 1:
                        raise Refused("bad_option")
                    val = val == 1
                elif not 1 <= val <= 99:
                    raise Refused("bad_option")
                setattr(r, attr, val)
            else:
                if text not in kind:
                    raise Refused("bad_option")
                setattr(r, attr, text)
    if r.id != "mariage4" and (r.games != 1 or r.scale4 != SCALE_31):
        raise Refused("bad_option")
    if r.players != 3 and r.judge3 != JUDGE_STRONG:
        raise Refused("bad_option")
    return r
