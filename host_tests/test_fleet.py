"""Updates over WiFi (docs/boards.md, "Updates over WiFi"): make fleet's signed bundle
(tools/fleet.py) taken by a board into its inactive slot (firmware/update/take.py), booted
from there by main.py (update/slots.py), confirmed by its first frame and key, and rolled
back when it cannot start; each kind of bad bundle refused; a power cut at every write of an
update; two simulator tables updated over a real Mosquitto (club/fleet.py, update/job.py),
one of them mid-match. On the unix port and the 32-bit runtime."""

import json
import os
import shutil
import subprocess
import time

import fleet
import pytest
from clubkit import need_broker
from conftest import FIRMWARE, ROOT, TOOLS, run_micropython

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE_MACHINE = os.path.join(HERE, "fake_machine")
KEY = bytes(range(32))
VERSION = 1000


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the compiled firmware's files, as deploy builds them for the host, and a folder)."""
    import deploy

    out = tmp_path_factory.mktemp("fw")
    files = deploy.build(str(out / "build"), march=None)
    return files, out


def bundle(built, name, version=VERSION, key=KEY, files=None):
    files = dict(built[0], **(files or {}))
    path = str(built[1] / (name + ".s66fw"))
    with open(path, "wb") as f:
        f.write(fleet.pack(files, version, key))
    return path


def board(folder):
    """A board's flash folder with a board file (the reference keypad build)."""
    os.makedirs(folder, exist_ok=True)
    shutil.copyfile(os.path.join(ROOT, "boards", "devkitc-ssd1306-keypad.json"),
                    os.path.join(folder, "board.json"))
    return folder


def take(run, folder, path, free=1 << 20, key=KEY):
    proc = run([os.path.join(ROOT, "tools", "fleet_take.py"), folder, path, key.hex(), str(free)],
               paths=[FIRMWARE], heapsize="2m")
    assert proc.returncode == 0, proc.stderr.decode()
    return json.loads(proc.stdout.decode().splitlines()[-1])


def record(folder):
    try:
        with open(os.path.join(folder, "fw", "boot")) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


# A boot as main.py does it, on the fake machine; the 5th poll of the keys is a key press.
BOOT = """
import json, sys
import main
import hw.keys as K
polls = [0]
_poll = K.Source.poll
def poll(self, now):
    polls[0] += 1
    return ("1", K.PRESS) if polls[0] == 5 else _poll(self, now)
K.Source.poll = poll
app = main.run(%s)
print(json.dumps({"loop": sys.modules["loop"].__file__, "path": sys.path[0]}))
"""
# A trial version is confirmed after its first key and CONFIRM_MS more of running
# (update/boot.py): a boot that runs this long after the key at the 5th poll.
CONFIRMING = 6


def boot(run, folder, loops=10, seconds=None, stderr=None):
    """(exit code, the JSON the boot printed or None); stderr: a list the boot's stderr
    lines are added to (a reset says "machine.reset" there)."""
    args = "seconds=%d" % seconds if seconds else "loops=%d" % loops
    proc = run(["-c", BOOT % args], cwd=folder, paths=[FIRMWARE, FAKE_MACHINE], timeout=90)
    if stderr is not None:
        stderr.extend(proc.stderr.decode().splitlines())
    out = proc.stdout.decode().splitlines()
    return proc.returncode, (json.loads(out[-1]) if out and out[-1].startswith("{") else None)


def test_taken_booted_and_confirmed(unix_port, built, tmp_path):
    folder = board(str(tmp_path / "board"))
    got = take(unix_port, folder, bundle(built, "good"))
    assert got.get("ok") == 1, got
    assert record(folder) == {"slot": "a", "ver": VERSION, "prev": "", "pver": 0,
                              "tries": 0, "ok": 0}
    # A first boot that stops before any key: a try, not yet confirmed.
    code, out = boot(unix_port, folder, loops=2)
    assert code == 0 and out["loop"].startswith("fw/a/"), out
    assert record(folder)["tries"] == 1 and record(folder)["ok"] == 0
    code, out = boot(unix_port, folder, seconds=CONFIRMING)  # a key and running on: confirmed
    assert code == 0 and out["path"] == "fw/a"
    assert record(folder)["ok"] == 1
    # The next version goes to the other slot, and the confirmed one is its way back.
    got = take(unix_port, folder, bundle(built, "next", VERSION + 1))
    assert got.get("ok") == 1, got
    r = record(folder)
    assert (r["slot"], r["prev"], r["pver"]) == ("b", "a", VERSION)
    code, out = boot(unix_port, folder, seconds=CONFIRMING)
    assert code == 0 and out["path"] == "fw/b" and record(folder)["ok"] == 1


