"""How many key presses an entry takes, and how much a key press sends to the panel.

    MICROPYPATH=firmware:tools:.frozen micropython tools/ui_figures.py [--matches N]
        [--seed S] [--flash DIR]

Plays random legal matches (dealgen.py, ranks only: the fewest presses) through
the firmware's own app in the simulator (sim.py), with the keys keyseq.py
derives for each entry, on both key layouts, and prints JSON:

  trick2 / trick3 / trick4   presses per trick with 2, 3, 4 players
  quick_deal                 presses per deal of a match entered as results only, in
                             the "results" entry setting (the winner, then 1-3): the
                             fewest presses the UI offers for a deal
  quick_deal_menu            the same through the menu in the "tricks" setting (menu,
                             Result only, side, game points)
  per_key_bytes              bytes sent to the panel per key press: median, 95th
                             percentile, and both as a percentage of a full frame
  per_key_trick_bytes        the same for the keys of tricks only
  full_frame                 bytes of one whole frame (measured with show_full)

Each match ends with the app's match compared with the player's: a key that the
app did not take as intended stops the run with an error, so the figures are
those of entries that really went in. Runs under MicroPython (and CPython).
"""

import sys

from keyseq import BUTTONS, KEYPAD, match_keys, random_match
from sim import Sim
from sixtysix.rules import RULE_SETS, Rules
from sixtysix.snapshot import snapshot

FLASH = "figures_flash"
NAMES = ("trick2", "trick3", "trick4", "quick_deal", "quick_deal_menu")


def _rmtree(path):
    import os

    try:
        names = os.listdir(path)
    except OSError:
        return
    for name in names:
        full = path + "/" + name
        try:
            os.remove(full)
        except OSError:
            _rmtree(full)
    os.rmdir(path)


class Stats:
    def __init__(self):
        self.values = []

    def add(self, v):
        self.values.append(v)

    def summary(self):
        v = sorted(self.values)
        n = len(v)
        if not n:
            return {"n": 0}
        return {"n": n, "mean": sum(v) / n, "min": v[0], "max": v[-1],
                "median": median(v), "p95": percentile(v, 95)}


def median(sorted_values):
    v = sorted_values
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def percentile(sorted_values, pct):
    """Nearest-rank percentile of sorted values."""
    n = len(sorted_values)
    k = (pct * n + 99) // 100  # ceil(pct/100 * n)
    return sorted_values[max(0, k - 1)]


def play(root, rid, seed, layout, quick, figures, results=False):
    """One random match through the keys; adds to figures, returns the presses."""
    lines, match = random_match(rid, seed, suits=False, quick=quick)
    pairs = match_keys(lines, layout, results)
    _rmtree(root)
    sim = Sim(root, layout)
    players = Rules(rid).players
    trick = figures["trick" + str(players)][layout]
    deal = None
    if quick == 100:
        deal = figures["quick_deal" if results else "quick_deal_menu"][layout]
    for line, keys in pairs:
        before = sim.presses
        for ch in keys:
            if not sim.press(ch):
                raise ValueError("not a key: " + ch)
        n = sim.presses - before
        if line.startswith("trick"):
            trick.add(n)
            figures["trick_bytes"][layout].extend(sim.sent[before:])
        elif deal is not None and line.startswith("result"):
            deal.add(n)
    if snapshot(sim.app.match) != snapshot(match):
        raise AssertionError("%s seed %d on %s: the app's match differs" % (rid, seed, layout))
    figures["bytes"][layout].extend(sim.sent)
    full = sim.display.show_full()
    _rmtree(root)
    return sim.presses, full


def measure(matches=3, seed=1, root=FLASH):
    figures = {}
    for name in NAMES:
        figures[name] = {KEYPAD: Stats(), BUTTONS: Stats()}
    figures["bytes"] = {KEYPAD: [], BUTTONS: []}
    figures["trick_bytes"] = {KEYPAD: [], BUTTONS: []}
    full = 0
    presses = 0
    for layout in (KEYPAD, BUTTONS):
        for rid in RULE_SETS:
            for i in range(matches):
                p, full = play(root, rid, seed + i, layout, 10, figures)
                presses += p
            for results in (False, True):  # matches of quick results only
                p, full = play(root, rid, seed, layout, 100, figures, results)
                presses += p
    out = {"full_frame": full, "presses": presses, "matches": matches, "seed": seed}
    for name in NAMES:
        out[name] = {layout: figures[name][layout].summary() for layout in (KEYPAD, BUTTONS)}
    for name in ("bytes", "trick_bytes"):
        per_key = {}
        for layout in (KEYPAD, BUTTONS):
            v = sorted(figures[name][layout])
            med = median(v)
            p95 = percentile(v, 95)
            per_key[layout] = {"n": len(v), "median": med, "p95": p95, "max": v[-1],
                               "median_pct_of_full": 100 * med / full,
                               "p95_pct_of_full": 100 * p95 / full}
        out["per_key_" + name] = per_key
    return out


def dumps(obj, indent=0):
    """JSON with sorted keys and floats to two decimals (same on every runtime)."""
    pad = "  " * indent
    if isinstance(obj, dict):
        inner = ",\n".join(pad + "  \"" + k + "\": " + dumps(obj[k], indent + 1)
                           for k in sorted(obj))
        return "{\n" + inner + "\n" + pad + "}"
    if isinstance(obj, float):
        return "%.2f" % obj
    if isinstance(obj, str):
        return "\"" + obj + "\""
    return str(obj)


def main(argv):
    matches = 3
    seed = 1
    root = FLASH
    i = 1
    while i < len(argv):
        if argv[i] == "--matches":
            matches = int(argv[i + 1])
        elif argv[i] == "--seed":
            seed = int(argv[i + 1])
        elif argv[i] == "--flash":
            root = argv[i + 1]
        else:
            print(__doc__)
            return 2
        i += 2
    print(dumps(measure(matches, seed, root)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
