"""The board's own start-up (start.run, the unix port with the fake machine): the club code
is loaded only with "wifi" in the board file and a club.json beside it; with both, the
director's seating starts the match, its result is acked and the scoreboard shows the mark."""

import json
import os
import types

import mosquitto
import pytest
from clubkit import PASSWORDS, ServiceThread, club_file, need_broker, table_passwords
from conftest import FIRMWARE, ROOT, run_micropython

FAKE_MACHINE = os.path.join(ROOT, "host_tests", "fake_machine")
BOOT = """
import sys, main
app = main.run(seconds=%s)
st = app.match.state
print(json.dumps({"net": "net.clublink" in sys.modules, "mark": app.club_mark,
  "names": list(st.names) if st else None, "message": app.message,
  "pixels": [app.fb.pixel(127, y) for y in range(9)]}))
"""


def board(tmp_path, wifi):
    with open(os.path.join(ROOT, "boards", "devkitc-ssd1306-keypad.json")) as f:
        cfg = json.load(f)
    cfg["wifi"] = wifi
    (tmp_path / "board.json").write_text(json.dumps(cfg))


def boot(tmp_path, seconds):
    code = "import json\n" + BOOT % seconds
    proc = run_micropython(["-c", code], cwd=str(tmp_path), paths=[FIRMWARE, FAKE_MACHINE],
                           timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    return json.loads(proc.stdout.decode().splitlines()[-1])


@pytest.mark.parametrize("wifi,club", [(False, True), (True, False)])
def test_no_club_no_network_code(tmp_path, wifi, club):
    board(tmp_path, wifi)
    if club:
        club_file(str(tmp_path), "t01", 1)
        os.rename(tmp_path / "t01.club.json", tmp_path / "club.json")
    out = boot(tmp_path, 0.2)
    assert out["net"] is False and out["mark"] == 0


def test_a_bad_club_file_is_said_and_the_table_plays_on(tmp_path):
    board(tmp_path, True)
    (tmp_path / "club.json").write_text('{"broker": "127.0.0.1"}')  # no table id
    out = boot(tmp_path, 0.2)
    assert out["message"] == "club.json: bad" and out["mark"] == 0


def test_seated_by_the_director_and_acked(tmp_path):
    need_broker()
    from club import director

    users = dict(PASSWORDS, **table_passwords(1))
    with mosquitto.Broker(str(tmp_path / "broker"), users=users) as b:
        board(tmp_path, True)
        club_file(str(tmp_path), "t01", b.port, "pw-t01")
        os.rename(tmp_path / "t01.club.json", tmp_path / "club.json")
        pw = tmp_path / "director.pw"
        pw.write_text(PASSWORDS["director"])
        a = types.SimpleNamespace(broker="127.0.0.1:%d" % b.port, user="director",
                                  password_file=str(pw))
        seats = director.parse_seats(["t01=Ann,Bob"])
        director.publish(a, director.seat_messages(1, "classic66", seats))
        with ServiceThread(str(tmp_path / "ev.sqlite"), b.port) as svc:
            out = boot(tmp_path, 3)
            got = svc.settle({"t01": 1})
    assert out["net"] is True and out["names"] == ["Ann", "Bob"]
    assert out["message"] == "round 1: Ann - Bob"
    assert out["mark"] == 2 and out["pixels"] == [1] * 9  # the solid bar: all acked
    assert got["rounds"]["1"][0]["names"] == ["Ann", "Bob"]