def test_a_version_that_does_not_start_is_rolled_back(unix_port, built, tmp_path):
    broken = tmp_path / "loop.mpy"
    src = tmp_path / "loop.py"
    src.write_text("raise RuntimeError('this version never starts')\n")
    from compile_check import mpy_cross

    subprocess.run([mpy_cross(), "-o", str(broken), str(src)], check=True)
    folder = board(str(tmp_path / "board"))
    got = take(unix_port, folder, bundle(built, "broken", files={"loop.mpy": str(broken)}))
    assert got.get("ok") == 1, got
    for tries in (1, 2):  # two boots that raise at an import: each restarts the board...
        err = []
        code, out = boot(unix_port, folder, stderr=err)
        assert out is None and "machine.reset" in err, err
        assert record(folder)["tries"] == tries and not record(folder)["ok"]
    code, out = boot(unix_port, folder)  # ...and the third runs the previous one again
    assert code == 0 and out["path"] != "fw/a" and not out["loop"].startswith("fw/")
    assert record(folder) == {"slot": "", "ver": 0, "ok": 1, "back": VERSION,
                              "failed": [VERSION]}
    # The offer stays on the broker: the version that failed here is not taken again.
    assert take(unix_port, folder, bundle(built, "broken")).get("why") == "failed"
    assert record(folder)["slot"] == "" and boot(unix_port, folder)[0] == 0


def test_a_version_that_fails_on_its_first_key_is_rolled_back_with_no_one_there(
        unix_port, built, tmp_path):
    # Issue 45, finding 3: its first frame set the trial count back to 0, the first key
    # raised, ok was never set: never rolled back, and only USB brought the table back.
    from compile_check import mpy_cross

    src = tmp_path / "keymap.py"
    with open(os.path.join(FIRMWARE, "ui", "keymap.py")) as f:
        text = f.read()
    # This version's keys raise: the key map's first line raises.
    text = text.replace("def action(layout, name, long, mode):\n",
                        "def action(layout, name, long, mode):\n    raise RuntimeError('bad')\n",
                        1)
    assert "raise RuntimeError('bad')" in text
    src.write_text(text)
    broken = tmp_path / "keymap.mpy"
    subprocess.run([mpy_cross(), "-o", str(broken), str(src)], check=True)
    folder = board(str(tmp_path / "board"))
    got = take(unix_port, folder, bundle(built, "keyfails", files={"ui/keymap.mpy": str(broken)}))
    assert got.get("ok") == 1, got
    code, out = boot(unix_port, folder, loops=2)  # its frame draws: no key yet
    assert code == 0 and out["path"] == "fw/a" and record(folder)["tries"] == 1
    err = []
    code, out = boot(unix_port, folder, stderr=err)  # its first key raises: a reset at once
    assert out is None and "machine.reset" in err, err
    assert record(folder)["tries"] == 2 and not record(folder)["ok"]
    code, out = boot(unix_port, folder, seconds=CONFIRMING)  # the previous version again
    assert code == 0 and out["path"] != "fw/a" and not out["loop"].startswith("fw/"), out
    r = record(folder)
    assert (r["slot"], r["ok"], r["back"]) == ("", 1, VERSION)
    # ...and a newer good version is then taken (not refused as "busy") and confirmed.
    assert take(unix_port, folder, bundle(built, "after", VERSION + 1)).get("ok") == 1
    code, out = boot(unix_port, folder, seconds=CONFIRMING)
    assert code == 0 and out["path"] == "fw/a" and record(folder)["ok"] == 1


def flip(path, at):
    with open(path, "r+b") as f:
        f.seek(at)
        b = f.read(1)
        f.seek(at)
        f.write(bytes((b[0] ^ 1,)))


@pytest.mark.parametrize("kind", ["signature", "hash", "manifest", "older", "space",
                                  "short", "garbage"])
