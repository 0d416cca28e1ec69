"""The application: screens on a 128x64 panel, driven by key events.

The App knows no hardware. It gets a display (framebuf drawing calls plus
show()), a Session (the match as saved on flash), a key layout name and the
settings; main.py and the simulator feed it key events, and after each key call settle()
(what the key left to do: a match's statistics) and render() (drawing, which writes nothing).
Screens (ui/screen.py) are small objects with draw(app, fb) and act(app, action, arg);
the scoreboard (`scoreboard`) is under the lists (`lists`, the top one last). The App imports
the scoreboard (ui/scoreboard.py) at boot and the lists (ui/menus.py) through menus() when one
is wanted; neither imports the App: they get it as an argument. Only one of the two is in
RAM at a time: a list pushed over the scoreboard drops the scoreboard's code (`scoreboard` is
None until it is back), home() drops the lists' code, and the scoreboard's comes back when
the screen is next wanted (a key or a frame), once the list's code has left the call stack.
"""

import gc
import sys

from loader import drop
from sixtysix.errors import Refused
from ui import keymap
from ui.i18n import t, use
from ui.screen import LINE, H, W
from ui.text import Text


class App:
    """Screens (ui/*) and hosts (startup.py, web/webmain.py, tools/sim.py) use the App's own
    methods and attributes only, never its session, store or display
    (host_tests/test_app_surface.py checks): what they need of those has a method here. What
    the browser alone needs (the trick being typed, kept across a reload; closing the store)
    is in its subclass, web/webmain.py's WebApp: on the board each method is heap."""

    def __init__(self, display, session, font, layout=keymap.KEYPAD, settings=None,
                 buzzer=None, on_settings=None, export=None):
        self.fb = display
        self.session = session
        self.layout = layout
        self.buzzer = buzzer
        # Called with the settings once at boot and after each change (the board's idle
        # policy reads its timeouts from them).
        self.on_settings = on_settings
        # export: a function(kind) that exports the match ("csv" or "json"), given by a host
        # that can (the browser, web/webmain.py: the page downloads the file); the history
        # list (ui/info.py) then offers it. The board has none, and no attribute for it at
        # all (not even a None: its RAM is that tight).
        if export is not None:
            self.export = export
        self.text = Text(font)
        # The defaults, written out here rather than copied from a module-level dict: on
        # the board that second dict would stay in the heap for nothing.
        self.settings = values = {
            "lang": "en",
            "contrast": 200,
            "dim_s": 30,
            "off_s": 120,
            "sleep_s": 1800,
            "sound": 1,
            "quick": 0,  # 1: deals are entered as results only (winner, then game points)
        }
        # The saved settings: the wiring (wiring.py) reads them before the UI loads.
        values.update(session.load_settings() if settings is None else settings)
        self.lang = use(values["lang"])
        self.scoreboard = None  # the scoreboard (ui/scoreboard.py), None while a list covers it
        self.lists = []  # the lists over it, the top one last
        self.message = ""  # one line at the bottom until the next key: a refusal or news
        self.dirty = True
        self.stats_due = False  # a match ended: settle() adds it to the statistics
        self.club_mark = 0  # club night (club_event): 1 results await the ack, 2 all acked

    # --- lifecycle --------------------------------------------------------

    def boot(self, problems=None):
        """Restore the match and show the screen the players left (the scoreboard).
        `problems`: what the session's own boot returned, when the caller booted it first
        (the board does, before the UI's code loads: see startup.py); None boots it here."""
        if problems is None:
            problems = self.session.boot()
        self._settings_apply()
        self.screen  # noqa: B018  (the property loads the scoreboard now, shown first)
        if self.match.state is None:
            self.menus().new_match(self)
        if problems:
            self.say(problems[0])
        self.dirty = True
        gc.collect()

    @property
    def match(self):
        return self.session.match

    @property
    def screen(self):
        """The screen on top: the top list, else the scoreboard, whose code is loaded here
        when a list had it dropped."""
        lists = self.lists
        if lists:
            return lists[-1]
        scoreboard = self.scoreboard
        if scoreboard is None:
            # Back from a list: the scoreboard's code loads here, after the key that closed
            # the list has returned. Loaded in home(), it would share the heap with the
            # lists' code, which the closing key's call frames still hold.
            gc.collect()  # the lists' code freed first, so the scoreboard's takes its place
            from ui.scoreboard import Scoreboard

            scoreboard = self.scoreboard = Scoreboard()
        return scoreboard

    def menus(self):
        """The lists (ui/menus.py), imported on first use; home() drops them again."""
        from ui import menus

        return menus

    def push(self, screen):
        self.lists.append(screen)
        if self.scoreboard is not None:
            # A list covers the scoreboard: its code (ui/scoreboard.py) leaves the heap until
            # home() comes back to it. A trick half typed goes with it, as it always did
            # when a list opened (nothing else of the scoreboard outlives a list).
            self.scoreboard = None
            drop("scoreboard")
        self.dirty = True

    def pop(self):
        if len(self.lists) > 1:
            self.lists.pop()
            self.dirty = True
        else:
            self.home()

    def home(self):
        """Back to the scoreboard. The menu code is dropped from RAM until it is needed
        again; the scoreboard's comes back with the next use of `screen` (on the board
        every module's code lives in the heap)."""
        del self.lists[:]
        self.dirty = True
        if "ui.lists" in sys.modules:  # every list runs on ui/lists.py
            drop("lists")

    # --- keys ---------------------------------------------------------------

    def press(self, name, long=False):
        """One key event and all it leads to: the key acts, then settle(), then a frame.
        Every place the app runs hands its keys in here. Returns True if the panel changed."""
        self.key(name, long)
        self.settle()  # after the key has returned: see there
        return self.render()

    def key(self, name, long=False):
        """One key event from the key layer (name, long press or not); press() calls it."""
        screen = self.screen
        act = keymap.action(self.layout, name, long, screen.key_mode)
        self.message = ""
        self.dirty = True
        if act is None:
            return
        if act[0] == keymap.UNDO and screen.key_mode != keymap.SCOREBOARD_KEYS:
            del screen  # the list's last reference here: its code may leave the heap
            self.home()  # undo works from every screen: it returns to the scoreboard
            screen = self.screen
        screen.act(self, act[0], act[1])

    # --- entries --------------------------------------------------------------

    def attempt(self, fn, *args):
        """Call fn(*args), a change to the match or the flash. A refusal or a failed write
        is shown on the bottom line (and beeps for a refusal); returns True if it went
        through. With enter() below, the one place where the UI turns these into messages."""
        try:
            fn(*args)
        except Refused as e:
            self.refuse(e.code)
            return False
        except OSError:
            self.say(t("flash error"))
            return False
        return True

    def enter(self, rec, replace=False):
        """Enter one event record, or with `replace` put it in place of the last entry (a
        suit given to the trick just entered, one write). Returns (rolled, why) as the
        session does: why is "" when it counted, else the core's refusal code, shown with
        a beep, or "flash" for a failed write, shown as such; neither changed the match. One
        that counted beeps when it ended the deal or the match (whose statistics settle()
        adds)."""
        session = self.session
        try:
            rolled, why = (session.replace_last if replace else session.enter)(rec)
        except OSError:
            self.say(t("flash error"))
            return False, "flash"
        if why:
            self.refuse(why)
        elif self.match.state.over:
            self.stats_due = True  # written by the next settle(), see there
            self.beep(3)
        elif rolled:
            self.beep(1)  # a deal just ended (66 or the last trick)
        return rolled, why

    def undo(self):
        """Take back the last entry and say so; True if it was (ui/amend.py then says why
        itself, over "undone", in the same key)."""
        done = self.attempt(self.session.undo)
        if done:
            self.say(t("undone"))
        return done

    def redo(self):
        if self.attempt(self.session.redo):
            self.say(t("redone"))

    def refuse(self, code):
        self.say(t("x " + code))
        self.beep(0)

    def say(self, text):
        self.message = text
        self.dirty = True

    def club_event(self, code, arg):
        """What the club link reports (net/clublink.py lists the codes): the words for it
        are in ui/clubwords.py, loaded for a report and dropped again (reports are few, and
        a table without the club never loads them). The scoreboard's mark is set here."""
        if code == "mark":
            self.club_mark = arg
            self.dirty = True
            return
        from ui.clubwords import said

        said(self, code, arg)
        drop("clubwords")

    def beep(self, kind):
        """0 refused, 1 deal over, 3 match over; silent unless a buzzer and sound are on."""
        if self.buzzer is not None and self.settings["sound"]:
            self.buzzer(kind)

    def save_settings(self):
        """Keep the settings on flash; a failed write is shown, the setting still applies."""
        self.attempt(self.session.save_settings, self.settings)
        self._settings_apply()

    def _settings_apply(self):
        """The settings take effect: the language, the panel's contrast (where it has one)
        and the host's hook; at boot and after each change."""
        s = self.settings
        if s["lang"] != self.lang:  # a new language (ui/settings.py)
            self.lang = use(s["lang"])
        contrast = getattr(self.fb, "contrast", None)
        if contrast is not None:
            contrast(s["contrast"])
        if self.on_settings is not None:
            self.on_settings(s)

    def always_lit(self):
        """True for a screen with no contrast, dimming or sleep (the browser's canvas): the
        settings list leaves those out."""
        return getattr(self.fb, "always_lit", False)

    # --- what screens and hosts read and write beside the match ---------------

    def new_match(self, line):
        """Start the match of a `new` line (ui/newmatch.py); True if it was written."""
        return self.attempt(self.session.new_match, line)

    def names(self, text=None):
        """The recent players' names as saved (the blob "names", ui/nameentry.py), "" when
        none can be read; with `text`, saves that instead (a failed write is shown)."""
        store = self.session.store
        if text is not None:
            return self.attempt(store.save_blob, "names", text)
        return store.load_blob("names") or ""  # None: none, damaged or unreadable

    def stats(self):
        """The lifetime statistics (session/stats.py): {name: {"played", "won", ...}}."""
        return self.session.load_stats()

    def settle(self):
        """What a key left to do, called by the loop after the key and before render(). A
        match has just ended: its statistics are added now, once the code of the key that
        ended it (a list's, perhaps) has left the call stack, and before the scoreboard's
        code comes back after a list; session/stats.py is loaded for it (and session/blobs.py with
        store/recover.py when the statistics were not read yet).
        A failed write is shown: the match itself is saved, only the statistics not."""
        if self.stats_due:
            self.stats_due = False
            self.attempt(self.session.record_match_end)

    # --- drawing --------------------------------------------------------------

    def render(self):
        """Redraw if anything changed; the display sends only what changed. Writes nothing."""
        if not self.dirty:
            return False
        fb = self.fb
        fb.fill(0)
        self.screen.draw(self, fb)
        if self.message:
            y = H - LINE  # the bottom line: dark text on a lit bar
            if self.layout == keymap.BUTTONS and not self.lists:
                y -= LINE  # four buttons: the scoreboard's soft keys keep the bottom line
            fb.fill_rect(0, y - 1, W, LINE + 1, 1)
            self.write(self.text.clip(self.message, W - 2), 1, y, 0)
        fb.show()
        self.dirty = False
        return True

    def write(self, s, x, y, color=1):
        return self.text.draw(self.fb, s, x, y, color)
