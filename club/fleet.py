"""Offer a firmware bundle (make fleet) to the night's tables over the club's broker
(docs/boards.md, "Updates over WiFi"):

    python -m club.fleet build/fleet/firmware-V.s66fw --tables t01,t02 \\
        --broker 192.168.4.1:1883 --password-file fleet.pw

It logs in as the fleet user (club/mosquitto/acl), leaves each table the offer (retained on
club/<t>/fw/offer: the version, the bundle's size, the piece size), answers each table's
wants with the bundle's pieces (club/<t>/fw/part), and prints each table's state as the
table reports it (club/<t>/fw/state: the version it runs, taking, refused and why,
switching, back). A table takes the bundle only between matches: one mid-match asks once
its match is over. With --until-done it stops once every table runs the version, or has
refused it or gone back from it; --withdraw clears the offers (a version nobody should take
any more). firmware/update/job.py is the table's side; every message stays under the
broker's message_size_limit (a piece is at most CHUNK bytes and a short head).
"""

import argparse
import json
import re
import sys
import threading

from net import wire

from club import broker

CHUNK = 2048  # bytes of bundle a piece: with its head, far under the 8,192-byte limit
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
        self.changed = threading.Condition()
        client.on_message = self._on_message

    def offer(self):
        offer = json.dumps({"version": self.version, "size": len(self.data),
                            "chunk": self.chunk})
        for t in self.tables:
            self.client.subscribe(wire.fw_topic(t, wire.FW_WANT))
            self.client.subscribe(wire.fw_topic(t, wire.FW_STATE))
            self.client.publish(wire.fw_topic(t, wire.FW_OFFER), offer, qos=1, retain=True)

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

    def done(self):
        """Every table runs this version, or refused it, or went back from it."""
        for t in self.tables:
            s = self.states.get(t) or {}
            if not (s.get("version") == self.version or s.get("state") == "refused"
                    and s.get("offered") == self.version
                    or s.get("state") == "back" and s.get("failed") == self.version):
                return False
        return True

    def wait(self, timeout=None):
        with self.changed:
            return self.changed.wait_for(self.done, timeout)


def describe(s):
    """A table's state in one line."""
    text = "runs version %s" % s.get("version")
    st = s.get("state")
    if st == "taking":
        text += ", taking version %s" % s.get("offered")
    elif st == "switching":
        text += ", version %s taken and checked: restarting into it" % s.get("offered")
    elif st == "refused":
        text += ", refused version %s: %s" % (s.get("offered"), s.get("why"))
    if s.get("failed"):
        text += " (version %s did not start: back to the one before)" % s["failed"]
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(description="Offer a firmware bundle to the tables.")
    ap.add_argument("bundle", help="the bundle make fleet wrote (build/fleet/...)")
    ap.add_argument("--tables", required=True, help="t01,t02,...: the tables to offer it")
    ap.add_argument("--broker", default="127.0.0.1:1883")
    ap.add_argument("--user", default="fleet")
    ap.add_argument("--password-file")
    ap.add_argument("--chunk", type=int, default=CHUNK)
    ap.add_argument("--until-done", action="store_true",
                    help="stop once every table runs it, refused it or went back from it")
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
    try:
        client = broker.connect(a, "fleet")
    except broker.CannotConnect as e:
        print("fleet: %s" % e, file=sys.stderr)
        return 3
    tables = [t for t in a.tables.split(",") if t]
    fleet = Fleet(client, data, tables, a.chunk)
    try:
        if a.withdraw:
            fleet.withdraw()
            return 0
        fleet.offer()
        print("fleet: version %d (%d bytes) offered to %s" % (
            fleet.version, len(data), ", ".join(tables)))
        if a.until_done:
            return 0 if fleet.wait(a.timeout) else 1
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        client.loop_stop()
        client.disconnect()
    return 0


if __name__ == "__main__":
    sys.exit(main())
