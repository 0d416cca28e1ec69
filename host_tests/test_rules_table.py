"""The rule-set table in firmware/sixtysix/rulesets.py reads as a table.

Its header's short names sit over the values, each row is named for its rule set, and
each named column is the attribute of Rules that the header's legend says it is: a
reader who finds "classic66 ... last 10 ... dn 1" there can trust it.
"""

import os
import re

import pytest
from conftest import FIRMWARE
from sixtysix import rulesets
from sixtysix.rules import RULE_SETS, Rules

SOURCE = os.path.join(FIRMWARE, "sixtysix", "rulesets.py")

# The header's names and the Rules attribute each stands for.
COLUMNS = {"pl": "players", "rk": "ranks", "hd": "hand", "stk": "stock", "last": "bonus",
           "opn": "stock_window", "trk": "needs_trick", "closing": "closing",
           "end": "end_rule", "pil": "count_at_end", "tgt": "target", "dn": "down",
           "hid": "hidden", "fc": "false_claim_23"}


def table_text():
    with open(SOURCE, encoding="utf-8") as f:
        text = f.read()
    body = text[text.index("_TABLE = ("):]
    lines = body[:body.index("\n)")].split("\n")[1:]
    header = lines[0]
    assert header.lstrip().startswith("#"), header
    return header, lines[1:]


def cells(line):
    """(start column, text) of each value of a row, and the row's name."""
    inner = re.match(r"(\s*bytes\(\()(.*)\)\),\s+# (\S+)$", line)
    assert inner, line
    start = len(inner.group(1))
    out = []
    for m in re.finditer(r"[^,\s]+", inner.group(2)):
        out.append((start + m.start(), m.group(0)))
    return out, inner.group(3)


def test_the_header_names_every_column_and_stands_over_it():
    header, rows = table_text()
    names = [(m.start(), m.group(0)) for m in re.finditer(r"\w+", header.split("#", 1)[1])]
    offset = header.index("#") + 1
    names = [(col + offset, name) for col, name in names]
    assert [name for _col, name in names] == list(COLUMNS)
    for line in rows:
        values, rid = cells(line)
        assert [col for col, _v in values] == [col for col, _n in names], rid


def test_the_rows_are_named_in_the_order_of_rule_sets():
    _header, rows = table_text()
    assert [cells(line)[1] for line in rows] == list(RULE_SETS)
    assert len(rulesets._TABLE) == len(RULE_SETS)


@pytest.mark.parametrize("rid", RULE_SETS)
def test_each_named_column_is_the_attribute_rules_reads(rid):
    _header, rows = table_text()
    line = rows[RULE_SETS.index(rid)]
    values, _name = cells(line)
    r = Rules(rid)
    for (_col, text), attr in zip(values, COLUMNS.values()):
        want = getattr(rulesets, text) if text.isidentifier() else int(text)
        assert getattr(r, attr) == want, (rid, attr)
    assert rulesets._TABLE[RULE_SETS.index(rid)] == bytes(
        getattr(r, attr) for attr in COLUMNS.values())
