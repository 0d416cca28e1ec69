"""A club table under the MicroPython unix port: the firmware's Session, Store and net.Club
against a real broker, driven by a plan instead of keys (tools/clubtables.py run_table(),
for test_club_*.py and the club figures).

    micropython tools/club_table.py FLASH_DIR CLUB_JSON PLAN

FLASH_DIR is the table's flash (the match in data/, the outbox in outbox/); running the
script again on it is a reboot. PLAN is one command a ';':
  new RULES [names=A,B]   start a match          play SEED   quick deals until it is over
  deals N SEED            N quick deals          undo        take back the last entry
  cards N SEED            N deals played card by card (tools/dealgen.py), from the
                          match's first deal
  wait S                  poll until every result is acknowledged (S seconds at most)
  acked N S               poll until the service's ack reaches N (S seconds at most)
  seat R S                poll until the seating of round R has started a match
  poll MS                 keep the link going for MS milliseconds
  crash                   stop here, mid-whatever: no disconnect, nothing flushed
  lang CODE               the table's language (ui/lang/CODE.txt) from here on
After every entry the matches as the flash holds them are written to FLASH_DIR/truth.json
(read back by a fresh Session: the standings the service must reach come from these).
Prints one JSON line at the end: pending, acked, next, status, said, connects (connections
the broker accepted).
"""

import json
import os
import socket
import sys
import time

from clubtruth import write as truth
from net.clublink import Club
from net.mqtt import MQTT
from session import Session
from sixtysix.errors import Refused
from store.journal import Store
from ui.app import App


class Table(App):
    """The App's part of the club (club_event: the mark and the words), with no panel:
    what it says is kept in a list."""

    def __init__(self, session):
        self.session = session
        self.club_mark = 0
        self.dirty = False
        self.said = []
        self.buzzer = None

    def say(self, text):
        self.said.append(text)

    def attempt(self, fn, *args):
        try:
            fn(*args)
        except Refused as e:
            self.say("x " + e.code)
            return False
        return True

    def home(self):
        pass


class Counted(Club):
    """Club counting the connections the broker accepted (connects in the JSON line)."""

    connects = 0

    def connack(self, code):
        if not code:
            self.connects += 1
        Club.connack(self, code)


def rng(seed):
    state = [seed * 2654435761 % 4294967291 or 1]

    def next_int(n):
        state[0] = state[0] * 1103515245 + 12345 & 0x7FFFFFFF
        return (state[0] >> 8) % n

    return next_int


def main():
    root, club_file, plan = sys.argv[1], sys.argv[2], sys.argv[3]
    try:
        os.mkdir(root)
    except OSError:
        pass
    with open(club_file) as f:
        cfg = json.load(f)
    session = Session(Store(root + "/data", os))
    session.boot()
    table = Table(session)
    name = cfg["table"]
    link = MQTT("table-" + name, name, cfg.get("password"), cfg.get("keepalive", 30))
    club = Counted(link, table.club_event, session, Store(root + "/outbox", os), cfg,
                time.ticks_ms(), socket)

    slowest = [0]  # the longest club.poll() call, in microseconds: the keys wait that long

    def step(ms=5):
        end = time.ticks_add(time.ticks_ms(), ms)
        while True:
            t0 = time.ticks_us()
            club.poll(time.ticks_ms())
            slowest[0] = max(slowest[0], time.ticks_diff(time.ticks_us(), t0))
            if time.ticks_diff(end, time.ticks_ms()) <= 0:
                return
            time.sleep_ms(2)

    def entered():
        step()
        truth(root, club.outbox.round)

    for cmd in plan.split(";"):
        w = cmd.split()
        if not w:
            continue
        if w[0] == "new":
            table.attempt(session.new_match, cmd.strip())
            entered()
        elif w[0] in ("play", "deals"):
            n = 10000 if w[0] == "play" else int(w[1])
            r = rng(int(w[-1]))
            st = session.match.state
            while n and st is not None and not st.over:
                side = r(st.rules.sides)
                choices = st.rules.choices()
                table.attempt(session.enter, bytes((5, side, choices[r(len(choices))])))
                entered()
                n -= 1
        elif w[0] == "cards":
            from dealgen import Player
            from sixtysix.events import parse

            p = Player(session.match.setup, int(w[2]))
            n = int(w[1])
            while n and not p.match.state.over:
                k = len(p.lines)
                p.play_deal()
                for line in p.lines[k:]:
                    table.attempt(session.enter, parse(line))
                    entered()
                n -= 1
        elif w[0] == "undo":
            table.attempt(session.undo)
            entered()
        elif w[0] == "wait":
            end = time.ticks_add(time.ticks_ms(), int(float(w[1]) * 1000))
            while club.outbox.pending and time.ticks_diff(end, time.ticks_ms()) > 0:
                step(20)
        elif w[0] == "acked":
            end = time.ticks_add(time.ticks_ms(), int(float(w[2]) * 1000))
            while club.outbox.acked < int(w[1]) and time.ticks_diff(end, time.ticks_ms()) > 0:
                step(20)
        elif w[0] == "seat":
            end = time.ticks_add(time.ticks_ms(), int(float(w[2]) * 1000))
            while club.outbox.seated < int(w[1]) and time.ticks_diff(end, time.ticks_ms()) > 0:
                step(20)
            truth(root, club.outbox.round)
        elif w[0] == "poll":
            step(int(w[1]))
        elif w[0] == "lang":
            from ui.i18n import use

            use(w[1])
        elif w[0] == "crash":
            print(json.dumps({"crashed": 1, "pending": len(club.outbox.pending)}))
            sys.exit(3)
    ob = club.outbox
    print(json.dumps({"pending": len(ob.pending), "acked": ob.acked, "next": ob.next,
                      "inc": ob.inc, "status": club.status, "said": table.said,
                      "mark": table.club_mark, "seated": ob.seated,
                      "bytes_out": link.bytes_out, "bytes_in": link.bytes_in,
                      "slowest_poll_us": slowest[0], "connects": club.connects}))


if __name__ == "__main__":  # (host_tests/mp_fleet_table.py imports its Table)
    main()
