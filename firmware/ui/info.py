"""History of the match's deals, and statistics."""

from ui.i18n import t
from ui.lists import List
from ui.screen import side_name


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
                who = "-"
                if winner >= 0:
                    who = side_name(state.names, state.rules.sides, winner) + " +" + str(gp)
                items.append((str(i + 1) + ". " + who, None))
                self.rows.append(row)
        if not items:
            items.append((t("no deals yet"), None))
        export = getattr(app, "export", None)  # the browser build's hook (ui/app.py)
        if export is not None:
            for kind in ("CSV", "JSON"):
                items.append((t("export") + " " + kind, _exporter(export, kind.lower())))
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


def _exporter(export, kind):
    return lambda app: export(kind)


class Stats(List):
    """This match as a table, a column per side under its name: deals won, and of them
    those won with 2 and with 3 game points; then the matches each name won and played
    on this device. The font is 6 pixels a character: 20 characters fill a row beside
    a scroll mark."""

    numbered = False

    def __init__(self, app):
        state = app.match.state
        items = []
        if state is not None:
            n = state.rules.sides
            labels = ("", t("st won"), t("st won2"), t("st won3"))
            lab = max([len(x) for x in labels]) + 1
            col = (20 - lab) // n
            rows = list(labels)
            for s in range(n):
                cells = (side_name(state.names, n, s)[:col - 1], state.won[s], state.won2[s],
                         state.won3[s])
                for r in range(4):
                    rows[r] = _pad(rows[r], lab + (s + 1) * col, str(cells[r]))
            items = [(r, None) for r in rows]
        lifetime = app.stats()
        if lifetime:
            items.append((t("matches"), None))
        for name in sorted(lifetime):
            rec = lifetime[name]
            if isinstance(rec, dict):
                items.append((_pad(name, 15, str(rec.get("won", 0)) + "/" +
                                   str(rec.get("played", 0))), None))
        if not items:
            items.append((t("no deals yet"), None))
        List.__init__(self, t("statistics"), items)


def _pad(line, end, cell):
    """line, then cell right-aligned to end at character `end`."""
    return line + " " * (end - len(line) - len(cell)) + cell
