"""The README's picture of the live standings page: a short demo night (six tables, two
rounds) through a real Mosquitto and the standings service, shot in headless Chromium at a
projector's 1280x720.

    python3 tools/club_screenshot.py      -> docs/img/club/standings.png
"""

import os
import shutil
import sys
import tempfile
import threading
import time
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (ROOT, os.path.join(ROOT, "tools"), os.path.join(ROOT, "firmware")):
    if p not in sys.path:
        sys.path.insert(0, p)

import browser  # noqa: E402
import mosquitto  # noqa: E402

OUT = os.path.join(ROOT, "docs", "img", "club", "standings.png")
PLAYERS = ["Olena", "Taras", "Iryna", "Bohdan", "Mariia", "Andrii", "Sofiia", "Dmytro",
           "Kateryna", "Yurii", "Oksana", "Petro"]


def demo(port, folder):
    """Six tables, each a CPython table (the firmware's Session and Outbox) over paho."""
    from clubtables import PahoTable

    from club import director

    for rnd in (1, 2):
        pairs = [(PLAYERS[t], PLAYERS[6 + (t + rnd - 1) % 6]) for t in range(6)]
        # Seated as the director seats a round (the service counts only seated tables).
        seats = director.parse_seats(["t%02d=%s,%s" % (t + 1, a, b)
                                      for t, (a, b) in enumerate(pairs)])
        who = types.SimpleNamespace(broker="127.0.0.1:%d" % port, user=None,
                                    password_file=None)
        director.publish(who, director.seat_messages(rnd, "classic66", seats))
        for t, (a, b) in enumerate(pairs):
            pt = PahoTable(folder, "t%02d" % (t + 1), port, None, seed=rnd * 10 + t)
            pt.outbox.seated = rnd  # the seating just sent
            pt.new("new classic66 names=%s,%s" % (a, b))
            pt.deals(100 if rnd == 1 or t % 2 else 3)  # round 2: half the tables still play
            pt.send()
            pt.wait(10)
            pt.close()


def main():
    from club.service import Service

    folder = tempfile.mkdtemp(prefix="club-shot-")
    try:
        with mosquitto.Broker(os.path.join(folder, "broker")) as b:
            svc = Service(os.path.join(folder, "ev.sqlite"), "127.0.0.1", b.port, every=0.1)
            server = svc.serve("127.0.0.1", 0)
            th = threading.Thread(target=svc.run, daemon=True)
            th.start()
            svc.connected.wait(10)
            demo(b.port, folder)
            time.sleep(0.5)
            url = "http://127.0.0.1:%d/" % server.server_address[1]
            done = browser.drive("about:blank", [
                {"do": "eval", "js": "location.href = %r" % url},
                {"do": "wait", "ms": 1500},
                {"do": "screenshot", "path": OUT}], viewport=(1280, 720))
            if done.get("failed"):
                raise SystemExit("the picture was not taken: %s" % done["failed"])
            svc.stop.set()
            th.join(10)
            server.shutdown()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("wrote", os.path.relpath(OUT, ROOT))


if __name__ == "__main__":
    main()
