"""Events as text lines and as tuples.

One event is one line of words, e.g. `trick 1 A T` (docs/events.md). In
memory an event is a tuple whose first item is the verb; players and sides
are 0-based there and 1-based in text. The text form is what the journal
stores and what the replay tool reads, so it stays short.
"""

from .cards import SUITS, card_text, parse_card, parse_suit
from .errors import Refused
from .rules import CONTRACTS

NO_TRICK = -1  # in a `points` entry: the side took no trick

_NO_ARGS = ("draw", "cut9", "redeal")


def _num(text):
    """A 1-based number in text -> 0-based int; refuse anything else."""
    if not text.isdigit() or len(text) > 2:
        raise Refused("syntax")
    n = int(text) - 1
    if n < 0:
        raise Refused("syntax")
    return n


def _suit(text):
    s = parse_suit(text)
    if s < 0:
        raise Refused("syntax")
    return s


def parse(line):
    """Text line -> event tuple. Raises Refused('syntax')."""
    words = line.split()
    if not words:
        raise Refused("syntax")
    verb = words[0]
    args = words[1:]
    n = len(args)
    if verb in _NO_ARGS:
        if n:
            raise Refused("syntax")
        return (verb,)
    if verb == "new":
        if n < 1:
            raise Refused("syntax")
        opts = []
        for word in args[1:]:
            key, eq, val = word.partition("=")
            if not eq or not key or not val:
                raise Refused("syntax")
            opts.append((key, val))
        opts.sort()
        return ("new", args[0], tuple(opts))
    if verb == "trump" and n == 1:
        return ("trump", _suit(args[0]))
    if verb == "trick" and n >= 2:
        cards = []
        for word in args[1:]:
            c = parse_card(word)
            if c is None:
                raise Refused("syntax")
            cards.append(c)
        return ("trick", _num(args[0]), tuple(cards))
    if verb == "marriage" and n == 2:
        return ("marriage", _num(args[0]), _suit(args[1]))
    if verb == "close" and n == 1:
        return ("close", _num(args[0]))
    if verb == "claim" and (n == 1 or n == 2):
        return ("claim", _num(args[0]), _suit(args[1]) if n == 2 else -1)
    if verb == "result" and n == 2:
        if not args[1].isdigit() or len(args[1]) > 1:
            raise Refused("syntax")
        return ("result", _num(args[0]), int(args[1]))
    if verb == "points" and n >= 2:
        vals = []
        for word in args:
            if word == "n":
                vals.append(NO_TRICK)
            elif word.isdigit() and len(word) <= 3:
                vals.append(int(word))
            else:
                raise Refused("syntax")
        return ("points", tuple(vals))
    if verb == "nines" and n == 2 and args[1] in ("won", "lost"):
        return ("nines", _num(args[0]), args[1] == "won")
    if verb == "bid" and n == 2 and args[1] in CONTRACTS:
        return ("bid", _num(args[0]), CONTRACTS.index(args[1]))
    if verb == "contract" and n == 1 and args[0] in ("made", "failed"):
        return ("contract", args[0] == "made")
    raise Refused("syntax")


def _n(i):
    return str(i + 1)


def format_event(ev):
    """Event tuple -> text line (the inverse of parse)."""
    verb = ev[0]
    if verb in _NO_ARGS:
        return verb
    if verb == "new":
        words = ["new", ev[1]]
        for key, val in ev[2]:
            words.append(key + "=" + val)
        return " ".join(words)
    if verb == "trump":
        return "trump " + SUITS[ev[1]]
    if verb == "trick":
        return "trick " + _n(ev[1]) + " " + " ".join([card_text(c) for c in ev[2]])
    if verb == "marriage":
        return "marriage " + _n(ev[1]) + " " + SUITS[ev[2]]
    if verb == "close":
        return "close " + _n(ev[1])
    if verb == "claim":
        if ev[2] < 0:
            return "claim " + _n(ev[1])
        return "claim " + _n(ev[1]) + " " + SUITS[ev[2]]
    if verb == "result":
        return "result " + _n(ev[1]) + " " + str(ev[2])
    if verb == "points":
        return "points " + " ".join(["n" if v == NO_TRICK else str(v) for v in ev[1]])
    if verb == "nines":
        return "nines " + _n(ev[1]) + (" won" if ev[2] else " lost")
    if verb == "bid":
        return "bid " + _n(ev[1]) + " " + CONTRACTS[ev[2]]
    if verb == "contract":
        return "contract " + ("made" if ev[1] else "failed")
    raise Refused("syntax")
