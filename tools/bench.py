"""Benchmarks: every figure the design sets a target for, measured, with its target.

    make bench                    (or: .venv/bin/python tools/bench.py [--quick])

Prints a table and writes bench.json at the project root. CPython only orchestrates: every
figure comes from the firmware running in the MicroPython unix port.

  presses      tools/ui_figures.py: random legal matches of every rule set typed through
               the simulator's key layer (Sim.press), keypad and four buttons, each match
               checked against the scoring core; tricks with ranks only (the design's
               "three presses"); quick entry in the app's results-only setting, and through
               the menu.
  panel bytes  bytes each of those presses sent to the panel (median, 95th percentile), and
               keypad matches of every rule set against a driver that always sends the full
               frame (show_full).
  heap         a 100-deal match typed on the keypad into the app as main.py builds it (font
               with Cyrillic, display, storage on files), firmware compiled to .mpy, under
               `micropython -X heapsize=56k`; gc.collect() and gc.mem_alloc() after every
               press. If 56k is too small the smallest heap that runs it is found by
               bisection. Then 20 matches in a row: live heap after match 1 and match 20.
               The driver that runs there is the small script _HEAP_DRIVER below, so that
               this file's own code is not counted.
  boot         after every entry of that match, a fresh Session boots from the same files:
               the records it replays (summary log + journal lines) vs the longest deal.
               Time to the first frame: a process that boots the app over a late, mid-deal
               flash and draws once, vs `micropython -c pass` (medians).
  flash        tools/flash_figures.py (a 100+ deal match through Session) under MicroPython.
  wake-ups     hw/power.py's counters over a fake clock: the main loop idling for 30 min
               with keys that are never pressed; panel on, then panel off.

Runs the worker parts of itself under MicroPython (`micropython tools/bench.py WORKER ...`).
"""

import sys

MICRO = sys.implementation.name == "micropython"

RULE_ORDER = ("mariage", "classic66", "mariage3", "classic66-3", "mariage4", "schnapsen",
              "sechsundsechzig")
HUNDRED = "new schnapsen target=99 dealer=1"  # a long match: 100+ deals
GROWTH_RULES = "mariage"
HEAP_START = 56  # KiB: the ESP32's initial MicroPython heap

# The app with the keypad, as main.py builds it, fed key presses from a file: one line per
# entry, one character per press (sim.py's letters for the long presses). "=" lines mark
# a match's end. Prints "peak N", "mark N" lines and "done". Kept small on purpose.
_HEAP_DRIVER = """
import gc
import os
import sys
gc.collect()
from hw.display import Display
gc.collect()
from hw.storage import Store
from app.session import Session
gc.collect()
from ui.text import board_font
gc.collect()
from ui.app import App
gc.collect()


class Bus:
    def writeto(self, a, b):
        pass

    def writevto(self, a, bs):
        pass


def run(keys, root, lang, setup):
    store = Store(root, os)
    session = Session(store)
    if setup:
        session.boot()
        session.new_match(setup)
    app = App(Display(Bus()), session, board_font(), "keypad", {"lang": lang})
    app.boot()
    app.render()
    gc.collect()
    peak = gc.mem_alloc()
    first = peak
    n = 0
    with open(keys) as f:
        for line in f:
            if line[0] == "=":
                gc.collect()
                print("mark", gc.mem_alloc())
                continue
            for ch in line:
                if ch == "\\n":
                    continue
                if ch == "z":
                    app.key("*", True)
                elif ch == "m":
                    app.key("#", True)
                else:
                    app.key(ch.upper())
                app.render()
                n += 1
                gc.collect()
                used = gc.mem_alloc()
                if used > peak:
                    peak = used
    print("start", first)
    print("peak", peak)
    print("presses", n)
    print("deals", app.session.match.state.deals())
    print("done")


run(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "")
"""

