"""A new match: the rule set, the first dealer and the match's options."""

from ui.i18n import t
from ui.lists import List, bind


def new_match(app):
    """Rule set, then the first dealer (by lot or picked), then start."""
    from sixtysix.rules import RULE_SETS

    items = [(t("rules_" + rid), bind(_pick_dealer, rid)) for rid in RULE_SETS]
    app.push(List(t("new match"), items))


def _pick_dealer(app, rid):
    app.push(NewMatch(app, rid))


class NewMatch(List):
    """The first dealer (by lot, or a seat), then the match's options below them:
    target (or eights to win with four players), hidden totals, counting down,
    and for three players whose points decide the loser's game points."""

    def __init__(self, app, rid):
        from sixtysix.rules import Rules

        r = Rules(rid)
        self.rid = rid
        self.players = r.players
        # The names of the match before, when as many play ("" for a seat number).
        self.names = [""] * r.players
        old = app.match.state
        if old is not None and len(old.names) == r.players:
            self.names = [n if n != str(i + 1) else "" for i, n in enumerate(old.names)]
        # Option values as the `new` line takes them; shown and cycled below.
        self.opts = {"games" if r.pairs else "target": r.games if r.pairs else r.target,
                     "hidden": int(r.hidden), "down": int(r.down)}
        if r.players == 3:
            self.opts["judge"] = 0
        List.__init__(self, t("first dealer"), self._items())

    def _items(self):
        items = [(t("by lot"), bind(self._start, -1))]
        names = [self.names[i] or str(i + 1) for i in range(self.players)]
        for seat in range(self.players):
            items.append((t("dealer") + " " + names[seat], bind(self._start, seat)))
        items.append((t("players") + ": " + ",".join(names), self._names))
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

    def detail(self, app, i):  # type: ignore[override]
        """Under "Hidden totals": what it means."""
        if self.items[i][0].startswith(t("hidden totals")):
            return t("hidden help")
        return None

    def _names(self, app):
        from ui.nameentry import Players

        app.push(Players(self))

    def update(self):
        """The names changed (ui/nameentry.py): show them."""
        self.items = self._items()

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
        names = [self.names[i] or str(i + 1) for i in range(self.players)]
        if "".join(self.names):
            line += " names=" + ",".join(names)
        for key in self.opts:
            v = self.opts[key]
            line += " " + key + "=" + (("strong", "weak", "sum")[v] if key == "judge" else str(v))
        if not app.new_match(line):
            return
        if "".join(self.names):
            from ui.nameentry import remember

            remember(app, names)
        app.home()
        app.say(t("dealer") + ": " + app.match.state.names[dealer])


def _lot(app, rid):
    from sixtysix.rules import Rules

    try:
        import random

        return random.getrandbits(8) % Rules(rid).players
    except ImportError:
        return 0
