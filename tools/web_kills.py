"""The browser killed under the page: Chromium's whole process group gets SIGKILL at chosen
points of a scripted match and is started again on the same profile (tools/webkill.mjs).

    .venv/bin/python tools/web_kills.py [--kills N] [--seed S] [--insecure] [--json]

The kill points are spread over the match's keys by kind:
  mid-trick     after a key inside a trick (the trick being typed is kept, not counted)
  in-flight     0-6 ms after the key that completes an entry (its writes under way)
  checkpoint    0-12 ms after the key that ends a deal (the journal's compaction: a new
                summary written and renamed over the old one, the journal emptied)
  after-deal    150-400 ms after the key that ends a deal (the result on the panel)
  idle          300-600 ms after any key (nothing under way)
  outbox        (club tables) 0-300 ms after a deal's end, its result waiting for the ack
What must hold after each kill: the reopened page stands where the last frame drawn at least
200 ms before the kill stood, or later (never past the key pressed when killed); and the
count of kills that lost a frame drawn less than 200 ms before it (goal 0).

figures() (for tools/bench.py, through tools/web_figures.py durable_figures()) builds the
site, serves it, runs 30 kills and returns the summary.
"""

import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for _p in (HERE, os.path.join(ROOT, "firmware")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import browser  # noqa: E402

DRIVER = os.path.join(HERE, "webkill.mjs")
RECENT_MS = 200
INSECURE_HOST = "table.test"  # mapped to 127.0.0.1: a name that is not a secure context

# kind: (share of the kills, delay range in ms)
KINDS = {
    "mid-trick": (10, (0, 250)),
    "in-flight": (7, (0, 6)),
    "checkpoint": (6, (0, 12)),
    "after-deal": (3, (150, 400)),
    "idle": (4, (300, 600)),
}
OUTBOX = ("outbox", (0, 300))


def key_points(entries):
    """{kind: [key index]} of a match's [(line, keys)]: where each kind of kill may fall
    (the index of the key pressed just before the kill)."""
    points = {kind: [] for kind in KINDS}
    i = 0
    for n, (line, keys) in enumerate(entries):
        last = i + len(keys) - 1
        nxt = entries[n + 1][0] if n + 1 < len(entries) else "trump"
        if line.startswith("trick") and len(keys) > 1:
            points["mid-trick"].extend(range(i, last))
        if nxt.startswith(("trump", "redeal")) and not line.startswith(("new", "trump")):
            points["checkpoint"].append(last)
            points["after-deal"].append(last)
        elif not line.startswith("new"):
            points["in-flight"].append(last)
        points["idle"].extend(range(i, last + 1))
        i = last + 1
    return points


def plan(entries, kills=30, seed=1, club=False):
    """The keys and the kills (ascending, one per key at most) for webkill.mjs."""
    rng = random.Random(seed)
    points = key_points(entries)
    keys = "".join(k for _line, k in entries)
    kinds = dict(KINDS)
    if club:
        kinds["outbox"] = (4, OUTBOX[1])
        points["outbox"] = list(points["after-deal"])
    total = sum(share for share, _d in kinds.values())
    taken = set()
    chosen = []
    # Deal ends are few: their kinds choose first, each from what is left.
    for kind in sorted(kinds, key=lambda k: len(points[k])):
        share, (lo, hi) = kinds[kind]
        want = max(1, round(kills * share / total))
        free = [i for i in points[kind] if i not in taken and i >= 2]
        for at in sorted(rng.sample(free, min(want, len(free)))):
            taken.add(at)
            chosen.append({"at": at, "delay": rng.randint(lo, hi), "kind": kind})
    chosen.sort(key=lambda k: k["at"])
    return keys, chosen


def drive(url, keys, kills, folder, args=(), flag=None, until=None, reference_url=None,
          ready_when=None, timeout=600):
    """Run webkill.mjs; its answer (see there). reference_url: the reference run's page, if
    not url's; ready_when: a JS condition the page must meet once open (polled)."""
    job = {"chromium": browser.chromium(), "url": url, "keys": keys, "kills": kills,
           "profile": os.path.join(folder, "profile"),
           "reference": os.path.join(folder, "reference"), "args": list(args),
           "recent": RECENT_MS, "flag": flag, "until": until,
           "referenceUrl": reference_url or url, "readyWhen": ready_when}
    proc = subprocess.run(["node", DRIVER], input=json.dumps(job), capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise RuntimeError("webkill.mjs failed (%d): %s" % (proc.returncode, proc.stderr[-2000:]))
    return json.loads(proc.stdout.strip().splitlines()[-1])


def act(url, folder, before, delay_ms, after, keys="", damage=False, args=(), timeout=300):
    """webkill.mjs's one act: the keys typed, `before` on the open page, SIGKILL `delay_ms`
    later, IndexedDB's files damaged if asked, the page opened again: its answer, with
    `before`'s and `after`'s values as "before" and "final"."""
    job = {"chromium": browser.chromium(), "url": url, "profile": os.path.join(folder, "act"),
           "args": list(args),
           "act": {"keys": keys, "before": before, "delay": delay_ms, "damage": damage,
                   "after": after}}
    proc = subprocess.run(["node", DRIVER], input=json.dumps(job), capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise RuntimeError("webkill.mjs failed (%d): %s" % (proc.returncode, proc.stderr[-2000:]))
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100.0 * (len(s) - 1))))] if s else None


