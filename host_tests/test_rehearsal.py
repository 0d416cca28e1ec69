"""A club night rehearsed without hardware, each piece against a real Mosquitto (the
project's ACL and passwords) and the standings service:

- `make sim ARGS="--club FILE"`: the firmware's own club link (wiring.py link_club,
  net/mqtt.py) in the interactive simulator, driven under tmux: the seating starts its
  match, a deal typed on the keys reaches the service and is acked, the line under the
  panel says so; scripted runs with no broker keep the result on the flash and send it
  when the broker is there;
- the service's table page (club/tablepage.py) at /table/ of its HTTP port, opened in
  Chromium from the address a table card (club/tablecards.py, `club.director cards`) holds:
  the page logs in as its table, takes the seating and has its result acked.
"""

import argparse
import json
import os
import shlex
import shutil
import subprocess
import time
import urllib.error
import urllib.request

import browser
import mosquitto
import pytest
from clubkit import PASSWORDS, ServiceThread, club_file, need_broker
from conftest import FIRMWARE, MICROPYTHON, ROOT, TOOLS

SIM = os.path.join(ROOT, "tools", "sim.py")
NAMES = ["Olena", "Taras"]


@pytest.fixture
def broker(tmp_path):
    need_broker()
    users = dict(PASSWORDS, t01="pw-t01")
    with mosquitto.Broker(str(tmp_path / "broker"), users=users, websockets=True,
                          acl=os.path.join(ROOT, "club", "mosquitto", "acl")) as b:
        yield b


def director(broker, tmp_path, *args):
    from club import director as cmd

    pw = tmp_path / "director.pw"
    pw.write_text(PASSWORDS["director"])
    cmd.main(["--broker", "127.0.0.1:%d" % broker.port, "--password-file", str(pw)]
             + list(args))


