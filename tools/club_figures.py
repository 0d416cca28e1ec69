"""Club-night figures, measured on this machine with a real Mosquitto (tools/mosquitto.py):

    python3 tools/club_figures.py [--tables 200 --steady 1000 --window 30 --catchup 5
                                   --swarms 2] [--night-only] [--json]

  night     a night of 200 tables set up as docs/club.md sets one up: Mosquitto from
            venue.conf (ports and folders moved) with a password file (a login for each
            table, the service, the director, the viewer) and the project's ACL; the
            standings service as its own process, started with docs/club.md's command
            (its page on, the table page left out: --no-table-page); the tables as a swarm
            (tools/club_swarm.py, 2 processes), each table its own MQTT connection with its
            own login, subscribed to its ack and seating, sending everything not acked
            again after 20 s without a new ack, as the firmware's link does; the director
            seating each round with `python -m club.director seat`; a viewer (login
            `viewer`) joining the standings as club.view does, and the projector's page
            (/events) open. Every deal is
            played card by card in the firmware's core (tools/dealgen.py, some entered as a
            result only) and every message built by net/wire.py, so the service scores
            each deal again. Each round: the seating starts every table's match (its
            header at once: the round's start); once the viewer has them all, the deals
            come at each table's pace (spread over --window seconds, each at a random
            moment of its own slot: the steady phase, rounds until at least --steady
            deals), then every table's last deal within one second (the finish).
            Publish to standings: from a table's publish of a result to the first
            standings the viewer joins that count it (its table's "acked"), p50, p95 and
            max for each phase; the service's CPU time over the night and its peak RSS
            (/proc: utime + stime, VmHWM). Then the catch-up: the director seats the next
            rounds, the service is stopped (SIGTERM, as Ctrl-C), every table plays
            --catchup more deals (the broker queues them for the service's durable
            session), and the service is started again: results per second from its start
            to the last ack. The standings' largest message is reported against venue.conf's
            message_size_limit. One round of the night and the catch-up are run again on a
            broker saving at every change instead of every 2 s (venue.conf before: what
            saving at once costs)
  air       bytes a table sends and receives per deal (its own MQTT client, unix port),
            the connection's own bytes (CONNECT, SUBSCRIBE, retained ack) taken away
  heap      the 32-bit unix port's live heap after boot, and with the club link loaded,
            connected and acked (tools/club_heap.py; the ESP32's WiFi stack lives outside
            MicroPython's heap), and whether that boot fits the ESP32's 56 KiB

figures() returns them as a dict (for make bench); the CLI prints them.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (ROOT, os.path.join(ROOT, "tools"), os.path.join(ROOT, "firmware")):
    if p not in sys.path:
        sys.path.insert(0, p)

import mosquitto  # noqa: E402
import runtimes  # noqa: E402


def _pct(values, q):
    v = sorted(values)
    if not v:
        return None
    return v[min(len(v) - 1, int(q * len(v)))]


# venue.conf saves its database every 2 s; the same round and catch-up on a broker saving
# after every change (venue.conf's setting before) show what saving at once costs.
SAVE_AT_CHANGE = "autosave_on_changes true\nautosave_interval 1\n"


def _tables_messages(tables, min_steady, min_rounds, catchup_deals):
    """What each table sends, as the firmware builds it: deals played card by card in the
    firmware's own core (tools/dealgen.py; some entered as a result only), every message
    built by net/wire.py (result, match, deal_body), so each deal carries its entries and
    the service scores every one again.

    The night's rounds: each table plays one match a round (its header, then deals until
    the match is over), as many rounds as make at least `min_steady` deals that are not a
    match's last (the steady phase; the last deal of each match is the round's finish).
    Then `catchup_deals` more deals a table, matches in the rounds after (the results sent
    while the service is down). Returns ({table: {"rounds": {R: [[seq, payload]]},
    "catchup": [[seq, payload]]}}, night rounds, last round seated for the catch-up)."""
    from dealgen import Player
    from net import wire
    from net.wire import deal_body

    plans = {}
    state = {}
    for t in range(1, tables + 1):
        table = "t%03d" % t
        plans[table] = {"rounds": {}, "catchup": [], "inc": "%08x" % (0x5eed0000 + t)}
        state[table] = {"seq": 0, "mid": 0, "names": ["A%d" % t, "B%d" % t]}

    def match(table, rnd, deals=None):
        """One match of `table` in round rnd: [[seq, payload]], to its end (deals=None) or
        `deals` deals; returns (messages, deals played)."""
        st = state[table]
        inc = plans[table]["inc"]
        st["mid"] += 1
        mid = st["mid"]
        t = int(table[1:])
        player = Player("new classic66 names=" + ",".join(st["names"]), t * 1000 + mid)
        st["seq"] += 1
        out = [[st["seq"], wire.result(inc, st["seq"], wire.match(mid, rnd, st["names"],
                                                                   "classic66"))]]
        n = 0
        while not player.match.state.over and (deals is None or n < deals):
            player.play_deal()
            m = player.match
            st["seq"] += 1
            out.append([st["seq"], wire.result(inc, st["seq"],
                                               deal_body(m, mid, m.state.deals() - 1))])
            n += 1
        return out, n

    rounds = 0
    steady = 0
    while rounds < min_rounds or steady < min_steady:
        rounds += 1
        for table in plans:
            msgs, n = match(table, rounds)
            plans[table]["rounds"][rounds] = msgs
            steady += n - 1
    last = rounds
    for table in plans:
        left, rnd = catchup_deals, rounds
        while left > 0:
            rnd += 1
            msgs, n = match(table, rnd, left)
            plans[table]["catchup"] += msgs
            left -= n
        last = max(last, rnd)
    return plans, rounds, last


def _cpu_rss(pid):
    """(CPU seconds, user and system, of every thread; peak resident set in kB) of a
    process, from /proc."""
    with open("/proc/%d/stat" % pid) as f:
        rest = f.read().rsplit(")", 1)[1].split()
    cpu = (int(rest[11]) + int(rest[12])) / os.sysconf("SC_CLK_TCK")
    peak = 0
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1])
    return cpu, peak


def _spread(values):
    """p50, p95 and max in ms, and the count."""
    if not values:
        return {"p50_ms": None, "p95_ms": None, "max_ms": None, "samples": 0}
    return {"p50_ms": round(_pct(values, 0.5) * 1000), "p95_ms": round(_pct(values, 0.95) * 1000),
            "max_ms": round(max(values) * 1000), "samples": len(values)}


class Night:
    """A club night as docs/club.md sets one up, on free loopback ports: Mosquitto started
    from venue.conf with a password file (a login for each table, the service, the director
    and the viewer) and the project's ACL; the standings service as its own process, with
    its command line from docs/club.md (its page on, the table page left out); the tables
    as a swarm of processes (tools/club_swarm.py), each table its own connection and login;
    the director's seatings by `python -m club.director seat`; a viewer logged in as
    `viewer` reading the standings as club.view does; the projector's page open."""

    def __init__(self, folder, tables, swarms=2, extra="", window_s=30.0):
        self.folder = folder
        os.makedirs(folder, exist_ok=True)
        self.tables = ["t%03d" % t for t in range(1, tables + 1)]
        self.swarms_n = max(1, min(swarms, tables))
        self.window_s = window_s
        self.users = {name: os.urandom(8).hex() for name in
                      ["standings", "director", "viewer"] + self.tables}
        for name in ("standings", "director", "viewer"):
            with open(os.path.join(folder, name + ".pw"), "w") as f:
                f.write(self.users[name] + "\n")
        with open(os.path.join(folder, "director-page.pw"), "w") as f:
            f.write(os.urandom(8).hex() + "\n")
        self.broker = mosquitto.Broker(os.path.join(folder, "broker"), users=self.users,
                                       extra=extra)
        self.http = mosquitto.free_port()
        self.service = None
        self.swarms = []
        self.logs = {}
        self.viewer = None
        self.seen = {}  # table -> [(acked, monotonic time the viewer saw it)]
        self.doc = None  # the last standings the viewer joined
        self.largest = 0  # bytes of the largest standings message the viewer got
        self.changed = threading.Condition()

    # ---- the parts ----

    def start(self):
        self.broker.start()
        self.start_service()
        self.start_viewer()
        self.wait(lambda: self.doc is not None, 60, "the first standings (the service)")
        return self

    def start_service(self):
        log = open(os.path.join(self.folder, "service.log"), "ab")
        cmd = [sys.executable, "-m", "club.service", "--db",
               os.path.join(self.folder, "night.sqlite"), "--broker",
               "127.0.0.1:%d" % self.broker.port, "--password-file",
               os.path.join(self.folder, "standings.pw"), "--http",
               "127.0.0.1:%d" % self.http, "--director-password-file",
               os.path.join(self.folder, "director-page.pw"), "--no-table-page"]
        self.service = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=log)
        log.close()
        return self.service

    def stop_service(self):
        """Ctrl-C's signal (SIGTERM does the same); returns its (CPU s, peak RSS kB) just
        before."""
        usage = _cpu_rss(self.service.pid)
        self.service.terminate()
        self.service.wait(60)
        return usage

    def start_viewer(self):
        from club.bounded import HEAD, Reader, want
        from club.broker import connect

        reader = Reader()

        def on_message(client, userdata, msg):
            now = time.monotonic()
            self.largest = max(self.largest, len(msg.payload))
            data = reader.feed(msg.topic, msg.payload)
            if data is None:
                return
            with self.changed:
                for table, v in data.get("tables", {}).items():
                    got = self.seen.setdefault(table, [])
                    if not got or v["acked"] > got[-1][0]:
                        got.append((v["acked"], now))
                self.doc = data
                self.changed.notify_all()

        a = argparse.Namespace(broker="127.0.0.1:%d" % self.broker.port, user="viewer",
                               password_file=os.path.join(self.folder, "viewer.pw"))
        c = connect(a, "viewer")
        c.on_message = on_message
        c.on_subscribe = lambda *args: want(client=c)
        c.subscribe(HEAD + "/#", 1)
        self.viewer = c

    def open_page(self):
        """The projector: the live page's stream of standings (/events), read and dropped."""
        import urllib.request

        def read():
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/events" % self.http,
                                            timeout=600) as r:
                    while r.read(65536):
                        pass
            except OSError:
                pass

        deadline = time.monotonic() + 30
        while True:  # the page is up once the service is
            try:
                urllib.request.urlopen("http://127.0.0.1:%d/" % self.http, timeout=5).read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                self.wait_service(0.2)
        threading.Thread(target=read, daemon=True).start()

    def wait_service(self, seconds):
        """Wait up to `seconds` for the service to exit (it must not): a bounded wait between
        two checks of a condition."""
        try:
            self.service.wait(seconds)
        except subprocess.TimeoutExpired:
            return
        raise RuntimeError("the standings service exited: %s" % self.service_log())

    def service_log(self):
        with open(os.path.join(self.folder, "service.log"), errors="replace") as f:
            return f.read()[-2000:]

    def start_swarms(self, plans):
        import queue

        self.lines = queue.Queue()
        for i in range(self.swarms_n):
            mine = self.tables[i::self.swarms_n]
            plan = {"port": self.broker.port, "resend_s": 20, "window_s": self.window_s,
                    "seed": i + 1,
                    "tables": [dict(plans[t], table=t, password=self.users[t],
                                    rounds={str(r): m for r, m in plans[t]["rounds"].items()})
                               for t in mine]}
            path = os.path.join(self.folder, "swarm%d.json" % i)
            with open(path, "w") as f:
                json.dump(plan, f)
            p = subprocess.Popen([sys.executable, os.path.join(ROOT, "tools", "club_swarm.py"),
                                  path], cwd=ROOT, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)
            threading.Thread(target=self._read_swarm, args=(i, p), daemon=True).start()
            self.swarms.append(p)
        self.expect("ready")

    def _read_swarm(self, i, p):
        for line in p.stdout:
            self.lines.put((i, line.rstrip("\n")))
        self.lines.put((i, None))

    def tell(self, line):
        for p in self.swarms:
            p.stdin.write(line + "\n")
            p.stdin.flush()

    def expect(self, word, timeout=300):
        """Wait until every swarm has said `word`; returns what each said after it."""
        import queue

        got = {}
        deadline = time.monotonic() + timeout
        while len(got) < len(self.swarms):
            try:
                i, line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError("the tables did not say %r in %d s" % (word, timeout)) \
                    from None
            if line is None:
                raise RuntimeError("a swarm of tables exited before %r" % word)
            if line == word or line.startswith(word + " "):
                got[i] = line[len(word) + 1:]
        return got

    def wait(self, cond, timeout, what):
        deadline = time.monotonic() + timeout
        with self.changed:
            while not cond():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError("no %s in %d s" % (what, timeout))
                self.changed.wait(min(left, 1.0))
                if self.service is not None and self.service.poll() is not None:
                    raise RuntimeError("the standings service exited: %s" % self.service_log())

    def seat(self, rnd):
        """The director seats round rnd, every table, with the command docs/club.md gives."""
        cmd = [sys.executable, "-m", "club.director", "--broker",
               "127.0.0.1:%d" % self.broker.port, "--password-file",
               os.path.join(self.folder, "director.pw"), "--timeout", "120", "seat", str(rnd),
               "classic66"] + ["%s=A%d,B%d" % (t, int(t[1:]), int(t[1:])) for t in self.tables]
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=180)
        if p.returncode != 0:
            raise RuntimeError("seat %d: exit %d: %s%s" % (rnd, p.returncode, p.stdout,
                                                             p.stderr))

    def seen_all(self, last):
        """Whether the viewer has seen every table's results up to last[table]."""
        return all(self.seen.get(t) and self.seen[t][-1][0] >= n for t, n in last.items())

    def stop(self):
        """Everything stopped (once; again is harmless); returns the tables' logs."""
        swarms, self.swarms = self.swarms, []
        try:
            if swarms:
                self.swarms = swarms
                self.tell("stop")
                for _i, line in self.expect("log", 60).items():
                    self.logs.update(json.loads(line))
        finally:
            self.swarms = []
            for p in swarms:
                if p.poll() is None:
                    p.kill()
                p.wait(30)
            if self.viewer is not None:
                self.viewer.loop_stop()
                self.viewer.disconnect()
                self.viewer = None
            if self.service is not None and self.service.poll() is None:
                self.service.terminate()
                self.service.wait(60)
            self.broker.stop()
        return self.logs


