"""Four players in pairs (seed 000): the cut for nines, redeal, three nines, contracts.

Kept apart from deal.py and imported on first use, so two- and three-player
matches do not spend RAM on this code. Deal.on_imported has already checked
that the game has pairs and the deal is still running. Each function checks
first and changes the deal only when `do` is true, as in deal.py.
"""

from .errors import Refused


def _before_play(d, seat=0):
    """Redeal, three nines and bids belong before the first trick."""
    if d.played:
        raise Refused("too_late")
    d._need(seat, play=False)


def cut9(d, rec, do):
    if d.started:
        raise Refused("too_late")
    if do:
        d.cut9 += 1
        if d.cut9 == 3:
            # Seed 000: the third nine in the cut gives the dealing pair 1.
            d._end(d.side(d.dealer), "cut_nines", 1)


def redeal(d, rec, do):
    _before_play(d)
    if d.nines_side >= 0 or d.bid_kind >= 0:
        raise Refused("too_late")
    if do:
        d._end(-1, "redeal")


def nines(d, rec, do):
    """Three nines: a side game worth 3 that does not end the deal."""
    seat = rec[1]
    _before_play(d, seat)
    if d.nines_side >= 0:
        raise Refused("nines_done")
    if d.bid_kind >= 0:
        raise Refused("bid_open")
    if do:
        side = d.side(seat)
        d.nines_side = side if rec[2] else 1 - side
        d.started = True
        d.awards.append((d.nines_side, 3, 0))


def bid(d, rec, do):
    seat = rec[1]
    kind = rec[2]
    _before_play(d, seat)
    if d.bid_kind >= 0:
        # Seed 000: the higher game plays; for an equal one the pair earlier
        # in play keeps it. That pair's seats are an odd count past the dealer's:
        # the player left of the dealer plays first.
        if kind < d.bid_kind or (kind == d.bid_kind and not (
                (seat - d.dealer) % 2 == 1 and (d.bid_seat - d.dealer) % 2 == 0)):
            raise Refused("bid_low")
    if do:
        d.bid_seat = seat
        d.bid_kind = kind
        d.started = True


def contract(d, rec, do):
    if d.bid_kind < 0:
        raise Refused("no_bid")
    if not do:
        return
    made = rec[1]
    side = d.side(d.bid_seat)
    other = 1 - side
    kind = d.bid_kind
    if kind < 2:
        d._end(side if made else other, "contract", 5 + kind)  # five or six
        return
    # Coat: one marker; costume: coat plus lining, two markers.
    d.awards.append((other if made else side, 0, kind - 1))
    d._end(side if made else other, "contract")


# In the order of events.VERBS from `cut9` on.
ENTRIES4 = (cut9, redeal, nines, bid, contract)
