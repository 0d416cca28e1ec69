"""The club director gets the service's verdict: each command (club/director.py) is a
request through a real Mosquitto with the project's ACL, answered by the standings service
(club/actions.py, the one path); conflicts and late results accepted by the director; close,
reopen and close again; the director's web page (club/directorpage.py) behind its
password, in Chromium at a phone's and a projector's size."""

import base64
import json
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import paho.mqtt.client as paho
import pytest
from clubkit import PASSWORDS, ServiceThread, club_broker, players
from clubplay import Played
from conftest import FIRMWARE, ROOT

sys.path.insert(0, ROOT)  # club/ is a package at the root
sys.path.insert(0, FIRMWARE)

from net import wire  # noqa: E402

INC = "abcd0001"
DIRECTOR_WEB = "page-pw"


@pytest.fixture
def broker(tmp_path):
    with club_broker(tmp_path, 2) as b:
        yield b


class Table:
    """t01 as a test drives it: its results published as they are, one by one."""

    def __init__(self, port, table="t01"):
        self.c = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="table-" + table,
                             protocol=paho.MQTTv311)
        self.c.username_pw_set(table, "pw-" + table)
        self.c.connect("127.0.0.1", port)
        self.c.loop_start()
        self.table = table

    def send(self, payload):
        info = self.c.publish("club/%s/result" % self.table, payload, qos=1)
        info.wait_for_publish(5)
        return payload

    def close(self):
        self.c.loop_stop()
        self.c.disconnect()


def until(cond, seconds=10):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = cond()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("timed out")


def refused_rows(svc, why):
    return until(lambda: [r for r in svc.svc.db.not_counted() if r["why"].startswith(why)])


def cli(tmp_path, broker, *args, timeout=None):
    pw = tmp_path / "director.pw"
    pw.write_text(PASSWORDS["director"])
    out = ["--broker", "127.0.0.1:%d" % broker.port, "--password-file", str(pw)]
    if timeout is not None:
        out += ["--timeout", str(timeout)]
    return out + [str(a) for a in args]


def run(capsys, argv, err=False):
    """(exit code, what was printed) of the director's command (err=True: and what went to
    stderr)."""
    from club import director

    capsys.readouterr()
    try:
        director.main(argv)
        code = 0
    except SystemExit as e:
        code = e.code
    said = capsys.readouterr()
    return (code, said.out, said.err) if err else (code, said.out)


def played(gps):
    """Match 1 (Ann v Bob, classic66, a table's own: round 0) played in the core, its deals
    quick results won by the side that scores: the payloads the table sends, numbered from 1
    (each deal carries its entries, which the service scores again)."""
    p = Played(inc=INC, names=("Ann", "Bob"))
    for gp in gps:
        p.deal("result %d %d" % (1 if gp[0] else 2, max(gp)))
    return p.payloads


def a_match(table, gps=((2, 0),)):
    """played(gps) sent by the table; returns the last number."""
    payloads = played(gps)
    for payload in payloads:
        table.send(payload)
    return len(payloads)


def test_a_command_on_an_unknown_table_or_match_is_refused(tmp_path, broker, capsys):
    # Issue: `correct`/`void` printed "sent" and exited 0 whatever the service made of it.
    with ServiceThread(str(tmp_path / "ev.sqlite"), broker.port) as svc:
        t = Table(broker.port)
        svc.settle({"t01": a_match(t)})
        code, out = run(capsys, cli(tmp_path, broker, "void", "t09", INC, 1, 1, "--why", "x"))
        assert code == 1 and out == "refused: no such table: t09\n"
        code, out = run(capsys, cli(tmp_path, broker, "void", "t01", INC, 7, 1, "--why", "x"))
        assert code == 1 and out.startswith("refused: no such match: t01 %s match 7" % INC)
        code, out = run(capsys, cli(tmp_path, broker, "void", "t01", INC, 1, 5, "--why", "x"))
        assert code == 1 and out.startswith("refused: no such deal")
        code, out = run(capsys, cli(tmp_path, broker, "void", "t01", INC, 1, 1, "--why", " "))
        assert code == 1 and out == "refused: a reason is needed (--why)\n"
        t.close()
        log = svc.svc.db.director_log()
    assert [e["verdict"] for e in log] == ["refused"] * 4
    assert log[-1]["request"]["table"] == "t09" and log[-1]["via"] == "mqtt"


