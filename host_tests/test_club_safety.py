"""A club night's broker and service where a director meets them: the venue's own
club/mosquitto/venue.conf on a real Mosquitto (persistence through a kill -9, client ids that
no login can take over, the message size limit), and the service's limits (oversized and late
results, a second close, the CSV's formula cells, the page's icon, the files git ignores).
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import mosquitto
import pytest
from clubkit import need_broker
from conftest import FIRMWARE, ROOT

sys.path.insert(0, ROOT)  # club/ is a package at the root
sys.path.insert(0, FIRMWARE)

from clubplay import Played  # noqa: E402
from net import wire  # noqa: E402

mqtt = pytest.importorskip("paho.mqtt.client")

VENUE = os.path.join(ROOT, "club", "mosquitto", "venue.conf")
USERS = {"standings": "s-pw", "director": "d-pw", "viewer": "v-pw", "t01": "t-pw"}


class Venue:
    """Mosquitto started with venue.conf as the docs say (from a folder holding
    club/mosquitto/acl and venue.passwd), on free ports instead of 1883 and 9001."""

    def __init__(self, folder):
        self.folder = folder
        os.makedirs(os.path.join(folder, "club", "mosquitto"))
        shutil.copy(os.path.join(ROOT, "club", "mosquitto", "acl"),
                    os.path.join(folder, "club", "mosquitto", "acl"))
        pw = os.path.join(folder, "venue.passwd")
        open(pw, "w").close()
        for name, password in USERS.items():
            subprocess.run([mosquitto._which("mosquitto_passwd"), "-b", pw, name, password],
                           check=True, capture_output=True)
        os.chmod(pw, 0o600)
        self.port, ws = mosquitto.free_port(), mosquitto.free_port()
        with open(VENUE) as f:
            conf = f.read()
        conf = conf.replace("listener 1883", "listener %d 127.0.0.1" % self.port)
        conf = conf.replace("listener 9001", "listener %d 127.0.0.1" % ws)
        # As root (CI) Mosquitto would become the user "mosquitto"; the log goes to a file.
        import getpass

        conf = "user %s\nlog_dest file %s\n" % (getpass.getuser(), "broker.log") + conf
        self.conf = os.path.join(folder, "venue.conf")
        with open(self.conf, "w") as f:
            f.write(conf)
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([mosquitto._which("mosquitto"), "-c", self.conf],
                                     cwd=self.folder, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        end = time.time() + 10
        while time.time() < end:
            try:
                c = self.client("viewer", "probe")
                c.disconnect()
                c.loop_stop()
                return self
            except OSError:
                time.sleep(0.05)
        raise AssertionError("the venue's broker did not start")

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()

    def log(self):
        try:
            with open(os.path.join(self.folder, "broker.log")) as f:
                return f.read()
        except OSError:
            return ""

    def client(self, user, client_id, clean=True, on_message=None):
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                        clean_session=clean, protocol=mqtt.MQTTv311)
        c.username_pw_set(user, USERS[user])
        up = threading.Event()
        c.on_connect = lambda *a: up.set()
        c.gone = threading.Event()
        c.on_disconnect = lambda *a: c.gone.set()
        c.subscribed = threading.Event()
        c.on_subscribe = lambda *a: c.subscribed.set()
        if on_message:
            c.on_message = on_message
        c.connect("127.0.0.1", self.port, keepalive=15)
        c.loop_start()
        if not up.wait(30):
            c.loop_stop()
            raise OSError("no connack")
        return c


@pytest.fixture
def venue(tmp_path):
    need_broker()
    v = Venue(str(tmp_path / "venue"))
    yield v
    v.stop()


def _subscribe(c, topic):
    """Subscribe and wait for the broker's answer (a round trip on that connection)."""
    c.subscribed.clear()
    c.subscribe(topic, 1)
    return c.subscribed.wait(10)


def _saved(venue, *payloads):
    """Wait until the broker's venue.db holds every payload (saved, not only in memory)."""
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            with open(os.path.join(venue.folder, "venue.db"), "rb") as f:
                db = f.read()
        except OSError:
            db = b""
        if all(p in db for p in payloads):
            return True
        time.sleep(0.05)
    return False


