"""Figures of the browser build, measured in headless Chromium (tools/webdrive.mjs).

    .venv/bin/python tools/web_figures.py [--json]

  first_load_bytes     every byte the server sent for a first visit (a fresh profile) until
                       the service worker has cached the site and controls the page:
                       headers and bodies, the worker's own fetches included  (goal 1.5 MB)
  first_frame_ms       navigation start to the first frame on the canvas, first visit
  repeat_frame_ms      the same on a second visit (files from the service worker's cache)
  key_to_frame_*_ms    from a key's input event to its frame painted on the canvas (after
                       its writes are on disk, web/durable.js), over three two-player deals
                       typed on the keyboard one key at a time, each KEY_GAP_MS after the
                       frame of the one before is drawn (about 110 presses):
                       median, p95, max
                       (goal p95 16 ms: one frame of a 60 Hz screen)
  tap_to_frame_*_ms    the same keys tapped on the on-screen keys with real touch events
                       (Chromium's Input.dispatchTouchEvent, a finger on for TAP_MS each;
                       held keys as long as a long press takes), each KEY_GAP_MS after
                       the frame of the one before, as the keys are, from the touch's
                       event to its frame: median, p95, max  (goal p95 16 ms). A touch
                       that starts within a millisecond of the last one's end, which no
                       finger does, waits in Chromium for that end's frame (on a page
                       with one button too)
  tap_wait_*_ms        of that, the time from the touch's event to the page's handler:
                       the browser's input queue, before any of the page's code runs
                       (median, p95)
  tap_vsync_*_ms       the same taps with headless Chromium's own 60 Hz frame clock,
                       which can hold a touch sent through the DevTools protocol until its
                       next frame, a wait of the test harness that keys and clicks never
                       see. The tap figures above run with that clock off
                       (UNTHROTTLED), so they measure the page, as the key figures do;
                       these show the harness's wait beside them (to_frame median, p95;
                       wait median, p95).

figures() returns them as a dict (the bench wires it in); the CLI prints a table.

durable_figures() (about 100 s) kills the browser 30 times during a scripted match and
reopens it (tools/web_kills.py): kills, kills_not_ok and kills_lost_recent (goal 0 both),
kills_by_kind, and key to frame while each key waits for its frame (median, p95).
`--durable` prints them.
"""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for _p in (HERE, os.path.join(ROOT, "firmware")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import browser  # noqa: E402
from keyseq import KEYPAD, match_keys, random_match  # noqa: E402
from targets import TARGETS  # noqa: E402

import web  # noqa: E402

DEALS = 3  # the key-to-frame figures come from a match of three two-player deals
TAP_MS = 50  # how long a tap's finger stays on the glass (a quick tap: 50 to 150 ms)
# Between one key's frame and the next key: quicker than a player presses keys, as the taps'
# TAP_MS is. With none, a key lands while the browser still finishes the flush that
# completed the key before, and waits for it; no player presses that fast.
KEY_GAP_MS = 50
# Chromium without its frame clock: a synthetic touch is handed to the page at once.
UNTHROTTLED = ("--disable-frame-rate-limit", "--disable-gpu-vsync")
GOALS = {"first_load_bytes": TARGETS["web_first_load"],
         "key_to_frame_p95_ms": TARGETS["web_key_p95_ms"],
         "tap_to_frame_p95_ms": TARGETS["web_key_p95_ms"]}


def _percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100.0 * (len(s) - 1))))]


def figures():
    why = browser.missing()
    if why:
        raise RuntimeError(why)
    with tempfile.TemporaryDirectory(prefix="s66-web-figures-") as tmp:
        site = os.path.join(tmp, "site")
        web.build(site)
        with web.serving(site) as (server, url):
            profile = os.path.join(tmp, "profile")
            server.sent = 0
            first = browser.drive(url, [
                {"do": "open"}, {"do": "worker"},
                {"do": "eval", "js": "window.s66.firstFrame()"}], profile=profile)
            sent = server.sent
            lines, _m = random_match("mariage", 1, suits=False, max_deals=DEALS)
            keys = "".join(k for _line, k in match_keys(lines, KEYPAD))
            again = browser.drive(url, [
                {"do": "open"}, {"do": "eval", "js": "window.s66.firstFrame()"},
                {"do": "type", "keys": keys, "settle": True, "gap": KEY_GAP_MS},
                {"do": "eval", "js": "window.s66.idle().then(() =>"
                                     " Array.from(window.s66.latency))"}], profile=profile)
            # The same match again from an empty store, tapped on a touch screen: with
            # Chromium's frame clock off (the figure), then on (the harness's wait).
            # (Each from an empty store: a profile of its own.)
            tapped = [browser.drive(url, [
                {"do": "open"}, {"do": "tap", "keys": keys, "hold": TAP_MS, "settle": True,
                                  "gap": KEY_GAP_MS},
                {"do": "eval", "js": "window.s66.idle().then(() => [Array.from("
                                     "window.s66.latency), Array.from(window.s66.waited)])"}],
                profile=os.path.join(tmp, "tap%d" % n), touch=True, args=flags)
                for n, flags in enumerate((UNTHROTTLED, ()))]
    for run in [first, again] + tapped:
        if run["failed"] or run["errors"]:
            raise RuntimeError("the page failed: %s %s" % (run["failed"], run["errors"]))
    lat = again["results"][3]
    taps, waits = tapped[0]["results"][2]
    vtaps, vwaits = tapped[1]["results"][2]
    for got in (taps, vtaps):
        if len(got) != len(lat):
            raise RuntimeError("%d taps drew %d frames, the keyboard %d" % (
                len(keys), len(got), len(lat)))
    return {
        "first_load_bytes": sent,
        "first_frame_ms": round(first["results"][2], 1),
        "repeat_frame_ms": round(again["results"][1], 1),
        "key_presses": len(keys),
        "key_to_frame_median_ms": round(_percentile(lat, 50), 2),
        "key_to_frame_p95_ms": round(_percentile(lat, 95), 2),
        "key_to_frame_max_ms": round(max(lat), 2),
        "tap_to_frame_median_ms": round(_percentile(taps, 50), 2),
        "tap_to_frame_p95_ms": round(_percentile(taps, 95), 2),
        "tap_to_frame_max_ms": round(max(taps), 2),
        "tap_wait_median_ms": round(_percentile(waits, 50), 2),
        "tap_wait_p95_ms": round(_percentile(waits, 95), 2),
        "tap_vsync_to_frame_median_ms": round(_percentile(vtaps, 50), 2),
        "tap_vsync_to_frame_p95_ms": round(_percentile(vtaps, 95), 2),
        "tap_vsync_wait_median_ms": round(_percentile(vwaits, 50), 2),
        "tap_vsync_wait_p95_ms": round(_percentile(vwaits, 95), 2),
    }


def durable_figures(kills=30, seed=1):
    """The browser killed (SIGKILL, its whole process group) at `kills` points of a scripted
    match and reopened on its profile: tools/web_kills.py summary()."""
    import web_kills

    return web_kills.figures(kills, seed)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    figs = durable_figures() if "--durable" in argv else figures()
    if "--json" in argv:
        import json

        print(json.dumps(figs, indent=1, sort_keys=True))
        return 0
    for name, value in figs.items():
        goal = GOALS.get(name)
        mark = "" if goal is None else ("  (goal %s: %s)" % (goal, "met" if value <= goal
                                                             else "NOT met"))
        print("%-24s %s%s" % (name, value, mark))
    return 0


if __name__ == "__main__":
    sys.exit(main())
