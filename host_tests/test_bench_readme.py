"""The figures the docs quote are the ones `make bench` measured (bench.json), and the cheap
ones still hold for the code as it is.

`make bench` writes bench.json, then (as `tools/bench.py --docs` does) the figures table
(docs/performance.md) and every figure README.md and docs/*.md mark with
`<!-- bench:KEY.FIELD FORMAT -->...<!-- /bench -->`. This test fails when:
- a marked figure (or the figures table) differs from bench.json, or names a figure
  bench.json does not have;
- a docs line quotes a number that looks measured without the markers: a byte count of
  four digits or more, kilobytes or megabytes, a "67k heap", milliseconds, a range of
  seconds, results per second (outside code blocks, inline code and the markers). The
  numbers of that shape that are no measurement (targets, constants of the design, the
  tests' own counts) and those measured by hand, not yet by the bench, are listed below
  with the reason, phrase by phrase;
- docs/memory.md's sentence on the 56 KiB target says other than the bench;
- a figure that takes seconds to measure (flash bytes per event) has moved since the
  bench ran.
"""

import json
import os
import re

import benchdocs
import flash_figures
import pytest
from conftest import ROOT


def _result():
    with open(os.path.join(ROOT, "bench.json")) as f:
        return json.load(f)


def _read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


DOCS = benchdocs.doc_files(ROOT)


def _row(result, key):
    rows = [r for r in result["rows"] if r["key"] == key]
    assert rows, "bench.json has no figure %r" % key
    return rows[0]


@pytest.mark.parametrize("rel", DOCS)
def test_every_marked_figure_is_bench_json(rel):
    text = _read(rel)
    result = _result()
    wrong = []
    for m in re.finditer(benchdocs.FIGURE, text, re.S):
        try:
            want = benchdocs.formatted(benchdocs.figure(result, m.group(1)), m.group(2))
        except KeyError as e:
            wrong.append("%s: %s" % (m.group(0), e))
            continue
        if m.group(3) != want:
            wrong.append("%s: bench.json says %s" % (m.group(0), want))
    assert wrong == [], "%s: run tools/bench.py --docs (or make bench)" % rel
    assert benchdocs.docs_with(text, result) == text, \
        "%s differs from bench.json: run tools/bench.py --docs (or make bench)" % rel


def test_the_docs_have_the_table_and_quote_the_known_figures():
    assert benchdocs.MARK_START in _read(benchdocs.TABLE_DOC)
    marked = set()
    for rel in DOCS:
        marked |= {m.group(1) for m in re.finditer(benchdocs.FIGURE, _read(rel), re.S)}
    for path in ("heap_mp32.peak", "heap_mp32.smallest_k", "heap_mp32.romfs.peak",
                 "heap_start_mp32", "flash_event", "web_first_load.first_load_bytes",
                 "web_first_load.key_to_frame_median_ms", "web_first_load.key_to_frame_p95_ms",
                 "deploy.mpy", "deploy.folders.net", "deploy.romfs_image",
                 "club_heap.with_club", "club_service.results_per_s"):
        assert path in marked, path


# --- numbers that look measured ---------------------------------------------------------

LOOKS_MEASURED = re.compile(r"""
    \b\d{1,3}(?:,\d{3})+\b                          # 679,509  61,104 B  | 8,188 |
  | \b\d{4,}\s*(?:B|bytes)\b                        # 1064 bytes
  | \b\d+(?:\.\d+)?\s*(?:KB|kB|MB)\b                # 61 KB, 61.1 KB, 1.5 MB
  | \b\d+k\s+heap\b                                 # a 67k heap
  | \b\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?\s*ms\b       # 1.5 ms, 5.9-6.7 ms
  | \b\d+(?:\.\d+)?-\d+(?:\.\d+)?\s*s\b             # 0.8-1.5 s
  | \b\d[\d,]*\s*results/s                          # 1,488 results/s
""", re.X)