def _publish(c, topic, payload, retain=False):
    info = c.publish(topic, payload, qos=1, retain=retain)
    info.wait_for_publish(5)
    assert info.is_published()


def test_the_venue_broker_keeps_seatings_acks_and_the_service_queue_through_kill_9(venue):
    # Issue: persistence_location named a folder nothing made, so nothing was ever saved.
    venue.start()
    svc = venue.client("standings", "standings-service", clean=False)
    assert _subscribe(svc, "club/+/result")
    svc.disconnect()
    svc.loop_stop()
    director = venue.client("director", "director")
    _publish(director, "club/t01/seat", '{"round":1}', retain=True)
    director.disconnect()
    director.loop_stop()
    table = venue.client("t01", "table-t01")
    result = wire.result("abcd0001", 1, wire.void(1, 1))
    _publish(table, "club/t01/result", result)
    table.disconnect()
    table.loop_stop()
    # venue.conf saves every 2 s: once saved, the power goes
    assert _saved(venue, b'{"round":1}', result.encode())
    venue.kill9()
    assert "Error saving" not in venue.log(), venue.log()
    venue.start()
    got = []
    heard = threading.Event()

    def on_message(client, userdata, msg):
        got.append((msg.topic, msg.payload.decode()))
        heard.set()

    svc = venue.client("standings", "standings-service", clean=False, on_message=on_message)
    assert heard.wait(30), "the service's queued result is gone"
    svc.disconnect()
    svc.loop_stop()
    assert got[0][0] == "club/t01/result"
    seat = []
    seen = threading.Event()
    t = venue.client("t01", "t01", on_message=lambda c, u, m: (seat.append(m.payload),
                                                               seen.set()))
    t.subscribe("club/t01/seat", 1)
    assert seen.wait(30), "the retained seating is gone"
    assert seat == [b'{"round":1}']
    t.disconnect()
    t.loop_stop()


def test_no_login_can_take_over_the_service_or_a_table(venue):
    # Issue: `-u viewer -i standings-service` disconnected the service, `-i table-t04` a table.
    venue.start()
    svc = venue.client("standings", "standings-service", clean=False)
    table = venue.client("t01", "table-t01")
    for cid in ("standings-service", "standings", "table-t01", "t01"):
        intruder = venue.client("viewer", cid)
        intruder.disconnect()
        intruder.loop_stop()
    # A round trip on each connection: a taken-over one has been closed before its answer.
    for c in (svc, table):
        _subscribe(c, "club/t01/ack")
    assert not svc.gone.is_set(), "a viewer's login disconnected the standings service"
    assert not table.gone.is_set(), "a viewer's login disconnected a table"
    for c in (svc, table):
        c.disconnect()
        c.loop_stop()


def test_the_venue_broker_drops_an_oversized_message(venue):
    venue.start()
    got = []
    heard = threading.Event()

    def on_message(client, userdata, msg):
        got.append(len(msg.payload))
        heard.set()

    svc = venue.client("standings", "standings-service", on_message=on_message)
    assert _subscribe(svc, "club/+/result")
    table = venue.client("t01", "table-t01")
    table.publish("club/t01/result", b"x" * 60000, qos=1)
    small = wire.result("abcd0001", 1, wire.void(1, 1))
    _publish(table, "club/t01/result", small)
    assert heard.wait(30)  # the large one, sent first, would have come before it
    assert got == [len(small)]
    svc.disconnect()
    svc.loop_stop()
    table.loop_stop()


# ---- the service, without a broker: its handling of what arrives ----


def _service(tmp_path):
    from club.service import Service

    lines = []
    svc = Service(str(tmp_path / "night.sqlite"), "127.0.0.1", 1, log=lines.append)
    svc.client.publish = lambda *a, **k: None  # no broker here: what it would send is not read
    return svc, lines


def _director(svc, request):
    """A director's request as the service gets it from the broker (club/director/do/<id>)."""
    _director.n = getattr(_director, "n", 0) + 1
    svc._handle("club/director/do/r%d" % _director.n, json.dumps(request).encode())


