"""Which firmware the board runs: the one `make deploy` copied to the top of the flash (the
base), or an update in fw/a or fw/b. The record fw/boot says which; it is only ever
replaced whole, by one rename, so a power cut leaves the old record or the new one.

    {"slot": "b", "ver": 7, "prev": "a", "pver": 6, "tries": 0, "ok": 0}

slot "" is the base. A new version starts with ok 0. Each boot of it adds one to tries
before its code loads; it is confirmed (ok 1) once the loop has handled its first key and
run a few seconds after it (update/boot.py). A version that boots twice without being
confirmed (tries already 2 at a boot: it raised and restarted, hung, or was switched off
first) is left: the record goes back to prev, with "back" naming the version that failed
(the update job reports it) and "failed" the last few that failed here (never taken again;
a newer one is). No record (or one that cannot be read): the base. `make deploy` removes
the record, so the base it copies runs again.

update/boot.py uses it at boot (choose, then confirm), the update job to know the version
running and to switch (write).
"""

import json
import os

BOOT = "fw/boot"
_FAILED = 4  # versions that failed here, kept in the record


class Flash:
    """The board's flash as the update's code uses it: open and os's calls in one object
    (the tests hand in a fault-injecting one instead)."""

    def open(self, path, mode="r"):
        return open(path, mode)

    def rename(self, old, new):
        os.rename(old, new)

    def remove(self, path):
        os.remove(path)

    def stat(self, path):
        return os.stat(path)

    def mkdir(self, path):
        os.mkdir(path)

    def listdir(self, path):
        return os.listdir(path)


def read(fs=None):
    fs = fs or Flash()
    try:
        with fs.open(BOOT, "rb") as f:
            r = json.loads(f.read())
    except (OSError, ValueError):
        return None
    return r if type(r) is dict and "slot" in r else None


def write(r, fs=None, path=BOOT):
    fs = fs or Flash()
    new = path + ".new"
    with fs.open(new, "wb") as f:
        f.write(json.dumps(r).encode())
    fs.rename(new, path)


def failed(r):
    """The versions that failed to start here, the latest last (a record from before the
    list has "back" alone)."""
    f = r.get("failed")
    if type(f) is list:
        return f
    return [r["back"]] if r.get("back") else []


def choose(fs=None):
    """The folder this boot runs from ("" for the base); counts a trial boot, and goes back
    to the previous version after two that did not reach their first frame."""
    r = read(fs)
    if r is None:
        return ""
    if not r.get("ok"):
        if r.get("tries", 0) >= 2:
            ver = r.get("ver", 0)
            r = {"slot": r.get("prev", ""), "ver": r.get("pver", 0), "ok": 1, "back": ver,
                 "failed": ([v for v in failed(r) if v != ver] + [ver])[-_FAILED:]}
        else:
            r["tries"] = r.get("tries", 0) + 1
        try:
            write(r, fs)
        except OSError:
            pass  # a full or failing flash: boot what the record said
    slot = r["slot"]
    return "fw/" + slot if slot else ""


def version(fs=None):
    """The version running now (0: the base, as `make deploy` copied it)."""
    r = read(fs)
    return r.get("ver", 0) if r else 0


def confirm(fs=None):
    """The version on trial is the board's now (ok 1). False when the write failed (it is
    tried again)."""
    r = read(fs)
    if r is None or r.get("ok"):
        return True
    r["ok"] = 1
    r["tries"] = 0
    try:
        write(r, fs)
    except OSError:
        return False
    return True
