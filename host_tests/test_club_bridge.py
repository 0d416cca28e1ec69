"""The league: a venue's Mosquitto bridges its club topics to a central one, with the
shipped configs (club/mosquitto/venue-bridge.conf, league.acl), two brokers on 127.0.0.1."""

import json
import os
import threading
import time

import mosquitto
import paho.mqtt.client as paho
from clubkit import PASSWORDS, need_broker, table_passwords
from conftest import ROOT

CONF = os.path.join(ROOT, "club", "mosquitto")


def bridge_section(league_port, venue, password):
    """venue-bridge.conf with this venue's name, the league's address and password."""
    with open(os.path.join(CONF, "venue-bridge.conf")) as f:
        text = f.read()
    text = text.replace("league.example.org:1883", "127.0.0.1:%d" % league_port)
    return text.replace("VENUE", venue).replace("CHANGE-ME", password)


def client(port, user, password, cid):
    c = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=cid, protocol=paho.MQTTv311)
    c.username_pw_set(user, password)
    c.connect("127.0.0.1", port)
    c.loop_start()
    return c


def test_a_venue_bridges_its_results_to_the_league(tmp_path):
    need_broker()
    league = mosquitto.Broker(str(tmp_path / "league"),
                              users={"venue1": "v1-pw", "league": "lg-pw"},
                              acl=os.path.join(CONF, "league.acl")).start()
    venue = None
    clients = []  # closed whatever happens: a live one would reconnect to a later test's port
    try:
        venue = mosquitto.Broker(str(tmp_path / "venue"),
                                 users=dict(PASSWORDS, **table_passwords(2)),
                                 extra=bridge_section(league.port, "venue1", "v1-pw")).start()
        got = []
        arrived = threading.Event()

        def on_message(c, userdata, msg):
            got.append((msg.topic, msg.payload))
            # Both topics, not two messages: the retained standings may come twice first.
            if {"league/venue1/club/t01/result", "league/venue1/club/standings"} <= {
                    t for t, _p in got}:
                arrived.set()

        watch = client(league.port, "league", "lg-pw", "league-service")
        clients.append(watch)
        watch.on_message = on_message
        watch.subscribe("league/#", 1)
        table = client(venue.port, "t01", "pw-t01", "table-t01")
        clients.append(table)
        svc = client(venue.port, "standings", PASSWORDS["standings"], "standings")
        clients.append(svc)
        result = json.dumps({"v": 1, "inc": "ab", "seq": 1, "kind": "match", "match": 1,
                             "round": 1, "names": ["Ann", "Bob"], "rules": "classic66"})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the bridge connects in its own time
            table.publish("club/t01/result", result, qos=1).wait_for_publish(5)
            svc.publish("club/standings", '{"players":[]}', qos=1,
                        retain=True).wait_for_publish(5)
            if arrived.wait(0.2):
                break
        topics = {t for t, _p in got}
        assert "league/venue1/club/t01/result" in topics
        assert "league/venue1/club/standings" in topics
        assert any(b"Ann" in p for t, p in got if t.endswith("result"))
        # Nothing flows back: a publish on the league side never reaches the venue.
        back = []
        table.on_message = lambda c, u, m: back.append(m.topic)
        table.subscribe("club/t01/seat", 0)
        # (the venue's own league user may write there: only the bridge's direction stops it)
        other = client(league.port, "venue1", "v1-pw", "venue1-other")
        clients.append(other)
        other.publish("league/venue1/club/t01/seat", '{"round": 9}', qos=1).wait_for_publish(5)
        threading.Event().wait(0.5)
        assert back == []
    finally:
        for c in clients:
            c.loop_stop()
            c.disconnect()
        if venue is not None:
            venue.stop()
        league.stop()
