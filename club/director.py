"""The director's command: seat a round, correct or void a result, accept one that did not
count, close and reopen the night.

    python -m club.director [--broker H:P --user director --password-file F]
                            [--timeout S] COMMAND

    seat ROUND RULES TABLE=NAME,NAME ... [--bye [NAME ...]] [--force] [--logins FILE]
                                           retained seatings: each table starts the round's
                                           match with those names (club/<table>/seat); a
                                           round played already is seated again only with
                                           --force, which says what it replaced; --bye: who
                                           sits out (a bye: scores a won match); a table id
                                           that is a login of the club's own programs is
                                           refused, one with no login in venue.passwd
                                           (--logins) warned of
    correct TABLE INC MATCH DEAL GP,GP WINNER [--over SIDE] [--reopen-match] --why TEXT
                                           the deal counts as given (supersedes the table's),
                                           if one deal of the match's rule set can give it
                                           there: sides 0-based, one scores (the winner),
                                           --over the side that has won the match after it
                                           (-1: not over); a refusal lists what can be given
    void TABLE INC MATCH DEAL [--reopen-match] --why TEXT
                                           the deal does not count (once: a deal that does
                                           not count is refused)
                                           correct and void say what changed: the deal
                                           before -> after, the match's totals and winner;
                                           one that leaves a finished match not over (its
                                           winner under the target) is refused unless
                                           --reopen-match
    list [--before ROW | --all]            the results that do not count (held, conflict,
                                           late, refused), each with its row, newest first:
                                           the newest page, the page below ROW, or every
                                           row; then exactly how many there are of each
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
    show                                   the standings now, each match with its table,
                                           INC and MATCH (what correct and void name), then
                                           every result held, in conflict or late, with its
                                           row and why
    close --csv FILE                       final standings: the service marks the night
                                           closed; the CSV is written here
    pair ROUND RULES [--system swiss|roundrobin] [--tables T ...] [--add NAME ...]
         [--drop NAME ...] [--send [--force]]
                                           the next round's seating proposed from the
                                           standings and every round seated or played
                                           (club/pairing.py: Swiss or round robin, no
                                           repeat while a seating of new opponents exists,
                                           a bye to one with the fewest), printed as the
                                           seat command that runs when pasted; --send
                                           seats it (--force: as seat's)
    cards TABLE ...                        a printable page of QR codes, one a table, that
                                           open the browser table page (club/tablecards.py)
    reopen --why TEXT                      the night is open again

Every command but cards is a request to the standings service (club/director/do/<id>),
which answers on club/director/reply/<id>: this prints "accepted" or "refused: <why>".
Exit status (EXIT, also in --help): 0 accepted, 1 refused, 2 no answer within --timeout
seconds (10), 3 cannot connect or bad arguments; never a traceback. A reply is one MQTT
message under the broker's 8 KB: list and show take the rows a page a request, accept as
many rows a request as their verdicts fit. The service keeps every correction in its
database (the audit trail, also in the standings as "audit"); the latest for a deal
counts. INC and MATCH are a table's incarnation and match number: show lists them with
each match (so do /standings.json under "rounds" and the director's page /director).
"""

import argparse
import csv
import json
import os
import re
import secrets
import shlex
import sys
import threading

from net import wire
from sixtysix.names import MAX, valid

from club import logins, tablecards
from club.bounded import HEAD, Reader
from club.bounded import want as ask_for_parts
from club.broker import CannotConnect, connect
from club.view import render

# The exit status of every command, as --help and docs/club.md say it.
ACCEPTED, REFUSED, NO_ANSWER, CANNOT = 0, 1, 2, 3
EXIT = """exit status:
  0  accepted (and done: the CSV written, the list or standings printed)
  1  refused: the service said why (with several rows: any row declined)
  2  no answer: the service did not answer within --timeout (is it running?), or no
     standings came from it
  3  cannot connect (no broker at --broker, the login refused: the password?, the
     password file unreadable) or bad arguments"""


class NoAnswer(Exception):
    """Nothing came within the timeout: args[0] says what (exit 2)."""


class BadArguments(Exception):
    """The command cannot be carried out as given: args[0] says why (exit 3)."""


