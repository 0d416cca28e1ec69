"""A store's reading: the packed files (summary and blobs), and damaged files kept aside.

Store.load_blob (store/journal.py, whose docstring has the file formats and the protocol)
reads the settings and statistics blobs through this module, loading it for the call: on
the board every imported module's code is heap. The boot's reading of the journal and its
repair are store/repair.py's, which imports this module: a blob read does not load them.
"""

from compat import const

from store.fileformat import MAX_BLOB, VERSION, crc32, crc_hex

_ENOENT = const(2)


class BadFile(Exception):
    """Internal: a file's content is unusable; args[0] is the reason."""


def header_num(field):
    # Strict: int() would also take "+1", " 1" or "1_0".
    if not field or not field.isdigit() or len(field) > 9:
        raise BadFile("unreadable header")
    return int(field)


def keep_bad(s, name, copy):
    """Keep name as name.bad: a rename, or a copy when the file stays in use."""
    bad = name + ".bad"
    try:
        if not copy:
            s._fs.rename(s._p(name), s._p(bad))
            return bad
        src = s._open(s._p(name), "rb")
        try:
            dst = s._open(s._p(bad), "wb")
            try:
                while True:
                    chunk = src.read(256)
                    if not chunk:
                        break
                    s._write(dst, chunk)
            finally:
                dst.close()
        finally:
            src.close()
    except OSError:
        return "nothing (could not write " + bad + ")"
    return bad


def open_header(s, name, magic, count):
    """Open one of our files and read its header line: (file, line, fields), or None
    if the file does not exist. Raises BadFile, with the file closed, for a bad header."""
    try:
        f = s._open(s._p(name), "rb")
    except OSError as e:
        if e.args[0] == _ENOENT:
            return None
        raise
    try:
        line = f.readline(64)
        if not line.endswith(b"\n"):
            raise BadFile("unreadable header")
        fields = line[:-1].split(b" ")
        if len(fields) < 2 or fields[0] != magic:
            raise BadFile("unreadable header")
        version = fields[1]
        if version != b"%d" % VERSION:
            if version.isdigit() and len(version) < 6:
                raise BadFile("unknown format version " + version.decode())
            raise BadFile("unreadable header")
        if len(fields) != count:
            raise BadFile("unreadable header")
    except Exception:
        f.close()
        raise
    return f, line, fields


def load_packed(s, name, magic, problems):
    """(text, gen) of a valid packed file, (None, None) if missing or damaged (the
    problem is added to problems, the file kept as name.bad)."""
    try:
        got = open_header(s, name, magic, 5)
        if got is None:
            return None, None
        f, line, fields = got
        try:
            gen = header_num(fields[2])
            size = header_num(fields[3])
            if size > MAX_BLOB:
                raise BadFile("unreadable header")
            body = f.read(size + 1)
        finally:
            f.close()
        if len(body) != size:
            raise BadFile("length %d, header says %d" % (len(body), size))
        if crc_hex(crc32(body, crc32(line[: len(line) - 9]))) != fields[4]:
            raise BadFile("bad checksum")
        return body.decode(), gen
    except BadFile as e:
        reason = e.args[0]
    except UnicodeError:
        reason = "not UTF-8"
    except OSError:
        reason = "read error"
    problems.append("%s: %s, kept as %s" % (name, reason, keep_bad(s, name, False)))
    return None, None

