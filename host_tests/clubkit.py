"""Club-night test plumbing: a real Mosquitto, the standings service in a thread, tables in
the MicroPython unix port (mp_club_table.py), and the standings the tables' own flash says
the night should end with."""

import contextlib
import glob
import json
import os
import subprocess
import sys
import threading
import time

import clubtruth
import mosquitto
import paho.mqtt.client as paho
import pytest
from conftest import FIRMWARE, ROOT, TOOLS, run_micropython

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)  # the club/ package (the service, the director)

TABLE = os.path.join(ROOT, "host_tests", "mp_club_table.py")
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


def club_file(folder, table, port, password=None, resend_s=1):
    path = os.path.join(folder, table + ".club.json")
    cfg = {"table": table, "broker": "127.0.0.1", "port": port, "resend_s": resend_s,
           "keepalive": 5}
    if password is not None:
        cfg["password"] = password
    with open(path, "w") as f:
        json.dump(cfg, f)
    return path


def run_table(folder, table, club, plan, runtime="mp64", timeout=90, background=False):
    """Run one table's plan; its flash is folder/table. background=True: a Popen."""
    args = [TABLE, os.path.join(folder, table), club, plan]
    if background:
        import runtimes

        argv, env = runtimes.command(runtime, args, paths=[FIRMWARE, TOOLS])
        return subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    r = run_micropython(args, paths=[FIRMWARE, TOOLS], runtime=runtime, timeout=timeout)
    return r


def last_json(stdout):
    lines = [ln for ln in stdout.decode().splitlines() if ln.startswith("{")]
    assert lines, stdout
    return json.loads(lines[-1])


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
        assert self.svc.connected.wait(10), "the service did not connect"
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


class PahoTable:
    """A table in this process: the firmware's Session and Outbox on CPython, paho-mqtt as
    the link, so a test can misbehave on purpose (duplicates, any order, cut links)."""

    def __init__(self, folder, table, port, password, seed):
        import random

        from net.outbox import Outbox
        from session import Session
        from store.journal import Store

        self.root = os.path.join(folder, table)
        os.makedirs(self.root, exist_ok=True)
        self.table, self.port, self.password = table, port, password
        self.rnd = random.Random(seed)
        self.session = Session(Store(os.path.join(self.root, "data")))
        self.session.boot()
        self.outbox = Outbox(Store(os.path.join(self.root, "outbox")))
        self.outbox.load()
        self.client = None
        self.acks = []  # (inc, seq) as they came

    def new(self, setup):
        self.session.new_match(setup)
        self._entered()

    def deals(self, n):
        st = self.session.match.state
        while n and not st.over:
            r = st.rules
            self.session.enter(bytes((5, self.rnd.randrange(r.sides),
                                      self.rnd.choice(r.choices()))))
            self._entered()
            n -= 1

    def undo(self):
        self.session.undo()
        self._entered()

    def _entered(self):
        self.outbox.sync(self.session)
        clubtruth.write(self.root, self.outbox.round)

    def connect(self):
        c = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="table-" + self.table,
                        protocol=paho.MQTTv311)
        c.username_pw_set(self.table, self.password)
        c.on_message = self._on_message
        c.connect("127.0.0.1", self.port)
        c.subscribe("club/%s/ack" % self.table, 0)
        c.loop_start()
        self.client = c

    def _on_message(self, client, userdata, msg):
        inc, _, seq = msg.payload.decode().partition(" ")
        self.acks.append((inc, int(seq)))

    def send(self, dup=False, shuffle=False, cut=False):
        """Publish what is pending; dup: twice; shuffle: in any order; cut: drop the link
        right after the broker has them, before the service's ack can come."""
        if self.client is None:
            self.connect()
        items = list(self.outbox.pending)
        if dup:
            items += self.rnd.sample(items, len(items))
        if shuffle:
            self.rnd.shuffle(items)
        infos = [self.client.publish("club/%s/result" % self.table, p, qos=1)
                 for _seq, p in items]
        for info in infos:
            info.wait_for_publish(10)
        if cut:
            self.close()

    def close(self):
        if self.client is not None:
            self.client.loop_stop()
            self.client.disconnect()
            self.client = None

    def take_acks(self):
        while self.acks:
            inc, seq = self.acks.pop(0)
            self.outbox.ack(inc, seq)

    def wait(self, seconds=30, resend=1.0):
        """Resend until every result is acked, as the firmware does."""
        deadline = time.monotonic() + seconds
        last = 0.0
        while self.outbox.pending and time.monotonic() < deadline:
            self.take_acks()
            if self.outbox.pending and time.monotonic() - last > resend:
                try:
                    self.send()
                except (OSError, ValueError, RuntimeError):
                    self.close()  # broker away: try again next round
                last = time.monotonic()
            time.sleep(0.02)
        self.take_acks()
        return not self.outbox.pending
