"""Event lines to key presses: what a player types on the device for each entry.

    keys = entry_keys(state, "trick 2 A T", "keypad")      # -> "b12"
    for line, keys in match_keys(lines, "buttons"): ...

The translation mirrors the documented key layouts (ui/keymap.py, ui/scoreboard.py,
ui/menus.py) and always takes the fewest presses the UI offers, so the tests
can check that the UI really enters what the keys say, and ui_figures.py can
count presses. Keys are a keyboard's characters, as the simulator (tools/sim.py) and the
browser page read them (ui/keyboard.py):

  keypad   a b c d players, 1-6 ranks A 10 K Q J 9, 7 8 9 0 suits S H D C,
           * undo, # OK/menu, z long * (redo), m long # (menu)
  buttons  w UP, s DOWN, e OK, q BACK; W S E Q held long

Entries the UI does not offer raise Unsupported: counted card points
(`points`), a four-player claim with a marriage (`claim P S`), suits of the
cards on the four-button layout, the suit of a trick's last card on the keypad
(the trick is entered on its last rank key), and `new` with options other than
the dealer and the names (names are typed as new names on a fresh device).
UiPlayer plays dealgen matches with only what the UI offers (a counted
`points` deal is entered as the `result` it amounts to).

Runs under CPython and MicroPython.
"""

from sixtysix.events import parse
from sixtysix.match import Match
from sixtysix.rules import RULE_SETS, Rules
from ui.lists import takes  # the menus' own test: would the deal take this record now

KEYPAD = "keypad"
BUTTONS = "buttons"

_PLAYER_KEYS = "abcd"
_RANK_KEYS = "123456"
_SUIT_KEYS = "7890"
_SOFT_KEYS = "wseq"  # four buttons: UP DOWN OK BACK, left to right under the screen

# Menu items (ui/menus.py scoreboard_menu) by their role.
TRUMP = "trump"
MARRIAGE = "marriage"
CLOSE = "close"
CLAIM = "claim"
RESULT = "result"
DRAW = "draw"
CUT9 = "cut9"
REDEAL = "redeal"
NINES = "nines"
CONTRACT = "contract"
MADE = "made"
FAILED = "failed"
NEXT = "next"
NO_CLAIM = "no claim"
SETTINGS = "settings"
GENERAL = ("undo", "redo", "history", "statistics", SETTINGS, "new match")
ENTRY_SETTING = 6  # "Entry: tricks/results", the seventh item of the settings list
SETTINGS_ITEMS = 8  # the last: "Suit" (French or German signs)


class Unsupported(Exception):
    """The UI offers no way to enter this."""


def menu_items(state):
    """The roles of the action menu's items, in screen order, for this state (None: no
    match). An entry is listed only when the deal would take it for some choice under it
    (a suit, a seat, the game points); with no match the general items but undo and redo."""
    if state is None:
        return list(GENERAL[2:])
    items = []
    if not state.over:
        rules = state.rules
        deal = state.deal
        lead = deal.leader
        if deal.played == deal.total:
            # The claim window (hidden totals, the last trick in): the claim of that trick's
            # side (it leads now), or none.
            return items + [CLAIM, NO_CLAIM] + list(GENERAL)
        if not deal.opened:
            items.append(NEXT)
        if deal.trump < 0:
            items.append(TRUMP)
        elif any(takes(state, bytes((2, lead, s))) for s in range(4)):
            items.append(MARRIAGE)
        if rules.stock and takes(state, bytes((3, lead))):
            items.append(CLOSE)
        for role, rec in ((CLAIM, bytes((4, lead))), (RESULT, bytes((5, 0, 1))),
                          (DRAW, b"\x06")):
            if takes(state, rec):
                items.append(role)
        if rules.pairs:
            # The highest bid from the pair that plays first counts whenever any bid can.
            for role, rec in ((CUT9, b"\x08"), (REDEAL, b"\x09"), (NINES, bytes((10, lead, 1))),
                              (CONTRACT, bytes((11, (deal.dealer + 1) % 4, 3))),
                              (MADE, b"\x0c\x01"), (FAILED, b"\x0c\x00")):
                if takes(state, rec):
                    items.append(role)
    items.extend(GENERAL)
    return items


