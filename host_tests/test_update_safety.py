"""The update path only ever refuses (issue 45): whatever a bundle after the club's signed
head or an offer holds ends in a refusal with a code, reported on fw/state and shown on the
panel, never in an exception that crashes the table; a refused offer is kept, so the same
retained offer does not start the job again at every boot. On the unix port and the 32-bit
runtime, over a real Mosquitto where a table's link matters."""

import hashlib
import json
import os
import subprocess
import time

import fleet
import pytest
from clubkit import need_broker
from test_fleet import KEY, VERSION, board, fleet_table, lines, record, take


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    import deploy

    out = tmp_path_factory.mktemp("fw")
    return deploy.build(str(out / "build"), march=None), out


def packed(built, version=VERSION):
    return fleet.pack(built[0], version, KEY)


def split(data):
    """(head line with its newline, [(file line, its bytes)])."""
    at = data.index(b"\n") + 1
    head, files = data[:at], []
    while at < len(data):
        nl = data.index(b"\n", at)
        size = int(data[at:nl].split()[1])
        files.append((data[at:nl], data[nl + 1:nl + 1 + size]))
        at = nl + 1 + size
    return head, files


def line(path, body):
    return b"%s %d %s" % (path, len(body), hashlib.sha256(body).hexdigest().encode())


def not_utf8(data):
    """The club's signed head, then a file line that is not UTF-8."""
    at = data.index(b"\n") + 1
    return data[:at] + line(b"\xff\xfeloop.mpy", b"x") + b"\nx" + data[at:]


def after_head(rest):
    """{case: (the bytes after a correctly signed head, the code)}; rest: the bundle's own."""
    good = b"x" * 10
    return {
        "not utf-8": (line(b"\xff\xfeloop.mpy", good) + b"\n" + good + rest, "format"),
        "not utf-8 hash": (b"loop.mpy 10 " + b"\xe9" * 64 + b"\n" + good, "format"),
        "a letter in the size": (b"loop.mpy 1x " + b"0" * 64 + b"\n", "format"),
        "a negative size": (b"loop.mpy -1 " + b"0" * 64 + b"\n", "format"),
        "an empty name": (line(b"a//b.mpy", good) + b"\n" + good, "format"),
        "a file where a folder goes": (line(b"x", good) + b"\n" + good
                                       + line(b"x/y", good) + b"\n" + good, "format"),
        "a folder where a file goes": (line(b"x/y", good) + b"\n" + good
                                       + line(b"x", good) + b"\n" + good, "format"),
        "a space in a name": (b"lo op.mpy 10 " + b"0" * 64 + b"\n", "format"),
    }


CASES = sorted(after_head(b""))


@pytest.mark.parametrize("case", CASES)
def test_a_bundle_after_a_signed_head_is_refused_never_raised(unix_port, built, tmp_path,
                                                               case):
    data = packed(built)
    head = data[:data.index(b"\n") + 1]
    rest, why = after_head(data[len(head):])[case]
    path = tmp_path / "b.s66fw"
    path.write_bytes(head + rest)
    folder = board(str(tmp_path / "board"))
    got = take(unix_port, folder, str(path))  # asserts the take exits 0: no exception
    assert got.get("why") == why, got
    assert record(folder) is None


# ---- over a real Mosquitto: the offer, the report, the panel, the next boot ----

BAD_OFFERS = {  # table: (offer, "offered" in the report or None)
    "t01": (b"not an offer", None),
    "t02": (json.dumps({"version": VERSION, "size": 0, "chunk": 2048}).encode(), VERSION),
    "t03": (json.dumps({"version": VERSION, "size": -5, "chunk": 2048}).encode(), VERSION),
    "t04": (json.dumps({"version": str(VERSION), "size": 10, "chunk": 2048}).encode(), None),
    "t05": (json.dumps({"version": VERSION, "size": 100}).encode(), VERSION),
    "t06": (json.dumps([VERSION, 100, 2048]).encode(), None),
    "t07": (json.dumps({"version": VERSION, "size": 1.5, "chunk": {}}).encode(), VERSION),
}


