"""The scorekeeper in a browser: the firmware's App, Session and Store on the WebAssembly port.

The page (page.js and its modules) calls start() once, then one function per key press,
which answers everything the page reads after the key (after()). One call per press matters
there: the port frees garbage only between calls from JavaScript.

What the page supplies, as loop.py does on the board:
  display   Panel, a 128x64 MONO_VLSB frame buffer; frames.js paints its bytes onto the canvas
            straight from the WebAssembly memory (frame_address()), so a frame costs no copy
  keys      key names from the on-screen keys, or keyboard characters mapped by the
            table the terminal simulator reads too (ui/keyboard.py)
  storage   the page's durable store (durable.js: IndexedDB, each write committed to disk
            in order, the frame painted only after) through webstore.WebFS
  club      the club night's link (webclub.py), only when the page has club settings:
            clubpage.js calls tick() after each key's writes are on disk and when mqtt.js
            has news, never waiting
  buzzer    the board's beeper as Web Audio: the app calls it (only while its sound
            setting is on, ui/app.py beep()) with the pattern's number, and beeper.js plays
            it (start()'s beep argument, a JavaScript function)
"""

import framebuf
import json
import time
import uctypes

import export
import wiring
from hw.keys import LONG_MS  # noqa: F401  (keybind.js reads it: a long press, as on the board)
from sixtysix.snapshot import snapshot
from store.journal import Store
from ui.app import App
from ui.keyboard import key_of
from ui.keymap import BUTTON_NAMES, LIST_KEYS, NUMBER_KEYS, SCOREBOARD_KEYS, action
from ui.text import board_font
from webstore import WebFS


class WebApp(App):
    """The App with what only the browser asks of it: the trick being typed, which the page
    keeps across a reload (the board writes only what counts), and closing the store before
    another App boots over the same files. Here, not in ui/app.py: on the board every
    method of App is heap."""

    def typed(self):
        """The trick being typed on the scoreboard (its winner + 1, then its cards), b""
        when none, or while a list covers the scoreboard (App.push dropped it, and the
        trick with it)."""
        scoreboard = self.scoreboard  # None while a list covers the scoreboard
        return b"" if scoreboard is None else scoreboard.typed()

    def retype(self, line):
        """Put back a trick typed() gave, if the scoreboard is shown and this deal can still
        be typing it (Scoreboard.retype checks)."""
        scoreboard = self.scoreboard
        if scoreboard is not None and self.match.state is not None:
            scoreboard.retype(self.match.state, line)
            self.dirty = True

    def proposable(self):
        """Why camera mode (webcamera.py) cannot propose a trick now: "board" (a list
        covers the scoreboard, no match, or not the keypad's layout), "typing" (a trick is
        being typed), or None."""
        scoreboard = self.scoreboard
        if self.lists or scoreboard is None or self.match.state is None or self.layout != "keypad":
            return "board"
        if scoreboard.win >= 0 or scoreboard.cards:
            return "typing"
        return None

    def drop_typed(self):
        """Clear the trick being typed (a camera's proposal the player typed over or took
        away); nothing is entered. True if the scoreboard changed."""
        scoreboard = self.scoreboard
        if self.lists or scoreboard is None or scoreboard.win < 0:
            return False
        scoreboard.clear()
        self.dirty = True
        return True

    def close(self):
        """Close the store's open journal file."""
        self.session.store.close()


