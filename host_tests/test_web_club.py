"""The browser build at a club night: the page in Debian's headless Chromium publishes its
results over MQTT over WebSockets to a real Mosquitto (tools/mosquitto.py, with its
websockets listener and the project's ACL), and the standings service (club/service.py)
applies and acks them.

The page gets its club settings from the URL's fragment (web/clubcfg.js); the director's
seating (a retained message, as club/director.py sends it) starts its match with names,
then the deals are typed on the page's keyboard.
"""

import json
import sqlite3
import threading
import time

import browser
import mosquitto
import paho.mqtt.client as paho
import pytest
from clubkit import PASSWORDS, ServiceThread, need_broker, players
from keyseq import KEYPAD, match_keys, random_match

pytestmark = pytest.mark.skipif(browser.missing() is not None,
                                reason=browser.missing() or "")

TABLE = "t01"
NAMES = ["Olena", "Taras"]
# What a refused WebSocket prints on the console while the broker is away: expected.
WS_REFUSED = "WebSocket connection to"
# What the network probe below prints on the console when it fails, as it should offline.
PROBE_FAILED = "Failed to load resource: net::ERR_FAILED"


# Whether the page can reach the server: a file no cache holds, fetched past the service
# worker's cache. navigator.onLine is no proof (some Chromium builds leave it true under
# DevTools' offline emulation).
REACHES_NETWORK = ("fetch('/network-probe-' + Date.now(), {cache: 'no-store'})"
                   ".then(() => true, () => false)")


@pytest.fixture
def broker(tmp_path):
    need_broker()
    users = dict(PASSWORDS, **{TABLE: "pw-" + TABLE})
    with mosquitto.Broker(str(tmp_path / "broker"), users=users, websockets=True) as b:
        yield b


def club_url(site, ws_port, password="pw-" + TABLE):
    return "%s#broker=ws://127.0.0.1:%d&table=%s&password=%s" % (site, ws_port, TABLE, password)


def until(js, ms=30000):
    """A step that waits (polling) until the JS expression is truthy; its value, or null
    when time ran out. An expression that throws counts as not yet (the page may still be
    booting, or no match started: s66.state() is null until the seating arrives)."""
    return {"do": "eval", "js": "new Promise((ok) => { const t0 = Date.now(); const f = () => {"
            " let v = null; try { v = (%s); } catch (e) { v = null; }"
            " if (v) ok(v); else if (Date.now() - t0 > %d) ok(null);"
            " else setTimeout(f, 50); }; f(); })" % (js, ms)}


CLUB = {"do": "eval", "js": "window.s66.club()"}
STATUS = {"do": "eval", "js": "document.getElementById('status').textContent"}


def club_when(cond, ms=30000):
    """A step that waits until the club link's state c (webmain.club_info) meets the JS
    condition; its state then, or null when time ran out."""
    return until("(() => { const c = window.s66.club(); return (%s) && c; })()" % cond, ms)


def all_acked(n):
    """The club link's condition: nothing pending and at least n messages acknowledged (the
    match's, then one per finished deal). The count, not just "nothing pending": while the
    page still takes the typed keys, the results made so far can all be acknowledged before
    the last deal's is queued."""
    return "c.pending === 0 && c.acked >= %d" % n


def seat(broker, rnd=1):
    """The director's seating for the table (retained: the page gets it when it connects)."""
    c = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="director",
                    protocol=paho.MQTTv311)
    c.username_pw_set("director", PASSWORDS["director"])
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    info = c.publish("club/%s/seat" % TABLE, json.dumps(
        {"round": rnd, "names": NAMES, "rules": "mariage dealer=1"}), qos=1, retain=True)
    info.wait_for_publish(10)
    c.loop_stop()
    c.disconnect()


def deal_keys(deals, seed=3, seated=True):
    """[keys of deal 1, keys of deal 2, ...] of a random match seated as seat() seats it
    (the `new` line is the seating's, so its keys are dropped); seated=False: the keys of
    the `new` line (no names) come first, with deal 1's."""
    lines, _m = random_match("mariage", seed, suits=False, max_deals=deals)
    if not seated:
        return ["".join(k for _line, k in match_keys(lines, KEYPAD))]
    entries = match_keys(["new mariage dealer=1 names=%s" % ",".join(NAMES)] + lines[1:],
                         KEYPAD)[1:]
    out = [""]
    for line, keys in entries:
        if line.startswith(("trump", "redeal")) and out[-1]:
            out.append("")
        out[-1] += keys
    return out


