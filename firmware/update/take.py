"""Taking a bundle (tools/fleet.py makes it) as a stream of bytes, in pieces of any size:

    S66FW2 <version> <files> <bytes of the files> <manifest's SHA-256> <HMAC>\\n
    then for each file: <path> <size> <SHA-256>\\n and its <size> bytes

The manifest is the files' lines, one after another; the HMAC-SHA256 (hex, the club's key)
signs the head line up to it. So the head is checked first (its signature, its version
against the running one, its size against the free flash) before anything is written; then
each file goes to the slot the board does not run from (fw/a or fw/b) and is checked (its
size, its SHA-256) as soon as its last byte is in; at the end the lines seen must be the
manifest the head signed. Only then one rename of the boot record (update/slots.py) makes
the slot the one the next boot runs: until that rename the board boots what it ran before,
whatever the power does. The match's folder (data/) is never written. Nothing but a line
and a piece at a time is held in the heap.

The signed head bounds what is written: a file line whose size passes what the head's total
has left, or a file more than it counts, is refused before its first byte is written; after
a refusal abandon() clears the slot's files, so no junk stays in the flash.

A refusal raises Refusal(code): "format", "signature", "older", "space", "hash", "busy",
"failed" (a version this board went back from: update/slots.py). Nothing else leaves feed()
or finish() but OSError (the flash's own failure): whatever a bundle holds is "format".
"""

import hashlib

from update import slots
from update.sign import hmac_sha256, same

MAGIC = b"S66FW2 "
_LINE = 200  # bytes of a head or file line at most
_PATH = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./"


class Refusal(Exception):
    pass


def _hex(digest):
    return "".join("%02x" % b for b in digest)