def test_a_bad_bundle_is_refused(unix_port, built, tmp_path, kind):
    folder = board(str(tmp_path / "board"))
    path = bundle(built, kind)
    free = 1 << 20
    with open(path, "rb") as f:
        data = f.read()
    head = data.index(b"\n") + 1
    if kind == "signature":
        path = bundle(built, kind, key=bytes(32))
    elif kind == "hash":
        flip(path, len(data) - 100)  # a byte of the last file
    elif kind == "manifest":  # a file's line changed, with a body to match it
        line_end = data.index(b"\n", head)
        name = data[head:line_end].split()[0]
        fake = b"x" * 10
        import hashlib

        line = b"%s %d %s" % (name, len(fake), hashlib.sha256(fake).hexdigest().encode())
        size = int(data[head:line_end].split()[1])
        with open(path, "wb") as f:
            f.write(data[:head] + line + b"\n" + fake + data[line_end + 1 + size:])
    elif kind == "older":
        assert take(unix_port, folder, path).get("ok") == 1
        assert boot(unix_port, folder, seconds=CONFIRMING)[0] == 0 and record(folder)["ok"] == 1
        path = bundle(built, kind, VERSION - 1)
    elif kind == "space":
        free = sum(os.path.getsize(p) for p in built[0].values()) // 2
    elif kind == "short":
        with open(path, "wb") as f:
            f.write(data[:-1])
    elif kind == "garbage":
        with open(path, "wb") as f:
            f.write(b"GET / HTTP/1.0\n\n" + data)
    before = record(folder)
    got = take(unix_port, folder, path, free=free)
    want = {"manifest": "hash", "short": "format", "garbage": "format"}.get(kind, kind)
    assert got.get("why") == want, got
    assert record(folder) == before  # the board boots what it ran before


def test_a_power_cut_at_every_write_of_an_update(unix_port, built):
    path = bundle(built, "cuts")
    proc = unix_port([os.path.join(HERE, "mp_fleet_cuts.py"), path, KEY.hex()],
                     paths=[FIRMWARE, HERE, TOOLS], heapsize="16m", timeout=600)
    assert proc.returncode == 0, proc.stderr.decode()
    got = json.loads(proc.stdout.decode().splitlines()[-1])
    assert got["failures"] == [] and got["cuts"] == got["points"] > 500, got
    assert got["old"] and got["new"], got  # cuts before the switch, and after it
    assert got["back_cuts"] >= 3, got  # the going back's write, close and rename


# ---- over a real Mosquitto ----

def fleet_table(folder, table, port, key, plan, runtime):
    import runtimes

    os.makedirs(folder, exist_ok=True)
    cfg = {"table": table, "broker": "127.0.0.1", "port": port, "resend_s": 1,
           "keepalive": 5, "password": "pw-" + table}
    if key is not None:
        cfg["fleet_key"] = key.hex()
    club = os.path.join(os.path.dirname(folder), table + ".club.json")
    with open(club, "w") as f:
        json.dump(cfg, f)
    argv, env = runtimes.command(runtime, [os.path.join(HERE, "mp_fleet_table.py"), folder,
                                           club, plan], paths=[FIRMWARE, HERE, TOOLS])
    return subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def lines(proc, timeout=180):
    out, err = proc.communicate(timeout=timeout)
    got = [json.loads(x) for x in out.decode().splitlines() if x.startswith("{")]
    return proc.returncode, got, err.decode()


