"""A table on a battery with WiFi up only to send (club.json "connect": "to_send",
net/clubsend.py; issue 45, finding 9): the board booted as a board boots it, the real
loop.run() in real time on the unix port and the 32-bit runtime (tools/club_battery.py:
the fake machine, a WLAN whose power is counted), against a real Mosquitto from the
project's venue.conf and the standings service. Each result reaches the standings; between
results the link is down, WiFi off and the chip light-sleeps; a result made while the
broker is away is sent at a later session; a seating and an update's offer retained on the
broker are heard at the next session."""

import contextlib
import json
import os
import subprocess
import time

import pytest
import runtimes
from clubkit import (
    PASSWORDS,
    ServiceThread,
    club_broker,
    expected,
    last_json,
    players,
)
from conftest import FIRMWARE, ROOT, TOOLS

FAKE_MACHINE = os.path.join(ROOT, "host_tests", "fake_machine")
DRIVER = os.path.join(TOOLS, "club_battery.py")
DIM_AT_ONCE = '{"dim_s": 1}'  # dimmed a second after a deal: the light sleeps start soon


def need(runtime):
    why = runtimes.missing(runtime)
    if why:
        pytest.skip(why)


def table(folder, port, **more):
    """A board's flash folder: the reference keypad build and a club file, to_send."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(ROOT, "boards", "devkitc-ssd1306-keypad.json")) as f:
        cfg = json.load(f)
    with open(os.path.join(folder, "board.json"), "w") as f:
        json.dump(cfg, f)
    club = {"table": "t01", "broker": "127.0.0.1", "port": port, "password": "pw-t01",
            "ssid": "club", "connect": "to_send", "keepalive": 5, "resend_s": 1}
    club.update(more)
    with open(os.path.join(folder, "club.json"), "w") as f:
        json.dump(club, f)
    return folder


def command(runtime, plan):
    return runtimes.command(runtime, [DRIVER, plan, DIM_AT_ONCE],
                            paths=[FIRMWARE, FAKE_MACHINE, TOOLS])


def play(runtime, folder, plan, timeout=180):
    argv, env = command(runtime, plan)
    proc = subprocess.run(argv, env=env, cwd=folder, capture_output=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr.decode()
    return last_json(proc.stdout)


def start(runtime, folder, plan):
    argv, env = command(runtime, plan)
    return subprocess.Popen(argv, env=env, cwd=folder, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def finish(proc, timeout=180):
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err.decode()
    return last_json(out)


def mark(folder, name, proc, timeout=120):
    """The table's state when it wrote the mark `name` (it waits for the test then)."""
    path = os.path.join(folder, name)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.exists(path):
            with open(path) as f:
                text = f.read()
            if text.endswith("}"):
                return json.loads(text)
        assert proc.poll() is None, proc.communicate()[1].decode()
        time.sleep(0.05)
    raise AssertionError("the table never reached " + name)


def go(folder, name="go"):
    with open(os.path.join(folder, name), "w") as f:
        f.write("1")


@pytest.mark.parametrize("runtime", ["mp64", "mp32"])
def test_each_result_is_sent_and_between_them_wifi_is_off(tmp_path, runtime):
    need(runtime)
    with club_broker(tmp_path, 1) as b:
        folder = table(str(tmp_path / "t01"), b.port)
        with ServiceThread(str(tmp_path / "ev.sqlite"), b.port) as svc:
            out = play(runtime, folder, "new classic66 target=30 names=Ann,Bob;deals 4 3 1;"
                       "acked 60")
            got = svc.settle({"t01": out["acked"]})
    # every result reached the standings, none waits
    assert out["deals"] == 4 and out["pending"] == 0, out
    assert out["acked"] == out["next"] - 1 >= 5, out  # the match's header and 4 deals
    assert players(got) == expected(str(tmp_path))
    # a session per result (the boot's, for the news so far, took the header and the
    # first deal), each deal made with the link down and WiFi off
    assert out["down_at_deal"] == 4, out
    assert 4 <= out["sessions"] <= 5, out
    assert out["wifi_on"] == out["wifi_off"] == out["sessions"], out
    assert out["wifi_now"] is False and out["power_wifi"] is False
    assert out["status"] == "resting"
    # each session ended once its results were acknowledged, long before its bound
    assert out["up_ms"] < out["sessions"] * 10000, out
    # between them the chip light-sleeps, never while WiFi is on
    assert out["lightsleeps"] >= 4 and out["light_with_wifi"] == 0, out