def _refused(svc):
    return [(topic, len(body), why) for topic, body, why in svc.db.conn.execute(
        "SELECT topic, body, why FROM refused ORDER BY at")]


def test_the_service_refuses_an_oversized_result_before_parsing_it(tmp_path):
    svc, lines = _service(tmp_path)
    huge = b'{"v":1,' + b" " * 60000 + b"}"
    assert svc._handle("club/t01/result", huge) is None
    (topic, kept, why), = _refused(svc)
    assert topic == "club/t01/result" and kept <= 256 and why.startswith("too large: 60008")
    assert lines == ["refused club/t01/result: " + why]
    # on disk at once: another connection to the file sees it
    import sqlite3

    assert sqlite3.connect(str(tmp_path / "night.sqlite")).execute(
        "SELECT COUNT(*) FROM refused").fetchone() == (1,)


def test_a_result_after_close_is_kept_as_late_and_a_second_close_changes_nothing(tmp_path):
    from club import director

    svc, lines = _service(tmp_path)
    p = Played(names=("Ann", "@Bob"))
    p.deal("result 1 2")
    p.deal("result 2 3")
    seat, one, late = p.payloads
    assert svc._handle("club/t01/result", seat.encode()) == ("t01", True)
    assert svc._handle("club/t01/result", one.encode()) == ("t01", True)
    _director(svc, {"cmd": "close"})
    first = svc.event.standings()
    assert svc._handle("club/t01/result", late.encode()) is None
    assert svc._handle("club/t01/result", late.encode()) is None  # sent again: kept once
    assert [r[2] for r in _refused(svc)].count("late: the night is closed") == 1
    _director(svc, {"cmd": "close"})
    assert svc.event.standings() == first
    assert _refused(svc)[-1][1:] == (len(late), "late: the night is closed")  # kept whole
    assert lines[-4:] == [
        "director accepted: close - closed: %d results counted" % first["counted"],
        "late t01 abcd0001 #3 deal: the night is closed, not counted",
        "duplicate late t01 abcd0001 #3 deal",
        "director accepted: close - already closed: nothing changed"]
    assert json.loads(svc.db.refusals("late")[0]["body"]) == json.loads(late)  # whole
    csvs = []
    for n in (1, 2):
        path = str(tmp_path / ("final%d.csv" % n))
        director.write_csv(path, svc.event.standings())
        with open(path, "rb") as f:
            csvs.append(f.read())
    assert csvs[0] == csvs[1]
    assert b"'@Bob" in csvs[0] and b",@Bob" not in csvs[0]