def _latencies(seen, logs, seqs):
    """Publish to standings, in seconds, of each (table, seq) in seqs: from the table's first
    publish of it to the first standings the viewer joined that count it (acked >= seq)."""
    import bisect

    out = []
    for table, seq in seqs:
        t0 = logs[table][str(seq)][0]
        got = seen.get(table, [])
        i = bisect.bisect_left([a for a, _t in got], seq)
        if i < len(got):
            out.append(got[i][1] - t0)
    return out


def night_figures(tables=200, folder=None, min_steady=1000, min_rounds=2, catchup_deals=5,
                  swarms=2, window_s=30.0, extra="", name="night"):
    """The night: rounds seated by the director, each table's match played at its own pace
    (steady), every table's last deal of the round within one second (the finish); then
    the service stopped, every table sending catchup_deals more deals meanwhile, and the
    service started again: how fast it catches up. See the module's docstring. extra:
    settings added to the broker's (SAVE_AT_CHANGE); name: the night's folder in `folder`."""
    from club.bounded import split

    plans, rounds, last_round = _tables_messages(tables, min_steady, min_rounds, catchup_deals)
    groups = {"start": [], "steady": [], "finish": []}
    for table, p in plans.items():
        for msgs in p["rounds"].values():
            groups["start"].append((table, msgs[0][0]))
            groups["steady"] += [(table, seq) for seq, _m in msgs[1:-1]]
            groups["finish"].append((table, msgs[-1][0]))
    entries = [len(json.loads(m).get("ev", "").split())
               for p in plans.values() for msgs in list(p["rounds"].values()) + [p["catchup"]]
               for _s, m in msgs if '"kind":"deal"' in m]
    night = Night(os.path.join(folder, name), tables, swarms, extra=extra, window_s=window_s)
    try:
        night.start()
        night.open_page()
        night.start_swarms(plans)
        others = [night.broker.proc.pid] + [p.pid for p in night.swarms]
        cpu0, _ = _cpu_rss(night.service.pid)
        others0 = [_cpu_rss(pid)[0] for pid in others]
        t0 = time.monotonic()
        for rnd in range(1, rounds + 1):
            night.seat(rnd)
            night.tell("started %d" % rnd)
            night.expect("started %d" % rnd)
            heads = {t: p["rounds"][rnd][0][0] for t, p in plans.items()}
            night.wait(lambda heads=heads: night.seen_all(heads), 120,
                       "standings with the round's matches")
            night.tell("play %d %.6f" % (rnd, time.monotonic()))
            night.tell("steady %d" % rnd)
            night.expect("steady %d" % rnd)
            night.tell("finish %d %.6f" % (rnd, time.monotonic() + 0.2))
            night.expect("done %d" % rnd)
        last = {t: p["rounds"][rounds][-1][0] for t, p in plans.items()}
        night.wait(lambda: night.seen_all(last), 120, "standings with every result")
        night_s = time.monotonic() - t0
        cpu1, rss = _cpu_rss(night.service.pid)
        others1 = [_cpu_rss(pid)[0] for pid in others]
        with open("/proc/loadavg") as f:  # the machine's load over the night's last minute
            load = float(f.read().split()[0])
        doc = night.doc
        # The catch-up: the director seats the next rounds, the service stops, the tables
        # play on (the broker queues their results for it), the service starts again.
        for rnd in range(rounds + 1, last_round + 1):
            night.seat(rnd)
        night.stop_service()
        night.tell("catchup")
        night.expect("queued")
        c0 = time.monotonic()
        night.start_service()
        night.expect("caught", 600)
        catch_s = time.monotonic() - c0
        last = {t: p["catchup"][-1][0] for t, p in plans.items()}
        night.wait(lambda: night.seen_all(last), 120, "standings after the catch-up")
        catch_cpu, catch_rss = night.stop_service()
        final = night.doc
        logs = night.stop()
        log = night.broker.log()
        with open(night.broker.conf) as f:
            conf = f.read().split("\n")
    finally:
        night.stop()
    lat = {k: _latencies(night.seen, logs, v) for k, v in groups.items()}
    finish_spread = []
    for rnd in range(1, rounds + 1):
        sent = [logs[t][str(plans[t]["rounds"][rnd][-1][0])][0] for t in plans]
        finish_spread.append(max(sent) - min(sent))
    n_night = sum(len(v) for v in groups.values())
    n_catch = sum(len(p["catchup"]) for p in plans.values())
    night_seqs = {(t, str(s)) for v in groups.values() for t, s in v}
    resent = {True: 0, False: 0}  # (of the night?) -> results sent again
    for t, tl in logs.items():
        for s, v in tl.items():
            resent[(t, s) in night_seqs] += v[2] - 1
    out = {"tables": tables, "swarm_processes": night.swarms_n, "rounds": rounds,
           "window_s": window_s, "catchup_deals": catchup_deals, "night_results": n_night,
           "steady_results": len(groups["steady"]), "start_results": len(groups["start"]),
           "finish_results": len(groups["finish"]),
           "steady_per_s": round(len(groups["steady"]) / (rounds * window_s), 1),
           "deal_every_s": round(rounds * window_s * tables / len(groups["steady"]), 1),
           "finish_spread_s": round(max(finish_spread), 2),
           "night_s": round(night_s, 1),
           "service_cpu_s": round(cpu1 - cpu0, 1),
           "service_cpu_pct": round(100 * (cpu1 - cpu0) / night_s),
           "service_rss_peak_kb": rss,
           "broker_cpu_s": round(others1[0] - others0[0], 1),
           "swarm_cpu_s": round(sum(others1[1:]) - sum(others0[1:]), 1),
           "load_1min": round(load, 1), "cpus": os.cpu_count(),
           "resent": resent[True], "catchup_resent": resent[False],
           "catchup_results": n_catch, "catchup_s": round(catch_s, 2),
           "results_per_s": round(n_catch / catch_s),
           "catchup_cpu_s": round(catch_cpu, 1), "catchup_rss_peak_kb": catch_rss,
           "all_acked": final is not None and night.seen_all(last),
           "held": len(final.get("held") or []) if final else None,
           "counted": final.get("counted") if final else None,
           "rescored": len(entries),
           "entries_per_deal": round(sum(entries) / len(entries), 1),
           "standings_bytes": len(json.dumps(final, separators=(",", ":"), sort_keys=True)),
           "standings_parts": len(split(final)[1]),
           "night_standings_bytes": len(json.dumps(doc, separators=(",", ":"), sort_keys=True)),
           "largest_message": night.largest, "size_limit": _size_limit(),
           "broker_refused": log.count("exceeds") + log.count("too large"),
           "logins": len(set(re.findall(r"\(p\d+, c\d+, k\d+, u'([^']*)'\)", log))),
           "passwords_and_acl": "allow_anonymous false" in conf and any(
               ln.startswith("acl_file ") for ln in conf) and any(
               ln.startswith("password_file ") for ln in conf),
           "service_pid": night.service.pid}
    for k, v in lat.items():
        for f, x in _spread(v).items():
            out["%s_%s" % (k, f)] = x
    out.update({"latency_" + f: x for f, x in _spread(sum(lat.values(), [])).items()})
    return out


