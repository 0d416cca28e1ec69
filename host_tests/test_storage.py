"""The power-safe store: power cuts at every step, damaged files, flash bytes, MicroPython."""

import binascii
import importlib
import os
import sys
import time
import types

import faultfs
import pytest
from faultfs import FaultFS
from store import journal as storage
from store import softcrc
from store.journal import Store

HERE = os.path.dirname(os.path.abspath(__file__))


def _files(path):
    return sorted(os.listdir(path))


def _read(path, name):
    with open(os.path.join(path, name), "rb") as f:
        return f.read()


def _write(path, name, data):
    with open(os.path.join(path, name), "wb") as f:
        f.write(data)


def _match(path, events=8, checkpoint_after=None):
    """A store in path holding events (and a summary after checkpoint_after events)."""
    st = Store(str(path))
    st.load()
    lines = faultfs.synthetic_events(events)
    for i, line in enumerate(lines):
        st.append(line)
        if checkpoint_after == i + 1:
            st.checkpoint(faultfs.summary_for(i + 1, 1))
    st.close()
    return lines


# ---- power cuts ----


def test_power_cut_at_every_step_of_a_360_event_match():
    # 18 deals of 20 events; every byte, flush, close, rename and remove is a cut point.
    events = faultfs.synthetic_events(360)
    started = time.time()
    stats = faultfs.sweep(Store, events, 20)
    print(
        "\npower cut at %d points (%d left a torn record), %d failures, %.1f s"
        % (stats["cuts"], stats["torn"], len(stats["failures"]), time.time() - started)
    )
    assert stats["failures"] == []
    assert stats["cuts"] == stats["steps"] >= 10000
    assert stats["torn"] > 1000  # the torn-tail path really ran


@pytest.mark.parametrize("torn", ["flushed", "garbage"])
def test_power_cut_sweep_littlefs_and_junk_tails(torn):
    stats = faultfs.sweep(Store, faultfs.synthetic_events(100), 20, torn=torn)
    assert stats["failures"] == []
    assert stats["cuts"] > 3000


def test_power_cut_sweep_with_the_first_deal_never_checkpointed():
    # Long journal, odd deal length, root folder created by the store itself.
    stats = faultfs.sweep(Store, faultfs.synthetic_events(45), 31, root="")
    assert stats["failures"] == []


class _RemovesJournalFirst(Store):
    def checkpoint(self, summary_text):
        self.close()
        self._remove_quiet("journal")
        self._jexists = False
        Store.checkpoint(self, summary_text)


class _NoFlushFile:
    def __init__(self, f):
        self._f = f

    def __getattr__(self, name):
        return getattr(self._f, name)

    def flush(self):
        pass


class _NoFlush(Store):
    def __init__(self, root, fs):
        Store.__init__(self, root, fs, opener=lambda p, m: _NoFlushFile(fs.open(p, m)))


class _IgnoresGeneration(Store):
    def _journal_header(self, gen):
        return Store._journal_header(self, 0)

    def load(self):
        got = Store.load(self)
        if self._jexists:
            self.gen = 0
        return got


@pytest.mark.parametrize(
    "broken, torn",
    [(_RemovesJournalFirst, "prefix"), (_NoFlush, "flushed"), (_IgnoresGeneration, "prefix")],
)
def test_the_sweep_catches_a_broken_store(broken, torn):
    stats = faultfs.sweep(broken, faultfs.synthetic_events(30), 10, torn=torn)
    assert stats["failures"], "the sweep should have caught " + broken.__name__


def test_an_append_that_failed_midway_is_not_followed_by_garbage():
    fs = FaultFS(dirs=["d"])
    st = Store("d", fs)
    st.load()
    lines = faultfs.synthetic_events(8)
    for line in lines[:5]:
        st.append(line)
    fs.cut_at = fs.step + 4  # a write error after 4 bytes of the 6th record
    with pytest.raises(OSError):
        st.append(lines[5])
    fs.dead, fs.cut_at = False, None  # the error passes; the store object lives on
    st.append(lines[5])
    st.append(lines[6])
    got = Store("d", fs.reboot()).load()
    assert got.events == lines[:7]
    assert got.problems == []
    assert "journal: dropped torn record at byte " in st.problems[0]