# (file, the words around the number, why it is not from the bench). A phrase that no
# longer occurs fails the test too, so the list stays the docs' own.
NOT_FROM_THE_BENCH = [
    # targets, constants and the tests' own counts: no measurement
    ("docs/memory.md", "over 10,000 cut points", "what the power-cut tests try"),
    ("docs/performance.md", "runs 20,000 presses", "what make test's fuzz run types"),
    ("docs/memory.md", "a 4.5 KB block", "the qstr table's doubling: arithmetic"),
    ("docs/memory.md", "a 128 KB ROMFS", "MicroPython's partition table"),
    ("docs/boards.md", "with a 128 KB", "MicroPython's partition table"),
    ("docs/boards.md", "(0.5 ms a loop turn, assumed",
     "the battery estimate's assumed busy time a loop turn (tools/battery.py)"),
    ("docs/boards.md", "| 2 ms, an allowance", "tools/battery.py's WAKE_MS, an allowance"),
    ("docs/boards.md", "four times the 0.5 ms a scope", "a forum's scope reading, quoted"),
    ("docs/boards.md", "goal 50 ms", "a target (tools/targets.py)"),
    ("docs/boards.md", "(every 20 ms while dimmed", "hw/power.py's scan_ms, a setting"),
    ("docs/boards.md", "every 100 ms with the panel off", "hw/power.py's nowake_ms, a setting"),
    ("docs/boards.md", "keys scanned every 20 ms", "hw/power.py's scan_ms, a setting"),
    ("docs/boards.md", "keys scanned every 40 ms", "the saving's scan_ms, a setting"),
    ("docs/boards.md", "the about 200 ms a scope capture", "a blog's scope reading, quoted"),
    ("docs/web.md", "its 1024 bytes", "the 128x64 frame buffer"),
    ("docs/web.md", "(600 ms)", "LONG_MS, a constant"),
    ("docs/web.md", "at least 200 ms before", "the kill test's bound (tools/web_kills.py)"),
    ("docs/web.md", "less than 200 ms before", "the kill test's bound (tools/web_kills.py)"),
    ("docs/web.md", "the frames drawn 200 ms before", "the kill test's bound (tools/web_kills.py)"),
    ("docs/web.md", "≤ 1.5 MB", "a target (tools/targets.py)"),
    ("docs/web.md", "≤ 16 ms", "a target (tools/targets.py)"),
    ("docs/web.md", "≤ 3 MB", "a target (tools/targets.py)"),
    ("docs/web.md", "≤ 300 ms", "a target (tools/targets.py)"),
    ("docs/fonts.md", "0 bytes for 1,000 characters", "the test's count of characters"),
    ("docs/club.md", "refuses messages over 8 KB", "venue.conf's message_size_limit"),
    ("docs/club.md", "A message over 8 KB", "the service's MAX_PAYLOAD, a constant"),
    ("docs/club.md", "at most 6,000 bytes each", "club/bounded.py's PART_BYTES, a constant"),
    ("docs/club.md", "over its 8 KB (`message_size_limit`)", "venue.conf's limit"),
    ("docs/club.md", "result over the broker's 8 KB", "venue.conf's limit"),
    ("docs/club.md", "each reply through venue.conf's 8 KB", "venue.conf's limit"),
    ("docs/club.md", "makes under 1 KB", "test_club_outbox.py's bound at the largest deal"),
    ("docs/club.md", "broker's 8 KB;", "venue.conf's message_size_limit"),
    # measured by hand or by a test once, not by make bench (yet)
    ("docs/club.md", "below 20 ms", "a test's bound on the slowest step"),
    ("docs/club.md", "6 KB of flash after 120 deals instead of 24 KB",
     "test_club_outbox.py's compaction"),
    ("docs/fonts.md", "(~0.9 KB of", "font_to_py's padding: arithmetic"),
    ("docs/fonts.md", "the 3.7 KB of glyph", "the glyphs' bytes: arithmetic"),
    ("docs/fonts.md", "about 0.5 KB of garbage", "font_to_py's search, measured by hand"),
]