# What make bench keeps of the night on a broker saving at every change (SAVE_AT_CHANGE),
# under the key "save_later" that tools/bench.py reads.
LATER = ("rounds", "steady_p95_ms", "finish_p95_ms", "start_p95_ms", "latency_p95_ms",
         "broker_cpu_s", "service_cpu_s", "night_s", "load_1min", "catchup_results",
         "catchup_s", "results_per_s", "all_acked", "held")


def _size_limit():
    for line in mosquitto.venue_lines():
        if line.startswith("message_size_limit"):
            return int(line.split()[1])
    return None


def _table_run(folder, port, plan):
    from clubtables import last_json, run_table

    club = os.path.join(folder, "club.json")
    with open(club, "w") as f:
        json.dump({"table": "t01", "broker": "127.0.0.1", "port": port, "resend_s": 5}, f)
    return last_json(run_table(folder, "t01", club, plan).stdout)


def air_figures(folder):
    from club.service import Service

    with mosquitto.Broker(os.path.join(folder, "broker-air")) as b:
        svc = Service(os.path.join(folder, "air.sqlite"), "127.0.0.1", b.port, every=0.2)
        th = threading.Thread(target=svc.run, daemon=True)
        th.start()
        svc.connected.wait(10)
        base = _table_run(folder, b.port, "new classic66 names=Ann,Bob;wait 10")
        idle = _table_run(folder, b.port, "poll 600")  # a boot with nothing to send
        run = _table_run(folder, b.port, "play 7;wait 20")
        svc.stop.set()
        th.join(10)
        svc.db.close()
    deals = run["next"] - base["next"]
    conn = idle["bytes_out"] + idle["bytes_in"]
    per = (run["bytes_out"] + run["bytes_in"] - conn) / deals
    return {"deals": deals, "bytes_per_deal": round(per),
            "out_per_deal": round((run["bytes_out"] - idle["bytes_out"]) / deals),
            "connection_bytes": conn}


