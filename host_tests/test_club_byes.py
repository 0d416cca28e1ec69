"""A bye scores as a won match (issue 46, finding 2: "the player with the bye scores as
docs/club.md says"): a player the director seats at no table in a round (`seat --bye`)
has one more match won that round, its game points and deals won untouched, so a bye
never ranks above a played win; the standings, the terminal view, the live page, the
director's page and the CSV say which rounds were byes; a round seated again with --force
replaces a bye with the seating; and the service started again from its database (killed
as a power cut would) has the same standings, byes included.

The table test is a small night as docs/club.md's tests name it: five players, a round
robin of five rounds, one bye each round, the standings after each round given exactly.
"""

import csv
import sys

import pytest
from clubkit import brokerless_service, feed
from clubplay import Played
from conftest import ROOT
from test_club_pairing_rounds import director

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

RULES = "classic66"

# The round robin of five (every pair once, each player one bye): per round the bye and
# the tables, each (table, names, the deals' quick results in order: `result SIDE GP`,
# sides 1 and 2, a match to 7 game points).
WIN1 = ["result 1 3"] * 3  # side 1 wins 9:0 in three deals
WIN2 = ["result 2 3"] * 3
NIGHT = [
    ("Eve", [("t01", ["Ann", "Bob"], ["result 2 2"] + WIN1),     # Ann 9:2 (deals 3:1)
             ("t02", ["Cid", "Dan"], WIN1)]),                    # Cid 9:0
    ("Dan", [("t01", ["Ann", "Cid"], ["result 1 3"] + WIN2),     # Cid 9:3 (deals 3:1)
             ("t02", ["Bob", "Eve"], WIN1)]),                    # Bob 9:0
    ("Cid", [("t01", ["Ann", "Eve"], WIN2),                      # Eve 9:0
             ("t02", ["Bob", "Dan"], ["result 1 1"] + WIN2)]),   # Dan 9:1 (deals 3:1)
    ("Bob", [("t01", ["Ann", "Dan"], WIN1),                      # Ann 9:0
             ("t02", ["Cid", "Eve"], ["result 1 2"] + WIN2)]),   # Eve 9:2 (deals 3:1)
    ("Ann", [("t01", ["Bob", "Cid"], ["result 2 3"] + WIN1),     # Bob 9:3 (deals 3:1)
             ("t02", ["Dan", "Eve"], WIN1)]),                    # Dan 9:0
]

# The standings after each round, ranked: (name, matches played, matches won (a bye one),
# byes, game points, deals won). Ranked by matches won, then game points, then fewer
# byes, then name: after round 1 Eve's bye is a match won but ranks under Ann's and Cid's
# played wins (a bye brings no game points).
AFTER = [
    [("Ann", 1, 1, 0, 9, 3), ("Cid", 1, 1, 0, 9, 3), ("Eve", 0, 1, 1, 0, 0),
     ("Bob", 1, 0, 0, 2, 1), ("Dan", 1, 0, 0, 0, 0)],
    [("Cid", 2, 2, 0, 18, 6), ("Ann", 2, 1, 0, 12, 4), ("Bob", 2, 1, 0, 11, 4),
     ("Dan", 1, 1, 1, 0, 0), ("Eve", 1, 1, 1, 0, 0)],
    [("Cid", 2, 3, 1, 18, 6), ("Dan", 2, 2, 1, 9, 3), ("Eve", 2, 2, 1, 9, 3),
     ("Ann", 3, 1, 0, 12, 4), ("Bob", 3, 1, 0, 12, 5)],
    [("Cid", 3, 3, 1, 20, 7), ("Eve", 3, 3, 1, 18, 6), ("Ann", 4, 2, 0, 21, 7),
     ("Bob", 3, 2, 1, 12, 5), ("Dan", 3, 2, 1, 9, 3)],
    [("Cid", 4, 3, 1, 23, 8), ("Ann", 4, 3, 1, 21, 7), ("Bob", 4, 3, 1, 21, 8),
     ("Dan", 4, 3, 1, 18, 6), ("Eve", 4, 3, 1, 18, 6)],
]


def ranked(standings):
    return [(p["name"], p["played"], p["won"], p["byes"], p["gp"], p["deals"])
            for p in standings["players"]]


def play_night(svc, capsys, monkeypatch, rounds=NIGHT):
    """Seat and play each round as the director and the tables do; the standings after
    each round."""
    after = []
    for rnd, (bye, tables) in enumerate(rounds, 1):
        seats = ["%s=%s" % (t, ",".join(names)) for t, names, _ in tables]
        code, out = director(svc, capsys, monkeypatch, "seat", rnd, RULES, *seats,
                             "--bye", bye)
        assert code == 0 and "a bye (no match, scores a won match): %s" % bye in out, out
        for i, (t, names, deals) in enumerate(tables):
            p = Played(inc="%04x%04x" % (rnd, i), mid=rnd, rnd=rnd, names=names)
            for line in deals:
                p.deal(line)
            feed(svc, p.payloads, table=t)
        svc.db.commit()  # as the service does before it acks them
        after.append(svc.event.standings())
    return after


