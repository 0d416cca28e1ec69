"""Every MQTT topic is built by net/wire.py (issue 47): the update's fw/* topics were made in
four places (net/clublink.py counted on "ack" being three letters: t_ack[:-3] + b"fw/offer";
update/job.py, club/service.py and club/fleet.py spelled them out). The source is read: a
string or bytes constant of the product (firmware/, club/, web/), docstrings aside, that
spells a topic outside net/wire.py fails here."""

import ast
import os

from conftest import ROOT

PRODUCT = ("firmware", "club", "web")
WIRE = "firmware/net/wire.py"
FW_KINDS = ("fw/offer", "fw/want", "fw/part", "fw/state")


def _docstrings(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def spelled_topics(rel, source):
    """[(file, line, text)] for each constant that spells a topic: "club/..." or a part of
    an update's topic."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)) \
                and id(node) not in docs:
            v = node.value if isinstance(node.value, str) else node.value.decode("latin-1")
            if v.startswith("club/") or "/fw/" in v or v in FW_KINDS:
                found.append((rel, node.lineno, v))
    return found


def test_no_topic_is_spelled_outside_the_wire():
    found = []
    for top in PRODUCT:
        for folder, dirs, names in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "node_modules")]
            for name in names:
                rel = os.path.relpath(os.path.join(folder, name), ROOT).replace(os.sep, "/")
                if name.endswith(".py") and rel != WIRE:
                    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
                        found += spelled_topics(rel, f.read())
    assert found == []


def test_the_check_catches_the_ways_topics_were_spelled():
    assert spelled_topics("x.py", 'link.subscribe(t_ack[:-3] + b"fw/offer")\n')
    assert spelled_topics("x.py", 'c.subscribe("club/%s/fw/want" % t)\n')
    assert spelled_topics("x.py", 'c.subscribe(("club/+/fw/state", 0))\n')
    doc_and_file = '"""club/<t>/fw/offer: the offer"""\nREFUSED = "fw/refused"\n'
    assert spelled_topics("x.py", doc_and_file) == []  # a docstring, a file on the flash