def test_an_impossible_correction_is_refused_and_a_possible_one_accepted(tmp_path, broker,
                                                                         capsys):
    lines = []
    with ServiceThread(str(tmp_path / "ev.sqlite"), broker.port, log=lines.append) as svc:
        t = Table(broker.port)
        svc.settle({"t01": a_match(t, [(2, 0), (0, 1)])})
        for gp, winner, why in [("9,0", 0, "game points: 9 is not what one deal can give "
                                            "(0..3)"),
                                ("1,1,1", 0, "game points: 2 numbers, one per side"),
                                ("0,3", 2, "winner: not an integer in -1..1")]:
            code, out = run(capsys, cli(tmp_path, broker, "correct", "t01", INC, 1, 1, gp,
                                        winner, "--why", "misread"))
            assert (code, out) == (1, "refused: %s\n" % why)
        before = json.loads(svc.svc.snapshot)
        assert players(before) == {"Ann": (1, 0, 2), "Bob": (1, 0, 1)}
        code, out = run(capsys, cli(tmp_path, broker, "correct", "t01", INC, 1, 1, "0,3", 1,
                                    "--why", "misread"))
        assert (code, out) == (0, "accepted: t01 %s match 1 deal 1: 2:0 won by Ann -> 0:3 won "
                                  "by Bob; the match: Ann 0, Bob 4, not over (2 deals)\n" % INC)
        after = until(lambda: (lambda d: d if d["audit"] else None)(
            json.loads(svc.svc.snapshot)))
        t.close()
    assert players(after) == {"Ann": (1, 0, 0), "Bob": (1, 0, 4)}
    assert [a["why"] for a in after["audit"]] == ["misread"]
    said = [ln for ln in lines if ln.startswith("director")]
    assert said[0] == ("director refused: correct t01 %s match 1 deal 1 to 9:0 (misread): "
                       "game points: 9 is not what one deal can give (0..3)" % INC)
    assert said[-1] == ("director accepted: correct t01 %s match 1 deal 1 to 0:3 (misread) - "
                        "t01 %s match 1 deal 1: 2:0 won by Ann -> 0:3 won by Bob; the match: "
                        "Ann 0, Bob 4, not over (2 deals)" % (INC, INC))
    assert len(said) == 4


def test_with_the_service_down_the_command_says_so_and_fails(tmp_path, broker, capsys):
    start = time.monotonic()
    code, out = run(capsys, cli(tmp_path, broker, "close", "--csv", tmp_path / "f.csv",
                                timeout=1))
    took = time.monotonic() - start
    assert code == 2 and out.startswith("no answer from the standings service in 1 s")
    assert 1 <= took < 8, took
    assert not (tmp_path / "f.csv").exists()


