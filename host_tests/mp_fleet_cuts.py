"""A power cut at every write of an update (test_fleet.py), on a MicroPython unix port:

    micropython mp_fleet_cuts.py BUNDLE KEY_HEX [STRIDE]

The flash (tools/faultfs.py) holds a match under way in data/. The update is taken
(update/take.py, in 2 KB pieces as the broker brings them), then booted on trial and
confirmed (update/slots.py: choose, first frame, first key). The power is cut at every step
of that: before each open, close, rename, remove, mkdir, and at the first, middle and last
byte of each write (STRIDE: every STRIDE-th cut point only). After each cut the board boots
over what survived: it must run the old firmware or the complete new one (every file as the
manifest says), the match must be as it was, and, on the old firmware, the update taken
again from the start must succeed. Then the going back from a version that twice missed its
first frame, cut at every step: the boot after runs the old firmware. Prints one JSON line:
cuts, old (boots that ran the old firmware), new, back_cuts, failures (the first ten).
"""

import binascii
import hashlib
import json
import sys

from faultfs import FaultFS
from session import Session
from store.journal import Store
from update import slots
from update.take import Taker

CHUNK = 2048


class Recorder(FaultFS):
    """A FaultFS that notes where each step starts (the cut points)."""

    def __init__(self, *a, **k):
        FaultFS.__init__(self, *a, **k)
        self.points = []

    def _tick(self):
        self.points.append(self.step)
        FaultFS._tick(self)

    def _bytes(self, writer, data):
        n = len(data)
        if n:
            self.points += [self.step, self.step + n // 2, self.step + n - 1]
        FaultFS._bytes(self, writer, data)


def manifest(bundle):
    """{path: (size, sha256 hex)} from the bundle's file lines."""
    out = {}
    at = bundle.find(b"\n") + 1
    while at < len(bundle):
        nl = bundle.find(b"\n", at)
        path, size, sha = bundle[at:nl].decode().split()
        out[path] = (int(size), sha)
        at = nl + 1 + int(size)
    return out


def take(fs, bundle, key):
    t = Taker(fs, key, 1 << 20)
    for i in range(0, len(bundle), CHUNK):
        t.feed(bundle[i:i + CHUNK])
    t.finish()


def update_and_trial(fs, bundle, key):
    take(fs, bundle, key)
    if slots.choose(fs) != "fw/a":  # the boot into it...
        raise AssertionError("the update did not boot")
    slots.confirm(fs)  # ...confirmed (its first key, and a few seconds after it)


def match_flash():
    """A flash with a match under way: (files, dirs, the match's score)."""
    fs = FaultFS(dirs=["data"])
    s = Session(Store("data", fs))
    s.boot()
    s.new_match("new classic66 names=Ann,Bob")
    for side, choice in ((0, 0), (1, 1), (0, 2)):
        s.enter(bytes((5, side, s.match.state.rules.choices()[choice])))
    files, dirs = fs.survivors()
    return files, dirs, score(fs)


def score(fs):
    s = Session(Store("data", fs))
    s.boot()
    st = s.match.state
    return [st.deals(), list(st.names), list(st.score), bytes(s.match.log)]


def main():
    with open(sys.argv[1], "rb") as f:
        bundle = f.read()
    key = binascii.unhexlify(sys.argv[2])
    stride = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    files0, dirs0, match0 = match_flash()
    want = manifest(bundle)
    ref = Recorder(files0, dirs0)
    update_and_trial(ref, bundle, key)
    points = sorted(set(ref.points))[::stride]
    stats = {"cuts": 0, "old": 0, "new": 0, "points": len(points), "failures": []}

    def fail(cut, why):
        if len(stats["failures"]) < 10:
            stats["failures"].append("cut %d: %s" % (cut, why))

    for cut in points:
        fs = FaultFS(files0, dirs0, cut_at=cut)
        try:
            update_and_trial(fs, bundle, key)
        except OSError:
            pass
        if not fs.dead:
            fail(cut, "the power was never cut")
            continue
        stats["cuts"] += 1
        fs = fs.reboot()
        try:
            folder = slots.choose(fs)  # the boot after the cut
        except Exception as e:
            fail(cut, "the boot raised %r" % (e,))
            continue
        for p in files0:
            if p.startswith("data/") and fs.files.get(p) != files0[p]:
                fail(cut, "the match's file %s changed" % p)
        if score(fs) != match0:
            fail(cut, "the match is not the one before the update")
        if folder == "fw/a":
            stats["new"] += 1
            for path, (size, sha) in want.items():
                data = fs.files.get("fw/a/" + path)
                if data is None or len(data) != size or \
                        binascii.hexlify(hashlib.sha256(data).digest()).decode() != sha:
                    fail(cut, "boots fw/a with %s not as the manifest says" % path)
                    break
        elif folder == "":
            stats["old"] += 1
            try:
                update_and_trial(fs, bundle, key)  # the offer is still there: taken again
            except Exception as e:
                fail(cut, "taking the update again failed: %r" % (e,))
        else:
            fail(cut, "boots %r" % folder)
    # The going back: a version that twice booted unconfirmed, cut at every step of the
    # boot that leaves it; the boot after runs the old firmware and knows what failed.
    fs = FaultFS(files0, dirs0)
    take(fs, bundle, key)
    r = slots.read(fs)
    r["tries"] = 2
    slots.write(r, fs)
    files2, dirs2 = fs.survivors()
    version = int(bundle.split(b" ", 2)[1])
    ref = Recorder(files2, dirs2)
    slots.choose(ref)
    stats["back_cuts"] = 0
    for cut in sorted(set(ref.points)):
        fs = FaultFS(files2, dirs2, cut_at=cut)
        try:
            slots.choose(fs)
        except OSError:
            pass
        stats["back_cuts"] += 1
        fs = fs.reboot()
        folder = slots.choose(fs)
        r = slots.read(fs)
        if folder != "" or r is None or r.get("back") != version or r.get("ok") != 1:
            fail(cut, "going back: boots %r with the record %r" % (folder, r))
        if score(fs) != match0:
            fail(cut, "going back: the match is not the one before")
    print(json.dumps(stats))


main()
