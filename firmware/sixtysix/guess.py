"""The suits a trick leaves open: can its stated winner take it with any of them?

Deal.on_trick judges a trick's winner by trick_winner once every card of it has a suit.
With trump set and some suits known (this trick's or played cards) but not all of this
trick's, its check asks this module: the deal's own check is tried on every way the
missing suits could be (at most 4 to the power of the cards without a suit), and the trick
is refused with wrong_winner when none passes. With no suit known anywhere every winner is
possible, and on_trick asks nothing.

Loaded on the first such trick only: a table that types ranks alone, or every suit,
never loads it.
"""

from .cards import card
from .errors import Refused


def check(deal, rec):
    """Refused("wrong_winner") unless some suits for the cards of trick `rec` that have
    none let its stated winner take it (the deal's own check, nothing changed)."""
    open_ = []
    for i in range(2, len(rec)):
        if rec[i] < 8:  # suit bits 0: no suit (cards.suit_of)
            open_.append(i)
    r = bytearray(rec)
    for n in range(1 << 2 * len(open_)):
        k = n  # two bits per card without a suit
        for i in open_:
            r[i] = card(rec[i] & 7, k & 3)
            k >>= 2
        try:
            deal.on_trick(r, False)
            return
        except Refused:
            pass
    raise Refused("wrong_winner")