def test_a_late_result_sent_again_after_reopen_stays_late_until_accepted(tmp_path):
    # Issue: after `reopen`, the table's own resend of a late result (within resend_s)
    # counted it, while the docs say late results count only when accepted, and `list`
    # still called it late.
    svc, lines = _service(tmp_path)
    p = Played()
    p.deal("result 1 2")
    for payload in p.payloads:
        svc._handle("club/t01/result", payload.encode())
    assert svc.director({"cmd": "close"}, "test")["ok"]
    p.deal("result 2 3")
    p.deal("result 2 1")
    late, later = p.payloads[2:]
    for payload in (late, later):
        assert svc._handle("club/t01/result", payload.encode()) is None  # no ack: closed
    assert svc.event.ack("t01") == ("abcd0001", 2)
    final = svc.event.standings()["players"]
    rows = sorted(r["id"] for r in svc.db.not_counted() if r["why"].startswith("late"))
    assert len(rows) == 2  # #3's, #4's
    assert svc.director({"cmd": "reopen", "why": "one more deal"}, "test")["ok"]
    for payload in (later, late, late):  # the table sends them again, in any order
        assert svc._handle("club/t01/result", payload.encode())[0] == "t01"
    assert svc.event.ack("t01") == ("abcd0001", 4)  # acked: the table stops sending them
    assert svc.event.standings()["players"] == final  # and they do not count
    listed = svc.director({"cmd": "list"}, "test")["rows"]
    assert sorted(r["id"] for r in listed if r["why"].startswith("late")) == rows
    assert [h["code"] for h in svc.event.standings()["held"]] == ["late", "late"]
    assert "late t01 abcd0001 #3 deal (row %d) sent again: acked, not counted unless " \
        "accepted" % rows[0] in lines
    assert len(svc.db.refusals()) == 2  # no row more: they are the late rows
    # A restart agrees.
    svc.db.close()
    svc, _ = _service(tmp_path)
    assert svc.event.standings()["players"] == final and svc.event.ack("t01")[1] == 4
    # The director accepts one: it counts (as its entries score), the other stays late.
    reply = svc.director({"cmd": "accept", "row": rows[0], "why": "played before the close"},
                         "test")
    assert reply["ok"], reply
    got = {q["name"]: q["gp"] for q in svc.event.standings()["players"]}
    assert got == {"Ann": 2, "Bob": 3}
    svc.db.close()
    svc, _ = _service(tmp_path)
    assert {q["name"]: q["gp"] for q in svc.event.standings()["players"]} == got
    assert [h["seq"] for h in svc.event.standings()["held"]] == [4]
    # The next deal counts as any other, scored from the deals before it.
    p.deal("result 1 1")
    assert svc._handle("club/t01/result", p.payloads[-1].encode()) == ("t01", True)
    assert {q["name"]: q["gp"] for q in svc.event.standings()["players"]} == {"Ann": 3,
                                                                             "Bob": 3}
    assert svc.event.ack("t01")[1] == 5
    svc.db.close()


def test_a_result_of_before_the_close_sent_again_after_it_is_no_late_one(tmp_path):
    # A table that missed its ack sends a counted result again after the close: it is a
    # duplicate (acked again), not a late result for the director's list.
    svc, lines = _service(tmp_path)
    p = Played()
    p.deal("result 1 2")
    for payload in p.payloads:
        svc._handle("club/t01/result", payload.encode())
    assert svc.director({"cmd": "close"}, "test")["ok"]
    assert svc._handle("club/t01/result", p.payloads[1].encode()) == ("t01", False)
    assert svc.db.not_counted() == [] and lines[-1] == "duplicate t01 abcd0001 #2 deal"


def test_a_late_result_accepted_while_its_copy_sent_again_waits_counts(tmp_path):
    # The table's copy of #4 came again after the reopen before #3's: it waits for #3.
    # The director accepts #4's late row meanwhile (giving its result: the deal before it
    # does not count): when #3 comes (late, held), #4 counts.
    svc, _ = _service(tmp_path)
    p = Played()
    p.deal("result 1 2")
    for payload in p.payloads:
        svc._handle("club/t01/result", payload.encode())
    assert svc.director({"cmd": "close"}, "test")["ok"]
    p.deal("result 2 3")
    p.deal("result 2 1")
    late, later = p.payloads[2:]
    for payload in (late, later):
        svc._handle("club/t01/result", payload.encode())
    rows = sorted(r["id"] for r in svc.db.not_counted() if r["why"].startswith("late"))
    assert svc.director({"cmd": "reopen", "why": "one more deal"}, "test")["ok"]
    svc._handle("club/t01/result", later.encode())
    assert svc.event.ack("t01")[1] == 2  # #4 waits for #3
    assert svc.director({"cmd": "accept", "row": rows[1], "why": "t01's last deal",
                         "result": {"gp": [0, 1], "winner": 1}}, "test")["ok"]
    svc._handle("club/t01/result", late.encode())
    assert svc.event.ack("t01")[1] == 4
    assert [h["seq"] for h in svc.event.standings()["held"]] == [3]
    assert {q["name"]: q["gp"] for q in svc.event.standings()["players"]} == {"Ann": 2,
                                                                             "Bob": 1}
    before = svc.event.standings()
    svc.db.commit()  # as the service's loop does before its acks
    svc.db.close()
    svc, _ = _service(tmp_path)  # a restart agrees
    assert svc.event.standings()["players"] == before["players"]
    assert svc.event.standings()["held"] == before["held"]
    svc.db.close()


