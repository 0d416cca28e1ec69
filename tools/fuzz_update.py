"""Fuzz the update's bundle reader and its offer (firmware/update/; issue 45): whatever comes
after the club's correctly signed head, and whatever an offer holds, ends in a refusal.

    make fuzz                  (a million bundles and takes, seed 1, after the presses)
    micropython tools/fuzz_update.py --seed 7 --bundles 20000 [--offers N] [--takes N]
                                     [--dir FOLDER]
    (MICROPYPATH=firmware:tools:.frozen; on the unix port and the 32-bit runtime alike)

Bundles: small random firmware, packed and signed as tools/fleet.py does, then mutated after
the head (a tenth of them under an odd head, signed too: counts and totals of 0, one off, too
big): file lines that are not UTF-8, sizes of 0, negative, past the total, past what is left,
not numbers; names empty, absolute, "..", a folder where a file goes; hashes short or not hex;
fields too few or too many; random bytes, flipped, inserted, cut; endless lines; files more
than the head counts. Each is taken (update/take.py) in random pieces on tools/faultfs.py's
flash holding a match in data/, with a boot record now and then (on trial, versions that
failed). After each: only Refusal left the reader (never another exception, OSError
included: this flash never fails), never more bytes went into fw/a or fw/b than the head's
total, data/ is as it was, a refused slot holds no file, and a bundle taken is the one signed.

Offers: malformed offers (not JSON, not UTF-8, fields of every type, sizes of 0 and negative,
missing keys) and well-formed ones followed by mutated pieces, through the real club link
(net/clublink.py's Club, net/mqtt.py's client, unconnected: what it publishes stays queued and
is read back) and update/job.py, in FOLDER (default build/fuzz_update, emptied first): no
exception leaves the job, every fw/state it publishes is a known state (a refusal with a
known code), and data/ is untouched.

Takes (as many as bundles unless --takes says): a table takes a signed bundle through the
same club link and job while the club answers its wants (now and then a piece not asked for,
or none: asked again, at last "lost"), and offers are heard between the pieces: newer ones
(with their own bundles, now and then mutated), older ones, the same version in another
offer, the same offer again, withdrawals, and malformed ones of every kind (not JSON, not
UTF-8, versions, sizes and chunks of every type, 0, negative, huge). After every message
and poll: each offer did what update/job.py says (a newer one ends the take in silence and
the next poll starts it; older, same, malformed: refused with "older", "same", "offer" as
the take goes on; the same again: nothing; withdrawn: "running"), every code is known, no
take ends unreported, no more bytes are written into the slots during a take than the head
of the version taken says (every write counted: the builtin open is watched while the
takes run) and the slot holds none when no take runs, the boot record changes only at a switch
and then names the slot of the version taken last (the newest offered) holding exactly the
files signed; the match's folder is untouched.

Prints cases, refusal codes and time; a failure prints the seed, the case and what happened,
and exits 1. The same seed always makes the same cases.
"""

import binascii
import hashlib
import json
import os
import sys
import time

try:
    # The offers' part runs in its own folder (the board's flash): the path made absolute.
    sys.path[:] = [p if p[:1] in ("/", ".") or not p else os.getcwd() + "/" + p
                   for p in sys.path]
    from dealgen import Rng
except ImportError:  # run from the project root under CPython
    sys.path[:0] = ["firmware", "tools"]
    from dealgen import Rng

from faultfs import FaultFS
from net import wire
from update import slots
from update.sign import hmac_sha256
from update.take import MAGIC, Refusal, Taker

KEY = bytes(range(32))
CODES = ("format", "signature", "older", "same", "space", "hash", "busy", "failed", "flash",
         "key", "offer", "error", "lost")
NAMES = (b"loop.mpy", b"main.mpy", b"ui/app.mpy", b"update/take.mpy", b"a/b/c.mpy",
         b"x", b"x/y", b"boards/k.json")


def _hex(b):
    return binascii.hexlify(b)


def _sha(data):
    return _hex(hashlib.sha256(data).digest())


def _line(path, data):
    return path + b" %d " % len(data) + _sha(data)


def head(version, count, total, manifest):
    h = MAGIC + b"%d %d %d %s" % (version, count, total, manifest)
    return h + b" " + _hex(hmac_sha256(KEY, h)) + b"\n"


def _bytes(rng, n):
    return bytes(rng.below(256) for _ in range(n))


class Flash(FaultFS):
    """FaultFS counting the bytes written into the slots."""

    def __init__(self, files, dirs):
        FaultFS.__init__(self, files, dirs)
        self.slot_bytes = 0

    def _bytes(self, writer, data):
        if writer.path.startswith("fw/a/") or writer.path.startswith("fw/b/"):
            self.slot_bytes += len(data)
        FaultFS._bytes(self, writer, data)


