"""Lists: the action menu, choosers, history, statistics, settings, a new match.

A List shows numbered items, five at a time. Keypad: a digit picks its item,
A/B move, # picks, * goes back. Four buttons: UP/DOWN move, OK picks, BACK
goes back. Each item is (label, function); the function gets the app.
"""

from ui import keymap
from ui.i18n import LANGS, NAMES, t
from ui.screen import LINE, SUIT_TEXT, Screen, W, side_name

ROWS = 5  # items below the title


class List(Screen):
    key_mode = keymap.LIST_KEYS
    numbered = True  # keypad digits pick items 1-9, so the list shows their numbers

    def __init__(self, title, items, pick=0):
        self.title = title
        self.items = items
        self.pick = pick

    def detail(self, app, i):
        """A line about item i, shown at the bottom while it is picked (None: no line)."""
        return None

    def act(self, app, action, arg):
        n = len(self.items)
        if action == keymap.BACK:
            app.pop()
        elif action == keymap.UP:
            self.pick = (self.pick - 1) % n
        elif action == keymap.DOWN:
            self.pick = (self.pick + 1) % n
        elif action == keymap.MENU:
            app.home()
        elif action in (keymap.OK, keymap.PICK):
            if action == keymap.PICK:
                if arg >= n:
                    return
                self.pick = arg
            fn = self.items[self.pick][1]
            if fn is not None:
                fn(app)

    def draw(self, app, fb):
        fb.fill_rect(0, 0, W, LINE, 1)
        app.write(app.text.clip(self.title, W - 2), 1, 0, 0)
        more = self.detail(app, self.pick)
        rows = ROWS - 1 if more is not None else ROWS
        top = min(max(0, self.pick - rows + 1), max(0, len(self.items) - rows))
        for i in range(top, min(top + rows, len(self.items))):
            y = LINE + 1 + (i - top) * LINE
            label = self.items[i][0]
            if self.numbered:
                label = (str(i + 1) + " " if i < 9 else "  ") + label
            label = app.text.clip(label, W - 2)
            if i == self.pick:
                # Inverted under the text only: a cursor move then changes fewer columns.
                fb.fill_rect(0, y, app.text.width(label) + 2, LINE, 1)
                app.write(label, 1, y, 0)
            else:
                app.write(label, 1, y)
        if more is not None:
            app.write(app.text.clip(more, W - 2), 1, 64 - LINE)


def _entry(rec):
    """An item function that enters a record and returns to the scoreboard if it counted
    (it returns whether it did)."""

    def go(app):
        if app.enter(rec):
            app.home()
            return True
        return False

    return go


def choose_seat(app, title, then):
    """A list of the players; `then(app, seat)` runs for the one picked."""
    state = app.match.state
    items = []
    for seat in range(state.rules.players):
        items.append((state.names[seat], _bind(then, seat)))
    app.push(List(title, items, state.deal.leader))


def _bind(fn, value):
    return lambda app: fn(app, value)


def choose_suit(app, title, then):
    items = [(SUIT_TEXT[s] + " " + t("suit_" + str(s)), _bind(then, s)) for s in range(4)]
    app.push(List(title, items))


# --- the action menu ---------------------------------------------------------


def board_menu(app):
    state = app.match.state
    if state is None or state.over:
        app.push(List(t("menu"), _general_items()))
        return
    rules = state.rules
    deal = state.deal
    items = []
    if deal.trump < 0:
        items.append((t("trump"), lambda a: choose_suit(a, t("trump"), _trump)))
    else:
        items.append((t("marriage"), lambda a: choose_suit(a, t("marriage"), _marriage)))
    if rules.stock:
        items.append((t("close"), lambda a: _close(a)))
    items.append((t("claim 66"), lambda a: choose_seat(a, t("claim 66"), _claim)))
    # A result: the winning side and its game points, or (last) the counted card points
    # of a deal played without the device, from which the game points follow.
    items.append((t("result"), lambda a: choose_side(
        a, t("result"), _result_points, (t("counted points"), lambda b: b.push(Points(b))))))
    if rules.draws:
        items.append((t("draw"), _entry(b"\x06")))
    if rules.pairs:
        items.append((t("cut nine"), _entry(b"\x08")))
        items.append((t("redeal"), _entry(b"\x09")))
        items.append((t("three nines"), lambda a: choose_seat(a, t("three nines"), _nines)))
        items.append((t("contract"), lambda a: choose_seat(a, t("contract"), _bid)))
        if deal.bid_kind >= 0:
            items.append((t("contract made"), _entry(b"\x0c\x01")))
            items.append((t("contract failed"), _entry(b"\x0c\x00")))
    if not deal.opened:
        items.insert(0, (t("next deal"), _entry(b"\x0d")))
    items.extend(_general_items())
    app.push(List(t("menu"), items))


def _general_items():
    return [
        (t("undo"), lambda a: (a.home(), a.undo())),
        (t("redo"), lambda a: (a.home(), a.redo())),
        (t("history"), lambda a: a.push(History(a))),
        (t("statistics"), lambda a: a.push(Stats(a))),
        (t("settings"), settings_menu),
        (t("new match"), new_match),
    ]


