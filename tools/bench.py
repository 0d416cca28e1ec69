"""Benchmarks: every figure the design sets a target for, measured, with its target.

    make bench                    (or: .venv/bin/python tools/bench.py [--quick])
    .venv/bin/python tools/bench.py --heap [mp32|mp64|...]   only the heap of the long match
    .venv/bin/python tools/bench.py --docs      the figures in README.md and docs/*.md from
                                                bench.json (--readme: the same)
    .venv/bin/python tools/bench.py --battery   only the idle wake-ups and the battery
                                                evenings, their rows in bench.json
                                                replaced, then --docs
    .venv/bin/python tools/bench.py --fleet     only the update's row, into bench.json and
                                                the docs
    .venv/bin/python tools/bench.py --web       only the browser build's figures (and the
                                                kills), their rows in bench.json replaced,
                                                then --docs
    .venv/bin/python tools/bench.py --club      only the club night's figures, their rows in
                                                bench.json replaced, then --docs
    .venv/bin/python tools/bench.py --camera    only camera mode's figures, put into
                                                bench.json in place of the old ones, and
                                                docs/web.md's picture of camera mode
    .venv/bin/python tools/bench.py --camera-teach   only teaching camera mode a deck
                                                (tools/camera_teach.py), its row in
                                                bench.json replaced, then --docs
    .venv/bin/python tools/bench.py --camera-designs[=TRICKS]   only the card designs'
                                                figures (tools/cardcam/measure_designs.py,
                                                TRICKS a design, 2,000 by default), their
                                                row in bench.json replaced, then --docs
    .venv/bin/python tools/bench.py --camera-taught   only the card designs taught to the
                                                page (tools/cardcam/taught_designs.py),
                                                their row in bench.json replaced, then --docs
    .venv/bin/python tools/bench.py --font      only the font's row (tools/font_figures.py),
                                                into bench.json and the docs
    .venv/bin/python tools/bench.py --no-camera   every figure but camera mode's (hours of
                                                card designs): the camera rows bench.json
                                                holds are kept as they are

Prints a table and writes bench.json at the project root. CPython only orchestrates: every
figure comes from the firmware running in MicroPython (tools/runtimes.py): heap figures on
the 32-bit unix port first (../shared/mp32/micropython32: the board's word size, with the
real GC and a capped heap), the 64-bit unix port second, allocations per press also on the
WebAssembly port; the other figures on the 64-bit unix port.

  presses      tools/ui_figures.py: random legal matches of every rule set typed through
               the simulator's key layer (Sim.press), keypad and four buttons, each match
               checked against the scoring core; tricks with ranks only (the design's
               "three presses"); quick entry in the app's results-only setting, and through
               the menu.
  panel bytes  bytes each of those presses sent to the panel (median, 95th percentile), and
               keypad matches of every rule set against a driver that always sends the full
               frame (show_full).
  heap         a 100-deal match typed on the keypad into the device as a board boots it
               (tools/heap_drive.py: the real loop.run() over board.json and a flash
               folder, firmware compiled to .mpy, Ukrainian texts, the fake machine module)
               in `-X heapsize=56k`; gc.collect() and gc.mem_alloc() after every press.
               The fake machine module's own heap is added to every cap and taken off every
               figure: a board has `machine` built in. Then 48k (the stretch goal), and
               the smallest heap that plays it, by bisection. The heap each package holds
               once imported (tools/heap_imports.py). Bytes each press allocates (collector
               off during the press; on the WebAssembly port one press per call from JS).
               Then 20 matches in a row: live heap after match 1 and match 20.
  boot         after every entry of that match, a fresh Session boots from the same files:
               the records it replays (summary log + journal lines) vs the longest deal.
               Time to the first frame: a process that boots the device over a late,
               mid-deal flash and draws once, vs `micropython -c pass` (medians).
  flash        tools/flash_figures.py (a 100+ deal match through Session) under MicroPython.
  wake-ups     hw/power.py's counters over a fake clock: the main loop idling for 30 min
               with keys that are never pressed (its naps at most half the watchdog's
               timeout); panel on (bright, then dimmed), then panel off.
  battery      tools/evening.py: a 3-hour evening (a deal every 4 minutes, idle between) on
               the real loop.run() with the fake machine and a fake clock, for the keypad
               and the four-button builds, with and without the club link up (a club file
               beside board.json: the loop then never light-sleeps), and the keypad build
               again with each lever (tools/battery.py's LEVERS: settings measured again,
               the LED, the regulator, the converter, the CPU's clock, the listen interval
               priced). tools/battery.py prices it with datasheet currents and the board
               file's cell and supply, and the club link up only to send (club.json
               "connect": "to_send"), its sessions per deal and seconds up per session
               measured by tools/club_battery.py (the real loop.run() on the unix port in
               real time against Mosquitto and the standings service), joining WiFi a cited
               input; the key-to-frame estimate after a light sleep (the wake, a
               loop turn, the bytes it sends), computed, not measured.
  browser      tools/web_figures.py in headless Chromium: bytes of a first visit, time to
               the first frame (first visit and from the cache), key-to-frame latency for
               keyboard keys and for taps with real touch events (median, p95); the
               browser killed with SIGKILL at 30 points of a match (tools/web_kills.py).
  club night   tools/club_figures.py with a real Mosquitto from venue.conf (its password file
               and ACL): 200 tables, each its own MQTT client and login (a swarm of
               processes, tools/club_swarm.py), the standings service its own process, the
               director's seatings by its command; publish-to-standings latency as a viewer
               sees it (steady phase and every table finishing within a second), the
               service's CPU and peak RSS, results per second as it catches up after a stop,
               every deal scored again in the sixtysix core (none held); bytes on the air per
               deal, the device's heap with the club link up.
  update       tools/fleet_figures.py: a bundle of the whole firmware (make fleet) taken as
               the update job takes it (tools/fleet_take.py) on the 32-bit unix port in a
               56 KiB heap, code as .mpy: the heap the update adds and its time (median).
  deploy       what `make deploy` puts on a board: tools/deploy.py's build for xtensawin,
               its .mpy bytes per folder, main.py, texts and font, and `make romfs`'s image.
  font         tools/font_figures.py: the font's and ui/text's bytes as source, .mpy and
               font file, and their heap once imported (32-bit and 64-bit ports).
  camera       tools/camera_figures.py: the committed card model on 2,000 rendered tricks of
               the card design it never saw in training (cards and tricks read right, tricks
               that would be proposed wrong), and a two-player deal played by camera in
               headless Chromium with a fake camera, CPU throttled x4: frame to proposal,
               frames analysed per second, bytes loaded when camera mode turns on, presses.
  teach        tools/camera_teach.py: the held-out deck's 24 cards taught to camera mode in
               headless Chromium from a fake camera, four at a time, CPU throttled x4: the
               presses and the seconds from "learn this deck" to the deck kept.

At the end it writes every figure the docs quote (README.md and docs/*.md) from bench.json,
as `--docs` does: the figures table (docs/performance.md), and each figure the docs mark with
`<!-- bench:KEY.FIELD FORMAT -->...<!-- /bench -->` (tools/benchdocs.py's docs_with()).

Runs the worker parts of itself under MicroPython (`micropython tools/bench.py WORKER ...`).
"""

import sys

from targets import TARGETS  # the limits, shared with web_figures.py

MICRO = sys.implementation.name == "micropython"
if not MICRO:  # writing the figures into the docs: the orchestrator's part alone
    import benchdocs

HUNDRED = "new schnapsen target=99 dealer=1"  # a long match: 100+ deals
GROWTH_RULES = "mariage"
HEAP_START = TARGETS["heap_k"]

# ---- helpers for both runtimes ---------------------------------------------------------


def median(values):
    s = sorted(values)
    n = len(s)
    if not n:
        return 0
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def percentile(values, pct):
    """The nearest-rank percentile."""
    s = sorted(values)
    if not s:
        return 0
    k = (pct * len(s) + 99) // 100  # ceil(pct/100 * n)
    return s[max(0, k - 1)]


# ---- workers (MicroPython) ---------------------------------------------------------------


def _without_shadow(display):
    """Make `display` send every frame whole, as a driver without a shadow would."""
    show = display.show

    def full():
        display.invalidate()
        return show()

    display.show = full


def worker_presses(root, matches):
    """Presses per entry and panel bytes per press (tools/ui_figures.py: random matches
    through Sim.press, each checked against the core), plus the same keypad presses
    against a driver that always sends the full frame. Prints JSON."""
    import json
    import os

    import ui_figures
    from keyseq import match_keys, random_match
    from sim import Sim
    from sixtysix.snapshot import snapshot

    out = ui_figures.measure(matches, 1, root + "/figures")
    full = []
    from sixtysix.rules import RULE_SETS

    for rid in RULE_SETS:
        lines, match = random_match(rid, 1, suits=False, quick=10)
        path = root + "/full-" + rid
        os.mkdir(path)
        sim = Sim(path, "keypad")
        _without_shadow(sim.display)
        for _line, keys in match_keys(lines, "keypad"):
            for ch in keys:
                sim.press(ch)
        if snapshot(sim.app.match) != snapshot(match):
            raise AssertionError("full-frame run: the keys did not enter the match " + rid)
        full.extend(sim.sent)
    out["full_driver"] = full
    print(json.dumps(out))


