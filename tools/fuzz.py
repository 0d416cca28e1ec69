"""Fuzz the whole device: random key presses, random power cuts, checked after every press.

    make fuzz                                   (a million presses, seed 1)
    micropython tools/fuzz.py --seed 7 --presses 20000 [--check-every 100] [--segment 5000]
                              [--write-errors PER_MILLE] [--quiet]
    (MICROPYPATH=firmware:tools:.frozen)

The firmware's own app (ui/app.py) with its real display driver (on a bus that only counts
bytes), Session and Store, on tools/faultfs.py: an in-memory file system with littlefs
semantics that cuts the power at a chosen step. The run is a series of segments, each a
fresh flash: keypad and four buttons in turn, every rule set (and a few options) in turn,
sometimes the results-only entry; then random keys, weighted towards what moves a match on
(players, ranks) but with every key of the layout, long presses included, so menus,
settings, history, new matches and undo/redo all get their share.

After every press:
  - no exception left the app (key handling and drawing);
  - the deal's card points (with marriages still waiting for a trick) are at most the
    pack's 120 + the last-trick bonus + the marriages declared; every finished deal's
    within 120 + bonus + 100; no rank played more than four times, none outside the pack;
  - a deal whose last trick is in has ended, unless totals are hidden (the claim window);
  - the match score (games and markers with pairs) is the fold of the deal results in the
    history plus what the current deal has already awarded; the match is over exactly
    when the rules say.
Every --check-every presses, and after every power cut, a fresh Session boots from (a copy
of) the same files and must give the same snapshot (sixtysix/snapshot.py) as RAM.

Power cuts: now and then a cut is armed a random number of steps ahead (bytes, opens,
flushes, renames: faultfs counts them); it falls inside a later write. After the press
during which the power died, the device boots from what survived. The match then must be
what it was before the press, plus every action that returned, plus at most the one in
flight (recomputed on a fault-free copy of the flash as it was before the press). Plain
restarts (power pulled while idle) are made too. An OSError that leaves the app while the
power is being cut is counted, not failed: on a board no code runs after the cut.

--write-errors N: in N of 1000 presses a write fails with the power on (ENOSPC, a short
write): the app must take the action back, show it, and go on; the match in RAM must be
the one before the press plus the actions that returned.

Prints presses/s and totals; a failure prints the seed, the segment, its setup and the
keys of the segment in sim.py's letters (keypad: a-d 0-9 * #, z = long *, m = long #;
buttons: w s e q, upper case = long; "!" marks a power cut, "^" a restart, "~" a write
error) and exits 1.
The same seed always plays the same presses.
"""

import sys

try:
    from dealgen import Rng
except ImportError:  # run from the project root under CPython
    sys.path[:0] = ["firmware", "tools"]
    from dealgen import Rng

from fakebus import CountingBus
from faultfs import FaultFS
from hw.display import Display
from session import Session
from sixtysix.cards import PACK
from sixtysix.errors import Refused
from sixtysix.quick import MARRIAGE_MAX
from sixtysix.snapshot import snapshot
from store.journal import Store
from ui.app import App
from ui.text import board_font

ROOT = "data"
ENOSPC = 28

SETUPS = (
    "new mariage",
    "new classic66",
    "new mariage3",
    "new classic66-3",
    "new mariage4",
    "new schnapsen",
    "new sechsundsechzig",
    "new mariage dealer=2 target=3",
    "new classic66 hidden=1",
    "new classic66-3 judge=weak",
    "new mariage3 judge=sum dealer=3",
    "new mariage4 scale=full games=2 hidden=0",
    "new mariage4 dealer=4 target=4",
    "new schnapsen target=3 down=0",
)

# (key name, long press, letter), repeated to weight the draw.
_PAD = []
for _ch in "ABAB":
    _PAD.append((_ch, False, _ch.lower()))
for _ch in "CD":
    _PAD.append((_ch, False, _ch.lower()))
for _ch in "123456123456123456":
    _PAD.append((_ch, False, _ch))
for _ch in "78907890":
    _PAD.append((_ch, False, _ch))
_PAD += [("*", False, "*"), ("#", False, "#"), ("#", False, "#"), ("*", True, "z"),
         ("#", True, "m")]