def mark(frame):
    """The club mark in the panel's top right corner (ui/scoreboard.py): its last two columns."""
    col = "".join(row[126:128] for row in frame[:9])
    if col == "11" * 9:
        return "solid"
    if col == "111100" * 3:
        return "dotted"
    return "none" if col == "00" * 9 else col


def truth(state):
    """The page's match as club.standings.expected_players takes it."""
    deals = []
    for row in state["history"]:
        gp = [0, 0]
        for side, points, _markers in row["awards"]:
            gp[side - 1] += points
        deals.append(gp)
    return {"names": state["names"], "deals": deals,
            "winner": state["winner"] - 1 if state["over"] else -1}


def expected(state):
    from club.standings import expected_players

    return {n: (p["played"], p["won"], p["gp"])
            for n, p in expected_players([truth(state)]).items()}


def seqs(db):
    conn = sqlite3.connect(db)
    try:
        return [r[0] for r in conn.execute(
            "SELECT seq FROM results WHERE table_id = ? ORDER BY seq", (TABLE,))]
    finally:
        conn.close()


def drive(url, steps, allowed=(), **kw):
    got = browser.drive(url, steps, **kw)
    assert got["failed"] is None, got["failed"]
    assert [e for e in got["errors"] if not e.startswith(allowed)] == [], got["errors"]
    assert got["foreign"] == []
    return got["results"]


def test_results_reach_the_standings_acked_and_the_mark_shows_it(site, broker, tmp_path):
    db = str(tmp_path / "night.sqlite")
    seat(broker)
    keys = deal_keys(3)
    with ServiceThread(db, broker.port) as svc:
        got = drive(club_url(site, broker.ws_port), [
            {"do": "open"},
            until("JSON.stringify(window.s66.state().names) === %s" % json.dumps(
                json.dumps(NAMES))),
            {"do": "eval", "js": "[location.hash, localStorage.getItem('s66.club') !== null]"},
            {"do": "type", "keys": "".join(keys)},
            club_when(all_acked(1 + len(keys))), {"do": "frame"}, {"do": "state"}, STATUS])
        info, frame, state, status = got[-4:]
        assert info, "the results were not all acknowledged in time"
        standings = svc.settle({TABLE: info["acked"]})
    assert got[2] == ["", True]  # the fragment is gone from the address bar, kept inside
    assert state["names"] == NAMES and state["deals"] == len(keys)
    # the match message, then one per finished deal: numbered 1..N, each once
    assert info["acked"] == info["next"] - 1 == 1 + state["deals"]
    assert seqs(db) == list(range(1, info["acked"] + 1))
    assert standings["tables"][TABLE]["acked"] == info["acked"]
    assert players(standings) == expected(state)
    assert mark(frame) == "solid" and info["mark"] == 2
    assert status == "club %s: online, all acknowledged" % TABLE


