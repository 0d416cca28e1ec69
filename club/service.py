"""The standings service: the club's one writer of standings.

    python -m club.service --db night.sqlite --broker 127.0.0.1:1883 --user standings \\
        --password-file standings.pw --http 0.0.0.0:8080

It subscribes with a durable session (a fixed client id, clean_session off, QoS 1), so the
broker keeps what comes while it is down. Every result goes to SQLite (club/db.py) and
into the Event (club/standings.py); each batch is committed first, then acked to its
tables (retained "club/<table>/ack": "<inc> <seq>") and the standings published (in parts
of bounded size on club/standings/<n> and a retained head on club/standings,
club/bounded.py, at most every --every seconds; every part again when a reader asks on
club/standings/want, and every 30 s). The live page (club/page.html) reads them from
this process over HTTP (club/httpd.py's route table): "/" the page, "/standings.json",
"/events" (server-sent events, pushed on every change), and "/table/" the browser table
page (club/tablepage.py) for the phones that keep score. The public page is read-only.

The director's requests (club/director.py sends them) come on club/director/do/<id>; each
gets its verdict on club/director/reply/<id>. They and the director's web page
(/director, club/directorpage.py, with --director-password-file) take the one path of
club/actions.py. Seatings are read from the retained club/<table>/seat topics.
"""

import argparse
import faulthandler
import json
import os
import queue
import signal
import sqlite3
import sys
import threading
import time

import paho.mqtt.client as mqtt
from net import wire
from net.wire import PROBE, WANT

from club import actions, httpd, tablepage
from club.bounded import REPEAT_S, Publisher
from club.broker import hostport, password
from club.db import Db
from club.intake import MAX_PAYLOAD, Intake

# Whether the broker saves what it holds: at every connect the service reads back the
# retained probe it left there at the connect before (its value also in the database), then
# leaves a new one. A broker that lost it across a restart is not persisting (docs/club.md).
# The broker sends a subscription's retained message before anything published after the
# subscription, so a live (not retained) copy the service sends itself marks the moment the
# retained one would have come: no fixed wait.
# venue.conf saves every few seconds, so a broker killed just after a connect may give back
# the probe before the last one: the new probe is expected back only once the service has
# stayed connected PROBE_SAVED_S (more than twice venue.conf's autosave_interval); until
# then either is a saving broker's answer.
PROBE_SAVED_S = 6.0

# What the inbox holds: (kind, key, payload), the key a table, a request id or a topic.
# Messages from the broker:
RESULT = "result"  # a table's result (club/intake.py)
SEAT = "seat"  # a table's retained seating (club/intake.py)
DIRECTOR = "director"  # a director's request, keyed by its id
FW_STATE = "fw-state"  # a table's firmware state
ASKED = "asked"  # a reader asks for every part of the standings (WANT)
PROBE_KEPT = "probe-kept"  # the probe the broker kept (retained)
PROBE_LIVE = "probe-live"  # a live probe: the service's own mark, or another service's
OTHER = "other"  # a topic none of the above, keyed by itself
# ... and from paho's thread, about the link:
CONNECTED = "connected"  # (re)connected: the broker may have lost acks and standings
MARK = "mark"  # the live probe this service is about to send


def kind_of(topic, retained=False):
    """(kind, key) of a topic the service subscribes to."""
    if topic == PROBE:
        return (PROBE_KEPT if retained else PROBE_LIVE), topic
    if topic == WANT:
        return ASKED, topic
    if topic.startswith(wire.DIRECTOR_DO) and "/" not in topic[len(wire.DIRECTOR_DO):]:
        return DIRECTOR, topic[len(wire.DIRECTOR_DO):]
    for kind, wire_kind in ((RESULT, wire.RESULT), (SEAT, wire.SEAT)):
        table = wire.table_of(topic, wire_kind)
        if table is not None:
            return kind, table
    parts = topic.split("/")
    if len(parts) == 4 and topic == wire.fw_topic(parts[1], wire.FW_STATE):
        return FW_STATE, parts[1]
    return OTHER, topic