def choose_side(app, title, then, extra=None):
    state = app.match.state
    items = [(side_name(state, s), _bind(then, s)) for s in range(state.rules.sides)]
    if extra is not None:
        items.append(extra)
    app.push(List(title, items))


def _trump(app, suit):
    _entry(bytes((0, suit)))(app)


def _marriage(app, suit):
    _entry(bytes((2, app.match.state.deal.leader, suit)))(app)


def _close(app):
    _entry(bytes((3, app.match.state.deal.leader)))(app)


def _claim(app, seat):
    if not app.match.state.rules.pairs:
        _entry(bytes((4, seat)))(app)
        return
    # Seed 000: with four players a claim may come with a marriage, declared without leading.
    items = [(t("no marriage"), _entry(bytes((4, seat))))]
    for s in range(4):
        items.append((t("marriage") + " " + SUIT_TEXT[s], _entry(bytes((4, seat, s)))))
    app.push(List(t("claim 66"), items))


class Points(Screen):
    """Counted card points, one side after the other (marriages included). Keypad:
    digits, * deletes, # takes the number; # with no number means "took no trick".
    Four buttons: UP adds 10, DOWN adds 1, BACK clears, OK takes the number."""

    key_mode = keymap.NUMBER_KEYS

    def __init__(self, app):
        self.sides = app.match.state.rules.sides
        self.values = bytearray()
        self.typed = ""

    def act(self, app, action, arg):
        if action == keymap.PICK and len(self.typed) < 3:
            self.typed += str(arg)
        elif action == keymap.UP:
            self.typed = str(int(self.typed or "0") + 10)
        elif action == keymap.DOWN:
            self.typed = str(int(self.typed or "0") + 1)
        elif action == keymap.BACK:
            if self.typed:
                self.typed = self.typed[:-1] if app.layout == keymap.KEYPAD else ""
            elif self.values:
                self.values = self.values[:-1]
            else:
                app.pop()
        elif action == keymap.OK:
            v = int(self.typed) if self.typed else 255  # 255: took no trick
            if v > 254:
                v = 255 if not self.typed else 254
            self.values.append(v)
            self.typed = ""
            if len(self.values) == self.sides:
                if not _entry(bytes((7,)) + bytes(self.values))(app):
                    self.values = bytearray()  # refused: the message says why; start again
        elif action == keymap.MENU:
            app.home()

    def draw(self, app, fb):
        state = app.match.state
        fb.fill_rect(0, 0, W, LINE, 1)
        app.write(t("counted points"), 1, 0, 0)
        for s in range(self.sides):
            y = LINE + 1 + s * LINE
            if s < len(self.values):
                v = self.values[s]
                shown = t("no trick") if v == 255 else str(v)
            elif s == len(self.values):
                shown = self.typed + "_"
            else:
                shown = ""
            app.write(app.text.clip(side_name(state, s) + ": " + shown, W - 2), 1, y)
        app.write(app.text.clip(t("empty no trick"), W - 2), 1, 64 - LINE)


def _result_points(app, side):
    items = []
    for g in app.match.state.rules.choices():
        items.append(("+" + str(g), _entry(bytes((5, side, g)))))
    app.push(List(t("game points"), items))


def _nines(app, seat):
    app.push(List(t("three nines"), [(t("won"), _entry(bytes((10, seat, 1)))),
                                     (t("lost"), _entry(bytes((10, seat, 0))))]))


def _bid(app, seat):
    items = [(t("bid_" + str(k)), _entry(bytes((11, seat, k)))) for k in range(4)]
    app.push(List(t("contract"), items))


# --- history and statistics ------------------------------------------------------


class History(List):
    """Every finished deal, newest first: its number, who won how much; the reason
    and the card points of the picked deal show on the bottom line."""

    numbered = False

    def __init__(self, app):
        state = app.match.state
        items = []
        self.rows = []
        if state is not None:
            for i in range(state.deals() - 1, -1, -1):
                row = state.row(i)
                winner = row[2]
                gp = 0
                for side, points, _m in row[3]:
                    if side == winner:
                        gp += points
                who = side_name(state, winner) + " +" + str(gp) if winner >= 0 else "-"
                items.append((str(i + 1) + ". " + who, None))
                self.rows.append(row)
        if not items:
            items.append((t("no deals yet"), None))
        List.__init__(self, t("history"), items)

    def detail(self, app, i):  # type: ignore[override]
        if i >= len(self.rows):
            return None
        row = self.rows[i]
        pts = row[4]
        text = t("why_" + row[1])
        if max(pts):
            text += " " + ":".join([str(p) for p in pts])
        return text


