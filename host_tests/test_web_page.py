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
from keyseq import BUTTONS, KEYPAD, SETTINGS, first_deal, menu, menu_items, open_menu, pick
from sixtysix.match import Match
from sixtysix.rules import RULE_SETS
from test_web import LAYOUT_CHECK, SIZES, run
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


# Every text on a key or a link of the bar, in each language of web/pagetext.json and on
# each face a key has (the kinds of screen, tools/web.py KINDS), measured: the box of its
# text (a range's rectangle) lies within the box its key leaves for it (inside the padding,
# clear of the key's own name in the corner) and on the screen; no key's content is wider
# or taller than the key; no link lies outside the bar. The texts are put in as texts.js
# setTexts() does; the page's own language and face are put back after.
LABELS_FIT = """(() => {
  const texts = JSON.parse(document.getElementById("pagetext").textContent);
  const keys = document.querySelector(".keys:not([hidden])");
  const shown = [document.documentElement.lang, keys.dataset.kind];
  const kinds = new Set([...keys.querySelectorAll("[data-face]")]
    .flatMap((f) => f.dataset.face.split(" ")));
  if (!kinds.size) kinds.add(shown[1]);
  const put = (code) => document.querySelectorAll("[data-t]").forEach((el) => {
    el.textContent = texts[code][el.dataset.t];
  });
  const problems = new Set();
  for (const code of Object.keys(texts)) {
    put(code);
    for (const kind of kinds) {
      keys.dataset.kind = kind;
      const all = [...keys.querySelectorAll("button"), ...document.querySelectorAll("nav > *")];
      for (const b of all) {
        const name = code + " " + (b.closest("nav") ? "" : kind + " ") + (b.id || b.dataset.key);
        const s = getComputedStyle(b);
        const px = (side) => parseFloat(s["border" + side + "Width"]) +
                             parseFloat(s["padding" + side]);
        const o = b.getBoundingClientRect();
        const room = {left: o.left + px("Left"), right: o.right - px("Right"),
                      top: o.top + px("Top"), bottom: o.bottom - px("Bottom")};
        const bar = b.closest("nav") && b.closest("nav").getBoundingClientRect();
        if (bar && (o.left < bar.left - 0.5 || o.right > bar.right + 0.5))
          problems.add(name + " out of the bar: " + Math.round(o.left) + ".." +
                       Math.round(o.right) + " in " + Math.round(bar.left) + ".." +
                       Math.round(bar.right));
        if (b.scrollWidth > b.clientWidth || b.scrollHeight > b.clientHeight)
          problems.add(name + " overflows: " + b.scrollWidth + "x" + b.scrollHeight + " in " +
                       b.clientWidth + "x" + b.clientHeight);
        const walk = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
        for (let t = walk.nextNode(); t; t = walk.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(t);
          const r = range.getBoundingClientRect();
          if (!t.textContent.trim() || (r.width === 0 && r.height === 0)) continue;  // hidden
          if (t.parentElement.classList.contains("id")) continue;  // the key's name: a corner
          if (r.left < room.left - 0.5 || r.right > room.right + 0.5 || r.top < room.top - 0.5 ||
              r.bottom > room.bottom + 0.5 || r.left < -0.5 || r.right > innerWidth + 0.5)
            problems.add(name + " '" + t.textContent + "' " + Math.round(r.width) + "x" +
                         Math.round(r.height) + " in " + Math.round(room.right - room.left) +
                         "x" + Math.round(room.bottom - room.top));
        }
      }
    }
  }
  put(shown[0]);
  keys.dataset.kind = shown[1];
  return [...problems];
})()"""


