"""Club-night figures, measured on this machine with a real Mosquitto (tools/mosquitto.py):

    python3 tools/club_figures.py [--tables 200 --deals 60] [--json]

  service   results per second the standings service sustains: every table's match
            headers and deals (played card by card in the firmware's core, each with its
            entries, every match of a round the director seated) published at once (QoS 1,
            one paho client), timed until the service has scored every deal again in the
            core and acked the last; then publish-to-standings latency p50/p95 at a steady
            load (a result every 5 ms), from the publish call to the retained standings
            that first count it. "held" counts results the service did not count (0 when
            the core agrees with every table). The broker is venue.conf itself (ports and
            folders moved): the standings' largest retained message is reported against its
            message_size_limit, and the same burst is run again with the database saved
            every 10 s instead of at every change (what saving at once costs)
  air       bytes a table sends and receives per deal (its own MQTT client, unix port),
            the connection's own bytes (CONNECT, SUBSCRIBE, retained ack) taken away
  heap      the 32-bit unix port's live heap after boot, and with the club link loaded,
            connected and acked (tools/club_heap.py; the ESP32's WiFi stack lives outside
            MicroPython's heap), and whether that boot fits the ESP32's 56 KiB

figures() returns them as a dict (for make bench); the CLI prints them.
"""

import json
import os
import shutil
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


def _messages(tables, deals):
    """The results of `deals` + 1 deals per table as the tables send them, and the seatings.

    The deals are played card by card (tools/dealgen.py; some are entered as a result) in
    the firmware's own core, a new match (a new round) whenever one is over, and every
    message is built by the firmware's own code (net/wire.py's result and deal_body),
    so each deal carries its entries and the service scores every one again. Returns
    (burst, steady, seats): [(table, seq, payload)] of the first `deals` deals (with their
    match headers), the same of each table's last deal (the steady load's), and
    [(table, seating)] of every round the tables play."""
    from dealgen import Player
    from net import wire
    from net.wire import deal_body

    burst, steady, seats = [], [], []
    for t in range(1, tables + 1):
        table = "t%03d" % t
        names = ["A%d" % t, "B%d" % t]
        msgs = []
        seq = 0
        mid = 0
        player = None
        for d in range(deals + 1):
            if d == deals:
                burst.extend((table, q, p) for q, p in msgs)
                msgs = []
            if player is None or player.match.state.over:
                mid += 1
                seats.append((table, {"round": mid, "names": names, "rules": "classic66"}))
                player = Player("new classic66 names=" + ",".join(names), t * 1000 + mid)
                seq += 1
                msgs.append((seq, wire.result("bench", seq, wire.match(mid, mid, names,
                                                                     "classic66"))))
            player.play_deal()
            m = player.match
            seq += 1
            msgs.append((seq, wire.result("bench", seq, deal_body(m, mid, m.state.deals() - 1))))
        steady.extend((table, q, p) for q, p in msgs)
    return burst, steady, seats

# venue.conf saves its database after every change; the same burst with a save every 10 s
# instead (the setting before) shows what saving at once costs.
SAVE_LATER = "autosave_on_changes false\nautosave_interval 10\n"


