"""A club table under a MicroPython unix port taking a firmware update (test_fleet.py): the
firmware's Session, Store and net.Club against a real broker, as tools/club_table.py runs
them, but in the table's own flash folder (the update writes fw/ beside data/).

    micropython mp_fleet_table.py FLASH_DIR CLUB_JSON PLAN

PLAN, one command a ';':
  new RULES               start a match           deals N SEED   N quick deals
  play SEED               quick deals until the match is over
  poll MS                 keep the link going for MS milliseconds
  look                    print {"look": ...}: the stage, whether an offer waits, fw/ there,
                          the boot record there
  taking P S              poll until the update has taken P% of the bundle (S seconds at most)
  begin RULES             start a match and enter its first result, with no poll between
  update S                poll until the update resets the board (S seconds at most)
The reset prints {"reset": ...} and exits with status 4 (a reboot, for the test); at the
end of a plan without one, {"end": ...} with what the panel said.
"""

import json
import os
import socket
import sys
import time

from club_table import Table, rng  # tools/: the same table without a panel
from net.clublink import Club


def main():
    root, club_file, plan = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(club_file) as f:
        cfg = json.load(f)
    os.chdir(root)
    from net.mqtt import MQTT
    from session import Session
    from store.journal import Store

    session = Session(Store("data", os))
    session.boot()
    table = Table(session)
    name = cfg["table"]
    link = MQTT("table-" + name, name, cfg.get("password"), cfg.get("keepalive", 30))
    club = Club(link, table.club_event, session, Store("outbox", os), cfg,
                   time.ticks_ms(), socket)
    peak = [0]

    def reset():
        print(json.dumps({"reset": 1, "stage": club.stage(), "said": table.said,
                          "heap_peak": peak[0]}))
        sys.exit(4)

    club.reset = reset

    def step(ms):
        import gc

        end = time.ticks_add(time.ticks_ms(), ms)
        while time.ticks_diff(end, time.ticks_ms()) > 0:
            club.poll(time.ticks_ms())
            peak[0] = max(peak[0], gc.mem_alloc())
            time.sleep_ms(1)

    def exists(p):
        try:
            os.stat(p)
            return True
        except OSError:
            return False

    for cmd in plan.split(";"):
        w = cmd.split()
        if not w:
            continue
        if w[0] == "new":
            table.attempt(session.new_match, cmd.strip())
            step(5)
        elif w[0] in ("play", "deals"):
            n = 10000 if w[0] == "play" else int(w[1])
            r = rng(int(w[-1]))
            st = session.match.state
            while n and st is not None and not st.over:
                choices = st.rules.choices()
                table.attempt(session.enter,
                              bytes((5, r(st.rules.sides), choices[r(len(choices))])))
                step(5)
                n -= 1
        elif w[0] == "poll":
            step(int(w[1]))
        elif w[0] == "look":
            print(json.dumps({"look": {"stage": club.stage(),
                                       "offer": club.fw.__class__ is bytes,
                                       "fw": exists("fw"), "record": exists("fw/boot"),
                                       "said": table.said}}))
        elif w[0] == "begin":
            table.attempt(session.new_match, "new " + cmd.strip()[6:])
            st = session.match.state
            table.attempt(session.enter, bytes((5, 0, st.rules.choices()[0])))
            step(5)
        elif w[0] == "taking":
            end = time.ticks_add(time.ticks_ms(), int(float(w[2]) * 1000))
            while time.ticks_diff(end, time.ticks_ms()) > 0:
                job = club.fw
                if job is not None and job.__class__ is not bytes and \
                        job.at * 100 >= int(w[1]) * job.size:
                    break
                step(1)
        elif w[0] == "update":
            step(int(float(w[1]) * 1000))
    print(json.dumps({"end": 1, "stage": club.stage(), "said": table.said,
                      "status": club.status, "loaded": sorted(
                          m for m in sys.modules if m.split(".")[0] == "update")}))


main()
