"""The scoreboard, where tricks are entered.

Keypad: a trick is the winner's key (A-D) then one rank key per card (1-6 =
A 10 K Q J 9), three presses for two players; a suit key (7 8 9 0) after a
rank adds its suit. A player key in a trick with some cards typed is refused (it
says how many cards are to come); on a winner alone or a refused trick it starts
the trick again. With no trick under way a suit key enters trump (once per
deal) or the leader's marriage in that suit. * takes back the last key of an
unfinished trick (right after a player key, what that key replaced), else the last
entry. # opens the menu, or the next deal; in a trick under way it says what the
trick still needs. The trick's check is the core's alone.

Hidden totals: after the last trick the deal waits for a claim of 66 by that trick's side
(the menu's Claim 66); # says nobody claims and shows the deal's result, and # again
opens the next deal; a suit key says nobody claims and opens the next deal with that trump.

Result entry (settings: entry = results): the winner's key, then the game
points (1, 2 or 3): two presses per deal, and the next deal opens by itself.

Four buttons: the bottom line labels what each button does (soft keys: ui/softkeys.py).
"""

from compat import const
from loader import drop
from sixtysix.cards import card, suit_of
from ui import keymap
from ui.i18n import t
from ui.screen import LINE, SUIT_TEXT, Screen, W, side_name

_RANK_TEXT = const(("A", "10", "K", "Q", "J", "9"))