def _plain(text):
    """The text with code blocks, inline code, HTML comments and marked figures (with the
    figures table) blanked out, line breaks kept."""
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))  # noqa: E731
    text = re.sub(re.escape(benchdocs.MARK_START) + ".*?" + re.escape(benchdocs.MARK_END), blank,
                  text, flags=re.S)
    text = re.sub(benchdocs.FIGURE, blank, text, flags=re.S)
    text = re.sub(r"(?ms)^ *```.*?^ *```[^\n]*$", blank, text)
    text = re.sub(r"<!--.*?-->", blank, text, flags=re.S)
    return re.sub(r"`[^`\n]*`", blank, text)


def unmarked(rel, text):
    """(line number, number, line) of each measured-looking number outside the markers and
    not in NOT_FROM_THE_BENCH (a number and its unit may be on two lines)."""
    allowed = [phrase for f, phrase, _why in NOT_FROM_THE_BENCH if f == rel]
    flat = text.split("\n")
    out = []
    for m in LOOKS_MEASURED.finditer(_plain(text)):
        i = text.count("\n", 0, m.start())
        number = " ".join(m.group(0).split())
        # the phrase may wrap: look at this line and its neighbours, joined
        near = " ".join(" ".join(flat[max(0, i - 1):i + 3]).split())
        if not any(p in near and number in p for p in allowed):
            out.append((i + 1, number, flat[i].strip()))
    return out


def test_the_scanner_finds_the_figures_that_drifted():
    # what the docs said before the markers: each of these lines must be caught
    for line in ("visit (679,509 bytes by `make bench`, 667,683 before). A club table's",
                 "| key event to frame on the canvas, three deals typed (93 presses): median "
                 "| 5.9-6.7 ms | |",
                 "| navigation to first frame, first visit | 0.8-1.5 s | |",
                 "| **total .mpy** | **59,601** |",
                 "of `make bench` peaks at about 61 KB live on the 32-bit port and plays from a",
                 "67k heap (it needed 100k when the 32-bit figures began, 71k before two rounds",
                 "| 200 tables x 60 deals (13,200 results, QoS 1) | 8.9 s: 1,488 results/s |",
                 "neither does the boot without it; the club's 11.7 KB are its three modules'"):
        assert unmarked("docs/x.md", line), line
    for line in ("the marriages (20/40), closing the stock, the game points of each deal (1, 2",
                 "or 3, and the contracts", "a 24 / 6 pack, 66 card points, 7 game points",
                 "the first 120 card points", "a <!-- bench:heap_mp32.peak -->61,104"
                 "<!-- /bench --> B peak"):
        assert not unmarked("docs/x.md", line), line


@pytest.mark.parametrize("rel", DOCS)
def test_no_measured_looking_figure_goes_unmarked(rel):
    found = unmarked(rel, _read(rel))
    assert found == [], (
        "%s quotes figures that look measured without <!-- bench:KEY.FIELD -->...<!-- /bench "
        "-->: mark them (make bench must measure them), or list them in NOT_FROM_THE_BENCH "
        "with the reason:\n%s" % (rel, "\n".join("  line %d: %s   | %s" % f for f in found)))


def test_every_exemption_is_still_in_its_file():
    flat = {rel: " ".join(_read(rel).split()) for rel in DOCS}
    gone = [(f, p) for f, p, _why in NOT_FROM_THE_BENCH if p not in flat.get(f, "")]
    assert gone == []


# --- the rest ---------------------------------------------------------------------------


def test_the_memory_doc_says_what_the_bench_says_of_56k():
    heap = _row(_result(), "heap_mp32")["raw"]
    flat = " ".join(_read("docs/memory.md").split())
    stock_short = "not with the files on the filesystem" in flat
    assert stock_short == (not heap["fits_56k"])
    assert heap["romfs"]["fits_56k"]


def test_every_target_has_its_status():
    for r in _result()["rows"]:
        assert r["status"] in ("met", "NOT MET", "-"), r
        assert (r["status"] == "-") == (r["target"] == "-"), r


def test_flash_per_event_is_still_what_the_bench_measured():
    measured = _row(_result(), "flash_event")["raw"]
    assert round(flash_figures.measure()["bytes_per_event"], 1) == round(measured, 1)
