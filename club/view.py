"""The standings in a terminal, redrawn as they change.

    python -m club.view [--broker H:P --user viewer --password-file F] [--once]

It reads the standings, club/standings (retained) and its parts club/standings/<n>, which it
asks the service for on club/standings/want, and joins them (club/bounded.py); a viewer
login (viewer, viewer2 ... viewer9 in club/mosquitto/acl: one a screen) may read nothing
else. A login the ACL gives no read there is refused the subscription, and said so.
"""

import argparse
import os
import sys
import threading

from club.bounded import HEAD, Reader, want
from club.broker import CannotConnect, connect
from club.logins import ACL, standings_readers


def render(data, width=78, kept=None):
    """The standings as text: players ranked, each round's byes and matches (with the
    table's INC and MATCH that correct and void name), then the results that do not count.
    kept: the service's rows that do not count ("list": held, conflict, late, refused; the
    director's `show`), listed by outcome with their row numbers; without it, the
    standings' held results (the terminal view, which may read nothing else)."""
    lines = []
    head = "Standings" + ("  (final)" if data.get("closed") else "")
    lines.append(head)
    lines.append("%3s  %-16s %7s %4s %5s %5s %4s" % ("#", "player", "matches", "won", "gp",
                                                   "deals", "byes"))
    for i, p in enumerate(data.get("players", []), 1):
        lines.append("%3d  %-16s %7d %4d %5d %5d %4d" % (
            i, p["name"][:16], p["played"], p["won"], p["gp"], p["deals"], p.get("byes", 0)))
    byes = data.get("byes") or {}
    for rnd in sorted(set(data.get("rounds", {})) | set(byes), key=int):
        lines.append("")
        lines.append("Round %s%s" % (rnd, "  (table INC MATCH: players, game points)"))
        for name in byes.get(rnd, ()):  # why a player has a match won and no match
            lines.append(("  %-5s %s: a won match, no table" % ("bye", name))[:width])
        for m in data.get("rounds", {}).get(rnd, ()):
            sides = [" + ".join(s) for s in m["sides"]]
            score = " : ".join(str(g) for g in m["gp"])
            won = sides[m["winner"]] if 0 <= m["winner"] < len(sides) else "playing"
            lines.append(("  %-5s %s %s: %s  %s  (%s)" % (
                m["table"], m.get("inc", "?"), m.get("match", "?"), " v ".join(sides), score,
                won))[:width])
    if kept is None:
        _held(lines, data.get("held") or [], width)
    else:
        _kept(lines, kept["rows"], kept["counts"], width)
    lines.append("")
    counted = data.get("counted", data.get("results", 0))
    held = len(data.get("held") or [])
    lines.append("%d results counted%s" % (counted, ", %d held" % held if held else ""))
    return "\n".join(lines) + "\n"


def _where(h):
    where = "match %s" % h.get("match")
    if h.get("deal") is not None:
        where += " deal %s" % h["deal"]
    return where


def _held(lines, held, width):
    if held:
        lines.append("")
        lines.append("Held, not counted (%d)" % len(held))
        for h in held:
            lines.append(("  #%s %-5s %s #%s %s (%s)" % (
                h.get("id"), h["table"], h["inc"], h["seq"], _where(h), h["code"]))[:width])
            lines.append("      " + h["why"])  # whole: the director decides on it


TITLES = (("held", "Held, not counted"), ("conflict", "Conflict, not counted (another "
          "copy counts)"), ("late", "Late, not counted (after the close)"))


def _kept(lines, rows, counts, width):
    """The service's rows that do not count, by outcome: each row's number (for accept),
    the result it is and why."""
    for kind, title in TITLES:
        mine = [r for r in rows if r["kind"] == kind]
        if not counts.get(kind) and not mine:
            continue
        lines.append("")
        lines.append("%s (%d)" % (title, counts.get(kind, len(mine))))
        for r in sorted(mine, key=lambda r: r["id"]):
            what = "%s %s #%s %s" % (r.get("table"), r.get("inc"), r.get("seq"), _where(r))
            code = " (%s)" % r["code"] if r.get("code") else ""
            lines.append(("  row %s  %s%s" % (r["id"], what, code))[:width])
            why = r["why"]
            if why.startswith(kind + ": "):
                why = why[len(kind) + 2:]
            said = "%s %s #%s %s " % (r.get("table"), r.get("inc"), r.get("seq"), r.get("what"))
            if why.startswith(said):
                why = why[len(said):]
            if (r.get("copies") or 1) > 1:  # the same message again: one row, its copies
                why += " (%d copies)" % r["copies"]
            lines.append("      " + why)
    if counts.get("refused"):
        lines.append("")
        lines.append("Refused, not results (%d): `list` shows them" % counts["refused"])


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="The club standings in a terminal.",
        epilog="Exit status: 0 shown (--once) or stopped with Ctrl-C, 2 no standings came "
        "within 10 s (--once), 3 cannot connect (no broker there, the login refused, the "
        "password file unreadable, or the ACL does not let this login read the "
        "standings).")
    ap.add_argument("--broker", default="127.0.0.1:1883")
    ap.add_argument("--user", default="viewer",
                    help="a viewer login: viewer, viewer2 ... viewer9, one a screen")
    ap.add_argument("--password-file")
    ap.add_argument("--once", action="store_true", help="print once and exit")
    a = ap.parse_args(argv)
    done = threading.Event()

    reader = Reader()

    def on_message(client, userdata, msg):
        data = reader.feed(msg.topic, msg.payload)
        if data is None:  # a part of standings still arriving
            return
        text = render(data)
        if not a.once:
            text = "\x1b[H\x1b[2J" + text  # home and clear: a board that stays in place
        sys.stdout.write(text)
        sys.stdout.flush()
        if a.once:
            done.set()

    # The broker grants any subscription and then drops what the ACL does not let this
    # login read: nothing would come, as if no service ran. So the ACL is read here.
    readers = standings_readers()
    if readers is not None and a.user not in readers:
        print("view: the broker does not let %s read the standings: the ACL (%s) lets only "
              "%s read %s/#; use one of those, each made with mosquitto_passwd (docs/club.md: "
              "a second screen)" % (a.user, os.path.relpath(ACL), ", ".join(sorted(readers)),
                                    HEAD), file=sys.stderr)
        raise SystemExit(3)
    try:
        c = connect(a, "viewer-%d" % id(done))
    except CannotConnect as e:
        print("view: %s" % e, file=sys.stderr)
        raise SystemExit(3) from None
    c.on_message = on_message
    c.on_subscribe = lambda *args: want(client=c)  # the parts: the service sends them all
    c.subscribe(HEAD + "/#", 1)
    try:
        done.wait(10 if a.once else None)
    except KeyboardInterrupt:
        pass
    c.loop_stop()
    c.disconnect()
    if a.once and not done.is_set():
        print("view: no standings in 10 s: has the service started?", file=sys.stderr)
        raise SystemExit(2)


if __name__ == "__main__":
    main()