class Scoreboard(Screen):
    def __init__(self):
        self.win = -1  # the trick being entered: its winner, then its cards
        self.cards = bytearray()
        self.page = 0  # four buttons: which half of the rank strip is shown
        # The trick just entered, while a suit key may still complete its last card:
        # a trick counts on its last rank key, before a suit could follow it.
        self.amend = None
        # What a player key just replaced on the line (as typed() gives it): * right after
        # puts it back. (A name the match has too: no new interned name on the board.)
        self.prev = b""

    # --- keys -------------------------------------------------------------

    def act(self, app, action, arg):
        amend = self.amend
        self.amend = None
        prev = self.prev
        self.prev = b""
        state = app.match.state
        if state is None:
            # No match yet: # (OK) starts one, as the screen says; a held # (OK) opens the
            # menu as during a match, its general items (settings, statistics, ...) alone.
            if action == keymap.MENU:
                app.menus().scoreboard_menu(app)
            elif action == keymap.OK or action == keymap.SOFT and arg == 2:
                app.menus().new_match(app)
            return
        if action == keymap.SOFT:
            from ui.softkeys import soft  # four buttons only: dropped with the scoreboard

            key = soft(self, app)[arg]  # (label, action, argument), or None
            if key is None:
                return
            _label, action, arg = key
        if action == keymap.UNDO:
            # * takes back the last key of the trick being typed, else the last entry.
            if prev:
                self.win = prev[0] - 1
                self.cards = bytearray(prev[1:])
            elif self.cards:
                self.cards = self.cards[:-1]
            elif self.win >= 0:
                self.win = -1
            else:
                app.undo()
            self.page = 0
        elif action == keymap.REDO:
            self.clear()
            app.redo()
        elif action == keymap.MENU:
            if arg == 1:  # four buttons: the suit list, as a suit key on the keypad
                app.menus().suit_list(app)
            else:
                app.menus().scoreboard_menu(app)
        elif state.over:
            if action == keymap.OK:
                app.menus().new_match(app)
        elif action == keymap.OK:
            deal = state.deal
            if not deal.opened or deal.played == deal.total:
                # next: the players have seen the result; or, in the claim window, nobody
                # claims 66 and the deal is scored by the last trick's rules
                app.enter(b"\x0d")
            elif self.win < 0:
                app.menus().scoreboard_menu(app)
            elif not app.settings["quick"]:
                # # in a trick under way: how many cards it still needs (rank keys), or on a
                # refused trick kept on the line, that * puts it right first.
                n = state.rules.players - len(self.cards)
                app.say(t("cards to go") + " " + str(n) if n else t("star fixes"))
        elif action == keymap.WIN:
            deal = state.deal
            if deal.played == deal.total or not deal.opened and not app.settings["quick"]:
                app.refuse("deal_over")
            elif arg >= state.rules.players:
                app.refuse("no_player")
            else:
                n = state.rules.players - len(self.cards)
                if 0 < n < state.rules.players:
                    # A trick half typed: more likely a card forgotten than a new trick, and
                    # dropping its cards lost a trick (the next one typed over it). Refused:
                    # the cards stay, the line says how many are to come (as #); * undoes.
                    app.say(t("cards to go") + " " + str(n))
                    app.beep(0)
                else:
                    # A new trick, or another winner for a winner alone or a refused trick
                    # (typed again from its winner): * right after puts the line back.
                    self.prev = self.typed()
                    self.win = arg
                    self.cards = bytearray()
        elif action == keymap.RANK:
            self._rank(app, state, arg)
        elif action == keymap.SUIT:
            self._suit(app, state, arg, amend)
        elif action == keymap.PICK:  # four buttons: the second half of the rank strip
            self.page = arg

    def typed(self):
        """The trick being typed: its winner + 1, then its cards (b"": none); App.typed()."""
        return bytes((self.win + 1,)) + bytes(self.cards) if self.win >= 0 else b""

    def retype(self, state, line):
        """Put back a trick typed() gave, if this deal can still be typing it: a seat of
        the match and fewer cards than a trick has, of ranks the pack holds (App.retype)."""
        n = state.rules.players
        if not line or not 0 < line[0] <= n or len(line) > n:
            return
        for c in line[1:]:
            if c & 7 >= state.rules.ranks:
                return
        self.win = line[0] - 1
        self.cards = bytearray(line[1:])

    def clear(self):
        """Drop the trick being typed. (A list opening over the scoreboard drops the whole
        scoreboard, and with it a trick half typed: App.push.)"""
        self.win = -1
        self.cards = bytearray()
        self.page = 0
        self.prev = b""

    def _rank(self, app, state, rank):
        if self.win < 0:
            deal = state.deal
            if deal.played < deal.total and (deal.opened or app.settings["quick"]):
                app.say(t("winner first"))
            else:
                app.refuse("deal_over")  # as the winner's key says on the deal's result
            return
        if app.settings["quick"]:
            # Keys 1-3 are the game points; the winner is a side (a pair with four players).
            rec = bytes((5, state.deal.side(self.win), rank + 1))
            self.clear()
            app.enter(rec)
            return
        if len(self.cards) == state.rules.players:  # a refused trick stays on the line
            app.say(t("star fixes"))
            return
        self.cards.append(card(rank))
        self.page = 0
        self._complete(app, state)

    def _complete(self, app, state):
        """A trick with all its cards counts, as the core checks it (once: its suit
        guesses included). Refused, its keys stay on the entry line with the reason: *
        takes back the last one, and one key puts it right."""
        if len(self.cards) == state.rules.players:
            rec = bytes((1, self.win)) + bytes(self.cards)
            why = app.enter(rec)[1]
            if not why:
                self.clear()
                if suit_of(rec[2]) >= 0 and suit_of(rec[-1]) < 0:
                    self.amend = rec  # suits are being entered: the next key may be the last one's
            elif why == "wrong_winner":
                from ui.amend import loses  # tables that enter some suits: dropped after use

                loses(self, app, state)
                drop("amend")

    def _suit(self, app, state, suit, amend):
        """A suit key: it gives the last card of the trick just entered (amend), or of the
        trick being typed, its suit; with no trick under way it enters trump or a marriage."""
        if amend is not None:
            from ui.amend import suit as amend_suit  # as loses() above

            amend_suit(self, app, amend, suit)
            drop("amend")
            return
        if self.win >= 0:
            cards = self.cards
            n = len(cards)
            # A suit follows its rank; on a refused trick (the line full) it replaces the
            # last card's suit.
            if not n or suit_of(cards[-1]) >= 0 and n < state.rules.players:
                app.say(t("rank first"))
                return
            c = card(cards[-1] & 7, suit)
            seen = state.deal.known & 1 << (c & 7) * 4 + suit
            for i in range(n - 1):
                if cards[i] == c:
                    seen = 1
            if seen:
                # A card already played, refused at the key that makes it: the line stays.
                app.refuse("card_seen")
                return
            cards[-1] = c
            self._complete(app, state)  # a refused trick, given the suit it lacked
            return
        deal = state.deal
        if deal.played == deal.total:
            # The claim window (hidden totals): the next deal's trump says nobody claims
            # (the rules' settled details). `next` scores this deal, then the trump opens
            # the next one: two entries, one key, undone one at a time.
            if app.enter(b"\x0d")[1]:
                return
            deal = state.deal  # the next deal's
        if deal.trump < 0:
            app.enter(bytes((0, suit)))  # trump (it also opens a new deal)
        else:
            app.enter(bytes((2, deal.leader, suit)))  # the leader's marriage

    # --- drawing ---------------------------------------------------------------

    def draw(self, app, fb):
        mark = app.club_mark
        if mark:
            # Club night: the top right's last two columns (no name reaches them) hold a
            # solid bar when the service has every result, a dotted one while some wait.
            h = 9 if mark == 2 else 2
            for y in range(0, 9, h + 1):
                fb.fill_rect(W - 2, y, 2, h, 1)
        pct = getattr(app, "battery", None)
        if pct is not None:
            # A board that reads its cell (ui/app_cell.py sets app.battery, on those
            # boards only): the top left's first two columns (names start at x 2) hold its
            # charge, a bar from the bottom up.
            h = (pct * 9 + 99) // 100
            fb.fill_rect(0, 9 - h, 2, h, 1)
        state = app.match.state
        text = app.text
        if state is None:
            _center(app, t("new match") + "?", 20)
            bottom = "# " + t("new match")
        else:
            rules = state.rules
            sides = rules.sides
            col = W // sides
            for s in range(sides):
                # Names, with the dealer marked; pairs add their completed eights (when a
                # match has more than one) and markers. A long name is cut, never these.
                tail = ""
                if rules.pairs:
                    if rules.games > 1:
                        tail = " " + str(state.games[s]) + t("games_short")
                    if state.markers[s]:
                        tail += " " + str(state.markers[s]) + t("coat_short")
                elif state.deal.dealer == s:
                    tail = "\u00b7"  # a middle dot after the dealer
                name = side_name(state.names, sides, s)
                name = text.clip(name, col - 2 - text.width(tail)) + tail
                app.write(name, self._x(s, sides, text.width(name)), 0)
                # The match score, big enough to read across the table: digits three times
                # the font's size (24 px of ink from y 10), two times where three would not fit.
                shown = str(state.score_shown(s))
                if rules.pairs:
                    shown += "/" + str(rules.target)
                w = text.width(shown)  # the digits' width at the font's size (big_width / scale)
                scale = 3 if 3 * w <= col - 4 else 2
                # ink starts `scale` rows down
                text.draw_big(fb, shown, self._x(s, sides, scale * w), LINE - scale, scale)
            bottom = self._below(app, state)
        if app.layout == keymap.BUTTONS:
            from ui.softkeys import labels

            labels(self, app)
        else:
            app.write(text.clip(bottom, W), 0, 64 - LINE)

    def _below(self, app, state):
        """The lines under the score; returns what the bottom line says on a keypad."""
        deal = state.deal
        y = LINE + 24
        quick = app.settings["quick"]
        if state.over or not deal.opened:
            self._result(app, state, y)
            if state.over:
                return "# " + t("new match")
            return t("winner, points") if quick else "# " + t("next deal")
        if quick and deal.played < deal.total:
            if self.win >= 0:  # the winner is a side (a pair with four players)
                return side_name(state.names, state.rules.sides, deal.side(self.win)) + ": +1/2/3?"
            return t("winner, points")
        # The deal under way: each side's card points and tricks, trump between two.
        sides = state.rules.sides
        if app.message and app.layout == keymap.BUTTONS and self.win >= 0:
            # Four buttons: a message takes the line above the soft keys (App.render); the
            # trick under way, which was there, takes the points' line till the next key.
            y -= LINE
        else:
            if app.message and self.win >= 0:
                # A message's bar takes the bottom line and the trick under way the line
                # above it: both that line and the points go a row higher, so the trick's
                # cursor keeps clear of the bar.
                y -= 1
            for s in range(sides):
                pts = "??" if state.rules.hidden else str(deal.points[s])
                if deal.pending[s]:
                    pts += "+" + str(deal.pending[s])
                pts += " (" + str(deal.tricks[s]) + ")"
                app.write(pts, self._x(s, sides, app.text.width(pts)), y)
            if deal.trump >= 0 and sides == 2:
                _center(app, SUIT_TEXT[deal.trump], y)
        trick = None
        if self.win >= 0:
            parts = [side_name(state.names, state.rules.sides, deal.side(self.win)), ":"]
            for c in self.cards:  # "A♠", or "10" while its suit is not given
                s = suit_of(c)
                parts.append(_RANK_TEXT[c & 7] + (SUIT_TEXT[s] if s >= 0 else ""))
            parts.append("_")
            trick = " ".join(parts)
        if deal.played == deal.total:
            # The claim window (hidden totals): the last trick is in, nobody has claimed.
            # On four buttons the line under the points says so (the soft keys hold the
            # bottom line), on the keypad the bottom line.
            claim = t("claim?")
            if app.layout == keymap.BUTTONS:
                app.write(app.text.clip(claim, W), 0, y + LINE)
            else:
                self._deal(app, state, y + LINE, None)
            return claim
        self._deal(app, state, y + LINE, trick)
        if trick:
            return trick
        if deal.trump < 0:
            return t("trump?")
        lead = t("lead") + " " + state.names[deal.leader]
        line = t("deal") + " " + str(state.deals() + 1) + "  " + lead
        return line if app.text.fits(line, W) else lead  # long names: the lead alone

    def _deal(self, app, state, y, trick):
        """The line under the points: trump, the stock, marriages or the bid; or the trick
        being typed, when the bottom line is taken."""
        deal = state.deal
        rules = state.rules
        text = app.text
        width = W
        buttons = app.layout == keymap.BUTTONS
        if buttons:
            # No bottom line for it on four buttons: whose lead it is goes to the right here
            # (and stays there while a trick is typed on this line).
            lead = t("lead b") + " " + state.names[deal.leader]
            width -= text.width(lead) + 6
            app.write(lead, W - text.width(lead), y)
        if trick and (app.message or buttons):
            # The soft keys or a refusal's reason take the bottom line: the trick goes here,
            # (over a message's bar the caller has moved this line a row higher, so the
            # cursor, the font's "_" on its ninth row, does not touch the bar).
            app.write(text.clip(trick, width), 0, y)
            return
        # trump (three and four players), the contract or the stock, its closer or bidder,
        # then the marriages; a long name is cut before anything else.
        head = ""
        if deal.trump >= 0 and rules.sides != 2:
            head = SUIT_TEXT[deal.trump] + " "
        name = ""
        more = ""
        if deal.bid_kind >= 0:
            head += t("bid_" + str(deal.bid_kind)) + " "
            name = state.names[deal.bid_seat] + " "
        else:
            if rules.stock:
                if deal.closer >= 0:
                    head += t("closed") + " "
                    name = state.names[deal.closer] + " "
                else:
                    head += t("stock") + " " + str(deal.stock_left()) + " "
            if deal.marriages:
                # "20♠40♥"; with too many for the line, the suits alone; on a line that holds
                # the lead, perhaps not even those.
                suits = ""
                for _seat, suit, value in deal.marriages:
                    more += str(value) + SUIT_TEXT[suit]
                    suits += SUIT_TEXT[suit]
                if not text.fits(head + name + more, width):
                    more = suits if text.fits(head + suits, width) else ""
        if name:
            name = text.clip(name[:-1], width - text.width(head + " " + more)) + " "
        app.write(text.clip((head + name + more).strip(), width), 0, y)

    def _result(self, app, state, y):
        """The deal that just ended: who gets how many ("2 gets 1"), or who won the match;
        below it why ("false claim") and the card points."""
        row = state.row(state.deals() - 1)
        side = winner = row[2]
        gp = marked = 0
        on = -1
        for who, points, markers in row[3]:
            if who == winner:
                gp += points
            if markers:
                on, marked = who, markers
        if state.over:
            side = state.winner
            tail = " " + t("wins match")
        elif marked and not gp:  # a coat or a costume: what it puts on whom
            side = on
            tail = ": " + t("bid_" + str(marked + 1))
        elif winner >= 0:
            tail = " " + t("gets") + " " + str(gp)
        else:  # no winner: side is -1 already
            tail = t("no winner")
        text = app.text
        # A long name is cut, never the points.
        head = tail
        if side >= 0:
            name = side_name(state.names, state.rules.sides, side)
            head = text.clip(name, W - text.width(tail)) + tail
        why = t("why_" + row[1])
        pts = row[4]
        if max(pts):  # quick results carry no card points; too long a line drops them
            more = (why + "  " + " : ".join(map(str, pts))).strip()
            if text.fits(more, W):
                why = more
        app.write(text.clip(head, W), 0, y)
        app.write(why, 0, y + LINE)

    def _x(self, s, sides, w):
        """Where text `w` pixels wide starts in side `s`'s column."""
        col = W // sides
        if sides == 2:
            return 2 if s == 0 else W - 2 - w
        return s * col + (col - w) // 2


def _center(app, s, y):
    """Text `s` centred across the panel at row y (the scoreboard's alone: on the board the
    App's code is in the heap under every list too)."""
    app.write(s, (W - app.text.width(s)) // 2, y)