@pytest.mark.parametrize("damage", ["torn", "flipped"])
def test_power_cut_at_every_step_of_a_repair_at_boot(damage):
    fs = FaultFS(dirs=["d"])
    st = Store("d", fs)
    st.load()
    lines = faultfs.synthetic_events(12)
    for line in lines[:10]:
        st.append(line)
    st.close()
    data = bytearray(fs.files["d/journal"])
    if damage == "torn":
        data += b"trick 1 K"
        keep = 10
    else:
        data[-30] ^= 0x40  # inside the 9th record
        keep = 8
    fs.files["d/journal"] = bytes(data)
    dry = FaultFS(fs.files, fs.dirs)
    Store("d", dry).load()
    assert dry.step > 300  # the .bad copy and the rewrite
    for cut in range(dry.step):
        cfs = FaultFS(fs.files, fs.dirs, cut_at=cut)
        Store("d", cfs).load()  # the power goes during the repair
        st = Store("d", cfs.reboot())
        got = st.load()
        assert got.events == lines[:keep], cut
        st.append(lines[keep])
        again = Store("d", st._fs).load()
        assert again.events == lines[: keep + 1] and again.problems == [], cut


def test_a_failed_repair_is_redone_by_the_next_append():
    fs = FaultFS(dirs=["d"])
    st = Store("d", fs)
    st.load()
    lines = faultfs.synthetic_events(6)
    for line in lines[:5]:
        st.append(line)
    st.close()
    fs.files["d/journal"] += b"trick 2 A"  # a torn tail
    dry = FaultFS(fs.files, fs.dirs)
    Store("d", dry).load()
    failing = FaultFS(fs.files, fs.dirs, cut_at=dry.step - 1)  # the repair's rename fails
    st = Store("d", failing)
    assert st.load().events == lines[:5]
    failing.dead, failing.cut_at = False, None
    assert failing.files["d/journal"].endswith(b"trick 2 A")  # still torn on flash
    st.append(lines[5])
    got = Store("d", failing.reboot()).load()
    assert got.events == lines and got.problems == []


# ---- damaged files ----


def test_clean_round_trip_and_no_writes_on_load(tmp_path):
    lines = _match(tmp_path, 25, checkpoint_after=20)
    before = {n: _read(tmp_path, n) for n in _files(tmp_path)}
    st = Store(str(tmp_path))
    got = st.load()
    assert covers_of(got) == 20 and got.events == lines[20:]
    assert got.problems == [] and got.gen == 1
    summary, events, problems = got
    assert summary == faultfs.summary_for(20, 1) and events == lines[20:] and problems == []
    assert st.bytes_written == 0
    assert {n: _read(tmp_path, n) for n in _files(tmp_path)} == before
    assert _files(tmp_path) == ["journal", "summary"]


def covers_of(got):
    return faultfs.covers_of(got.summary)


def test_fresh_store_in_a_missing_folder(tmp_path):
    root = str(tmp_path / "data")
    st = Store(root)
    got = st.load()
    assert (got.summary, got.events, got.problems) == (None, [], [])
    assert not os.path.exists(root)  # nothing written until there is something to keep
    st.append("deal 1")
    assert Store(root).load().events == ["deal 1"]


def test_garbage_journal(tmp_path):
    _match(tmp_path, 6, checkpoint_after=3)
    _write(tmp_path, "journal", b"\x00\xffnot a journal at all\n" * 5)
    st = Store(str(tmp_path))
    got = st.load()
    assert got.problems == ["journal: unreadable header, kept as journal.bad"]
    assert covers_of(got) == 3 and got.events == []
    assert "journal.bad" in _files(tmp_path) and "journal" not in _files(tmp_path)
    st.append("trick 1 A T")
    assert Store(str(tmp_path)).load().events == ["trick 1 A T"]