def service_figures(tables, deals, folder, extra=""):
    import paho.mqtt.client as paho
    from net import wire

    from club.bounded import Reader, split
    from club.service import Service

    name = "-later" if extra else ""  # each run its own broker folder and database
    with mosquitto.Broker(os.path.join(folder, "broker" + name), extra=extra) as b:
        svc = Service(os.path.join(folder, "ev%s.sqlite" % name), "127.0.0.1", b.port,
                      every=0.25)
        th = threading.Thread(target=svc.run, daemon=True)
        th.start()
        svc.connected.wait(10)
        sent = {}  # (table, seq) -> publish time
        lat = []
        last = {}
        done = threading.Event()
        want = {}
        phase = {"steady": False}

        reader = Reader()

        def on_standings(client, userdata, msg):
            now = time.monotonic()
            data = reader.feed(msg.topic, msg.payload)
            if data is None:  # the standings' parts still arriving (club/bounded.py)
                return
            acked = {t: v["acked"] for t, v in data["tables"].items()}
            for t, a in acked.items():
                for s in range(last.get(t, 0) + 1, a + 1):
                    t0 = sent.pop((t, s), None)
                    if t0 is not None and phase["steady"]:
                        lat.append(now - t0)
                last[t] = max(a, last.get(t, 0))
            if want and all(last.get(t, 0) >= n for t, n in want.items()):
                done.set()

        watch = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="bench-watch")
        watch.on_message = on_standings
        watch.connect("127.0.0.1", b.port)
        watch.subscribe(wire.STANDINGS + "/#", 1)
        watch.loop_start()
        pub = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="bench-tables")
        pub.max_inflight_messages_set(1000)
        pub.max_queued_messages_set(0)
        pub.connect("127.0.0.1", b.port)
        pub.loop_start()

        msgs, steady, seats = _messages(tables, deals)
        # The director's seatings first (retained), as at a club night: the service checks
        # every match against them.
        for table, seat in seats:
            pub.publish(wire.topic(table, wire.SEAT), json.dumps(seat), qos=1, retain=True)
        end = time.monotonic() + 60
        while len(svc.event.seats) < len(seats) and time.monotonic() < end:
            time.sleep(0.05)
        for table, seq, _m in msgs:
            want[table] = max(want.get(table, 0), seq)
        # Acks tell when the service has applied (committed) each table's last result.
        acks = {}
        all_acked = threading.Event()

        def on_ack(client, userdata, msg):
            acks[msg.topic.split("/")[1]] = int(msg.payload.split()[1])
            if len(acks) == len(want) and all(acks[t] >= n for t, n in want.items()):
                all_acked.set()

        pub.on_message = on_ack
        pub.subscribe(wire.topic("+", wire.ACK), 0)
        time.sleep(0.3)
        t0 = time.monotonic()
        for table, seq, m in msgs:
            sent[(table, seq)] = time.monotonic()
            pub.publish(wire.topic(table, wire.RESULT), m, qos=1)
        ok = all_acked.wait(600)
        burst = time.monotonic() - t0
        done.wait(30)
        # Steady load: each table's next deal (and its match header when it starts one),
        # spaced 5 ms apart.
        sent.clear()
        phase["steady"] = True
        done.clear()
        for table, seq, _m in steady:
            want[table] = max(want[table], seq)
        for table, seq, m in steady:
            sent[(table, seq)] = time.monotonic()
            pub.publish(wire.topic(table, wire.RESULT), m, qos=1)
            time.sleep(0.005)
        done.wait(30)
        held = len(svc.event.held)
        entries = [len(json.loads(m).get("ev", "").split()) for _t, _s, m in msgs
                   if '"kind":"deal"' in m]
        pub.loop_stop()
        watch.loop_stop()
        svc.stop.set()
        th.join(10)
        svc.db.close()
        head, parts = split(json.loads(svc.snapshot))
        whole = len(svc.snapshot)
        largest = svc.publisher.largest
        log = b.log()
    n = len(msgs)
    return {"tables": tables, "deals_per_table": deals, "results": n, "all_acked": ok,
            "rescored": len(entries), "held": held,
            "entries_per_deal": round(sum(entries) / len(entries), 1),
            "seconds": round(burst, 2), "results_per_s": round(n / burst),
            "latency_p50_ms": round(_pct(lat, 0.5) * 1000) if lat else None,
            "latency_p95_ms": round(_pct(lat, 0.95) * 1000) if lat else None,
            "latency_samples": len(lat), "standings_every_s": 0.25,
            "standings_bytes": whole, "standings_parts": len(parts),
            "largest_message": largest, "size_limit": _size_limit(),
            "broker_refused": log.count("exceeds") + log.count("too large")}


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


def figures(tables=200, deals=60, heap=True, air=True):
    folder = tempfile.mkdtemp(prefix="club-figures-")
    try:
        out = {"service": service_figures(tables, deals, folder)}
        later = service_figures(tables, deals, folder, SAVE_LATER)
        out["save_later"] = {k: later[k] for k in ("results_per_s", "latency_p50_ms",
                                                   "latency_p95_ms", "seconds", "all_acked")}
        if air:
            out["air"] = air_figures(folder)
        if heap:
            out["heap"] = heap_figures(folder)
        return out
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main():
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    why = mosquitto.missing()
    if why:
        raise SystemExit(why)
    f = figures(a.tables, a.deals)
    if a.json:
        print(json.dumps(f, indent=1))
        return
    s = f["service"]
    print("service: %d tables x %d deals = %d results in %.2f s: %d results/s (all acked: %s; "
          "%d deals scored again, %.1f entries each, %d held)"
          % (s["tables"], s["deals_per_table"], s["results"], s["seconds"],
             s["results_per_s"], s["all_acked"], s["rescored"], s["entries_per_deal"],
             s["held"]))
    print("publish to standings: p50 %s ms, p95 %s ms (%d results, standings every %.2f s)"
          % (s["latency_p50_ms"], s["latency_p95_ms"], s["latency_samples"],
             s["standings_every_s"]))
    print("standings: %d bytes in %d parts, largest message %d bytes (limit %s), %d refused "
          "by the broker" % (s["standings_bytes"], s["standings_parts"], s["largest_message"],
                             s["size_limit"], s["broker_refused"]))
    later = f["save_later"]
    print("saving at every change, against every 10 s: %d against %d results/s, p95 %s "
          "against %s ms" % (s["results_per_s"], later["results_per_s"], s["latency_p95_ms"],
                             later["latency_p95_ms"]))
    a_ = f["air"]
    print("on the air per deal: %d bytes (%d out), plus %d per connection"
          % (a_["bytes_per_deal"], a_["out_per_deal"], a_["connection_bytes"]))
    h = f["heap"]
    if "skipped" in h:
        print("heap: skipped (%s)" % h["skipped"])
    else:
        print("heap (32-bit): after boot %d B, with the club link %d B (+%d); "
              "boots, connects and is acked in 56 KiB: %s"
              % (h["after_boot"], h["with_club"], h["club_cost"], h.get("fits_56k")))
        if "rom_with_club" in h:
            print("  the code in ROMFS: after boot %d B, with the club link %d B (+%d); in 56 "
                  "KiB: %s" % (h["rom_after_boot"], h["rom_with_club"], h["rom_club_cost"],
                               h.get("rom_fits_56k")))


if __name__ == "__main__":
    main()