class Parser(argparse.ArgumentParser):
    """argparse, with bad arguments exit 3 (2 is "no answer") and GP,GP game points that
    start with a minus ("-1,2") read as an argument, not an option: the service's checks
    refuse them with the reason."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("epilog", EXIT)
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = re.compile(r"^-\d+(,-?\d+)*$|^-\d*\.\d+$")

    def error(self, message):
        self.print_usage(sys.stderr)
        print("%s: error: %s" % (self.prog, message), file=sys.stderr)
        raise SystemExit(CANNOT)


class Link:
    """The command's one connection to the broker (as the director: the broker makes the
    login the client id, so a second connection would push the first off): requests to
    the service, the retained standings, the seatings."""

    def __init__(self, a):
        self.a = a
        self.c = connect(a, "director", a.timeout)
        self.cv = threading.Condition()
        self.replies = {}
        self.acked = set()  # subscription message ids the broker has answered
        self.reader = None
        self.want = None
        self.data = None
        self.c.on_message = self._on_message
        self.c.on_subscribe = self._on_subscribe

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties):
        with self.cv:
            self.acked.add(mid)
            self.cv.notify_all()

    def _on_message(self, client, userdata, msg):
        if msg.topic.startswith(wire.DIRECTOR_REPLY):
            try:
                reply = json.loads(msg.payload)
            except ValueError:
                reply = {"ok": False, "why": "an answer that is not JSON"}
            with self.cv:
                self.replies[msg.topic.rsplit("/", 1)[1]] = reply
                self.cv.notify_all()
        elif self.reader is not None:
            data = self.reader.feed(msg.topic, msg.payload)
            if data is not None and self.want(data):
                with self.cv:
                    self.data = data
                    self.cv.notify_all()

    def _subscribe(self, topic):
        _result, mid = self.c.subscribe(topic, 1)
        with self.cv:
            return self.cv.wait_for(lambda: mid in self.acked, self.a.timeout)

    def ask(self, body):
        """One request to the service and its reply (a dict); None when no answer came
        within --timeout. Sent at QoS 0: a service that is down never finds it queued and
        carries it out after this has said that nothing came."""
        rid = secrets.token_hex(8)
        topic = wire.DIRECTOR_REPLY + rid
        if not self._subscribe(topic):
            return None
        self.c.publish(wire.DIRECTOR_DO + rid, json.dumps(body), qos=0)
        with self.cv:
            got = self.cv.wait_for(lambda: rid in self.replies, self.a.timeout)
            reply = self.replies.pop(rid, None) if got else None
        self.c.unsubscribe(topic)
        return reply

    def standings(self, want=None, timeout=10):
        """The retained standings, whole (club/bounded.py joins their parts): the first
        that satisfies want(), if given; NoAnswer when none comes within timeout."""
        with self.cv:
            self.reader, self.want, self.data = Reader(), want or (lambda d: True), None
        if self._subscribe(HEAD + "/#"):
            ask_for_parts(self.c)  # the parts are not retained: the service sends them again
        with self.cv:
            if not self.cv.wait_for(lambda: self.data is not None, timeout):
                raise NoAnswer("no standings from the service in %g s: is it running?"
                               % timeout)
            return self.data

    def publish(self, messages):
        """Send [(topic, payload, retain)] at QoS 1 and wait for the broker to have each."""
        for topic, payload, retain in messages:
            info = self.c.publish(topic, payload, qos=1, retain=retain)
            info.wait_for_publish(self.a.timeout)
            if not info.is_published():
                raise NoAnswer("the broker did not take " + topic)

    def close(self):
        self.c.loop_stop()
        self.c.disconnect()


def publish(a, messages):
    """Send [(topic, payload, retain)] at QoS 1 on a connection of its own (Link.publish)."""
    if getattr(a, "timeout", None) is None:
        a.timeout = 10
    link = Link(a)
    try:
        link.publish(messages)
    finally:
        link.close()


def no_answer(a):
    return NoAnswer("no answer from the standings service in %g s: is it running?"
                    % a.timeout)


def verdict(link, a, body):
    """link.ask(), printed: "accepted[: note]" and the reply, or exit 1 ("refused: why");
    NoAnswer when none came."""
    reply = link.ask(body)
    if reply is None:
        raise no_answer(a)
    if not reply.get("ok"):
        print("refused: %s" % reply.get("why"))
        raise SystemExit(REFUSED)
    print("accepted" + (": " + reply["note"] if reply.get("note") else ""))
    return reply


def game_points(text):
    try:
        return [int(g) for g in text.split(",")]
    except ValueError:
        raise BadArguments("game points are numbers: GP,GP") from None


def accept(link, a):
    """accept ROW [--gp GP,GP --winner W [--over X]], accept ROW ROW ..., accept --round N:
    each row checked on its own, its verdict printed; exit 1 if any was declined. The
    service answers as many rows a request as fit one reply: the rest go in the next."""
    if bool(a.rows) == (a.round is not None):
        raise BadArguments("accept ROW [ROW ...] or accept --round N")
    body = {"cmd": "accept", "why": a.why}
    if a.gp is not None or a.winner is not None:
        if len(a.rows) != 1 or a.gp is None or a.winner is None:
            raise BadArguments("a result is given for one row: accept ROW --gp GP,GP "
                               "--winner SIDE [--over SIDE]")
        body["result"] = {"gp": game_points(a.gp), "winner": a.winner, "over": a.over}
    if a.round is None and len(a.rows) == 1:
        verdict(link, a, dict(body, row=a.rows[0]))
        return
    declined = False
    rest = list(a.rows)
    after = None
    while True:
        if a.round is not None:
            ask = dict(body, round=a.round)
            if after is not None:
                ask["after"] = after
        else:
            ask = dict(body, rows=rest[:MANY])
        reply = link.ask(ask)
        if reply is None:
            raise no_answer(a)
        for r in reply.get("rows") or []:
            print("row %s: %s" % (r.get("row"), "accepted: " + r["note"] if r.get("ok")
                                  else "refused: %s" % r.get("why")))
        if not reply.get("rows"):
            print("refused: %s" % reply.get("why"))
        declined = declined or not reply.get("ok")
        if a.round is not None:
            after = reply.get("next")
            if after is None:
                break
        else:
            rest = reply.get("rest", []) + rest[MANY:]
            if not rest or not reply.get("rows"):
                break
    if declined:
        raise SystemExit(REFUSED)


MANY = 200  # rows one accept request names (the service's limit)


def pages(link, a, before=None, every=False):
    """The list's reply for the page below row `before` (the newest page without it), and
    with every=True every page after it: (first reply, every row). NoAnswer when a page
    does not come."""
    ask = {"cmd": "list"}
    if before is not None:
        ask["before"] = before
    first = link.ask(ask)
    if first is None:
        raise no_answer(a)
    if not first.get("ok"):
        print("refused: %s" % first.get("why"))
        raise SystemExit(REFUSED)
    rows = list(first["rows"])
    reply = first
    while every and reply.get("next") is not None:
        reply = link.ask({"cmd": "list", "before": reply["next"]})
        if reply is None:
            raise no_answer(a)
        rows += reply["rows"]
    return first, rows


def list_rows(link, a):
    """`list`: the newest page of the results that do not count (or, --before ROW, the
    page below that row; --all: every row), then exactly how many there are in all."""
    first, rows = pages(link, a, a.before, a.all)
    for r in rows:
        if r.get("table"):
            what = "%s %s #%s %s" % (r["table"], r["inc"], r["seq"], r.get("what") or "")
        else:
            what = r["topic"]
        why = r["why"]
        if why.startswith(r["kind"] + ": "):
            why = why[len(r["kind"]) + 2:]
        if why.startswith(what.rstrip() + " "):
            why = why[len(what.rstrip()) + 1:]
        copies = r.get("copies") or 1  # one row for a bad message sent again and again
        if copies > 1:
            why += " (%d copies)" % copies
        print("row %d  %s  %s: %s\n    %s" % (r["id"], r["kind"], what, why, r["body"]))
    print(summary(first, rows, a.all))


def summary(first, rows, every):
    """What the list says after its rows: the exact counts, and how to see the rest."""
    counts, total = first["counts"], first["total"]
    if not total:
        return "every result counts"
    text = "%d %s (%s)" % (total, "result does not count" if total == 1 else
                           "results do not count", ", ".join(
        "%s %d" % (k, counts[k]) for k in ("held", "conflict", "late", "refused")))
    if every or (not first["newer"] and len(rows) == total):
        return text + ": every one is listed above"
    if not rows:
        return text + "; none below that row: `list` shows the newest"
    start = first["newer"] + 1
    text += "; results %d to %d of them (newest first) are above" % (
        start, start + len(rows) - 1)
    if first.get("next") is not None:
        text += ": `list --before %d` for the next page" % first["next"]
    return text + ", `list --all` for every one"


def pair(link, a):
    """The proposed seating of round a.round (club/pairing.py), printed as the seat command
    that seats it, as it runs when pasted (a line of its own), then what the director
    should know, each line a shell comment: the byes, players left out of the field, and
    any repeat no seating avoids. Returns (seats, byes)."""
    from sixtysix.errors import Refused
    from sixtysix.rules import Rules

    from club.pairing import propose

    try:
        size = Rules(a.rules.split()[0]).players
    except (Refused, IndexError):
        print("refused: %s is no rule set" % a.rules)
        raise SystemExit(REFUSED) from None
    for n in a.add + a.drop:
        if not valid(n):
            raise BadArguments("a name is 1 to %d letters, no spaces, ',' or '=': %s"
                               % (MAX, n))
    for t in a.tables or ():
        if logins.not_a_table(t):
            raise BadArguments(logins.not_a_table(t))
    data = link.standings(timeout=a.timeout)
    seated, byes = seatings(link, a)
    try:
        got = propose(data, a.round, size, a.system, a.tables, a.add, a.drop, seated, byes)
    except ValueError as e:
        print("refused: %s" % e)
        raise SystemExit(REFUSED) from None
    words = ["%s=%s" % (t, ",".join(n)) for t, n in got.seats]
    if got.byes:
        words += ["--bye"] + got.byes
    print(command_line(a, ["seat", str(a.round), a.rules] + words))
    if got.byes:
        print("# a bye (no match, scores a won match): %s" % " ".join(got.byes))
    for note in got.notes:
        print("# " + note)
    return [[t, n] for t, n in got.seats], got.byes


def seatings(link, a):
    """({round: [[names]]}, {round: [names]}): every round's seatings and byes as the
    service keeps them, page after page."""
    seated, ask = {}, {"cmd": "rounds"}
    while True:
        reply = link.ask(ask)
        if reply is None:
            raise no_answer(a)
        if not reply.get("ok"):
            print("refused: %s" % reply.get("why"))
            raise SystemExit(REFUSED)
        for rnd, _table, names in reply["seats"]:
            seated.setdefault(rnd, []).append(names)
        if reply.get("next") is None:
            return seated, reply.get("byes") or {}
        ask = {"cmd": "rounds", "after": reply["next"]}


def command_line(a, words):
    """This command as the director would paste it: the same Python (the checkout's
    .venv/bin/python when run so), the same broker, login and password file."""
    python = sys.executable or "python3"
    rel = os.path.relpath(python)
    if not rel.startswith(".."):
        python = rel if os.sep in rel else "." + os.sep + rel
    out = [python, "-m", "club.director"]
    for flag, value, default in (("--broker", a.broker, "127.0.0.1:1883"),
                                 ("--user", a.user, "director"),
                                 ("--password-file", a.password_file, None),
                                 ("--timeout", a.timeout, 10)):
        if value is not None and value != default:
            out += [flag, "%g" % value if flag == "--timeout" else value]
    if getattr(a, "logins", None):
        words = words + ["--logins", a.logins]
    return " ".join(shlex.quote(w) for w in out + words)


def check_logins(a, tables):
    """Say on stderr which tables have no login in the broker's password file (a board
    without one never connects); a --logins file that cannot be read is an OSError."""
    path = a.logins or logins.PASSWD
    if a.logins is None and not os.path.exists(path):
        print("note: no %s in this folder: the tables' logins are not checked (--logins "
              "names the broker's password file)" % path, file=sys.stderr)
        return
    for t in logins.without_login(tables, path):
        print("warning: table %s has no login in %s: its board cannot connect; make one "
              "(mosquitto_passwd %s %s) and reload the broker (kill -HUP its process)"
              % (t, path, path, t), file=sys.stderr)


def parse_seats(seats):
    """[[table, [names]]] of TABLE=NAME,NAME arguments (the service checks the rest)."""
    out = []
    for seat in seats:
        table, eq, names = seat.partition("=")
        names = names.split(",")
        if not eq or not table or len(names) < 2 or not all(names):
            raise BadArguments("a seat is TABLE=NAME,NAME[,NAME[,NAME]]: " + seat)
        for n in names:
            if not valid(n):
                raise BadArguments("a name is 1 to %d letters, no spaces, ',' or '=': %s"
                                   % (MAX, n))
        if logins.not_a_table(table):
            raise BadArguments(logins.not_a_table(table))
        out.append([table, names])
    return out


def seat_messages(rnd, rules, seats):
    """The retained seatings the tables read, of parse_seats()' list."""
    return [(wire.topic(table, wire.SEAT),
             json.dumps({"round": rnd, "names": names, "rules": rules}), True)
            for table, names in seats]


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
        # "matches won" counts a bye as one; "byes" and "bye rounds" say which were byes.
        w.writerow(["rank", "player", "matches played", "matches won", "game points",
                    "deals won", "byes", "bye rounds"])
        rounds = bye_rounds(data)
        for i, p in enumerate(data["players"], 1):
            w.writerow([i, cell(p["name"]), p["played"], p["won"], p["gp"], p["deals"],
                        p.get("byes", 0), " ".join(rounds.get(p["name"], ()))])