def test_broker_down_then_up_again_resends_and_loses_nothing(site, broker, tmp_path):
    """The broker is killed -9 after the first deal is acked; two more deals are played and
    the page reloaded with no broker; the broker comes back: everything arrives, once."""
    db = str(tmp_path / "night.sqlite")
    flags = tmp_path / "flags"
    flags.mkdir()
    seat(broker)
    keys = deal_keys(3)
    steps = [
        {"do": "open"},
        until("window.s66.state().names.length === 2"),
        {"do": "type", "keys": keys[0]},
        club_when(all_acked(2)),
        {"do": "touch", "path": str(flags / "acked")},
        {"do": "await", "path": str(flags / "down")},
        {"do": "eval", "js": "window.s66.latency.length"},
        {"do": "type", "keys": "".join(keys[1:])},
        {"do": "eval", "js": "window.s66.latency.slice()"},
        {"do": "wait", "ms": 1500},
        CLUB, {"do": "frame"}, {"do": "state"},
        {"do": "reload"},
        club_when("c.status.startsWith('offline')"), CLUB, {"do": "state"},
        {"do": "touch", "path": str(flags / "reloaded")},
        {"do": "await", "path": str(flags / "up")},
        club_when(all_acked(1 + len(keys)), 60000), {"do": "frame"}, {"do": "state"}]
    with ServiceThread(db, broker.port) as svc:
        answer = {}
        page = threading.Thread(target=lambda: answer.update(
            got=browser.drive(club_url(site, broker.ws_port), steps)))
        page.start()

        def wait_flag(name):
            deadline = time.monotonic() + 120
            while not (flags / name).exists():
                assert page.is_alive() and time.monotonic() < deadline, answer
                time.sleep(0.05)

        wait_flag("acked")
        first = json.loads(svc.svc.snapshot)["tables"][TABLE]["acked"]
        broker.kill()
        (flags / "down").touch()
        wait_flag("reloaded")
        broker.start()
        (flags / "up").touch()
        page.join(180)
        got = answer["got"]
        assert got["failed"] is None, got["failed"]
        assert [e for e in got["errors"] if not e.startswith(WS_REFUSED)] == []
        res = got["results"]
        (n_before, _typed, lat, _w, down, down_frame, down_state, _r, _u, reloaded,
         reloaded_state, _t, _a, done, frame, state) = res[6:]
        standings = svc.settle({TABLE: done["acked"] if done else -1})
    assert first == 2  # the match and the first deal, before the broker went
    # With no broker, every key was taken at once and the results wait on the page.
    assert down_state["deals"] == len(keys) == 3
    # ms from key to frame, the broker away: never a wait for it (a connect's timeout is
    # seconds); loose, as a loaded machine stretches frames (make bench reports the speed)
    assert max(lat[n_before:]) < 1000
    assert down["pending"] == 2 and down["acked"] == 2
    assert mark(down_frame) == "dotted"
    # A reload keeps them: the outbox's journal is in the page's storage.
    assert reloaded["pending"] == 2 and reloaded["inc"] == down["inc"]
    assert reloaded_state == down_state
    # The broker back: resent and acked, none lost, none counted twice.
    assert done, "the results were not all acknowledged after the broker came back"
    assert done["acked"] == done["next"] - 1 == 4
    assert seqs(str(tmp_path / "night.sqlite")) == [1, 2, 3, 4]
    assert players(standings) == expected(state) and state == down_state
    assert mark(frame) == "solid"


def test_a_wrong_password_is_said_and_the_table_plays_on(site, broker):
    keys = deal_keys(1, seated=False)
    got = drive(club_url(site, broker.ws_port, password="not-the-password"), [
        {"do": "open"},
        club_when("c.refused"),
        {"do": "frame"},
        {"do": "type", "keys": keys[0]},  # a new match by hand and its first deal
        {"do": "wait", "ms": 500},
        CLUB, {"do": "state"}, {"do": "frame"}, STATUS], allowed=(WS_REFUSED,))
    refused, refused_frame, info, state, frame, status = (got[1], got[2], got[5], got[6],
                                                          got[7], got[8])
    # Mosquitto answers a wrong password with CONNACK 5 (not authorised), code 4 is the
    # other one a broker may give; the page says the same as the board (net/clublink.py).
    assert refused["refused"] in ("not authorised", "bad user or password")
    assert refused["said"] == "club: " + refused["refused"]  # the panel's bottom line
    assert refused_frame[63] == "1" * 128  # the message bar is drawn there
    assert status == "club %s: refused (%s): check the table id and password" % (
        TABLE, refused["refused"])
    assert state["deals"] == 1  # entry goes on
    assert info["pending"] == 2 and info["acked"] == 0 and mark(frame) == "dotted"


def test_the_page_reaches_only_the_broker_it_is_told(site, broker):
    other = mosquitto.free_port()
    probe = ("new Promise((ok) => { document.addEventListener('securitypolicyviolation',"
             " (e) => ok('blocked ' + e.blockedURI)); try { const w = new WebSocket(%s);"
             " w.onopen = () => ok('open'); w.onerror = () => setTimeout(() => ok('error'), 300); }"
             " catch (e) { ok('threw ' + e.name); } })")
    ws = "'ws://127.0.0.1:%d/'"
    # No club settings: no WebSocket at all, and the club's code is never loaded.
    got = browser.drive(site, [
        {"do": "open"}, {"do": "eval", "js": probe % (ws % broker.ws_port)},
        {"do": "eval", "js": "performance.getEntriesByType('resource').map((e) => e.name)"}])
    assert got["failed"] is None
    assert got["results"][1].startswith("blocked") or got["results"][1].startswith("threw")
    assert not [n for n in got["results"][2] if n.endswith(("clubmqtt.js", "mqtt.esm.js"))]
    # With club settings: its broker, and no other.
    got = browser.drive(club_url(site, broker.ws_port), [
        {"do": "open"}, club_when("c.status === 'online'"),
        {"do": "eval", "js": probe % (ws % other)},
        {"do": "eval", "js": probe % (ws % broker.ws_port)}])
    assert got["failed"] is None
    assert got["results"][1]["status"] == "online"
    assert got["results"][2].startswith(("blocked", "threw"))
    assert got["results"][3] == "open"
    assert got["foreign"] == []