class Night:
    """The broker, the club's fleet login and a client that hears every table's fw/state."""

    def __init__(self, stack, tmp_path, tables):
        import mosquitto

        from club import broker as club_broker

        users = {"fleet": "fleet-pw"}
        users.update(("t%02d" % i, "pw-t%02d" % i) for i in range(1, tables + 1))
        self.b = stack.enter_context(mosquitto.Broker(str(tmp_path / "broker"), users=users))
        pw = tmp_path / "fleet.pw"
        pw.write_text("fleet-pw\n")
        args = type("A", (), {"broker": "127.0.0.1:%d" % self.b.port, "user": "fleet",
                              "password_file": str(pw)})
        self.client = club_broker.connect(args, "fleet")
        stack.callback(self.client.disconnect)
        stack.callback(self.client.loop_stop)
        self.fleets = []

    def fleet(self, data, tables, alone=False):
        """A club.fleet for these tables (alone: it replaces those before, which hear no
        more); the client's messages go to each."""
        from club.fleet import Fleet

        fl = Fleet(self.client, data, tables, log=lambda s: None)
        if alone:
            self.fleets = []
        self.fleets.append(fl)
        fleets = self.fleets

        def each(*a):
            for f in fleets:
                f._on_message(*a)

        self.client.on_message = each
        return fl

    def state(self, fl, table, want, timeout=15):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            s = fl.states.get(table)
            if s is not None and all(s.get(k) == v for k, v in want.items()):
                return s
            time.sleep(0.05)
        return fl.states.get(table)


@pytest.mark.parametrize("runtime", ["mp64", "mp32"])
def test_a_bad_offer_is_refused_reported_and_not_taken_again(runtime, built, tmp_path):
    need_broker()
    import contextlib

    with contextlib.ExitStack() as stack:
        night = Night(stack, tmp_path, 8)
        port = night.b.port
        # The states of t01..t07 (each offered a bad offer, by hand) and t08's own fleet.
        heard = night.fleet(packed(built), list(BAD_OFFERS))
        for t, (offer, _) in BAD_OFFERS.items():
            night.client.subscribe("club/%s/fw/state" % t)
            night.client.publish("club/%s/fw/offer" % t, offer, qos=1, retain=True)
        bad = night.fleet(not_utf8(packed(built)), ["t08"])
        bad.offer()
        boards = {t: board(str(tmp_path / t)) for t in list(BAD_OFFERS) + ["t08"]}
        # The first boot: each offer refused, reported with its code, said on the panel.
        procs = {t: fleet_table(boards[t], t, port, KEY, "poll 2500", runtime)
                 for t in boards}
        said = {}
        for t, p in procs.items():
            code, out, err = lines(p)
            assert code == 0 and out, (t, out, err)  # no exception: the table runs on
            said[t] = [x for x in out[-1]["said"] if x.startswith("club fw")]
            assert out[-1]["loaded"] == [], out  # the update's code left the heap
        for t, (_, offered) in BAD_OFFERS.items():
            s = night.state(heard, t, {"state": "refused"})
            want = {"version": 0, "state": "refused", "why": "offer"}
            if offered is not None:
                want["offered"] = offered
            assert s == want, (t, s)
            assert said[t] == ["club fw bad offer"], (t, said[t])
        s = night.state(bad, "t08", {"state": "refused"})
        assert s == {"version": 0, "state": "refused", "why": "format", "offered": VERSION}, s
        assert said["t08"][0] == "club fw 0%" and said["t08"][-1] == "club fw bad bundle"
        asked = bad.parts
        assert asked >= 1
        for t in boards:  # kept on the table's flash: nothing of a slot, no boot record
            assert record(boards[t]) is None
            assert not os.path.exists(os.path.join(boards[t], "fw", "a", "loop.mpy"))
        # The next boot hears the same retained offers: reported again, never started.
        procs = {t: fleet_table(boards[t], t, port, KEY, "poll 2500", runtime)
                 for t in ("t01", "t02", "t08")}
        for t, p in procs.items():
            code, out, err = lines(p)
            assert code == 0, (t, out, err)
            assert [x for x in out[-1]["said"] if x.startswith("club fw")] == [], (t, out)
        assert bad.parts == asked  # not one piece asked again
        assert heard.states["t02"]["why"] == "offer" and bad.states["t08"]["why"] == "format"
        # Another offer (the same version, another body: the good bundle) is tried, and taken.
        good = night.fleet(packed(built), ["t08"], alone=True)
        good.offer()
        code, out, err = lines(fleet_table(boards["t08"], "t08", port, KEY, "update 60",
                                           runtime))
        assert code == 4 and out[-1]["reset"] == 1, (out, err)
        assert record(boards["t08"])["ver"] == VERSION
        # Finding 7: switching, the table says the version it still runs (its record names
        # the new one already), so the fleet is not done before the table runs the new one.
        s = night.state(good, "t08", {"state": "switching"})
        assert s == {"version": 0, "state": "switching", "offered": VERSION}, s
        assert not good.done()


# ---- the signed head's total and count, enforced while writing (finding 2) ----

def slot_files(folder):
    """{path under fw/a: size} of every file in the slot."""
    out = {}
    for top, _dirs, names in os.walk(os.path.join(folder, "fw", "a")):
        for n in names:
            p = os.path.join(top, n)
            out[os.path.relpath(p, folder)] = os.path.getsize(p)
    return out