@pytest.mark.parametrize("name,cell", [("=1+2", "'=1+2"), ("+4", "'+4"), ("-x", "'-x"),
                                       ("@me", "'@me"), ("Ann", "Ann"), ("Бо=б", "Бо=б")])
def test_a_csv_cell_that_a_spreadsheet_would_run_is_text(name, cell):
    from club import director

    assert director.cell(name) == cell


def test_the_live_page_has_its_icon(tmp_path):
    svc, _ = _service(tmp_path)
    port = mosquitto.free_port()
    server = svc.serve("127.0.0.1", port)
    try:
        for path in ("/favicon.ico", "/favicon.svg"):
            with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path)) as r:
                assert r.status == 200 and r.headers["Content-Type"] == "image/svg+xml"
                assert b"<svg" in r.read()
        with urllib.request.urlopen("http://127.0.0.1:%d/" % port) as r:
            page = r.read().decode()
        assert re.search(r'<link rel="icon"[^>]*href="/favicon.svg"', page)
    finally:
        server.shutdown()
        server.server_close()


def test_a_nights_files_are_ignored_by_git(tmp_path):
    names = ["venue.passwd", "standings.pw", "venue.db", "night.sqlite", "night.sqlite-wal",
             "club.json"]
    out = subprocess.run(["git", "check-ignore", "--no-index"] + names, cwd=ROOT,
                         capture_output=True, text=True)
    assert sorted(out.stdout.split()) == sorted(names)


def test_the_directors_help_says_where_inc_and_match_are():
    from club import director

    doc = " ".join(director.__doc__.split())
    assert "/standings.json" in doc and "live page's round table" not in doc


PAGE_CHECK = """(() => {
  const lines = (el) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size;
  };
  return {wide: document.documentElement.scrollWidth, view: window.innerWidth,
          split: [...document.querySelectorAll("td.n")].filter(td => lines(td) > 1).length,
          numbers: document.querySelectorAll("td.n").length,
          audit: [...document.querySelectorAll("#audit li")].map(li => li.textContent),
          shown: !document.getElementById("corrections").hidden,
          gaps: [...document.querySelectorAll("#gaps li")].map(li => li.textContent),
          gapped: !document.getElementById("gapped").hidden};
})()"""


@pytest.mark.parametrize("size", [(390, 844), (1920, 1080)])
def test_the_standings_page_fits_a_phone_and_a_projector_and_shows_audit_and_gaps(tmp_path, size):
    import browser

    if browser.missing():
        pytest.skip(browser.missing())
    svc, _ = _service(tmp_path)
    names = ["Kateryna", "Oleksand", "Bohdanna", "Yaroslav", "Mariiana", "Volodymr"]
    seq = 0
    for t in range(3):
        seq += 1
        pair = [names[2 * t], names[2 * t + 1]]
        p = Played(inc="abcd000%d" % t, names=pair)
        for _d in range(3):
            p.deal("result 1 2")
        for msg in p.payloads:
            svc._handle("club/t0%d/result" % (t + 1), msg.encode())
    _director(svc, {"cmd": "void", "table": "t01", "inc": "abcd0000", "match": 1, "deal": 2,
                    "why": "a card was dropped"})
    # t02's flash went back to an older copy: results 3 and 4 are here, not on the table.
    gap = wire.result("abcd0001", 5, {"kind": "gap", "from": 3, "to": 4})
    svc._handle("club/t02/result", gap.encode())
    svc._publish_snapshot()
    port = mosquitto.free_port()
    server = svc.serve("127.0.0.1", port)
    try:
        got = browser.drive("http://127.0.0.1:%d/" % port,
                            [{"do": "goto"}, {"do": "wait", "ms": 1500},
                             {"do": "eval", "js": PAGE_CHECK}], viewport=size)
    finally:
        svc.stop.set()  # ends the page's event stream
        server.shutdown()
        server.server_close()
    assert got["failed"] is None, got["failed"]
    r = got["results"][2]
    assert r["wide"] <= r["view"], r  # no sideways scroll
    assert r["numbers"] >= 18 and r["split"] == 0, r  # every score cell on one line
    assert r["shown"] and r["audit"] == ["t01 match 1 deal 2: void (a card was dropped)"]
    assert r["gapped"] and r["gaps"] == [
        "t02: results 3 to 4 are here but no longer on the table; it goes on from 5"]


