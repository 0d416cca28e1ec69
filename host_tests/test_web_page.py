"""The page around the panel follows the device: its texts and key labels in the language
chosen in the firmware's settings (all four), and the export offered in the device's own
history list downloads the files the page's links do. In a real Chromium (Debian's
chromium, npm playwright-core); the history list's hook also in CPython, where it is off
as on the board.
"""

import json
import os

import browser
import pytest
from conftest import ROOT
from keyseq import KEYPAD, SETTINGS, first_deal, menu, pick
from sixtysix.match import Match
from sixtysix.rules import RULE_SETS
from test_web import LAYOUT_CHECK, run
from ui import i18n
from ui.i18n import LANGS

needs_browser = pytest.mark.skipif(browser.missing() is not None,
                                   reason=browser.missing() or "")

with open(os.path.join(ROOT, "web", "pagetext.json"), encoding="utf-8") as f:
    TEXTS = json.load(f)

# Every text the page shows, as the page has it now: [element's key, text] pairs, and the
# rest (the document's title and language, the layout switch, the status line).
SHOWN = """(() => ({
  text: [...document.querySelectorAll("[data-t]")].map((e) => [e.dataset.t, e.textContent]),
  aria: [...document.querySelectorAll("[data-t-aria]")].map((e) => [e.dataset.tAria,
        e.getAttribute("aria-label")]),
  title: [...document.querySelectorAll("[data-t-title]")].map((e) => [e.dataset.tTitle, e.title]),
  doc: document.title, lang: document.documentElement.lang,
  switch: document.getElementById("switch").textContent,
  undo: document.querySelector('#keypad button[data-key="*"] span.s5').textContent,
  back: document.querySelector('#buttons button[data-key="BACK"] span.s4').textContent,
  fw: window.s66.lang()}))()"""


def _check_shown(shown, code, layout):
    texts = TEXTS[code]
    assert shown["fw"] == code and shown["lang"] == code
    for kind in ("text", "aria", "title"):
        assert shown[kind], kind
        for key, text in shown[kind]:
            assert text == texts[key], (code, kind, key)
    assert shown["doc"] == texts["title"]
    assert shown["switch"] == texts["4 buttons" if layout == KEYPAD else "keypad"]
    assert shown["undo"] == texts["Undo"] and shown["back"] == texts["BACK"]


def test_every_language_has_every_page_text():
    assert set(TEXTS) == set(LANGS)
    for code in LANGS:
        assert set(TEXTS[code]) == set(TEXTS["en"]), code
        assert all(v.strip() for v in TEXTS[code].values()), code
    # The note on plain http speaks to a player at a card table, in every language: it
    # says HTTPS, and no command (the commands are docs/web.md's, for whoever set it up).
    for code in LANGS:
        note = TEXTS[code]["httpnote"]
        assert "HTTPS" in note
        assert not any(w in note for w in ("make ", "web-dist", "docs/", "laptop", "ноутбу"))


@needs_browser
@pytest.mark.parametrize("code", LANGS)
def test_the_page_speaks_the_language_set_on_the_device(site, code):
    entries = first_deal(KEYPAD)[:2]  # a new match and its trump: the deal is open
    m = Match()
    for line, _k in entries:
        m.enter_line(line)
    start = "".join(k for _line, k in entries)
    # The language list is the first item of the settings, in the order of LANGS.
    to_lang = menu(m.state, KEYPAD, SETTINGS) + "1" + pick(KEYPAD, LANGS.index(code),
                                                               len(LANGS))
    other = LANGS[(LANGS.index(code) + 1) % len(LANGS)]
    back = menu(m.state, KEYPAD, SETTINGS) + "1" + pick(KEYPAD, LANGS.index(other),
                                                         len(LANGS))
    steps = [{"do": "open"}, {"do": "type", "keys": start}, {"do": "eval", "js": SHOWN},
             {"do": "type", "keys": to_lang}, {"do": "eval", "js": SHOWN},
             {"do": "eval", "js": LAYOUT_CHECK}, {"do": "switch"}, {"do": "eval", "js": SHOWN},
             {"do": "eval", "js": LAYOUT_CHECK}, {"do": "switch"}, {"do": "reload"},
             {"do": "eval", "js": SHOWN}, {"do": "type", "keys": "*" * 3 + back},
             {"do": "eval", "js": SHOWN}]
    r = run(site, steps, viewport=(320, 568), touch=False)
    _check_shown(r[2], "en", KEYPAD)  # a new device speaks English
    _check_shown(r[4], code, KEYPAD)  # the setting turned the page at once
    _check_shown(r[7], code, "buttons")
    _check_shown(r[11], code, KEYPAD)  # and it stays after a reload
    _check_shown(r[13], other, KEYPAD)  # and follows the next change
    for layout in (r[5], r[8]):  # the longer words still fit the smallest phone
        assert layout["scroll"] == [False, False] and layout["outside"] == 0, layout
        assert layout["under"] == 0 and layout["clash"] == 0, layout