def bye_rounds(data):
    """{name: [round, ...]} of the standings' byes, rounds in order."""
    out = {}
    for rnd in sorted(data.get("byes") or {}, key=int):
        for name in data["byes"][rnd]:
            out.setdefault(name, []).append(rnd)
    return out


def main(argv=None):
    """Run one command; every outcome is one of the exit statuses (EXIT), said in words
    and never as a traceback."""
    try:
        run(argv)
    except NoAnswer as e:
        print(e)
        raise SystemExit(NO_ANSWER) from None
    except (CannotConnect, BadArguments) as e:
        print("director: %s" % e, file=sys.stderr)
        raise SystemExit(CANNOT) from None
    except OSError as e:  # a file of the command's: the CSV, the cards, a password
        print("director: %s: %s" % (e.filename or "", e.strerror or e), file=sys.stderr)
        raise SystemExit(CANNOT) from None
    except KeyboardInterrupt:
        print("director: stopped (Ctrl-C): the last request may have been carried out",
              file=sys.stderr)
        raise SystemExit(NO_ANSWER) from None
    except SystemExit as e:
        if isinstance(e.code, str):  # a check of the arguments (club/tablecards.py's)
            print(e.code, file=sys.stderr)
            raise SystemExit(CANNOT) from None
        raise