@pytest.mark.parametrize("case", ["endless line", "past what is left", "a file more",
                                  "a bad hash"])
def test_the_heads_total_and_count_bound_what_is_written(unix_port, built, tmp_path, case):
    data = packed(built)
    head, files = split(data)
    total = int(head.split()[3])
    first = files[0][1]
    if case == "endless line":  # a replayed head, then 3 MB under one line
        junk = b"\0" * (3 << 20)
        rest = line(b"loop.mpy", junk) + b"\n" + junk
    elif case == "past what is left":  # each within the total, the two together past it
        big = b"\0" * (total - len(first) + 1)
        rest = line(files[0][0].split()[0], first) + b"\n" + first \
            + line(b"x.mpy", big) + b"\n" + big
    elif case == "a file more":  # the head's own files, and one it does not count
        rest = data[len(head):] + line(b"x.mpy", b"") + b"\n"
    else:  # the first file's bytes not as its line says, within the total
        rest = files[0][0] + b"\n" + b"\1" * len(first) + data[len(head) + len(files[0][0])
                                                            + 1 + len(first):]
    path = tmp_path / "b.s66fw"
    path.write_bytes(head + rest)
    folder = board(str(tmp_path / "board"))
    got = take(unix_port, folder, str(path), free=total + 4096)
    assert got.get("why") == ("hash" if case == "a bad hash" else "format"), got
    assert slot_files(folder) == {}  # nothing of it left in the flash
    assert record(folder) is None


# ---- failed versions: a short list, never taken again; a newer one always is (finding 5) --

def broken_bundle(built, tmp_path, version):
    """A bundle whose loop raises at import: it never reaches its first frame."""
    from compile_check import mpy_cross

    src = tmp_path / "loop.py"
    src.write_text("raise RuntimeError('this version never starts')\n")
    out = tmp_path / ("loop-%d.mpy" % version)
    subprocess.run([mpy_cross(), "-o", str(out), str(src)], check=True)
    path = tmp_path / ("broken-%d.s66fw" % version)
    path.write_bytes(fleet.pack(dict(built[0], **{"loop.mpy": str(out)}), version, KEY))
    return str(path)


def test_every_failed_version_is_remembered_and_a_newer_one_taken(unix_port, built,
                                                                  tmp_path):
    from test_fleet import CONFIRMING, boot

    folder = board(str(tmp_path / "board"))
    for v in (VERSION, VERSION + 1):  # two versions fail in turn...
        got = take(unix_port, folder, broken_bundle(built, tmp_path, v))
        assert got.get("ok") == 1, (v, got)  # ...the second taken though the first failed
        for _ in range(2):  # each restarts the board at once (main.py's guard)
            assert boot(unix_port, folder)[1] is None
        code, out = boot(unix_port, folder)  # the third boot: the base again
        assert code == 0 and not out["loop"].startswith("fw/"), out
        assert record(folder)["back"] == v
    # The first is offered again (its retained offer, a club that re-sends it): refused.
    assert take(unix_port, folder, broken_bundle(built, tmp_path, VERSION)).get("why") == \
        "failed"
    assert record(folder)["failed"] == [VERSION, VERSION + 1]
    assert record(folder)["slot"] == "" and boot(unix_port, folder)[0] == 0
    # A newer good one is taken and runs; the list stays with it.
    path = tmp_path / "good.s66fw"
    path.write_bytes(packed(built, VERSION + 2))
    assert take(unix_port, folder, str(path)).get("ok") == 1
    code, out = boot(unix_port, folder, seconds=CONFIRMING)  # its first key, and running on
    assert code == 0 and out["path"] == "fw/a" and record(folder)["ok"] == 1, out
    assert record(folder)["failed"] == [VERSION, VERSION + 1]
    assert take(unix_port, folder, broken_bundle(built, tmp_path, VERSION + 1)).get("why") \
        in ("failed", "older")


def test_the_list_keeps_the_last_four(micropython, tmp_path):
    """slots.choose going back from six versions in turn: the last four stay."""
    script = tmp_path / "six.py"
    script.write_text(
        "import json, os\n"
        "from update import slots\n"
        "os.mkdir('fw')\n"
        "for v in range(1, 7):\n"
        "    r = slots.read() or {'slot': ''}\n"
        "    slots.write({'slot': 'a', 'ver': v, 'prev': '', 'pver': 0, 'tries': 2, 'ok': 0,\n"
        "                 'failed': slots.failed(r)})\n"
        "    slots.choose()\n"
        "print(json.dumps(slots.read()))\n")
    proc = micropython([str(script)], cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr.decode()
    r = json.loads(proc.stdout.decode().splitlines()[-1])
    assert r["failed"] == [3, 4, 5, 6] and r["back"] == 6 and r["slot"] == ""
