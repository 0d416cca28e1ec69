"""Camera mode's glue (web/camera.js): the keys that enter a trick the camera read.

The camera reads cards; the core says who takes the trick (the leader, the trump, the
cards) and whether the deal takes it, without entering it (the deal's own check, do=False).
The keys are the keypad's characters (ui/keyboard.py), typed through the page's own key path,
so a trick read by the camera is entered exactly as a typed one. Loaded by the page only
when camera mode is on.
"""

import json

import webmain
from sixtysix.cards import card
from sixtysix.deal import trick_winner
from sixtysix.errors import Refused
from sixtysix.events import RANKS, SUITS, card_text
from ui.keyboard import key_of

_PLAYER_KEYS = "abcd"
_RANK_KEYS = "123456"  # A 10 K Q J 9
_SUIT_KEYS = "7890"  # S H D C
# The core's refusals of a trick for its cards themselves (a card played twice, a fifth of
# a rank, a rank the rules leave out, a winner the suits deny, a lead a marriage forbids):
# given a reading, the deck was read wrong (web/camera.js then stops proposing). The
# others say where the deal stands (over, a bid open), not what the camera read.
_DECK_REFUSALS = ("card_seen", "too_many", "bad_rank", "wrong_winner", "lead_marriage")


def players():
    """How many cards a trick has now (0: no match on the board)."""
    state = webmain._app().match.state
    return state.rules.players if state is not None else 0


def gone():
    """The cards no box can hold in the deal's next trick, as codes ("9S QH"): every card
    played with its suit entered, every suit of a rank whose four cards are out, and the
    ranks the rules leave out (Schnapsen's nines). The page reads a box as one of the
    other cards only (web/camera.js): a card the rules cannot give is never proposed, and
    the model's doubt between a played card and another is no doubt. Empty with no match."""
    state = webmain._app().match.state
    if state is None:
        return ""
    deal = state.deal
    out = []
    for rk in range(len(RANKS)):
        for s in range(len(SUITS)):
            if rk >= state.rules.ranks or deal.seen[rk] >= 4 or deal.known >> (rk * 4 + s) & 1:
                out.append(RANKS[rk] + SUITS[s])
    return " ".join(out)


def played():
    """The cards the deal has played with their suits entered, as codes ("9S QH"): the
    core's own record (Deal.known). A box the model reads as one of them is not proposed
    (web/camera.js): the card lies in no box now, so the reading is wrong. Empty with no
    match."""
    state = webmain._app().match.state
    if state is None:
        return ""
    known = state.deal.known
    return " ".join(RANKS[b >> 2] + SUITS[b & 3] for b in range(len(RANKS) * 4)
                    if known >> b & 1)


def last_trick():
    """The match's last entry if it is a trick: its winner's seat and its cards in play
    order, a card's suit "?" where it was not typed ("1 JS A?"); else "". The page compares
    it with a proposal the player's key dropped: another trick entered there corrects the
    camera's reading."""
    match = webmain._app().match
    log = match.log or (match.prev[1] if match.prev else b"")
    if not log:
        return ""
    n = log[-1]
    rec = log[-1 - n:-1]
    if rec[0] != 1:
        return ""
    out = [str(rec[1])]
    for c in rec[2:]:
        t = card_text(c)
        out.append(t if len(t) == 2 else t + "?")
    return " ".join(out)


def entered():
    """Where the match's tricks stand ("deals.tricks of this deal"): it changes when a trick
    is entered (by the camera's OK or typed), undone, or a deal begins. The page then
    wants the boxes empty before it proposes again: the cards lying there may be the
    trick just entered (typed with ranks only, nothing says they were played)."""
    state = webmain._app().match.state
    return "" if state is None else "%d.%d" % (state.deals(), state.deal.played)


def keys(codes):
    """codes: the cards in play order, e.g. "QH KS" (rank letter of ATKQJ9, suit of SHDC).
    Answer (JSON): {"keys": the keypad characters that enter the trick, "winner": its seat}
    or {"why": a reason the trick is not proposed now}, with "deck": true where the core
    refused the trick for its cards (_DECK_REFUSALS)."""
    app = webmain._app()
    why = app.proposable()
    if why is not None:
        return json.dumps({"why": why})
    state = app.match.state
    deal = state.deal
    if deal.trump < 0:
        return json.dumps({"why": "trump"})
    cards = []
    for code in codes.split():
        cards.append(card(RANKS.index(code[0]), SUITS.index(code[1])))
    seat = (deal.leader + trick_winner(cards, deal.trump)) % state.rules.players
    try:
        state.check(bytes([1, seat] + cards))  # the core's own check, as a typed trick gets
    except Refused as e:
        return json.dumps({"why": e.code, "deck": e.code in _DECK_REFUSALS})
    out = _PLAYER_KEYS[seat]
    for c in cards:
        out += _RANK_KEYS[c & 7] + _SUIT_KEYS[(c >> 3) - 1]
    return json.dumps({"keys": out, "winner": seat})


def type_keys(chars):
    """Type keypad characters (a trick's keys, or the last card's on OK) as the player types
    them: each key acts and settles as App.press() has it, and the panel is drawn once at
    the end, as the frames between would never be seen. What the page reads after a key,
    as webmain.key() answers it (webmain.after())."""
    app = webmain._app()
    for ch in chars:
        name, long = key_of(app.layout, ch)
        app.key(name, long)
        app.settle()
    webmain._keep_typed()
    return webmain.after(app.render())


def drop():
    """Take a proposed trick's typed keys off the board (a key typed over a proposal, or
    the cards taken away before OK): the trick being typed is cleared, nothing is entered.
    True if the panel changed."""
    app = webmain._app()
    if not app.drop_typed():
        return False
    webmain._keep_typed()
    return app.render()