def test_the_director_chooses_a_conflicts_other_copy(tmp_path, broker, capsys):
    db = str(tmp_path / "ev.sqlite")
    with ServiceThread(db, broker.port) as svc:
        t = Table(broker.port)
        svc.settle({"t01": a_match(t)})
        other = t.send(played([(0, 3)])[1])  # seq 2 again, other content
        row, = refused_rows(svc, "conflict")
        assert json.loads(row["body"]) == json.loads(other)
        assert players(json.loads(svc.svc.snapshot)) == {"Ann": (1, 0, 2), "Bob": (1, 0, 0)}
        code, out = run(capsys, cli(tmp_path, broker, "list"))
        assert code == 0 and out.splitlines()[0] == (
            "row %d  conflict  t01 %s #2 deal: differs from the copy kept" % (row["id"], INC))
        assert out.splitlines()[-1] == ("1 result does not count (held 0, conflict 1, late 0, "
                                        "refused 0): every one is listed above")
        code, out = run(capsys, cli(tmp_path, broker, "accept", row["id"], "--why",
                                    "the score sheet says Bob"))
        assert code == 0, out
        assert out == "accepted: t01 %s #2 deal counts, in place of the copy that did\n" % INC
        after = until(lambda: (lambda d: d if d["audit"] else None)(
            json.loads(svc.svc.snapshot)))
        assert players(after) == {"Ann": (1, 0, 0), "Bob": (1, 0, 3)}
        entry, = after["audit"]
        assert (entry["action"], entry["row"], entry["why"], entry["result"]["gp"]) == (
            "accept", row["id"], "the score sheet says Bob", [0, 3])
        back, = refused_rows(svc, "conflict")  # the copy that counted, now kept aside
        assert json.loads(back["body"])["gp"] == [2, 0] and "row %d" % row["id"] in back["why"]
        code, out = run(capsys, cli(tmp_path, broker, "accept", row["id"], "--why", "again"))
        assert (code, out) == (1, "refused: row %d is already accepted\n" % row["id"])
        code, out = run(capsys, cli(tmp_path, broker, "accept", 999, "--why", "x"))
        assert code == 1 and out.startswith("refused: no row 999")
        t.close()
    # The choice is in the database: a restarted service counts the same.
    with ServiceThread(db, broker.port) as again:
        assert players(again.svc.event.standings()) == {"Ann": (1, 0, 0), "Bob": (1, 0, 3)}
        # and the director may change their mind: the first copy back
        code, out = run(capsys, cli(tmp_path, broker, "accept", back["id"], "--why", "no"))
        assert code == 0, out
        assert players(again.svc.event.standings()) == {"Ann": (1, 0, 2), "Bob": (1, 0, 0)}
        kept = again.svc.db.not_counted()
        assert [json.loads(r["body"])["gp"] for r in kept] == [[0, 3]]  # aside again
    log = sqlite3.connect(db).execute(
        "SELECT verdict, request FROM director ORDER BY id").fetchall()
    assert [(v, json.loads(r)["cmd"]) for v, r in log] == [
        ("accepted", "accept"), ("refused", "accept"), ("refused", "accept"),
        ("accepted", "accept")]


def _csv(path):
    with open(path, "rb") as f:
        return f.read()


def test_close_late_reopen_accept_and_close_again(tmp_path, broker, capsys):
    with ServiceThread(str(tmp_path / "ev.sqlite"), broker.port) as svc:
        t = Table(broker.port)
        svc.settle({"t01": a_match(t)})
        code, out = run(capsys, cli(tmp_path, broker, "close", "--csv", tmp_path / "1.csv"))
        assert code == 0 and out.startswith("accepted: closed: 2 results counted\nclosed;")
        code, out = run(capsys, cli(tmp_path, broker, "close", "--csv", tmp_path / "2.csv"))
        assert code == 0 and out.startswith("accepted: already closed: nothing changed")
        assert _csv(tmp_path / "1.csv") == _csv(tmp_path / "2.csv")
        final = json.loads(svc.svc.snapshot)
        t.send(played([(2, 0), (0, 2)])[2])  # late
        row, = refused_rows(svc, "late")
        time.sleep(0.3)
        assert json.loads(svc.svc.snapshot) == final
        code, out = run(capsys, cli(tmp_path, broker, "accept", row["id"], "--why", "x"))
        assert (code, out) == (1, "refused: the night is closed: reopen it first\n")
        code, out = run(capsys, cli(tmp_path, broker, "reopen", "--why", "t01 was late"))
        assert (code, out) == (0, "accepted: open again; 1 late results do not count "
                                  "unless accepted\n")
        opened = json.loads(svc.svc.snapshot)
        assert not opened["closed"] and players(opened) == players(final)  # still not counted
        code, out = run(capsys, cli(tmp_path, broker, "reopen", "--why", "again"))
        assert (code, out) == (1, "refused: the night is not closed\n")
        code, out = run(capsys, cli(tmp_path, broker, "accept", row["id"], "--why",
                                    "t01's last deal was played before the close"))
        assert (code, out) == (0, "accepted: t01 %s #3 deal counts\n" % INC)
        assert players(json.loads(svc.svc.snapshot)) == {"Ann": (1, 0, 2), "Bob": (1, 0, 2)}
        assert svc.svc.event.ack("t01") == (INC, 3)  # the table hears it counts
        code, out = run(capsys, cli(tmp_path, broker, "close", "--csv", tmp_path / "3.csv"))
        assert code == 0, out
        code, out = run(capsys, cli(tmp_path, broker, "close", "--csv", tmp_path / "4.csv"))
        t.close()
    assert _csv(tmp_path / "3.csv") == _csv(tmp_path / "4.csv") != _csv(tmp_path / "1.csv")
    assert b"Bob,1,0,2,1" in _csv(tmp_path / "3.csv")