def test_torn_last_record(tmp_path):
    lines = _match(tmp_path, 6)
    data = _read(tmp_path, "journal")
    _write(tmp_path, "journal", data[:-5])
    torn_at = len(data) - len(lines[5]) - 10
    st = Store(str(tmp_path))
    got = st.load()
    assert got.problems == [
        "journal: dropped torn record at byte %d, kept copy as journal.bad" % torn_at
    ]
    assert got.events == lines[:5]
    assert _read(tmp_path, "journal.bad") == data[:-5]
    assert _read(tmp_path, "journal") == data[:torn_at]  # repaired through a rename
    st.append(lines[5])
    again = Store(str(tmp_path)).load()
    assert again.events == lines and again.problems == []


def test_flipped_bit_in_a_middle_record_keeps_the_prefix(tmp_path):
    lines = _match(tmp_path, 9)
    data = bytearray(_read(tmp_path, "journal"))
    header = data.index(b"\n") + 1
    at = header + sum(len(x) + 10 for x in lines[:4])  # start of the 5th record
    data[at + 3] ^= 0x04
    _write(tmp_path, "journal", bytes(data))
    got = Store(str(tmp_path)).load()
    assert got.events == lines[:4]
    assert got.problems == [
        "journal: bad record at byte %d, dropped 5 records, kept copy as journal.bad" % at
    ]
    assert _read(tmp_path, "journal.bad") == bytes(data)


