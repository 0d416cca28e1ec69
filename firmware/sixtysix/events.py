"""Events as text lines, and their compact records.

One event is one line of words, e.g. `trick 1 A T` (docs/events.md): what
people write, what the replay tool reads. The core works on records: a few
bytes, the verb's number then its arguments, each a byte (players and sides
0-based, cards as in cards.py). A deal of 30 events costs about 150 bytes of
RAM that way, and the board never needs this module: its keys make records
and its journal stores them.
"""

from .cards import NO_TRICK, card, rank_of, suit_of
from .errors import Refused
from .rules import CONTRACTS

RANKS = "ATKQJ9"  # ace, ten, king, queen, jack, nine
SUITS = "SHDC"  # spades, hearts, diamonds, clubs

# Verb numbers are their index here; the order is part of the record format.
VERBS = ("trump", "trick", "marriage", "close", "claim", "result", "draw", "points",
         "cut9", "redeal", "nines", "bid", "contract", "next")

# What follows each verb in text: p player/side number, s suit, c card
# (one or more), v points or n, d a digit, w a word from the verb's list. A claim's suit
# (a marriage that goes with it) may be left out.
_SHAPES = ("s", "pc", "ps", "p", "ps", "pd", "", "v", "", "", "pw", "pw", "w", "")
_WORDS = {10: ("lost", "won"), 11: CONTRACTS, 12: ("failed", "made")}  # nines, bid, contract


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
    return card(r, s) if s >= 0 else None


def card_text(c):
    s = suit_of(c)
    return RANKS[rank_of(c)] + (SUITS[s] if s >= 0 else "")


def parse(line):
    """Text line -> record bytes. Raises Refused('syntax'). Not for `new`."""
    words = line.split()
    if not words or words[0] not in VERBS:
        raise Refused("syntax")
    code = VERBS.index(words[0])
    shape = _SHAPES[code]
    args = words[1:]
    out = bytearray([code])
    n = len(shape)
    if shape[-1:] in ("c", "v"):  # the last repeats: one or more
        if len(args) < n:
            raise Refused("syntax")
    elif len(args) != n and not (code == 4 and len(args) == 1):  # a claim's suit may be left out
        raise Refused("syntax")
    for i in range(len(args)):
        word = args[i]
        kind = shape[min(i, n - 1)]
        if kind == "p":  # 1-based in text
            if not word.isdigit() or len(word) > 2 or word == "0" or word == "00":
                raise Refused("syntax")
            out.append(int(word) - 1)
        elif kind == "s":
            s = SUITS.find(word.upper()) if len(word) == 1 else -1
            if s < 0:
                raise Refused("syntax")
            out.append(s)
        elif kind == "c":
            c = parse_card(word)
            if c is None:
                raise Refused("syntax")
            out.append(c)
        elif kind == "d":
            if len(word) != 1 or not word.isdigit():
                raise Refused("syntax")
            out.append(int(word))
        elif kind == "v":
            if word == "n":
                out.append(NO_TRICK)
            elif word.isdigit() and len(word) <= 3:
                if int(word) >= NO_TRICK:
                    raise Refused("bad_total")
                out.append(int(word))
            else:
                raise Refused("syntax")
        else:
            choices = _WORDS[code]
            if word not in choices:
                raise Refused("syntax")
            out.append(choices.index(word))
    return bytes(out)