class Stats(List):
    """Deals won (with 2 and 3 points) this match, and matches won over time."""

    def __init__(self, app):
        state = app.match.state
        items = []
        if state is not None:
            for s in range(state.rules.sides):
                # "Ann: 5 (2x1 3x2)": deals won, of them with 2 and with 3 points.
                items.append((side_name(state, s) + ": " + str(state.won[s]) + " (2\u00d7" +
                              str(state.won2[s]) + " 3\u00d7" + str(state.won3[s]) + ")", None))
        lifetime = app.session.load_stats()
        for name in sorted(lifetime):
            rec = lifetime[name]
            if isinstance(rec, dict):
                items.append((name + ": " + str(rec.get("won", 0)) + "/" +
                              str(rec.get("played", 0)) + " " + t("matches"), None))
        if not items:
            items.append((t("no deals yet"), None))
        List.__init__(self, t("statistics"), items)


# --- settings --------------------------------------------------------------------


def settings_menu(app):
    s = app.settings
    items = [
        (t("language") + ": " + t("lang_name"), _languages),
        (t("contrast") + ": " + str(s["contrast"]), _cycle("contrast", (40, 120, 200, 255))),
        (t("dim after") + ": " + str(s["dim_s"]) + t("sec"), _cycle("dim_s", (15, 30, 60, 120))),
        (t("off after") + ": " + str(s["off_s"]) + t("sec"),
         _cycle("off_s", (60, 120, 300, 600))),
        (t("sleep after") + ": " + str(s["sleep_s"] // 60) + t("min"),
         _cycle("sleep_s", (0, 900, 1800, 3600))),
        (t("sound") + ": " + (t("on") if s["sound"] else t("off")), _cycle("sound", (0, 1))),
        (t("entry") + ": " + (t("results") if s["quick"] else t("tricks")),
         _cycle("quick", (0, 1))),
    ]
    app.push(List(t("settings"), items))


def _cycle(key, values):
    def go(app):
        s = app.settings
        i = values.index(s[key]) if s[key] in values else -1
        s[key] = values[(i + 1) % len(values)]
        app.save_settings()
        if key == "contrast":
            contrast = getattr(app.fb, "contrast", None)
            if contrast is not None:
                contrast(s[key])
        pick = app.screen.pick
        app.pop()
        settings_menu(app)
        app.screen.pick = pick  # stay on the changed line

    return go


def _languages(app):
    items = [(NAMES[i], _bind(_set_lang, LANGS[i])) for i in range(len(LANGS))]
    app.push(List(t("language"), items, LANGS.index(app.lang)))


def _set_lang(app, code):
    app.set_lang(code)
    app.home()


# --- a new match -------------------------------------------------------------------



def new_match(app):
    """Rule set, then the first dealer (by lot or picked), then start."""
    from sixtysix.rules import RULE_SETS

    items = [(t("rules_" + rid), _bind(_pick_dealer, rid)) for rid in RULE_SETS]
    app.push(List(t("new match"), items))


def _pick_dealer(app, rid):
    app.push(NewMatch(rid))


class NewMatch(List):
    """The first dealer (by lot, or a seat), then the match's options below them:
    target (or eights to win with four players), hidden totals, counting down,
    and for three players whose points decide the loser's game points."""

    def __init__(self, rid):
        from sixtysix.rules import Rules

        r = Rules(rid)
        self.rid = rid
        self.players = r.players
        # Option values as the `new` line takes them; shown and cycled below.
        self.opts = {"games" if r.pairs else "target": r.games if r.pairs else r.target,
                     "hidden": int(r.hidden), "down": int(r.down)}
        if r.players == 3:
            self.opts["judge"] = 0
        List.__init__(self, t("first dealer"), self._items())

    def _items(self):
        items = [(t("by lot"), _bind(self._start, -1))]
        for seat in range(self.players):
            items.append((t("dealer") + " " + str(seat + 1), _bind(self._start, seat)))
        o = self.opts
        if "games" in o:
            items.append((t("eights") + ": " + str(o["games"]),
                          self._cycle("games", (1, 2, 3, 5))))
        else:
            items.append((t("target") + ": " + str(o["target"]),
                          self._cycle("target", (3, 5, 7, 8, 10, 11, 12))))
        items.append((t("hidden totals") + ": " + t("on" if o["hidden"] else "off"),
                      self._cycle("hidden", (0, 1))))
        items.append((t("count down") + ": " + t("on" if o["down"] else "off"),
                      self._cycle("down", (0, 1))))
        if "judge" in o:
            items.append((t("judge_" + str(o["judge"])), self._cycle("judge", (0, 1, 2))))
        return items

    def _cycle(self, key, values):
        def go(app):
            v = self.opts[key]
            self.opts[key] = values[(values.index(v) + 1) % len(values)] if v in values \
                else values[0]
            self.items = self._items()

        return go

    def _start(self, app, dealer):
        if dealer < 0:
            dealer = _lot(app, self.rid)
        line = "new " + self.rid + " dealer=" + str(dealer + 1)
        for key in self.opts:
            v = self.opts[key]
            line += " " + key + "=" + (("strong", "weak", "sum")[v] if key == "judge" else str(v))
        if not app.attempt(app.session.new_match, line):
            return
        app.home()
        app.say(t("dealer") + ": " + app.match.state.names[dealer])


def _lot(app, rid):
    from sixtysix.rules import Rules

    try:
        import random

        return random.getrandbits(8) % Rules(rid).players
    except ImportError:
        return 0