def worker_boot(keys, root, setup):
    """Type the keys into the app (as sim.py does) and boot a fresh Session from the
    same files after every entry: how many records does that boot replay?"""
    import json
    import os

    from session import Session
    from sim import Sim
    from sixtysix.snapshot import snapshot
    from store.journal import Store

    s = Session(Store(root, os))
    s.boot()
    s.new_match(setup)
    sim = Sim(root, "keypad")
    replays = []
    mismatches = 0
    longest = deal = 0
    with open(keys) as f:
        for line in f:
            line = line.strip()
            if not line or line == "=":
                continue
            deals = sim.app.match.state.deals()
            for ch in line:
                sim.press(ch)
            deal += 1
            if sim.app.match.state.deals() > deals:
                longest = max(longest, deal)
                deal = 0
            store = Store(root, os)
            got = store.load()
            log = 0
            if got.summary is not None:
                log = len(json.loads(got.summary).get("log") or ())
            replays.append(log + len(got.events))
            booted = Session(Store(root, os))
            booted.boot()
            if snapshot(booted.match) != snapshot(sim.app.match):
                mismatches += 1
    state = sim.app.match.state
    print(json.dumps({"replays": replays, "longest_deal": longest, "deals": state.deals(),
                      "entries": len(replays), "mismatches": mismatches}))


NAP_MS = 4000  # loop.py sleeps at most half the watchdog's timeout (startup.py: 8 s)


