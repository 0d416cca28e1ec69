"""The browser build's Python (web/): files in localStorage for Store, the export, and the
app surviving a tab that dies after any single write. The page itself: test_web.py."""

import csv
import io
import json
import os
import sys

import pytest
from conftest import ROOT
from keyseq import KEYPAD, first_deal, random_match
from sixtysix.match import Match
from sixtysix.snapshot import snapshot
from store.journal import Store

WEB = os.path.join(ROOT, "web")
if WEB not in sys.path:
    sys.path.insert(0, WEB)

import export  # noqa: E402
from webstore import WebFS  # noqa: E402


class Storage:
    """localStorage's calls over a dict; `full` makes setItem throw as a full quota does."""

    def __init__(self):
        self.items = {}
        self.full = False

    def getItem(self, key):  # noqa: N802 (the Web Storage API's names)
        return self.items.get(key)

    def setItem(self, key, value):  # noqa: N802
        if self.full:
            raise RuntimeError("QuotaExceededError")
        self.items[key] = value

    def removeItem(self, key):  # noqa: N802
        self.items.pop(key, None)


# ---- WebFS: the file calls Store makes ----


def _write(fs, path, data, mode="wb"):
    f = fs.open(path, mode)
    f.write(data)
    f.close()


def test_written_bytes_reach_the_item_only_at_flush_and_close():
    s = Storage()
    fs = WebFS(s)
    f = fs.open("journal", "wb")
    f.write(b"S66J 1 0 x\n")
    assert s.items == {}  # as littlefs: nothing committed before flush/close
    f.flush()
    assert s.items == {"s66:journal": "tS66J 1 0 x\n"}
    f.write(b"rec\n")
    f.close()
    f.close()  # a second close writes nothing more
    assert fs.open("journal", "rb").read() == b"S66J 1 0 x\nrec\n"


def test_a_close_after_a_flush_writes_nothing():
    """Store flushes after each append and keeps the journal open; a tab that boots again
    on another tab's changes closes it. That close must not put this tab's old copy back
    over the other tab's appends."""
    s = MovingStorage()
    fs = WebFS(s)
    _write(fs, "journal", b"head\n")
    mine = fs.open("journal", "ab")
    mine.write(b"mine\n")
    mine.flush()
    _write(fs, "journal", b"theirs\n", "ab")  # the other tab, on the same items
    del s.calls[:]
    mine.close()
    assert s.calls == []
    assert fs.open("journal", "rb").read() == b"head\nmine\ntheirs\n"
    # An open that makes or empties a file writes it even with nothing written after.
    fs.open("empty", "wb").close()
    fs.open("new", "ab").close()
    fs.open("journal", "wb").close()
    assert [s.items[k] for k in ("s66:empty", "s66:new", "s66:journal")] == ["t"] * 3


def test_append_continues_the_file():
    fs = WebFS(Storage())
    _write(fs, "j", b"one\n")
    _write(fs, "j", b"two\n", "ab")
    _write(fs, "new", b"x", "ab")
    assert fs.open("j", "rb").read() == b"one\ntwo\n"
    assert fs.open("new", "rb").read() == b"x"


@pytest.mark.parametrize("data, item", [
    (b"", "t"),
    (b"S66S 1 2 3 0badc0de\n{}", "tS66S 1 2 3 0badc0de\n{}"),
    ("Українська ♠".encode(), "tУкраїнська ♠"),
    (b"\xff\x00torn", "xff00746f726e"),  # not UTF-8: kept as hex, byte for byte
])
def test_any_bytes_survive_the_item(data, item):
    s = Storage()
    fs = WebFS(s)
    _write(fs, "f", data)
    assert s.items["s66:f"] == item
    assert fs.open("f", "rb").read() == data
    assert fs.stat("f")[6] == len(data)


@pytest.mark.parametrize("call", [
    lambda fs: fs.open("none", "rb"),
    lambda fs: fs.remove("none"),
    lambda fs: fs.rename("none", "other"),
    lambda fs: fs.stat("none"),
])
def test_a_missing_file_is_enoent(call):
    with pytest.raises(OSError) as e:
        call(WebFS(Storage()))
    assert e.value.args[0] == 2


def test_rename_replaces_the_target_and_removes_the_source():
    s = Storage()
    fs = WebFS(s)
    _write(fs, "summary", b"old")
    _write(fs, "summary.tmp", b"new")
    fs.rename("summary.tmp", "summary")
    assert s.items == {"s66:summary": "tnew"}


