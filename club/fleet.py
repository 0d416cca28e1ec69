"""Offer a firmware bundle (make fleet) to the night's tables over the club's broker
(docs/boards.md, "Updates over WiFi"):

    python -m club.fleet build/fleet/firmware-V.s66fw --tables t01,t02 \\
        --broker 192.168.4.1:1883 --password-file fleet.pw

It logs in as the fleet user (club/mosquitto/acl), leaves each table the offer (retained on
club/<t>/fw/offer: the version, the bundle's size, the piece size), answers each table's
wants with the bundle's pieces (club/<t>/fw/part), and prints each table's state as the
table reports it (club/<t>/fw/state: the version it runs, taking, refused and why,
switching, back). A table takes the bundle only between matches: one mid-match asks once
its match is over. --withdraw clears the offers (a version nobody should take any more).
firmware/update/job.py is the table's side; every message stays under the broker's
message_size_limit (a piece is at most CHUNK bytes and a short head).

With --until-done it stops once every table runs the version, has refused it, gone back from
it or given up taking it (or --timeout passed), and exits 0 only when every table reports
running it, which a table does only once it has restarted into it; otherwise 1, with a line
for each table that does not (refused and why, went back, gave up, still restarting into it,
still taking, no word).

One run at a time: the venue's broker names a connection by its login, so two runs as fleet
would close each other's connection again and again. A run waits START_S after its login
before it offers anything: a connection closed in that time means another run holds the
login (it logs in again at once), and this one stops with exit status 4, saying so, having
changed nothing. A run that is already offering logs in again when its connection is
closed, and stops (exit 4, saying why) if that happens TAKEN times within TAKEN_S.
"""

import argparse
import json
import os
import re
import secrets
import sys
import threading
import time

from net import wire

from club import broker

CHUNK = 2048  # bytes of bundle a piece: with its head, far under the 8,192-byte limit
START_S = 4.0  # seconds after the login before anything is offered: another run's login
# comes back in about a second (paho's first reconnect), closing this one's
TAKEN, TAKEN_S = 3, 60.0  # a running run closed this often in this long stops
_HEAD = re.compile(rb"S66FW2 (\d+) ")


def bundle_version(data):
    """The version a bundle's head names (unchecked: the tables check the signature)."""
    m = _HEAD.match(data)
    if m is None:
        raise ValueError("not a firmware bundle (make fleet)")
    return int(m.group(1))