@needs_browser
def test_export_from_the_devices_history_list_is_the_pages_download(site):
    entries = first_deal(KEYPAD)
    m = Match()
    for line, _k in entries:
        m.enter_line(line)
    played = "".join(k for _line, k in entries)
    history = menu(m.state, KEYPAD, "history")
    # The history list: the deal, then Export CSV, Export JSON (A from the top goes round
    # to the last item).
    steps = [{"do": "open"}, {"do": "type", "keys": played},
             {"do": "download", "keys": history + "aa#"}, {"do": "export", "kind": "csv"},
             {"do": "download", "keys": "b#"}, {"do": "export", "kind": "json"},
             {"do": "state"}]
    r = run(site, steps)
    from_menu, from_link, json_menu, json_link, state = r[2:]
    assert from_menu["text"] == from_link["text"] and from_menu["name"] == from_link["name"]
    assert from_menu["name"].endswith(".csv") and len(from_menu["text"].splitlines()) == 2
    assert json_menu["text"] == json_link["text"] and json_menu["name"].endswith(".json")
    assert json.loads(json_menu["text"])["match"] == state


# What each keypad key shows now: its name, the texts under it that are visible, and the
# big number a list gives it.
FACES = """(() => Object.fromEntries([...document.querySelectorAll("#keypad button")].map((b) => [
  b.dataset.key,
  [...b.querySelectorAll("span:not(.id)")].filter((s) => s.offsetParent !== null)
    .map((s) => s.textContent).join(" ") + "|" +
  getComputedStyle(b, "::after").content.replace(/^none$/, "").replace(/"/g, "")])))()"""


@needs_browser
def test_a_list_open_shows_its_item_numbers_on_the_keys_that_pick(site):
    # Issue 29, finding 8: on a list the digits pick items while their faces showed card
    # ranks ("A" picked item 1 of the new-match list). While a list is open each digit that
    # picks an item shows the item's number in place of the rank; the rest keep theirs, and
    # back on the scoreboard the ranks return.
    entries = first_deal(KEYPAD)[:2]  # a new match and its trump: the deal is open
    m = Match()
    for line, _k in entries:
        m.enter_line(line)
    start = "".join(k for _line, k in entries)
    to_settings = menu(m.state, KEYPAD, SETTINGS)
    steps = [{"do": "open"}, {"do": "eval", "js": FACES},  # the new-match list
             {"do": "type", "keys": start}, {"do": "eval", "js": FACES},  # the scoreboard
             {"do": "type", "keys": to_settings}, {"do": "eval", "js": FACES}]
    r = run(site, steps, viewport=(390, 844), touch=False)
    fresh, board, settings = r[1], r[3], r[5]
    assert board["1"] == "A|" and board["6"] == "9|"  # the scoreboard: card ranks
    assert all(face.endswith("|") for face in board.values()), board
    # The new-match list: one rule set per item; the browser's settings list: language,
    # sound, entry (the panel's settings are not offered there).
    for faces, n in ((fresh, len(RULE_SETS)), (settings, 3)):
        for i, key in enumerate("1234567890"):
            if i < n:
                assert faces[key] == "|" + key, (n, key, faces)
            else:
                assert faces[key] == board[key], (n, key, faces)
        for key in "ABCD*#":
            assert faces[key] == board[key], (key, faces)


def test_on_the_board_the_history_list_offers_no_export():
    from ui.app import App
    from ui.info import History

    i18n.use("en")

    class Host:  # what History reads of the App
        match = Match()

    assert not hasattr(App, "export")  # the board: nowhere to put a file, no hook
    for line, _k in first_deal(KEYPAD):
        Host.match.enter_line(line)
    labels = [label for label, _fn in History(Host).items]
    assert len(labels) == 1 and not any("Export" in x for x in labels)
    asked = []
    Host.export = asked.append  # the browser build's hook (web/webmain.py)
    items = History(Host).items
    assert [label for label, _fn in items[1:]] == ["Export CSV", "Export JSON"]
    items[1][1](Host)
    items[2][1](Host)
    assert asked == ["csv", "json"]


CALLS = {"do": "eval", "js": "window.s66.calls()"}


@needs_browser
def test_a_key_is_one_call_into_python(site):
    # Issue 47: after each key the page called into Python up to five more times (wanted,
    # lang, picks; tick and club_info on a club table) where one answer would do. Now the
    # key's own call (webmain.py key(), char()) answers everything the page reads after it:
    # the frame, an export asked for, the language, the digits that pick. A whole deal, a
    # list and a language chosen in the settings, typed on the keyboard: one call a key. The
    # on-screen keys as the driver clicks them: two, the driver's own keyFor and the key.
    entries = first_deal(KEYPAD)
    m = Match()
    for line, _k in entries:
        m.enter_line(line)
    typed = ("".join(k for _line, k in entries) + menu(m.state, KEYPAD, SETTINGS) + "1"
             + pick(KEYPAD, LANGS.index("uk"), len(LANGS)))
    clicked = "***"  # out of the lists, then undo on the scoreboard
    r = run(site, [{"do": "open"}, CALLS, {"do": "type", "keys": typed}, CALLS,
                   {"do": "eval", "js": "window.s66.lang()"}, {"do": "state"},
                   {"do": "click", "keys": clicked}, CALLS])
    assert r[4] == "uk" and r[5]["deals"] == 1  # the keys did what they say
    assert r[3] - r[1] == len(typed), (r[3] - r[1], len(typed))
    assert r[7] - r[3] == 2 + 2 * len(clicked), (r[7] - r[3], len(clicked))