def pick(layout, index, count, start=0):
    """Keys that pick item `index` of a list of `count` items whose cursor is at `start`."""
    if layout == KEYPAD:
        if index < 10:
            return str((index + 1) % 10)  # digits 1-9, then 0 for the tenth item
        down = (index - start) % count
        up = (start - index) % count
        return ("b" * down if down <= up else "a" * up) + "#"
    down = (index - start) % count
    up = (start - index) % count
    return ("s" * down if down <= up else "w" * up) + "e"


def open_menu(state, layout):
    """Keys that open the action menu from the scoreboard (nothing under way)."""
    opened = state is not None and state.deal.opened and not state.over
    if opened and state.deal.played == state.deal.total:
        # The claim window: # scores the deal; a long # opens the menu, and on four buttons
        # the soft key labelled with the menu sign (four players too).
        return "m" if layout == KEYPAD else "q"
    if layout == KEYPAD:
        return "#" if opened else "m"
    if opened and state.rules.players < 4:
        return "q"  # the soft key labelled with the menu sign
    return "E"  # a long OK opens the menu on every screen


def menu(state, layout, role):
    """Keys from the scoreboard to the menu item with this role."""
    items = menu_items(state)
    if role not in items:
        raise Unsupported("no menu item " + role)
    return open_menu(state, layout) + pick(layout, items.index(role), len(items))


def new_match_keys(rid, dealer, layout, from_board=False, names=None):
    """The new-match wizard: rule set, names (None: the seat numbers), then the first
    dealer (0-based; -1: by lot).

    from_board: the match on screen is over (the scoreboard offers a new match)."""
    keys = ""
    if from_board:
        keys = "#" if layout == KEYPAD else "e"
    # the new-match list shows the rule sets in the order of RULE_SETS (ui/menus.py)
    keys += pick(layout, RULE_SETS.index(rid), len(RULE_SETS))
    players = Rules(rid).players
    # The dealer list (ui/newmatch.py NewMatch): by lot, one item per seat, then the players'
    # names and the options (target or eights, hidden totals, counting down, and for three
    # players the judge).
    count = players + (5 if players == 3 else 4) + 1
    start = 0
    if names:
        keys += pick(layout, players + 1, count) + names_keys(names, layout)
        start = players + 1
    return keys + pick(layout, dealer + 1, count, start)


def names_keys(names, layout):
    """From the players' list (ui/nameentry.py Players): each seat's name typed as a new name
    (the seat's list ends with New name, No name: up twice from its first item), then back
    to the dealer list."""
    keys = ""
    cursor = 0
    for seat in range(len(names)):
        if names[seat] == str(seat + 1):
            continue
        keys += pick(layout, seat, len(names), cursor)
        cursor = seat
        keys += ("aa#" if layout == KEYPAD else "wwe") + type_name(names[seat], layout)
    return keys + ("*" if layout == KEYPAD else "q")


def _find(ch, letters):
    """Index of `ch` in `letters` (small letters; `ch` may be the capital), or -1."""
    from ui.nameentry import upper

    for i in range(len(letters)):
        if letters[i] == ch or upper(letters[i]) == ch:
            return i
    return -1


def type_name(name, layout):
    """Keys that type `name` in the name editor and take it (ui/nameentry.py Editor)."""
    from ui.nameentry import KEYS

    keys = ""
    abc = 0
    if layout == KEYPAD:
        last = -1
        for ch in name:
            for a in (abc, 1 - abc):
                hit = [(k, _find(ch, KEYS[a][k])) for k in range(10)
                       if _find(ch, KEYS[a][k]) >= 0]
                if hit:
                    break
            else:
                raise Unsupported("letter " + ch)
            if a != abc:
                keys += "a"
                abc = a
                last = -1
            k, tap = hit[0]
            if k == last:
                keys += "b"
            keys += str(k) * (tap + 1)
            last = k
        return keys + "#"
    wheel = 2

    def turn(frm, to, n):
        down = (to - frm) % n
        up = (frm - to) % n
        return "s" * down if down <= up else "w" * up

    for ch in name:
        letters = "".join(KEYS[abc][2:]) + "0123456789"
        if _find(ch, letters) < 0:
            keys += turn(wheel, 1, len(letters) + 2) + "e"
            wheel = 1
            abc ^= 1
            letters = "".join(KEYS[abc][2:]) + "0123456789"
        i = _find(ch, letters)
        if i < 0:
            raise Unsupported("letter " + ch)
        keys += turn(wheel, i + 2, len(letters) + 2) + "e"
        wheel = i + 2
    letters = "".join(KEYS[abc][2:]) + "0123456789"
    return keys + turn(wheel, 0, len(letters) + 2) + "e"


