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
