"""The standings in a terminal, redrawn as they change.

    python -m club.view [--broker H:P --user viewer --password-file F] [--once]

It reads the standings, club/standings (retained) and its parts club/standings/<n>, which it
asks the service for on club/standings/want, and joins them (club/bounded.py); the viewer
user may read nothing else.
"""

import argparse
import sys
import threading

from club.bounded import HEAD, Reader, want
from club.broker import connect


def render(data, width=78):
    """The standings as text: players ranked, each round's matches, then the results held
    (not counted: club/rescore.py) with their refusal id and reason."""
    lines = []
    head = "Standings" + ("  (final)" if data.get("closed") else "")
    lines.append(head)
    lines.append("%3s  %-16s %7s %4s %5s %5s" % ("#", "player", "matches", "won", "gp", "deals"))
    for i, p in enumerate(data.get("players", []), 1):
        lines.append("%3d  %-16s %7d %4d %5d %5d" % (i, p["name"][:16], p["played"], p["won"],
                                                   p["gp"], p["deals"]))
    for rnd in sorted(data.get("rounds", {}), key=int):
        lines.append("")
        lines.append("Round %s" % rnd)
        for m in data["rounds"][rnd]:
            sides = [" + ".join(s) for s in m["sides"]]
            score = " : ".join(str(g) for g in m["gp"])
            won = sides[m["winner"]] if 0 <= m["winner"] < len(sides) else "playing"
            lines.append(("  %-5s %s  %s  (%s)" % (m["table"], " v ".join(sides), score,
                                                   won))[:width])
    held = data.get("held") or []
    if held:
        lines.append("")
        lines.append("Held, not counted (%d)" % len(held))
        for h in held:
            where = "match %s" % h["match"]
            if h.get("deal") is not None:
                where += " deal %s" % h["deal"]
            lines.append(("  #%s %-5s %s #%s %s (%s)" % (
                h.get("id"), h["table"], h["inc"], h["seq"], where, h["code"]))[:width])
            lines.append("      " + h["why"])  # whole: the director decides on it
    lines.append("")
    lines.append("%d results" % data.get("results", 0))
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description="The club standings in a terminal.")
    ap.add_argument("--broker", default="127.0.0.1:1883")
    ap.add_argument("--user", default="viewer")
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

    c = connect(a, "viewer-%d" % id(done))
    c.on_message = on_message
    c.on_subscribe = lambda *args: want(client=c)  # the parts: the service sends them all
    c.subscribe(HEAD + "/#", 1)
    try:
        done.wait(10 if a.once else None)
    except KeyboardInterrupt:
        pass
    c.loop_stop()
    c.disconnect()


if __name__ == "__main__":
    main()
