"""The scoreboard's code for a table that enters some suits and not others: a suit key
right after a trick counted (it gives the trick's last card its suit), and what the bottom
line says of a trick the core refused because its stated winner cannot take it.

ui/scoreboard.py loads this module when such a key or refusal comes (a table that types
ranks alone, or every suit, never meets them) and drops it again once it has acted (the
loader's job "amend").
"""

from compat import const
from sixtysix.cards import card, suit_of
from sixtysix.errors import Refused
from ui.i18n import t
from ui.screen import SUIT_TEXT

_RANK_TEXT = const(("A", "10", "K", "Q", "J", "9"))


def suit(scoreboard, app, amend, s):
    """Suit `s` for the last card of `amend`, the trick just entered. The entry is
    replaced in one write, checked in its place first. Refused, the trick stays as it
    was, unless the suit makes it one its winner cannot take."""
    new = amend[:-1] + bytes((card(amend[-1] & 7, s),))
    why = app.enter(new, True)[1]
    if why and why != "wrong_winner":
        scoreboard.amend = amend  # (a card already played) the next suit key may still amend
    elif why and app.undo():  # its message is loses()'s below
        # With that suit its winner cannot take the trick: it leaves the match (one
        # journal line) and waits on the entry line as typed, as a trick refused at
        # its last key does: a suit key gives the card another suit, * takes it back.
        scoreboard.win = new[1]
        scoreboard.cards = bytearray(new[2:])
        loses(scoreboard, app, app.match.state)


def loses(scoreboard, app, state):
    """The reason for a trick on the line that its winner cannot take: which card loses,
    and the key that puts it right: a suit key (another suit for the last card) when some
    suit would, else *."""
    cards = scoreboard.cards
    c = cards[(scoreboard.win - state.deal.leader) % state.rules.players]  # the winner's card
    s = suit_of(c)
    key = "loses suit"
    try:  # the core's check of the trick with the last card's suit left open
        state.check(bytes((1, scoreboard.win)) + bytes(cards[:-1]) + bytes((cards[-1] & 7,)))
    except Refused:
        key = "loses star"
    app.say(_RANK_TEXT[c & 7] + (SUIT_TEXT[s] if s >= 0 else "") + " " + t(key))