# ---- the director's web page ----


def _open(url, auth=None, data=None, headers=None):
    req = urllib.request.Request(url, data=data, headers=dict(headers or {}),
                                 method="POST" if data is not None else "GET")
    if auth:
        req.add_header("Authorization", "Basic " + base64.b64encode(
            ("%s:%s" % auth).encode()).decode())
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def test_the_page_needs_the_password_and_refuses_forged_posts(tmp_path, broker):
    with ServiceThread(str(tmp_path / "ev.sqlite"), broker.port, http=True,
                       director_password=DIRECTOR_WEB) as svc:
        base = "http://127.0.0.1:%d" % svc.http.server_address[1]
        me = ("director", DIRECTOR_WEB)
        assert _open(base + "/")[0] == 200  # the standings stay public
        assert _open(base + "/director")[0] == 401
        assert _open(base + "/director/state.json", ("director", "wrong"))[0] == 401
        assert _open(base + "/director/state.json", ("viewer", DIRECTOR_WEB))[0] == 401
        code, body = _open(base + "/director/state.json", me)
        token = json.loads(body)["token"]
        assert code == 200 and len(token) >= 24
        close = json.dumps({"cmd": "close"}).encode()
        js = {"Content-Type": "application/json"}
        assert _open(base + "/director/act", me, close, js)[0] == 403  # no token
        assert _open(base + "/director/act", me, close,
                     dict(js, **{"X-Director-Token": "x" * len(token)}))[0] == 403
        assert _open(base + "/director/act", me, close,
                     {"Content-Type": "text/plain", "X-Director-Token": token})[0] == 403
        assert _open(base + "/director/act", me, close,
                     dict(js, **{"X-Director-Token": token,
                                 "Origin": "http://evil.example"}))[0] == 403
        assert _open(base + "/director/act", None, close,
                     dict(js, **{"X-Director-Token": token}))[0] == 401
        assert _open(base + "/director", me, b"", {})[0] == 405
        assert not svc.svc.event.closed  # none of these did anything
        code, body = _open(base + "/director/act", me, close,
                           dict(js, **{"X-Director-Token": token}))
        assert code == 200 and json.loads(body)["verdict"] == "accepted"
        assert svc.svc.event.closed
    with ServiceThread(str(tmp_path / "ev2.sqlite"), broker.port, http=True) as svc:
        base = "http://127.0.0.1:%d" % svc.http.server_address[1]
        assert _open(base + "/director", me)[0] == 404  # no password file: no page


def test_the_route_table_decides_the_login_not_the_path(tmp_path, broker, monkeypatch):
    # Issue 47: the table's "needs password" column was never read (the login went by the
    # /director prefix), so a secret route elsewhere was served to anyone.
    from club import httpd

    def secret(desk, h, path, query):
        httpd.send(h, 200, b"the director's alone\n", httpd.TEXT)

    monkeypatch.setattr(httpd, "ROUTES", (("GET", "/secret.json", secret, True),)
                        + httpd.ROUTES)
    with ServiceThread(str(tmp_path / "ev.sqlite"), broker.port, http=True,
                       director_password=DIRECTOR_WEB) as svc:
        base = "http://127.0.0.1:%d" % svc.http.server_address[1]
        code, body = _open(base + "/secret.json")
        assert code == 401 and b"alone" not in body
        assert _open(base + "/secret.json", ("director", "wrong"))[0] == 401
        assert _open(base + "/secret.json", ("director", DIRECTOR_WEB)) == (
            200, b"the director's alone\n")
        # Under /director/ a path of no route is still the director's: 401, then 404.
        assert _open(base + "/director/nothing")[0] == 401
        assert _open(base + "/director/nothing", ("director", DIRECTOR_WEB))[0] == 404
        assert _open(base + "/standings.json")[0] == 200  # a public route stays public
    with ServiceThread(str(tmp_path / "ev2.sqlite"), broker.port, http=True) as svc:
        base = "http://127.0.0.1:%d" % svc.http.server_address[1]
        assert _open(base + "/secret.json")[0] == 404  # no password file: no secret route