def test_a_result_made_while_the_broker_is_away_goes_at_a_later_session(tmp_path):
    need("mp64")
    with club_broker(tmp_path, 1) as b:
        folder = table(str(tmp_path / "t01"), b.port)
        b.stop()
        proc = start("mp64", folder, "new classic66 target=30 names=Ann,Bob;deals 1 1 1;"
                     "rested 60;mark away;until go 120;deals 1 1 2;acked 60")
        try:
            away = mark(folder, "away", proc)
            # the session that found no broker ended at its bound: WiFi off, the results
            # kept (on flash) for later
            assert away["pending"] == 2 and away["acked"] == 0, away
            assert away["sessions"] >= 1 and away["wifi_now"] is False, away
            assert away["power_wifi"] is False
            b.start()
            with ServiceThread(str(tmp_path / "ev.sqlite"), b.port) as svc:
                go(folder)
                out = finish(proc)
                got = svc.settle({"t01": out["acked"]})
        finally:
            if proc.poll() is None:
                proc.kill()
    assert out["pending"] == 0 and out["acked"] == 3, out  # header, the deal away, the next
    assert players(got) == expected(str(tmp_path))
    assert out["light_with_wifi"] == 0 and out["wifi_now"] is False


def test_a_seating_retained_on_the_broker_is_heard_at_the_next_session(tmp_path):
    need("mp64")
    from club import director

    with club_broker(tmp_path, 1) as b:
        folder = table(str(tmp_path / "t01"), b.port, news_s=2)
        with ServiceThread(str(tmp_path / "ev.sqlite"), b.port) as svc:
            proc = start("mp64", folder, "rested 30;mark rested;until go 60;seat 1 60;"
                         "acked 60")
            try:
                rested = mark(folder, "rested", proc)
                assert rested["sessions"] == 1 and rested["wifi_now"] is False, rested
                assert rested["names"] is None
                pw = tmp_path / "director.pw"
                pw.write_text(PASSWORDS["director"])
                a = type("A", (), {"broker": "127.0.0.1:%d" % b.port, "user": "director",
                                   "password_file": str(pw)})
                seats = director.parse_seats(["t01=Ann,Bob"])
                director.publish(a, director.seat_messages(1, "classic66", seats))
                go(folder)
                out = finish(proc)
                got = svc.settle({"t01": out["acked"]})
            finally:
                if proc.poll() is None:
                    proc.kill()
    # heard at a session for the news alone (no result waited), the match started
    assert out["seated"] == 1 and out["names"] == ["Ann", "Bob"], out
    assert out["message"] == "round 1: Ann - Bob"
    assert out["sessions"] >= 2 and out["pending"] == 0, out
    assert got["rounds"]["1"][0]["names"] == ["Ann", "Bob"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The compiled firmware's files, as deploy builds them for the host."""
    import deploy

    out = tmp_path_factory.mktemp("fw")
    return deploy.build(str(out / "build"), march=None)


def test_an_update_offered_between_sessions_is_heard_and_taken(tmp_path, built):
    """The offer is retained: the table hears it at its next session (for the news: no
    result waits), and the session stays up while the update job takes the bundle, to the
    board's restart into the new version."""
    need("mp64")
    import fleet
    from test_fleet import KEY, VERSION, record
    from test_update_safety import Night

    data = fleet.pack(built, VERSION, KEY)
    with contextlib.ExitStack() as stack:
        night = Night(stack, tmp_path, 1)
        folder = table(str(tmp_path / "t01"), night.b.port, news_s=2, fleet_key=KEY.hex())
        proc = start("mp64", folder, "rested 30;mark rested;until go 60;update 240")
        stack.callback(lambda: proc.poll() is None and proc.kill())
        rested = mark(folder, "rested", proc)
        assert rested["sessions"] == 1 and rested["wifi_now"] is False, rested
        fl = night.fleet(data, ["t01"])
        fl.offer()
        go(folder)
        out = finish(proc, timeout=300)
        assert night.state(fl, "t01", {"state": "switching"}) == {
            "version": 0, "state": "switching", "offered": VERSION}
    # taken whole in one session: WiFi was on from the offer heard to the restart
    assert out["reset"] is True and out["wifi_now"] is True, out
    assert out["wifi_on"] == out["sessions"] + 1, out
    assert out["light_with_wifi"] == 0
    r = record(folder)
    assert (r["slot"], r["ver"], r["ok"]) == ("a", VERSION, 0), r