def acked(svc, table, n, seconds=30):
    """Wait until the service has acked n results of the table; the standings then."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        data = json.loads(svc.svc.snapshot)
        if data.get("tables", {}).get(table, {}).get("acked", 0) >= n:
            return data
        time.sleep(0.05)
    raise AssertionError("%s: %d results not acked: %s" % (table, n, svc.svc.snapshot))


def gp(data):
    return {p["name"]: p["gp"] for p in data["players"]}


def test_make_sim_with_a_club_file_is_a_table(broker, tmp_path):
    tmux = shutil.which("tmux")
    if tmux is None:
        pytest.fail("tmux is not installed: apt-get install -y tmux (see make deps / .ci/run)")
    club = club_file(str(tmp_path), "t01", broker.port, "pw-t01")
    flash = tmp_path / "flash"
    socket = "sim-club-%d" % os.getpid()
    base = [tmux, "-u", "-L", socket, "-f", "/dev/null"]

    def tm(*args):
        return subprocess.run(base + list(args), capture_output=True, text=True, timeout=10)

    def pane():
        return tm("capture-pane", "-p", "-t", "sim").stdout

    def wait_for(text, seconds=60):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if text in pane():
                return
            time.sleep(0.1)
        raise AssertionError("no %r on the pane:\n%s" % (text, pane()))

    # `make sim` as a director runs it (-o: the virtual environment taken as it is).
    line = "make -s -o %s sim ARGS='--club %s --flash %s'" % (
        os.path.join(".venv", ".installed"), shlex.quote(club), shlex.quote(str(flash)))
    db = str(tmp_path / "night.sqlite")
    with ServiceThread(db, broker.port) as svc:
        started = tm("new-session", "-d", "-s", "sim", "-x", "100", "-y", "45", "-c", ROOT,
                     line)
        assert started.returncode == 0, started.stderr
        try:
            wait_for("club t01: online, all acknowledged")
            director(broker, tmp_path, "seat", "1", "classic66", "t01=" + ",".join(NAMES))
            acked(svc, "t01", 1)  # the seating started the match: its message is in
            tm("send-keys", "-t", "sim", "-l", "#423")  # a result: Taras wins 3
            data = acked(svc, "t01", 2)
            wait_for("club t01: online, all acknowledged")
            tm("send-keys", "-t", "sim", "-l", "x")
            end = time.monotonic() + 10
            while tm("has-session", "-t", "sim").returncode == 0 and time.monotonic() < end:
                time.sleep(0.05)
            assert tm("has-session", "-t", "sim").returncode != 0, "x did not quit"
        finally:
            tm("kill-server")
    assert gp(data) == {"Olena": 0, "Taras": 3}
    assert data["rounds"]["1"][0]["names"] == NAMES
    assert os.path.isdir(flash / "outbox")  # the outbox beside the match, on the flash


def sim(flash, club, keys):
    env = dict(os.environ, MICROPYPATH=":".join([FIRMWARE, TOOLS, ".frozen"]))
    proc = subprocess.run([MICROPYTHON, SIM, "--flash", str(flash), "--club", club,
                           "--keys", keys], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.rstrip("\n").rsplit("\n", 1)[-1]


def test_sim_without_the_broker_keeps_the_result_and_sends_it_later(broker, tmp_path):
    club = club_file(str(tmp_path), "t01", broker.port, "pw-t01")
    flash = tmp_path / "flash"
    db = str(tmp_path / "night.sqlite")
    with ServiceThread(db, broker.port) as svc:
        director(broker, tmp_path, "seat", "1", "classic66", "t01=" + ",".join(NAMES))
        assert sim(flash, club, "..") == "club t01: online, all acknowledged"
        acked(svc, "t01", 1)
    broker.kill()
    said = sim(flash, club, "#412.")  # Olena wins 2, no broker: kept on the flash
    assert said.startswith("club t01: offline") and said.endswith("1 waiting for the ack")
    broker.start()
    with ServiceThread(db, broker.port) as svc:
        assert sim(flash, club, "...") == "club t01: online, all acknowledged"
        data = acked(svc, "t01", 2)
    assert gp(data) == {"Olena": 2, "Taras": 0}


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, None, b""


@pytest.fixture(scope="module")
def table_page(tmp_path_factory):
    from club import tablepage

    return tablepage.build(str(tmp_path_factory.mktemp("table")))


def test_the_service_serves_the_table_page_and_nothing_else(broker, tmp_path, table_page):
    db = str(tmp_path / "night.sqlite")
    with ServiceThread(db, broker.port, http=True) as svc:
        svc.svc.table_page = table_page
        base = "http://127.0.0.1:%d" % svc.http.server_address[1]
        status, ctype, body = get(base + "/table/")
        assert status == 200 and ctype.startswith("text/html") and b"clubcfg.js" in body
        with open(os.path.join(table_page, "index.html"), "rb") as f:
            assert body == f.read()
        assert get(base + "/table/page.js")[:2] == (200, "text/javascript")
        assert get(base + "/table/micropython.wasm")[:2] == (200, "application/wasm")
        assert get(base + "/table")[0] == 200  # redirected to /table/
        for path in ("/table/../club/service.py", "/table/%2e%2e/README.md",
                     "/table/nothing.js", "/table/.hidden"):
            assert get(base + path)[0] == 404, path
        status, ctype, body = get(base + "/")  # the standings page is still there
        assert status == 200 and b"clubcfg.js" not in body


@pytest.mark.skipif(browser.missing() is not None, reason=browser.missing() or "")
def test_a_table_card_opens_the_served_page_as_its_table(broker, tmp_path, table_page):
    from test_web_club import STATUS, all_acked, club_when, until

    from club import tablecards

    db = str(tmp_path / "night.sqlite")
    (tmp_path / "t01.pw").write_text("pw-t01\n")
    with ServiceThread(db, broker.port, http=True) as svc:
        # seat is a request the service answers: it runs once the service is up
        director(broker, tmp_path, "seat", "1", "classic66", "t01=" + ",".join(NAMES))
        svc.svc.table_page = table_page
        page = "http://127.0.0.1:%d/table/" % svc.http.server_address[1]
        out = tmp_path / "cards.html"
        made = tablecards.run(argparse.Namespace(
            page=page, ws="ws://127.0.0.1:%d" % broker.ws_port, passwords=str(tmp_path),
            out=str(out), tables=["t01"]))
        assert [t for t, _url in made] == ["t01"]
        url = made[0][1]
        assert url.startswith(page + "#broker=ws://127.0.0.1:%d&table=t01&password=" %
                              broker.ws_port)
        got = browser.drive(url, [
            {"do": "open"},
            until("JSON.stringify(window.s66.state().names) === %s" % json.dumps(
                json.dumps(NAMES))),
            {"do": "type", "keys": "#423"},
            club_when(all_acked(2)), STATUS,
            {"do": "eval", "js": "[location.pathname, location.hash]"}])
        assert got["failed"] is None, got["failed"]
        assert got["errors"] == [] and got["foreign"] == []
        info, status, where = got["results"][-3:]
        assert info and info["acked"] == 2, got["results"]
        data = acked(svc, "t01", 2)
    assert status == "club t01: online, all acknowledged"
    assert where == ["/table/", ""]  # the settings kept inside, gone from the address bar
    assert gp(data) == {"Olena": 0, "Taras": 3}
    sheet = out.read_text()
    assert sheet.count('<div class="card">') == 1 and "<h2>t01</h2>" in sheet
    assert "pw-t01" not in sheet  # the password is only inside the code...
    import segno

    assert segno.make(url, error="m").svg_inline(scale=4, border=2) in sheet  # ...of this URL
