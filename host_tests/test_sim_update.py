"""The simulator takes updates as a board does (issue 45, finding 8), and says what is
wrong with its options in one line (issue 46, finding 7).

- docs/boards.md's update rehearsal, run as written by sim_update_rehearsal.py (a copy of
  the checkout, a network namespace of its own where the docs' port 1883 is free, real
  Mosquitto from venue.conf, the service, three `make sim` tables in terminals of their
  own, the director, club.fleet with a bundle signed by the rehearsal's own key): each
  table's flash folder holds the new slot and its record, the checkout's root gets no fw/,
  t03 (mid-match when the offer comes) takes nothing until its match is over, and each
  table says, after its restart, the version it runs from its slot; club.fleet ends 0.
- A scripted table over a real Mosquitto: the update lands in its --flash folder, the
  restart boots the slot's modules, a later run boots it again, and a version that fails
  its trial boots restarts the board and goes back (main.py's boot path).
- Bad options and paths: one line saying what to do, exit status 2, nothing made.
"""

import json
import os
import subprocess

import fleet
import pytest
from clubkit import need_broker
from conftest import FIRMWARE, MICROPYTHON, ROOT, TOOLS
from test_club_docs import namespace_missing

HERE = os.path.dirname(os.path.abspath(__file__))
REHEARSAL = os.path.join(HERE, "sim_update_rehearsal.py")
PYTHON = os.path.join(ROOT, ".venv", "bin", "python")
SIM = os.path.join(TOOLS, "sim.py")
KEY = bytes(range(32))
TABLES = ("t01", "t02", "t03")


@pytest.fixture(scope="module")
def rehearsal(tmp_path_factory):
    need_broker()
    why = namespace_missing()
    if why:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    from test_docs_recipes import _checkout_copy

    top = tmp_path_factory.mktemp("update-rehearsal")
    copy = str(top / "checkout")
    _checkout_copy(copy)
    out = str(top / "report.json")
    proc = subprocess.run(["unshare", "-rn", PYTHON, REHEARSAL, "--inside", copy, out],
                          capture_output=True, timeout=1500)
    assert os.path.exists(out), proc.stderr.decode()[-3000:]
    with open(out) as f:
        report = json.load(f)
    assert "error" not in report, "%s\n%s" % (report["error"], json.dumps(
        report.get("terminals"), indent=1))
    return report


def test_the_docs_update_rehearsal_ends_with_each_table_running_the_new_version(rehearsal):
    version = rehearsal["version"]
    assert rehearsal["files"][0] == 0
    assert rehearsal["first"] == {t: True for t in TABLES}  # each began on the base
    assert rehearsal["seat"][0] == 0
    # t03 had its match under way: the offer was only kept, nothing written or said.
    mid = rehearsal["t03_mid_match"]
    assert mid["flash"]["fw"] is None and mid["fleet_said_t03"] == [] and not mid["panel"]
    for t in TABLES:
        got = rehearsal["tables"][t]
        assert "wiring.mpy" in got["slot_a"] and "ui" in got["slot_a"], (t, got)
        assert got["boot"]["slot"] == "a" and got["boot"]["ver"] == version, (t, got)
        assert got["boot"]["ok"] == 1, (t, got)  # confirmed after its first key
        # The panel's line is read from the modules loaded: the slot's code runs.
        assert "firmware %d (fw/a)" % version in rehearsal["panels"][t], t
        assert "%s: runs version %d" % (t, version) in rehearsal["fleet"], t
    # Nothing of an update in the checkout's root (the folder every table started in).
    assert "fw" not in rehearsal["root_after"]
    assert rehearsal["fleet_status"] == 0, rehearsal["fleet"]
    assert rehearsal["broker_up"] and rehearsal["service_up"]


# ---- a scripted table over a real Mosquitto ----


@pytest.fixture(scope="module")
def firmware_files(tmp_path_factory):
    import deploy

    out = tmp_path_factory.mktemp("fw")
    return deploy.build(str(out / "build"), march=None), out


def bundle(firmware_files, version, files=None):
    files = dict(firmware_files[0], **(files or {}))
    path = str(firmware_files[1] / ("v%d.s66fw" % version))
    with open(path, "wb") as f:
        f.write(fleet.pack(files, version, KEY))
    return path