def parser():
    ap = Parser(prog="python -m club.director", description=__doc__.split("\n\n", 2)[2]
                .split("\nEvery command", 1)[0].rstrip())
    ap.add_argument("--broker", default="127.0.0.1:1883")
    ap.add_argument("--user", default="director")
    ap.add_argument("--password-file")
    ap.add_argument("--timeout", type=float, default=10,
                    help="seconds to wait for the service's answer")
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("seat", description="retained seatings: each table starts the "
                       "round's match with those names; a table id that is a login of the "
                       "club's own programs (club/mosquitto/acl) is refused, a table with no "
                       "login in the broker's password file warned of")
    s.add_argument("round", type=int)
    s.add_argument("rules")
    s.add_argument("seats", nargs="+")
    s.add_argument("--force", action="store_true",
                   help="seat a round played already again (a match of it heard, or a later "
                   "round seated): the verdict says what it replaced")
    s.add_argument("--bye", nargs="*", metavar="NAME",
                   help="the round's players who sit out (a bye: no match, scores a won "
                   "match; pair gives a bye to a player with the fewest); --bye alone: none; "
                   "without --bye the round's byes stay, but for a player seated now")
    s.add_argument("--logins", metavar="FILE",
                   help="the broker's password file, to warn of a table with no login "
                   "(default: venue.passwd in this folder, if there)")
    for name in ("correct", "void"):
        c = sub.add_parser(name, description=(
            "the deal counts as given, if one deal of the match's rule set can give it "
            "there (a refusal lists what can)" if name == "correct" else
            "the deal does not count (once: a deal that does not count is refused)")
            + "; the verdict says what changed: the deal before -> after, the match's "
            "totals and winner")
        c.add_argument("table")
        c.add_argument("inc", help="the table's INC, as show lists its matches")
        c.add_argument("match", type=int)
        c.add_argument("deal", type=int)
        if name == "correct":
            c.add_argument("gp", help="GP,GP: game points per side (only the winner scores)")
            c.add_argument("winner", type=int, help="the side that won the deal (0-based; "
                           "-1: none)")
            c.add_argument("--over", type=int, default=-1,
                           help="the side that has won the match after this deal (-1: not "
                           "over)")
        c.add_argument("--reopen-match", action="store_true",
                       help="a finished match this leaves not over (its winner under the "
                       "target) or won by another side is stored so; without it that is "
                       "refused")
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
    c = sub.add_parser("pair", help="propose the next round's seating from the standings",
                       description="the next round's seating from the standings and every "
                       "round seated or played (Swiss, or round robin): no repeat while a "
                       "seating of new opponents exists, a bye (no match, scores a won match) to "
                       "one with the fewest; printed as the seat command that runs when "
                       "pasted, then notes as shell comments")
    c.add_argument("round", type=int)
    c.add_argument("rules")
    c.add_argument("--system", choices=("swiss", "roundrobin"), default="swiss")
    c.add_argument("--tables", nargs="+", help="the table ids to seat, in order")
    c.add_argument("--add", nargs="+", default=[], metavar="NAME",
                   help="players who join the field (or come back after a round away)")
    c.add_argument("--drop", nargs="+", default=[], metavar="NAME",
                   help="players who leave the field (from this round on)")
    c.add_argument("--send", action="store_true", help="seat it (as the seat command)")
    c.add_argument("--force", action="store_true",
                   help="with --send: seat a round played already again (as seat --force)")
    c.add_argument("--logins", metavar="FILE",
                   help="with --send: as seat's (the tables' logins checked)")
    c = sub.add_parser("list", description="the results that do not count (held, conflict, "
                       "late, refused), newest first, a page at a time, then how many in all")
    c.add_argument("--before", type=int, metavar="ROW", help="the page below that row")
    c.add_argument("--all", action="store_true", help="every row, page after page")
    sub.add_parser("show", description="the standings, each match with its INC, then every "
                   "result held, in conflict or late, with its row")
    c = sub.add_parser("close")
    c.add_argument("--csv", required=True)
    tablecards.arguments(sub.add_parser("cards"))
    c = sub.add_parser("reopen")
    c.add_argument("--why", required=True)
    return ap