def summary(answer):
    """The figures of a run: kills, how many broke the rule, lost a recent frame, per kind,
    and the reference run's key-to-frame times (each frame after its writes are on disk)."""
    kills = answer["kills"]
    by_kind = {}
    for k in kills:
        by_kind[k["kind"]] = by_kind.get(k["kind"], 0) + 1
    lat = answer["latency"]
    return {
        "kills": len(kills),
        "kills_by_kind": by_kind,
        "kills_not_ok": sum(1 for k in kills if not k.get("ok")),
        "kills_lost_recent": sum(1 for k in kills if k.get("lostRecent")),
        "kills_drawn_before_kill": sum(1 for k in kills if k["drawnBeforeKill"]),
        "kills_in_flight": sum(1 for k in kills if not k["drawnBeforeKill"]),
        "key_presses": answer["positions"] - 1,
        "key_to_frame_median_ms": round(_percentile(lat, 50), 2) if lat else None,
        "key_to_frame_p95_ms": round(_percentile(lat, 95), 2) if lat else None,
    }


def scripted_match(deals=20, seed=3):
    """[(line, keys)] of a random legal two-player match on the keypad, new match first
    (seed 3: 12 deals, 287 keys)."""
    from keyseq import KEYPAD, match_keys, random_match

    lines, _m = random_match("mariage", seed, suits=False, max_deals=deals)
    return match_keys(lines, KEYPAD)


def figures(kills=30, seed=1, insecure=False):
    import web

    why = browser.missing()
    if why:
        raise RuntimeError(why)
    entries = scripted_match()
    keys, chosen = plan(entries, kills, seed)
    with tempfile.TemporaryDirectory(prefix="s66-web-kills-") as tmp:
        site = os.path.join(tmp, "site")
        web.build(site)
        with web.serving(site) as (_server, url):
            args = []
            if insecure:
                port = url.rstrip("/").rsplit(":", 1)[1]
                url = "http://%s:%s/" % (INSECURE_HOST, port)
                args = ["--host-resolver-rules=MAP %s 127.0.0.1" % INSECURE_HOST]
            answer = drive(url, keys, chosen, tmp, args)
    if answer["failed"] or answer["errors"]:
        raise RuntimeError("the page failed: %s %s" % (answer["failed"], answer["errors"]))
    return summary(answer)


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kills", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--insecure", action="store_true",
                    help="open the page as http://%s (not a secure context)" % INSECURE_HOST)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    figs = figures(args.kills, args.seed, args.insecure)
    if args.json:
        print(json.dumps(figs, indent=1, sort_keys=True))
    else:
        for name, value in figs.items():
            print("%-26s %s" % (name, value))
    return 0 if figs["kills_not_ok"] == 0 and figs["kills_lost_recent"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