@pytest.mark.parametrize("runtime", ["mp64", "mp32"])
def test_two_tables_updated_over_the_broker_one_after_its_match(runtime, built, tmp_path):
    need_broker()
    import mosquitto
    from clubkit import PASSWORDS, ServiceThread

    from club import broker as club_broker
    from club.fleet import Fleet

    users = dict(PASSWORDS, fleet="fleet-pw", t01="pw-t01", t02="pw-t02", t03="pw-t03",
                 t04="pw-t04", t05="pw-t05", t06="pw-t06")
    path = bundle(built, "night")
    with open(path, "rb") as f:
        data = f.read()
    pw = tmp_path / "fleet.pw"
    pw.write_text("fleet-pw\n")
    said = []
    with mosquitto.Broker(str(tmp_path / "broker"), users=users) as b, \
            ServiceThread(str(tmp_path / "night.sqlite"), b.port) as svc:
        args = type("A", (), {"broker": "127.0.0.1:%d" % b.port, "user": "fleet",
                              "password_file": str(pw)})
        client = club_broker.connect(args, "fleet")
        try:
            fl = Fleet(client, data, ["t01", "t02", "t03", "t04", "t05"], log=said.append)
            fl.offer()
            boards = {t: board(str(tmp_path / t))
                      for t in ("t01", "t02", "t03", "t04", "t05", "t06")}
            # t05 runs a newer version already (taken over WiFi before).
            os.makedirs(os.path.join(boards["t05"], "fw"))
            with open(os.path.join(boards["t05"], "fw", "boot"), "w") as f:
                json.dump({"slot": "", "ver": VERSION + 1, "ok": 1}, f)
            # t02 is mid-match when the offer comes: it looks, then finishes its match.
            busy = fleet_table(boards["t02"], "t02", b.port, KEY,
                               "new classic66 names=Ann,Bob;deals 2 3;poll 1500;look;"
                               "poll 1500;look;play 3;update 90", runtime)
            free = fleet_table(boards["t01"], "t01", b.port, KEY, "update 90", runtime)
            # t04 is free when the offer comes, and a match starts there mid-update.
            late = fleet_table(boards["t04"], "t04", b.port, KEY,
                               "taking 30 60;begin classic66 names=Cy,Di;look;"
                               "play 5;update 90", runtime)
            wrong = fleet_table(boards["t03"], "t03", b.port, bytes(32), "poll 3000",
                                runtime)
            newer = fleet_table(boards["t05"], "t05", b.port, KEY, "poll 3000", runtime)
            # t06's club.json has no key: it takes no part, though an offer waits for it.
            client.publish("club/t06/fw/offer", json.dumps(
                {"version": VERSION, "size": len(data), "chunk": 2048}), qos=1, retain=True)
            nokey = fleet_table(boards["t06"], "t06", b.port, None, "poll 3000;look", runtime)
            code1, out1, err1 = lines(free)
            code2, out2, err2 = lines(busy)
            code3, out3, err3 = lines(wrong)
            code4, out4, err4 = lines(late)
            code6, out6, err6 = lines(nokey)
            assert code6 == 0 and out6[0]["look"]["offer"] is False, (out6, err6)
            assert out6[-1]["loaded"] == [] and record(boards["t06"]) is None
            assert [x for x in out6[-1]["said"] if x.startswith("club fw")] == []  # unheard
            code5, out5, err5 = lines(newer)
            assert code5 == 0 and "club fw older version" in out5[-1]["said"], (out5, err5)
            assert out5[-1]["loaded"] == []
            assert code4 == 4, (out4, err4)
            look = [o["look"] for o in out4 if "look" in o]
            # The match stopped the update, unswitched; the offer waited for the match's end.
            assert look == [dict(look[0], stage=1, offer=True, fw=True, record=False)], look
            # (the tenths shown fall where the bundle's size puts its pieces: 20%, 21%...)
            assert any(x.startswith("club fw 2") for x in look[0]["said"])
            assert out4[-1]["stage"] == 2
            assert code1 == 4 and out1[-1]["reset"] == 1, err1
            assert "club fw restart" in out1[-1]["said"]
            assert code2 == 4, (out2, err2)
            looks = [o["look"] for o in out2 if "look" in o]
            # The offer waited, unwritten, while the match was under way.
            assert looks and all(lk["stage"] == 1 and lk["offer"] and not lk["fw"]
                                 for lk in looks), looks
            assert out2[-1]["reset"] == 1 and out2[-1]["stage"] == 2  # taken after its end
            assert code3 == 0 and "club fw bad signature" in out3[-1]["said"], (out3, err3)
            assert out3[-1]["loaded"] == []  # the update's code left the heap with the job
            for t in ("t01", "t02", "t04"):
                assert record(boards[t])["slot"] == "a" and record(boards[t])["ver"] == VERSION
            assert record(boards["t03"]) is None
            # The tables restart into the new version: it runs, from its slot, and its match
            # is the one it had; the next time they hear the offer they report the version.
            code, out = boot(run_micropython_on(runtime), boards["t02"])
            assert code == 0 and out["path"] == "fw/a", out
            for t in ("t01", "t02", "t04"):
                code, out, err = lines(fleet_table(boards[t], t, b.port, KEY, "poll 1500",
                                                   runtime))
                assert code == 0 and out[-1]["loaded"] == [], (out, err)
            assert fl.wait(30), fl.states
            assert fl.states["t01"]["version"] == fl.states["t02"]["version"] == VERSION
            assert fl.states["t03"] == {"version": 0, "state": "refused", "why": "signature",
                                        "offered": VERSION}
            assert any("t03: runs version 0, refused version %d: signature" % VERSION in s
                       for s in said), said
            # The director's page lists each table's version (the service heard the states).
            from club import directorpage

            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                page = directorpage.state(svc.svc)["firmware"]
                if [f["version"] for f in page] == [VERSION, VERSION, 0, VERSION,
                                                    VERSION + 1]:
                    break
                time.sleep(0.05)
            assert [(f["table"], f["version"], f["state"]) for f in page] == [
                ("t01", VERSION, "running"), ("t02", VERSION, "running"),
                ("t03", 0, "refused"), ("t04", VERSION, "running"),
                ("t05", VERSION + 1, "refused")], page
            assert page[4]["why"] == "older" and page[2]["why"] == "signature"
        finally:
            client.loop_stop()
            client.disconnect()