def _card_keys(layout, c):
    rank = c & 7
    suit = (c >> 3) - 1
    if layout == KEYPAD:
        return _RANK_KEYS[rank] + (_SUIT_KEYS[suit] if suit >= 0 else "")
    if suit >= 0:
        raise Unsupported("suits of cards on four buttons")
    # Soft keys show A 10 K and a page key; the second page Q J 9.
    return "wse"[rank] if rank < 3 else "q" + "wse"[rank - 3]


def results_mode_keys(state, layout):
    """Keys that switch the entry setting (tricks <-> results) and return to the board."""
    return (menu(state, layout, SETTINGS) + pick(layout, ENTRY_SETTING, SETTINGS_ITEMS) +
            ("m" if layout == KEYPAD else "E"))


def entry_keys(state, line, layout, results=False):
    """Keys for one event line, entered on the scoreboard with nothing under way.

    `state` is the match state before the entry (Match().state); results: the entry
    setting is "results" (a result is the winner's key, then the game points)."""
    words = line.split()
    verb = words[0]
    if verb == "undo":
        return "*" if layout == KEYPAD else "Q"
    if verb == "redo":
        return "z" if layout == KEYPAD else "W"
    rec = parse(line)
    code = rec[0]
    deal = state.deal
    rules = state.rules
    if code == 0:  # trump
        if layout == KEYPAD:
            return _SUIT_KEYS[rec[1]]
        return menu(state, layout, TRUMP) + pick(layout, rec[1], 4)
    if results and code == 5:  # the winning side's (first) player, then 1-3
        if not 1 <= rec[2] <= 3:
            raise Unsupported("game points above 3 in results mode")
        if layout == KEYPAD:
            return _PLAYER_KEYS[rec[1]] + str(rec[2])
        return _SOFT_KEYS[rec[1]] + _SOFT_KEYS[rec[2] - 1]
    if results and code == 1:
        raise Unsupported("tricks in results mode")
    if code == 1:  # trick: the winner, then one rank (and suit) per card
        if layout == KEYPAD:
            keys = _PLAYER_KEYS[rec[1]]
        else:
            keys = _SOFT_KEYS[rec[1]]
        if layout == KEYPAD and (rec[-1] >> 3):
            # The trick is entered on its last rank key: a suit key after it is read as
            # a marriage (host_tests/test_sim.py, test_keypad_suit_of_the_last_card).
            raise Unsupported("the suit of a trick's last card on the keypad")
        for c in rec[2:]:
            keys += _card_keys(layout, c)
        return keys
    if code == 2:  # marriage: always the leader's
        if rec[1] != deal.leader:
            raise Unsupported("a marriage of a player who does not lead")
        if layout == KEYPAD and deal.trump >= 0:
            return _SUIT_KEYS[rec[2]]
        return menu(state, layout, MARRIAGE) + pick(layout, rec[2], 4)
    if code == 3:  # close: the leader's
        if rec[1] != deal.leader:
            raise Unsupported("closing by a player who does not lead")
        return menu(state, layout, CLOSE)
    if code == 4 and deal.played == deal.total:
        # The claim window: the menu's Claim 66 claims for the last trick's taker at once.
        if len(rec) > 2 or rec[1] != deal.leader:
            raise Unsupported("a claim after the last trick by another than its taker")
        return menu(state, layout, CLAIM)
    if code == 4:  # claim [with a marriage]: four players choose "no marriage" or its suit
        keys = menu(state, layout, CLAIM) + pick(layout, rec[1], rules.players, deal.leader)
        if rules.pairs:
            keys += pick(layout, rec[2] + 1 if len(rec) > 2 else 0, 5)
        elif len(rec) > 2:
            raise Unsupported("a claim with a marriage outside the four-player game")
        return keys
    if code == 5:  # result: side, game points
        choices = rules.choices()
        if rec[2] not in choices:
            raise Unsupported("game points the menu does not offer")
        # The result list: one item per side, then "counted points".
        return (menu(state, layout, RESULT) + pick(layout, rec[1], rules.sides + 1) +
                pick(layout, choices.index(rec[2]), len(choices)))
    if code == 6:
        return menu(state, layout, DRAW)
    if code == 7:
        raise Unsupported("counted card points")
    if code == 8:
        return menu(state, layout, CUT9)
    if code == 9:
        return menu(state, layout, REDEAL)
    if code == 10:  # nines: player, won (1) / lost (0); the list shows won first
        return (menu(state, layout, NINES) + pick(layout, rec[1], rules.players, deal.leader) +
                pick(layout, 1 - rec[2], 2))
    if code == 11:  # bid: player, kind
        return (menu(state, layout, CONTRACT) + pick(layout, rec[1], rules.players, deal.leader) +
                pick(layout, rec[2], 4))
    if code == 12:
        return menu(state, layout, MADE if rec[1] else FAILED)
    if code == 13:  # next: OK on the scoreboard of an ended deal, or in the claim window
        return "#" if layout == KEYPAD else "e"
    raise Unsupported(verb)