KEYPAD_KEYS = tuple(_PAD)
# Soft keys and list moves: the short presses carry almost everything.
_BTN = []
for _name, _ch in (("UP", "w"), ("DOWN", "s"), ("OK", "e"), ("BACK", "q")):
    for _ in range(6):
        _BTN.append((_name, False, _ch))
    _BTN.append((_name, True, _ch.upper()))
BUTTON_KEYS = tuple(_BTN)


class Failure(Exception):
    pass


def _trace(e):
    """Print where an exception came from (both runtimes)."""
    show = getattr(sys, "print_exception", None)
    if show is not None:
        show(e)
    else:
        import traceback

        traceback.print_exception(type(e), e, e.__traceback__)


class _Orphans:
    """Where a handle whose file was replaced writes: steps and power as its FlakyFS."""

    def __init__(self, fs, writer):
        self._fs = fs
        self.files = {}
        self._writers = [writer]

    def _tick(self):
        self._fs._tick()

    def _bytes(self, writer, data):
        self._fs._bytes(writer, data)


class FlakyFS(FaultFS):
    """FaultFS plus write errors that leave the power on (a full or failing flash): with
    flaky_at set, the step that reaches it raises OSError(ENOSPC) once; a write that
    crosses it leaves its first bytes in the file's unflushed buffer."""

    def __init__(self, files=None, dirs=None):
        FaultFS.__init__(self, files, dirs)
        self.flaky_at = None
        self.flaked = 0

    def _flake(self):
        self.flaky_at = None
        self.flaked += 1
        raise OSError(ENOSPC)

    def _tick(self):
        if self.flaky_at is not None and self.step >= self.flaky_at and not self.dead:
            self._flake()
        FaultFS._tick(self)

    def _orphan(self, path):
        # A handle still open on a file that a rename replaces (or a remove deletes) refers
        # to the old file, as on littlefs: its writes and a power cut no longer touch the
        # path. (FaultFS keys open files by path; only a failed close leaves one open.)
        for w in self._writers[:]:
            if w.path == path:
                self._writers.remove(w)
                w._fs = _Orphans(self, w)

    def rename(self, old, new):
        FaultFS.rename(self, old, new)
        self._orphan(new)

    def remove(self, path):
        FaultFS.remove(self, path)
        self._orphan(path)

    def _bytes(self, writer, data):
        at = self.flaky_at
        if at is not None and not self.dead and self.step + len(data) > at:
            k = max(0, at - self.step)
            writer.buf += bytes(data[:k])
            self.step += k
            self.bytes_written += k
            self._flake()
        FaultFS._bytes(self, writer, data)


class Device:
    """One boot of the device over a FaultFS; records the Session actions of a press."""

    def __init__(self, fs, layout):
        self.fs = fs
        self.layout = layout
        self.actions = []  # [name, args, returned] of the current press
        self.store = Store(ROOT, fs)
        self.session = Session(self.store)
        self._wrap(self.session)
        self.display = Display(CountingBus())
        self.app = App(self.display, self.session, board_font(), layout)
        self.app.boot()
        self.app.render()

    def _wrap(self, session):
        actions = self.actions
        for name in ("enter", "undo", "redo", "replace_last", "new_match"):
            actions_fn = getattr(session, name)

            def make(fn, name):
                def call(*args):
                    entry = [name, args, False]
                    actions.append(entry)
                    out = fn(*args)
                    entry[2] = True
                    return out

                return call

            setattr(session, name, make(actions_fn, name))

    def press(self, name, long):
        del self.actions[:]
        self.app.press(name, long)


def boot_copy(fs):
    """A fresh Session over a copy of the flash; returns (session, problems)."""
    s = Session(Store(ROOT, FlakyFS(fs.files, fs.dirs)))
    problems = s.boot()
    return s, problems


def apply_actions(session, actions):
    """Snapshots after each of `actions` done again on a fault-free session."""
    out = [snapshot(session.match)]
    for name, args, _ok in actions:
        try:
            getattr(session, name)(*args)
        except Refused:
            pass
        out.append(snapshot(session.match))
    return out


