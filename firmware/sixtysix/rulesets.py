"""The rule sets' table and the options a `new` entry may set: what Rules(rid, options)
(rules.py) is built from.

Apart from rules.py because only building a Rules needs it (a new match, the boot, the
new-match screen): the board drops it after (session/__init__.py), so the table and the
option checks are not in the heap while a match is played. It does not import rules.py,
which imports this module, so the imports go round no circle.
"""

from .deal import CLOSE_CLASSIC, CLOSE_MARIAGE, CLOSE_SCHNAPSEN, END_HIGHER, END_LAST
from .errors import Refused

# One row per rule set, in the order of rules.RULE_SETS; fill() unpacks a row in
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

def fill(r, row, options):
    """Set the attributes of Rules `r` from the table's row number `row`, then the
    options ({name: text}); refuse an unknown or bad option."""
    # The options with words, and their words (the rest take numbers). Here, not globals:
    # the module's names stay in RAM after it is dropped.
    judges = ("strong", "weak", "sum")  # three players: whose points decide 1/2/3
    scales = ("31", "full")  # four players: 3 or 1 (seed 000), or the full 1/2/3
    (r.players, r.ranks, r.hand, r.stock, r.bonus, r.stock_window, r.needs_trick,
     r.closing, r.end_rule, r.count_at_end, r.target, r.down, r.hidden,
     r.false_claim_23) = _TABLE[row]
    r.pairs = r.players == 4  # four players in two pairs: seats 1+3 vs 2+4
    r.sides = 2 if r.pairs else r.players
    r.tricks = r.ranks * 4 // r.players  # tricks in a deal that is not closed
    r.judge3 = 0  # index in judges
    r.scale4 = 0  # index in scales
    r.games = 1  # four players: eights to win the match
    r.draws = r.end_rule == END_HIGHER
    for name in options:
        text = options[name]
        if name == "judge" and r.players == 3 and text in judges:
            r.judge3 = judges.index(text)
        elif name == "scale" and r.pairs and text in scales:
            r.scale4 = scales.index(text)
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