def test_a_club_table_opens_with_no_network_after_one_visit(site, broker):
    """The club's code (clubmqtt.js, npm mqtt) is cached once a page with club settings asks
    for it; offline, the table boots with its club link (waiting) and keeps score."""
    cached = ("new Promise((ok) => { const t0 = Date.now(); const f = () =>"
              " caches.match('mqtt.esm.js').then((r) => r || Date.now() - t0 > 20000 ? ok(!!r)"
              " : setTimeout(f, 100)); f(); })")
    keys = deal_keys(1, seated=False)
    got = drive(club_url(site, broker.ws_port), [
        {"do": "open"}, {"do": "worker"}, {"do": "eval", "js": cached},
        {"do": "offline", "on": True}, {"do": "reload"}, CLUB,
        {"do": "type", "keys": keys[0]}, {"do": "wait", "ms": 300}, CLUB, {"do": "state"},
        {"do": "eval", "js": REACHES_NETWORK}], allowed=(WS_REFUSED, PROBE_FAILED))
    assert got[2] is True
    assert got[5] is not None and got[5]["table"] == TABLE
    assert got[8]["pending"] == 2 and got[9]["deals"] == 1
    assert got[10] is False


def test_the_club_form_keeps_the_settings_and_forgets_them(site, broker):
    """Settings typed into the page's Club form (no fragment): a bad URL is refused with a
    reason; good ones load the page again connected; forget loads it again without."""
    fill = ("(() => { document.getElementById('club-open').click();"
            " const f = document.getElementById('club-form'); f.elements.url.value = %s;"
            " f.elements.table.value = %s; f.elements.password.value = %s;"
            " setTimeout(() => f.requestSubmit(), 0); return !f.hidden; })()")
    got = drive(site, [
        {"do": "open"},
        {"do": "eval", "js": fill % ("'http://127.0.0.1:1/'", "'t01'", "'x'")},
        {"do": "eval", "js": "document.getElementById('club-form').elements.table.focus()"},
        {"do": "type", "keys": "1#"},  # into the form, not onto the scoreboard
        {"do": "eval", "js": "[document.getElementById('club-form').elements.table.value,"
                             " window.s66.state().match === null]"},
        {"do": "wait", "ms": 300},
        {"do": "eval", "js": "[document.getElementById('club-why').textContent,"
                             " localStorage.getItem('s66.club'), window.s66.club()]"},
        {"do": "eval", "js": fill % ("'ws://127.0.0.1:%d'" % broker.ws_port, "'%s'" % TABLE,
                                     "'pw-%s'" % TABLE)},
        {"do": "wait", "ms": 1500},
        until("window.s66 && window.s66.club && (() => { try { return window.s66.club(); }"
              " catch (e) { return null; } })()"),
        club_when("c.status === 'online'"),
        {"do": "eval", "js": "document.getElementById('club-forget').click()"},
        {"do": "wait", "ms": 1500},
        until("window.s66 && (() => { try { return window.s66.club() === null"
              " && window.s66.state() !== undefined; } catch (e) { return false; } })()"),
        {"do": "eval", "js": "localStorage.getItem('s66.club')"}])
    assert got[1] is True  # the form opened
    assert got[4] == ["t011#", True]
    why, kept, linked = got[6]
    assert "ws://" in why and kept is None and linked is None
    assert got[10] and got[10]["table"] == TABLE
    assert got[13] is True and got[14] is None


# ---- the page's storage put back to an older copy ---------------------------------------
# The two helpers below are the test's only contact with how the page keeps its files: the
# firmware's Store writes through web/webstore.py, one localStorage item per file under
# "s66:" (the match's data/ and the outbox/). To test another store (IndexedDB, say), point
# these two at it: each is a step whose JS may return a Promise (webdrive.mjs awaits it).


# The page's files are in IndexedDB (web/durable.js: database "s66", object store "files",
# the keys "s66:<path>" and "s66.typed"); these steps read and write it as the page does.
_OPEN_FILES = ("new Promise((ok, no) => { const r = indexedDB.open('s66', 1);"
               " r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); })")
