"""A club night with faults, through a real Mosquitto (passwords, the project's ACL): tables
in the MicroPython unix port (the firmware's own client) and in this process (the
firmware's outbox with paho-mqtt, to misbehave on purpose). The broker is killed -9 and
restarted mid-round, links are cut between publish and ack, results come twice and in any
order, the service is down for a while and catches up from the broker's durable session,
a table reboots mid-resend, and a table publishes on another table's topic. Afterwards the
standings equal those computed straight from every table's own flash, and the service
holds each table's results 1..N exactly once: 0 lost, 0 duplicated. With the dedupe
deliberately broken, the same comparison fails."""

import json
import os
import sqlite3
import time
import types

import mosquitto
import pytest
from clubkit import (
    PASSWORDS,
    PahoTable,
    ServiceThread,
    club_file,
    expected,
    last_json,
    need_broker,
    players,
    run_table,
    table_passwords,
)

UNIX_TABLES = ("t01", "t02", "t03")
PAHO_TABLES = ("t04", "t05", "t06", "t07", "t08")
NAMES = {t: ["%s%s" % (p, t[1:]) for p in ("Ann", "Bob")] for t in UNIX_TABLES + PAHO_TABLES}


@pytest.fixture
def night(tmp_path):
    need_broker()
    users = dict(PASSWORDS, **table_passwords(8))
    b = mosquitto.Broker(str(tmp_path / "broker"), users=users).start()
    yield tmp_path, b
    b.stop()


def seat_round(folder, port, rnd):
    from club import director

    pw = os.path.join(folder, "director.pw")
    with open(pw, "w") as f:
        f.write(PASSWORDS["director"])
    a = types.SimpleNamespace(broker="127.0.0.1:%d" % port, user="director", password_file=pw)
    seats = ["%s=%s" % (t, ",".join(NAMES[t])) for t in UNIX_TABLES]
    director.publish(a, director.seat_messages(rnd, "classic66", director.parse_seats(seats)))


def stored(db):
    """{(table, inc): sorted seqs} in the service's database."""
    out = {}
    conn = sqlite3.connect(db)
    for table, inc, seq in conn.execute("SELECT table_id, inc, seq FROM results"):
        out.setdefault((table, inc), []).append(seq)
    conn.close()
    return {k: sorted(v) for k, v in out.items()}