class MovingStorage(Storage):
    """A storage with move() (web/durable.js): a rename in one step; records each call."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def setItem(self, key, value):  # noqa: N802
        self.calls.append(("set", key))
        super().setItem(key, value)

    def removeItem(self, key):  # noqa: N802
        self.calls.append(("remove", key))
        super().removeItem(key)

    def move(self, src, dst):
        self.calls.append(("move", src, dst))
        self.items[dst] = self.items.pop(src)
        return True


def test_rename_is_one_move_when_the_storage_has_one():
    s = MovingStorage()
    fs = WebFS(s)
    _write(fs, "summary", b"old")
    _write(fs, "summary.tmp", b"new")
    del s.calls[:]
    fs.rename("summary.tmp", "summary")
    assert s.calls == [("move", "s66:summary.tmp", "s66:summary")]
    assert s.items == {"s66:summary": "tnew"}
    with pytest.raises(OSError):
        fs.rename("summary.tmp", "summary")  # gone: ENOENT, and no move asked
    assert len(s.calls) == 1


def test_a_full_quota_is_a_full_flash():
    s = Storage()
    fs = WebFS(s)
    _write(fs, "a", b"kept")
    s.full = True
    f = fs.open("b", "wb")
    f.write(b"lost")
    with pytest.raises(OSError) as e:
        f.close()
    assert e.value.args[0] == 28
    assert s.items == {"s66:a": "tkept"}


def test_store_round_trip_and_repair_over_webfs():
    s = Storage()
    fs = WebFS(s)
    st = Store("", fs, fs.open)
    st.load()
    st.append("0100a1")
    st.checkpoint('{"deal": 2}')
    st.append("u")
    st.append("r")
    again = Store("", fs, fs.open).load()
    assert (again.summary, again.events, again.problems) == ('{"deal": 2}', ["u", "r"], [])
    # A damaged last record is dropped, a copy kept, and the journal rewritten clean.
    s.items["s66:journal"] = s.items["s66:journal"][:-3] + "00\n"
    got = Store("", fs, fs.open).load()
    assert got.events == ["u"]
    assert "s66:journal.bad" in s.items
    assert Store("", fs, fs.open).load().problems == []


# ---- the export ----


def _played(rid, seed, deals):
    lines, m = random_match(rid, seed, suits=False, max_deals=deals)
    return lines, snapshot(m)


@pytest.mark.parametrize("rid, seed, deals", [
    ("mariage", 1, 3),
    ("schnapsen", 2, 4),  # counting down: totals are game points won, not the score shown
    ("mariage3", 3, 3),
    ("mariage4", 4, 3),  # pairs: sides named "1+3" and "2+4"
])
def test_csv_has_a_row_per_deal_that_adds_up_to_the_score(rid, seed, deals):
    _lines, snap = _played(rid, seed, deals)
    rows = list(csv.reader(io.StringIO(export.csv_text(snap), newline="")))
    head, body = rows[0], rows[1:]
    sides = len(snap["score"])
    assert head[:4] == ["deal", "dealer", "winner", "reason"]
    assert len(head) == 4 + 3 * sides
    assert len(body) == snap["deals"] == len(snap["history"])
    names = export.side_names(snap)
    if snap["rules"] == "mariage4":
        assert names == ["1+3", "2+4"]
    for n, (row, hist) in enumerate(zip(body, snap["history"])):
        assert row[0] == str(n + 1)
        assert row[2] == (names[hist["winner"] - 1] if hist["winner"] else "")
        assert row[3] == hist["reason"]
        assert [int(v) for v in row[4 + sides:4 + 2 * sides]] == hist["points"]
    if body and not snap["rules"] == "mariage4":  # pairs also score markers and eights
        assert [int(v) for v in body[-1][4 + 2 * sides:]] == snap["score"]


def test_csv_quotes_a_field_with_a_quote():
    m = Match()
    m.enter_line('new mariage names=Ann"a,Bo')
    text = export.csv_text(snapshot(m))
    assert text.splitlines()[0].endswith(',"total Ann""a",total Bo')


def test_json_export_holds_the_snapshot_and_stats():
    _lines, snap = _played("mariage", 5, 2)
    got = json.loads(export.json_text(snap, {"1": {"played": 1}}))
    assert got == {"format": "sixtysix-match", "version": 1, "match": snap,
                   "stats": {"1": {"played": 1}}}


# ---- a tab that dies at any write (MicroPython unix port) ----


@pytest.mark.parametrize("runtime", ["micropython", "wasm"])  # the unix port, the browser's
def test_the_app_survives_a_tab_dying_after_any_single_write(request, runtime):
    run = request.getfixturevalue(runtime)
    # A deal and the start of the next, then an undo and a redo (held *).
    keys = "".join(k for _line, k in first_deal(KEYPAD)) + "*z"
    proc = run(["host_tests/mp_web_cuts.py", keys], extra_path=[WEB])
    assert proc.returncode == 0, proc.stderr.decode()
    got = json.loads(proc.stdout.decode().strip().splitlines()[-1])
    assert got["failures"] == []
    assert got["presses"] == len(keys)
    assert got["cuts"] >= 15  # every entry is at least one write