class Taker:
    """fs: update/slots.py's Flash (or the tests' fault-injecting one); key: the club's key
    (bytes); free: bytes the flash can still take (os.statvfs on a board)."""

    def __init__(self, fs, key, free):
        self.fs = fs
        self.key = key
        self.free = free
        self.record = slots.read(fs) or {"slot": "", "ver": 0, "ok": 1}
        if not self.record.get("ok"):
            raise Refusal("busy")  # the running version is on trial: it goes first
        self.running = self.record.get("ver", 0)
        self.slot = "b" if self.record["slot"] == "a" else "a"
        self.line = b""  # a line coming in
        self.version = None  # from the checked head
        self.count = 0  # files still to come
        self.total = 0  # bytes the head's total has left
        self.manifest = hashlib.sha256()
        self.out = None  # the file being written...
        self.left = 0  # ...its bytes still to come
        self.hash = hashlib.sha256()  # the file's, from its first byte
        self.sha = ""
        self.done = False

    # ---- the stream ----

    def feed(self, data):
        """The next bytes of the bundle."""
        try:
            self._feed(data)
        except (Refusal, OSError):
            raise
        except Exception:  # a bundle's bytes end in a refusal, never in a crash
            raise Refusal("format") from None

    def _feed(self, data):
        mv = memoryview(data)
        at = 0
        while at < len(mv):
            if self.out is not None:
                n = min(self.left, len(mv) - at)
                piece = mv[at:at + n]
                self.out.write(piece)
                self.hash.update(piece)
                self.left -= n
                at += n
                if not self.left:
                    self._close()
                continue
            nl = at
            while nl < len(mv) and mv[nl] != 10:
                nl += 1
            self.line += bytes(mv[at:nl])
            if len(self.line) > _LINE:
                raise Refusal("format")
            if nl == len(mv):
                return
            at = nl + 1
            line = self.line
            self.line = b""
            if self.version is None:
                self._head(line)
            else:
                self._file(line)

    def _head(self, line):
        w = line.split()
        if line[:len(MAGIC)] != MAGIC or len(w) != 6:
            raise Refusal("format")
        signed = line[:line.rfind(b" ")]
        if not same(_hex(hmac_sha256(self.key, signed)).encode(), w[5]):
            raise Refusal("signature")
        if not (w[1].isdigit() and w[2].isdigit() and w[3].isdigit()):
            raise Refusal("format")
        version, count, total = int(w[1]), int(w[2]), int(w[3])
        if version <= self.running:
            raise Refusal("older")
        if version in slots.failed(self.record):
            raise Refusal("failed")  # it did not start here: not again, only a newer one
        if total > self.free + self._slot_bytes():
            raise Refusal("space")
        self.version = version
        self.count = count
        self.total = total
        self.want = w[4].decode()
        self._clear()

    def _file(self, line):
        if not self.count:
            raise Refusal("format")  # more than the head said
        self.manifest.update(line)
        self.manifest.update(b"\n")
        w = line.split()
        if len(w) != 3 or len(w[2]) != 64 or not 0 < len(w[1]) < 10 \
                or not _only(w[1], b"0123456789"):
            raise Refusal("format")
        size = int(w[1])
        if size > self.total:
            raise Refusal("format")  # past the head's total: not one byte of it
        if not _only(w[0], _PATH):
            raise Refusal("format")
        rel = w[0].decode()
        for name in rel.split("/"):
            if name in ("", ".", ".."):
                raise Refusal("format")
        p = self._dir() + "/" + rel
        parts = p.split("/")
        for i in range(3, len(parts)):
            self._mkdir("/".join(parts[:i]))
        if self._is_dir(p):
            raise Refusal("format")  # a folder of this bundle's own, not a file
        self.total -= size
        self.out = self.fs.open(p, "wb")
        self.hash = hashlib.sha256()
        self.sha = w[2].decode()
        self.left = size
        if not self.left:
            self._close()

    def _close(self):
        out = self.out
        self.out = None
        if out is not None:
            out.close()
        self.count -= 1
        if _hex(self.hash.digest()) != self.sha:
            raise Refusal("hash")

    # ---- the slot ----

    def _dir(self):
        return "fw/" + self.slot

    def _walk(self, folder, on_file):
        fs = self.fs
        try:
            names = fs.listdir(folder)
        except OSError:
            return
        for name in names:
            p = folder + "/" + name
            if fs.stat(p)[0] & 0x4000:
                self._walk(p, on_file)
            else:
                on_file(p)

    def _slot_bytes(self):
        n = [0]

        def add(p):
            n[0] += self.fs.stat(p)[6]

        self._walk(self._dir(), add)
        return n[0]

    def _clear(self):
        """Empty the slot the board does not run from, and make its folders."""
        self._walk(self._dir(), self.fs.remove)
        for d in ("fw", self._dir()):
            self._mkdir(d)

    def _mkdir(self, d):
        try:
            st = self.fs.stat(d)
        except OSError:
            self.fs.mkdir(d)
            return
        if not st[0] & 0x4000:
            raise Refusal("format")  # a file of this bundle's own in the way

    def _is_dir(self, p):
        try:
            return bool(self.fs.stat(p)[0] & 0x4000)
        except OSError:
            return False

    # ---- the end ----

    def finish(self):
        """All bytes are in: switch to the slot (one rename). Refusal("format") when the
        bundle stopped short, "hash" when its lines are not the manifest the head signed."""
        if self.version is None or self.out is not None or self.count or self.line:
            raise Refusal("format")
        if _hex(self.manifest.digest()) != self.want:
            raise Refusal("hash")
        r = self.record
        new = {"slot": self.slot, "ver": self.version, "prev": r["slot"],
               "pver": self.running, "tries": 0, "ok": 0}
        if slots.failed(r):
            new["failed"] = slots.failed(r)  # still never taken again
        slots.write(new, self.fs)
        self.done = True

    def abandon(self):
        """A refusal or a lost link: close what is open and clear the slot's files (it stays
        unused; a take starts it over)."""
        if self.out is not None:
            try:
                self.out.close()
            except OSError:
                pass
            self.out = None
        if self.version is not None and not self.done:  # the head passed: the slot is ours
            self.version = None
            try:
                self._walk(self._dir(), self.fs.remove)
            except OSError:
                pass  # a failing flash: the next take clears it first


def _only(word, allowed):
    for b in word:
        if b not in allowed:
            return False
    return True