def sim(cwd, args, timeout=120):
    """tools/sim.py run as `make sim` runs it: the module path relative to the checkout's
    root, the process in another folder (cwd) where --flash is given relative to it."""
    env = dict(os.environ, MICROPYPATH=":".join([FIRMWARE, TOOLS]))
    return subprocess.run([MICROPYTHON, SIM] + args, cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def offered(tmp_path, path, tables):
    """A broker with the tables' and the fleet's logins, the bundle offered: (broker, Fleet,
    what it said)."""
    import mosquitto

    from club import broker as club_broker
    from club.fleet import Fleet

    users = {"fleet": "fleet-pw"}
    users.update({t: "pw-" + t for t in tables})
    b = mosquitto.Broker(str(tmp_path / "broker"), users=users)
    b.__enter__()
    pw = tmp_path / "fleet.pw"
    pw.write_text("fleet-pw\n")
    args = type("A", (), {"broker": "127.0.0.1:%d" % b.port, "user": "fleet",
                          "password_file": str(pw)})
    client = club_broker.connect(args, "fleet")
    said = []
    with open(path, "rb") as f:
        fl = Fleet(client, f.read(), list(tables), log=said.append)
    fl.offer()
    return b, client, said


def club_file(folder, table, port):
    path = os.path.join(folder, table + ".json")
    with open(path, "w") as f:
        json.dump({"table": table, "password": "pw-" + table, "broker": "127.0.0.1",
                   "port": port, "fleet_key": KEY.hex(), "keepalive": 5}, f)
    return path


def status_lines(proc):
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stdout.rstrip("\n").split("\n")[-2:]  # the firmware's line, the club's


def record(flash):
    with open(os.path.join(flash, "fw", "boot")) as f:
        return json.load(f)


def test_two_tables_take_the_update_into_their_own_flash_and_boot_it(
        firmware_files, tmp_path):
    need_broker()
    path = bundle(firmware_files, 700)
    work = tmp_path / "work"  # the process's folder: nothing of an update may land here
    work.mkdir()
    b, client, said = offered(tmp_path, path, ("t01", "t02"))
    try:
        for t in ("t01", "t02"):
            club = club_file(str(tmp_path), t, b.port)
            # Idle seconds: the offer, the pieces, the restart, the report after it.
            lines = status_lines(sim(str(work), ["--club", club, "--flash", "sim_" + t,
                                                 "--keys", "." * 10]))
            assert lines == ["firmware 700 (fw/a, on trial)",
                             "club %s: online, all acknowledged" % t], lines
            flash = os.path.join(str(work), "sim_" + t)
            assert "wiring.mpy" in os.listdir(os.path.join(flash, "fw", "a"))
            assert record(flash)["ver"] == 700 and record(flash)["slot"] == "a"
            # Started again: main.py's boot path runs the slot again (its second trial boot).
            lines = status_lines(sim(str(work), ["--club", club, "--flash", "sim_" + t,
                                                 "--keys", "."]))
            assert lines[0] == "firmware 700 (fw/a, on trial)"
            assert record(flash)["tries"] == 2
        assert sorted(os.listdir(str(work))) == ["sim_t01", "sim_t02"]  # no fw/ here
        for t in ("t01", "t02"):
            assert "%s: runs version 700" % t in said, said
    finally:
        client.disconnect()
        b.__exit__(None, None, None)


def test_a_version_that_fails_at_boot_restarts_the_board_and_goes_back(
        firmware_files, tmp_path):
    need_broker()
    broken = tmp_path / "wiring.mpy"
    src = tmp_path / "wiring.py"
    src.write_text("raise RuntimeError('this version never starts')\n")
    from compile_check import mpy_cross

    subprocess.run([mpy_cross(), "-o", str(broken), str(src)], check=True)
    path = bundle(firmware_files, 701, files={"wiring.mpy": str(broken)})
    work = tmp_path / "work"
    work.mkdir()
    b, client, said = offered(tmp_path, path, ("t01",))
    try:
        club = club_file(str(tmp_path), "t01", b.port)
        proc = sim(str(work), ["--club", club, "--flash", "sim_t01", "--keys", "." * 10])
        # Taken, restarted into it twice (each boot raised: machine.reset), then the base.
        lines = status_lines(proc)
        assert lines[0] == "firmware 0 (the base)", proc.stdout[-2000:]
        r = record(os.path.join(str(work), "sim_t01"))
        assert r["slot"] == "" and r["failed"] == [701], r
        assert proc.stdout.count("this version never starts") == 2
        assert any("version 701 did not start" in s for s in said), said
    finally:
        client.disconnect()
        b.__exit__(None, None, None)


# ---- options and paths ----


@pytest.mark.parametrize("args, says", [
    (["--flash", "missing/flash", "--keys", "1"],
     "--flash missing/flash: the folder missing does not exist; make it first"),
    (["--flash", "afile", "--keys", "1"], "--flash afile is a file; give a folder"),
    (["--keys-file", "nokeys.txt"], "--keys-file nokeys.txt cannot be read"),
    (["--club", "none.json", "--keys", "1"], "--club none.json cannot be read"),
    (["--club", "bad.json", "--keys", "1"], "--club bad.json is not JSON"),
    (["--club", "list.json", "--keys", "1"], '--club list.json has no "table"'),
    (["--club", "noport.json", "--keys", "1"],
     '--club noport.json: "port" must be a port number from 1 to 65535'),
    (["--club", "nobroker.json", "--keys", "1"], '--club nobroker.json: "broker" must be'),
    (["--lang", "xx", "--keys", "1"], "--lang is one of uk ru en de"),
    (["--dump", "missing/screen.txt", "--keys", "1"],
     "--dump missing/screen.txt: the folder missing does not exist; make it first"),
    (["--png", "missing/p.png", "--keys", "1"], "--png missing/p.png: the folder missing"),
    (["--texts", "missing/t.json", "--keys", "1"], "--texts missing/t.json: the folder"),
])
def test_a_bad_option_or_path_is_said_in_one_line_and_nothing_is_made(
        tmp_path, args, says):
    (tmp_path / "afile").write_text("x")
    (tmp_path / "bad.json").write_text("{")
    (tmp_path / "list.json").write_text("[1]")
    (tmp_path / "noport.json").write_text('{"table": "t01", "broker": "127.0.0.1", "port": "x"}')
    (tmp_path / "nobroker.json").write_text('{"table": "t01", "port": 1883}')
    if "--flash" not in args:
        args = ["--flash", "flash"] + args
    before = sorted(os.listdir(str(tmp_path)))
    proc = sim(str(tmp_path), args)
    err = proc.stderr
    assert proc.returncode == 2, err
    assert "Traceback" not in err and len(err.strip().split("\n")) == 1, err
    assert err.startswith("sim.py: " + says), err
    assert proc.stdout == ""
    assert sorted(os.listdir(str(tmp_path))) == before  # no flash folder made
