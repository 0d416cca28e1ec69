"""A power cut of the broker's machine 0.3 s after a `seat`, on venue.conf as it is.

Issue 46, finding 8: venue.conf saved venue.db at every change so that a seating sent a
second before a power cut came back with it, and every burst of the night (a round's start,
its finish) waited seconds for those saves. It now saves every few seconds, and what the
broker's last seconds held comes back from its owners: the tables resend their results
until acked, and the standings service publishes again, retained, every table's seating
and ack (and the standings) at every connect. Here, on a real Mosquitto from venue.conf,
the real service as its own process and the director's command: the broker is killed -9
0.3 s after round 2's `seat`, with a table's result sent just before, and started again.
Every table hears round 2's seating again (and a table switched on later finds it
retained), the result is counted once, and the night's CSV equals the tally kept here.
Killed again 0.3 s after the service left its new probe (unsaved yet), the broker is not
taken for one that does not save.
"""

import csv
import json
import os
import sqlite3
import threading
import time

import paho.mqtt.client as paho
import pytest
import test_club_fullsize as fullsize
from clubkit import need_broker, table_passwords
from conftest import ROOT

RULES = fullsize.RULES


class PowerCutNight(fullsize.Night):
    """The full-size test's night, its tables also subscribed to their seating."""

    def connect(self):
        self.seats_heard = {t: [] for t in self.tables}  # (round, retained) since cleared
        self.heard = threading.Condition()
        self.first_heard = 0.0  # when a table first heard round 2's seating (monotonic)
        self.seat_out = []  # the director's seat 2: (exit status, what it said)
        passwords = table_passwords(len(self.tables))
        for t in self.tables:
            c = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=t,
                            protocol=paho.MQTTv311)
            c.username_pw_set(t, passwords[t])
            c.on_message = self._on_message
            c.on_connect = lambda client, u, f, rc, p, t=t: client.subscribe(
                [("club/%s/ack" % t, 1), ("club/%s/seat" % t, 1)])
            c.reconnect_delay_set(0.1, 1)
            c.connect("127.0.0.1", self.broker.port, keepalive=5)
            c.loop_start()
            self.clients[t] = c

    def _on_message(self, client, userdata, msg):
        if msg.topic.endswith("/ack"):
            self._on_ack(client, userdata, msg)
            return
        with self.heard:
            rnd = json.loads(msg.payload)["round"]
            self.seats_heard[msg.topic.split("/")[1]].append((rnd, msg.retain))
            if rnd == 2 and self.first_heard is None:
                self.first_heard = time.monotonic()
            self.heard.notify_all()

    def wait_seated(self, rnd, seconds=30):
        """Until every table has heard round rnd's seating since seats_heard was cleared."""
        with self.heard:
            return self.heard.wait_for(lambda: all(
                any(r == rnd for r, _ in got) for got in self.seats_heard.values()), seconds)

    def wait_broker_saved(self, seconds=30):
        """Until the broker writes venue.db again (a new file renamed over the old)."""
        path = os.path.join(self.broker.folder, "venue.db")

        def mark():
            try:
                st = os.stat(path)
            except OSError:
                return None
            return st.st_ino, st.st_mtime_ns

        before = mark()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if mark() != before:
                return
            time.sleep(0.01)
        raise AssertionError("the broker did not save venue.db in %d s" % seconds)

    def meta(self, key):
        try:
            with sqlite3.connect("file:%s?mode=ro" % os.path.join(self.folder, "night.sqlite"),
                                 uri=True, timeout=5) as db:
                row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            return None
        return row[0] if row else None

    def wait_meta(self, key, seconds=60, other_than=None):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            value = self.meta(key)
            if value is not None and value != other_than:
                return value
            time.sleep(0.05)
        raise AssertionError("the service's meta %s never came" % key)

    def service_log(self):
        self.log.flush()
        with open(self.log.name, "rb") as f:
            return f.read().decode()