@needs_browser
@pytest.mark.parametrize("size", SIZES)
def test_every_label_fits_its_key_in_every_language(site, size):
    # Issue 47, finding 5: "клавіатура", "клавиатура" and "Tastenfeld" were wider than the
    # layout switch at 320x568 and 390x844, and cut at the screen's edge at 568x320, as were
    # "камера" and "Kamera"; German "Rückgängig (lang: wiederholen)" overflowed its key. On
    # a list (a new device's first screen, the menu on the four buttons) and on the
    # scoreboard, each layout, at every size the layout test covers.
    entries = first_deal(KEYPAD)[:2]  # a new match and its trump: the deal is open
    m = Match()
    for line, _k in entries:
        m.enter_line(line)
    fit = {"do": "eval", "js": LABELS_FIT}
    r = run(site, [{"do": "open"}, fit, {"do": "type", "keys": "".join(k for _l, k in entries)},
                   fit, {"do": "switch"}, fit, {"do": "type", "keys": open_menu(m.state, BUTTONS)},
                   fit], viewport=size, touch=True)
    for where, problems in zip(("keypad, a list", "keypad, the scoreboard",
                                "buttons, the scoreboard", "buttons, a list"), r[1::2]):
        assert problems == [], "%s at %dx%d: %s" % (where, size[0], size[1], problems)


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


# What each key of a layout shows now: its name, the texts of its face that are visible,
# and the big number a list gives it.
FACES_OF = """(() => Object.fromEntries([...document.querySelectorAll("%s button")].map((b) => [
  b.dataset.key,
  [...b.querySelectorAll("span:not(.id)")]
    .filter((s) => s.offsetParent !== null && !s.querySelector("span"))
    .map((s) => s.textContent).join(" ") + "|" +
  getComputedStyle(b, "::after").content.replace(/^none$/, "").replace(/"/g, "")])))()"""
FACES = FACES_OF % "#keypad"


@needs_browser
def test_a_list_open_shows_its_item_numbers_on_the_keys_that_pick(site):
    # Issue 29, finding 8: on a list the digits pick items while their faces showed card
    # ranks ("A" picked item 1 of the new-match list). While a list is open each digit that
    # picks an item shows the item's number in place of the rank; the rest keep theirs, and
    # back on the scoreboard the ranks return. The other keys say what they do on a list
    # (test_on_a_list_every_key_says_what_it_does).
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
    # sound, entry, cards (the panel's settings are not offered there).
    for faces, n in ((fresh, len(RULE_SETS)), (settings, 4)):
        for i, key in enumerate("1234567890"):
            if i < n:
                assert faces[key] == "|" + key, (n, key, faces)
            else:
                assert faces[key] == board[key], (n, key, faces)
        for key in "ABCD*#":
            assert faces[key] == LIST_FACES[KEYPAD][key], (key, faces)


# What the keys that are no digits say on a list (issue 47, finding 2: A/B read "Player 1 /
# Player 2" while they moved the cursor, * "Undo (hold: redo)" while it went back, and # held
# went to the scoreboard), as the layout's keys are named there.
LIST_FACES = {
    KEYPAD: {"A": "up \u25b2|", "B": "down \u25bc|", "C": "|", "D": "|",
             "*": "Back (hold: undo)|", "#": "OK (hold: scoreboard)|"},
    BUTTONS: {"UP": "UP|", "DOWN": "DOWN|", "OK": "OK (hold: scoreboard)|",
              "BACK": "BACK (hold: undo)|"},
}
KIND = {"do": "eval", "js": "document.querySelector('.keys:not([hidden])').dataset.kind"}


class Steps(list):
    """A driver's steps, and where the answers of some of them will be."""

    def press(self, keys):
        """The on-screen keys pressed (a long press held), then the panel and the kind of
        screen the keys show: the index of those two answers."""
        self += [{"do": "click", "keys": keys}, {"do": "frame"}, KIND]
        return len(self) - 2

    def add(self, step):
        self.append(step)
        return len(self) - 1


