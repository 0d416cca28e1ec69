"""Cards as small ints: ranks, suits and card points.

A card is `rank | (suit + 1) << 3`; suit bits 0 mean "suit not entered" (the
players may enter ranks only). Ranks are ordered high to low, so a lower rank
index beats a higher one inside a suit.
"""

RANKS = "ATKQJ9"  # ace, ten, king, queen, jack, nine
SUITS = "SHDC"  # spades, hearts, diamonds, clubs
VALUES = (11, 10, 4, 3, 2, 0)

ACE = 0
TEN = 1
KING = 2
QUEEN = 3
JACK = 4
NINE = 5

NO_SUIT = -1


def card(rank, suit=NO_SUIT):
    return rank | ((suit + 1) << 3)


def rank_of(c):
    return c & 7


def suit_of(c):
    return (c >> 3) - 1


def value(c):
    return VALUES[c & 7]


def parse_card(text):
    """'A' -> ace, no suit; 'QH' -> queen of hearts. None if malformed."""
    if not text or len(text) > 2:
        return None
    r = RANKS.find(text[0].upper())
    if r < 0:
        return None
    if len(text) == 1:
        return card(r)
    s = SUITS.find(text[1].upper())
    if s < 0:
        return None
    return card(r, s)


def card_text(c):
    s = suit_of(c)
    if s < 0:
        return RANKS[c & 7]
    return RANKS[c & 7] + SUITS[s]


def parse_suit(text):
    if len(text) != 1:
        return -1
    return SUITS.find(text.upper())