def test_every_single_bit_flip_of_the_journal_leaves_a_prefix():
    fs = FaultFS(dirs=["d"])
    st = Store("d", fs)
    st.load()
    lines = ["trick 1 A T", "marriage 2 H", "close 1", "раунд 2", "trick 2 K Q"]
    for line in lines:
        st.append(line)
    st.close()
    good = fs.files["d/journal"]
    for bit in range(len(good) * 8):
        data = bytearray(good)
        data[bit // 8] ^= 1 << (bit % 8)
        flipped = FaultFS({"d/journal": bytes(data)}, dirs=["d"])
        got = Store("d", flipped).load()
        assert got.events == lines[: len(got.events)], bit
        assert len(got.events) < len(lines) and len(got.problems) == 1, bit
        assert "d/journal.bad" in flipped.files, bit


def test_unknown_version(tmp_path):
    _match(tmp_path, 4, checkpoint_after=2)
    data = _read(tmp_path, "journal")
    _write(tmp_path, "journal", b"S66J 9" + data[6:])
    summary = _read(tmp_path, "summary")
    _write(tmp_path, "summary", b"S66S 2" + summary[6:])
    got = Store(str(tmp_path)).load()
    assert got.problems == [
        "summary: unknown format version 2, kept as summary.bad",
        "journal: unknown format version 9, kept as journal.bad",
    ]
    assert got.summary is None and got.events == []
    assert {"summary.bad", "journal.bad"} <= set(_files(tmp_path))


def test_missing_summary(tmp_path):
    lines = _match(tmp_path, 5, checkpoint_after=3)
    os.remove(os.path.join(tmp_path, "summary"))
    got = Store(str(tmp_path)).load()
    assert got.problems == ["summary: missing, journal continues generation 1"]
    assert got.summary is None and got.events == lines[3:]


def test_corrupt_summary(tmp_path):
    lines = _match(tmp_path, 5, checkpoint_after=3)
    data = bytearray(_read(tmp_path, "summary"))
    data[40] ^= 0x01
    _write(tmp_path, "summary", bytes(data))
    st = Store(str(tmp_path))
    got = st.load()
    assert got.problems == [
        "summary: bad checksum, kept as summary.bad",
        "summary: missing, journal continues generation 1",
    ]
    assert got.summary is None and got.events == lines[3:]
    assert _read(tmp_path, "summary.bad") == bytes(data)
    st.checkpoint(faultfs.summary_for(5, 2))  # the match goes on with a new generation
    again = Store(str(tmp_path)).load()
    assert again.problems == [] and covers_of(again) == 5 and again.gen == 2


def test_truncated_summary(tmp_path):
    _match(tmp_path, 3, checkpoint_after=3)
    _write(tmp_path, "summary", _read(tmp_path, "summary")[:-1])
    got = Store(str(tmp_path)).load()
    assert got.problems[0].startswith("summary: length ")
    assert got.problems[0].endswith(", kept as summary.bad")


def test_checkpoint_cut_before_the_journal_was_removed(tmp_path):
    lines = _match(tmp_path, 5)
    old_journal = _read(tmp_path, "journal")
    st = Store(str(tmp_path))
    st.load()
    st.checkpoint(faultfs.summary_for(5, 1))
    _write(tmp_path, "journal", old_journal)  # as if the power went before the remove
    _write(tmp_path, "summary.tmp", b"half a summ")
    st = Store(str(tmp_path))
    got = st.load()
    assert covers_of(got) == 5 and got.events == [] and got.problems == []
    assert _files(tmp_path) == ["summary"]  # stale journal and temp file cleaned up
    st.append(lines[0])
    assert Store(str(tmp_path)).load().events == [lines[0]]


def test_journal_ahead_of_its_summary(tmp_path):
    _match(tmp_path, 4, checkpoint_after=2)
    st = Store(str(tmp_path))
    st.load()
    st.checkpoint(faultfs.summary_for(4, 2))
    st.append("trick 1 A T")
    st.close()
    ahead = _read(tmp_path, "journal")
    _match(tmp_path / "old", 4, checkpoint_after=2)  # a summary of generation 1
    _write(tmp_path, "summary", _read(tmp_path / "old", "summary"))
    got = Store(str(tmp_path)).load()
    assert got.problems == ["journal: generation 2 but summary is 1, kept as journal.bad"]
    assert got.events == [] and _read(tmp_path, "journal.bad") == ahead


def test_settings_blob_round_trip_and_corruption(tmp_path):
    st = Store(str(tmp_path))
    assert st.load_blob("settings") is None and st.problems == []
    text = '{"lang": "uk", "contrast": 40, "name": "Гравець"}'
    st.save_blob("settings", text)
    assert Store(str(tmp_path)).load_blob("settings") == text
    data = bytearray(_read(tmp_path, "settings.blob"))
    data[-3] ^= 0x20
    _write(tmp_path, "settings.blob", bytes(data))
    st = Store(str(tmp_path))
    assert st.load_blob("settings") is None
    assert st.problems == ["settings.blob: bad checksum, kept as settings.blob.bad"]
    assert _read(tmp_path, "settings.blob.bad") == bytes(data)
    st.save_blob("settings", text)
    assert Store(str(tmp_path)).load_blob("settings") == text
    with pytest.raises(ValueError):
        st.save_blob("../x", "no")


def test_garbage_blob_and_summary(tmp_path):
    _write(tmp_path, "stats.blob", b"\xff" * 100)
    _write(tmp_path, "summary", b"")
    st = Store(str(tmp_path))
    got = st.load()
    assert st.load_blob("stats") is None
    assert st.problems == [
        "summary: unreadable header, kept as summary.bad",
        "stats.blob: unreadable header, kept as stats.blob.bad",
    ]
    assert got.problems == st.problems[:1]


def test_blob_power_cut_keeps_old_or_new():
    fs = FaultFS(dirs=["d"])
    Store("d", fs).save_blob("stats", "old")
    steps = fs.step
    for cut in range(steps + 5):
        cfs = FaultFS(fs.files, fs.dirs, cut_at=cut)
        try:
            Store("d", cfs).save_blob("stats", "new" * 3)
        except OSError:
            pass
        st = Store("d", cfs.reboot())
        assert st.load_blob("stats") in ("old", "new" * 3) and st.problems == []


def test_bad_lines_are_refused():
    st = Store("d", FaultFS(dirs=["d"]))
    with pytest.raises(ValueError):
        st.append("two\nlines")
    with pytest.raises(ValueError):
        st.append("x" * (storage.MAX_LINE + 1))
    st.append("x" * storage.MAX_LINE)
    assert st.load().events == ["x" * storage.MAX_LINE]


def test_pure_python_crc_matches_binascii():
    for data in (b"", b"abc", bytes(range(256)), "раунд".encode()):
        assert softcrc.crc32(data) == binascii.crc32(data)
        assert softcrc.crc32(data, 12345) == binascii.crc32(data, 12345)


def test_a_port_without_binascii_crc32_gets_the_python_one(monkeypatch):
    import store

    monkeypatch.setattr(store, "fileformat", sys.modules["store.fileformat"])  # all restored after
    monkeypatch.setitem(sys.modules, "binascii", types.ModuleType("binascii"))  # no crc32
    monkeypatch.delitem(sys.modules, "store.fileformat")
    assert importlib.import_module("store.fileformat").crc32 is softcrc.crc32


class _UnreadableJournal(FaultFS):
    def open(self, path, mode="r"):
        if path.endswith("/journal") and "r" in mode:
            raise OSError(faultfs.EIO)
        return FaultFS.open(self, path, mode)


def test_a_journal_that_cannot_be_read_is_kept_not_overwritten():
    fs = FaultFS(dirs=["d"])
    st = Store("d", fs)
    st.load()
    st.append("trick 1 A T")
    st.close()
    sick = _UnreadableJournal(fs.files, fs.dirs)
    st = Store("d", sick)
    got = st.load()
    assert got.problems == ["journal: read error, kept as journal.bad"]
    st.append("trick 2 K Q")
    assert sick.files["d/journal.bad"] == fs.files["d/journal"]


# ---- flash bytes ----


def test_bytes_written_per_event_and_per_checkpoint():
    fs = FaultFS(dirs=["d"])
    st = Store("d", fs)
    st.load()
    st.append("trick 1 A T")  # first event of a generation: carries the journal header
    first = st.bytes_written
    line = "trick 1 A T9"  # a typical 12-byte line
    st.append(line)
    per_event = st.bytes_written - first
    before = st.bytes_written
    summary = faultfs.summary_for(2, 1)
    st.checkpoint(summary)
    per_checkpoint = st.bytes_written - before
    st.append(line)
    header = st.bytes_written - before - per_checkpoint - per_event
    print(
        "\nbytes: %d per 12-byte event, %d per checkpoint (%d-byte summary) + %d journal header"
        % (per_event, per_checkpoint, len(summary), header)
    )
    assert per_event == len(line) + 10 <= 64
    assert per_checkpoint <= len(summary) + 32
    assert header <= 24
    assert fs.bytes_written == st.bytes_written


# ---- MicroPython ----

MP_SCRIPT = """
import os
import faultfs
from store.journal import Store

stats = faultfs.sweep(Store, faultfs.synthetic_events(40), 10)
assert not stats["failures"], stats["failures"][:3]
print("cuts", stats["cuts"])

root = ROOT
st = Store(root)
st.load()
for i in range(5):
    st.append("trick %d A T" % i)
st.checkpoint('{"covers": 5}')
st.append("marriage 1 H")
st.append("раунд 2")
st.close()
got = Store(root).load()
assert got.summary == '{"covers": 5}' and got.events == ["marriage 1 H", "раунд 2"], got.events
f = open(root + "/journal", "ab")
f.write(b"torn rec")
f.close()
st = Store(root)
got = st.load()
assert got.events == ["marriage 1 H", "раунд 2"], got.events
print(got.problems[0])
st.append("close 1")
assert Store(root).load().events[-1] == "close 1"
st.save_blob("settings", "lang=uk")
assert Store(root).load_blob("settings") == "lang=uk"
print("ok")
"""


def test_store_under_micropython(micropython, tmp_path):
    script = tmp_path / "mp_storage.py"
    root = tmp_path / "flash"
    script.write_text("ROOT = %r\n" % str(root) + MP_SCRIPT, encoding="utf-8")
    # Not a board figure (the bench has those, from .mpy files): run from source, the store
    # compiles in this heap, and its names carry the checkout's and the temp folder's paths,
    # so 112k failed once pytest's temp folders reached three digits.
    proc = micropython([str(script)], heapsize="160k", extra_path=[HERE])
    out = proc.stdout.decode()
    assert proc.returncode == 0, out + proc.stderr.decode()
    lines = out.split("\n")
    assert int(lines[0].split()[1]) > 1000
    assert lines[1].startswith("journal: dropped torn record at byte ")
    assert lines[2] == "ok"
