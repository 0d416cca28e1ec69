"""Files for the firmware's Store (store/journal.py) in a browser: one stored item each.

Store takes an os-like `fs` and an open-like `opener`; this module gives both over
`storage`, anything with getItem/setItem/removeItem (the page passes its durable store,
web/durable.js, an in-memory map whose every change is an IndexedDB transaction committed
to disk in order; the tests pass a dict in a class). A storage that also has move(src,
dst) renames in one step. A file is one item under PREFIX + its path: "t" and its text
when its bytes are UTF-8 (all Store writes: headers, JSON, event lines), else "x" and the
bytes in hex, so any byte survives the trip through a JavaScript string and the items stay
readable in the browser's developer tools.

The order of writes is the one Store relies on with littlefs:
  - what is written to an open file reaches its item only at flush() or close(), and only
    what was written since the last flush (a close after a flush writes nothing);
  - rename(src, dst) is atomic with move() (durable.js: one transaction puts dst and
    deletes src); without it, dst is set to src's bytes, then src removed: a tab closed in
    between leaves both, dst already new (the commit point) and src a *.tmp that load()
    removes.
The storage keeps the calls in order (durable.js: transactions over one object store
complete in the order they were opened), so whenever the tab or the browser dies the
items on disk are those after some prefix of Store's writes: exactly the cuts Store is
built to survive.

Folders are implicit (a path is just part of a key): mkdir does nothing, and stat finds
a file only. A setItem that throws (a full quota) is an OSError, as a full flash is, so
the app shows "flash error" and the entry is not counted.
"""

import io

PREFIX = "s66:"
_ENOENT = 2
_ENOSPC = 28


class _File:
    """A file open for writing: bytes collect here and go to the item at flush/close, if
    there are any since the last flush (or the open made the file). A close after a flush
    writes nothing: a tab that boots again on another tab's changes closes its journal,
    and a copy put back then would be an old one over the other tab's appends."""

    def __init__(self, fs, key, data, made):
        self._fs = fs
        self._key = key
        self._buf = bytearray(data)
        self._dirty = made  # the open made or emptied the file: it goes to the item
        self._open = True

    def write(self, data):
        self._buf.extend(data)
        self._dirty = True
        return len(data)

    def flush(self):
        if self._dirty:
            self._fs._put(self._key, self._buf)
            self._dirty = False

    def close(self):
        if self._open:
            self._open = False
            self.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class WebFS:
    """fs and opener for Store: Store(root, fs, fs.open)."""

    def __init__(self, storage, prefix=PREFIX):
        self._s = storage
        self._prefix = prefix
        self._move = getattr(storage, "move", None)

    def _get(self, path):
        """The item of a file (its stored form), OSError ENOENT if there is none."""
        v = self._s.getItem(self._prefix + path)
        if v is None:
            raise OSError(_ENOENT)
        return v

    def _read(self, path):
        v = self._get(path)
        if v[:1] == "x":
            return bytes.fromhex(v[1:])
        return v[1:].encode()

    def _set(self, key, item):
        try:
            self._s.setItem(key, item)
        except Exception:  # QuotaExceededError, seen from Python as a JS exception
            raise OSError(_ENOSPC) from None

    def _put(self, key, data):
        try:
            item = "t" + bytes(data).decode()
        except UnicodeError:
            item = "x" + bytes(data).hex()
        self._set(key, item)

    def open(self, path, mode="r"):
        if "r" in mode:
            return io.BytesIO(self._read(path))
        if "a" in mode:
            try:
                return _File(self, self._prefix + path, self._read(path), False)
            except OSError:
                pass
        return _File(self, self._prefix + path, b"", True)

    def rename(self, src, dst):
        item = self._get(src)
        if self._move is not None:
            self._move(self._prefix + src, self._prefix + dst)
            return
        self._set(self._prefix + dst, item)
        self._s.removeItem(self._prefix + src)

    def remove(self, path):
        self._get(path)
        self._s.removeItem(self._prefix + path)

    def stat(self, path):
        size = len(self._read(path))
        return (0x8000, 0, 0, 0, 0, 0, size, 0, 0, 0)

    def mkdir(self, path):
        pass
