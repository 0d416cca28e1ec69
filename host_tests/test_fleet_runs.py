"""club.fleet as a person runs it (issue 45, finding 6), over a real Mosquitto with the venue's
configuration, tables on the unix port and the 32-bit runtime: a second run started while
one offers refuses to start, says why and changes nothing, and the first finishes (they
knocked each other off the broker every second: the venue's broker names a connection by
its login); --until-done exits 0 only when every table runs the version after its restart,
and otherwise 1 with a line for each table that does not (refused, still restarting into
it, no word), after --timeout too."""

import contextlib
import subprocess
import sys
import threading
import time

import fleet
import pytest
from clubkit import need_broker
from conftest import ROOT
from test_fleet import KEY, VERSION, board, fleet_table, lines, record

USERS = {"fleet": "fleet-pw", "t01": "pw-t01", "t02": "pw-t02", "t03": "pw-t03"}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    import deploy

    out = tmp_path_factory.mktemp("fw")
    return deploy.build(str(out / "build"), march=None), out


class Run:
    """python -m club.fleet ARGS, its output lines gathered as they come."""

    def __init__(self, stack, port, pw, *args):
        self.out = []
        self.changed = threading.Condition()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "club.fleet", *args, "--broker", "127.0.0.1:%d" % port,
             "--password-file", str(pw)], cwd=ROOT, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        stack.callback(self.proc.kill)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for ln in self.proc.stdout:
            with self.changed:
                self.out.append(ln.rstrip("\n"))
                self.changed.notify_all()

    def said(self, text, timeout=60):
        """Wait for a line holding text; the line."""
        with self.changed:
            self.changed.wait_for(lambda: any(text in x for x in self.out), timeout)
            got = [x for x in self.out if text in x]
        assert got, (text, self.out)
        return got[0]

    def count(self, text, n, timeout=20):
        """Wait until n lines hold text; whether they came."""
        with self.changed:
            return self.changed.wait_for(
                lambda: sum(text in x for x in self.out) >= n, timeout)

    def end(self, timeout=120):
        code = self.proc.wait(timeout)
        self.reader.join(10)
        return code, self.out


@contextlib.contextmanager
def night(tmp_path):
    need_broker()
    import mosquitto

    with contextlib.ExitStack() as stack:
        b = stack.enter_context(mosquitto.Broker(str(tmp_path / "broker"), users=USERS))
        pw = tmp_path / "fleet.pw"
        pw.write_text("fleet-pw\n")
        yield stack, b.port, pw


def bundle(built, tmp_path, version, key=KEY):
    path = tmp_path / ("v%d.s66fw" % version)
    path.write_bytes(fleet.pack(built[0], version, key))
    return str(path)


@pytest.mark.parametrize("runtime", ["mp64", "mp32"])
def test_a_second_run_refuses_to_start_and_the_first_finishes(runtime, built, tmp_path):
    with night(tmp_path) as (stack, port, pw):
        first = Run(stack, port, pw, bundle(built, tmp_path, VERSION), "--tables", "t01",
                    "--until-done", "--timeout", "240")
        first.said("offered to t01")
        folder = board(str(tmp_path / "t01"))
        table = fleet_table(folder, "t01", port, KEY, "update 200", runtime)
        stack.callback(table.kill)
        first.said("t01: runs version 0, taking version %d" % VERSION)
        # A second director starts another run (another version, another table) meanwhile.
        started = time.monotonic()
        second = Run(stack, port, pw, bundle(built, tmp_path, VERSION + 1), "--tables",
                     "t02", "--until-done", "--timeout", "60")
        code, out = second.end(90)
        assert code == 4, out
        assert "another club.fleet is running" in out[-1] and "Nothing was offered" in out[-1]
        assert time.monotonic() - started < 30
        # The first goes on: the table takes it whole and restarts into it.
        code, out, err = lines(table, timeout=300)
        assert code == 4 and out[-1]["reset"] == 1, (out, err[-3000:])
        assert record(folder)["ver"] == VERSION
        first.said("t01: runs version 0, version %d taken and checked" % VERSION)
        assert first.proc.poll() is None  # restarting into it is not running it
        code, out, err = lines(fleet_table(folder, "t01", port, KEY, "poll 2000", runtime))
        assert code == 0, (out, err[-3000:])
        code, out = first.end()
        assert code == 0 and out[-1] == "fleet: every table runs version %d" % VERSION, out
        assert "t01: runs version %d" % VERSION in out
        # Nothing of the second run reached its table: no offer there.
        code, out, err = lines(fleet_table(board(str(tmp_path / "t02")), "t02", port, KEY,
                                           "poll 1500;look", runtime))
        assert code == 0 and out[0]["look"]["offer"] is False, (out, err[-3000:])


