"""The scoreboard, where tricks are entered.

Keypad: a trick is the winner's key (A-D) then one rank key per card (1-6 =
A 10 K Q J 9), three presses for two players; a suit key (7 8 9 0) after a
rank adds its suit. With no trick under way a suit key enters trump (once per
deal) or the leader's marriage in that suit. * takes back the last key of an
unfinished trick, else the last entry. # opens the menu, or the next deal.

Result entry (settings: entry = results): the winner's key, then the game
points (1, 2 or 3): two presses per deal, and the next deal opens by itself.

Four buttons: the bottom line labels what each button does (soft keys: ui/softkeys.py).
"""

from sixtysix.cards import card, suit_of
from ui import keymap
from ui.i18n import t
from ui.screen import LINE, SUIT_TEXT, Screen, W, side_name

RANK_TEXT = ("A", "10", "K", "Q", "J", "9")


class Board(Screen):
    def __init__(self):
        self.win = -1  # the trick being entered: its winner, then its cards
        self.cards = bytearray()
        self.page = 0  # four buttons: which half of the rank strip is shown
        # The trick just entered, while a suit key may still complete its last card:
        # a trick counts on its last rank key, before a suit could follow it.
        self.amend = None

    # --- keys -------------------------------------------------------------

    def act(self, app, action, arg):
        amend = self.amend
        self.amend = None
        state = app.match.state
        if state is None:
            if action in (keymap.OK, keymap.MENU) or action == keymap.SOFT and arg == 2:
                app.menus().new_match(app)
            return
        if action == keymap.SOFT:
            from ui.softkeys import soft  # four buttons only: dropped with the board

            key = soft(self, app)[arg]  # (label, action, argument), or None
            if key is None:
                return
            _label, action, arg = key
        if action == keymap.UNDO:
            # * takes back the last key of the trick being typed, else the last entry.
            if self.cards:
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
                app.menus().board_menu(app)
        elif state.over:
            if action == keymap.OK:
                app.menus().new_match(app)
        elif action == keymap.OK:
            if not state.deal.opened:
                app.enter(b"\x0d")  # next: the players have seen the result
            elif self.win < 0:
                app.menus().board_menu(app)
        elif action == keymap.WIN:
            if not state.deal.opened and not app.settings["quick"]:
                app.refuse("deal_over")
            elif arg >= state.rules.players:
                app.refuse("no_player")
            else:
                self.win = arg
                self.cards = bytearray()
        elif action == keymap.RANK:
            self._rank(app, state, arg)
        elif action == keymap.SUIT:
            self._suit(app, state, arg, amend)
        elif action == keymap.PICK:  # four buttons: the second half of the rank strip
            self.page = arg

    def clear(self):
        """Drop the trick being typed. (A list opening over the scoreboard drops the whole
        scoreboard, and with it a trick half typed: App.push.)"""
        self.win = -1
        self.cards = bytearray()
        self.page = 0

    def _rank(self, app, state, rank):
        if self.win < 0:
            app.say(t("winner first"))
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
        """A trick with all its cards counts. Refused, its keys stay on the entry line
        with the reason: * takes back the last one, and one key puts it right."""
        if len(self.cards) == state.rules.players:
            rec = bytes((1, self.win)) + bytes(self.cards)
            if app.enter(rec):
                self.clear()
                if suit_of(rec[2]) >= 0 and suit_of(rec[-1]) < 0:
                    self.amend = rec  # suits are being entered: the next key may be the last one's

    def _suit(self, app, state, suit, amend):
        """A suit key: it gives the last card of the trick just entered (amend), or of the
        trick being typed, its suit; with no trick under way it enters trump or a marriage."""
        if amend is not None:
            # The entry is replaced, or if the new one is refused, the trick stays as it was.
            new = amend[:-1] + bytes((card(amend[-1] & 7, suit),))
            m = app.match
            # Checked first, in RAM alone: the trick taken back, the new one checked in its
            # place, the trick put back. A refusal is shown and nothing has changed.
            m.undo()
            ok = app.attempt(m.state.check, new)
            m.redo()
            session = app.session
            if ok and app.attempt(session.undo):
                if app.attempt(session.enter, new):
                    app.after_entry()
                else:
                    app.attempt(session.redo)  # a failed write: the trick as it was
            return
        if self.win >= 0:
            if not self.cards or suit_of(self.cards[-1]) >= 0:
                app.say(t("rank first"))
            else:
                self.cards[-1] = card(self.cards[-1] & 7, suit)
                self._complete(app, state)  # a refused trick, given the suit it lacked
            return
        deal = state.deal
        if deal.trump < 0:
            app.enter(bytes((0, suit)))  # trump (it also opens a new deal)
        else:
            app.enter(bytes((2, deal.leader, suit)))  # the leader's marriage

    # --- drawing ---------------------------------------------------------------

    def draw(self, app, fb):
        if app.club_mark:
            # Club night: the top right's last two columns (no name reaches them) hold a
            # solid bar when the service has every result, a dotted one while some wait.
            for y in (0,) if app.club_mark == 2 else (0, 3, 6):
                fb.fill_rect(W - 2, y, 2, 9 if app.club_mark == 2 else 2, 1)
        state = app.match.state
        if state is None:
            app.write_center(t("new match") + "?", 20)
            self._bottom(app, "# " + t("new match"))
            return
        rules = state.rules
        deal = state.deal
        sides = rules.sides
        # Names, with the dealer marked; pairs add their completed eights and markers.
        for s in range(sides):
            name = side_name(state, s)
            if rules.pairs:
                name += " " + str(state.games[s]) + t("games_short")
                if state.markers[s]:
                    name += " " + str(state.markers[s]) + t("coat_short")
            elif deal.dealer == s:
                name = name + "\u00b7"  # a middle dot after the dealer
            self._column(app, s, sides, app.text.clip(name, W // sides - 2), 0)
        # The match score, big enough to read across the table: digits three times the
        # font's size (24 px of ink from y 10), two times where three would not fit.
        for s in range(sides):
            shown = str(state.score_shown(s))
            if rules.pairs:
                shown = shown + "/" + str(rules.target)
            scale = 3 if app.text.big_width(shown, 3) <= W // sides - 4 else 2
            w = app.text.big_width(shown, scale)
            x = self._x(s, sides, w)
            app.text.draw_big(fb, shown, x, LINE - scale, scale)  # ink starts `scale` rows down
        y = LINE + 24
        if state.over:
            self._result(app, state, y)
            self._bottom(app, "# " + t("new match"))
            return
        quick = app.settings["quick"]
        if not deal.opened:
            self._result(app, state, y)
            self._bottom(app, t("winner, points") if quick else "# " + t("next deal"))
            return
        if quick:
            if self.win >= 0:
                self._bottom(app, side_name(state, deal.side(self.win)) + ": +1/2/3?")
            else:
                self._bottom(app, t("winner, points"))
            return
        self._deal(app, state, y)
        if self.win >= 0:
            parts = [side_name(state, deal.side(self.win)) if rules.pairs
                     else state.names[self.win], ":"]
            for c in self.cards:  # "A♠", or "10" while its suit is not given
                s = suit_of(c)
                parts.append(RANK_TEXT[c & 7] + (SUIT_TEXT[s] if s >= 0 else ""))
            parts.append("_")
            line = " ".join(parts)
            if app.message or app.layout == keymap.BUTTONS:
                # The soft keys or a refusal's reason take the bottom line: the trick
                # goes above them. On four buttons whose lead it is stays at the line's
                # right end, where _deal put it: it stays in sight, and those columns
                # need not be sent again.
                width = W
                fb.fill_rect(0, 64 - 2 * LINE, W, LINE, 0)
                if app.layout == keymap.BUTTONS:
                    lead = t("lead b") + " " + state.names[deal.leader]
                    width -= app.text.width(lead) + 6
                    app.write(lead, W - app.text.width(lead), 64 - 2 * LINE)
                app.write(app.text.clip(line, width), 0, 64 - 2 * LINE)
            self._bottom(app, line)
        elif deal.trump < 0:
            self._bottom(app, t("trump?"))
        else:
            lead = t("lead") + " " + state.names[deal.leader]
            line = t("deal") + " " + str(state.deals() + 1) + "  " + lead
            self._bottom(app, line if app.text.fits(line, W) else lead)  # long names: lead

    def _deal(self, app, state, y):
        deal = state.deal
        rules = state.rules
        sides = rules.sides
        for s in range(sides):
            pts = "??" if rules.hidden else str(deal.points[s])
            if deal.pending[s]:
                pts += "+" + str(deal.pending[s])
            self._column(app, s, sides, pts + " (" + str(deal.tricks[s]) + ")", y)
        if deal.trump >= 0 and sides == 2:
            app.write_center(SUIT_TEXT[deal.trump], y)
        y += LINE
        width = W
        if app.layout == keymap.BUTTONS:
            # No bottom line for it on four buttons: whose lead it is goes to the right here
            # (and stays there while a trick is typed over this line).
            lead = t("lead b") + " " + state.names[deal.leader]
            width -= app.text.width(lead) + 6
            app.write(lead, W - app.text.width(lead), y)
        info = ""
        if rules.stock:
            if deal.closer >= 0:
                info = t("closed") + " " + state.names[deal.closer]
            else:
                info = t("stock") + " " + str(deal.stock_left())
        if deal.marriages:
            # "20♠40♥"; with too many for the line, the suits alone.
            full = ""
            suits = ""
            for _seat, suit, value in deal.marriages:
                full += str(value) + SUIT_TEXT[suit]
                suits += SUIT_TEXT[suit]
            for m in (full, suits):  # the suits alone, or none on a line that holds the lead
                if app.text.fits(info + " " + m, width):
                    info += " " + m
                    break
        if deal.bid_kind >= 0:
            info = t("bid_" + str(deal.bid_kind)) + " " + state.names[deal.bid_seat]
        if deal.trump >= 0 and sides != 2:
            info = SUIT_TEXT[deal.trump] + " " + info.strip()
        app.write(app.text.clip(info.strip(), width), 0, y)

    def _result(self, app, state, y):
        """The deal that just ended: who gets how many ("2 gets 1"), or who won the match;
        below it why ("false claim") and the card points."""
        row = state.row(state.deals() - 1)
        winner = row[2]
        gp = 0
        for side, points, _markers in row[3]:
            if side == winner:
                gp += points
        if state.over:
            head = side_name(state, state.winner) + " " + t("wins match")
        elif winner >= 0:
            head = side_name(state, winner) + " " + t("gets") + " " + str(gp)
        else:
            head = t("no winner")
        why = t("why_" + row[1])
        pts = row[4]
        if max(pts):  # quick results carry no card points; too long a line drops them
            more = (why + "  " + " : ".join([str(p) for p in pts])).strip()
            if app.text.fits(more, W):
                why = more
        app.write(app.text.clip(head, W), 0, y)
        app.write(why, 0, y + LINE)

    def _x(self, s, sides, w):
        col = W // sides
        if sides == 2:
            return 2 if s == 0 else W - 2 - w
        return s * col + (col - w) // 2

    def _column(self, app, s, sides, text, y):
        w = app.text.width(text)
        app.write(text, self._x(s, sides, w), y)

    def _bottom(self, app, text):
        if app.layout == keymap.BUTTONS:
            from ui.softkeys import labels

            labels(self, app)
            return
        app.write(app.text.clip(text, W), 0, 64 - LINE)
