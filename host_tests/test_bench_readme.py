"""README's figures are the ones `make bench` measured (bench.json), and the cheap ones still
hold for the code as it is.

`make bench` writes bench.json; `tools/bench.py --readme` copies its table into the README.
This test fails when one was changed without the other, when the README's prose quotes a
heap figure the bench no longer gives, or when a figure that takes seconds to measure
(flash bytes per event) has moved since the bench ran.
"""

import json
import os
import re

import bench
import flash_figures
from conftest import ROOT


def _result():
    with open(os.path.join(ROOT, "bench.json")) as f:
        return json.load(f)


def _readme():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return f.read()


def _row(result, key):
    rows = [r for r in result["rows"] if r["key"] == key]
    assert rows, "bench.json has no figure %r" % key
    return rows[0]


def test_the_readme_table_is_bench_json():
    text = _readme()
    assert bench.readme_with(text, _result()) == text, \
        "README.md's figures differ from bench.json: run make bench, then tools/bench.py --readme"


def test_the_prose_quotes_the_measured_heap():
    heap = _row(_result(), "heap_mp32")["raw"]
    text = _readme()
    peak = re.search(r"peaks at about (\d+) KB", text)
    plays = re.search(r"plays from an? (\d+)k heap", text)
    assert peak and plays
    assert int(peak.group(1)) == round(heap["peak"] / 1000.0)
    assert int(plays.group(1)) == heap["smallest_k"]
    flat = " ".join(text.split())
    stock_short = "not with the files on the filesystem" in flat
    assert stock_short == (not heap["fits_56k"])
    rom = heap["romfs"]
    live = re.search(r"needs about (\d+) KB live at most\s+and runs in an? (\d+)k heap", text)
    assert live, "README's ROMFS figures are gone"
    assert int(live.group(1)) == round(rom["peak"] / 1000.0)
    assert rom["fits_56k"] and int(live.group(2)) == rom["smallest_k"]


def test_every_target_has_its_status():
    for r in _result()["rows"]:
        assert r["status"] in ("met", "NOT MET", "-"), r
        assert (r["status"] == "-") == (r["target"] == "-"), r


def test_flash_per_event_is_still_what_the_bench_measured():
    measured = _row(_result(), "flash_event")["raw"]
    assert round(flash_figures.measure()["bytes_per_event"], 1) == round(measured, 1)