def heap_figures(folder):
    if runtimes.missing("mp32"):
        return {"skipped": runtimes.missing("mp32")}
    import deploy
    from session import Session
    from store.journal import Store

    res = {"runtime": "mp32"}
    with mosquitto.Broker(os.path.join(folder, "broker-heap")) as b:
        from club.service import Service

        svc = Service(os.path.join(folder, "heap.sqlite"), "127.0.0.1", b.port, every=0.2)
        th = threading.Thread(target=svc.run, daemon=True)
        th.start()
        svc.connected.wait(10)
        for heap, rom in (("1m", False), ("56k", False), ("1m", True), ("56k", True)):
            flash = os.path.join(folder, "flash-" + heap + ("-rom" if rom else ""))
            shutil.rmtree(flash, ignore_errors=True)
            os.makedirs(flash)
            deploy.build(flash, march=None)
            args = ["club.next"]
            if rom:  # the code in a ROMFS image, as docs/memory.md describes
                import romfs

                image = romfs.image(flash)
                for name in os.listdir(flash):
                    if name != "main.py":
                        p = os.path.join(flash, name)
                        (shutil.rmtree if os.path.isdir(p) else os.remove)(p)
                with open(os.path.join(flash, "firmware.romfs"), "wb") as f:
                    f.write(image)
                args.append("rom:firmware.romfs")
            key = "rom_" if rom else ""
            with open(os.path.join(ROOT, "boards", "devkitc-ssd1306-keypad.json")) as f:
                cfg = json.load(f)
            cfg["wifi"] = True
            with open(os.path.join(flash, "board.json"), "w") as f:
                json.dump(cfg, f)
            s = Session(Store(os.path.join(flash, "data"), os))
            s.boot()
            s.new_match("new classic66 names=Ann,Bob")
            s.enter(bytes((5, 0, 2)))
            with open(os.path.join(flash, "club.next"), "w") as f:
                json.dump({"table": "t01", "broker": "127.0.0.1", "port": b.port}, f)
            fake = 0
            size = heap
            if heap == "56k":
                size = 56 * 1024 + res.get(key + "fake", 0)
            proc = runtimes.run("mp32", [os.path.join(ROOT, "tools", "club_heap.py")] + args,
                                paths=[os.path.join(ROOT, "host_tests", "fake_machine"), ""],
                                heapsize=size, cwd=flash)
            out = {}
            for line in proc.stdout.decode().splitlines():
                w = line.split()
                if len(w) == 2 and w[1].isdigit():
                    out[w[0]] = int(w[1])
            ok = proc.returncode == 0 and "done" in proc.stdout.decode()
            if heap == "1m":
                fake = out.get("fake", 0)
                res.update({key + "fake": fake, key + "after_boot": out.get("start", 0) - fake,
                            key + "with_club": out.get("club", 0) - fake,
                            key + "club_cost": out.get("club", 0) - out.get("start", 0),
                            key + "acked": bool(out.get("acked"))})
            else:
                res[key + "fits_56k"] = ok and bool(out.get("acked"))
                if not ok:
                    err = (proc.stderr or proc.stdout).decode().strip().splitlines()
                    res[key + "56k_error"] = err[-1] if err else "?"
        svc.stop.set()
        th.join(10)
        svc.db.close()
    return res