@needs_browser
@pytest.mark.parametrize("layout", [KEYPAD, BUTTONS])
def test_on_a_list_every_key_says_what_it_does(site, layout):
    # The menu open over a deal: each key's face is read, then the key is pressed and does
    # what the face says: up and down move the cursor (and back: the same panel again), a key
    # with no face does nothing, OK opens the item under the cursor (the settings), back
    # goes one list back, OK held goes to the scoreboard, back held goes there and undoes.
    # On the four buttons UP held (redo on the scoreboard) does nothing on a list, and says
    # no more than UP.
    entries = first_deal(KEYPAD)[:2]  # a new match and its trump: the deal is open
    m = Match()
    for line, _k in entries:
        m.enter_line(line)
    items = menu_items(m.state)
    up, down, ok, back, ok_held, back_held = "ab#*mz" if layout == KEYPAD else "wseqEQ"
    steps = Steps([{"do": "open"}, {"do": "type", "keys": "".join(k for _l, k in entries)}])
    if layout == BUTTONS:
        steps.add({"do": "switch"})
    board = steps.add({"do": "frame"})
    before = steps.add({"do": "state"})
    opened = steps.press(open_menu(m.state, layout))
    faces = steps.add({"do": "eval", "js": FACES_OF % ".keys:not([hidden])"})
    moved = steps.press(up)
    moved_back = steps.press(down)
    nothing = steps.press("cd" if layout == KEYPAD else "W")
    on_settings = steps.press(down * items.index(SETTINGS))
    settings = steps.press(ok)
    backed = steps.press(back)
    steps.press(ok)
    home = steps.press(ok_held)
    steps.press(open_menu(m.state, layout))
    undone_home = steps.press(back_held)
    undone = steps.add({"do": "state"})
    r = run(site, steps)

    def got(i):
        return r[i], r[i + 1]  # the panel, the kind of screen

    for key, face in LIST_FACES[layout].items():
        assert r[faces][key] == face, (key, r[faces])
    menu_frame = r[opened]
    assert got(opened)[1] == "list"
    assert got(moved)[1] == "list" and r[moved] != menu_frame  # up: the cursor moved
    assert got(moved_back) == (menu_frame, "list")  # down: and back
    assert got(nothing) == (menu_frame, "list")  # C, D / UP held: nothing
    assert got(settings)[1] == "list" and r[settings] != r[on_settings]  # OK: the settings
    assert got(backed) == got(on_settings)  # back: the menu, the cursor where it was
    assert r[home + 1] == "scoreboard" and r[home][:53] == r[board][:53]  # OK held
    assert r[undone_home + 1] == "scoreboard"  # back held: the scoreboard, and undone
    assert r[before]["redo"] == 0 and r[undone]["redo"] == 1
    assert r[before]["deal"]["trump"] and r[undone]["deal"]["trump"] is None


@needs_browser
def test_typing_a_name_the_keys_say_what_they_do_there(site):
    # The name editor (ui/nameentry.py Editor) on the keypad: the digits type letters (each
    # shows its digit), A turns the alphabet, B starts the next letter from the same key, *
    # deletes, # takes the name; held, as on a list. Reached from a new device's first
    # screen: a rule set, its players, the first seat, a new name.
    from sixtysix.rules import Rules

    players = Rules(RULE_SETS[0]).players
    count = players + (5 if players == 3 else 4) + 1  # keyseq.new_match_keys' dealer list
    keys = "1" + pick(KEYPAD, players + 1, count) + "1" + "aa#"
    r = run(site, [{"do": "open"}, {"do": "type", "keys": keys}, KIND,
                   {"do": "eval", "js": FACES}])
    assert r[2] == "name"
    faces = r[3]
    assert [faces[k] for k in "AB*#CD"] == ["ABC/\u0410\u0411\u0412|", "next|",
                                            "Delete (hold: undo)|", "OK (hold: scoreboard)|",
                                            "|", "|"]
    assert all(faces[k] == "|" + k for k in "0123456789"), faces


def test_every_screen_where_a_number_is_typed_has_its_keys_faces():
    # webmain.py names the screens whose keys read as NUMBER_KEYS (a number or a name typed),
    # for the faces tools/web.py gives them; a new such screen must be named there too.
    import ast
    import re

    import web

    screens = set()
    for folder, _dirs, files in os.walk(os.path.join(ROOT, "firmware")):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    src = f.read()
                screens |= set(re.findall(
                    r"^class (\w+)\b[^\n]*:\n(?:    [^\n]*\n|\n)*?    key_mode = keymap"
                    r"\.NUMBER_KEYS", src, re.M))
    with open(os.path.join(ROOT, "web", "webmain.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    typing = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                  and getattr(n.targets[0], "id", "") == "_TYPING")
    assert screens == set(typing) == {"Points", "Editor"}
    assert set(typing.values()) | {"scoreboard", "list"} == set(web.KINDS)


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