_OWN = "((k) => k.startsWith('s66:') || k === 's66.typed')"


def keep_storage_copy():
    """A step: copy every file of the page's store aside (in the page, until it reloads)."""
    return {"do": "eval", "js": "(async () => { const db = await " + _OPEN_FILES + ";"
            " const os = db.transaction('files').objectStore('files');"
            " const get = (r) => new Promise((ok) => { r.onsuccess = () => ok(r.result); });"
            " const [keys, values] = await Promise.all([get(os.getAllKeys()), get(os.getAll())]);"
            " const copy = {};"
            " keys.forEach((k, i) => { if (" + _OWN + "(k)) copy[k] = values[i]; });"
            " db.close(); window.s66StorageCopy = copy; return Object.keys(copy).length; })()"}


def restore_storage_copy():
    """A step: put the page's store back to the copy keep_storage_copy() took (its files
    made since are gone), as a restored backup or another device's older copy would; in one
    transaction, on disk before the step ends (the page is reloaded after it)."""
    return {"do": "eval", "js": "(async () => { const copy = window.s66StorageCopy;"
            " const db = await " + _OPEN_FILES + ";"
            " const tx = db.transaction('files', 'readwrite', { durability: 'strict' });"
            " const os = tx.objectStore('files');"
            " const keys = await new Promise((ok) => { const r = os.getAllKeys();"
            " r.onsuccess = () => ok(r.result); });"
            " keys.filter(" + _OWN + ").forEach((k) => os.delete(k));"
            " Object.keys(copy).forEach((k) => os.put(copy[k], k));"
            " await new Promise((ok, no) => {"
            " tx.oncomplete = ok; tx.onabort = () => no(tx.error); });"
            " db.close(); return Object.keys(copy).length; })()"}


def test_an_older_storage_numbers_on_after_the_service(site, broker, tmp_path):
    """The match and deal 1 acked, the storage copied, deals 2 and 3 acked; the storage is
    put back to the copy and the page loaded again: it hears the service's ack (4), numbers
    on after it (5, the gap), says so on the panel, and the deals typed again are 6 and 7."""
    db = str(tmp_path / "night.sqlite")
    seat(broker)
    keys = deal_keys(3)
    log = []
    svc = ServiceThread(db, broker.port)
    svc.svc.log = log.append
    with svc:
        got = drive(club_url(site, broker.ws_port), [
            {"do": "open"},
            until("window.s66.state().names.length === 2"),
            {"do": "type", "keys": keys[0]},
            club_when(all_acked(2)),
            keep_storage_copy(),
            {"do": "type", "keys": "".join(keys[1:])},
            club_when(all_acked(4)), {"do": "state"},
            restore_storage_copy(),
            {"do": "reload"},
            club_when("c.acked >= 5 && c.pending === 0"), {"do": "frame"}, {"do": "state"},
            {"do": "type", "keys": "".join(keys[1:])},
            club_when(all_acked(7)), {"do": "state"}])
        (before, kept, _typed, acked, lost_state, put_back, _reload, gapped, gap_frame,
         restored_state, _retyped, done, state) = got[3:]
        standings = svc.settle({TABLE: done["acked"] if done else -1})
    assert before and acked and kept == put_back > 0
    assert lost_state["deals"] == 3 and restored_state["deals"] == 1
    assert gapped, "the page did not take the service's ack after its storage went back"
    assert gapped["inc"] == acked["inc"] and gapped["next"] == 6
    assert gapped["said"] == "club: results gap"  # the panel's bottom line, in English
    assert gap_frame[53] == "1" * 128  # the message bar (ui/app.py) is drawn
    assert done, "the deals typed again were not acknowledged"
    assert done["acked"] == done["next"] - 1 == 7 and state == lost_state
    assert seqs(db) == list(range(1, 8))
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT table_id, inc, seq, lost_from, lost_to FROM gaps"
                            ).fetchall() == [(TABLE, done["inc"], 5, 3, 4)]
        assert conn.execute("SELECT why FROM refused").fetchall() == []
    finally:
        conn.close()
    assert [ln for ln in log if ln.startswith("gap " + TABLE)], log
    assert not [ln for ln in log if ln.startswith("refused")], log
    assert standings["gaps"][0]["seq"] == 5
    assert players(standings) == expected(state)
