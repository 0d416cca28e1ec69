"""The director's command: seat a round, correct or void a result, accept one that did not
count, close and reopen the night.

    python -m club.director [--broker H:P --user director --password-file F]
                            [--timeout S] COMMAND

    seat ROUND RULES TABLE=NAME,NAME ...   retained seatings: each table starts the round's
                                           match with those names (club/<table>/seat)
    correct TABLE INC MATCH DEAL GP,GP WINNER [--over SIDE] --why TEXT
                                           the deal counts as given (supersedes the table's),
                                           if one deal of the match's rule set can give it
                                           there: sides 0-based, one scores (the winner),
                                           --over the side that has won the match after it
                                           (-1: not over); a refusal lists what can be given
    void TABLE INC MATCH DEAL --why TEXT   the deal does not count
    list                                   the results that do not count, with their rows
    accept ROW [ROW ...] --why TEXT        each row's result counts (a conflict's other
                                           copy in place of the one that counted, a late
                                           or a held result): a deal as the core scores
                                           its entries, whatever it says; each row on its
                                           own, its verdict printed, exit 1 if any declined
    accept ROW --gp GP,GP --winner SIDE [--over SIDE] --why TEXT
                                           a deal with no entries the core can score (older
                                           firmware sends none) counts as given, if one deal
                                           can give it (as for correct)
    accept --round N --why TEXT            every held result of round N, as ROW ROW ...
    show                                   the standings now (as the terminal view prints),
                                           then the results held, not counted, with the
                                           row of each and why (club/rescore.py)
    close --csv FILE                       final standings: the service marks the night
                                           closed; the CSV is written here
    pair ROUND RULES [--system swiss|roundrobin] [--tables T ...] [--add NAME ...] [--send]
                                           the next round's seating proposed from the
                                           standings (club/pairing.py: Swiss, no repeat
                                           opponents, a bye for who does not fill a
                                           table; or round robin), printed as the seat
                                           command; --send seats it
    cards TABLE ...                        a printable page of QR codes, one a table, that
                                           open the browser table page (club/tablecards.py)
    reopen --why TEXT                      the night is open again

Every command but seat and show is a request to the standings service
(club/director/do/<id>), which answers on club/director/reply/<id>: this prints
"accepted" or "refused: <why>" and exits 1 when refused, 2 when no answer came within
--timeout seconds (10). The service keeps every correction in its database (the audit
trail, also in the standings as "audit"); the latest for a deal counts. INC and MATCH are a
table's incarnation and match number: the service's /standings.json lists them under
"rounds" (the director's page /director too; the live page shows the rounds, not these).
"""

import argparse
import csv
import json
import secrets
import sys
import threading

from sixtysix.names import MAX, valid

from club import tablecards
from club.bounded import HEAD, Reader
from club.bounded import want as ask_for_parts
from club.broker import connect
from club.view import render


def publish(a, messages):
    """Send [(topic, payload, retain)] at QoS 1 and wait for the broker to have each."""
    c = connect(a, "director")
    try:
        for topic, payload, retain in messages:
            info = c.publish(topic, payload, qos=1, retain=retain)
            info.wait_for_publish(10)
            if not info.is_published():
                raise SystemExit("director: the broker did not take " + topic)
    finally:
        c.loop_stop()
        c.disconnect()


def request(a, body):
    """Send one request to the service and wait for its reply (a dict); None when no
    answer came within a.timeout seconds. Sent at QoS 0: a service that is down never
    finds it queued and carries it out after this has said that nothing came."""
    rid = secrets.token_hex(8)
    got = threading.Event()
    box = {}
    subscribed = threading.Event()

    def on_message(client, userdata, msg):
        try:
            box["reply"] = json.loads(msg.payload)
        except ValueError:
            box["reply"] = {"ok": False, "why": "an answer that is not JSON"}
        got.set()

    c = connect(a, "director")
    c.on_message = on_message
    c.on_subscribe = lambda *args: subscribed.set()
    try:
        c.subscribe("club/director/reply/" + rid, 1)
        if not subscribed.wait(a.timeout):
            if not c.is_connected():
                raise SystemExit("director: the broker did not let the director in "
                                 "(its password?)")
            return None
        c.publish("club/director/do/" + rid, json.dumps(body), qos=0)
        if not got.wait(a.timeout):
            return None
    finally:
        c.loop_stop()
        c.disconnect()
    return box["reply"]


def verdict(a, body):
    """request(), printed: "accepted[: note]" and the reply, or exit 1 ("refused: why")
    or 2 (no answer)."""
    reply = request(a, body)
    if reply is None:
        print("no answer from the standings service in %g s: is it running?" % a.timeout)
        raise SystemExit(2)
    if not reply.get("ok"):
        print("refused: %s" % reply.get("why"))
        raise SystemExit(1)
    print("accepted" + (": " + reply["note"] if reply.get("note") else ""))
    return reply


