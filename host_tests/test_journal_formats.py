"""A new firmware boots the files an earlier release wrote (issue: journals across versions).

host_tests/journals/format<N>/ keeps, for each journal format the firmware has released
(store/fileformat.py VERSION), the flash files a board of that release wrote in the middle
of a match: the summary (two deals played), the journal (the third deal under way, with an
undo), the settings blob (Ukrainian, results entry), and expected.json, the match as that
release showed it (sixtysix/snapshot.py). format1 was written by the firmware of the first
format (a mariage match played by tools/dealgen.py, seed 7). The files are never made
again: a change of format adds a folder, and every earlier folder must still boot.

Booted here in CPython and in the MicroPython runtimes, the match is the one expected, the
settings are those saved, and play goes on: an entry appends to the old journal and a
reboot finds it.
"""

import json
import os
import shutil

import pytest
from conftest import FIRMWARE, ROOT

HERE = os.path.join(ROOT, "host_tests", "journals")
FILES = ("summary", "journal", "settings.blob")


def _formats():
    return sorted(int(n[len("format"):]) for n in os.listdir(HERE) if n.startswith("format"))


def _copy(version, folder):
    src = os.path.join(HERE, "format%d" % version)
    os.makedirs(folder, exist_ok=True)
    for name in FILES:
        shutil.copy(os.path.join(src, name), folder)
    with open(os.path.join(src, "expected.json"), encoding="utf-8") as f:
        return json.load(f)


def test_every_released_format_has_its_files():
    from store.fileformat import VERSION

    assert _formats() == list(range(1, VERSION + 1))


@pytest.mark.parametrize("version", _formats())
def test_cpython_boots_each_released_format(version, tmp_path):
    from session import Session
    from sixtysix.snapshot import snapshot
    from store.journal import Store

    folder = str(tmp_path / "data")
    expected = _copy(version, folder)
    s = Session(Store(folder))
    assert s.boot() == []  # no problem said
    assert snapshot(s.match) == expected
    settings = s.load_settings()
    assert settings["lang"] == "uk" and settings["quick"] == 1
    s.redo()  # the undone entry again, appended to the old journal
    again = Session(Store(folder))
    again.boot()
    assert snapshot(again.match) == snapshot(s.match) != expected


BOOT = """
import json, sys
from session import Session
from store.journal import Store
from sixtysix.snapshot import snapshot
s = Session(Store(sys.argv[1]))
print(json.dumps([s.boot(), snapshot(s.match), s.load_settings()["lang"]]))
"""


@pytest.mark.parametrize("runtime", ["mp64", "mp32"])
@pytest.mark.parametrize("version", _formats())
def test_micropython_boots_each_released_format(version, runtime, tmp_path, request):
    runner = request.getfixturevalue({"mp64": "micropython", "mp32": "mp32"}[runtime])
    folder = str(tmp_path / "data")
    expected = _copy(version, folder)
    script = tmp_path / "boot.py"
    script.write_text(BOOT)
    r = runner([str(script), folder], paths=[FIRMWARE])
    assert r.returncode == 0, r.stderr.decode()
    problems, state, lang = json.loads(r.stdout.decode().strip().splitlines()[-1])
    assert problems == [] and lang == "uk"
    assert state == expected