def run(argv=None):
    a = parser().parse_args(argv)
    if a.cmd == "cards":
        tablecards.run(a)
        return
    seats = parse_seats(a.seats) if a.cmd == "seat" else None
    if seats is not None:
        for n in a.bye or ():
            if not valid(n):
                raise BadArguments("a name is 1 to %d letters, no spaces, ',' or '=': %s"
                                   % (MAX, n))
        check_logins(a, [t for t, _n in seats])
    fix = None
    if a.cmd in ("correct", "void"):
        fix = {"cmd": a.cmd, "table": a.table, "inc": a.inc, "match": a.match,
               "deal": a.deal, "why": a.why}
        if a.reopen_match:
            fix["reopen_match"] = True
        if a.cmd == "correct":
            fix["result"] = {"gp": game_points(a.gp), "winner": a.winner, "over": a.over}
    link = Link(a)
    try:
        command(link, a, seats, fix)
    finally:
        link.close()


def command(link, a, seats, fix):
    byes = a.bye if a.cmd == "seat" else None
    if a.cmd == "pair":
        seats, byes = pair(link, a)
        if not a.send:
            return
        check_logins(a, [t for t, _n in seats])
        a.cmd = "seat"
    if a.cmd == "seat":
        # The service checks and stores the round first; the tables hear it only then.
        ask = {"cmd": "seat", "round": a.round, "rules": a.rules, "seats": seats}
        if byes is not None:
            ask["byes"] = byes
        if a.force:
            ask["force"] = True
        verdict(link, a, ask)
        link.publish(seat_messages(a.round, a.rules, seats))
        print("round %d seated: %d tables" % (a.round, len(seats)))
    elif fix is not None:
        verdict(link, a, fix)
    elif a.cmd == "accept":
        accept(link, a)
    elif a.cmd == "list":
        list_rows(link, a)
    elif a.cmd == "reopen":
        verdict(link, a, {"cmd": "reopen", "why": a.why})
    elif a.cmd == "show":
        data = link.standings(timeout=a.timeout)
        try:
            first, rows = pages(link, a, every=True)
        except NoAnswer:
            sys.stdout.write(render(data))
            raise NoAnswer("no answer from the standings service in %g s: the results that "
                           "do not count are not listed (is it running?)" % a.timeout) from None
        sys.stdout.write(render(data, kept={"rows": rows, "counts": first["counts"]}))
    elif a.cmd == "close":
        verdict(link, a, {"cmd": "close"})
        data = link.standings(lambda d: d.get("closed"), a.timeout)
        write_csv(a.csv, data)
        print("closed; final standings in %s (%d players)" % (a.csv, len(data["players"])))


if __name__ == "__main__":
    main()
