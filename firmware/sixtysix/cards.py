"""Cards as small ints: ranks, suits and card points.

A card is `rank | (suit + 1) << 3`; suit bits 0 mean "suit not entered" (the
players may enter ranks only). Ranks are ordered high to low, so a lower rank
index beats a higher one inside a suit. Their letters are in events.py.
"""

VALUES = (11, 10, 4, 3, 2, 0)  # A T K Q J 9

# Card points in the pack; nines are worth nothing, so 20 and 24 cards both hold 120.
PACK = 120

KING = 2
QUEEN = 3
NINE = 5

NO_TRICK = 255  # in a quick `points` record: the side took no trick


def card(rank, suit=-1):
    return rank | ((suit + 1) << 3)


def rank_of(c):
    return c & 7


def suit_of(c):
    """0..3, or -1 when the suit was not entered."""
    return (c >> 3) - 1
