"""An in-memory file system with littlefs semantics that can cut the power at any step.

Model (what littlefs promises, plus a harsher option for partial writes):
- a file's data becomes durable at flush() or close(); rename and remove are atomic;
- opening a file for writing creates its (empty) entry at once;
- every byte written, and every open-for-write, flush, close, rename, remove and mkdir is
  one step. FaultFS(cut_at=N) lets steps 0..N-1 happen, then the power is cut: every later
  operation raises OSError(EIO).
- what survives a cut in a file open for writing: "flushed" keeps only what was flushed
  (littlefs); "prefix" also keeps the bytes written since (any prefix, as the cut may fall on
  any byte); "garbage" keeps that prefix followed by junk, like a half-programmed page.

survivors() is the flash after the cut; FaultFS(survivors) boots over it.
Also home of sweep(), which cuts a scripted match at every step and checks each boot.
Runs on CPython and MicroPython.
"""

EIO = 5
ENOENT = 2
JUNK = b"\xff\x00#\n"


class _Reader:
    def __init__(self, fs, data):
        self._fs = fs
        self._data = data
        self._pos = 0

    def read(self, n=-1):
        self._fs._alive()
        data = self._data
        end = len(data) if n is None or n < 0 else min(len(data), self._pos + n)
        out = data[self._pos : end]
        self._pos = end
        return out

    def readline(self, limit=-1):
        self._fs._alive()
        data = self._data
        end = data.find(b"\n", self._pos)
        end = len(data) if end < 0 else end + 1
        if limit is not None and limit >= 0:
            end = min(end, self._pos + limit)
        out = data[self._pos : end]
        self._pos = end
        return out

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _Writer:
    def __init__(self, fs, path, base):
        self._fs = fs
        self.path = path
        self.base = base  # the durable content
        self.buf = b""  # written, not yet flushed
        self.closed = False

    def write(self, data):
        data = bytes(data)
        self._fs._bytes(self, data)
        return len(data)

    def flush(self):
        self._fs._tick()
        self._commit()

    def _commit(self):
        self.base += self.buf
        self.buf = b""
        self._fs.files[self.path] = self.base

    def close(self):
        if self.closed:
            return
        self._fs._tick()
        self._commit()
        self.closed = True
        self._fs._writers.remove(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FaultFS:
    """os-like (open, rename, remove, stat, listdir, mkdir) over a dict of path -> bytes."""

    def __init__(self, files=None, dirs=None, cut_at=None, torn="prefix"):
        self.files = dict(files) if files else {}
        self.dirs = set(dirs) if dirs else set()
        self.cut_at = cut_at
        self.torn = torn
        self.step = 0
        self.dead = False
        self.bytes_written = 0
        self.writes = 0
        self.flushes = 0
        self._writers = []

    # ---- the power ----

    def _alive(self):
        if self.dead:
            raise OSError(EIO)

    def _tick(self):
        self._alive()
        if self.step == self.cut_at:
            self._cut()
        self.step += 1

    def _bytes(self, writer, data):
        self._alive()
        if writer.closed:
            raise ValueError("write to closed file")
        n = len(data)
        self.writes += 1
        if self.cut_at is not None and self.step <= self.cut_at < self.step + n:
            k = self.cut_at - self.step
            writer.buf += data[:k]
            self.step = self.cut_at
            self._cut()
        writer.buf += data
        self.step += n
        self.bytes_written += n

    def _cut(self):
        self.dead = True
        for w in self._writers:
            if self.torn == "prefix":
                self.files[w.path] = w.base + w.buf
            elif self.torn == "garbage" and w.buf:
                self.files[w.path] = w.base + w.buf + JUNK
        self._writers = []
        raise OSError(EIO)

    def survivors(self):
        """(files, dirs) as the flash holds them now."""
        return dict(self.files), set(self.dirs)

    def reboot(self):
        """A fresh, fault-free FaultFS over what survived."""
        return FaultFS(self.files, self.dirs)

    # ---- os-like API ----

    def open(self, path, mode="r"):
        self._alive()
        if "r" in mode:
            if path not in self.files:
                raise OSError(ENOENT)
            return _Reader(self, self.files[path])
        self._parent(path)
        self._tick()
        if "a" in mode:
            base = self.files.get(path, b"")
        else:
            base = b""  # truncation is durable, like a FAT cut: harsh on purpose
        self.files[path] = base
        w = _Writer(self, path, base)
        self._writers.append(w)
        return w

    def _parent(self, path):
        i = path.rfind("/")
        if i > 0 and path[:i] not in self.dirs:
            raise OSError(ENOENT)

    def rename(self, old, new):
        self._alive()
        if old not in self.files:
            raise OSError(ENOENT)
        self._parent(new)
        self._tick()
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        self._alive()
        if path not in self.files:
            raise OSError(ENOENT)
        self._tick()
        del self.files[path]

    def stat(self, path):
        self._alive()
        if path in self.files:
            return (0o100000, 0, 0, 0, 0, 0, len(self.files[path]), 0, 0, 0)
        if path in self.dirs or path in ("", "/"):
            return (0o040000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        raise OSError(ENOENT)

    def mkdir(self, path):
        self._alive()
        if path in self.dirs or path in self.files:
            raise OSError(17)
        self._tick()
        self.dirs.add(path)

    def listdir(self, path=""):
        self._alive()
        prefix = path.rstrip("/") + "/" if path not in ("", "/") else ""
        out = []
        for name in list(self.files) + list(self.dirs):
            if name.startswith(prefix) and "/" not in name[len(prefix) :]:
                out.append(name[len(prefix) :])
        return sorted(out)


# ---- the power-cut sweep ----


def synthetic_events(count):
    """Event lines like the scoring core's: "trick 1 A T", "marriage 2 H", ..."""
    ranks = "AKQJT9"
    suits = "HDCS"
    out = []
    for i in range(count):
        k = i % 7
        if k == 5:
            out.append("marriage %d %s" % (i % 2 + 1, suits[i % 4]))
        elif k == 6:
            out.append("close %d" % (i % 2 + 1))
        else:
            out.append("trick %d %s %s" % (i % 2 + 1, ranks[i % 6], ranks[(i * 5) % 6]))
    return out


def summary_for(covers, deal):
    # A JSON summary of a few hundred bytes that records how many events it covers.
    return '{"covers": %d, "deal": %d, "score": [%d, %d], "history": "%s"}' % (
        covers,
        deal,
        deal * 2,
        deal,
        "21-" * 40,
    )


def covers_of(summary):
    if summary is None:
        return 0
    i = summary.index('"covers": ') + 10
    return int(summary[i : summary.index(",", i)])


class _Progress:
    def __init__(self):
        self.committed = 0  # events whose append() returned
        self.inflight = False  # an append had started and not returned
        self.summary_covers = 0  # covers of the last checkpoint() that returned


def play(store, events, every, progress):
    """The scripted match: append every event, checkpoint after each `every` of them."""
    store.load()
    deal = 0
    for i in range(len(events)):
        progress.inflight = True
        store.append(events[i])
        progress.inflight = False
        progress.committed = i + 1
        if (i + 1) % every == 0:
            deal += 1
            store.checkpoint(summary_for(i + 1, deal))
            progress.summary_covers = i + 1


TORN = ("journal: dropped torn record at byte ",)
# Junk after a torn record can end in a newline: then it is a bad (not torn) last record.
TORN_OR_JUNK = TORN + ("journal: bad record at byte ",)


def check_boot(store_class, root, fs, events, progress, allowed=TORN):
    """Boot over fs, check what was restored; return (problems, failure or None)."""
    store = store_class(root, fs)
    try:
        got = store.load()
    except Exception as e:  # a failed boot
        return [], "boot raised %r" % (e,)
    base = covers_of(got.summary)
    n = base + len(got.events)
    if got.events != events[base:n]:
        return got.problems, "events garbled or duplicated: %r" % (got.events[-3:],)
    if n < progress.committed:
        return got.problems, "lost %d committed events" % (progress.committed - n)
    if n > progress.committed + (1 if progress.inflight else 0):
        return got.problems, "restored %d events, only %d appended" % (n, progress.committed)
    if base < progress.summary_covers:
        return got.problems, "lost a committed checkpoint"
    for p in got.problems:
        if not p.startswith(allowed):
            return got.problems, "unexpected problem: " + p
    # The next append must continue cleanly after whatever load() repaired.
    if n < len(events):
        try:
            store.append(events[n])
            again = store_class(root, fs).load()
        except Exception as e:
            return got.problems, "append after boot raised %r" % (e,)
        if again.problems or again.events != events[base : n + 1]:
            return got.problems, "append after boot: %r %r" % (again.problems, again.events[-2:])
    return got.problems, None


def sweep(store_class, events, every, root="data", torn="prefix", cuts=None):
    """Cut the power at every step (or the given steps) of the scripted match.

    Returns a dict: cuts (cut points tried), steps, torn (boots that dropped a torn
    record), failures (list of strings), bytes (written by the uncut run).
    """
    fs = FaultFS(dirs=[root])
    progress = _Progress()
    ref = store_class(root, fs)
    play(ref, events, every, progress)
    total = fs.step
    stats = {"steps": total, "cuts": 0, "torn": 0, "failures": [], "bytes": ref.bytes_written}
    if fs.bytes_written != ref.bytes_written:
        stats["failures"].append("bytes_written disagrees with the file system")
    for cut in cuts if cuts is not None else range(total):
        fs = FaultFS(dirs=[root], cut_at=cut, torn=torn)
        progress = _Progress()
        try:
            play(store_class(root, fs), events, every, progress)
            # Fine if the store shrugged off a cut in housekeeping (a remove after a commit).
            if not fs.dead:
                stats["failures"].append("cut %d: the power was never cut" % cut)
                continue
        except OSError as e:
            if not fs.dead or e.args[0] != EIO:
                stats["failures"].append("cut %d: unexpected %r" % (cut, e))
                continue
        stats["cuts"] += 1
        allowed = TORN_OR_JUNK if torn == "garbage" else TORN
        problems, failure = check_boot(store_class, root, fs.reboot(), events, progress, allowed)
        if problems:
            stats["torn"] += 1
        if failure:
            stats["failures"].append("cut %d: %s" % (cut, failure))
    return stats