def test_a_handler_that_fails_answers_500_and_the_server_goes_on(tmp_path, broker, monkeypatch):
    from club import httpd

    def broken(desk, h, path, query):
        raise ValueError("a bug\nover two lines")

    monkeypatch.setattr(httpd, "ROUTES", (("GET", "/broken", broken, False),) + httpd.ROUTES)
    lines = []
    with ServiceThread(str(tmp_path / "ev.sqlite"), broker.port, http=True,
                       log=lines.append) as svc:
        base = "http://127.0.0.1:%d" % svc.http.server_address[1]
        code, body = _open(base + "/broken")
        assert code == 500
        assert body.count(b"\n") == 1  # one line, which names neither the code nor the bug
        for word in (b"Traceback", b"ValueError", b"a bug", b".py"):
            assert word not in body
        assert _open(base + "/standings.json")[0] == 200  # the server keeps serving
        assert _open(base + "/broken")[0] == 500
    said = [ln for ln in lines if ln.startswith("http: ")]
    assert said == ["http: GET /broken: ValueError: a bug over two lines"] * 2


PAGE_JS = """(async () => {
  const $ = (id) => document.getElementById(id);
  const until = async (f) => {
    for (let i = 0; i < 200; i++) {
      if (f()) return true;
      await new Promise(r => setTimeout(r, 50));
    }
    return false;
  };
  const said = async (before) => {
    await until(() => $("verdict").textContent !== before);
    return $("verdict").textContent;
  };
  const out = {};
  await until(() => $("verdict").textContent === "ready");
  out.rows = [...document.querySelectorAll("#rows .row")].map(r => r.id);
  out.wide = document.documentElement.scrollWidth;
  out.view = window.innerWidth;
  // accept the conflict's other copy
  const row = document.querySelector("#rows .row");
  row.querySelector("input").value = "the score sheet";
  let before = $("verdict").textContent;
  row.querySelector("button").click();
  out.accept = await said(before);
  // a refused action: a table that is not there
  $("fix-table").value = "t09"; $("fix-inc").value = "abcd0001";
  $("fix-match").value = "1"; $("fix-deal").value = "1"; $("fix-why").value = "test";
  before = $("verdict").textContent;
  $("void").click();
  out.void = await said(before);
  // an impossible correction
  $("fix-table").value = "t01"; $("fix-gp").value = "0,7"; $("fix-winner").value = "1";
  before = $("verdict").textContent;
  $("correct").click();
  out.correct = await said(before);
  before = $("verdict").textContent;
  $("close").click();
  out.close = await said(before);
  await until(() => $("reopen").disabled === false);
  $("reopen-why").value = "one more deal";
  before = $("verdict").textContent;
  $("reopen").click();
  out.reopen = await said(before);
  await until(() => $("log").children.length === 5);
  out.audit = [...$("audit").children].map(li => li.textContent);
  out.log = [...$("log").children].map(li => li.textContent.replace(/^\\S+ /, ""));
  out.wide2 = document.documentElement.scrollWidth;
  return out;
})()"""


