"""The match history as a file: CSV (one row per finished deal) and JSON (everything).

Both are made from sixtysix/snapshot.py's plain data, the same data the replay tool and
the simulator print, so the export shows what the core holds and nothing is counted here.

CSV columns: deal, dealer, winner, reason, then per side its game points in the deal,
its card points in the deal and its running total of game points. A side is named by
its players' names ("1", or "1+3" for a pair). RFC 4180: comma separated, CRLF line ends,
a field with a comma, quote or line break is quoted.

JSON: {"format": "sixtysix-match", "version": 1, "match": <snapshot>, "stats": <lifetime
statistics per player name>}.
"""

import json

from sixtysix.rules import side_name

FORMAT = "sixtysix-match"
VERSION = 1


def _field(v):
    s = "" if v is None else str(v)
    for ch in ',"\r\n':
        if ch in s:
            return '"' + s.replace('"', '""') + '"'
    return s


def side_names(snap):
    """Each side's name (sixtysix/rules.py's): the player's name, or the pair's names
    joined by "+"."""
    sides = len(snap["score"])
    return [side_name(snap["names"], sides, s) for s in range(sides)]


def csv_text(snap):
    if snap.get("match", 1) is None:
        return "deal,dealer,winner,reason\r\n"
    sides = side_names(snap)
    head = ["deal", "dealer", "winner", "reason"]
    for kind in ("game points", "card points", "total"):
        head.extend(kind + " " + name for name in sides)
    rows = [head]
    total = [0] * len(sides)
    for n, row in enumerate(snap["history"]):
        game = [0] * len(sides)
        for side, points, _markers in row["awards"]:
            game[side - 1] += points
        for s in range(len(sides)):
            total[s] += game[s]
        winner = row["winner"]
        rows.append([n + 1, snap["names"][row["dealer"] - 1],
                     sides[winner - 1] if winner else "", row["reason"]]
                    + game + list(row["points"]) + total[:])
    return "".join(",".join(_field(v) for v in r) + "\r\n" for r in rows)


def json_text(snap, stats):
    return json.dumps({"format": FORMAT, "version": VERSION, "match": snap, "stats": stats})