def joins_next(state, line, following, layout):
    """True when `line` is a `next` in the claim window that takes no key of its own: on the
    keypad the next deal's trump key (the `following` line) says nobody claims and opens
    that deal (ui/scoreboard.py), one press for both entries."""
    deal = state.deal
    return (layout == KEYPAD and line == "next" and not state.over and deal.opened
            and deal.played == deal.total and following.startswith("trump"))


def setup_keys(line, layout, from_board=False):
    """Keys for a `new RULES dealer=N [names=A,B]` line (options other than these are
    not typed here)."""
    words = line.split()
    dealer = 0
    names = None
    for w in words[2:]:
        if w.startswith("dealer="):
            dealer = int(w[7:]) - 1
        elif w.startswith("names="):
            names = w[6:].split(",")
        else:
            raise Unsupported("option " + w)
    return new_match_keys(words[1], dealer, layout, from_board, names)


def match_keys(lines, layout, results=False):
    """[(line, keys)] for a `new` line and the events after it; entries are checked by
    the core as they go (a refused line raises Refused, as it would on the device).

    results: enter results as in the "results" entry setting, which the keys of the
    first `new` line switch on (settings outlive matches)."""
    m = Match()
    out = []
    switch = results
    for i, line in enumerate(lines):
        if line.startswith("new"):
            keys = setup_keys(line, layout, m.state is not None and m.state.over)
            m.enter_line(line)
            if switch:
                keys += results_mode_keys(m.state, layout)
                switch = False
        else:
            keys = entry_keys(m.state, line, layout, results)
            if i + 1 < len(lines) and joins_next(m.state, line, lines[i + 1], layout):
                keys = ""
            if line == "undo":
                m.undo()
            elif line == "redo":
                m.redo()
            else:
                m.enter_line(line)
        out.append((line, keys))
    return out


def _dealgen_player():
    from dealgen import Player

    class UiPlayer(Player):
        """dealgen's random player, entering only what the UI offers."""

        def enter(self, line):
            if line.startswith("points"):
                line = self._as_result(line)
            Player.enter(self, line)

        def _as_result(self, line):
            m = self.match
            m.enter_line(line)
            state = m.state
            row = state.row(state.deals() - 1)
            gp = 0
            for side, points, _markers in row[3]:
                if side == row[2]:
                    gp += points
            m.undo()
            return "result %d %d" % (row[2] + 1, gp)

    return UiPlayer


def random_match(rid, seed, suits=True, quick=10, dealer=1, max_deals=60):
    """A random legal match the UI can enter: the list of lines and the final Match."""
    player = _dealgen_player()("new %s dealer=%d" % (rid, dealer), seed, quick=quick,
                               suits=suits)
    m = player.play_match(max_deals)
    return player.lines, m


def first_deal(layout, rid="mariage", seed=1):
    """[(line, keys)] of a new match and its whole first deal (a random legal one, no suits
    typed), then the first entry of the next deal."""
    lines, _m = random_match(rid, seed, suits=False, max_deals=2)
    m = Match()
    n = 0
    while n == 0 or m.state.deals() == 0:
        m.enter_line(lines[n])
        n += 1
    return match_keys(lines[:n + 1], layout)