def test_a_conflicting_copy_is_kept_and_said_and_every_result_is_logged(tmp_path):
    # Issue: the same seq with other content kept the first copy, with no line and no row.
    svc, lines = _service(tmp_path)
    p = Played()
    p.deal("result 1 2")
    first, deal = p.payloads
    p.m.undo()
    p.seq -= 1
    p.deal("result 2 3")
    other = p.payloads[-1]
    for payload in (first, deal, deal, other):
        svc._handle("club/t01/result", payload.encode())
    _director(svc, {"cmd": "void", "table": "t01", "inc": "abcd0001", "match": 1, "deal": 1,
                    "why": "misdealt"})
    assert lines == [
        "counted t01 abcd0001 #1 match", "counted t01 abcd0001 #2 deal",
        "duplicate t01 abcd0001 #2 deal",
        "conflict t01 abcd0001 #2 deal: differs from the copy kept, not counted",
        "director accepted: void t01 abcd0001 match 1 deal 1 (misdealt) - t01 abcd0001 "
        "match 1 deal 1: 2:0 won by Ann -> void; the match: no deal counts"]
    (topic, kept, why), = _refused(svc)
    assert kept == len(other) and why.startswith("conflict")  # the whole second copy
    assert svc.event.applied == 2  # the first copy counted, the second did not


def test_a_broken_tables_copies_of_one_bad_message_are_one_row_with_a_count(tmp_path):
    # Issue 26, finding 10: each copy of a malformed message became a row of its own, so a
    # broken table that sends it again and again flooded the director's list.
    from club import actions, directorpage

    svc, lines = _service(tmp_path)
    bad = b'{"v":1,"inc":"abcd0001","seq":1,"kind":"deal"}'
    huge = b'{"v":1,' + b" " * 60000 + b"}"
    for _ in range(5):
        assert svc._handle("club/t01/result", bad) is None
        assert svc._handle("club/t01/result", huge) is None
    svc._handle("club/t02/result", bad)  # another table: a row of its own
    svc._handle("club/t01/result", bad + b" ")  # another message: a row of its own
    rows = svc.db.not_counted()
    assert len(rows) == 4, rows
    copies = {(r["topic"], r["body"][-2:]): r["copies"] for r in rows}
    assert copies == {("club/t01/result", '"}'): 5, ("club/t01/result", "  "): 5,
                      ("club/t02/result", '"}'): 1, ("club/t01/result", "} "): 1}, copies
    assert sum(ln.startswith("refused club/t01/result again (row 1, ") for ln in lines) == 4
    listed = actions.act(svc, {"cmd": "list"}, "test")["rows"]
    assert sorted(r["copies"] for r in listed) == [1, 1, 5, 5]
    page = directorpage.state(svc)["not_counted"]
    assert sorted(r["copies"] for r in page) == [1, 1, 5, 5]
    # After a restart the next copy is still the same row.
    path = str(tmp_path / "night.sqlite")
    svc.db.close()
    from club.service import Service

    again = Service(path, "127.0.0.1", 1, log=lines.append)
    again.client.publish = lambda *a, **k: None
    again._handle("club/t01/result", bad)
    assert sorted(r["copies"] for r in again.db.not_counted()) == [1, 1, 5, 6]


