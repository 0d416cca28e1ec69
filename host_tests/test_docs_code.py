"""Docs that lead to the code, and refusals that reach the player.

- Every *Code:* pointer in docs/rules.md names a function that exists in
  firmware/sixtysix/, a deal-end reason or refusal code the core has, and a test that
  exists in host_tests/; every rule set and every numbered decision has one.
- A test that cites "rules.md decision N" cites a decision docs/rules.md has.
- Every refusal code raised in firmware/ has a text in each language file and a row in
  docs/events.md, and neither lists a code that nothing raises.
"""

import glob
import os
import re

import pytest
from conftest import FIRMWARE, ROOT
from sixtysix import cards, deal, deal4, events, guess, match, quick, rules, rulesets, snapshot
from sixtysix.deal import REASONS
from sixtysix.rules import RULE_SETS, Rules

DOCS = os.path.join(ROOT, "docs")
TESTS = os.path.join(ROOT, "host_tests")
LANG = os.path.join(FIRMWARE, "ui", "lang")
MODULES = {m.__name__.split(".")[-1]: m for m in (cards, deal, deal4, events, guess, match,
                                                  quick, rules, rulesets, snapshot)}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


RULES_MD = read(os.path.join(DOCS, "rules.md"))
EVENTS_MD = read(os.path.join(DOCS, "events.md"))


# --- refusal codes ----------------------------------------------------------------------


def raised_codes():
    """Every code passed to Refused(...) in firmware/, and the calls that pass no literal."""
    codes, other = set(), []
    for path in glob.glob(os.path.join(FIRMWARE, "**", "*.py"), recursive=True):
        text = read(path)
        for m in re.finditer(r"\bRefused\(([^)]*)\)", text):
            arg = m.group(1)
            literal = re.fullmatch(r"""["']([a-z0-9_]+)["']""", arg)
            if literal:
                codes.add(literal.group(1))
            elif arg != "Exception":  # the class itself
                other.append((os.path.relpath(path, ROOT), arg))
    return codes, other


RAISED, NOT_LITERAL = raised_codes()


def events_md_codes():
    section = EVENTS_MD[EVENTS_MD.index("## Refusal codes"):]
    section = section[:section.index("\n## ")]
    codes = set()
    for line in section.split("\n"):
        if line.startswith("| `"):
            codes.update(re.findall(r"`([a-z0-9_]+)`", line.split("|")[1]))
    return codes


def lang_codes(path):
    return {line.split(" = ")[0][2:] for line in read(path).split("\n") if line.startswith("x ")}


def test_every_refusal_is_raised_with_a_code_word():
    assert NOT_LITERAL == []  # else the scan above would miss codes
    assert len(RAISED) > 30


def test_every_raised_refusal_code_has_a_row_in_events_md():
    documented = events_md_codes()
    assert sorted(RAISED - documented) == [], "raised but not in docs/events.md"
    assert sorted(documented - RAISED) == [], "in docs/events.md but never raised"


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(LANG, "*.txt"))),
                         ids=os.path.basename)
def test_every_raised_refusal_code_has_a_text_in_each_language(path):
    texts = lang_codes(path)
    assert sorted(RAISED - texts) == [], "no text for these refusals"
    assert sorted(texts - RAISED) == [], "texts for refusals nothing raises"


def test_there_are_four_language_files():
    assert len(glob.glob(os.path.join(LANG, "*.txt"))) == 4


# --- code pointers in docs/rules.md ----------------------------------------------------------


def pointers(text):
    """(line number, [names]) of each *Code:* pointer: a line that starts with it, and the
    lines after it that start with a backquote."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        if not line.lstrip().startswith("*Code:*"):
            continue
        body = line.split("*Code:*", 1)[1]
        j = i + 1
        while j < len(lines) and lines[j].lstrip().startswith("`"):
            body += " " + lines[j]
            j += 1
        out.append((i + 1, re.findall(r"`([^`]+)`", body)))
    return out


def defined_tests(path):
    return set(re.findall(r"(?m)^def (test_\w+)\(", read(path)))


def resolve(name):
    """The object a dotted name in a pointer stands for (module.attr or Class.attr)."""
    head, _, tail = name.partition(".")
    if head in MODULES:
        owner = MODULES[head]
    else:
        found = [getattr(m, head) for m in MODULES.values() if hasattr(m, head)]
        assert found, name
        owner = found[0]
    if owner is Rules:  # its fields are set per instance, from the table
        owner = Rules(RULE_SETS[0])
    return getattr(owner, tail)


def check_pointer(name):
    if "::" in name:
        file, func = name.split("::")
        path = os.path.join(TESTS, file)
        assert os.path.exists(path), name
        assert func in defined_tests(path), name
    elif "." in name:
        assert resolve(name) is not None
    else:
        assert name in RAISED or name in REASONS, name


def test_every_code_pointer_resolves():
    found = pointers(RULES_MD)
    assert len(found) > 40
    for line, names in found:
        assert names, "empty pointer on line %d" % line
        assert any("::" in n for n in names), "no test on line %d" % line
        for name in names:
            try:
                check_pointer(name)
            except (AssertionError, AttributeError) as e:
                raise AssertionError("docs/rules.md line %d: %s (%s)" % (line, name, e)) from e


def sections(text):
    """Heading -> body, for the ## headings."""
    parts = re.split(r"(?m)^## ", text)[1:]
    return {p.split("\n", 1)[0]: p.split("\n", 1)[1] for p in parts}


def test_every_rule_set_section_points_to_code():
    by_heading = sections(RULES_MD)
    for rid in RULE_SETS:
        heading = [h for h in by_heading if h.startswith("`%s`" % rid)]
        assert len(heading) == 1, rid
        assert pointers(by_heading[heading[0]]), rid


def decision_numbers():
    body = sections(RULES_MD)["Decisions where the seeds are silent or disagree"]
    return body, [int(n) for n in re.findall(r"(?m)^(\d+)\. \*\*", body)]


def test_every_decision_points_to_code():
    body, numbers = decision_numbers()
    assert numbers == list(range(1, len(numbers) + 1))
    items = re.split(r"(?m)^(?=\d+\. \*\*)", body)[1:]
    for n, item in zip(numbers, items):
        assert len(pointers(item)) == 1, "decision %d" % n


def test_tests_cite_decisions_that_exist():
    _body, numbers = decision_numbers()
    stale = "spec " + "decision"  # the old form: the rules spec has no numbered decisions
    cited = []
    for path in glob.glob(os.path.join(TESTS, "test_*.py")):
        text = read(path)
        assert stale not in text, path
        cited += [int(n) for n in re.findall(r"rules\.md decision (\d+)", text)]
    assert cited
    assert set(cited) <= set(numbers)


def test_keys_md_shows_the_claim_with_a_marriage_list():
    """docs/keys.md shows what follows "Who claims 66?" with four players: the list that
    ui/pairs.py draws, in the firmware's own English words."""
    from ui import i18n
    from ui.screen import SUIT_TEXT

    i18n.use("en")
    with open(os.path.join(DOCS, "keys.md"), encoding="utf-8") as f:
        text = f.read()
    assert i18n.t("who claims") in text
    lines = ["1 " + i18n.t("no marriage")]
    lines += ["%d %s %s" % (s + 2, i18n.t("marriage"), SUIT_TEXT[s]) for s in range(4)]
    assert "\n".join([i18n.t("claim 66")] + lines) in text