def game_points(text):
    try:
        return [int(g) for g in text.split(",")]
    except ValueError:
        raise SystemExit("director: game points are numbers: GP,GP") from None


def accept(a):
    """accept ROW [--gp GP,GP --winner W [--over X]], accept ROW ROW ..., accept --round N:
    each row checked on its own, its verdict printed; exit 1 if any was declined."""
    if bool(a.rows) == (a.round is not None):
        raise SystemExit("director: accept ROW [ROW ...] or accept --round N")
    body = {"cmd": "accept", "why": a.why}
    if a.gp is not None or a.winner is not None:
        if len(a.rows) != 1 or a.gp is None or a.winner is None:
            raise SystemExit("director: a result is given for one row: accept ROW --gp GP,GP "
                             "--winner SIDE [--over SIDE]")
        body["result"] = {"gp": game_points(a.gp), "winner": a.winner, "over": a.over}
    if a.round is None and len(a.rows) == 1:
        verdict(a, dict(body, row=a.rows[0]))
        return
    if a.round is not None:
        body["round"] = a.round
    else:
        body["rows"] = a.rows
    reply = request(a, body)
    if reply is None:
        print("no answer from the standings service in %g s: is it running?" % a.timeout)
        raise SystemExit(2)
    for r in reply.get("rows") or []:
        print("row %s: %s" % (r.get("row"), "accepted: " + r["note"] if r.get("ok")
                              else "refused: %s" % r.get("why")))
    if not reply.get("rows"):
        print("refused: %s" % reply.get("why"))
    if not reply.get("ok"):
        raise SystemExit(1)


def standings(a, want=None, timeout=10):
    """The retained standings, whole (club/bounded.py joins their parts): the first that
    satisfies want(), if given."""
    got = threading.Event()
    box = {}
    reader = Reader()

    def on_message(client, userdata, msg):
        data = reader.feed(msg.topic, msg.payload)
        if data is not None and (want is None or want(data)):
            box["data"] = data
            got.set()

    subscribed = threading.Event()
    c = connect(a, "director-read")
    c.on_message = on_message
    c.on_subscribe = lambda *args: subscribed.set()
    c.subscribe(HEAD + "/#", 1)
    if subscribed.wait(timeout):
        ask_for_parts(c)  # the parts are not retained: the service sends them again
    try:
        if not got.wait(timeout):
            raise SystemExit("director: no standings from the service")
    finally:
        c.loop_stop()
        c.disconnect()
    return box["data"]


def pair(a):
    """The proposed seating of round a.round, printed as the seat command that seats it."""
    from sixtysix.errors import Refused
    from sixtysix.rules import Rules

    from club.pairing import propose

    try:
        size = Rules(a.rules.split()[0]).players
    except (Refused, IndexError):
        print("refused: %s is no rule set" % a.rules)
        raise SystemExit(1) from None
    data = standings(a, timeout=a.timeout)
    try:
        seats, out = propose(data, a.round, size, a.system, a.tables, a.add)
    except ValueError as e:
        print("refused: %s" % e)
        raise SystemExit(1) from None
    print("python -m club.director seat %d %s %s" % (
        a.round, a.rules, " ".join("%s=%s" % (t, ",".join(n)) for t, n in seats)))
    if out:
        print("sitting out (a bye): " + ", ".join(out))
    return seats


def parse_seats(seats):
    """[[table, [names]]] of TABLE=NAME,NAME arguments (the service checks the rest)."""
    out = []
    for seat in seats:
        table, eq, names = seat.partition("=")
        names = names.split(",")
        if not eq or not table or len(names) < 2 or not all(names):
            raise SystemExit("director: a seat is TABLE=NAME,NAME[,NAME[,NAME]]: " + seat)
        for n in names:
            if not valid(n):
                raise SystemExit("director: a name is 1 to %d letters, no spaces, ',' or '=': %s"
                                 % (MAX, n))
        out.append([table, names])
    return out


def seat_messages(rnd, rules, seats):
    """The retained seatings the tables read, of parse_seats()' list."""
    return [("club/%s/seat" % table, json.dumps({"round": rnd, "names": names, "rules": rules}),
             True) for table, names in seats]


def cell(value):
    """A CSV cell a spreadsheet shows as text: one that starts with = + - @ (or a tab or a
    carriage return) would be read as a formula, so it gets a leading apostrophe."""
    text = str(value)
    if text and text[0] in "=+-@\t\r":
        return "'" + text
    return text


def write_csv(path, data):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["rank", "player", "matches played", "matches won", "game points",
                    "deals won"])
        for i, p in enumerate(data["players"], 1):
            w.writerow([i, cell(p["name"]), p["played"], p["won"], p["gp"], p["deals"]])