class Fleet:
    """The offer to `tables` over a connected paho client; states[t] the last each said."""

    def __init__(self, client, data, tables, chunk=CHUNK, log=print):
        self.client = client
        self.data = data
        self.version = bundle_version(data)
        self.tables = list(tables)
        self.chunk = chunk
        self.log = log
        self.states = {}
        self.parts = 0
        self.stopped = None  # why the run stops before every table is settled
        self.offered = False  # once offered, every login offers again (back_up)
        self.changed = threading.Condition()
        client.on_message = self._on_message

    def subscribe(self):
        """The tables' wants and states (again after the login came back: the broker forgets
        a connection's subscriptions with it)."""
        for t in self.tables:
            self.client.subscribe(wire.fw_topic(t, wire.FW_WANT))
            self.client.subscribe(wire.fw_topic(t, wire.FW_STATE))

    def offer(self):
        offer = json.dumps({"version": self.version, "size": len(self.data),
                            "chunk": self.chunk})
        self.offered = True
        self.subscribe()
        for t in self.tables:
            self.client.publish(wire.fw_topic(t, wire.FW_OFFER), offer, qos=1, retain=True)

    def back_up(self):
        """The login came back: subscribe again, and offer again once offered. A broker
        that went down keeps what it saved last (venue.conf: every 2 s), so a retained
        offer of its last seconds may be gone; the same offer again changes nothing at a
        table that has it (update/job.py)."""
        if self.offered:
            self.offer()
        else:
            self.subscribe()

    def withdraw(self):
        for t in self.tables:
            self.client.publish(wire.fw_topic(t, wire.FW_OFFER), b"", qos=1, retain=True)

    def _on_message(self, client, userdata, msg):
        parts = msg.topic.split("/")
        if len(parts) != 4 or parts[1] not in self.tables:
            return
        table, kind = parts[1], parts[3]
        if kind == wire.FW_WANT:
            self.answer(table, msg.payload)
        elif kind == wire.FW_STATE:
            self.heard(table, msg.payload)

    def answer(self, table, payload):
        try:
            version, at = (int(w) for w in payload.split())
        except ValueError:
            return
        if version != self.version or not 0 <= at < len(self.data):
            return
        piece = self.data[at:at + self.chunk]
        self.client.publish(wire.fw_topic(table, wire.FW_PART),
                            b"%d %d\n" % (version, at) + piece, qos=0)
        self.parts += 1

    def heard(self, table, payload):
        try:
            state = json.loads(payload)
        except ValueError:
            return
        if not isinstance(state, dict):
            return
        with self.changed:
            if self.states.get(table) != state:
                self.states[table] = state
                self.log("%s: %s" % (table, describe(state)))
            self.changed.notify_all()

    def stop(self, why):
        """End wait() now: the run cannot go on (why, one line)."""
        with self.changed:
            self.stopped = why
            self.changed.notify_all()

    def runs(self, table):
        """The table runs this version: it says so with its restart behind it (while it
        restarts into a version it reports the one it still runs, state "switching")."""
        s = self.states.get(table) or {}
        return s.get("version") == self.version and s.get("state") != "switching"

    def settled(self, table):
        """Nothing more will change at the table without someone: it runs this version,
        refused it (or gave up taking it), went back from it, or runs a newer one."""
        s = self.states.get(table) or {}
        v, st = s.get("version"), s.get("state")
        return (self.runs(table) or s.get("failed") == self.version
                or self.version in (s.get("offered") if st == "refused" else None,
                                    s.get("refused"))
                or type(v) is int and v > self.version and st != "switching")

    def done(self):
        """Every table is settled (see settled())."""
        return all(self.settled(t) for t in self.tables)

    def wait(self, timeout=None, until_done=True):
        """Until done() (until_done) or stop(); False when it was not done."""
        with self.changed:
            return self.changed.wait_for(
                lambda: self.stopped or until_done and self.done(), timeout) is True

    def unfinished(self):
        """A line for each table that does not run this version: what it said last."""
        out = []
        for t in self.tables:
            if self.runs(t):
                continue
            s = self.states.get(t)
            if s is None:
                why = ("no word from the table (switched off, out of the WiFi, or no "
                       "fleet_key in its club.json?)")
            else:
                why = describe(s)
                if s.get("state") == "switching" and s.get("offered") == self.version:
                    why += "; no word since (it says the version once it runs it)"
                elif s.get("state") == "taking" and s.get("offered") == self.version:
                    why += ": not all in yet"
                elif type(s.get("version")) is int and s["version"] > self.version:
                    why += ", newer than version %d" % self.version
                elif not self.settled(t):
                    why += ("; has not taken version %d yet (a match under way, or results "
                            "not yet acknowledged?)" % self.version)
            out.append("%s: %s" % (t, why))
        return out


def describe(s):
    """A table's state in one line."""
    text = "runs version %s" % s.get("version")
    st = s.get("state")
    if st == "taking":
        text += ", taking version %s" % s.get("offered")
    elif st == "switching":
        text += ", version %s taken and checked: restarting into it" % s.get("offered")
    elif st == "refused" and s.get("why") == "lost":
        text += ", gave up taking version %s: no piece came (run club.fleet again)" % (
            s.get("offered"),)
    elif st == "refused":
        text += ", refused version %s: %s" % (s.get("offered"), s.get("why"))
    if st != "refused" and "refused" in s:  # another offer, refused while it took one
        text += " (refused version %s: %s)" % (s.get("refused"), s.get("why"))
    if s.get("failed"):
        text += " (version %s did not start: back to the one before)" % s["failed"]
    return text