@pytest.mark.parametrize("size", [(390, 844), (1920, 1080)])
def test_the_directors_page_in_chromium(tmp_path, broker, size):
    import browser

    if browser.missing():
        pytest.skip(browser.missing())
    with ServiceThread(str(tmp_path / "ev.sqlite"), broker.port, http=True,
                       director_password=DIRECTOR_WEB) as svc:
        t = Table(broker.port)
        svc.settle({"t01": a_match(t)})
        t.send(played([(0, 3)])[1])
        row, = refused_rows(svc, "conflict")
        base = "http://127.0.0.1:%d" % svc.http.server_address[1]
        got = browser.drive(base + "/director", [{"do": "goto"}, {"do": "eval", "js": PAGE_JS}],
                            viewport=size, credentials=("director", DIRECTOR_WEB))
        standings = json.loads(svc.svc.snapshot)
        t.close()
    assert got["failed"] is None, got["failed"]
    assert not got["errors"], got["errors"]
    r = got["results"][1]
    assert r["rows"] == ["row-%d" % row["id"]]
    assert r["wide"] <= r["view"] and r["wide2"] <= r["view"], r  # no sideways scroll
    assert r["accept"] == "accepted: t01 %s #2 deal counts, in place of the copy that did" % INC
    assert r["void"] == "refused: no such table: t09"
    assert r["correct"] == "refused: game points: 7 is not what one deal can give (0..3)"
    assert r["close"] == "accepted: closed: 2 results counted"
    assert r["reopen"].startswith("accepted: open again")
    assert r["audit"] == ["t01 match 1 deal 1: accepted row %d (#2) (the score sheet)"
                          % row["id"]]
    assert [ln.split(": ", 1)[1] for ln in r["log"]] == [
        "accepted, open again; 0 late results do not count unless accepted",
        "accepted, closed: 2 results counted",
        "refused, game points: 7 is not what one deal can give (0..3)",
        "refused, no such table: t09",
        "accepted, t01 %s #2 deal counts, in place of the copy that did" % INC]
    assert all(ln.startswith("web ") for ln in r["log"]), r["log"]
    assert players(standings) == {"Ann": (1, 0, 0), "Bob": (1, 0, 3)} and not standings["closed"]


# Tables' fw/state as update/job.py reports them (retained), one of each kind the page words.
FW_STATES = {
    "t01": {"version": 0, "state": "taking", "offered": 102, "refused": 101, "why": "older"},
    "t02": {"version": 0, "state": "taking", "offered": 102, "refused": 102, "why": "same"},
    "t03": {"version": 0, "state": "taking", "offered": 102, "why": "offer"},
    "t04": {"version": 0, "state": "refused", "offered": 102, "why": "lost"},
    "t05": {"version": 0, "state": "refused", "offered": 102, "why": "signature"},
    "t06": {"version": 101, "state": "running", "failed": 102},
}

FW_JS = """(async () => {
  const $ = (id) => document.getElementById(id);
  for (let i = 0; i < 200 && $("firmware").children.length < 6; i++)
    await new Promise(r => setTimeout(r, 50));
  return {lines: [...$("firmware").children].map(li => li.textContent),
          wide: document.documentElement.scrollWidth, view: window.innerWidth};
})()"""


def test_the_directors_page_says_why_a_table_refused_an_update(tmp_path):
    """Issue 45, finding 6: a table taking a bundle that refused another offer meanwhile
    was listed only as "taking version N", and a refusal as its bare code ("lost", "same")."""
    import browser

    from club import directorpage

    if browser.missing():
        pytest.skip(browser.missing())
    with club_broker(tmp_path, len(FW_STATES)) as b, ServiceThread(
            str(tmp_path / "ev.sqlite"), b.port, http=True,
            director_password=DIRECTOR_WEB) as svc:
        tables = [Table(b.port, t) for t in FW_STATES]
        for t in tables:
            t.c.publish(wire.fw_topic(t.table, wire.FW_STATE), json.dumps(FW_STATES[t.table]),
                        qos=1, retain=True).wait_for_publish(5)
        assert until(lambda: len(directorpage.state(svc.svc)["firmware"]) == len(FW_STATES))
        heard = {f["table"]: f for f in directorpage.state(svc.svc)["firmware"]}
        base = "http://127.0.0.1:%d" % svc.http.server_address[1]
        got = browser.drive(base + "/director", [{"do": "goto"}, {"do": "eval", "js": FW_JS}],
                            credentials=("director", DIRECTOR_WEB))
        for t in tables:
            t.close()
    assert got["failed"] is None, got["failed"]
    assert not got["errors"], got["errors"]
    r = got["results"][1]
    # The refused offer's version, kept by the service (it dropped it before).
    assert heard["t01"]["refused"] == 101 and heard["t02"]["refused"] == 102
    v101, v102 = " (version 101)", " (version 102)"
    assert r["lines"] == [
        "t01: version 0, taking version 102; another offer%s was refused: older than the "
        "version it is taking. It goes on with version 102" % v101,
        "t02: version 0, taking version 102; another offer%s was refused: the same version as "
        "the one it is taking. It goes on with version 102" % v102,
        "t03: version 0, taking version 102; another offer was refused: not a valid offer. It "
        "goes on with version 102",
        "t04: version 0, gave up taking version 102: no piece came (run club.fleet again)",
        "t05: version 0, refused version 102: not signed with the club's key",
        "t06: version 101 (version 102 did not start: back to this one)"], r["lines"]
    assert r["wide"] <= r["view"], r  # no sideways scroll on a phone