def test_a_five_player_round_robin_scores_each_bye_as_a_won_match(tmp_path, capsys,
                                                                  monkeypatch):
    svc, _ = brokerless_service(tmp_path)
    after = play_night(svc, capsys, monkeypatch)
    for rnd, (want, got) in enumerate(zip(AFTER, after), 1):
        assert ranked(got) == want, rnd
        assert got["byes"] == {str(r): [NIGHT[r - 1][0]] for r in range(1, rnd + 1)}
        assert not got["held"]
    final = after[-1]
    # Every player met every other once and had one bye; the bye is in the round's list.
    assert sum(p["won"] for p in final["players"]) == 10 + 5
    db_path = str(tmp_path / "night.sqlite")
    svc.db.close()

    # Read again from the database (as a service started again does): the same standings.
    from club.service import Service

    again = Service(db_path, "127.0.0.1", 1)
    assert again.event.standings() == final
    again.db.close()


def test_a_round_seated_again_with_force_replaces_its_bye(tmp_path, capsys, monkeypatch):
    svc, _ = brokerless_service(tmp_path)
    play_night(svc, capsys, monkeypatch, NIGHT[:2])  # Dan's bye in round 2, played
    before = svc.event.standings()
    # Dan came after all: the director seats him with a late player at t03. Round 2 is
    # played, so replacing its bye needs --force, and without it nothing changes.
    code, out = director(svc, capsys, monkeypatch, "seat", 2, RULES, "t03=Dan,Zed")
    assert code == 1 and "round 2 is played already" in out and "the bye of Dan" in out \
        and "--force" in out, out
    assert svc.event.standings() == before
    code, out = director(svc, capsys, monkeypatch, "seat", 2, RULES, "t03=Dan,Zed",
                         "--force")
    assert code == 0 and "seated, so no longer a bye: Dan" in out \
        and "replaced (--force) the bye of Dan" in out, out
    got = svc.event.standings()
    assert got["byes"] == {"1": ["Eve"]}
    dan = next(p for p in got["players"] if p["name"] == "Dan")
    assert (dan["played"], dan["won"], dan["byes"]) == (1, 0, 0)  # round 1's loss only
    # Pairing reads the round's byes from the service: none left in round 2.
    assert svc.director({"cmd": "rounds"}, "test")["byes"] == {"1": ["Eve"]}
    # Dan's match at t03 counts in his place.
    p = Played(inc="abcd0009", mid=2, rnd=2, names=["Dan", "Zed"], seq=1)
    for line in WIN1:
        p.deal(line)
    feed(svc, p.payloads, table="t03")
    svc.db.commit()
    dan = next(p for p in svc.event.standings()["players"] if p["name"] == "Dan")
    assert (dan["played"], dan["won"], dan["byes"], dan["gp"]) == (2, 1, 0, 9)
    final = svc.event.standings()
    svc.db.close()
    from club.service import Service

    again = Service(str(tmp_path / "night.sqlite"), "127.0.0.1", 1)
    assert again.event.standings() == final
    again.db.close()


def test_the_terminal_view_and_the_csv_show_each_bye(tmp_path, capsys, monkeypatch):
    from club.director import write_csv
    from club.view import render

    svc, _ = brokerless_service(tmp_path)
    final = play_night(svc, capsys, monkeypatch)[-1]
    text = render(final)
    assert "  #  player           matches  won    gp deals byes\n" in text, text
    assert "  1  Cid                    4    3    23     8    1\n" in text, text
    for rnd, (bye, _tables) in enumerate(NIGHT, 1):
        assert "\nRound %d  (table INC MATCH: players, game points)\n  bye   %s: a won " \
            "match, no table\n" % (rnd, bye) in text, text
    write_csv(str(tmp_path / "final.csv"), final)
    with open(tmp_path / "final.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    got = [(r["player"], int(r["matches played"]), int(r["matches won"]), int(r["byes"]),
            int(r["game points"]), int(r["deals won"]), r["bye rounds"]) for r in rows]
    rounds = {bye: str(rnd) for rnd, (bye, _t) in enumerate(NIGHT, 1)}
    assert got == [w + (rounds[w[0]],) for w in AFTER[-1]]
    svc.db.close()


# What a page shows once SEL has text: each of ROWS, a row's cells joined by "|".
PAGE_JS = """(async () => {
  const ready = () => document.querySelector(SEL) && document.querySelector(SEL).textContent;
  for (let i = 0; i < 200 && !ready(); i++)
    await new Promise(r => setTimeout(r, 50));
  return [...document.querySelectorAll(ROWS)].map(e => e.children.length
    ? [...e.children].map(c => c.textContent).join("|") : e.textContent);
})()"""


