"""Club tables as a swarm, for the club night's bench (tools/club_figures.py night()): many
tables in one process, each its own MQTT connection (paho-mqtt, driven by one selector
loop) with its own login, subscribed to its own ack and seating as a table is.

    python tools/club_swarm.py PLAN.json       commands on stdin, events on stdout

PLAN.json: {"port": P, "resend_s": 20, "window_s": 30, "seed": N, "tables": [{"table":
"t001", "password": "...", "rounds": {"1": [[seq, payload], ...], ...}, "catchup":
[[seq, payload], ...]}, ...]}. A table starts round R when its seating for R arrives: its
match header at once (the seating starts the match). On "play" the round's deals follow,
spread over window_s seconds, each at a random moment of its own slot, all but the last
one, which waits for "finish". As the firmware's link does (net/clublink.py), a table that has heard
no new ack for resend_s seconds (since the last one, or since it connected) sends every
result not acked yet again, and a lost connection is opened again.

Commands (a line each): "started R": say "started R" once every table's match header of
round R is acked; "play R T": the round's deals from monotonic time T on; "steady R": say
"steady R" once all of them are acked; "finish R T": every table sends round R's last deal
at a random moment of the second after T; "catchup": every table sends its catch-up
results at once; "stop": print the log and exit. Events: "ready", "steady R" (every
table's round R acked but its last deal), "done R", "queued" (the broker took every
catch-up result: each PUBACK in), "caught" (every catch-up result acked), then "log
{json}": per table, each seq's [first publish, ack heard, sends] in monotonic time (the
same clock as every process's on Linux).
"""

import json
import os
import random
import selectors
import sys
import time

import paho.mqtt.client as paho

TOOLS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(TOOLS), "firmware"))

from net import wire  # noqa: E402  (the topics are the firmware's)


class Table:
    def __init__(self, plan, swarm):
        self.name = plan["table"]
        self.swarm = swarm
        self.rounds = {int(r): msgs for r, msgs in plan["rounds"].items()}
        self.catchup = plan.get("catchup", [])
        self.started = set()
        self.due = []  # [due time, seq, payload], sorted by due time
        self.deals = {}  # round -> [[seq, payload]] of its steady part, waiting for "play"
        self.finals = {}  # round -> (seq, payload) waiting for "finish"
        self.log = {}  # seq -> [first publish, ack heard, sends]
        self.unacked = {}  # seq -> payload
        self.acked = 0
        self.heard = 0.0  # when an ack last told something new, or the link came up
        self.mids = set()  # catch-up publishes whose PUBACK is still to come
        self.subscribed = False
        self.sock = None
        self.down_since = None
        c = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=self.name,
                        protocol=paho.MQTTv311)
        c.username_pw_set(self.name, plan["password"])
        c.on_connect = self._on_connect
        c.on_subscribe = self._on_subscribe
        c.on_message = self._on_message
        c.on_publish = self._on_publish
        c.on_disconnect = self._on_disconnect
        self.client = c

    # ---- paho's callbacks (inside loop_read) ----

    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            return
        client.subscribe([(wire.topic(self.name, wire.ACK), 0),
                          (wire.topic(self.name, wire.SEAT), 0)])

    def _on_subscribe(self, client, userdata, mid, reasons, properties):
        self.subscribed = True
        self.heard = time.monotonic()

    def _on_disconnect(self, client, userdata, flags, reason, properties):
        self.subscribed = False
        self.down_since = time.monotonic()

    def _on_message(self, client, userdata, msg):
        now = time.monotonic()
        if msg.topic.endswith("/" + wire.ACK):
            _inc, _, seq = msg.payload.decode().partition(" ")
            seq = int(seq)
            for s in [s for s in self.unacked if s <= seq]:
                del self.unacked[s]
                self.log[s][1] = now
            if seq > self.acked:
                self.acked = seq
                self.heard = now
            return
        try:
            rnd = json.loads(msg.payload)["round"]
        except (ValueError, KeyError, TypeError):
            return
        if rnd in self.rounds and rnd not in self.started:  # the seating starts the match
            self.started.add(rnd)
            msgs = self.rounds[rnd]
            self.due.append([now, msgs[0][0], msgs[0][1]])
            self.due.sort()
            self.deals[rnd] = msgs[1:-1]
            self.finals[rnd] = msgs[-1]

    def _on_publish(self, client, userdata, mid, reason, properties):
        self.mids.discard(mid)

    # ---- the loop's part ----

    def publish(self, seq, payload, now, track=False):
        entry = self.log.setdefault(seq, [now, None, 0])
        entry[2] += 1
        self.unacked[seq] = payload
        info = self.client.publish(wire.topic(self.name, wire.RESULT), payload, qos=1)
        if track:
            self.mids.add(info.mid)

    def turn(self, now, resend_s):
        while self.due and self.due[0][0] <= now:
            _at, seq, payload = self.due.pop(0)
            self.publish(seq, payload, now)
        if self.unacked and now - self.heard >= resend_s:  # no ack for a while: all again
            self.heard = now
            for seq, payload in sorted(self.unacked.items()):
                self.publish(seq, payload, now)

    def round_sent(self, rnd):
        """Every result of round rnd but its last one sent and acked."""
        msgs = self.rounds.get(rnd)
        if not msgs:
            return True
        return rnd in self.started and self.acked >= msgs[-2][0] and not any(
            seq <= msgs[-2][0] for _at, seq, _p in self.due)