def worker_misc():
    """Flash figures and idle wake-ups. Prints JSON."""
    import json

    import flash_figures
    import hw.power as hp

    flash = flash_figures.measure()
    clock = [0]

    def fake_sleep(ms):
        clock[0] += ms

    hp.sleep_ms = fake_sleep  # the loop's plain waits, on the fake clock

    class Machine:
        def lightsleep(self, ms):
            clock[0] += ms

    class Panel:
        def contrast(self, v):
            pass

        def power(self, on):
            pass

    from hw.buttons import Buttons
    from hw.power import Power

    def idle(machine, wake, seconds):
        """The main loop of main.py, no key ever pressed; wake-ups per stage."""
        clock[0] = 0
        keys = Buttons([lambda: 1] * 4, ("UP", "DOWN", "OK", "BACK"))
        power = Power(Panel(), None, machine, wake)
        power.start(0)
        counts = {}
        spans = {}
        end = seconds * 1000
        while clock[0] < end:
            now = clock[0]
            ev = keys.poll(now)
            power.watch(now, keys.any_down())
            if ev is not None:
                power.key(now)
            power.update(now)
            stage = ("on", "on", "off", "deep")[power.state]
            before = power.wakeups
            power.sleep(min(power.wait_ms(now, keys.idle()), NAP_MS))
            counts[stage] = counts.get(stage, 0) + power.wakeups - before
            spans[stage] = spans.get(stage, 0) + clock[0] - now
        rate = {}
        for stage in counts:
            rate[stage] = counts[stage] * 1000 / spans[stage] if spans[stage] else 0
        return {"rate": rate, "scan_ms": power.scan_ms, "cap_ms": power.cap_ms,
                "off_s": power.off_ms // 1000, "nap_ms": NAP_MS}

    wake = {"wake": idle(Machine(), True, 1800), "nowake": idle(Machine(), None, 1800),
            "plain": idle(None, None, 1800)}
    print(json.dumps({"flash": flash, "power": wake}))


# ---- the orchestrator (CPython) --------------------------------------------------------


def _root():
    import os

    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(args, paths, timeout=600):
    """A worker of this file (or another script) in the 64-bit unix port."""
    import runtimes

    return runtimes.run("mp64", args, paths=paths, cwd=_root(), timeout=timeout)


def _json_out(proc, what):
    import json

    out, err = proc.stdout.decode(), proc.stderr.decode()
    if proc.returncode != 0:
        raise RuntimeError("%s failed:\n%s%s" % (what, out[-2000:], err[-3000:]))
    return json.loads(out.strip().splitlines()[-1])


def _source_paths():
    import os

    root = _root()
    return [os.path.join(root, "firmware"), os.path.join(root, "tools")]


def _hundred_keys(path):
    """Key presses of a 100+ deal match (one line per entry); returns (deals, setup)."""
    from dealgen import Player
    from keyseq import entry_keys, joins_next
    from sixtysix.match import Match

    for seed in range(1, 50):
        p = Player(HUNDRED, seed, quick=0, suits=False)
        m = p.play_match(1000)
        if m.state.deals() >= 100:
            break
    else:
        raise RuntimeError("no 100-deal match found")
    shadow = Match()
    shadow.enter_line(p.lines[0])
    lines = p.lines[1:]
    with open(path, "w") as f:
        for i, line in enumerate(lines):
            keys = entry_keys(shadow.state, line, "keypad")
            if i + 1 < len(lines) and joins_next(shadow.state, line, lines[i + 1], "keypad"):
                keys = ""  # the next line's trump key says it
            f.write(keys + "\n")
            shadow.enter_line(line)
    return m.state.deals(), len(p.lines) - 1


def _growth_keys(path, matches):
    """Key presses of `matches` matches in a row, each started through the wizard."""
    from keyseq import match_keys, random_match

    with open(path, "w") as f:
        for i in range(matches):
            lines, _m = random_match(GROWTH_RULES, 100 + i, suits=False, quick=0)
            pairs = match_keys(lines, "keypad")
            first, keys = pairs[0]
            f.write(("#" if i else "") + keys + "\n")  # OK on the finished match: the wizard
            for _line, keys in pairs[1:]:
                f.write(keys + "\n")
            f.write("=\n")


# ---- heap: the device booted by loop.run(), typed into, on each runtime ----------------

BOARD_FILE = "boards/devkitc-ssd1306-keypad.json"
HEAP_LANG = "uk"  # the largest text file (Cyrillic), as a Ukrainian table would have it
STRETCH = TARGETS["heap_stretch_k"]


def _flash(tmp, name, setup):
    """A board's file system as deploy leaves it (compiled firmware, texts, font, main.py,
    board.json), with settings (the language) and the match on it."""
    import os
    import shutil

    import deploy
    from session import Session
    from store.journal import Store

    folder = os.path.join(tmp, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    deploy.build(folder, march=None)
    shutil.copy(os.path.join(_root(), BOARD_FILE), os.path.join(folder, "board.json"))
    s = Session(Store(os.path.join(folder, "data"), os))
    s.boot()
    s.save_settings({"lang": HEAP_LANG})
    if setup:
        s.new_match(setup)
    return folder


def drive(runtime, flash, keys, heap=None, alloc=False, keep=None):
    """tools/heap_drive.py on a copy of `flash`: the figures it prints, by name. `keep`:
    a folder to leave the flash in afterwards. A flash made by _rom_flash has its code in
    the ROMFS image ROM_IMAGE beside it."""
    import os
    import shutil

    import runtimes

    folder = flash + "-run"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(flash, folder)
    shutil.copy(keys, os.path.join(folder, "keys.txt"))  # inside what wasm gets to see
    # The driver and the fake machine module run from copies in the run's folder: a module's
    # path is an interned name in the heap, so paths into the checkout would make the figures
    # depend on where it was cloned.
    # (In a folder of their own: the script's folder is first on the path, and the
    # firmware must be found at the root, "", as on a board.)
    host = os.path.join(folder, "_host")
    os.makedirs(host)
    for name in ("heap_drive.py", "rom_mount.py"):  # (the second: beside the first)
        shutil.copy(os.path.join(_root(), "tools", name), host)
    fake = os.path.join(host, "fake_machine")
    shutil.copytree(os.path.join(_root(), "host_tests", "fake_machine"), fake,
                    ignore=shutil.ignore_patterns("__pycache__"))
    args = [os.path.join(host, "heap_drive.py"), "keys.txt"]
    args += ["alloc"] if alloc else []
    if os.path.exists(os.path.join(folder, ROM_IMAGE)):
        args.append("rom:" + ROM_IMAGE)
    wasm = runtime == "wasm"
    proc = runtimes.run(runtime, args, paths=[fake, ""],
                        heapsize=heap or "1m", mounts=[folder], cwd=folder,
                        steps="step" if wasm else None, after="report" if wasm else None)
    out = {"ok": proc.returncode == 0 and "\ndone" in proc.stdout.decode(), "marks": []}
    for line in proc.stdout.decode().splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "alloc":
            out["alloc"] = [int(w) for w in words[1:]]
        elif line.startswith("qstr pool:"):  # after boot: n_qstr=820, n_total_bytes=...
            for w in words[2:]:
                k, _, v = w.rstrip(",").partition("=")
                out["qstr_" + k[2:]] = int(v)
        elif len(words) == 2 and words[0] == "mark":
            out["marks"].append(int(words[1]))
        elif len(words) == 2 and words[1].isdigit():
            out[words[0]] = int(words[1])
    if not out["ok"]:
        err = (proc.stdout + proc.stderr).decode().strip().splitlines() or ["?"]
        where = [w.strip() for w in err if w.strip().startswith("File ")]
        out["error"] = err[-1] + (" (%s)" % where[-1].replace("File ", "") if where else "")
    if keep:
        shutil.rmtree(keep, ignore_errors=True)
        os.rename(folder, keep)
    shutil.rmtree(folder, ignore_errors=True)
    return out


def measure_heap(runtime, flash, keys):
    """Peak live heap of the 100-deal match and the smallest heap that plays it, in a heap
    of k KiB plus what the fake machine module holds (a board has `machine` built in)."""
    probe = drive(runtime, flash, _empty(flash))
    if not probe["ok"]:
        raise RuntimeError("%s: boot failed: %s" % (runtime, probe["error"]))
    # Neither the fake machine module nor a ROMFS image read into this heap is on a board's.
    rom = probe.get("rom", 0)
    fake = probe["fake"] + rom

    # A run "plays" only if its match ends as in a roomy heap: a boot that ran short of
    # memory must not pass for one that played (it once showed as a lost match, not an
    # error).
    want = drive(runtime, flash, keys).get("deals")

    def run(k):
        r = drive(runtime, flash, keys, heap=k * 1024 + fake)
        if r["ok"] and r.get("deals") != want:
            r["ok"] = False
            r["error"] = "the match did not play out: %s deals, not %s" % (r.get("deals"), want)
        return r

    first = run(HEAP_START)
    res = {"runtime": runtime, "fake_machine": fake - rom, "fits_56k": first["ok"]}
    if rom:
        res["rom_image_in_heap"] = rom
    if first["ok"]:
        lo, hi, best = 0, HEAP_START, first
        stretch = run(STRETCH)
        res["fits_48k"] = stretch["ok"]
        if stretch["ok"]:
            hi, best = STRETCH, stretch
        else:
            lo = STRETCH
    else:
        res["error_56k"] = first["error"]
        res["fits_48k"] = False
        lo, hi = HEAP_START, HEAP_START * 2
        best = run(hi)
        while not best["ok"]:
            lo, hi = hi, hi * 2
            if hi > 4096:
                raise RuntimeError("the 100-deal match does not run even in 4 MiB of heap")
            best = run(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        r = run(mid)
        if r["ok"]:
            hi, best = mid, r
        else:
            lo = mid
    res.update(smallest_k=hi, peak=best["peak"] - fake, start=best["start"] - fake,
               presses=best["presses"], deals=best["deals"], names=best.get("qstr_qstr", 0),
               names_bytes=best.get("qstr_total_bytes", 0))
    return res


ROM_IMAGE = "firmware.romfs"


def _rom_flash(flash):
    """The same board with its code in a ROMFS image (tools/romfs.py): the folder keeps
    what stays on the read-write filesystem (main.py, board.json, data/)."""
    import os
    import shutil

    import romfs

    folder = flash + "-rom"
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    keep = ("main.py", "board.json", "data")
    for name in os.listdir(flash):
        src = os.path.join(flash, name)
        if name in keep:
            copy = shutil.copytree if os.path.isdir(src) else shutil.copy
            copy(src, os.path.join(folder, name))
    with open(os.path.join(folder, ROM_IMAGE), "wb") as f:
        f.write(romfs.image(flash, outside=keep))
    return folder


def _empty(flash):
    path = flash + "-nokeys.txt"
    open(path, "w").close()
    return path


def measure_alloc(runtime, flash, keys):
    """Bytes each key press allocates (the collector off during the press)."""
    r = drive(runtime, flash, keys, alloc=True)
    if not r["ok"]:
        raise RuntimeError("%s: alloc run failed: %s" % (runtime, r["error"]))
    a = r["alloc"]
    return {"runtime": runtime, "median": median(a), "p95": percentile(a, 95), "max": max(a),
            "presses": len(a), "total": sum(a)}


def measure_imports(runtime, flash):
    import os

    import runtimes

    proc = runtimes.run(runtime, [os.path.join(_root(), "tools", "heap_imports.py")],
                        paths=[os.path.join(_root(), "host_tests", "fake_machine"), ""],
                        heapsize="1m", cwd=flash)
    return _json_out(proc, "heap per package on " + runtime)

def measure_first_frame(tmp, flash, keys, runs):
    """Seconds from process start to the first frame over a late mid-deal flash (the real
    loop.run() and no key), as a ratio to a bare interpreter start. 64-bit port."""
    import os
    import subprocess
    import time

    import runtimes

    # The flash: the 100-deal match up to the middle of its last deal.
    with open(keys) as f:
        entries = [line for line in f if line.strip()]
    part = os.path.join(tmp, "first_frame_keys.txt")
    with open(part, "w") as f:
        f.writelines(entries[:-6])
    late = os.path.join(tmp, "late_flash")
    if not drive("mp64", flash, part, keep=late)["ok"]:
        raise RuntimeError("first-frame setup failed")
    cmd, env = runtimes.command("mp64", [os.path.join(_root(), "tools", "heap_drive.py"),
                                         _empty(flash)],
                                paths=[os.path.join(_root(), "host_tests", "fake_machine"), ""])

    def timed(cmd):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, env=env, capture_output=True, cwd=late)
        dt = time.perf_counter() - t0
        if proc.returncode:
            raise RuntimeError("%s failed: %s" % (cmd, proc.stderr.decode()[-500:]))
        return dt

    bare = []
    frame = []
    for _ in range(runs):  # interleaved, so both see the same machine load
        bare.append(timed([cmd[0], "-c", "pass"]))
        frame.append(timed(cmd))
    return {"bare_s": median(bare), "first_frame_s": median(frame),
            "ratio": median(frame) / median(bare), "runs": runs}


def heap_only(runtime):
    """The heap figures of the 100-deal match on one runtime (a quick check while slimming
    the firmware)."""
    import os
    import shutil
    import tempfile

    for p in (os.path.join(_root(), "firmware"), os.path.join(_root(), "tools")):
        if p not in sys.path:
            sys.path.insert(0, p)
    tmp = tempfile.mkdtemp(prefix="bench-")
    try:
        hundred = os.path.join(tmp, "hundred.txt")
        _hundred_keys(hundred)
        flash = _flash(tmp, "hundred", HUNDRED)
        h = measure_heap(runtime, flash, hundred)
        h["imports"] = measure_imports(runtime, flash)
        rom = measure_heap(runtime, _rom_flash(flash), hundred)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for name, r in (("", h), (" (code in ROMFS)", rom)):
        print("%s%s: peak %d B, after boot %d B, plays from %dk; 56k %s, 48k %s" % (
            runtime, name, r["peak"], r["start"], r["smallest_k"], _yes(r["fits_56k"]),
            _yes(r["fits_48k"])))
        print("  interned names after boot: %d, %d B" % (r["names"], r["names_bytes"]))
    print("  per package: " + ", ".join("%s %d" % (k, v) for k, v in h["imports"]))
    return h


def build(quick=False, camera=True):
    import os
    import shutil
    import tempfile

    root = _root()
    for p in (os.path.join(root, "firmware"), os.path.join(root, "tools")):
        if p not in sys.path:
            sys.path.insert(0, p)
    import runtimes

    tmp = tempfile.mkdtemp(prefix="bench-")
    try:
        os.mkdir(os.path.join(tmp, "presses"))
        presses = _json_out(_run(["tools/bench.py", "presses", os.path.join(tmp, "presses"),
                                  "2" if quick else "4"], _source_paths()), "presses")
        hundred = os.path.join(tmp, "hundred.txt")
        deals, entries = _hundred_keys(hundred)
        flash = _flash(tmp, "hundred", HUNDRED)
        heap = {}
        for rt in ("mp32", "mp64"):
            if runtimes.missing(rt):
                print("bench: %s skipped: %s" % (rt, runtimes.missing(rt)), file=sys.stderr)
                continue
            heap[rt] = measure_heap(rt, flash, hundred)
            heap[rt]["imports"] = measure_imports(rt, flash)
            if rt == "mp32":  # the same board with a ROMFS partition (tools/romfs.py)
                heap[rt]["romfs"] = measure_heap(rt, _rom_flash(flash), hundred)
        board = "mp32" if "mp32" in heap else "mp64"
        alloc = {rt: measure_alloc(rt, flash, hundred) for rt in (board, "wasm")
                 if not runtimes.missing(rt)}
        growth_keys = os.path.join(tmp, "growth.txt")
        _growth_keys(growth_keys, 20)
        fresh = _flash(tmp, "fresh", "")
        h = heap[board]
        grow = drive(board, fresh, growth_keys,
                     heap=(h["smallest_k"] + 8) * 1024 + h["fake_machine"])
        if not grow["ok"]:
            raise RuntimeError("20 matches failed: " + grow["error"])
        boot_flash = os.path.join(tmp, "boot_flash")
        os.mkdir(boot_flash)
        boot = _json_out(_run(["tools/bench.py", "boot", hundred, boot_flash, HUNDRED],
                              _source_paths()), "boot")
        first = measure_first_frame(tmp, flash, hundred, 5 if quick else 9)
        misc = _json_out(_run(["tools/bench.py", "misc"], _source_paths()), "misc")
        session = measure_sessions(tmp)
        evenings = measure_evenings(tmp, session=session)
        savings = measure_savings(tmp, [ev for ev in evenings
                                        if ev["keys"] == "keypad" and not ev["club"]][0],
                                  session)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    web = None
    import browser

    if browser.missing():
        print("bench: browser figures skipped: %s" % browser.missing(), file=sys.stderr)
    else:
        import web_figures

        web = web_figures.figures()
        web["kills"] = web_figures.durable_figures()
    club = None
    import mosquitto

    if mosquitto.missing():
        print("bench: club figures skipped: %s" % mosquitto.missing(), file=sys.stderr)
    else:
        import club_figures

        club = club_figures.figures()
    import fleet_figures
    import font_figures

    result = figures(presses, heap, board, alloc, grow, boot, first, misc, deals, entries, web,
                     club, measure_deploy(), evenings, font_figures.figures(),
                     fleet_figures.figures(), savings)
    if not camera:
        return result
    if not browser.missing():
        import camera_figures

        result["rows"] += camera_rows(camera_figures.figures())
        result["rows"] += teach_rows(teach_figures())
    designs = card_designs_figures()
    if designs:
        result["rows"] += card_designs_rows(designs)
        result["rows"] += taught_designs_rows(taught_designs_figures())
    return result


def teach_figures():
    """tools/camera_teach.py's figures: the held-out deck taught in Chromium."""
    import os
    import tempfile

    import camera_figures
    import camera_teach

    import web

    with tempfile.TemporaryDirectory() as tmp:
        deck = camera_figures.render_held_out(os.path.join(tmp, "cards"))
        site = os.path.join(tmp, "site")
        web.build(site)
        return camera_teach.figures(site, deck)


def teach_rows(fig):
    """Teaching camera mode a deck (issue 44): presses and seconds for its 24 cards."""
    ok = (fig["teach_seconds"] <= TARGETS["teach_seconds"]
          and fig["teach_presses"] <= TARGETS["teach_presses"] and fig["teach_cards"] == 24)
    return [{"figure": "camera, a deck taught (the held-out deck's 24 cards, four at a time,"
                       " fake camera, CPU throttled x4): seconds / presses (cards typed)",
             "value": "%.0f s / %d (%d)" % (fig["teach_seconds"], fig["teach_presses"],
                                            fig["teach_typed"]),
             "target": "<= %.0f s / %d" % (TARGETS["teach_seconds"], TARGETS["teach_presses"]),
             "status": _yes(ok), "key": "teach_deck", "raw": fig}]


def teach_only():
    """--camera-teach: the teaching row alone, in bench.json where the old one was."""
    import json
    import os

    root = _root()
    for p in (os.path.join(root, "firmware"), os.path.join(root, "tools"),
              os.path.join(root, "tools", "cardcam")):
        if p not in sys.path:
            sys.path.insert(0, p)
    rows = teach_rows(teach_figures())
    with open(os.path.join(root, "bench.json")) as f:
        result = json.load(f)
    if not any(r["key"] == "teach_deck" for r in result["rows"]):  # beside the camera's
        at = [i for i, r in enumerate(result["rows"]) if r["key"].startswith("camera_")]
        result["rows"].insert(at[-1] + 1 if at else len(result["rows"]), rows[0])
    print(benchdocs.table({"rows": rows}))
    _put_rows(result, rows)


def _designs_drawable(what):
    """tools/cardcam on the path; whether the designs' typefaces are installed (if not,
    `what` is said skipped, on stderr)."""
    import os

    here = os.path.join(_root(), "tools", "cardcam")
    if here not in sys.path:
        sys.path.insert(0, here)
    import decks

    if decks.fonts_installed():
        return True
    print("bench: %s skipped: their typefaces are not installed (make camera-decks installs "
          "them)" % what, file=sys.stderr)
    return False


def card_designs_figures(tricks=None):
    """tools/cardcam/measure_designs.py's figures as bench.json keeps them, or None (and
    why, on stderr) when the designs' typefaces are not installed. The frames as the
    whole-card networks read them are kept in build/designs-frames (measure_designs.py
    --cache): the index reader trained again is measured without reading them again."""
    import os

    if not _designs_drawable("card designs"):
        return None
    import measure_designs

    return measure_designs.bench_raw(measure_designs.measure_all(
        tricks or measure_designs.TRICKS,
        echo=lambda line: print(line, file=sys.stderr, flush=True),
        cache=os.path.join(_root(), "build", "designs-frames")))


def card_designs_rows(raw):
    """The card designs' row (issue 44): on the designs never trained on, read as the page
    reads them, no card wrong and sure and no trick proposed with a wrong card."""
    gen = raw.get("generator", {"right_pct": 0.0})
    ok = raw["wrong"] == 0 and raw["wrong_tricks"] == 0
    return [{"figure": "camera, %d card designs never trained on (%d tricks each, 640 x 480):"
                       " cards wrong and sure / tricks proposed wrong (generator seeds: right"
                       " and sure)" % (raw["designs"], raw["tricks"]),
             "value": "%d / %d (%.1f%%)" % (raw["wrong"], raw["wrong_tricks"], gen["right_pct"]),
             "target": "0 / 0", "status": _yes(ok), "key": "card_designs", "raw": raw}]


def card_designs_only(tricks=None):
    """--camera-designs: the card designs' row alone, in bench.json where the old one was."""
    import json
    import os

    raw = card_designs_figures(tricks)
    if raw is None:
        return 2
    rows = card_designs_rows(raw)
    with open(os.path.join(_root(), "bench.json")) as f:
        result = json.load(f)
    print(benchdocs.table({"rows": rows}))
    _put_rows(result, rows)
    return 0


def taught_designs_figures():
    """tools/cardcam/taught_designs.py's figures as bench.json keeps them, or None (and why,
    on stderr) when the designs' typefaces are not installed."""
    if not _designs_drawable("taught designs"):
        return None
    import taught_designs

    return taught_designs.bench_raw(taught_designs.measure_all(
        echo=lambda line: print(line, file=sys.stderr, flush=True)))


def taught_designs_rows(raw):
    """The card designs once taught (issue 44): right and sure on every design (goal 99.5%),
    none wrong and sure, no trick proposed with a wrong card."""
    if raw is None:
        return []
    ok = raw["wrong"] == 0 and raw["wrong_tricks"] == 0 and raw["lowest_right_pct"] >= 99.5
    return [{"figure": "camera, the %d card designs each taught to the page (%d tricks each,"
                       " 640 x 480): cards wrong and sure / tricks proposed wrong (the lowest"
                       " right and sure)" % (raw["designs"], raw["tricks"]),
             "value": "%d / %d (%.1f%%)" % (raw["wrong"], raw["wrong_tricks"],
                                            raw["lowest_right_pct"]),
             "target": "0 / 0 (>= 99.5%)", "status": _yes(ok), "key": "taught_designs",
             "raw": raw}]


def taught_designs_only():
    """--camera-taught: the taught designs' row alone, after the card designs' row."""
    import json
    import os

    raw = taught_designs_figures()
    if raw is None:
        return 2
    rows = taught_designs_rows(raw)
    with open(os.path.join(_root(), "bench.json")) as f:
        result = json.load(f)
    if not any(r["key"] == "taught_designs" for r in result["rows"]):
        at = [i for i, r in enumerate(result["rows"]) if r["key"] == "card_designs"]
        result["rows"].insert(at[-1] + 1 if at else len(result["rows"]), rows[0])
    print(benchdocs.table({"rows": rows}))
    _put_rows(result, rows)
    return 0


def measure_deploy():
    """What `make deploy` builds for a board (tools/deploy.py, mpy-cross for xtensawin):
    .mpy bytes per folder ("top" for the top level), main.py, the data files (texts and
    font), and the ROMFS image `make romfs` makes of it."""
    import os
    import tempfile

    import deploy
    import romfs

    with tempfile.TemporaryDirectory(prefix="s66-bench-deploy-") as tmp:
        out = os.path.join(tmp, "build")
        os.mkdir(out)
        files = deploy.build(out)
        per, source, data = deploy.sizes(files)
        image = len(romfs.image(out))
    return {"folders": {("top" if k == "." else k): v for k, v in sorted(per.items())},
            "mpy": sum(per.values()), "main_py": source, "data": data, "files": len(files),
            "romfs_image": image}


EVENING_BOARDS = {"keypad": "boards/devkitc-ssd1306-keypad.json",
                  "buttons": "boards/devkitc-ssd1306-buttons.json"}
EVENING_RULES = "classic66"


def _evening_keys(path, layout, deals):
    """The presses of `deals` deals entered as results (one line each), matches in a row:
    the first match switches the entry setting to results, each next one starts from the
    finished match's board. The first line: the deals of the last match."""
    from keyseq import entry_keys, match_keys, random_match, setup_keys
    from sixtysix.match import Match

    out = []
    last = 0
    i = 0
    while len(out) < deals:
        lines, _m = random_match(EVENING_RULES, 300 + i, suits=False, quick=100)
        if i == 0:
            pairs = match_keys(lines, layout, results=True)
        else:
            shadow = Match()
            shadow.enter_line(lines[0])
            pairs = [(lines[0], setup_keys(lines[0], layout, True))]
            for line in lines[1:]:
                pairs.append((line, entry_keys(shadow.state, line, layout, True)))
                shadow.enter_line(line)
        prefix = pairs[0][1]  # the new match's keys, typed before its first deal
        last = 0
        for _line, keys in pairs[1:]:
            if len(out) == deals:
                break
            out.append(prefix + keys)
            prefix = ""
            last += 1
        i += 1
    with open(path, "w") as f:
        f.write("%d\n" % last + "\n".join(out) + "\n")


def _evening(tmp, layout, keys, club=False, settings=None, name=""):
    """tools/evening.py once, in a flash folder of its own: its JSON, parsed."""
    import json
    import os
    import shutil

    import runtimes

    root = _root()
    folder = os.path.join(tmp, "evening-%s%s%s" % (layout, "-club" if club else "", name))
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    shutil.copy(os.path.join(root, EVENING_BOARDS[layout]), os.path.join(folder, "board.json"))
    args = [os.path.join(root, "tools", "evening.py"), keys]
    if club:
        args.append("club")
    if settings:
        args.append(json.dumps(settings))
    proc = runtimes.run("mp64", args,
                        paths=[os.path.join(root, "host_tests", "fake_machine")] +
                        _source_paths(), heapsize="4m", cwd=folder)
    return _json_out(proc, "evening " + layout + name)


def _evening_board(layout):
    import json
    import os

    with open(os.path.join(_root(), EVENING_BOARDS[layout])) as f:
        return json.load(f)


# The table on a battery whose sessions are measured (measure_sessions()): its deals, and
# the seconds between them (long enough for a session to end before the next deal).
SESSION_DEALS = 8
SESSION_GAP_S = 3


def measure_sessions(tmp):
    """The club link up only to send (club.json "connect": "to_send", net/clubsend.py),
    measured on the firmware: tools/club_battery.py (the board's boot, the real loop.run()
    in real time on the unix port, the fake machine) plays SESSION_DEALS deals against a
    Mosquitto from venue.conf (its password file and ACL) and the standings service. Returns
    {"deals", "sessions", "up_ms", "sessions_per_deal", "up_s"} (seconds up per session:
    from WiFi asked for to WiFi off, on loopback; joining a real network is
    tools/battery.py's WIFI_JOIN_S), or None without Mosquitto."""
    import json
    import os
    import threading

    import mosquitto
    import runtimes

    if mosquitto.missing():
        print("bench: the link's sessions not measured: %s" % mosquitto.missing(),
              file=sys.stderr)
        return None
    root = _root()
    if root not in sys.path:
        sys.path.insert(0, root)  # the club/ package: the standings service
    from club.service import Service

    folder = os.path.join(tmp, "sessions")
    flash = os.path.join(folder, "t01")
    os.makedirs(flash)
    with open(os.path.join(root, EVENING_BOARDS["keypad"])) as f:
        board = json.load(f)
    with open(os.path.join(flash, "board.json"), "w") as f:
        json.dump(board, f)
    users = {"standings": "svc-pw", "t01": "pw-t01"}
    with mosquitto.Broker(os.path.join(folder, "broker"), users=users) as b:
        with open(os.path.join(flash, "club.json"), "w") as f:
            json.dump({"table": "t01", "broker": "127.0.0.1", "port": b.port,
                       "password": "pw-t01", "ssid": "club", "connect": "to_send"}, f)
        svc = Service(os.path.join(folder, "night.sqlite"), "127.0.0.1", b.port, "standings",
                      "svc-pw")
        th = threading.Thread(target=svc.run, daemon=True)
        th.start()
        try:
            if not svc.connected.wait(60):
                raise RuntimeError("sessions: the service did not subscribe")
            plan = "new classic66 target=30 names=Ann,Bob;deals %d %d 1;acked 60" % (
                SESSION_DEALS, SESSION_GAP_S)
            proc = runtimes.run("mp64", [os.path.join(root, "tools", "club_battery.py"), plan,
                                         '{"dim_s": 1}'],
                                paths=[os.path.join(root, "host_tests", "fake_machine")] +
                                _source_paths(), cwd=flash, timeout=300)
            out = _json_out(proc, "sessions")
        finally:
            svc.stop.set()
            th.join(10)
            svc.db.close()
    if out["pending"] or out["deals"] != SESSION_DEALS or out["light_with_wifi"]:
        raise RuntimeError("sessions: %r" % out)
    return {"deals": out["deals"], "sessions": out["sessions"], "up_ms": out["up_ms"],
            "sessions_per_deal": round(out["sessions"] / out["deals"], 3),
            "up_s": round(out["up_ms"] / 1000.0 / out["sessions"], 3)}


def measure_evenings(tmp, layouts=("keypad", "buttons"), session=None):
    """tools/evening.py for the keypad and the four-button builds, with and without the club
    link, priced by tools/battery.py with the board file's cell and supply. With `session`
    (measure_sessions()) the evenings without the club link also price the club link up
    only to send ("battery_wifi_per_deal")."""
    import os

    import battery

    out = []
    for layout in layouts:
        cfg = _evening_board(layout)
        cell, supply = battery.cell_of(cfg), battery.supply_of(cfg)
        keys = os.path.join(tmp, "evening-%s.txt" % layout)
        _evening_keys(keys, layout, 3 * 3600 // 240)
        for club in (False, True):
            ev = _evening(tmp, layout, keys, club)
            ev["battery"] = battery.evening(ev, cell, supply)
            if not club and session is not None:
                ev["battery_wifi_per_deal"] = battery.wifi_per_deal(ev, cell, supply, session)
                ev["session"] = session
            out.append(ev)
    return out


def measure_savings(tmp, base, session=None):
    """The keypad build's evening again for each of battery.LEVERS (`base`: its evening
    without the club link, from measure_evenings(); the one with the club link measured
    here), each priced with its lever: [(name, label, evening)], the evening's "battery"
    its price, "lever" what priced it. The levers of the link up only to send need
    `session` (measure_sessions()): without it they are left out."""
    import os

    import battery

    cfg = _evening_board("keypad")
    cell, supply = battery.cell_of(cfg), battery.supply_of(cfg)
    keys = os.path.join(tmp, "evening-keypad.txt")
    if not os.path.exists(keys):
        _evening_keys(keys, "keypad", 3 * 3600 // 240)
    bases = {"plain": base, "club": _evening(tmp, "keypad", keys, True, None, "-base")}
    measured = {}
    out = []
    for name, label, on, settings, price, per_deal in battery.LEVERS:
        if per_deal and session is None:
            continue
        if settings is None:
            ev = dict(bases[on])
        else:
            at = (on, tuple(sorted(settings.items())))
            if at not in measured:
                measured[at] = _evening(tmp, "keypad", keys, on == "club", settings,
                                        "-" + name)
            ev = dict(measured[at])
        ev.pop("battery", None)
        ev.pop("battery_wifi_per_deal", None)
        ev.pop("session", None)
        ev["battery"] = battery.lever(ev, cell, supply, price, per_deal, session)
        ev["lever"] = {"on": on, "price": price, "per_deal": per_deal,
                       "goal": battery.goal_of(on, per_deal)}
        if per_deal:
            ev["lever"]["session"] = session
        out.append((name, label, ev))
    return out


def _yes(ok):
    return "met" if ok else "NOT MET"


def web_rows(web):
    """The browser build's rows, from tools/web_figures.py's figures."""
    rows = []

    def row(name, value, target, ok, key, raw):
        rows.append({"figure": name, "value": value, "target": target,
                     "status": _yes(ok) if ok is not None else "-", "key": key, "raw": raw})

    row("browser build: bytes of a first visit", "%d" % web["first_load_bytes"],
        "<= %.1f MB" % (TARGETS["web_first_load"] / 1e6),
        web["first_load_bytes"] <= TARGETS["web_first_load"], "web_first_load", web)
    row("  navigation to first frame, first visit / from cache",
        "%.0f ms / %.0f ms" % (web["first_frame_ms"], web["repeat_frame_ms"]), "-", None,
        "web_first_frame", web["first_frame_ms"])
    row("  key to frame, median / p95 (%d presses)" % web["key_presses"],
        "%.1f / %.1f ms" % (web["key_to_frame_median_ms"], web["key_to_frame_p95_ms"]),
        "p95 <= %.0f ms" % TARGETS["web_key_p95_ms"],
        web["key_to_frame_p95_ms"] <= TARGETS["web_key_p95_ms"], "web_key_to_frame", web)
    row("  tap to frame, touch events, median / p95 (%d taps)" % web["key_presses"],
        "%.1f / %.1f ms (input queue %.1f / %.1f)" % (
            web["tap_to_frame_median_ms"], web["tap_to_frame_p95_ms"],
            web["tap_wait_median_ms"], web["tap_wait_p95_ms"]),
        "p95 <= %.0f ms" % TARGETS["web_key_p95_ms"],
        web["tap_to_frame_p95_ms"] <= TARGETS["web_key_p95_ms"], "web_tap_to_frame", web)
    kills = web.get("kills")
    if kills:
        row("  browser killed (SIGKILL) at %d points of a match and reopened: kills that lost "
            "an entry drawn >= 200 ms before / < 200 ms before" % kills["kills"],
            "%d / %d (%d killed before the key's frame)" % (
                kills["kills_not_ok"], kills["kills_lost_recent"], kills["kills_in_flight"]),
            "0 / 0", kills["kills_not_ok"] == 0 and kills["kills_lost_recent"] == 0,
            "web_kills", kills)
    if "tap_vsync_to_frame_p95_ms" in web:
        row("    with headless Chromium's 60 Hz frame clock (it holds a touch to the next frame)",
            "%.1f / %.1f ms (input queue %.1f / %.1f)" % (
                web["tap_vsync_to_frame_median_ms"], web["tap_vsync_to_frame_p95_ms"],
                web["tap_vsync_wait_median_ms"], web["tap_vsync_wait_p95_ms"]), "-", None,
            "web_tap_vsync", web)
    return rows


def wake_rows(pw):
    """The idle wake-up rows, from worker_misc()'s "power"."""
    rows = []

    def row(name, value, target, ok, key, raw):
        rows.append({"figure": name, "value": value, "target": target,
                     "status": _yes(ok) if ok is not None else "-", "key": key, "raw": raw})

    for name, label, need in (("wake", "key wakes the chip", 0),
                              ("nowake", "no key wake source", None),
                              ("plain", "no lightsleep", None)):
        r = pw[name]
        scan = 1000.0 / r["scan_ms"]
        on = r["rate"].get("on", 0)
        row("idle wake-ups/s, panel on (%s)" % label, "%.1f" % on,
            "<= key scan (%.0f/s)" % scan, on <= scan + 1e-9, "wake_on_" + name, r)
        off = r["rate"].get("off", 0)
        off_scan = 1000.0 / min(r["cap_ms"], r["nap_ms"])
        # A key that wakes the chip needs no scan: the loop wakes only to feed the watchdog.
        ok = off <= off_scan + 1e-9
        row("idle wake-ups/s, panel off (%s)" % label, "%.4f" % off,
            "<= key scan (%.0f/s)" % off_scan if need is None else
            "<= the watchdog's (%.2f/s; keys wake it)" % off_scan, ok, "wake_off_" + name, r)
    return rows


def battery_rows(evenings, savings=()):
    """The battery rows and the wake-to-frame row, from measure_evenings() and
    measure_savings()."""
    import battery

    rows = []

    def row(name, value, target, ok, key, raw):
        rows.append({"figure": name, "value": value, "target": target,
                     "status": _yes(ok) if ok is not None else "-", "key": key, "raw": raw})

    def told(b):
        return "%.0f h / %.1f evenings (%.1f mA from the cell)" % (b["hours"], b["evenings"],
                                                                   b["cell_ma"])

    for ev in evenings:
        b = ev["battery"]
        cell = b["cell"]
        goal = TARGETS["evenings_club" if ev["club"] else "evenings"]
        ev["meets"] = b["evenings"] >= goal  # docs/boards.md's "meets" column
        row("battery, %s build%s, %d mAh %s: hours of play / 3-hour evenings" % (
            ev["keys"], ", club link up (CPU awake, WiFi in modem sleep)" if ev["club"] else "",
            cell["mAh"], cell["kind"]), told(b),
            ">= %d evenings" % goal, b["evenings"] >= goal,
            "battery_%s%s" % (ev["keys"], "_club" if ev["club"] else ""), ev)
    for ev in evenings:
        d = ev.get("battery_wifi_per_deal")
        if d is not None:
            se = ev["session"]
            row("  club link up only to send (built; club.json \"connect\": \"to_send\"): %s "
                "build, %.2f sessions a deal of %.2f s up (measured) + %.1f s joining WiFi "
                "(cited) at %.0f mA, light sleep between" % (
                    ev["keys"], se["sessions_per_deal"], se["up_s"], battery.WIFI_JOIN_S,
                    battery.WIFI_CONNECT_MA), told(d),
                ">= %d evenings" % TARGETS["evenings_club"],
                d["evenings"] >= TARGETS["evenings_club"],
                "battery_%s_wifi_per_deal" % ev["keys"],
                {"battery": d, "session": se, "join_s": battery.WIFI_JOIN_S,
                 "connect_ma": battery.WIFI_CONNECT_MA,
                 "meets": d["evenings"] >= TARGETS["evenings_club"]})
    for name, label, ev in savings:
        b = ev["battery"]
        lv = ev["lever"]
        goal = lv["goal"]
        evening = {k: v for k, v in ev.items() if k not in ("battery", "lever")}
        row("  keypad build, %s: %s" % ("club link" if goal == TARGETS["evenings_club"]
                                        else "no club link", label), told(b),
            ">= %d evenings" % goal, b["evenings"] >= goal, "battery_keypad_" + name,
            {"battery": b, "settings": ev.get("settings", {}), "led": b["led_ma"] > 0,
             "contrast": ev["contrast"], "dim_s": ev["dim_s"], "scan_ms": ev["scan_ms"],
             "lightsleeps": ev["lightsleeps"], "lever": lv, "evening": evening,
             "meets": b["evenings"] >= goal})
    waking = [ev for ev in evenings if not ev["club"]]
    if waking:
        turn = max(ev["wake_turn_bytes"] for ev in waking)
        ms = battery.wake_to_frame_ms(turn)
        row("key to frame after a light sleep, computed, not measured: wake %.1f ms (an "
            "estimate) + a loop turn %.1f ms (assumed) + %d bytes to the panel (measured)" % (
                battery.WAKE_MS, battery.TURN_MS, turn), "%.1f ms (estimate)" % ms,
            "<= %d ms" % TARGETS["wake_frame_ms"], ms <= TARGETS["wake_frame_ms"],
            "wake_to_frame", {"wake_ms": battery.WAKE_MS, "turn_ms": battery.TURN_MS,
                              "turn_bytes": turn, "ms": round(ms, 2), "measured": False})
    return rows


def battery_only():
    """`--battery`: the idle wake-ups and the evenings measured again, their rows replaced
    in bench.json (the others kept, and the flash figures of the same worker), then the
    docs written from it."""
    import json
    import os
    import shutil
    import tempfile

    root = _root()
    for p in (os.path.join(root, "firmware"), os.path.join(root, "tools")):
        if p not in sys.path:
            sys.path.insert(0, p)
    path = os.path.join(root, "bench.json")
    with open(path) as f:
        result = json.load(f)
    tmp = tempfile.mkdtemp(prefix="s66-bench-battery-")
    try:
        misc = _json_out(_run(["tools/bench.py", "misc"], _source_paths()), "misc")
        session = measure_sessions(tmp)
        evenings = measure_evenings(tmp, session=session)
        base = [ev for ev in evenings if ev["keys"] == "keypad" and not ev["club"]][0]
        new = wake_rows(misc["power"]) + battery_rows(evenings,
                                                      measure_savings(tmp, base, session))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for r in new:
        print("%s: %s (%s, %s)" % (r["figure"], r["value"], r["target"], r["status"]))
    _put_rows(result, new)


def _write_bench(result, path=None):
    """bench.json written whole or not at all: a figure that cannot be written (a value JSON
    does not take) leaves the file as it was, and a kill leaves the old file or the new."""
    import json
    import os

    path = path or os.path.join(_root(), "bench.json")
    text = json.dumps(result, indent=1, sort_keys=True) + "\n"
    with open(path + ".part", "w") as f:
        f.write(text)
    os.replace(path + ".part", path)


def _put_rows(result, new):
    """bench.json with the rows of `new`'s keys replaced where the first of them stood (the
    others kept), written, then the docs written from it."""
    keys = {r["key"] for r in new}
    old = result["rows"]
    at = min([i for i, r in enumerate(old) if r["key"] in keys] or [len(old)])
    rest = [r for r in old if r["key"] not in keys]
    at = min(at, len(rest))
    result["rows"] = rest[:at] + new + rest[at:]
    _write_bench(result)
    _say_docs(result)


def club_rows(club):
    """The club night's rows, from tools/club_figures.py's figures."""
    rows = []

    def row(name, value, target, ok, key, raw):
        rows.append({"figure": name, "value": value, "target": target,
                     "status": _yes(ok) if ok is not None else "-", "key": key, "raw": raw})

    sv = club["service"]
    row("club night: %d tables, each its own login (venue.conf, its ACL), the service its "
        "own process: results in the standings" % sv["tables"],
        "%d of the night + %d caught up (held: %d)" % (
            sv["night_results"], sv["catchup_results"], sv["held"]),
        "all in, none held", sv["all_acked"] and sv["held"] == 0, "club_service", sv)
    for phase, what, key in (
            ("steady", "%d deals at the tables' pace" % sv["steady_results"], "club_latency"),
            ("finish", "%d last deals, every table within a second" % sv["finish_results"],
             "club_latency_finish"),
            ("start", "a round's start, %d match headers as the seatings come"
             % sv["start_results"], "club_latency_start")):
        p95 = sv[phase + "_p95_ms"]
        row("  publish to standings (a viewer), %s: p50 / p95 / max" % what,
            "%s / %s / %s ms" % (sv[phase + "_p50_ms"], p95, sv[phase + "_max_ms"]),
            "p95 <= 1000 ms", p95 is not None and p95 <= 1000, key,
            {k: v for k, v in sv.items() if k.startswith(phase + "_")})
    row("  the service's CPU over the night / its peak RSS (the broker's CPU, the tables'; "
        "the machine's load)",
        "%.1f s of %.0f s (%d%% of a core) / %d kB (%.1f s, %.1f s; %.1f on %d CPUs)" % (
            sv["service_cpu_s"], sv["night_s"], sv["service_cpu_pct"],
            sv["service_rss_peak_kb"], sv["broker_cpu_s"], sv["swarm_cpu_s"],
            sv["load_1min"], sv["cpus"]), "-", None, "club_service_cost",
        {k: sv[k] for k in ("service_cpu_s", "night_s", "service_cpu_pct", "broker_cpu_s",
                            "service_rss_peak_kb", "swarm_cpu_s", "load_1min", "cpus")})
    row("  catching up after a stop: results/s from the service's start to the last ack",
        "%d/s (%d results)" % (sv["results_per_s"], sv["catchup_results"]), "-", None,
        "club_catchup", {k: v for k, v in sv.items() if k.startswith("catchup_")
                         or k == "results_per_s"})
    row("  standings' largest message (venue.conf's limit) / parts",
        "%d B (%s B) / %d parts of %d B" % (sv["largest_message"], sv["size_limit"],
                                            sv["standings_parts"], sv["standings_bytes"]),
        "under the limit, none refused",
        sv["largest_message"] < (sv["size_limit"] or 0) and sv["broker_refused"] == 0,
        "club_standings_size", {k: sv[k] for k in ("largest_message", "size_limit",
                                                   "standings_parts", "standings_bytes",
                                                   "broker_refused")})
    later = club.get("save_later")
    if later:
        row("  broker saving every 2 s (venue.conf) vs at every change: p95 steady / finish / "
            "round's start; catching up",
            "%s vs %s / %s vs %s / %s vs %s ms; %d vs %d results/s" % (
                sv["steady_p95_ms"], later["steady_p95_ms"], sv["finish_p95_ms"],
                later["finish_p95_ms"], sv["start_p95_ms"], later["start_p95_ms"],
                sv["results_per_s"], later["results_per_s"]),
            "-", None, "club_save_cost", later)
    air = club.get("air")
    if air:
        row("  bytes on the air per deal (table's client)", "%d (%d sent)" % (
            air["bytes_per_deal"], air["out_per_deal"]), "-", None, "club_air", air)
    ch = club.get("heap")
    if ch and "skipped" not in ch:
        row("  device heap with the club link up, 32-bit", "%d B (+%d B for the link)"
            % (ch["with_club"], ch["club_cost"]), "-", None, "club_heap", ch)
        if "rom_with_club" in ch:
            row("    the code in a ROMFS partition",
                "%d B (+%d B for the link)" % (ch["rom_with_club"], ch["rom_club_cost"]),
                "runs in a %d KiB heap" % HEAP_START, ch["rom_fits_56k"], "club_heap_romfs",
                {k: v for k, v in ch.items() if k.startswith("rom_")})
    return rows


def camera_rows(cam):
    """Camera mode's rows, from tools/camera_figures.py's figures."""
    rows = []

    def row(name, value, target, ok, key, raw):
        rows.append({"figure": name, "value": value, "target": target,
                     "status": _yes(ok) if ok is not None else "-", "key": key, "raw": raw})

    # The page asks a phone for 640 x 480 frames (web/camera.js): the goals are measured
    # there; 320 x 240, an old webcam's (the page's note names it), is shown beside them.
    row("camera, 640 x 480 frames (the page's): cards read right and sure, held-out design"
        " (%d cards of %d tricks)" % (cam["camera_cards"], cam["camera_tricks"]),
        "%.2f%%" % (100 * cam["camera_page_card_accuracy"]),
        ">= %.1f%%" % (100 * TARGETS["camera_card_accuracy"]),
        cam["camera_page_card_accuracy"] >= TARGETS["camera_card_accuracy"], "camera_page", cam)
    row("  tricks read right, every card sure",
        "%.2f%%" % (100 * cam["camera_page_trick_accuracy"]),
        ">= %.0f%%" % (100 * TARGETS["camera_trick_accuracy"]),
        cam["camera_page_trick_accuracy"] >= TARGETS["camera_trick_accuracy"],
        "camera_page_tricks", cam)
    row("  tricks that would be proposed with a wrong card",
        "%d" % cam["camera_page_wrong_tricks"], "%d" % TARGETS["camera_wrong_tricks"],
        cam["camera_page_wrong_tricks"] <= TARGETS["camera_wrong_tricks"], "camera_page_wrong",
        cam)
    low_ok = (cam["camera_card_accuracy"] >= TARGETS["camera_card_accuracy"]
              and cam["camera_trick_accuracy"] >= TARGETS["camera_trick_accuracy"]
              and cam["camera_wrong_tricks"] <= TARGETS["camera_wrong_tricks"])
    row("  the same in 320 x 240 frames, a low-resolution camera's: cards / tricks read right;"
        " proposed wrong",
        "%.2f%% / %.2f%%; %d" % (100 * cam["camera_card_accuracy"],
                                 100 * cam["camera_trick_accuracy"], cam["camera_wrong_tricks"]),
        ">= %.1f%% / %.0f%%; %d" % (100 * TARGETS["camera_card_accuracy"],
                                    100 * TARGETS["camera_trick_accuracy"],
                                    TARGETS["camera_wrong_tricks"]),
        low_ok, "camera_cards", cam)
    for key, size in (("camera_known_page", "640 x 480"), ("camera_known", "320 x 240")):
        ok = (cam[key + "_card_accuracy"] >= TARGETS["camera_card_accuracy"]
              and cam[key + "_trick_accuracy"] >= TARGETS["camera_trick_accuracy"]
              and cam[key + "_wrong_tricks"] <= TARGETS["camera_wrong_tricks"])
        row("  tricks of whole deals, the cards played left out, %s (%d cards): cards / tricks"
            " read right; proposed wrong" % (size, cam[key + "_cards"]),
            "%.2f%% / %.2f%%; %d" % (100 * cam[key + "_card_accuracy"],
                                     100 * cam[key + "_trick_accuracy"],
                                     cam[key + "_wrong_tricks"]),
            ">= %.1f%% / %.0f%%; %d" % (100 * TARGETS["camera_card_accuracy"],
                                        100 * TARGETS["camera_trick_accuracy"],
                                        TARGETS["camera_wrong_tricks"]),
            ok, key, cam)
    row("  frame to proposal p95, CPU throttled x4 (frame read p95; frames analysed/s)",
        "%.0f ms (%.0f ms; %.1f/s)" % (cam["camera_frame_to_proposal_p95_ms"],
                                       cam["camera_frame_to_reading_p95_ms"], cam["camera_fps"]),
        "p95 <= %.0f ms" % TARGETS["camera_proposal_p95_ms"],
        cam["camera_frame_to_proposal_p95_ms"] <= TARGETS["camera_proposal_p95_ms"],
        "camera_latency", cam)
    row("  key to frame while camera mode is on, CPU throttled x4, median / p95 (%d keys;"
        " camera off: p95)" % cam["camera_on_key_presses"],
        "%.0f / %.0f ms (%.0f ms)" % (cam["camera_on_key_median_ms"], cam["camera_on_key_p95_ms"],
                                      cam["camera_off_key_p95_ms"]),
        "-", None, "camera_keys", cam)
    row("  bytes loaded when camera mode turns on (runtime and model)",
        "%d" % cam["camera_on_bytes"], "<= %.1f MB" % (TARGETS["camera_on_bytes"] / 1e6),
        cam["camera_on_bytes"] <= TARGETS["camera_on_bytes"], "camera_bytes", cam)
    row("  presses per 2-player deal with trump and a marriage, by camera / typed, ranks only"
        " (%d tricks)"
        % cam["camera_deal_tricks"],
        "%d / %d" % (cam["camera_deal_presses"], cam["camera_deal_presses_typed"]),
        "<= %d" % TARGETS["camera_deal_presses"],
        cam["camera_deal_presses"] <= TARGETS["camera_deal_presses"] and cam["camera_deal_equal"],
        "camera_presses", cam)
    return rows


def web_only():
    """--web: the browser build's rows alone, in bench.json where the old ones were."""
    import json
    import os

    import web_figures

    web = web_figures.figures()
    web["kills"] = web_figures.durable_figures()
    rows = web_rows(web)
    with open(os.path.join(_root(), "bench.json")) as f:
        result = json.load(f)
    print(benchdocs.table({"rows": rows}))
    _put_rows(result, rows)


def club_only():
    """--club: the club night's rows alone (tools/club_figures.py), in bench.json where the
    old ones were."""
    import json
    import os

    import club_figures
    import mosquitto

    if mosquitto.missing():
        print("bench: club figures need %s" % mosquitto.missing(), file=sys.stderr)
        raise SystemExit(2)
    rows = club_rows(club_figures.figures())
    with open(os.path.join(_root(), "bench.json")) as f:
        result = json.load(f)
    print(benchdocs.table({"rows": rows}))
    _put_rows(result, rows)


def camera_only():
    """--camera: camera mode's figures alone, in bench.json in place of the old ones."""
    import json
    import os

    root = _root()
    for p in (os.path.join(root, "firmware"), os.path.join(root, "tools")):
        if p not in sys.path:
            sys.path.insert(0, p)
    import camera_figures

    rows = camera_rows(camera_figures.figures(shot=camera_figures.SHOT))
    path = os.path.join(root, "bench.json")
    with open(path) as f:
        result = json.load(f)
    result["rows"] = [r for r in result["rows"] if not r["key"].startswith("camera_")] + rows
    print(benchdocs.table({"rows": rows}))
    _write_bench(result, path)
    _say_docs(result)

def fleet_row(fl):
    """The update's row (tools/fleet_figures.py), or None when its runtime is missing."""
    if not fl or "skipped" in fl:
        return None
    return {"figure": "update over WiFi: heap it adds, 32-bit / time to take the whole "
                      "firmware (%d files, host disk)" % fl["files"],
            "value": "%d B / %d ms (%d B bundle)" % (fl["heap_added"], fl["ms_median"],
                                                      fl["bundle_bytes"]),
            "target": "-", "status": "-", "key": "fleet", "raw": fl}


def figures(presses, heap, board, alloc, grow, boot, first, misc, deals, entries, web=None,
            club=None, deploy=None, evenings=None, font=None, fleet=None, savings=()):
    rows = []

    def row(name, value, target, ok, key, raw):
        rows.append({"figure": name, "value": value, "target": target,
                     "status": _yes(ok) if ok is not None else "-", "key": key, "raw": raw})

    for layout in ("keypad", "buttons"):
        limit2 = TARGETS["trick2_" + layout]
        t2 = presses["trick2"][layout]["mean"]
        row("presses per 2-player trick, %s" % layout, "%.2f" % t2, "<= %d" % limit2,
            t2 <= limit2, layout + "_trick2", presses["trick2"][layout])
        for n in (3, 4):
            v = presses["trick%d" % n][layout]
            row("presses per %d-player trick, %s" % (n, layout), "%.2f" % v["mean"], "-", None,
                "%s_trick%d" % (layout, n), v)
        q = presses["quick_deal"][layout]
        row("presses per deal, quick entry, %s" % layout, "%.2f" % q["mean"],
            "<= %d" % TARGETS["quick_deal"], q["mean"] <= TARGETS["quick_deal"],
            layout + "_quick_deal", q)
        q = presses["quick_deal_menu"][layout]
        row("  through the menu (tricks setting)", "%.2f" % q["mean"], "-", None,
            layout + "_quick_deal_menu", q)
    full = presses["full_driver"]
    fmed, fp95 = median(full), percentile(full, 95)
    for layout in ("keypad", "buttons"):
        b = presses["per_key_bytes"][layout]
        med = b["median"]
        row("panel bytes per key press, %s, median / p95" % layout,
            "%d / %d (%.1f%% / %.1f%%)" % (med, b["p95"], 100.0 * med / fmed,
                                           100.0 * b["p95"] / fmed),
            "median <= %d%% of full (%d)" % (TARGETS["panel_share"] * 100,
                                             fmed * TARGETS["panel_share"]),
            med <= fmed * TARGETS["panel_share"],
            "panel_bytes_" + layout, b)
    row("  full-frame driver (show_full), median / p95", "%d / %d" % (fmed, fp95), "-", None,
        "panel_bytes_full", {"median": fmed, "p95": fp95, "presses": len(full)})
    names = {"mp32": "32-bit unix port (the board's)", "mp64": "64-bit unix port",
             "wasm": "WebAssembly port (32-bit)"}
    for rt in ("mp32", "mp64"):
        if rt not in heap:
            continue
        h = heap[rt]
        row("peak live heap, 100-deal match, %s" % names[rt],
            "%d B; plays from a %dk heap" % (h["peak"], h["smallest_k"]),
            "runs in a %d KiB heap" % HEAP_START, h["fits_56k"], "heap_" + rt, h)
        if rt == "mp32":
            row("  stretch: runs in a %d KiB heap" % STRETCH, "yes" if h["fits_48k"] else "no",
                "yes", h["fits_48k"], "heap_stretch_" + rt, h["fits_48k"])
        if "romfs" in h:
            r = h["romfs"]
            row("  the code in a ROMFS partition (run in place)",
                "%d B; plays from a %dk heap" % (r["peak"], r["smallest_k"]),
                "runs in a %d KiB heap" % HEAP_START, r["fits_56k"], "heap_romfs_" + rt, r)
        if not h["fits_56k"]:
            err = h["error_56k"].replace("memory allocation failed, allocating ", "(")
            row("  at %dk" % HEAP_START, err.replace(" bytes", " B)", 1), "-", None,
                "heap_56k_error_" + rt, h["error_56k"])
        row("  live heap after boot and first frame", "%d B" % h["start"], "-", None,
            "heap_start_" + rt, h["start"])
        row("  heap per package (import)", ", ".join(
            "%s %.1fk" % (k, v / 1024.0) for k, v in h["imports"]), "-", None,
            "heap_imports_" + rt, h["imports"])
    for rt, a in alloc.items():
        row("bytes allocated per key press, %s, median / p95" % names[rt],
            "%d / %d (max %d)" % (a["median"], a["p95"], a["max"]), "-", None,
            "alloc_per_press_" + rt, a)
    marks = grow["marks"]
    growth = marks[-1] - marks[0]
    # A leak only adds: the heap after the last five matches never comes back down to
    # where match 1 left it. Ups and downs of a few GC blocks (end screens differ) are not.
    leak = min(marks[-5:]) - marks[0]
    row("heap growth, after match 1 -> after match %d, %s" % (len(marks), names[board]),
        "%+d B (%d -> %d; lowest of last 5: %+d)" % (growth, marks[0], marks[-1], leak),
        "0 (no rise)", leak <= 0, "heap_growth",
        {"after_each_match": marks, "growth": growth, "lowest_last5_minus_first": leak,
         "range": max(marks) - min(marks)})
    worst = max(boot["replays"])
    row("records replayed at boot, worst over a %d-deal match" % boot["deals"],
        "%d (longest deal: %d)" % (worst, boot["longest_deal"]), "<= one deal",
        worst <= boot["longest_deal"], "boot_replay",
        {"worst": worst, "last": boot["replays"][-1], "longest_deal": boot["longest_deal"],
         "boots": boot["entries"], "boots_not_equal_to_ram": boot["mismatches"]})
    row("boots equal to the state in RAM", "%d of %d" % (boot["entries"] - boot["mismatches"],
                                                         boot["entries"]),
        "all", boot["mismatches"] == 0, "boot_equal", boot["mismatches"])
    row("time to first frame / bare interpreter start", "%.2fx (%.1f ms vs %.1f ms)" % (
        first["ratio"], first["first_frame_s"] * 1000, first["bare_s"] * 1000), "-", None,
        "first_frame", first)
    fl = misc["flash"]
    row("flash bytes per event (journal line)", "%.1f" % fl["bytes_per_event"],
        "<= %d" % TARGETS["flash_event"], fl["bytes_per_event"] <= TARGETS["flash_event"],
        "flash_event", fl["bytes_per_event"])
    row("flash bytes per deal (lines + checkpoint)", "%.0f" % fl["bytes_per_deal"], "-", None,
        "flash_deal", fl)
    row("  all flash bytes / events", "%.1f" % (fl["bytes_per_deal"] * fl["deals"] /
                                                fl["events"]), "-", None, "flash_all_event",
        fl["bytes_per_deal"] * fl["deals"] / fl["events"])
    rows += wake_rows(misc["power"])
    rows += battery_rows(evenings or (), savings)
    if web:
        rows += web_rows(web)
    if club:
        rows += club_rows(club)
    if deploy:
        row("make deploy: .mpy bytes (xtensawin) / texts and font / ROMFS image",
            "%d B / %d B / %d B" % (deploy["mpy"], deploy["data"], deploy["romfs_image"]), "-",
            None, "deploy", deploy)
    if fleet_row(fleet):
        rows.append(fleet_row(fleet))
    if font_row(font):
        rows.append(font_row(font))
    return {"rows": rows, "deals_in_long_match": deals, "entries_in_long_match": entries,
            "presses_typed": presses["presses"], "matches_per_rule_set": presses["matches"]}


def font_row(font):
    """The font's row (tools/font_figures.py's figures), or None without heap figures."""
    if not font or not font["heap"]:
        return None
    rt = "mp32" if "mp32" in font["heap"] else "mp64"
    h = font["heap"][rt]
    return {"figure": "font: heap of the board's Text (font file) / of the font module, %s"
                      % ("32-bit" if rt == "mp32" else "64-bit"),
            "value": "%d B / %d B" % (h["board_text"], h["font_module"] + h["text_instance"]),
            "target": "-", "status": "-", "key": "font", "raw": font}


def font_only():
    """--font: the font's row alone (after the font was drawn again), then --docs."""
    import json
    import os

    import font_figures

    new = font_row(font_figures.figures())
    if new is None:
        print("bench: the font's row needs MicroPython", file=sys.stderr)
        return 2
    with open(os.path.join(_root(), "bench.json")) as f:
        result = json.load(f)
    print(benchdocs.table({"rows": [new]}))
    _put_rows(result, [new])
    return 0


def main(argv):
    if MICRO:
        what = argv[1]
        if what == "presses":
            worker_presses(argv[2], int(argv[3]))
        elif what == "boot":
            worker_boot(argv[2], argv[3], argv[4])
        elif what == "misc":
            worker_misc()
        else:
            print("unknown worker", what)
            return 2
        return 0
    # Anything else would run the whole bench and overwrite bench.json.
    opts = [a.split("=")[0] if a.startswith("--camera-designs=") else a
            for a in argv[1:] if a.startswith("-")]
    if "-h" in opts or "--help" in opts or set(opts) - {"--quick", "--readme", "--docs",
                                                         "--heap", "--battery", "--fleet",
                                                         "--camera", "--web", "--club",
                                                         "--camera-designs",
                                                         "--camera-teach",
                                                         "--camera-taught", "--font",
                                                         "--no-camera"}:
        asked = "-h" in opts or "--help" in opts
        print(__doc__.split("\n\n")[1], file=sys.stdout if asked else sys.stderr)
        return 0 if asked else 2
    import json
    import os
    import time

    if "--docs" in argv or "--readme" in argv:
        with open(os.path.join(_root(), "bench.json")) as f:
            result = json.load(f)
        _say_docs(result)
        return 0
    if "--battery" in argv:
        battery_only()
        return 0
    if "--fleet" in argv:  # the update's row alone, into bench.json as make bench puts it
        import fleet_figures

        path = os.path.join(_root(), "bench.json")
        with open(path) as f:
            result = json.load(f)
        new = fleet_row(fleet_figures.figures())
        if new is None:
            print("bench: the update's row needs the 32-bit runtime", file=sys.stderr)
            return 2
        rows = result["rows"]
        at = [i for i, r in enumerate(rows) if r["key"] in ("fleet", "font")]
        if at and rows[at[0]]["key"] == "fleet":
            rows[at[0]] = new
        else:
            rows.insert(at[0] if at else len(rows), new)
        _write_bench(result, path)
        print(benchdocs.table({"rows": [new]}))
        _say_docs(result)
        return 0
    designs = [a for a in argv if a.split("=")[0] == "--camera-designs"]
    if designs:
        return card_designs_only(int(designs[0].split("=")[1]) if "=" in designs[0] else None)
    if "--camera-teach" in argv:
        teach_only()
        return 0
    if "--camera-taught" in argv:
        return taught_designs_only()
    if "--font" in argv:
        return font_only()
    if "--camera" in argv:
        camera_only()
        return 0
    if "--web" in argv:
        web_only()
        return 0
    if "--club" in argv:
        club_only()
        return 0
    if "--heap" in argv:
        rest = argv[argv.index("--heap") + 1:]
        heap_only(rest[0] if rest else "mp32")
        return 0
    t0 = time.time()
    path = os.path.join(_root(), "bench.json")
    camera = "--no-camera" not in argv
    result = build(quick="--quick" in argv, camera=camera)
    result["seconds"] = round(time.time() - t0, 1)
    if not camera:  # the rows this run did not measure, as the last run left them
        with open(path) as f:
            kept = json.load(f)["rows"]
        made = {r["key"] for r in result["rows"]}
        result["rows"] += [r for r in kept if r["key"] not in made]
    print(benchdocs.table(result))
    _write_bench(result, path)
    print("\n%d figures, %d not met; %.0f s; written to bench.json" % (
        len(result["rows"]), sum(1 for r in result["rows"] if r["status"] == "NOT MET"),
        result["seconds"]))
    _say_docs(result)
    return 0


def _say_docs(result):
    marked, changed = benchdocs.write_docs(result)
    print("docs: the figures table (%d rows) and %d marked figures from bench.json; %s"
          % (len(result["rows"]), marked,
             "rewritten: " + ", ".join(changed) if changed else "all were current"))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