class Login:
    """Watches the run's connection: closed in its first START_S (another run holds the
    login: this one stops before it changes anything), or closed TAKEN times in TAKEN_S
    once running (stop). on_up: called at each login after the first."""

    def __init__(self, client, on_up, log=print):
        self.client = client
        self.on_up = on_up
        self.log = log
        self.running = False  # the start is through: a closed connection logs in again
        self.closed = threading.Event()
        self.drops = []
        self.fleet = None  # set once running: told to stop
        client.reconnect_delay_set(1, 4)
        client.on_connect = self._up
        client.on_disconnect = self._down

    def alone(self, seconds=START_S):
        """True when the connection stayed up for `seconds`; False when it was closed
        (nothing has been offered)."""
        if self.closed.wait(seconds):
            return False
        self.running = True
        return True

    def _up(self, client, userdata, flags, reason, properties):
        if not reason.is_failure:
            self.on_up()

    def _down(self, client, userdata, flags, reason, properties):
        if not self.running:
            client.disconnect()  # no logging in again: it would close the other run's
            self.closed.set()
            return
        now = time.monotonic()
        self.drops = [t for t in self.drops if now - t < TAKEN_S] + [now]
        if len(self.drops) >= TAKEN:
            client.disconnect()
            if self.fleet is not None:
                self.fleet.stop(
                    "the broker closed this run's connection %d times in %d s: another "
                    "client keeps logging in as this run's user (another club.fleet?). "
                    "Stop the other one, then run this again" % (len(self.drops), TAKEN_S))
            return
        self.log("fleet: the connection closed (%s); logging in again" % (reason,))


def main(argv=None):
    ap = argparse.ArgumentParser(description="Offer a firmware bundle to the tables.")
    ap.add_argument("bundle", help="the bundle make fleet wrote (build/fleet/...)")
    ap.add_argument("--tables", required=True, help="t01,t02,...: the tables to offer it")
    ap.add_argument("--broker", default="127.0.0.1:1883")
    ap.add_argument("--user", default="fleet")
    ap.add_argument("--password-file")
    ap.add_argument("--chunk", type=int, default=CHUNK)
    ap.add_argument("--until-done", action="store_true",
                    help="stop once every table runs it, refused it or went back from it; "
                    "exit 0 only when every table runs it")
    ap.add_argument("--timeout", type=float, help="with --until-done: seconds at most")
    ap.add_argument("--withdraw", action="store_true", help="clear the offers, and stop")
    a = ap.parse_args(argv)
    try:
        with open(a.bundle, "rb") as f:
            data = f.read()
        bundle_version(data)
    except (OSError, ValueError) as e:
        print("fleet: %s: %s" % (a.bundle, e), file=sys.stderr)
        return 2
    tables = [t for t in a.tables.split(",") if t]
    try:
        # An id of its own (where a broker keeps them, two runs could share it); the
        # venue's broker gives every connection its login's name instead: Login below.
        client = broker.connect(a, "fleet-%d-%s" % (os.getpid(), secrets.token_hex(3)))
    except broker.CannotConnect as e:
        print("fleet: %s" % e, file=sys.stderr)
        return 3
    fleet = Fleet(client, data, tables, a.chunk)
    login = Login(client, fleet.back_up)
    try:
        if not login.alone():
            print("fleet: the broker closed this run's connection as %s within %g s of its "
                  "login: another club.fleet is running with the same login (the venue's "
                  "broker names each connection by its login, so two cannot share it). "
                  "Nothing was offered or withdrawn. Let that run finish, or stop it, then "
                  "run this again." % (a.user, START_S), file=sys.stderr)
            return 4
        login.fleet = fleet
        if a.withdraw:
            fleet.withdraw()
            return 0
        fleet.offer()
        print("fleet: version %d (%d bytes) offered to %s" % (
            fleet.version, len(data), ", ".join(tables)), flush=True)
        done = fleet.wait(a.timeout if a.until_done else None, until_done=a.until_done)
        if fleet.stopped:
            print("fleet: %s" % fleet.stopped, file=sys.stderr)
            return 4
        late = fleet.unfinished()
        if not late:
            print("fleet: every table runs version %d" % fleet.version)
            return 0
        if not done:
            print("fleet: %g s passed and not every table runs version %d:"
                  % (a.timeout, fleet.version))
        else:
            print("fleet: not every table runs version %d:" % fleet.version)
        for line in late:
            print("fleet:   " + line)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        client.on_disconnect = None  # its own end: nothing to say
        client.loop_stop()
        client.disconnect()
    return 0


if __name__ == "__main__":
    sys.exit(main())