class Swarm:
    def __init__(self, plan):
        self.port = plan["port"]
        self.resend_s = plan.get("resend_s", 20)
        self.window = plan.get("window_s", 30)
        self.rnd = random.Random(plan.get("seed", 0))
        self.tables = [Table(t, self) for t in plan["tables"]]
        self.sel = selectors.DefaultSelector()
        self.waits = []  # (event line, condition)

    def say(self, line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def open(self, t):
        try:
            if t.sock is None and t.down_since is None:
                t.client.connect("127.0.0.1", self.port, keepalive=30)
            else:
                t.client.reconnect()
        except OSError:
            t.down_since = time.monotonic()
            return
        t.down_since = None
        t.sock = t.client.socket()
        self.sel.register(t.sock, selectors.EVENT_READ, t)

    def close_socket(self, t):
        if t.sock is not None:
            try:
                self.sel.unregister(t.sock)
            except (KeyError, ValueError):
                pass
            t.sock = None

    def command(self, line):
        w = line.split()
        if not w:
            return
        if w[0] == "started":  # tell when every table's match header of round R is acked
            rnd = int(w[1])
            self.waits.append(("started %d" % rnd, lambda: all(
                not t.rounds.get(rnd) or t.acked >= t.rounds[rnd][0][0] for t in self.tables)))
        elif w[0] == "play":
            rnd, at = int(w[1]), float(w[2])
            for t in self.tables:
                deals = t.deals.pop(rnd, [])
                for i, (seq, payload) in enumerate(deals):
                    t.due.append([at + self.window * (i + self.rnd.random()) / len(deals), seq,
                                  payload])
                t.due.sort()
        elif w[0] == "finish":
            rnd, at = int(w[1]), float(w[2])
            for t in self.tables:
                if rnd in t.finals:
                    seq, payload = t.finals.pop(rnd)
                    t.due.append([at + self.rnd.random(), seq, payload])
                    t.due.sort()
            self.waits.append(("done %d" % rnd, lambda: all(
                not t.rounds.get(rnd) or t.acked >= t.rounds[rnd][-1][0] for t in self.tables)))
        elif w[0] == "catchup":
            now = time.monotonic()
            for t in self.tables:
                for seq, payload in t.catchup:
                    t.publish(seq, payload, now, track=True)
            self.waits.append(("queued", lambda: all(not t.mids for t in self.tables)))
            self.waits.append(("caught", lambda: all(
                not t.catchup or t.acked >= t.catchup[-1][0] for t in self.tables)))
        elif w[0] == "steady":  # tell when round R's steady part is acked
            rnd = int(w[1])
            self.waits.append(("steady %d" % rnd,
                               lambda: all(t.round_sent(rnd) for t in self.tables)))
        elif w[0] == "stop":
            log = {t.name: t.log for t in self.tables}
            self.say("log " + json.dumps(log, separators=(",", ":")))
            for t in self.tables:
                t.client.disconnect()
            raise SystemExit(0)

    def run(self):
        for t in self.tables:
            self.open(t)
        stdin = sys.stdin.buffer.raw if hasattr(sys.stdin.buffer, "raw") else sys.stdin
        os.set_blocking(stdin.fileno(), False)
        self.sel.register(stdin.fileno(), selectors.EVENT_READ, None)
        pending = b""
        ready = False
        last_misc = 0.0
        writing = set()
        while True:
            now = time.monotonic()
            due = min((t.due[0][0] for t in self.tables if t.due), default=now + 0.2)
            for key, mask in self.sel.select(max(0.0, min(due - now, 0.2))):
                t = key.data
                if t is None:
                    chunk = os.read(key.fd, 65536)
                    if not chunk:  # the bench went away
                        raise SystemExit(1)
                    pending += chunk
                    while b"\n" in pending:
                        line, pending = pending.split(b"\n", 1)
                        self.command(line.decode())
                    continue
                if mask & selectors.EVENT_READ:
                    t.client.loop_read()
                if mask & selectors.EVENT_WRITE and t.sock is not None:
                    t.client.loop_write()
            now = time.monotonic()
            for t in self.tables:
                if t.sock is not None and t.client.socket() is None:  # the link dropped
                    self.close_socket(t)
                    writing.discard(t)
                if t.sock is None:
                    if t.down_since is None or now - t.down_since >= 1.0:
                        self.open(t)
                    continue
                if t.subscribed:
                    t.turn(now, self.resend_s)
                want = t.client.want_write()
                if want != (t in writing):
                    self.sel.modify(t.sock, selectors.EVENT_READ | (
                        selectors.EVENT_WRITE if want else 0), t)
                    (writing.add if want else writing.discard)(t)
            if now - last_misc >= 1.0:  # keepalive pings
                last_misc = now
                for t in self.tables:
                    if t.sock is not None:
                        t.client.loop_misc()
            if not ready and all(t.subscribed for t in self.tables):
                ready = True
                self.say("ready")
            for w in list(self.waits):
                if w[1]():
                    self.waits.remove(w)
                    self.say(w[0])


def main():
    with open(sys.argv[1]) as f:
        plan = json.load(f)
    Swarm(plan).run()


if __name__ == "__main__":
    main()