def run_micropython_on(runtime):
    def run(args, **kw):
        return run_micropython(args, runtime=runtime, **kw)

    return run


def test_the_fleet_command_says_what_is_wrong(tmp_path, capsys):
    from club import fleet as club_fleet

    notone = tmp_path / "x.s66fw"
    notone.write_bytes(b"S66FW1\n12\n{}")  # not this format
    assert club_fleet.main([str(notone), "--tables", "t01"]) == 2
    assert "not a firmware bundle" in capsys.readouterr().err
    assert club_fleet.main([str(tmp_path / "none"), "--tables", "t01"]) == 2
    good = tmp_path / "good.s66fw"
    good.write_bytes(fleet.pack({}, 7, KEY))
    assert club_fleet.bundle_version(good.read_bytes()) == 7
    port = __import__("mosquitto").free_port()  # nobody listens there
    assert club_fleet.main([str(good), "--tables", "t01", "--broker",
                            "127.0.0.1:%d" % port]) == 3
    assert "cannot reach the broker" in capsys.readouterr().err


def test_make_fleet_signs_what_deploy_builds(tmp_path):
    key = tmp_path / "club.key"
    assert fleet.main(["--new-key", str(key)]) == 0
    assert fleet.main(["--new-key", str(key)]) == 2  # an existing key stays
    out = tmp_path / "b.s66fw"
    assert fleet.main(["--key", str(key), "--version", "12", "--host", "--out", str(out)]) == 0
    data = out.read_bytes()
    head = data[:data.index(b"\n")].split()
    assert head[:2] == [b"S66FW2", b"12"] and int(head[2]) > 50  # every compiled file
    from update.sign import hmac_sha256

    signed = data[:data.index(b"\n")].rpartition(b" ")[0]
    assert hmac_sha256(fleet.read_key(str(key)), signed).hex().encode() == head[5]
    paths = []
    at = data.index(b"\n") + 1
    while at < len(data):  # each file's line, then its bytes
        nl = data.index(b"\n", at)
        path, size, _sha = data[at:nl].split()
        paths.append(path.decode())
        at = nl + 1 + int(size)
    assert len(paths) == int(head[2]) and "loop.mpy" in paths and "update/take.mpy" in paths
    assert "main.py" not in paths  # main.py stays the one USB put there


def test_every_update_message_is_under_the_venue_brokers_limit():
    import re

    from club import fleet as club_fleet

    with open(os.path.join(ROOT, "club", "mosquitto", "venue.conf")) as f:
        limit = int(re.search(r"(?m)^message_size_limit (\d+)", f.read()).group(1))
    # The fleet's pieces, and the largest a table accepts (update/job.py), with their head.
    head = b"%d %d\n" % (1 << 30, 1 << 30)
    assert club_fleet.CHUNK + len(head) < 4096 + len(head) < limit
