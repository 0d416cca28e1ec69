"""The rule sets and their options.

Each rule set is a row of a table, not a subclass: the deal logic reads the
attributes of Rules, so adding a variant is adding a row. docs/rules.md
explains every attribute in words, with the seed sentence behind it.
"""

from .errors import Refused

# How a deal ends when the cards run out and nobody has (claimed) 66.
END_LAST = 0  # the side that took the last trick gets 1
END_HIGHER = 1  # the highest total gets 1; a tie for highest is a draw

# Closing rules: how a closed deal is scored.
CLOSE_MARIAGE = 0  # seeds 000/001: the winner always gets 3
CLOSE_CLASSIC = 1  # seed 004: success on the ordinary scale; failure 2 (3)
CLOSE_SCHNAPSEN = 2  # as classic, but success is judged on the state at the close

# Contract kinds of the four-player game, in rising precedence.
CONTRACTS = ("five", "six", "coat", "costume")

# Card points in the pack; nines are worth nothing, so 20 and 24 cards both hold 120.
PACK = 120

RULE_SETS = ("mariage", "classic66", "mariage3", "classic66-3", "mariage4",
             "schnapsen", "sechsundsechzig")

# One row per rule set, in the order of RULE_SETS; Rules.__init__ unpacks a row in
# column order. The header's short names:
#   pl    players                      rk    kinds of card: 6 = A..9, 5 = no nines
#   hd    cards dealt to each          stk   cards left in the stock after dealing
#   last  last-trick bonus             opn   marriages only while the stock is open
#   trk   marriages count only once their side has a trick
#   closing  how a closed deal scores  end   nobody at 66: last trick, or higher total
#   pil   when the cards run out, the first side to 66 wins (this matters with hidden
#         totals; 0: an unclaimed 66 is lost, as on pagat.com)
#   tgt   target (game points)         dn    shown counting down from the target
#   hid   hidden totals (66 claimed)   fc    false claim: the opponent gets 2 or 3
#                                            (0: each other side gets 1)
# Rows are bytes: a tuple of 14 ints takes 64 B of RAM on the ESP32, bytes 32 B.
_TABLE = (
    #      pl rk hd stk last opn trk closing          end         pil tgt dn hid fc
    bytes((2, 6, 6, 12, 0,   1,  0,  CLOSE_MARIAGE,   END_LAST,   1,  7,  0, 0,  0)),  # mariage
    bytes((2, 6, 6, 12, 10,  0,  0,  CLOSE_CLASSIC,   END_HIGHER, 1,  7,  1, 0,  0)),  # classic66
    bytes((3, 6, 8, 0,  0,   0,  0,  CLOSE_MARIAGE,   END_LAST,   1,  7,  0, 0,  0)),  # mariage3
    bytes((3, 6, 8, 0,  10,  0,  0,  CLOSE_CLASSIC,   END_HIGHER, 1,  3,  1, 0,  0)),  # classic66-3
    bytes((4, 6, 6, 0,  0,   0,  0,  CLOSE_MARIAGE,   END_LAST,   1,  8,  0, 1,  0)),  # mariage4
    bytes((2, 5, 5, 10, 0,   0,  1,  CLOSE_SCHNAPSEN, END_LAST,   0,  7,  1, 1,  1)),  # schnapsen
    bytes((2, 6, 6, 12, 10,  0,  1,  CLOSE_CLASSIC,   END_HIGHER, 0,  7,  0, 1,  1)),  # sechsundsechzig
)

# Options a player may set in the `new` entry, with their allowed words.
# Numbers are checked in make_rules.
JUDGES = ("strong", "weak", "sum")  # three players: whose points decide 1/2/3
SCALES = ("31", "full")  # four players: 3 or 1 (seed 000), or the full 1/2/3


class Rules:
    """One rule set with its options applied. Plain attributes, read-only by convention."""

    def __init__(self, rid):
        row = _TABLE[RULE_SETS.index(rid)]
        self.id = rid
        (self.players, self.ranks, self.hand, self.stock, self.bonus, self.stock_window,
         self.needs_trick, self.closing, self.end_rule, self.count_at_end, self.target,
         self.down, self.hidden, self.false_claim_23) = row
        self.pairs = self.players == 4  # four players in two pairs: seats 1+3 vs 2+4
        self.sides = 2 if self.pairs else self.players
        self.tricks = self.ranks * 4 // self.players  # tricks in a deal that is not closed
        self.judge3 = 0  # index in JUDGES
        self.scale4 = 0  # index in SCALES
        self.games = 1  # four players: eights to win the match
        self.draws = self.end_rule == END_HIGHER

    def choices(self):
        """Game points a quick `result` entry may give."""
        return (1, 3) if self.pairs and self.scale4 == 0 else (1, 2, 3)


def make_rules(rid, options=None):
    """Build a rule set with options given as {name: text}; refuse anything unknown."""
    if rid not in RULE_SETS:
        raise Refused("bad_rules")
    r = Rules(rid)
    options = options or {}
    for name in options:
        text = options[name]
        if name == "judge" and r.players == 3 and text in JUDGES:
            r.judge3 = JUDGES.index(text)
        elif name == "scale" and r.pairs and text in SCALES:
            r.scale4 = SCALES.index(text)
        elif not text.isdigit() or len(text) > 2:
            raise Refused("bad_option")
        elif name in ("down", "hidden", "needtrick") and text in ("0", "1"):
            setattr(r, "needs_trick" if name == "needtrick" else name, text == "1")
        elif name == "target" and int(text) > 0:
            r.target = int(text)
        elif name == "games" and r.pairs and int(text) > 0:
            r.games = int(text)
        else:
            raise Refused("bad_option")
    return r