class Panel(framebuf.FrameBuffer):
    """The panel: the frame buffer frames.js reads; show() only counts frames."""

    width = 128
    height = 64
    always_lit = True  # no contrast, dimming, panel off or sleep: the settings hide them

    def __init__(self):
        self.buffer = bytearray(128 * 64 // 8)
        super().__init__(self.buffer, 128, 64, framebuf.MONO_VLSB)
        self.frames = 0

    def show(self):
        self.frames += 1


class _Page:
    """What this module keeps between the page's calls, in one place: the panel, the font,
    the app (and its club link) booted by start(), the page's durable store, the trick
    being typed as kept there, and the export the device's history list asked for."""

    def __init__(self):
        self.panel = Panel()
        self.font = None
        self.app = None  # ui/app.py's App, once start() has booted it
        self.club = None
        self.storage = None
        self.typed = ""
        self.wanted = ""


_page = _Page()


def _app():
    return _page.app  # page.js calls start() before anything else


def start(storage, layout="keypad", club="", beep=None):
    """Boot (or boot again, e.g. with the other key layout) from what storage holds.
    club: the club settings as JSON ({"url", "table", "password"}), or empty for none;
    beep: the page's beeper (called with the pattern's number), or None for silence."""
    page = _page
    if page.club is not None:
        page.club.close()
        page.club = None
    if page.app is not None:
        page.app.close()
    if page.font is None:
        page.font = board_font()
    fs = WebFS(storage)
    app = page.app = wiring.build(page.panel, "", fs, page.font, layout, opener=fs.open,
                                  buzzer=beep, export=_want, kind=WebApp)
    page.storage = storage
    page.typed = storage.getItem(_TYPED) or ""
    _retype(app, page.typed)
    if club:
        from webclub import WebClub, link_for

        try:
            cfg = json.loads(club)
            page.club = wiring.link_club(app, cfg, Store("outbox", fs, fs.open), link_for(cfg),
                                         time.ticks_ms(), kind=WebClub)
        except (ValueError, KeyError, TypeError, OSError) as e:
            print("club settings: %r; no club results" % (e,))
            app.say("club settings: bad")
    app.render()
    return frame_address()


def tick():
    """One step of the club link (never a wait), and the page's club line after it, in one
    call: JSON {"changed": the panel changed, "club": club_info()}."""
    club = _page.club
    if club is None:
        return '{"changed":false,"club":null}'
    club.poll(time.ticks_ms())
    changed = _app().render()
    return '{"changed":%s,"club":%s}' % ("true" if changed else "false",
                                          club.info(_app().message))


def club_info():
    """The club link's state as JSON ("null": no club settings)."""
    club = _page.club
    return "null" if club is None else club.info(_app().message)


def held_keys():
    """The keys of the current layout that mean something when held (ui/keymap.py, on
    any screen), space separated: page.js counts them on release, as the board does, so
    that holding one is a long press; every other key counts as soon as it is touched."""
    layout = _app().layout
    names = BUTTON_NAMES if layout != "keypad" else "0123456789ABCD*#"
    return " ".join(n for n in names
                    if any(action(layout, n, True, m) is not None
                           for m in (SCOREBOARD_KEYS, LIST_KEYS, NUMBER_KEYS)))


def _picks():
    """How many keypad digits pick a list's items now (1-9, then 0 for the tenth): the
    items of a numbered list on top, 10 while a number is typed (the digits are digits
    then), else 0 (the scoreboard: the keys are ranks and suits; and the four buttons'
    layout, which has no digits). keypath.js labels those keys with their numbers while it
    is not 0."""
    app = _app()
    if app.layout != "keypad":
        return 0
    screen = app.screen
    mode = screen.key_mode
    if mode == NUMBER_KEYS:
        return 10
    if mode != LIST_KEYS or not getattr(screen, "numbered", False):
        return 0
    return min(len(getattr(screen, "items", ())), 10)


# The screens where a number or a name is typed (their key_mode NUMBER_KEYS): their keys
# read differently (tools/web.py KINDS); every such screen is named here
# (host_tests/test_web_page.py checks).
_TYPING = {"Points": "points", "Editor": "name"}


def _kind():
    """Which face the page's keys show (tools/web.py KINDS): "scoreboard", "list", or
    the typing screen's ("points", "name")."""
    screen = _app().screen
    mode = screen.key_mode
    if mode == SCOREBOARD_KEYS:
        return "scoreboard"
    if mode == LIST_KEYS:
        return "list"
    return _TYPING.get(type(screen).__name__, "list")


def frame_address():
    return uctypes.addressof(_page.panel.buffer)


def key(name, long=False):
    """One key event; what the page needs after it, as after() gives it. The trick being
    typed is kept after it."""
    changed = _app().press(name, bool(long))
    _keep_typed()
    return after(changed)


def after(changed):
    """Everything the page reads after a key, as one JSON object, so that a key is one call
    into Python (the page made four calls per key before, six with the club):
      changed  the panel changed: the page draws its frame (frames.js)
      wanted   the export ("csv" or "json") chosen in the device's history list since the
               last key, or "": the page downloads it as its own links do (downloads.js)
      lang     the UI's language: the page's texts follow it (texts.js)
      picks    how many keypad digits pick a list's items now (_picks(), keypath.js)
      keys     the kind of screen shown, whose face the keys show (_kind(), keypath.js)"""
    kind = _page.wanted
    _page.wanted = ""
    return json.dumps({"changed": bool(changed), "wanted": kind, "lang": _app().lang,
                       "picks": _picks(), "keys": _kind()})


# The trick being typed survives a reload, a layout switch and a killed browser on the page
# (not on the board, which writes only what counts): kept in its own durable item (not a
# file of Store's) after every key, with where the match stood (deals, bytes of the deal's
# journal), and put back only there. A list opening over the scoreboard drops the trick
# (App.push): App.typed() is empty then, and so is the kept line.
_TYPED = "s66.typed"


def _where(app):
    """deals.journal bytes of the match now, or "" with no match."""
    state = app.match.state
    return "" if state is None else "%d.%d" % (state.deals(), len(app.match.log))


def _keep_typed():
    app = _app()
    line = app.typed()
    kept = "%s.%s" % (_where(app), line.hex()) if line else ""
    if kept != _page.typed:
        _page.typed = kept
        _page.storage.setItem(_TYPED, kept)


def typed():
    """The trick being typed as kept ("deals.journal bytes.hex of the line", or empty)."""
    return _page.typed


def _retype(app, saved):
    parts = saved.split(".")
    if len(parts) != 3 or parts[0] + "." + parts[1] != _where(app):
        return  # none kept, or the match moved on since (the trick counted, or was undone)
    try:
        app.retype(bytes.fromhex(parts[2]))
    except ValueError:
        return


def char(ch):
    """A keyboard character, as in the terminal simulator: "" if it is no key here, else
    what key() answers."""
    name, long = key_of(_app().layout, ch)
    if name is None:
        return ""
    return key(name, long)


def key_for(ch):
    """The key name and long flag a keyboard character means in the current layout."""
    name, long = key_of(_app().layout, ch)
    return json.dumps([name, long])


def layout():
    return _app().layout


def lang():
    return _app().lang


def state():
    """The match as JSON (sixtysix/snapshot.py)."""
    return json.dumps(snapshot(_app().match))


def _want(kind):
    _page.wanted = kind


def export_text(kind):
    app = _app()
    snap = snapshot(app.match)
    if kind == "csv":
        return export.csv_text(snap)
    return export.json_text(snap, app.stats())
