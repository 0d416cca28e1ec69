"""Club-night test plumbing: a real Mosquitto, the standings service in a thread, tables in
the MicroPython unix port (mp_club_table.py), and the standings the tables' own flash says
the night should end with."""

import glob
import json
import os
import subprocess
import sys
import threading
import time

import mosquitto
import pytest
from conftest import FIRMWARE, ROOT, run_micropython

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)  # the club/ package (the service, the director)

TABLE = os.path.join(ROOT, "host_tests", "mp_club_table.py")
PASSWORDS = {"standings": "svc-pw", "director": "dir-pw", "viewer": "view-pw"}


def need_broker():
    why = mosquitto.missing()
    if why:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


def table_passwords(n):
    return {"t%02d" % i: "pw-t%02d" % i for i in range(1, n + 1)}


def club_file(folder, table, port, password=None, resend_s=1):
    path = os.path.join(folder, table + ".club.json")
    cfg = {"table": table, "broker": "127.0.0.1", "port": port, "resend_s": resend_s,
           "keepalive": 5}
    if password is not None:
        cfg["password"] = password
    with open(path, "w") as f:
        json.dump(cfg, f)
    return path


def run_table(folder, table, club, plan, runtime="mp64", timeout=90, background=False):
    """Run one table's plan; its flash is folder/table. background=True: a Popen."""
    args = [TABLE, os.path.join(folder, table), club, plan]
    if background:
        import runtimes

        argv, env = runtimes.command(runtime, args, paths=[FIRMWARE])
        return subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    r = run_micropython(args, paths=[FIRMWARE], runtime=runtime, timeout=timeout)
    return r


def last_json(stdout):
    lines = [ln for ln in stdout.decode().splitlines() if ln.startswith("{")]
    assert lines, stdout
    return json.loads(lines[-1])


def truth(folder):
    """Every table's matches as its flash holds them: [{"names","deals","winner","round"}]."""
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "*", "truth.json"))):
        with open(path) as f:
            out.extend(json.load(f).values())
    return out


def players(standings):
    """{name: (played, won, game points)} of a standings dict."""
    return {p["name"]: (p["played"], p["won"], p["gp"]) for p in standings["players"]}


def expected(folder):
    from club.standings import expected_players

    return {n: (p["played"], p["won"], p["gp"])
            for n, p in expected_players(truth(folder)).items()}


class ServiceThread:
    """The standings service (club/service.py) in a thread of this process."""

    def __init__(self, db, port, user="standings", password=PASSWORDS["standings"],
                 every=0.05, http=False):
        from club.service import Service

        self.svc = Service(db, "127.0.0.1", port, user, password, every=every)
        self.http = self.svc.serve("127.0.0.1", 0) if http else None
        self.thread = threading.Thread(target=self.svc.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        assert self.svc.connected.wait(10), "the service did not connect"
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self):
        self.svc.stop.set()
        self.thread.join(10)
        if self.http is not None:
            self.http.shutdown()
        self.svc.db.close()

    def settle(self, acked, seconds=20):
        """Wait until the standings show {table: acked seq} (or time runs out)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            tables = json.loads(self.svc.snapshot).get("tables", {})
            if all(tables.get(t, {}).get("acked") == a for t, a in acked.items()):
                break
            time.sleep(0.05)
        time.sleep(0.1)
        return json.loads(self.svc.snapshot)