# A board's start, up to its first frame: boot the app over a flash folder and draw once.
_FIRST_FRAME = """
import os
import sys
from hw.display import Display
from hw.storage import Store
from app.session import Session
from ui.text import board_font
from ui.app import App


class Bus:
    def writeto(self, a, b):
        pass

    def writevto(self, a, bs):
        pass


app = App(Display(Bus()), Session(Store(sys.argv[1], os)), board_font(), "keypad")
app.boot()
app.render()
"""


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
    for rid in RULE_ORDER:
        lines, match = random_match(rid, 1, suits=False, quick=10)
        path = root + "/full-" + rid
        os.mkdir(path)
        sim = Sim(path, "keypad")
        sim.display.show = sim.display.show_full  # a driver without a shadow
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

    from app.session import Session
    from hw.storage import Store
    from sim import Sim
    from sixtysix.snapshot import snapshot

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

    from hw.keys import Buttons

    def idle(machine, wake, seconds):
        """The main loop of main.py, no key ever pressed; wake-ups per stage."""
        clock[0] = 0
        keys = Buttons([lambda: 1] * 4, ("UP", "DOWN", "OK", "BACK"))
        power = hp.Power(Panel(), None, machine, wake)
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
            power.sleep(power.wait_ms(now, keys.idle()))
            counts[stage] = counts.get(stage, 0) + power.wakeups - before
            spans[stage] = spans.get(stage, 0) + clock[0] - now
        rate = {}
        for stage in counts:
            rate[stage] = counts[stage] * 1000 / spans[stage] if spans[stage] else 0
        return {"rate": rate, "scan_ms": power.scan_ms, "cap_ms": power.cap_ms,
                "off_s": power.off_ms // 1000}

    wake = {"wake": idle(Machine(), True, 1800), "nowake": idle(Machine(), None, 1800),
            "plain": idle(None, None, 1800)}
    print(json.dumps({"flash": flash, "power": wake}))


# ---- the orchestrator (CPython) --------------------------------------------------------


def _root():
    import os

    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _micropython():
    import os

    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    return here if os.path.exists(here) else "micropython"


def _run(args, paths, heapsize=None, timeout=600):
    import os
    import subprocess

    env = dict(os.environ, MICROPYPATH=":".join(list(paths) + [".frozen"]))
    cmd = [_micropython()]
    if heapsize:
        cmd += ["-X", "heapsize=%dk" % heapsize]
    return subprocess.run(cmd + list(args), capture_output=True, text=True, env=env,
                          cwd=_root(), timeout=timeout)


def _json_out(proc, what):
    import json

    if proc.returncode != 0:
        raise RuntimeError("%s failed:\n%s%s" % (what, proc.stdout[-2000:], proc.stderr[-3000:]))
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _source_paths():
    import os

    root = _root()
    return [os.path.join(root, "firmware"), os.path.join(root, "tools")]


def _hundred_keys(path):
    """Key presses of a 100+ deal match (one line per entry); returns (deals, setup)."""
    from dealgen import Player
    from keyseq import entry_keys
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
    with open(path, "w") as f:
        for line in p.lines[1:]:
            f.write(entry_keys(shadow.state, line, "keypad") + "\n")
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


def _heap_lang(mpy):
    import os

    for code in ("uk", "ru"):
        if os.path.exists(os.path.join(mpy, "ui", "lang", code + ".txt")):
            return code
    return "en"


def _heap_run(tmp, mpy, keys, heapsize, setup, lang):
    import os
    import shutil

    driver = os.path.join(tmp, "heap_driver.py")
    with open(driver, "w") as f:
        f.write(_HEAP_DRIVER)
    flash = os.path.join(tmp, "heap_flash")
    shutil.rmtree(flash, ignore_errors=True)
    os.mkdir(flash)
    args = [driver, keys, flash, lang] + ([setup] if setup else [])
    proc = _run(args, [mpy], heapsize)
    out = {"ok": proc.returncode == 0 and "done" in proc.stdout, "marks": []}
    for line in proc.stdout.splitlines():
        words = line.split()
        if len(words) == 2 and words[0] == "mark":
            out["marks"].append(int(words[1]))
        elif len(words) == 2 and words[1].isdigit():
            out[words[0]] = int(words[1])
    if not out["ok"]:
        err = (proc.stdout + proc.stderr).strip().splitlines() or ["?"]
        where = ""
        for line in err:
            if "heap_driver.py" in line and ", line " in line:
                n = int(line.split(", line ")[1].split(",")[0])
                where = " at `%s`" % _HEAP_DRIVER.split("\n")[n - 1].strip()
        out["error"] = err[-1] + where
    return out


def measure_heap(tmp, mpy, keys, lang):
    """Peak live heap of the 100-deal match at 56k, or the smallest heap that runs it."""
    run = _heap_run(tmp, mpy, keys, HEAP_START, HUNDRED, lang)
    res = {"heapsize_k": HEAP_START, "fits": run["ok"], "lang": lang}
    if run["ok"]:
        res.update(peak=run["peak"], start=run["start"], presses=run["presses"],
                   deals=run["deals"], smallest_k=None)
        return res
    res["error"] = run["error"]
    lo, hi = HEAP_START, HEAP_START * 2
    while not _heap_run(tmp, mpy, keys, hi, HUNDRED, lang)["ok"]:
        lo, hi = hi, hi * 2
        if hi > 4096:
            raise RuntimeError("the 100-deal match does not run even in 4 MiB of heap")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _heap_run(tmp, mpy, keys, mid, HUNDRED, lang)["ok"]:
            hi = mid
        else:
            lo = mid
    run = _heap_run(tmp, mpy, keys, hi, HUNDRED, lang)
    res.update(smallest_k=hi, peak=run["peak"], start=run["start"], presses=run["presses"],
               deals=run["deals"])
    return res


def measure_first_frame(tmp, mpy, keys, runs):
    """Seconds from process start to the first frame over a late mid-deal flash, as a
    ratio to a bare interpreter start."""
    import os
    import subprocess
    import time

    # The flash: the 100-deal match up to the middle of its last deal.
    with open(keys) as f:
        entries = [line for line in f if line.strip()]
    part = os.path.join(tmp, "first_frame_keys.txt")
    with open(part, "w") as f:
        f.writelines(entries[:-6])
    flash = os.path.join(tmp, "heap_flash")
    run = _heap_run(tmp, mpy, part, 1024, HUNDRED, "en")
    if not run["ok"]:
        raise RuntimeError("first-frame setup failed: " + run["error"])
    script = os.path.join(tmp, "first_frame.py")
    with open(script, "w") as f:
        f.write(_FIRST_FRAME)
    env = dict(os.environ, MICROPYPATH=mpy + ":.frozen")
    mp = _micropython()

    def timed(cmd):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, env=env, capture_output=True, cwd=tmp)
        dt = time.perf_counter() - t0
        if proc.returncode:
            raise RuntimeError("%s failed: %s" % (cmd, proc.stderr.decode()[-500:]))
        return dt

    bare = []
    frame = []
    for _ in range(runs):  # interleaved, so both see the same machine load
        bare.append(timed([mp, "-c", "pass"]))
        frame.append(timed([mp, script, flash]))
    return {"bare_s": median(bare), "first_frame_s": median(frame),
            "ratio": median(frame) / median(bare), "runs": runs}


