"""Club-night test plumbing: a real Mosquitto, the standings service in a thread, tables
(tools/clubtables.py: in the MicroPython unix port, or in this process), and the standings
the tables' own flash says the night should end with."""

import contextlib
import glob
import json
import os
import sys
import threading
import time

import mosquitto
import pytest
from clubtables import TABLE, PahoTable, club_file, last_json, run_table  # noqa: F401
from conftest import ROOT

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)  # the club/ package (the service, the director)

PASSWORDS = {"standings": "svc-pw", "director": "dir-pw", "viewer": "view-pw"}


def need_broker():
    why = mosquitto.missing()
    if why:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


def table_passwords(n):
    return {"t%02d" % i: "pw-t%02d" % i for i in range(1, n + 1)}


@contextlib.contextmanager
def club_broker(tmp_path, tables):
    """A real Mosquitto on a free loopback port that knows the service's, the director's and
    the viewer's logins and those of tables t01..tNN (password pw-tNN)."""
    need_broker()
    users = dict(PASSWORDS, **table_passwords(tables))
    with mosquitto.Broker(str(tmp_path / "broker"), users=users) as b:
        yield b


def truth(folder):
    """Every table's matches as its flash holds them: [{"names","deals","winner","round"}]."""
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "*", "truth.json"))):
        with open(path) as f:
            out.extend(json.load(f).values())
    return out


def players(standings):
    """{name: (played, won, game points)} of a standings dict."""
    return {p["name"]: (p["played"], p["won"], p["gp"]) for p in standings["players"]}


def expected(folder):
    from club.standings import expected_players

    return {n: (p["played"], p["won"], p["gp"])
            for n, p in expected_players(truth(folder)).items()}


def brokerless_service(tmp_path):
    """(the standings service on tmp_path/night.sqlite with no broker, its log lines): a
    test hands it messages itself (feed, seat) and reads its acks from its Event."""
    from club.service import Service

    lines = []
    svc = Service(str(tmp_path / "night.sqlite"), "127.0.0.1", 1, log=lines.append)
    svc.client.publish = lambda *a, **k: None
    return svc, lines


def feed(svc, payloads, table="t01"):
    """Results as the broker delivers them to the service, in this order."""
    for p in payloads:
        svc._handle("club/%s/result" % table, p.encode())


def seat_heard(svc, table, rnd, names, rules="classic66"):
    """A retained seating as the service hears it on club/<table>/seat."""
    svc._handle("club/%s/seat" % table, json.dumps(
        {"round": rnd, "names": names, "rules": rules}).encode())


class ServiceThread:
    """The standings service (club/service.py) in a thread of this process."""

    def __init__(self, db, port, user="standings", password=PASSWORDS["standings"],
                 every=0.05, http=False, director_password=None, log=None):
        from club.service import Service

        self.svc = Service(db, "127.0.0.1", port, user, password, every=every, log=log,
                           director_password=director_password)
        self.http = self.svc.serve("127.0.0.1", 0) if http else None
        self.thread = threading.Thread(target=self.svc.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        assert self.svc.connected.wait(60), "the service did not subscribe"
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self):
        self.svc.stop.set()
        self.thread.join(10)
        if self.http is not None:
            self.http.shutdown()
        self.svc.db.close()

    def settle(self, acked, seconds=120):
        """Wait until the standings show {table: acked seq} (or time runs out: a loaded
        machine may take long; the wait ends as soon as they do)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            tables = json.loads(self.svc.snapshot).get("tables", {})
            if all(tables.get(t, {}).get("acked") == a for t, a in acked.items()):
                break
            time.sleep(0.05)
        time.sleep(0.1)
        return json.loads(self.svc.snapshot)