class Service:
    def __init__(self, db_path, host, port, user=None, password=None,
                 client_id="standings-service", every=0.25, log=None, director_password=None):
        self.log = log or (lambda line: None)  # one line per refusal, director action, failed page
        self.replies = {}  # request id -> the reply sent (a request that comes again)
        self.db = Db(db_path)
        # What the pages see (club/httpd.py): the event and the database under one lock,
        # the standings, the director's path, the table page.
        self.desk = httpd.Desk(self.db, self.db.load(), self.director, director_password,
                               self.log)
        self.lock = self.desk.lock
        self.firmware = self.desk.firmware  # each table's, for the director's page
        self.stop = self.desk.stop
        self.every = every
        self.inbox = queue.Queue()
        self.publisher = Publisher()  # the standings in retained parts under 8 KB each
        self.latency = []  # seconds from a result's arrival here to its standings
        # What a table's message becomes; its lines go to self.log as it is then.
        self.intake = Intake(self.desk, lambda line: self.log(line))
        # What the work thread owes after a batch: the tables to ack, the standings.
        self._ack_due = set()
        self._standings_due = False
        # The pump: each kind of inbox message to its handler, (key, payload) -> (table,
        # counted) when the table is to hear its ack (counted: the standings changed).
        self.pump = {
            RESULT: self.intake.result,
            SEAT: self.intake.seat,
            DIRECTOR: self._director_message,
            FW_STATE: self._firmware,
            ASKED: self._asked,
            PROBE_KEPT: self._probe_kept,
            PROBE_LIVE: self._probe_live,
            OTHER: self._other,
            CONNECTED: self._reconnected,
            MARK: self._mark,
        }
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                                  clean_session=False, protocol=mqtt.MQTTv311)
        if user:
            self.client.username_pw_set(user, password)
        self.client.reconnect_delay_set(0.1, 2)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        self.client.on_disconnect = self._on_disconnect
        self.client.on_connect_fail = self._on_connect_fail
        self.unreachable = False  # said once an outage: the broker cannot be reached
        self.host, self.port = host, port
        self._probe_mark = None  # the live probe after which to judge the retained one (PROBE)
        self._probe_heard = None
        self.probed = threading.Event()  # the probe judged and left again
        self._probe_saved_at = None  # when the probe left is surely saved (monotonic)
        self.probe_saved = threading.Event()  # ...and that time came, still connected
        self.warnings = []  # what the console said as a warning
        self.connected = threading.Event()  # subscribed: a result sent now reaches us
        self._sub_mid = None
        self._publish_snapshot()

    # The event (the director's reopen replaces it), the standings as last published and
    # the table page: the Desk's, which the pages read.
    event = property(lambda self: self.desk.event,
                     lambda self, event: setattr(self.desk, "event", event))
    snapshot = property(lambda self: self.desk.snapshot)
    table_page = property(lambda self: self.desk.table_page,
                          lambda self, folder: setattr(self.desk, "table_page", folder))
    table_page_missing = property(lambda self: self.desk.table_page_missing,
                                  lambda self, why: setattr(self.desk, "table_page_missing", why))
    duplicates = property(lambda self: self.intake.duplicates)

    # ---- MQTT (paho's thread: only queue) ----

    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            self.log("broker refused the login: %s" % reason)
            return
        self.unreachable = False
        self.log("connected to the broker")
        _rc, self._sub_mid = client.subscribe(
            [(wire.topic("+", wire.RESULT), 1), (wire.topic("+", wire.SEAT), 1),
             (wire.DIRECTOR_DO + "+", 1), (WANT, 0), (PROBE, 1),
             (wire.fw_topic("+", wire.FW_STATE), 0)])
        mark = "mark " + os.urandom(4).hex()
        # Queued before the live mark goes, so the work thread knows it when it comes.
        self.inbox.put((MARK, None, mark.encode()))
        client.publish(PROBE, mark, qos=1, retain=False)
        # Every table hears its ack again (a table that came up while we were away).
        self.inbox.put((CONNECTED, None, b""))

    def _on_subscribe(self, client, userdata, mid, reasons, properties):
        # Connected is not enough on a first start: a result published before the broker
        # took the subscription would miss a new session (a table sends it again, a test not).
        if mid == self._sub_mid:
            self.connected.set()

    def _on_disconnect(self, *_args):
        self._probe_saved_at = None  # gone too soon: the broker may not have saved the probe
        self.log("disconnected from the broker")

    def _on_connect_fail(self, client, userdata):
        if not self.unreachable:
            self.unreachable = True
            self.log("cannot reach the broker at %s:%d: trying again every 2 s"
                     % (self.host, self.port))

    def _on_message(self, client, userdata, msg):
        self.inbox.put(kind_of(msg.topic, msg.retain) + (msg.payload,))

    # ---- the work (one thread) ----

    def run(self):
        self.client.connect_async(self.host, self.port, keepalive=15)
        self.client.loop_start()
        last_pub = 0.0
        last_all = time.monotonic()  # every part last sent (club/bounded.py REPEAT_S)
        waiting = []  # arrival times of results applied, not yet in published standings
        try:
            while not self.stop.is_set():
                try:
                    batch = [self.inbox.get(timeout=0.05)]
                except queue.Empty:
                    batch = []
                while batch and len(batch) < 2000:
                    try:
                        batch.append(self.inbox.get_nowait())
                    except queue.Empty:
                        break
                now = time.monotonic()
                with self.lock:
                    for kind, key, payload in batch:
                        got = self.pump[kind](key, payload)
                        if got:
                            self._ack_due.add(got[0])
                            if got[1]:
                                self._standings_due = True
                                waiting.append(now)
                    if self._ack_due:
                        self.db.commit()  # on disk before any table hears its ack
                        self._acks(self._ack_due)
                        self._ack_due.clear()
                saved_at = self._probe_saved_at
                if saved_at is not None and now >= saved_at and self.client.is_connected():
                    with self.lock:
                        self._probe_saved()
                if now - last_all >= REPEAT_S:  # every part again, asked or not
                    self.publisher.reset()
                    self._standings_due = True
                    last_all = now
                if self._standings_due and time.monotonic() - last_pub >= self.every:
                    with self.lock:
                        self._publish_snapshot()
                    done = time.monotonic()
                    self.latency.extend(done - t for t in waiting)
                    waiting = []
                    last_pub = done
                    self._standings_due = False
        finally:
            self.client.loop_stop()
            self.client.disconnect()
            self.db.commit()

    def _handle(self, topic, payload):
        """One broker message as the pump hands it on: (table, counted) or None."""
        kind, key = kind_of(topic)
        return self.pump[kind](key, payload)

    # ---- the pump's handlers: (key, payload) -> (table, counted) or None ----

    def _reconnected(self, _key, _payload):
        """The broker may have lost what it held since its last save (venue.conf saves every
        few seconds): every table's ack and seating again, every part of the standings."""
        self._ack_due.update(self.event.latest_inc)
        self._seatings()
        self.publisher.reset()
        self._standings_due = True
        self._probe_heard = None
        self._probe_saved_at = None  # the connection before may have ended too soon

    def _seatings(self):
        """Each table's seating as last stored (what its retained seat topic held), retained
        again: a table takes a round only once (firmware/net/clublink.py), so a copy is
        harmless, and a seating the broker lost in a crash comes back."""
        for table, seat in sorted(self.event.seating.items()):
            self.client.publish(wire.topic(table, wire.SEAT),
                                json.dumps(seat), qos=1, retain=True)

    def _asked(self, _topic, _payload):
        """A reader asks for every part."""
        self.publisher.reset()
        self._standings_due = True

    def _mark(self, _key, payload):
        """The live probe that follows the retained one."""
        self._probe_mark = payload

    def _probe_kept(self, _topic, payload):
        self._probe_heard = payload.decode("utf-8", "replace")

    def _probe_live(self, _topic, payload):
        if payload == self._probe_mark:  # (another service's is not)
            self._probe_mark = None
            self._probe()

    def _other(self, topic, payload):
        """A topic of no kind above: only refused if too large, as any message would be."""
        self.intake.too_large(topic, payload)

    def _probe(self):
        """Judge the retained probe the broker gave back (PROBE), then leave a new one."""
        left = self.db.meta("probe")
        heard = self._probe_heard
        if left is not None and heard not in (left, self.db.meta("probe-unsaved") or left):
            self.warn(
                "the broker is not saving what it holds (%s): a restart of the broker loses "
                "the seatings, the acks and the results it keeps for this service. Start "
                "Mosquitto where the user it runs as can write venue.db (as root it becomes "
                "the user mosquitto; or set `user`), as docs/club.md says under Broker"
                % ("the probe this service left at %s is gone" % left.split()[0]
                   if heard is None else "it gave back an older probe, %s, not %s"
                   % (heard.split()[0] if heard.split() else "?", left.split()[0])))
        value = "%s %s" % (time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                           os.urandom(4).hex())
        self.db.set_meta("probe-unsaved", value)
        self.db.commit()
        self.client.publish(PROBE, value, qos=1, retain=True)
        self._probe_saved_at = time.monotonic() + PROBE_SAVED_S
        self.probed.set()

    def _probe_saved(self):
        """Connected PROBE_SAVED_S since the probe was left: a saving broker has it on disk."""
        self._probe_saved_at = None
        value = self.db.meta("probe-unsaved")
        if value is not None:
            self.db.set_meta("probe", value)
            self.db.del_meta("probe-unsaved")
            self.db.commit()
        self.probe_saved.set()

    def warn(self, text):
        self.warnings.append(text)
        self.log("warning: " + text)

    def _acks(self, tables):
        for table in sorted(tables):
            ack = self.event.ack(table)
            if ack:
                self.client.publish(wire.topic(table, wire.ACK), "%s %d" % ack, qos=1, retain=True)

    def _firmware(self, table, payload):
        """A table's firmware state (update/job.py): kept for the director's page."""
        try:
            st = json.loads(payload)
        except ValueError:
            return
        if isinstance(st, dict) and isinstance(st.get("version"), int):
            with self.lock:
                self.firmware[table] = {k: st[k] for k in ("version", "state", "offered",
                                                           "refused", "why", "failed")
                                        if k in st}

    def seated(self, table, seat):
        """A seating the director sets (club/actions.py): as if heard (club/intake.py)."""
        return self.intake.seated(table, seat)

    # ---- the director ----

    def director(self, request, via):
        """Carry out one director request (club/actions.py); returns the reply."""
        with self.lock:
            return actions.act(self, request, via)

    def director_done(self, tables):
        """After an action that changed the event: on disk, acks, standings at once."""
        self.db.commit()
        self._acks(tables)
        self._publish_snapshot()

    def _director_message(self, rid, payload):
        """A request on club/director/do/<rid>: answered on club/director/reply/<rid>.
        The same request again (QoS 1 may deliver it twice) gets the same reply, once done."""
        if not 1 <= len(rid) <= 40 or not rid.replace("-", "").isalnum():
            self.log("director: a request id that is not one: %r" % rid[:40])
            return
        reply = self.replies.get(rid)
        if reply is None:
            if len(payload) > MAX_PAYLOAD:
                request = {"unreadable": "too large: %d bytes" % len(payload)}
            else:
                try:
                    request = json.loads(payload)
                except ValueError:
                    request = {"unreadable": "not JSON"}
            reply = self.director(request, "mqtt")
            if len(self.replies) >= 1000:
                self.replies.pop(next(iter(self.replies)))
            self.replies[rid] = reply
        text = json.dumps(dict(actions.fit(reply), id=rid), separators=(",", ":"))
        self.client.publish(wire.DIRECTOR_REPLY + rid, text, qos=1)

    def _publish_snapshot(self):
        data = self.event.standings()
        text = json.dumps(data, separators=(",", ":"), sort_keys=True)
        self.publisher.publish(self.client, data)
        self.desk.publish(text)

    # ---- the pages (club/httpd.py) ----

    def serve(self, host, port):
        """Serve the pages on host:port in a thread; returns the server (shutdown() ends it)."""
        return httpd.serve(self.desk, host, port)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="The club night's standings service.",
        epilog="It says why and exits 3 when it cannot start (the database, a password "
        "file, the HTTP address); a broker away or refusing its login is said on the "
        "console and tried again every 2 s.")
    ap.add_argument("--db", required=True, help="the event's SQLite file")
    ap.add_argument("--broker", default="127.0.0.1:1883", help="host:port")
    ap.add_argument("--user", default="standings")
    ap.add_argument("--password-file", help="a file holding the broker password")
    ap.add_argument("--http", default="127.0.0.1:8080", help="the live page, host:port")
    ap.add_argument("--every", type=float, default=0.25, help="seconds between standings")
    ap.add_argument("--no-table-page", action="store_true",
                    help="do not build and serve the browser table page at /table/")
    ap.add_argument("--director-password-file",
                    help="a file holding the director's password for /director (without "
                    "it the director's page is off)")
    a = ap.parse_args(argv)
    if hasattr(signal, "SIGUSR1"):  # kill -USR1: where every thread is, for a service stuck
        try:
            faulthandler.register(signal.SIGUSR1, all_threads=True)
        except (OSError, ValueError):  # no stderr file to write to (a test capturing it)
            pass
    try:
        svc, where = start(a)
    except (OSError, ValueError, sqlite3.Error) as e:
        print("standings: cannot start: %s" % (
            "%s: %s" % (e.filename, e.strerror) if getattr(e, "filename", None) else e),
            file=sys.stderr, flush=True)
        raise SystemExit(3) from None
    except KeyboardInterrupt:
        raise SystemExit(0) from None
    print(where, flush=True)

    # Ctrl-C or a SIGTERM asks the loop to stop at its next turn (within 50 ms), so it ends
    # with the database committed and paho's thread joined. Raised as KeyboardInterrupt
    # anywhere, it could land inside paho with one of its locks taken, and the join then
    # waits for ever. A second Ctrl-C still interrupts, for a service stuck elsewhere.
    def stop(signum, frame):
        if svc.stop.is_set():
            raise KeyboardInterrupt
        svc.stop.set()

    old = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            old[sig] = signal.signal(sig, stop)
        except ValueError:  # not the main thread (a test): the default stays
            pass
    try:
        svc.run()
    except KeyboardInterrupt:
        svc.stop.set()
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def start(a):
    """The Service of the command line, serving its pages: (service, the line that says
    where); OSError, ValueError or sqlite3.Error when it cannot start."""
    host, port = hostport(a.broker)
    hh, hp = hostport(a.http, 8080)
    secret, page_secret = password(a.password_file), password(a.director_password_file)
    svc = Service(a.db, host, port, a.user, secret, every=a.every,
                  log=lambda line: print("standings: " + line, flush=True),
                  director_password=page_secret)
    if not a.no_table_page:
        try:
            svc.table_page = tablepage.build()
        except (SystemExit, OSError) as e:  # e.g. no npm packages: the night goes on
            svc.table_page_missing = str(e)
            print("standings: no table page for phones at /table/ (%s): %s"
                  % (e, tablepage.HOW), flush=True)
    svc.serve(hh, hp)
    counted, held = svc.event.tally()
    where = ("standings: http://%s:%d/ (broker %s:%d; %d results counted, %d held in %s)"
             % (hh, hp, host, port, counted, held, a.db))
    if svc.table_page:
        where += "\nstandings: the table page for phones at " + tablepage.url(hh, hp)
    return svc, where


if __name__ == "__main__":
    main()