def test_a_power_cut_after_a_seat_loses_no_seating_and_no_result(tmp_path):
    need_broker()
    night = PowerCutNight(str(tmp_path), 6)
    try:
        night.start_service()
        night.connect()
        seats1 = fullsize.seating(night.players, night.tables, 1)
        code, out = night.director("seat", "1", RULES, *[
            "%s=%s" % (t, ",".join(n)) for t, n in seats1.items()])
        assert code == 0 and "accepted" in out, out
        night.play_round(1, seats1)
        assert night.send_all(), night.acked
        # The service's probe of the broker's saving is past its unsaved time: a broker
        # that gives it back after a restart saves.
        night.wait_meta("probe")

        seats2 = fullsize.seating(night.players, night.tables, 2)
        night.play_round(2, seats2)  # the tables' results of round 2, made before the seat
        t = night.tables[0]
        with night.heard:
            night.first_heard = None
        night.wait_broker_saved()  # so that the next save is seconds away
        director = threading.Thread(target=lambda: night.seat_out.append(night.director(
            "seat", "2", RULES, *["%s=%s" % (t, ",".join(n)) for t, n in seats2.items()])))
        director.start()
        with night.heard:
            assert night.heard.wait_for(lambda: night.first_heard is not None, 60)
        # The seating is at the broker: a table starts its match and sends its first
        # result, and 0.3 s after the seating came the power goes.
        night.clients[t].publish("club/%s/result" % t, night.sent[t][min(
            s for s in night.sent[t] if s > night.acked.get(t, 0))], qos=1)
        time.sleep(max(0.0, night.first_heard + 0.3 - time.monotonic()))
        with night.heard:
            for got in night.seats_heard.values():
                got.clear()
        night.broker.kill()
        cut_after = time.monotonic() - night.first_heard
        director.join()
        (code, out), = night.seat_out
        assert code == 0 and "accepted" in out, out
        night.broker.start()
        night.wait_service()
        assert night.wait_seated(2), night.seats_heard
        assert cut_after < 1.0, cut_after  # well within venue.conf's saving interval

        # Killed again before the service's new probe can have been saved: no warning.
        night.wait_meta("probe-unsaved", other_than=None)
        night.broker.kill()
        night.broker.start()
        night.wait_service()
        assert night.send_all(), "not every result acked: %s" % night.acked
        assert "not saving" not in night.service_log(), night.service_log()

        code, out = night.director("close", "--csv", str(tmp_path / "final.csv"))
        assert code == 0, out
        with open(tmp_path / "final.csv", newline="") as f:
            got = {r["player"]: {"played": int(r["matches played"]),
                                 "won": int(r["matches won"]),
                                 "gp": int(r["game points"]), "deals": int(r["deals won"])}
                   for r in csv.DictReader(f)}
        assert got == night.tally  # each result counted once: none lost, none twice
        code, out = night.director("show")
        assert code == 0 and "Held" not in out and "conflict" not in out.lower(), out
        for c in night.clients.values():  # every table switched off...
            c.loop_stop()
            c.disconnect()
        night.clients = {}
        for t in night.tables:  # ...and on again: round 2's seating is retained for it
            assert night.retained_seat(t) == {"round": 2, "names": seats2[t], "rules": RULES}
    finally:
        night.close()


@pytest.mark.parametrize("key", ["autosave_interval"])
def test_the_service_waits_past_two_of_the_brokers_saves_before_it_expects_its_probe(key):
    """club/service.py's PROBE_SAVED_S against venue.conf's autosave_interval."""
    from club import service

    with open(os.path.join(ROOT, "club", "mosquitto", "venue.conf")) as f:
        conf = dict(ln.split(None, 1) for ln in f.read().splitlines()
                    if ln.strip() and not ln.startswith("#"))
    assert conf["autosave_on_changes"].strip() == "false"
    assert service.PROBE_SAVED_S > 2 * float(conf[key])
