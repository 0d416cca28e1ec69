"""Club tables for the club's tests and figures: a table in the MicroPython unix port
(club_table.py, the firmware's own link against a real broker) and a table in this
process (PahoTable: the firmware's Session and Outbox with paho-mqtt as the link)."""

import json
import os
import subprocess
import sys
import time

import clubtruth
import paho.mqtt.client as paho
import runtimes

TOOLS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TOOLS)
FIRMWARE = os.path.join(ROOT, "firmware")
TABLE = os.path.join(TOOLS, "club_table.py")
if FIRMWARE not in sys.path:
    sys.path.append(FIRMWARE)  # PahoTable's Session and Outbox, the wire's topics

from net import wire  # noqa: E402


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
        argv, env = runtimes.command(runtime, args, paths=[FIRMWARE, TOOLS])
        return subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    return runtimes.run(runtime, args, paths=[FIRMWARE, TOOLS], cwd=ROOT, timeout=timeout)


def last_json(stdout):
    lines = [ln for ln in stdout.decode().splitlines() if ln.startswith("{")]
    assert lines, stdout
    return json.loads(lines[-1])


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
        c.subscribe(wire.topic(self.table, wire.ACK), 0)
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
        infos = [self.client.publish(wire.topic(self.table, wire.RESULT), p, qos=1)
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