def test_a_night_with_faults_loses_nothing_and_counts_nothing_twice(night):
    folder, broker = night
    f = str(folder)
    db = str(folder / "ev.sqlite")
    seat_round(f, broker.port, 1)
    svc = ServiceThread(db, broker.port).__enter__()
    clubs = {t: club_file(f, t, broker.port, "pw-" + t) for t in UNIX_TABLES}
    # The unix-port tables: seated by the director, deals with pauses so the faults below
    # land mid-round; t03 reboots (no goodbye) while results wait for their ack.
    plans = {
        "t01": "seat 1 15;deals 2 11;poll 700;deals 2 12;poll 700;play 13;wait 40",
        "t02": "seat 1 15;deals 1 21;poll 900;undo;deals 3 22;poll 900;play 23;wait 40",
        "t03": "seat 1 15;deals 2 31;poll 600;deals 2 32;crash",
    }
    procs = {t: run_table(f, t, clubs[t], plans[t], background=True) for t in UNIX_TABLES}
    paho_tables = {t: PahoTable(f, t, broker.port, "pw-" + t, seed=i)
                   for i, t in enumerate(PAHO_TABLES)}
    for t, pt in paho_tables.items():
        pt.new("new classic66 names=" + ",".join(NAMES[t]))
        pt.deals(2)
    # Duplicates and any order; t05's link is cut between the broker's PUBACK and the ack.
    paho_tables["t04"].send(dup=True, shuffle=True)
    paho_tables["t05"].send(cut=True)
    paho_tables["t06"].send(dup=True)
    time.sleep(0.6)

    broker.kill()  # kill -9 mid-round: no will, no save since the last autosave
    for pt in paho_tables.values():
        pt.close()
        pt.deals(2)  # the tables play on without a broker
    time.sleep(0.4)
    broker.start()

    dups = svc.svc.duplicates
    svc.stop()  # the service goes down; the broker keeps its queue (durable session)
    for pt in paho_tables.values():
        pt.send(dup=pt.table == "t07", shuffle=True)
    # t05 writes on t04's topic: the ACL drops it; the standings never see "Mallory".
    forged = {"v": 1, "inc": "ffff", "seq": 1, "kind": "match", "match": 9, "round": 1,
              "names": ["Mallory", "Eve"], "rules": "classic66"}
    paho_tables["t05"].client.publish("club/t04/result", json.dumps(forged),
                                      qos=1).wait_for_publish(5)
    time.sleep(0.5)
    svc = ServiceThread(db, broker.port).__enter__()  # restarts from its database

    for pt in paho_tables.values():
        pt.deals(100)  # to the end of the match
        pt.undo()  # ...and back one deal: the last deal's void
        pt.deals(100)
    for pt in paho_tables.values():
        assert pt.wait(40), (pt.table, pt.outbox.pending[:2])
        pt.close()
    outs = {}
    for t, p in procs.items():
        out, err = p.communicate(timeout=90)
        outs[t] = (p.returncode, out, err)
    assert outs["t03"][0] == 3, outs["t03"]  # it crashed as planned...
    assert last_json(outs["t03"][1])["pending"] > 0  # ...with results unacked
    r = run_table(f, "t03", clubs["t03"], "wait 40")  # the reboot: it resends them
    outs["t03"] = (r.returncode, r.stdout, r.stderr)
    nexts = {}
    for t, (code, out, err) in outs.items():
        assert code == 0, err.decode()
        o = last_json(out)
        assert o["pending"] == 0 and o["mark"] == 2, (t, o)
        nexts[t] = (o["inc"], o["next"])
    for t, pt in paho_tables.items():
        nexts[t] = (pt.outbox.inc, pt.outbox.next)
    got = svc.settle({t: n - 1 for t, (_inc, n) in nexts.items()})
    svc.stop()
    assert dups + svc.svc.duplicates > 0  # copies did come, and were not counted

    # 0 lost, 0 duplicated: each table's results 1..N, once.
    have = stored(db)
    for t, (inc, n) in nexts.items():
        assert have.get((t, inc)) == list(range(1, n)), t
    assert "ffff" not in {inc for _t, inc in have}
    # The standings equal what every table's own flash says.
    want = expected(f)
    assert players(got) == want
    assert "Mallory" not in want and sum(p[0] for p in want.values()) == 16


def test_a_broken_dedupe_fails_the_same_check(night, monkeypatch):
    from club import db as club_db
    from club.standings import Event

    folder, broker = night
    f = str(folder)
    # Broken on purpose: the database keeps every copy and the fold forgets what it saw.
    monkeypatch.setattr(club_db.Db, "add_result", lambda self, table, msg: True)
    copies = [0]

    def apply(self, table, msg, stored=None):
        if not real_apply(self, table, msg, stored) and msg["kind"] == "deal":
            copies[0] += 1  # a copy of a deal already in: counted again
            self.count(table, dict(msg, deal=msg["deal"] + 1000 * copies[0]))
        return True

    real_apply = Event.apply
    monkeypatch.setattr(Event, "apply", apply)
    with ServiceThread(str(folder / "ev.sqlite"), broker.port) as svc:
        pt = PahoTable(f, "t04", broker.port, "pw-t04", seed=4)
        pt.new("new classic66 names=Ann,Bob")
        pt.deals(3)
        pt.send(dup=True, shuffle=True)
        assert pt.wait(20)
        pt.close()
        got = svc.settle({"t04": pt.outbox.next - 1})
    assert copies[0] > 0
    assert players(got) != expected(f)