@pytest.mark.parametrize("saves", [False, True])
def test_the_service_warns_when_the_broker_does_not_save(tmp_path, saves):
    # Issue 26, finding 12: Mosquitto started as root becomes the user mosquitto and, in a
    # folder that user cannot write, never saves; only its own log said so. The service
    # reads back the retained probe it left at its last connect: gone after a restart, it
    # warns. The broker here is venue.conf's (saving every 2 s), or the same without
    # persistence, as a broker that cannot write its folder behaves.
    from clubkit import PASSWORDS, ServiceThread

    need_broker()
    broker = mosquitto.Broker(str(tmp_path / "broker"), users=dict(PASSWORDS),
                              extra="" if saves else "persistence false\n")
    db = str(tmp_path / "night.sqlite")
    said = []

    def started(svc):
        """Once the service has judged the broker's probe and left its own, and stayed
        connected until a saving broker has surely saved it (club/service.py)."""
        assert svc.svc.probed.wait(60) and svc.svc.probe_saved.wait(60)
        return [ln for ln in said if ln.startswith("warning: ")]

    try:
        broker.start()
        with ServiceThread(db, broker.port, log=said.append) as svc:
            assert started(svc) == []  # a first start: nothing to compare
        broker.kill()  # a power cut
        broker.start()
        with ServiceThread(db, broker.port, log=said.append) as svc:
            warnings = started(svc)
    finally:
        broker.stop()
    if saves:
        assert warnings == [], warnings
    else:
        (w,) = warnings
        assert "the broker is not saving" in w and "is gone" in w and "docs/club.md" in w, w


def test_make_club_builds_what_the_table_page_needs_before_the_service():
    # Issue 26, finding 12: `make run` never ran npm ci, so the service had no table page.
    # `make club` (docs/club.md, step 2) installs the npm packages when the lock file is
    # newer than the last install (-W: as if it were), then starts the service.
    out = subprocess.run(["make", "-n", "-W", "package-lock.json", "club",
                          "ARGS=--password-file standings.pw"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    npm = [i for i, ln in enumerate(out) if ln.startswith("npm ci")]
    svc = [i for i, ln in enumerate(out) if "-m club.service" in ln]
    assert npm and svc and npm[0] < svc[0], out
    assert out[svc[0]].endswith("--password-file standings.pw")


def test_without_its_table_page_the_service_and_the_cards_say_how_to_build_it(
        tmp_path, monkeypatch, capsys):
    # Issue 26, finding 12: with no npm packages the service said "no table page" once,
    # then answered /table/ with a bare 404, and the QR cards led there with no warning.
    from club import director, service, tablepage

    def no_packages(out=None):
        raise SystemExit("micropython.mjs is missing: run npm ci (make test does)")

    monkeypatch.setattr(tablepage, "build", no_packages)
    monkeypatch.setattr(service.Service, "run", lambda self: None)
    servers = []
    real_serve = service.Service.serve

    def serve(self, host, port):
        servers.append(real_serve(self, host, 0))
        return servers[-1]

    monkeypatch.setattr(service.Service, "serve", serve)
    service.main(["--db", str(tmp_path / "night.sqlite"), "--broker", "127.0.0.1:1"])
    said = capsys.readouterr().out
    assert "no table page for phones at /table/" in said and "make club" in said, said
    server = servers[0]
    try:
        page = "http://127.0.0.1:%d/table/" % server.server_address[1]
        try:
            urllib.request.urlopen(page, timeout=5)
            raise AssertionError("the table page answered")
        except urllib.error.HTTPError as e:
            assert e.code == 503
            assert "make club" in e.read().decode()
        with open(str(tmp_path / "t01.pw"), "w") as f:
            f.write("pw-t01\n")
        out = str(tmp_path / "cards.html")
        director.main(["cards", "--page", page, "--ws", "ws://127.0.0.1:9001",
                       "--passwords", str(tmp_path), "--out", out, "t01"])
        lines = capsys.readouterr().out.splitlines()
        assert lines[0].startswith(out + ": 1 table cards"), lines
        assert lines[1].startswith("warning: the cards lead to %s, which does not serve the "
                                   "table page now (HTTP 503)" % page), lines
        assert "make club" in lines[1]
    finally:
        server.shutdown()
        server.server_close()
    # No service there at all: the same warning, with why.
    director.main(["cards", "--page", page, "--ws", "ws://127.0.0.1:9001",
                   "--passwords", str(tmp_path), "--out", out, "t01"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and "(no answer: " in lines[1], lines