def _diff(a, b):
    """Where two snapshots differ, shortly."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return "%r != %r" % (a, b)
    out = []
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            out.append("%s: %r != %r" % (k, a.get(k), b.get(k)))
    return "; ".join(out)[:600]


# ---- invariants ----------------------------------------------------------------------


def _fold(rules, awards, score, games, markers):
    for side, points, mk in awards:
        score[side] += points
        if rules.pairs:
            markers[side] += mk
            while score[side] >= rules.target:
                score[side] -= rules.target
                score[1 - side] = 0
                games[side] += 1


def check_state(match):
    """The invariants that hold after every press; raises Failure."""
    s = match.state
    if s is None:
        return
    r = s.rules
    d = s.deal
    for rk in range(6):
        if d.seen[rk] > 4:
            raise Failure("rank %d played %d times" % (rk, d.seen[rk]))
        if rk >= r.ranks and d.seen[rk]:
            raise Failure("rank %d is not in this pack" % rk)
    if d.played == d.total and not (s.over or r.hidden):
        raise Failure("the last trick is in, the deal goes on, totals are open")
    married = 0
    for m in d.marriages:
        married += m[2]
    limit = PACK + r.bonus + (MARRIAGE_MAX if d.reason == "quick" else married)
    if sum(d.points) + sum(d.pending) > limit:
        raise Failure("deal card points %r + %r over %d" % (d.points, d.pending, limit))
    score = [0] * r.sides
    games = [0, 0]
    markers = [0, 0]
    for i in range(s.deals()):
        row = s.row(i)
        if sum(row[4]) > PACK + r.bonus + MARRIAGE_MAX:
            raise Failure("deal %d card points %r" % (i + 1, row[4]))
        _fold(r, row[3], score, games, markers)
    if not s.over:
        _fold(r, d.awards[:s.applied], score, games, markers)
    if score != s.score or (r.pairs and (games != s.games or markers != s.markers)):
        raise Failure("score %r games %r markers %r, deals add up to %r %r %r" % (
            s.score, s.games, s.markers, score, games, markers))
    tally = s.games if r.pairs else s.score
    goal = r.games if r.pairs else r.target
    best = max(tally)
    due = best >= goal and tally.count(best) == 1
    if due != s.over or (s.over and tally.index(best) != s.winner):
        raise Failure("match over %r winner %r with %r" % (s.over, s.winner, tally))


# ---- the run ---------------------------------------------------------------------------


class Fuzz:
    def __init__(self, seed, check_every=100, cut_percent=2, restart_permille=2,
                 error_permille=0):
        self.rng = Rng(seed)
        self.seed = seed
        self.check_every = check_every
        self.cut_percent = cut_percent
        self.restart_permille = restart_permille
        self.error_permille = error_permille
        self.write_errors = 0
        self.alt = None  # while the session is dirty after a write error: the match as a
        # boot may also find it (the failed action on flash after all)
        self.presses = 0
        self.cuts = 0
        self.restarts = 0
        self.boots = 0
        self.checks = 0
        self.entries = 0
        self.problems = 0  # boot messages after cuts (torn records and the like)
        self.deals = 0
        self.matches = 0
        self.segments = 0
        self.lost_inflight = 0  # cuts that lost the action in flight (it never returned)
        self.kept_inflight = 0  # cuts after which the action in flight was on flash
        self.rules_seen = {}
        self.escapes = 0  # OSErrors that left the app while the power was being cut
        self.first_escape = None
        self.keys = []
        self.setup = ""
        self.layout = ""

    # -- reporting --

    def where(self, msg):
        return "%s\n  seed %d, segment %d (%s, %s), press %d of the segment\n  keys: %s" % (
            msg, self.seed, self.segments, self.layout, self.setup, len(self.keys),
            "".join(self.keys))

    def fail(self, msg):
        raise Failure(self.where(msg))

    # -- one segment --

    def segment(self, presses):
        rng = self.rng
        self.segments += 1
        self.layout = "keypad" if self.segments % 2 else "buttons"
        self.setup = SETUPS[(self.segments // 2) % len(SETUPS)]
        self.keys = []
        fs = FlakyFS(dirs=[ROOT])
        dev = Device(fs, self.layout)
        dev.session.new_match(self.setup)
        if "quick" in dev.app.settings and rng.chance(20):
            dev.app.settings["quick"] = 1
            dev.session.save_settings(dev.app.settings)
        dev = Device(fs, self.layout)
        pool = KEYPAD_KEYS if self.layout == "keypad" else BUTTON_KEYS
        armed = False
        before = None
        for _ in range(presses):
            if self.alt is not None and not dev.session._dirty:
                self.alt = None
            flaky = False
            if (not armed and self.alt is None and self.error_permille and
                    rng.below(1000) < self.error_permille):
                fs.flaky_at = fs.step + rng.below(24 if rng.chance(80) else 400)
                flaky = True
            elif not armed and self.alt is None and rng.below(100) < self.cut_percent:
                # Mostly small offsets (inside a journal line), sometimes into a checkpoint.
                span = 40 if rng.chance(70) else 3000
                fs.cut_at = fs.step + rng.below(span)
                armed = True
            if armed or flaky:
                before = (dict(fs.files), set(fs.dirs), snapshot(dev.session.match))
            flaked = fs.flaked
            name, long, letter = pool[rng.below(len(pool))]
            self.keys.append(letter)
            deals = dev.session.match.state.deals() if dev.session.match.state else 0
            try:
                dev.press(name, long)
            except Exception as e:  # noqa: BLE001 - any escape is the finding
                if not fs.dead or not isinstance(e, OSError):
                    _trace(e)
                    self.fail("exception %r" % (e,))
                # The power is gone: on a board no code runs after this. Counted, and the
                # first one is shown: the same escape after a write error is a crash.
                self.escapes += 1
                if self.first_escape is None:
                    self.first_escape = self.where("%r escaped the app while the power was "
                                                   "being cut" % (e,))
            self.presses += 1
            for _n, _a, ok in dev.actions:
                self.entries += 1 if ok else 0
            state = dev.session.match.state
            if state is not None:
                rid = state.rules.id
                self.rules_seen[rid] = self.rules_seen.get(rid, 0) + 1
                if state.deals() > deals:
                    self.deals += state.deals() - deals
                if state.over and dev.actions and dev.actions[-1][0] in (
                        "enter", "replace_last") and dev.actions[-1][2]:
                    self.matches += 1
            if fs.dead:
                dev = self.power_cut(fs, dev, before)
                fs = dev.fs
                armed = False
                continue
            if flaky:
                fs.flaky_at = None  # unused: no write in this press
            if fs.flaked != flaked:
                self.write_error(dev, before)
            try:
                check_state(dev.session.match)
            except Failure as e:
                self.fail(str(e))
            if self.presses % self.check_every == 0:
                self.check_replay(fs, dev)
            if not armed and rng.below(1000) < self.restart_permille:
                self.keys.append("^")
                self.restarts += 1
                was = snapshot(dev.session.match)
                dev = Device(FlakyFS(fs.files, fs.dirs), self.layout)
                fs = dev.fs
                self.boots += 1
                if snapshot(dev.session.match) != was:
                    self.fail("a restart while idle changed the match")
        self.check_replay(fs, dev)

    def power_cut(self, fs, dev, before):
        """The power died during the last press: boot over what survived, and check."""
        self.keys.append("!")
        self.cuts += 1
        files, dirs, snap = before
        actions = dev.actions[:]
        try:
            new = Device(FlakyFS(fs.files, fs.dirs), self.layout)
        except Exception as e:  # noqa: BLE001
            self.fail("boot after a power cut raised %r" % (e,))
            raise
        self.boots += 1
        if dev.store.problems or new.store.problems:
            self.problems += 1
        got = snapshot(new.session.match)
        # What a fault-free device would hold after each action of that press.
        clean = Session(Store(ROOT, FlakyFS(files, dirs)))
        clean.boot()
        if snapshot(clean.match) != snap:
            self.fail("the flash before the press did not boot to the match in RAM")
        steps = apply_actions(clean, actions)
        done = 0
        for _n, _a, ok in actions:
            if not ok:
                break
            done += 1
        allowed = [steps[done]]
        if done < len(actions):
            allowed.append(steps[done + 1])
        if got not in allowed:
            self.fail("after a power cut the match is neither before nor after the action "
                      "in flight (%r): %s; boot said %r" % (
                          [a for a in actions], _diff(got, allowed[0]), new.store.problems))
        if done < len(actions):
            if got == steps[done] and steps[done] != steps[done + 1]:
                self.lost_inflight += 1
            elif got == steps[done + 1] and steps[done] != steps[done + 1]:
                self.kept_inflight += 1
        try:
            check_state(new.session.match)
        except Failure as e:
            self.fail("after a power cut: " + str(e))
        self.check_replay(new.fs, new)
        return new

    def write_error(self, dev, before):
        """A write failed with the power on: the match in RAM must be the one before the
        press plus the actions that returned; the failed one taken back."""
        self.write_errors += 1
        self.keys.append("~")
        files, dirs, snap = before
        actions = dev.actions[:]
        clean = Session(Store(ROOT, FlakyFS(files, dirs)))
        clean.boot()
        steps = apply_actions(clean, actions)
        done = 0
        for _n, _a, ok in actions:
            if not ok:
                break
            done += 1
        if snapshot(dev.session.match) != steps[done]:
            self.fail("after a write error the match in RAM is not the one before the press "
                      "plus the actions that returned (%r)" % ([a[0] for a in actions],))
        if done < len(actions) and dev.session._dirty:
            self.alt = steps[done + 1]

    def check_replay(self, fs, dev):
        self.checks += 1
        booted, _problems = boot_copy(fs)
        got = snapshot(booted.match)
        if got != snapshot(dev.session.match) and (self.alt is None or got != self.alt):
            self.fail("a fresh boot from the flash differs from the match in RAM")

    def run(self, total, segment=5000):
        while self.presses < total:
            n = min(total - self.presses, segment // 2 + self.rng.below(segment))
            self.segment(n)


def main(argv):
    import time

    seed = 1
    total = 1000000
    every = 100
    segment = 5000
    errors = 0
    quiet = False
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--seed":
            seed = int(argv[i + 1])
            i += 1
        elif a == "--presses":
            total = int(argv[i + 1])
            i += 1
        elif a == "--check-every":
            every = int(argv[i + 1])
            i += 1
        elif a == "--segment":
            segment = int(argv[i + 1])
            i += 1
        elif a == "--write-errors":
            errors = int(argv[i + 1])
            i += 1
        elif a == "--quiet":
            quiet = True
        else:
            print("usage: fuzz.py [--seed N] [--presses N] [--check-every N] "
                  "[--segment N] [--write-errors PER_MILLE] [--quiet]")
            return 2
        i += 1
    try:
        import random

        random.seed(seed)  # the new-match wizard's "by lot"
    except (ImportError, AttributeError):
        pass
    fuzz = Fuzz(seed, every, error_permille=errors)
    t0 = time.time()
    step = 100000
    try:
        while fuzz.presses < total:
            fuzz.run(min(total, fuzz.presses + step), segment)
            if not quiet:
                dt = max(time.time() - t0, 1e-3)
                print("%d presses, %.0f/s" % (fuzz.presses, fuzz.presses / dt))
    except Failure as e:
        print("FUZZ FAILURE:", e)
        return 1
    dt = max(time.time() - t0, 1e-3)
    print("seed %d: %d presses in %.1f s (%.0f presses/s), %d segments" % (
        seed, fuzz.presses, dt, fuzz.presses / dt, fuzz.segments))
    print("entries %d (session actions that returned), deals ended %d, matches ended %d" % (
        fuzz.entries, fuzz.deals, fuzz.matches))
    print("power cuts %d (in-flight action lost %d, kept %d; boots with problems %d), "
          "restarts %d, replay checks %d" % (fuzz.cuts, fuzz.lost_inflight, fuzz.kept_inflight,
                                             fuzz.problems, fuzz.restarts, fuzz.checks))
    print("write errors %d; OSErrors that left the app during a power cut %d" % (
        fuzz.write_errors, fuzz.escapes))
    if fuzz.first_escape:
        print("  the first: " + fuzz.first_escape)
    print("presses per rule set: " + ", ".join(
        ["%s %d" % (k, fuzz.rules_seen[k]) for k in sorted(fuzz.rules_seen)]))
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
