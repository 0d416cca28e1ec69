"""The figures' words: the figures table of `make bench` and every measured figure that
README.md and docs/*.md quote, written from bench.json (tools/bench.py measures; this module
only writes). host_tests/test_bench_readme.py checks the docs against bench.json with the
same functions.
"""

import os


def _root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def table(result):
    rows = result["rows"]
    w1 = max(len(r["figure"]) for r in rows)
    w2 = max(len(r["value"]) for r in rows)
    w3 = max(len(r["target"]) for r in rows)
    out = ["%-*s  %-*s  %-*s  %s" % (w1, "figure", w2, "measured", w3, "target", "status")]
    out.append("-" * (w1 + w2 + w3 + 14))
    for r in rows:
        out.append("%-*s  %-*s  %-*s  %s" % (w1, r["figure"], w2, r["value"], w3, r["target"],
                                             r["status"]))
    return "\n".join(out)


TABLE_DOC = "docs/performance.md"  # the file that holds the figures table
MARK_START = "<!-- bench: start (tools/bench.py --docs writes this table from bench.json) -->"
MARK_END = "<!-- bench: end -->"


def figures_table(result):
    """The figures as the docs show them: a Markdown table, one row per figure."""
    out = ["| figure | measured | target | status |", "|---|---|---|---|"]
    for r in result["rows"]:
        name = r["figure"].strip()
        if r["figure"].startswith("  "):
            name = "&nbsp;&nbsp;" + name
        status = {"met": "met", "NOT MET": "**not met**"}.get(r["status"], "")
        out.append("| %s | %s | %s | %s |" % (name, r["value"].replace("|", "/"),
                                              r["target"] if r["target"] != "-" else "",
                                              status))
    return "\n".join(out)


def table_with(text, result):
    """A docs file's text with its figures table replaced by `result`'s."""
    a = text.index(MARK_START) + len(MARK_START)
    b = text.index(MARK_END)
    return text[:a] + "\n" + figures_table(result) + "\n" + text[b:]


# ---- the figures in the docs, from bench.json -------------------------------------------
# In README.md and docs/*.md a measured figure sits between markers that name where in
# bench.json it comes from: a row's key, then fields of its raw value, and a format:
#     <!-- bench:heap_mp32.peak -->61,104<!-- /bench -->      61,104 (an int: thousands)
#     <!-- bench:heap_mp32.peak kB -->61.1<!-- /bench -->     kilobytes (1000), one decimal
#     <!-- bench:heap_mp32.peak kB0 -->61<!-- /bench -->      kilobytes, whole
#     <!-- bench:flash_event .0f -->20<!-- /bench -->         any format() spec
# tools/bench.py --docs (and the end of `make bench`) rewrites the text between them;
# host_tests/test_bench_readme.py fails when one differs, or when a docs line quotes a
# measured-looking figure without them.

FIGURE = r"<!-- bench:(\w[\w.]*)(?: (\S+))? -->(.*?)<!-- /bench -->"  # a re for CPython


def doc_files(root=None):
    """README.md and docs/*.md, as paths relative to the root."""
    root = root or _root()
    names = sorted(n for n in os.listdir(os.path.join(root, "docs")) if n.endswith(".md"))
    return ["README.md"] + ["docs/" + n for n in names]


def figure(result, path):
    """The value a marker's path names: a row's key, then fields of its raw value."""
    key, *fields = path.split(".")
    rows = [r for r in result["rows"] if r["key"] == key]
    if not rows:
        raise KeyError("bench.json has no figure %r" % key)
    value = rows[0]["raw"]
    for name in fields:
        if not isinstance(value, dict) or name not in value:
            raise KeyError("bench.json's %r has no field %r" % (key, path))
        value = value[name]
    return value


def formatted(value, fmt=None):
    """A figure as the docs write it: ints with thousands commas, kB/kB0 kilobytes (1000
    bytes) with one decimal or none, any other fmt a format() spec."""
    if fmt == "kB":
        return "%.1f" % (value / 1000.0)
    if fmt == "kB0":
        return "%d" % round(value / 1000.0)
    if fmt:
        return format(value, fmt)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return "{:,}".format(value)
    return str(value)


def docs_with(text, result):
    """A docs file's text with every marked figure (and the figures table, if it has it)
    written from `result`."""
    import re

    if MARK_START in text:
        text = table_with(text, result)

    def one(m):
        value = formatted(figure(result, m.group(1)), m.group(2))
        return m.group(0)[:m.start(3) - m.start(0)] + value + "<!-- /bench -->"

    return re.sub(FIGURE, one, text, flags=re.S)


def write_docs(result, root=None):
    """Write the figures of `result` into README.md and docs/*.md; returns the number of
    marked figures and the files changed."""
    import re

    root = root or _root()
    marked = 0
    new = {}
    for rel in doc_files(root):  # all of them first: a marker bench.json lacks writes none
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            text = f.read()
        marked += len(re.findall(FIGURE, text, re.S))
        if docs_with(text, result) != text:
            new[rel] = docs_with(text, result)
    for rel, text in new.items():
        with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
            f.write(text)
    return marked, sorted(new)