def figures(tables=200, heap=True, air=True, **night):
    """Every club figure as a dict (make bench): the night (night_figures(), `night` its
    arguments), a round of it and the catch-up again on a broker saving at every change, the air
    and the heap."""
    folder = tempfile.mkdtemp(prefix="club-figures-")
    try:
        out = {"service": night_figures(tables, folder, **night)}
        # The same on a broker saving at every change: one round is enough to compare.
        later = dict(night, min_steady=0, min_rounds=1)
        later = night_figures(tables, folder, extra=SAVE_AT_CHANGE, name="at-change", **later)
        out["save_later"] = {k: later[k] for k in LATER}
        if air:
            out["air"] = air_figures(folder)
        if heap:
            out["heap"] = heap_figures(folder)
        return out
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def say(f):
    """The figures in words, as the CLI prints them."""
    s = f["service"]
    print("night: %d tables (each its own login, %d swarm processes), %d rounds seated by the "
          "director: %d results (%d match headers as the seating comes, %d deals at the "
          "tables' pace, %.1f/s: a deal every %.0f s at each table, %d last deals with every "
          "table finishing within %.2f s); all in the standings: %s, %d held, %d sent again"
          % (s["tables"], s["swarm_processes"], s["rounds"], s["night_results"],
             s["start_results"], s["steady_results"], s["steady_per_s"], s["deal_every_s"],
             s["finish_results"], s["finish_spread_s"], s["all_acked"], s["held"], s["resent"]))
    for k, what in (("steady", "steady"), ("finish", "finish"), ("start", "round start"),
                    ("latency", "every result")):
        print("  publish to standings (viewer), %s: p50 %s ms, p95 %s ms, max %s ms (%d)"
              % (what, s[k + "_p50_ms"], s[k + "_p95_ms"], s[k + "_max_ms"],
                 s[k + "_samples"]))
    print("  the machine: %d CPUs, load average %.1f over the night's last minute"
          % (s["cpus"], s["load_1min"]))
    print("  the service (its own process): %.1f s CPU over the night's %.0f s (%d%% of a "
          "core), peak RSS %d kB; the broker %.1f s CPU, the tables' swarm %.1f s"
          % (s["service_cpu_s"], s["night_s"], s["service_cpu_pct"], s["service_rss_peak_kb"],
             s["broker_cpu_s"], s["swarm_cpu_s"]))
    print("catch-up: %d results sent while the service was stopped (%d sent again), %.1f s "
          "from its start to the last ack: %d results/s (%.1f s CPU, peak RSS %d kB); %d deals "
          "scored again in all, %.1f entries each"
          % (s["catchup_results"], s["catchup_resent"], s["catchup_s"], s["results_per_s"],
             s["catchup_cpu_s"], s["catchup_rss_peak_kb"], s["rescored"],
             s["entries_per_deal"]))
    print("standings: %d bytes in %d parts, largest message %d bytes (limit %s), %d refused "
          "by the broker; %d logins" % (s["standings_bytes"], s["standings_parts"],
                                        s["largest_message"], s["size_limit"],
                                        s["broker_refused"], s["logins"]))
    later = f.get("save_later")
    if later:
        print("the broker saving every 2 s, against at every change (%d round): p95 steady "
              "%s against %s ms, finish %s against %s ms, round start %s against %s ms; "
              "the broker's CPU %.1f against %.1f s; catching up %d against %d results/s"
              % (later["rounds"], s["steady_p95_ms"], later["steady_p95_ms"],
                 s["finish_p95_ms"], later["finish_p95_ms"], s["start_p95_ms"],
                 later["start_p95_ms"], s["broker_cpu_s"], later["broker_cpu_s"],
                 s["results_per_s"], later["results_per_s"]))
    a_ = f.get("air")
    if a_:
        print("on the air per deal: %d bytes (%d out), plus %d per connection"
              % (a_["bytes_per_deal"], a_["out_per_deal"], a_["connection_bytes"]))
    h = f.get("heap")
    if h and "skipped" in h:
        print("heap: skipped (%s)" % h["skipped"])
    elif h:
        print("heap (32-bit): after boot %d B, with the club link %d B (+%d); "
              "boots, connects and is acked in 56 KiB: %s"
              % (h["after_boot"], h["with_club"], h["club_cost"], h.get("fits_56k")))
        if "rom_with_club" in h:
            print("  the code in ROMFS: after boot %d B, with the club link %d B (+%d); in 56 "
                  "KiB: %s" % (h["rom_after_boot"], h["rom_with_club"], h["rom_club_cost"],
                               h.get("rom_fits_56k")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--steady", type=int, default=1000,
                    help="at least this many deals in the steady phase (whole rounds)")
    ap.add_argument("--window", type=float, default=30.0,
                    help="seconds over which each table plays a round's deals")
    ap.add_argument("--catchup", type=int, default=5,
                    help="deals each table sends while the service is stopped")
    ap.add_argument("--swarms", type=int, default=2, help="processes the tables run in")
    ap.add_argument("--night-only", action="store_true",
                    help="only the night (no catch-up on a second broker, no air, no heap)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    why = mosquitto.missing()
    if why:
        raise SystemExit(why)
    night = {"min_steady": a.steady, "window_s": a.window, "catchup_deals": a.catchup,
             "swarms": a.swarms}
    if a.night_only:
        folder = tempfile.mkdtemp(prefix="club-figures-")
        try:
            f = {"service": night_figures(a.tables, folder, **night)}
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    else:
        f = figures(a.tables, **night)
    if a.json:
        print(json.dumps(f, indent=1))
        return
    say(f)


if __name__ == "__main__":
    main()