def main(argv=None):
    ap = argparse.ArgumentParser(description="The club night's director.")
    ap.add_argument("--broker", default="127.0.0.1:1883")
    ap.add_argument("--user", default="director")
    ap.add_argument("--password-file")
    ap.add_argument("--timeout", type=float, default=10,
                    help="seconds to wait for the service's answer")
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("seat")
    s.add_argument("round", type=int)
    s.add_argument("rules")
    s.add_argument("seats", nargs="+")
    for name in ("correct", "void"):
        c = sub.add_parser(name, description="the deal counts as given, if one deal of the "
                           "match's rule set can give it there (a refusal lists what can)"
                           if name == "correct" else "the deal does not count")
        c.add_argument("table")
        c.add_argument("inc")
        c.add_argument("match", type=int)
        c.add_argument("deal", type=int)
        if name == "correct":
            c.add_argument("gp", help="GP,GP: game points per side (only the winner scores)")
            c.add_argument("winner", type=int, help="the side that won the deal (0-based; "
                           "-1: none)")
            c.add_argument("--over", type=int, default=-1,
                           help="the side that has won the match after this deal (-1: not "
                           "over)")
        c.add_argument("--why", required=True)
    c = sub.add_parser("accept", description="a result kept aside (a conflict's other copy, "
                       "a late or a held one) counts: a deal as the core scores its entries; "
                       "each row on its own, exit 1 if any was declined")
    c.add_argument("rows", type=int, nargs="*", metavar="ROW", help="a row as list shows it")
    c.add_argument("--round", type=int, help="every held result of that round")
    c.add_argument("--gp", help="GP,GP: the game points of a result with no entries the "
                   "core can score (one row)")
    c.add_argument("--winner", type=int, help="with --gp: the deal's winner side")
    c.add_argument("--over", type=int, default=-1,
                   help="with --gp: the match's winner side after the deal (-1: not over)")
    c.add_argument("--why", required=True)
    c = sub.add_parser("pair", help="propose the next round's seating from the standings")
    c.add_argument("round", type=int)
    c.add_argument("rules")
    c.add_argument("--system", choices=("swiss", "roundrobin"), default="swiss")
    c.add_argument("--tables", nargs="+", help="the table ids to seat, in order")
    c.add_argument("--add", nargs="+", default=[],
                   help="players who join (or sat out every round so far)")
    c.add_argument("--send", action="store_true", help="seat it (as the seat command)")
    sub.add_parser("list")
    sub.add_parser("show")
    c = sub.add_parser("close")
    c.add_argument("--csv", required=True)
    tablecards.arguments(sub.add_parser("cards"))
    c = sub.add_parser("reopen")
    c.add_argument("--why", required=True)
    a = ap.parse_args(argv)

    if a.cmd == "pair":
        seats = pair(a)
        if not a.send:
            return
        a.seats = ["%s=%s" % (t, ",".join(n)) for t, n in seats]
        a.cmd = "seat"
    if a.cmd == "seat":
        # The service checks and stores the round first; the tables hear it only then.
        seats = parse_seats(a.seats)
        verdict(a, {"cmd": "seat", "round": a.round, "rules": a.rules, "seats": seats})
        publish(a, seat_messages(a.round, a.rules, seats))
        print("round %d seated: %d tables" % (a.round, len(seats)))
    elif a.cmd in ("correct", "void"):
        fix = {"cmd": a.cmd, "table": a.table, "inc": a.inc, "match": a.match,
               "deal": a.deal, "why": a.why}
        if a.cmd == "correct":
            fix["result"] = {"gp": game_points(a.gp), "winner": a.winner, "over": a.over}
        verdict(a, fix)
    elif a.cmd == "accept":
        accept(a)
    elif a.cmd == "list":
        rows = verdict(a, {"cmd": "list"}).get("rows", [])
        for r in rows:
            copies = r.get("copies") or 1  # one row for a bad message sent again and again
            print("row %d  %s  %s%s\n    %s" % (r["id"], r["topic"], r["why"], " (%d copies)"
                                                % copies if copies > 1 else "", r["body"]))
        print("%d results do not count" % len(rows) if rows else "every result counts")
    elif a.cmd == "reopen":
        verdict(a, {"cmd": "reopen", "why": a.why})
    elif a.cmd == "cards":
        tablecards.run(a)
    elif a.cmd == "show":
        sys.stdout.write(render(standings(a)))
    elif a.cmd == "close":
        verdict(a, {"cmd": "close"})
        data = standings(a, lambda d: d.get("closed"), a.timeout)
        write_csv(a.csv, data)
        print("closed; final standings in %s (%d players)" % (a.csv, len(data["players"])))

if __name__ == "__main__":
    main()