def build(quick=False):
    import os
    import shutil
    import tempfile

    root = _root()
    for p in (os.path.join(root, "firmware"), os.path.join(root, "tools")):
        if p not in sys.path:
            sys.path.insert(0, p)
    import compile_check

    tmp = tempfile.mkdtemp(prefix="bench-")
    try:
        mpy = os.path.join(tmp, "mpy")
        failures = compile_check.compile_all(mpy, march=None)
        if failures:
            raise RuntimeError("mpy-cross failed: %r" % (failures,))
        lang_src = os.path.join(root, "firmware", "ui", "lang")
        shutil.copytree(lang_src, os.path.join(mpy, "ui", "lang"), dirs_exist_ok=True)
        # The font's bitmaps stay in a file on the board, as deploy copies it.
        shutil.copy(os.path.join(root, "firmware", "ui", "font6x10.bin"),
                    os.path.join(mpy, "ui", "font6x10.bin"))
        os.mkdir(os.path.join(tmp, "presses"))
        presses = _json_out(_run(["tools/bench.py", "presses", os.path.join(tmp, "presses"),
                                  "2" if quick else "4"], _source_paths()), "presses")
        hundred = os.path.join(tmp, "hundred.txt")
        deals, entries = _hundred_keys(hundred)
        lang = _heap_lang(mpy)
        heap = measure_heap(tmp, mpy, hundred, lang)
        growth_keys = os.path.join(tmp, "growth.txt")
        _growth_keys(growth_keys, 20)
        size = heap["heapsize_k"] if heap["fits"] else heap["smallest_k"] + 8
        grow = _heap_run(tmp, mpy, growth_keys, size, "", lang)
        if not grow["ok"]:
            raise RuntimeError("20 matches failed: " + grow["error"])
        boot_flash = os.path.join(tmp, "boot_flash")
        os.mkdir(boot_flash)
        boot = _json_out(_run(["tools/bench.py", "boot", hundred, boot_flash, HUNDRED],
                              _source_paths()), "boot")
        first = measure_first_frame(tmp, mpy, hundred, 5 if quick else 9)
        misc = _json_out(_run(["tools/bench.py", "misc"], _source_paths()), "misc")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return figures(presses, heap, grow, boot, first, misc, deals, entries)


def _yes(ok):
    return "met" if ok else "NOT MET"