def test_every_request_gets_an_answer_and_only_the_service_answers(tmp_path, broker):
    """Raw requests on the broker: whatever they hold, the one path answers each; the same
    id twice is done once; nobody but the service can answer, nobody but the director ask."""
    import threading

    replies = {}
    heard = threading.Condition()

    def on_message(client, userdata, msg):
        with heard:
            replies.setdefault(msg.topic.rsplit("/", 1)[1], []).append(json.loads(msg.payload))
            heard.notify_all()

    d = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="director",
                    protocol=paho.MQTTv311)
    d.username_pw_set("director", PASSWORDS["director"])
    d.on_message = on_message
    d.connect("127.0.0.1", broker.port)
    d.loop_start()
    d.subscribe("club/director/reply/+", 1)
    lines = []
    with ServiceThread(str(tmp_path / "ev.sqlite"), broker.port, log=lines.append) as svc:
        t = Table(broker.port)
        svc.settle({"t01": a_match(t)})
        asks = {"a1": b"not json", "a2": b"[1, 2]", "a3": b'{"cmd": "explode"}',
                "a4": json.dumps({"cmd": "void", "table": "t01", "inc": INC, "match": "one",
                                  "deal": 1, "why": "x"}).encode(),
                "a5": json.dumps({"cmd": "void", "table": "t01", "inc": INC, "match": 1,
                                  "deal": 1, "why": "dealt twice"}).encode()}
        for rid, body in asks.items():
            d.publish("club/director/do/" + rid, body, qos=1).wait_for_publish(5)
        d.publish("club/director/do/a5", asks["a5"], qos=1).wait_for_publish(5)  # again
        # a forged verdict (the director) and a forged request (a table): the ACL drops both
        d.publish("club/director/reply/a9", b'{"ok": true}', qos=1).wait_for_publish(5)
        t.c.publish("club/director/do/a8", b'{"cmd": "close"}', qos=1).wait_for_publish(5)
        with heard:
            heard.wait_for(lambda: len(replies.get("a5", [])) == 2, 10)
        time.sleep(0.5)
        t.close()
        audit = json.loads(svc.svc.snapshot)["audit"]
        closed = svc.svc.event.closed
    d.loop_stop()
    d.disconnect()
    assert sorted(replies) == ["a1", "a2", "a3", "a4", "a5"], replies
    why = {rid: r[0].get("why") for rid, r in replies.items()}
    assert (why["a1"], why["a2"]) == ("not JSON", "not a request")
    assert why["a3"] == "unknown command: explode"
    assert why["a4"] == "match: not a number"
    assert replies["a5"][0] == replies["a5"][1] and replies["a5"][0]["verdict"] == "accepted"
    assert len(audit) == 1 and not closed
    assert len([ln for ln in lines if ln.startswith("director ")]) == 5


def test_a_wrong_password_is_said_as_such(tmp_path, broker, capsys):
    argv = cli(tmp_path, broker, "reopen", "--why", "x", timeout=1)
    (tmp_path / "director.pw").write_text("not-the-password")
    code, out, err = run(capsys, argv, err=True)
    assert (code, out) == (3, "")
    assert err == ("director: the broker at 127.0.0.1:%d refused the login as director: Not "
                   "authorized (the password?)\n" % broker.port)