@pytest.mark.parametrize("runtime", ["mp64", "mp32"])
def test_until_done_exits_0_only_when_every_table_runs_the_version(runtime, built,
                                                                    tmp_path):
    with night(tmp_path) as (stack, port, pw):
        # t01 takes it and restarts; t02 has another club's key: it refuses the signature.
        run = Run(stack, port, pw, bundle(built, tmp_path, VERSION), "--tables", "t01,t02",
                  "--until-done")
        run.said("offered to t01, t02")
        t01 = board(str(tmp_path / "t01"))
        take = fleet_table(t01, "t01", port, KEY, "update 200", runtime)
        stack.callback(take.kill)
        code, out, err = lines(fleet_table(board(str(tmp_path / "t02")), "t02", port,
                                           bytes(32), "poll 2000", runtime))
        assert code == 0, (out, err[-3000:])
        run.said("t02: runs version 0, refused version %d: signature" % VERSION)
        code, out, err = lines(take, timeout=300)
        assert code == 4 and out[-1]["reset"] == 1, (out, err[-3000:])
        run.said("t01: runs version 0, version %d taken and checked" % VERSION)
        assert run.proc.poll() is None  # restarting into it is not running it
        code, out, err = lines(fleet_table(t01, "t01", port, KEY, "poll 2000", runtime))
        assert code == 0, (out, err[-3000:])
        code, out = run.end()
        # Every table settled, not every table runs it: 1, and the line of the one that not.
        assert code == 1, out
        at = out.index("fleet: not every table runs version %d:" % VERSION)
        assert out[at + 1:] == ["fleet:   t02: runs version 0, refused version %d: signature"
                                % VERSION], out
        # The timeout: t03 takes it and restarts into it, but nobody starts it again; t04
        # never says a word. 1 once the timeout passed, a line for each.
        run = Run(stack, port, pw, bundle(built, tmp_path, VERSION), "--tables", "t03,t04",
                  "--until-done", "--timeout", "25")
        run.said("offered to t03, t04")
        t03 = board(str(tmp_path / "t03"))
        code, out, err = lines(fleet_table(t03, "t03", port, KEY, "update 200", runtime),
                               timeout=300)
        assert code == 4 and record(t03)["ver"] == VERSION, (out, err[-3000:])
        code, out = run.end()
        assert code == 1, out
        at = out.index("fleet: 25 s passed and not every table runs version %d:" % VERSION)
        assert out[at + 1:] == [
            "fleet:   t03: runs version 0, version %d taken and checked: restarting into it; "
            "no word since (it says the version once it runs it)" % VERSION,
            "fleet:   t04: no word from the table (switched off, out of the WiFi, or no "
            "fleet_key in its club.json?)"], out


def test_a_run_whose_login_keeps_being_taken_stops_and_says_so(built, tmp_path):
    """Another client (a club.fleet of before, which logs in again every second) keeps
    taking the fleet login from a run that offers: after three times in a minute the run
    stops, exit 4, saying why, instead of fighting for ever in silence."""
    import paho.mqtt.client as mqtt

    with night(tmp_path) as (stack, port, pw):
        run = Run(stack, port, pw, bundle(built, tmp_path, VERSION), "--tables", "t01",
                  "--until-done", "--timeout", "60")
        run.said("offered to t01")
        for n in range(3):
            back = threading.Event()
            other = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
            other.username_pw_set("fleet", "fleet-pw")
            other.on_disconnect = lambda c, *a, back=back: (c.disconnect(), back.set())
            other.connect("127.0.0.1", port)
            other.loop_start()
            if n < 2:  # the run logs in again, and this one is closed
                assert back.wait(20), run.out
                assert run.count("fleet: the connection closed", n + 1), run.out
            other.loop_stop()
        code, out = run.end(30)
        assert code == 4, out
        assert "closed this run's connection 3 times" in out[-1] and "another" in out[-1], out



def test_a_broker_that_lost_the_offer_gets_it_again_when_the_run_logs_in(built, tmp_path):
    """The venue's broker saves every 2 s (venue.conf): killed just after a run's offer, it
    may come back without it. The run, logging in again, offers again (it only subscribed
    again before, so the tables never heard of the update)."""
    import glob
    import os

    import mosquitto

    need_broker()
    with contextlib.ExitStack() as stack:
        b = stack.enter_context(mosquitto.Broker(str(tmp_path / "broker"), users=USERS))
        pw = tmp_path / "fleet.pw"
        pw.write_text("fleet-pw\n")
        run = Run(stack, b.port, pw, bundle(built, tmp_path, VERSION), "--tables", "t01",
                  "--until-done", "--timeout", "120")
        run.said("offered to t01")
        assert retained_offer(b.port), run.out  # the broker holds it (the run's publish done)
        b.kill()  # kill -9, and nothing of it saved: the offer is gone
        for f in glob.glob(str(tmp_path / "broker" / "*.db")):
            os.remove(f)
        b.start()
        assert run.count("fleet: the connection closed", 1), run.out
        got = retained_offer(b.port)
        assert got and b'"version": %d' % VERSION in got, (got, run.out)


def retained_offer(port, timeout=30):
    """The offer the broker holds for t01 (as t01 hears it on subscribing), or None."""
    import paho.mqtt.client as mqtt
    from net import wire

    heard = threading.Event()
    got = []
    t = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    t.username_pw_set("t01", USERS["t01"])
    t.on_connect = lambda c, *a: c.subscribe(wire.fw_topic("t01", wire.FW_OFFER), 1)
    t.on_message = lambda c, u, m: (got.append(m.payload), heard.set()) if m.payload else None
    t.connect("127.0.0.1", port)
    t.loop_start()
    try:
        heard.wait(timeout)
    finally:
        t.loop_stop()
        t.disconnect()
    return got[0] if got else None
