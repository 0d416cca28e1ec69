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
# (one or more), v points or n, w a word from the verb's list, - nothing.
_SHAPES = ("s", "pc", "ps", "p", "p", "pd", "", "v", "", "", "pw", "pw", "w", "")
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
    s = parse_suit(text[1])
    return card(r, s) if s >= 0 else None


def card_text(c):
    s = suit_of(c)
    return RANKS[rank_of(c)] + (SUITS[s] if s >= 0 else "")


def parse_suit(text):
    return SUITS.find(text.upper()) if len(text) == 1 else -1


def _num(word):
    """A 1-based number in text -> 0-based int; refuse anything else."""
    if not word.isdigit() or len(word) > 2 or word == "0" or word == "00":
        raise Refused("syntax")
    return int(word) - 1


def parse(line):
    """Text line -> record bytes. Raises Refused('syntax'). Not for `new`."""
    words = line.split()
    if not words or words[0] not in VERBS:
        raise Refused("syntax")
    code = VERBS.index(words[0])
    shape = _SHAPES[code]
    args = words[1:]
    out = bytearray([code])
    last = shape[-1:] if shape else ""
    if last in ("c", "v"):
        if len(args) < len(shape):
            raise Refused("syntax")
    elif code == 4:  # claim: a player, and a marriage suit if one goes with it
        if len(args) not in (1, 2):
            raise Refused("syntax")
    elif len(args) != len(shape):
        raise Refused("syntax")
    for i in range(len(args)):
        word = args[i]
        kind = shape[i] if i < len(shape) else last
        if code == 4 and i == 1:
            kind = "s"
        if kind == "p":
            out.append(_num(word))
        elif kind == "s":
            s = parse_suit(word)
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


def format_event(rec):
    """Record bytes -> text line (the inverse of parse)."""
    code = rec[0]
    shape = _SHAPES[code]
    last = shape[-1:] if shape else ""
    words = [VERBS[code]]
    for i in range(1, len(rec)):
        b = rec[i]
        kind = shape[i - 1] if i - 1 < len(shape) else last
        if code == 4 and i == 2:
            kind = "s"
        if kind == "p":
            words.append(str(b + 1))
        elif kind == "s":
            words.append(SUITS[b])
        elif kind == "c":
            words.append(card_text(b))
        elif kind == "d":
            words.append(str(b))
        elif kind == "v":
            words.append("n" if b == NO_TRICK else str(b))
        else:
            words.append(_WORDS[code][b])
    return " ".join(words)