def test_a_held_result_kept_whole_is_accepted_the_same_way(tmp_path, broker, capsys):
    # A held result (the service's core did not score it: here a deal sent without its
    # entries, as a table whose flash lost them sends it) is kept whole in the refused
    # table with its reason, and counts once the director accepts it; a row that is not a
    # whole result cannot be accepted.
    with ServiceThread(str(tmp_path / "ev.sqlite"), broker.port) as svc:
        t = Table(broker.port)
        seq = a_match(t)
        t.send(wire.result(INC, seq + 1, dict(wire.deal(1, 2, [0, 3], "reached", 1, -1),
                                              ev=None)))
        svc.settle({"t01": seq + 1})
        row, = until(lambda: svc.svc.db.refusals("held"))
        assert row["code"] == "events", row
        assert players(json.loads(svc.svc.snapshot)) == {"Ann": (1, 0, 2), "Bob": (1, 0, 0)}
        with svc.svc.lock:
            svc.svc.db.add_refused("club/t01/result", b'{"v":1,"inc', "bad JSON")
            svc.svc.db.commit()
        rows = {r["why"]: r["id"] for r in svc.svc.db.not_counted()}
        rows["held: a test's reason"] = row["id"]
        code, out = run(capsys, cli(tmp_path, broker, "accept", rows["bad JSON"], "--why", "x"))
        assert code == 1 and out.startswith("refused: row %d is not a whole result"
                                            % rows["bad JSON"])
        held = rows["held: a test's reason"]
        # No entries: the core cannot score it, so the director gives its result.
        code, out = run(capsys, cli(tmp_path, broker, "accept", held, "--why", "the sheet"))
        assert (code, out) == (1, "refused: row %d has no entries the core can score (the "
                                  "deal's entries are missing): give its result: accept %d "
                                  "--gp GP,GP --winner SIDE [--over SIDE]; one deal can give "
                                  "(GP,GP WINNER): 1,0 0 | 2,0 0 | 3,0 0 | 0,1 1 | 0,2 1 | "
                                  "0,3 1 | 0,0 -1\n" % (held, held))
        code, out = run(capsys, cli(tmp_path, broker, "accept", held, "--gp", "2,2",
                                    "--winner", 0, "--why", "the sheet"))
        assert code == 1 and out.startswith("refused: row %d: game points 2:2 won by side 0 "
                                            "are not what one deal of classic66 can give"
                                            % held)
        code, out, err = run(capsys, cli(tmp_path, broker, "accept", held, rows["bad JSON"],
                                         "--gp", "0,3", "--winner", 1, "--why", "the sheet"),
                             err=True)
        assert (code, out, err) == (3, "", "director: a result is given for one row: accept "
                                           "ROW --gp GP,GP --winner SIDE [--over SIDE]\n")
        code, out = run(capsys, cli(tmp_path, broker, "accept", held, "--gp", "0,3",
                                    "--winner", 1, "--why", "the sheet agrees"))
        assert (code, out) == (0, "accepted: t01 %s #3 deal counts as given: 0:3 winner 1\n"
                               % INC)
        assert players(json.loads(svc.svc.snapshot)) == {"Ann": (1, 0, 2), "Bob": (1, 0, 3)}
        # Many rows at once: each its verdict, exit 1 when any is declined.
        code, out = run(capsys, cli(tmp_path, broker, "accept", rows["bad JSON"], held,
                                    "--why", "again"))
        said = out.splitlines()
        assert code == 1 and len(said) == 2, out
        assert said[0].startswith("row %d: refused: row %d is not a whole result: "
                                  % (rows["bad JSON"], rows["bad JSON"]))
        assert said[1] == "row %d: refused: row %d is already accepted" % (held, held)
        code, out = run(capsys, cli(tmp_path, broker, "accept", "--round", 0, "--why", "x"))
        assert (code, out) == (1, "refused: round 0 has no held result\n")
        t.close()