def match_flash():
    """(files, dirs) of a flash with a match under way in data/."""
    from session import Session
    from store.journal import Store

    fs = FaultFS(dirs=["data"])
    s = Session(Store("data", fs))
    s.boot()
    s.new_match("new classic66 names=Ann,Bob")
    for side, choice in ((0, 0), (1, 1), (0, 2)):
        s.enter(bytes((5, side, s.match.state.rules.choices()[choice])))
    return fs.survivors()


class Bundles:
    def __init__(self, seed):
        self.rng = Rng(seed)
        self.files0, self.dirs0 = match_flash()
        self.data0 = {p: d for p, d in self.files0.items() if p.startswith("data/")}
        self.cases = 0
        self.codes = {}
        self.taken = 0
        self.most = 0  # the most bytes a refused bundle had written before its refusal
        self.failure = None

    # ---- a bundle ----

    def firmware(self):
        rng = self.rng
        names = []
        for _ in range(1 + rng.below(4)):
            n = rng.pick(NAMES)
            if n not in names and not (n == b"x" and b"x/y" in names
                                       or n == b"x/y" and b"x" in names):
                names.append(n)
        return [(n, _bytes(rng, rng.pick((0, 1, 7, 64, 300, 900)))) for n in sorted(names)]

    def evil(self, files, data, left):
        """A file line of any kind (bytes, without its newline)."""
        rng = self.rng
        total = sum(len(d) for _, d in files)
        path = rng.pick((rng.pick(NAMES), rng.pick(NAMES), b"\xff\xfe", b"..", b"../x",
                         b"/abs", b"a//b", b"", b".", b"a/./b", b"\xc3\xa9", b"x" * 150,
                         _bytes(rng, 1 + rng.below(12)), b"fw", b"x/y/z"))
        size = rng.pick((b"%d" % len(data), b"%d" % len(data), b"0", b"-1", b"-100",
                         b"%d" % (total + 1), b"%d" % (left + 1), b"%d" % left,
                         b"99999999999999", b"1e3", b"0x10", b"", b"\xd9\xa3", b"+5", b"1.5",
                         b"%d" % rng.below(1 << 20), b"00", b"9" * 9))
        sha = rng.pick((_sha(data), _sha(data), b"0" * 64, b"z" * 64, b"\xe9" * 64, b"",
                        b"0" * 63, _bytes(rng, 64)))
        fields = [path, size, sha]
        k = rng.below(10)
        if k == 0:
            fields = fields[:1 + rng.below(2)]
        elif k == 1:
            fields.append(rng.pick((b"x", b"", _bytes(rng, 3))))
        sep = rng.pick((b" ", b" ", b" ", b"\t", b"  "))
        return sep.join(fields)

    def bundle(self, version=None, clean=False):
        """(bundle bytes, the head's total, the files signed); clean: as tools/fleet.py
        packs it, nothing mutated."""
        rng = self.rng
        files = self.firmware()
        lines = [_line(n, d) for n, d in files]
        total = sum(len(d) for _, d in files)
        manifest = _sha(b"".join(x + b"\n" for x in lines))
        if version is None:
            version = 100 + rng.below(3)
        count, htotal = len(files), total
        if clean:
            return head(version, count, htotal, manifest) + b"".join(
                x + b"\n" + d for x, (_, d) in zip(lines, files)), htotal, files
        if rng.chance(10):  # an odd head, signed all the same
            count = rng.pick((0, 1, count - 1, count + 1, 1000))
            htotal = rng.pick((0, 1, total - 1, total + 1, 10 ** 9, 1 << 40))
            if htotal < 0:
                htotal = 0
        h = head(version, count, htotal, manifest)
        segs = [[ln, d] for ln, d in zip(lines, (d for _, d in files))]
        for _ in range(1 + rng.below(3)):
            self.mutate(segs, files, htotal)
        body = b"".join(s[0] + b"\n" + s[1] for s in segs)
        for _ in range(rng.below(3)):
            body = self.mangle(body)
        return h + body, htotal, files

    def mutate(self, segs, files, total):
        rng = self.rng
        k = rng.below(12)
        i = rng.below(len(segs)) if segs else 0
        if k == 0 or not segs:  # nothing changed (the good bundle, in random pieces)
            return
        left = total - sum(len(s[1]) for s in segs[:i])
        if k <= 3:
            segs[i][0] = self.evil(files, segs[i][1], left)
        elif k == 4:
            d = _bytes(rng, rng.pick((0, 1, 50, 2000)))
            segs.insert(i, [self.evil(files, d, left), d])
        elif k == 5:
            del segs[i]
        elif k == 6:
            segs.insert(i, list(segs[i]))
        elif k == 7:  # the file's bytes, more or fewer or other
            d = segs[i][1]
            segs[i][1] = rng.pick((d + _bytes(rng, 1 + rng.below(40)), d[:len(d) // 2],
                                   _bytes(rng, len(d))))
        elif k == 8:  # an endless line
            n = rng.pick((201, 1000, 5000))
            segs.append([bytes(rng.pick(b"abc 01\xff") for _ in range(n)), b""])
        elif k == 9:  # a line past the total, or one within it and far more bytes after it
            d = bytes(min(max(0, total), 5000) + 1 + rng.below(50))
            if rng.chance(50):
                segs.insert(i, [_line(b"big.mpy", d), d])
            else:
                segs.insert(i, [_line(b"big.mpy", d[:10]), d])
        elif k == 10:  # a file more than the head counts
            d = _bytes(rng, rng.below(20))
            segs.append([_line(b"more.mpy", d), d])
        else:  # a name already written as a file, now as a folder (or the other way)
            d = b"z"
            segs[i:i] = [[_line(b"x", d), d], [_line(b"x/y", d), d]][::rng.pick((1, -1))]

    def mangle(self, body):
        rng = self.rng
        k = rng.below(5)
        at = rng.below(len(body) + 1)
        if k == 0:  # bytes flipped
            b = bytearray(body)
            for _ in range(1 + rng.below(4)):
                if b:
                    j = rng.below(len(b))
                    b[j] ^= 1 << rng.below(8)
            return bytes(b)
        if k == 1:
            return body[:at] + _bytes(rng, 1 + rng.below(30)) + body[at:]
        if k == 2:
            return body[:at] + body[at + 1 + rng.below(30):]
        if k == 3:
            return body[:at]
        return body + rng.pick((b"\n", b"junk", b"\n\n", _bytes(rng, 50)))

    # ---- a case ----

    def record(self):
        """A boot record the flash holds, or None."""
        rng = self.rng
        k = rng.below(16)
        if k == 0:
            return {"slot": "", "ver": 0, "ok": 1, "back": 100, "failed": [99, 100]}
        if k == 1:
            return {"slot": "a", "ver": 99, "prev": "", "pver": 0, "tries": 1, "ok": 0}
        if k <= 3:
            return {"slot": "a", "ver": 100, "prev": "", "pver": 0, "tries": 0, "ok": 1}
        return None

    def case(self):
        rng = self.rng
        data, total, files = self.bundle()
        rec = self.record()
        fs0 = Flash(self.files0, self.dirs0)
        if rec is not None:
            fs0.dirs.add("fw")
            fs0.files["fw/boot"] = json.dumps(rec).encode()
        boot0 = fs0.files.get("fw/boot")
        fs = fs0
        free = rng.pick((1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, total, total - 1))
        why = None
        t = None
        try:
            t = Taker(fs, KEY, free)
            at = 0
            while at < len(data):
                n = rng.pick((1, 7, 64, 512, 2048, 4096))
                t.feed(data[at:at + n])
                at += n
            t.finish()
        except Refusal as e:
            why = e.args[0]
        except Exception as e:  # noqa: BLE001 - anything but a refusal is the failure sought
            _trace(e)
            return self.fail(data, "raised %r" % (e,))
        self.cases += 1
        if why is not None:
            self.codes[why] = self.codes.get(why, 0) + 1
        if why is not None and t is not None:
            t.abandon()  # as update/job.py does
        if why is not None and why not in CODES:
            return self.fail(data, "refused with an unknown code %r" % (why,))
        if fs.slot_bytes > total:
            return self.fail(data, "%d bytes written, the head's total %d" % (fs.slot_bytes,
                                                                             total))
        if why is not None:
            self.most = max(self.most, fs.slot_bytes)
        for p, d in self.data0.items():
            if fs.files.get(p) != d:
                return self.fail(data, "the match's %s changed" % p)
        for p in fs.files:
            if p.startswith("data/") and p not in self.data0:
                return self.fail(data, "%s written" % p)
        slot = [p for p in fs.files if p.startswith("fw/a/") or p.startswith("fw/b/")]
        if why is not None:
            if slot:
                return self.fail(data, "refused (%s), and %s left in the slot" % (why, slot[0]))
            if fs.files.get("fw/boot") != boot0:
                return self.fail(data, "refused (%s), and the boot record changed" % why)
            return None
        self.taken += 1
        r = slots.read(fs)
        d = "fw/" + r["slot"] + "/"
        for n, body in files:
            if fs.files.get(d + n.decode()) != body:
                return self.fail(data, "taken, with %s not the file signed" % n)
        return None

    def fail(self, data, why):
        self.failure = "bundle case %d: %s; the bundle: %r" % (self.cases, why, data[:400])
        return self.failure


# ---- offers, through the club link and the job ----

def step(club, now):
    from update.job import step as job_step  # dropped with the job: imported each time

    job_step(club, now)


def _states(out):
    """The fw/state payloads among the MQTT packets queued (net/mqtt.py's publish)."""
    return [p for t, p in _published(out) if t.endswith(b"/fw/state")]


def _published(out):
    """(topic, payload) of each PUBLISH among the MQTT packets queued."""
    got = []
    at = 0
    while at < len(out):
        kind = out[at]
        n = shift = 0
        i = at + 1
        while True:
            b = out[i]
            n |= (b & 0x7F) << shift
            shift += 7
            i += 1
            if not b & 0x80:
                break
        end = i + n
        if kind & 0xF0 == 0x30:
            tl = out[i] << 8 | out[i + 1]
            topic = out[i + 2:i + 2 + tl]
            p = i + 2 + tl + (2 if kind & 6 else 0)
            got.append((topic, out[p:end]))
        at = end
    return got


STATES = ("running", "taking", "switching", "refused", "back")


class Offers:
    def __init__(self, seed, folder):
        self.rng = Rng(seed + 7919)
        self.folder = folder
        self.cases = 0
        self.codes = {}
        self.failure = None
        self.said = []
        self.resets = 0
        self.maker = None

    def setup(self):
        from net.clublink import Club
        from net.mqtt import MQTT
        from session import Session
        from store.journal import Store

        _empty(self.folder)
        os.chdir(self.folder)  # the board's flash: the job writes fw/ there
        os.mkdir("data")
        s = Session(Store("data", os))
        s.boot()
        s.new_match("new classic66 names=Ann,Bob")  # a match not yet begun: the job may run
        self.session = s
        self.data0 = _read_all("data")
        link = MQTT("table-t01", "t01", "pw", 30)
        self.club = Club(link, self._event, s, Store("outbox", os),
                         {"table": "t01", "fleet_key": _hex(KEY).decode()}, 0, None)
        self.club.reset = self._reset  # the board's machine.reset
        self.t_part = self.club.fw_topic(wire.FW_PART)  # net/wire.py's topics
        self.maker = Bundles(self.rng.next())
        self.maker.rng = self.rng

    def _event(self, code, arg):
        self.said.append(code)

    def _reset(self):
        self.resets += 1
        raise _Reset()

    def offer(self):
        rng = self.rng
        k = rng.below(8)
        v = 101 + rng.below(2)
        anything = (0, -1, -2048, 1, 2048, 4096, 4097, 1 << 31, 10 ** 20, 1.5, -0.0, "10",
                    "", None, True, False, [], [1], {}, {"a": 1}, "\u00e9")
        if k == 0:
            return _bytes(rng, rng.below(60))
        if k == 1:
            return rng.pick((b"", b"{", b"[1,", b"null", b"1", b"\"x\"", b"\xff{}", b"{}",
                             b"{\"version\": 1", b"nan", b"[]" * 200, b"{" * 300 + b"}" * 300))
        o = {"version": v, "size": 100 + rng.below(5000), "chunk": rng.pick((1, 64, 2048))}
        if k <= 4:
            for key in ("version", "size", "chunk"):
                if rng.chance(40):
                    o[key] = rng.pick(anything)
                if rng.chance(10):
                    del o[key]
            if rng.chance(20):
                o["extra"] = rng.pick(anything)
        return json.dumps(o).encode()

    def parts(self, job, now):
        """Pieces of a mutated bundle (and some that are not pieces) for a job that runs."""
        rng = self.rng
        data = self.maker.bundle()[0] if rng.chance(70) else _bytes(rng, rng.below(3000))
        for _ in range(40):
            if self.club.fw is not job:
                return now
            k = rng.below(10)
            at = job.at
            if k == 0:
                payload = _bytes(rng, rng.below(40))
            elif k == 1:
                payload = b"%d %d\n" % (job.version, at + 1) + data[at:at + 10]
            else:
                payload = b"%d %d\n" % (job.version, at) + data[at:at + job.size - at
                                                               if rng.chance(5) else 2048]
            self.club.message(self.t_part, payload)
            now += rng.pick((10, 100, 3500))
            if self.club.fw is job:
                step(self.club, now)
        return now

    def case(self):
        rng = self.rng
        club = self.club
        offer = self.offer()
        club.link._out = b""
        self.said = []  # what the panel said: this case's only (the heap stays small)
        small = club.link._in
        club.fw = offer or None
        now = rng.below(1000)
        try:
            if club.fw is not None:
                step(club, now)
                job = club.fw
                if job is not None and job.__class__ is not bytes:
                    now = self.parts(job, now)
                    for _ in range(8):  # asked again, then lost
                        if club.fw is not job:
                            break
                        now += 3500
                        step(club, now)
        except _Reset:
            _remove("fw/boot")  # switched: back to the version before, for the next cases
            club.fw = None
        except Exception as e:  # noqa: BLE001 - anything leaving the job is the failure sought
            _trace(e)
            return self.fail(offer, "raised %r" % (e,))
        self.cases += 1
        if club.fw is not None:
            return self.fail(offer, "the job still holds the link: %r" % (club.fw,))
        if club.link._in is not small:
            return self.fail(offer, "the link's buffer was not given back")
        for p in _states(club.link._out):
            try:
                s = json.loads(p)
            except ValueError:
                return self.fail(offer, "fw/state not JSON: %r" % (p,))
            if s.get("state") not in STATES:
                return self.fail(offer, "fw/state %r" % (s,))
            if s["state"] == "refused":
                if s.get("why") not in CODES:
                    return self.fail(offer, "refused with %r" % (s,))
                self.codes[s["why"]] = self.codes.get(s["why"], 0) + 1
        if _read_all("data") != self.data0:
            return self.fail(offer, "the match's folder changed")
        if "update.job" in sys.modules:
            return self.fail(offer, "the update's code stayed in the heap")
        return None

    def fail(self, offer, why):
        self.failure = "offer case %d: %s; the offer: %r" % (self.cases, why, offer[:300])
        return self.failure


# ---- offers heard while a bundle is taken ----

_EVENTS = 90  # a case's events at most: pieces, offers, time passing


class Takes:
    """A table taking a signed bundle over the club link while the club answers its wants,
    with offers heard between its pieces (update/job.py's Job.offered). A model of what each
    offer must do: a newer one ends the take (its slot emptied at once) and the next poll
    starts the newer one; an older one, the same version in another offer and a malformed
    one are refused with "older", "same", "offer" and the take goes on; the same offer again
    changes nothing; an empty one (withdrawn) ends the take. After every event: the codes are
    known, no more bytes were written into the slots since the take began than its head's
    total, the slot holds none when no take runs, and the boot record changes only at a
    switch, to the version taken last, its slot holding exactly the files signed."""

    def __init__(self, offers):
        self.o = offers  # its club, its flash folder, its random numbers
        self.rng = offers.rng
        self.cases = 0
        self.codes = {}
        self.seen = {}
        self.failure = None
        self.t_offer = offers.club.fw_topic(wire.FW_OFFER)
        self.t_want = offers.club.fw_topic(wire.FW_WANT)
        self.t_state = offers.club.fw_topic(wire.FW_STATE)
        self.written = 0  # bytes written into the slots since the take running began
        self.bound = 0  # the head's total of that take's bundle
        self.most = 0  # the most written in one take

    def watch(self):
        """Count every byte the update writes into a slot: the job opens its files through
        the builtin open (update/slots.py's Flash), replaced here while the takes run."""
        import builtins

        self.real_open = real = builtins.open

        def counted(path, mode="r"):
            f = real(path, mode)
            if ("w" in mode or "a" in mode) and (path[:5] in ("fw/a/", "fw/b/")):
                return _Counted(f, self)
            return f

        builtins.open = counted

    def unwatch(self):
        import builtins

        builtins.open = self.real_open

    def count(self, what):
        self.seen[what] = self.seen.get(what, 0) + 1

    # ---- what the club sends ----

    def offer_of(self, v, clean=True):
        """A well-formed offer of version v, its bundle kept to answer the wants."""
        rng = self.rng
        data, total, files = self.o.maker.bundle(v, clean)
        chunk = rng.pick((64, 512, 1024, 2048, 4096))
        self.bundles[v] = (data, total, files, chunk)
        return json.dumps({"version": v, "size": len(data), "chunk": chunk}).encode()

    def malformed(self, mine):
        """(payload, the version it says or None): an offer wrong in any way."""
        rng = self.rng
        k = rng.below(4)
        if k == 0:
            return rng.pick((b"{", b"\xff\xfe{}", b"\xc3(", b"[1]", b"null", b"7", b"\"x\"",
                             b"{\"version\": }", b"\x00" * 8, b"{" * 200)), None
        if k == 1:
            return b"\xff" + _bytes(self.rng, self.rng.below(40)), None
        o = {"version": mine + 1, "size": 1000, "chunk": 512}
        if k == 2:  # no version it can take
            o["version"] = rng.pick(("%d" % (mine + 1), float(mine + 1), None, True, [mine + 1],
                                     {}, -1, 1 << 30, 10 ** 20, -(10 ** 20)))
            if rng.chance(20):
                del o["version"]
            return json.dumps(o).encode(), None
        # a version, newer, older or the same, with a size or chunk of no use
        v = max(0, mine + rng.pick((1, 2, -1, 0)))
        o["version"] = v
        key = rng.pick(("size", "chunk"))
        o[key] = rng.pick((0, -1, -4096, 1 << 30, 10 ** 20, 1.5, "100", None, [], {}, True,
                           "\u00e9\u00ff", 5000))
        if rng.chance(20):
            del o[key]
        return json.dumps(o).encode(), v

    def interleave(self):
        """An offer heard between two pieces of the take running."""
        rng = self.rng
        mine = self.taking
        k = rng.below(10)
        if k <= 2:
            v = mine + 1 + rng.below(3)
            payload, expect = self.offer_of(v, not rng.chance(15)), ("new", v)
        elif k == 3:
            v = max(0, mine - 1 - rng.below(3))
            payload, expect = self.offer_of(v), ("older", v)
        elif k == 4:  # the same version in another offer (another chunk, another size)
            o = json.loads(self.payload)
            o[rng.pick(("chunk", "size"))] += 1
            payload, expect = json.dumps(o).encode(), ("same", mine)
        elif k == 5:  # the same offer again (the retained one after a reconnect)
            payload, expect = self.payload, ("nothing",)
        elif k == 6:
            payload, expect = b"", ("withdrawn",)
        else:
            payload, v = self.malformed(mine)
            if v is None:
                expect = ("offer",)
            elif v > mine:
                expect = ("new", v)
            else:
                expect = ("older" if v < mine else "same", v)
        self.count(expect[0])
        self.last_offer = payload
        if expect[0] != "new":
            self.expect = expect
            return self.call(self.o.club.message, self.t_offer, payload)
        self.expect = ("nothing", "newer: the take ends in silence")  # ...
        self.payload = payload
        self.newest = expect[1]
        self.taking = None
        if not self.call(self.o.club.message, self.t_offer, payload):
            return False
        self.expect = expect  # ...and the newer one starts at the next poll
        return self.poll(10)

    def answer(self):
        """The club's answer to the last want: the piece asked, or now and then another."""
        rng = self.rng
        v, at = self.want
        if v not in self.bundles:
            return self.poll(10)
        data, _, _, chunk = self.bundles[v]
        k = rng.below(20)
        if k == 0:  # a piece not asked for: an old answer, another offset, not a piece
            payload = rng.pick((b"%d %d\n" % (v - 1, at) + data[at:at + chunk],
                                b"%d %d\n" % (v, at + 1) + data[at + 1:at + chunk],
                                _bytes(rng, rng.below(30))))
        elif k == 1:  # one byte more than the offer's chunk or the bundle's end
            payload = b"%d %d\n" % (v, at) + data[at:at + chunk] + b"x"
        else:
            payload = b"%d %d\n" % (v, at) + data[at:at + chunk]
        if not self.call(self.o.club.message, self.o.t_part, payload):
            return False
        return self.poll(rng.pick((5, 50)))

    # ---- the table ----

    def poll(self, dt):
        self.now += dt
        club = self.o.club
        if club.fw is not None:
            if not self.call(step, club, self.now):
                return False
        return self.check()

    def call(self, fn, *args):
        try:
            fn(*args)
        except _Reset:
            self.switched = True
        except Exception as e:  # noqa: BLE001 - anything leaving the job is the failure sought
            _trace(e)
            self.fail("raised %r" % (e,))
            return False
        return self.check()

    def check(self):
        """What the table published and wrote since the last check."""
        club = self.o.club
        out = club.link._out
        club.link._out = b""
        expect = self.expect
        self.expect = None
        said = False
        for topic, p in _published(out):
            if topic == self.t_want:
                w = p.split()
                self.want = (int(w[0]), int(w[1]))
                continue
            if topic != self.t_state:
                continue
            try:
                s = json.loads(p)
            except ValueError:
                return self.fail("fw/state not JSON: %r" % (p,))
            said = True
            state, why = s.get("state"), s.get("why")
            if state not in STATES or (state == "refused" or why is not None) \
                    and why not in CODES:
                return self.fail("fw/state %r" % (s,))
            if why is not None:
                self.codes[why] = self.codes.get(why, 0) + 1
            if expect is not None:
                if not self.as_expected(expect, s):
                    return self.fail("after the offer %r (%s) the table said %r"
                                     % (self.last_offer[:120], _what(expect), s))
                expect = None
            if state == "taking" and why is None:
                self.taking = s.get("offered")
                self.written = 0  # a take begins: nothing of its bundle written yet
                b = self.bundles.get(self.taking)
                self.bound = b[1] if b else 0
                self.bound_v = self.taking
            elif state in ("refused", "running", "back"):
                self.taking = None
            elif state == "switching" and s.get("offered") != self.taking:
                return self.fail("switching to %r while taking %r" % (s, self.taking))
        if expect is not None and expect[0] != "nothing":
            return self.fail("the offer %r (%s): the table said nothing"
                             % (self.last_offer[:120], _what(expect)))
        if self.switched:
            return self.is_switched()
        boot = _read("fw/boot")
        if boot != self.boot0:
            return self.fail("the boot record changed with no switch: %r" % (boot,))
        job = club.fw is not None and club.fw.__class__ is not bytes
        if job and self.taking is None:
            return self.fail("a take runs that the table never reported")
        if self.had_job and club.fw is None and not said:
            return self.fail("the take of %r ended and the table said nothing" % self.taking)
        self.had_job = job
        self.most = max(self.most, self.written)
        if self.written > self.bound:
            return self.fail("%d bytes written into the slots taking version %r, its head's "
                             "total %d" % (self.written, self.bound_v, self.bound))
        n = _size(self.dir)
        bound = self.bundles[self.taking][1] if job and self.taking in self.bundles else 0
        if n > bound:
            if not job:
                return self.fail("%d bytes left in %s with no take running" % (n, self.dir))
            return self.fail("%d bytes in %s, the head of version %r being taken says %d"
                             % (n, self.dir, self.taking, bound))
        return True

    def as_expected(self, expect, s):
        kind = expect[0]
        if kind == "new":  # the newer offer's job: taking it, or refusing it at its start
            return s.get("offered") == expect[1] and "refused" not in s
        if kind == "withdrawn":
            return s["state"] == "running"
        if kind == "nothing":
            return False
        # refused while the take goes on, which the state still says
        return (s["state"] == "taking" and s.get("offered") == self.taking
                and s.get("why") == kind
                and s.get("refused") == (expect[1] if kind != "offer" else None))

    def is_switched(self):
        r = slots.read()
        if r is None or r.get("slot") != self.dir[3:] or r.get("ver") != self.taking:
            return self.fail("switched to %r while taking %r in %s" % (r, self.taking,
                                                                       self.dir))
        if self.taking != self.newest:
            return self.fail("switched to %r, version %r offered since" % (self.taking,
                                                                           self.newest))
        files = self.bundles[self.taking][2]
        want = {self.dir + "/" + n.decode(): d for n, d in files}
        if _read_all(self.dir) != want:
            return self.fail("switched to %s, which does not hold the files signed" % self.dir)
        return True

    # ---- a case ----

    def case(self):
        rng = self.rng
        club = self.o.club
        _empty("fw")
        rec = self.o.maker.record() if rng.chance(4) else None
        if rec is not None:
            with open("fw/boot", "wb") as f:
                f.write(json.dumps(rec).encode())
        self.boot0 = _read("fw/boot")
        self.dir = "fw/b" if rec is not None and rec["slot"] == "a" else "fw/a"
        club.fw = None
        club.link._out = b""
        self.o.said = []  # what the panel said: this case's only (the heap stays small)
        small = club.link._in
        self.bundles = {}
        self.expect = None
        self.want = None
        self.switched = False
        self.replaced = False
        self.had_job = False
        self.written = self.bound = 0
        self.bound_v = None
        self.now = rng.below(1000)
        v = 100 + rng.below(3)
        self.taking = None
        self.newest = v
        self.payload = self.last_offer = self.offer_of(v, not rng.chance(10))
        ok = self.call(club.message, self.t_offer, self.payload) and self.poll(10)
        events = 0
        while ok and not self.switched and club.fw is not None and events < _EVENTS:
            events += 1
            k = rng.below(16)
            if club.fw.__class__ is bytes:
                ok = self.poll(10)
            elif k <= 4 and self.taking is not None:
                had = self.newest
                ok = self.interleave()
                self.replaced = self.replaced or self.newest != had
            elif k == 5:
                ok = self.poll(3500)  # no piece came: asked again, and at last lost
            elif self.want is not None:
                ok = self.answer()
            else:
                ok = self.poll(10)
        self.count("ended: " + ("switched" if self.switched else "taking" if club.fw is not None
                                else "refused"))
        if ok and club.fw is not None:  # still taking: withdrawn, as the club would
            self.expect = ("withdrawn",) if club.fw.__class__ is not bytes else None
            self.last_offer = b""
            ok = self.call(club.message, self.t_offer, b"") and self.poll(10)
        if not ok:
            return self.failure
        self.cases += 1
        if self.switched:
            self.count("switched")
            if self.replaced:
                self.count("switched to a newer offer")
        if club.fw is not None:
            return self.fail("the job still holds the link: %r" % (club.fw,))
        if club.link._in is not small:
            return self.fail("the link's buffer was not given back")
        if "update.job" in sys.modules:
            return self.fail("the update's code stayed in the heap")
        if _read_all("data") != self.o.data0:
            return self.fail("the match's folder changed")
        return None

    def fail(self, why):
        if self.failure is None:
            self.failure = "take case %d: %s" % (self.cases, why)
        return False


class _Counted:
    """A file of a slot opened for writing, its bytes counted."""

    def __init__(self, f, counter):
        self.f = f
        self.counter = counter

    def write(self, data):
        self.counter.written += len(data)
        return self.f.write(data)

    def close(self):
        self.f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


def _what(expect):
    """What an offer was expected to do, in words."""
    return expect[1] if expect[0] == "nothing" and len(expect) > 1 else expect[0]


def _read(p):
    try:
        with open(p, "rb") as f:
            return f.read()
    except OSError:
        return None


def _size(folder):
    n = 0
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    for name in names:
        p = folder + "/" + name
        n += _size(p) if _is_dir(p) else os.stat(p)[6]
    return n


def _trace(e):
    pe = getattr(sys, "print_exception", None)  # MicroPython's
    if pe is not None:
        pe(e)


class _Reset(Exception):
    pass


def _is_dir(p):
    try:
        return bool(os.stat(p)[0] & 0x4000)
    except OSError:
        return False


def _empty(folder):
    if not _is_dir(folder):
        parts = folder.split("/")
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d and not _is_dir(d):
                os.mkdir(d)
        return
    for name in os.listdir(folder):
        p = folder + "/" + name
        if _is_dir(p):
            _empty(p)
            os.rmdir(p)
        else:
            os.remove(p)


def _remove(p):
    try:
        os.remove(p)
    except OSError:
        pass


def _read_all(folder):
    out = {}
    for name in os.listdir(folder):
        p = folder + "/" + name
        if _is_dir(p):
            out.update(_read_all(p))
        else:
            with open(p, "rb") as f:
                out[p] = f.read()
    return out


def main(argv):
    seed, bundles, offers, takes, folder = 1, 2000, None, None, "build/fuzz_update"
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("--seed", "--bundles", "--offers", "--takes", "--dir") and i + 1 < len(argv):
            v = argv[i + 1]
            if a == "--dir":
                folder = v
            elif a == "--seed":
                seed = int(v)
            elif a == "--bundles":
                bundles = int(v)
            elif a == "--takes":
                takes = int(v)
            else:
                offers = int(v)
            i += 2
        else:
            print(__doc__)
            return 2
    if offers is None:
        offers = max(1, bundles // 20)
    if takes is None:
        takes = bundles
    t0 = _ms()
    b = Bundles(seed)
    for _ in range(bundles):
        if b.case():
            print("FAIL seed %d: %s" % (seed, b.failure))
            return 1
    t1 = _ms()
    o = Offers(seed, folder)
    o.setup()
    for _ in range(offers):
        if o.case():
            print("FAIL seed %d: %s" % (seed, o.failure))
            return 1
    t2 = _ms()
    switched = o.resets
    tk = Takes(o)
    tk.watch()
    for _ in range(takes):
        if tk.case():
            print("FAIL seed %d: %s" % (seed, tk.failure))
            return 1
    tk.unwatch()
    t3 = _ms()
    print(json.dumps({"seed": seed, "bundles": b.cases, "taken": b.taken,
                      "refused": b.codes, "most_written_before_a_refusal": b.most,
                      "bundle_ms": t1 - t0, "offers": o.cases, "offer_refusals": o.codes,
                      "switched": switched, "offer_ms": t2 - t1, "takes": tk.cases,
                      "take_refusals": tk.codes, "take_events": tk.seen,
                      "most_written_in_a_take": tk.most,
                      "take_ms": t3 - t2}))
    return 0


def _ms():
    return time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.time() * 1000)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
