"""The scorekeeper in a browser: the firmware's App, Session and Store on the WebAssembly port.

The page (page.js) calls start() once, then one function per key press. One call per press
matters there: the port frees garbage only between calls from JavaScript.

What the page supplies, as loop.py does on the board:
  display   Panel, a 128x64 MONO_VLSB frame buffer; page.js paints its bytes onto the canvas
            straight from the WebAssembly memory (frame_address()), so a frame costs no copy
  keys      key names from the on-screen keys, or keyboard characters mapped by the
            table the terminal simulator reads too (ui/keyboard.py)
  storage   the page's durable store (durable.js: IndexedDB, each write committed to disk
            in order, the frame painted only after) through webstore.WebFS
  club      the club night's link (webclub.py), only when the page has club settings:
            page.js calls tick() after each key and when mqtt.js has news, never waiting
  buzzer    the board's beeper as Web Audio: the app calls it (only while its sound
            setting is on, ui/app.py beep()) with the pattern's number, and page.js plays
            it (start()'s beep argument, a JavaScript function)
"""

import framebuf
import json
import time
import uctypes

import export
import wiring
from hw.keys import LONG_MS  # noqa: F401  (page.js reads it: a long press, as on the board)
from sixtysix.snapshot import snapshot
from store.journal import Store
from ui.keyboard import key_of
from ui.keymap import BOARD_KEYS, BUTTON_NAMES, LIST_KEYS, NUMBER_KEYS, action
from ui.text import board_font
from webstore import WebFS


class Panel(framebuf.FrameBuffer):
    """The panel: the frame buffer page.js reads; show() only counts frames."""

    width = 128
    height = 64
    always_lit = True  # no contrast, dimming, panel off or sleep: the settings hide them

    def __init__(self):
        self.buffer = bytearray(128 * 64 // 8)
        super().__init__(self.buffer, 128, 64, framebuf.MONO_VLSB)
        self.frames = 0

    def show(self):
        self.frames += 1


_panel = Panel()
_font = None
_app = None
_store = None
_club = None


def start(storage, layout="keypad", club="", beep=None):
    """Boot (or boot again, e.g. with the other key layout) from what storage holds.
    club: the club settings as JSON ({"url", "table", "password"}), or empty for none;
    beep: the page's beeper (called with the pattern's number), or None for silence."""
    global _app, _font, _store, _club
    if _club is not None:
        _club.close()
        _club = None
    if _store is not None:
        _store.close()
    if _font is None:
        _font = board_font()
    fs = WebFS(storage)
    _app = wiring.build(_panel, "", fs, _font, layout, opener=fs.open, buzzer=beep)
    _app.export = _want  # the history list offers the export (ui/info.py)
    _store = _app.session.store
    global _storage, _typed
    _storage = storage
    _typed = storage.getItem(_TYPED) or ""
    _retype(_typed)
    if club:
        from webclub import WebClub, link_for

        try:
            cfg = json.loads(club)
            _club = wiring.link_club(_app, cfg, Store("outbox", fs, fs.open), link_for(cfg),
                                      time.ticks_ms(), kind=WebClub)
        except (ValueError, KeyError, TypeError, OSError) as e:
            print("club settings: %r; no club results" % (e,))
            _app.say("club settings: bad")
    _app.render()
    return frame_address()


def tick():
    """One step of the club link (never a wait); True if the panel changed."""
    if _club is None:
        return False
    _club.poll(time.ticks_ms())
    return _app.render()


def club_info():
    """The club link's state as JSON ("null": no club settings)."""
    return "null" if _club is None else _club.info(_app.message)


def held_keys():
    """The keys of the current layout that mean something when held (ui/keymap.py, on
    any screen), space separated: page.js counts them on release, as the board does, so
    that holding one is a long press; every other key counts as soon as it is touched."""
    names = BUTTON_NAMES if _app.layout != "keypad" else "0123456789ABCD*#"
    return " ".join(n for n in names
                    if any(action(_app.layout, n, True, m) is not None
                           for m in (BOARD_KEYS, LIST_KEYS, NUMBER_KEYS)))


def frame_address():
    return uctypes.addressof(_panel.buffer)


def key(name, long=False):
    """One key event; True if the panel changed. The trick being typed is kept after it."""
    changed = _app.press(name, bool(long))
    _keep_typed()
    return changed


# The trick being typed survives a reload, a layout switch and a killed browser on the page
# (not on the board, which writes only what counts): kept in its own durable item (not a
# file of Store's) after every key, with where
# the match stood (deals, bytes of the deal's journal), and put back only there.
_TYPED = "s66.typed"
_storage = None
_typed = ""


def _typed_line():
    board = _app.board
    state = _app.match.state
    if _app.lists or board is None or state is None:
        return ""
    line = board.typed()
    if not line:
        return ""
    return "%d.%d.%s" % (state.deals(), len(_app.match.log), line.hex())


def _keep_typed():
    global _typed
    line = _typed_line()
    if line != _typed:
        _typed = line
        _storage.setItem(_TYPED, line)


def typed():
    """The trick being typed as kept ("deals.journal bytes.hex of the line", or empty)."""
    return _typed


def _retype(saved):
    state = _app.match.state
    parts = saved.split(".")
    if state is None or len(parts) != 3 or _app.lists or _app.board is None:
        return
    if parts[0] != str(state.deals()) or parts[1] != str(len(_app.match.log)):
        return  # the match moved on since (the trick counted, or was undone)
    try:
        line = bytes.fromhex(parts[2])
    except ValueError:
        return
    _app.board.retype(state, line)
    _app.dirty = True


def char(ch):
    """A keyboard character, as in the terminal simulator: -1 if it is no key here, else
    1 if the panel changed, 0 if not."""
    name, long = key_of(_app.layout, ch)
    if name is None:
        return -1
    return 1 if key(name, long) else 0


def key_for(ch):
    """The key name and long flag a keyboard character means in the current layout."""
    name, long = key_of(_app.layout, ch)
    return json.dumps([name, long])


def layout():
    return _app.layout


def lang():
    return _app.lang


def state():
    """The match as JSON (sixtysix/snapshot.py)."""
    return json.dumps(snapshot(_app.match))


_wanted = ""


def _want(kind):
    global _wanted
    _wanted = kind


def wanted():
    """The export ("csv" or "json") chosen in the device's history list since the last call,
    or "": page.js asks after each key and downloads it as its own links do."""
    global _wanted
    kind = _wanted
    _wanted = ""
    return kind


def export_text(kind):
    snap = snapshot(_app.match)
    if kind == "csv":
        return export.csv_text(snap)
    return export.json_text(snap, _app.session.load_stats())