def figures(presses, heap, grow, boot, first, misc, deals, entries):
    rows = []

    def row(name, value, target, ok, key, raw):
        rows.append({"figure": name, "value": value, "target": target,
                     "status": _yes(ok) if ok is not None else "-", "key": key, "raw": raw})

    for layout, limit2 in (("keypad", 3), ("buttons", 6)):
        t2 = presses["trick2"][layout]["mean"]
        row("presses per 2-player trick, %s" % layout, "%.2f" % t2, "<= %d" % limit2,
            t2 <= limit2, layout + "_trick2", presses["trick2"][layout])
        for n in (3, 4):
            v = presses["trick%d" % n][layout]
            row("presses per %d-player trick, %s" % (n, layout), "%.2f" % v["mean"], "-", None,
                "%s_trick%d" % (layout, n), v)
        q = presses["quick_deal"][layout]
        row("presses per deal, quick entry, %s" % layout, "%.2f" % q["mean"], "<= 3",
            q["mean"] <= 3, layout + "_quick_deal", q)
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
            "median <= 25%% of full (%d)" % (fmed // 4), med <= fmed / 4,
            "panel_bytes_" + layout, b)
    row("  full-frame driver (show_full), median / p95", "%d / %d" % (fmed, fp95), "-", None,
        "panel_bytes_full", {"median": fmed, "p95": fp95, "presses": len(full)})
    kib = 32 * 1024
    if heap["fits"]:
        row("peak live heap, 100-deal match (56k heap, .mpy)", "%d B" % heap["peak"],
            "<= 32 KiB (%d)" % kib, heap["peak"] <= kib, "heap_peak", heap)
    else:
        row("peak live heap, 100-deal match (.mpy)",
            "%d B; runs from %dk heap, not 56k" % (heap["peak"], heap["smallest_k"]),
            "<= 32 KiB (%d)" % kib, False, "heap_peak", heap)
        err = heap["error"].replace("memory allocation failed, allocating ", "(")
        err = err.replace(" bytes at ", " B) at ", 1)
        row("  at 56k", err, "-", None, "heap_56k_error", heap["error"])
    row("  live heap after boot and first frame", "%d B" % heap["start"], "-", None,
        "heap_start", heap["start"])
    marks = grow["marks"]
    growth = marks[-1] - marks[0]
    # A leak only adds: the heap after the last five matches never comes back down to
    # where match 1 left it. Ups and downs of a few GC blocks (end screens differ) are not.
    leak = min(marks[-5:]) - marks[0]
    row("heap growth, after match 1 -> after match %d" % len(marks),
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
    row("flash bytes per event (journal line)", "%.1f" % fl["bytes_per_event"], "<= 64",
        fl["bytes_per_event"] <= 64, "flash_event", fl["bytes_per_event"])
    row("flash bytes per deal (lines + checkpoint)", "%.0f" % fl["bytes_per_deal"], "-", None,
        "flash_deal", fl)
    row("  all flash bytes / events", "%.1f" % (fl["bytes_per_deal"] * fl["deals"] /
                                                fl["events"]), "-", None, "flash_all_event",
        fl["bytes_per_deal"] * fl["deals"] / fl["events"])
    pw = misc["power"]
    for name, label, need in (("wake", "key wakes the chip", 0),
                              ("nowake", "no key wake source", None),
                              ("plain", "no lightsleep", None)):
        r = pw[name]
        scan = 1000.0 / r["scan_ms"]
        on = r["rate"].get("on", 0)
        row("idle wake-ups/s, panel on (%s)" % label, "%.1f" % on,
            "<= key scan (%.0f/s)" % scan, on <= scan + 1e-9, "wake_on_" + name, r)
        off = r["rate"].get("off", 0)
        off_scan = 0.0 if need == 0 else 1000.0 / r["cap_ms"]
        # A key that wakes the chip needs no scan: one sleep per stage, nothing periodic.
        ok = off * 3600 <= 2 if need == 0 else off <= off_scan + 1e-9
        row("idle wake-ups/s, panel off (%s)" % label, "%.4f" % off,
            "<= key scan (%.0f/s)" % off_scan if need is None else "none periodic (keys wake it)",
            ok, "wake_off_" + name, r)
    return {"rows": rows, "deals_in_long_match": deals, "entries_in_long_match": entries,
            "presses_typed": presses["presses"], "matches_per_rule_set": presses["matches"]}


def table(result):
    rows = result["rows"]
    w1 = max(len(r["figure"]) for r in rows)
    w2 = max(len(r["value"]) for r in rows)
    w3 = max(len(r["target"]) for r in rows)
    out = ["%-*s  %-*s  %-*s  %s" % (w1, "figure", w2, "measured", w3, "target", "status")]
    out.append("-" * (w1 + w2 + w3 + 14))
    for r in rows:
        out.append("%-*s  %-*s  %-*s  %s" % (w1, r["figure"], w2, r["value"], w3, r["target"],
                                             r["status"]))
    return "\n".join(out)


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
    import json
    import os
    import time

    t0 = time.time()
    result = build(quick="--quick" in argv)
    result["seconds"] = round(time.time() - t0, 1)
    print(table(result))
    path = os.path.join(_root(), "bench.json")
    with open(path, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    print("\n%d figures, %d not met; %.0f s; written to bench.json" % (
        len(result["rows"]), sum(1 for r in result["rows"] if r["status"] == "NOT MET"),
        result["seconds"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