def test_the_live_page_and_the_directors_page_show_each_bye(tmp_path, capsys, monkeypatch):
    import browser

    if browser.missing():
        pytest.skip(browser.missing())
    from club.service import Service

    svc = Service(str(tmp_path / "night.sqlite"), "127.0.0.1", 1,
                  director_password="dir-web-pw")
    svc.client.publish = lambda *a, **k: None
    server = svc.serve("127.0.0.1", 0)
    try:
        play_night(svc, capsys, monkeypatch, NIGHT[:2])
        svc._publish_snapshot()  # as the service's loop does after a batch
        base = "http://127.0.0.1:%d" % server.server_address[1]
        got = browser.drive(base + "/", [
            {"do": "goto"},
            {"do": "eval", "js": PAGE_JS.replace("SEL", '"#players tbody tr"')
             .replace("ROWS", '"#players tr"')},
            {"do": "eval", "js": PAGE_JS.replace("SEL", '"#rounds tr"')
             .replace("ROWS", '"#rounds h2, #rounds tr"')},
            {"do": "goto", "url": base + "/director"},
            {"do": "eval", "js": PAGE_JS.replace("SEL", '"#byes"')
             .replace("ROWS", '"#byes"')}],
            credentials=("director", "dir-web-pw"))
    finally:
        server.shutdown()
        svc.db.close()
    assert got["failed"] is None and not got["errors"], got
    players, rounds, byes = got["results"][1], got["results"][2], got["results"][4]
    # The players' table: the byes column (Dan's round 2 bye and Eve's round 1).
    assert players[0] == "#|player|won|played|game pts|deals|byes"
    assert players[1:] == ["%d|%s|%d|%d|%d|%d|%d" % (i, n, won, played, gp, deals, byes)
                           for i, (n, played, won, byes, gp, deals) in enumerate(AFTER[1], 1)]
    # Each round: its bye above its matches, newest round first.
    assert rounds == ["Round 2", "bye|Dan||a won match, no table",
                      "t01|Ann v Cid|3 : 9|Cid", "t02|Bob v Eve|9 : 0|Bob",
                      "Round 1", "bye|Eve||a won match, no table",
                      "t01|Ann v Bob|9 : 2|Ann", "t02|Cid v Dan|9 : 0|Cid"], rounds
    assert byes == ["byes (each a won match, no table): round 1: Eve · round 2: Dan"], byes


def test_the_service_killed_and_started_again_keeps_every_bye(tmp_path):
    """A real Mosquitto, the service as its own process killed with kill -9 and started
    again, the director's command and two tables as MQTT clients (test_club_fullsize.py's
    night, five players): the same standings after the restart, byes included, and the
    final CSV counts each bye as a won match."""
    from test_club_fullsize import Night

    night = Night(str(tmp_path), 2)
    night.players = ["P01", "P02", "P03", "P04", "P05"]
    night.tally = {p: {"played": 0, "won": 0, "gp": 0, "deals": 0} for p in night.players}
    rounds = [("P05", {"t01": ["P01", "P02"], "t02": ["P03", "P04"]}),
              ("P04", {"t01": ["P01", "P03"], "t02": ["P02", "P05"]}),
              ("P02", {"t01": ["P01", "P04"], "t02": ["P03", "P05"]})]
    try:
        night.start_service()
        night.connect()
        for rnd, (bye, seats) in enumerate(rounds, 1):
            code, out = night.director("seat", str(rnd), RULES, *[
                "%s=%s" % (t, ",".join(n)) for t, n in seats.items()], "--bye", bye)
            assert code == 0 and "accepted" in out, out
            night.play_round(rnd, seats)
            assert night.send_all(), "not every result acked: %s" % night.acked
        code, before = night.director("show")
        assert code == 0, before
        night.kill_service()
        night.start_service()
        code, after = night.director("show")
        assert code == 0 and after == before, (before, after)
        for rnd, (bye, _seats) in enumerate(rounds, 1):
            assert "\nRound %d  (table INC MATCH: players, game points)\n  bye   %s: a won " \
                "match, no table\n" % (rnd, bye) in after, after
        code, out = night.director("close", "--csv", str(tmp_path / "final.csv"))
        assert code == 0, out
        with open(tmp_path / "final.csv", newline="") as f:
            rows = list(csv.DictReader(f))
    finally:
        night.close()
    want = {p: dict(t, byes=0, rounds=[]) for p, t in night.tally.items()}
    for rnd, (bye, _seats) in enumerate(rounds, 1):
        want[bye]["won"] += 1
        want[bye]["byes"] += 1
        want[bye]["rounds"].append(str(rnd))
    got = {r["player"]: {"played": int(r["matches played"]), "won": int(r["matches won"]),
                         "gp": int(r["game points"]), "deals": int(r["deals won"]),
                         "byes": int(r["byes"]), "rounds": r["bye rounds"].split()}
           for r in rows}
    assert got == want
    assert len(rows) == 5
