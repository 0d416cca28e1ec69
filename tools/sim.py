"""The scorekeeper in a terminal: the firmware's own app in the MicroPython unix port.

The real display driver runs against an I2C bus that only counts bytes, so the
figures are those of the board. Flash is a folder, so a restarted simulator
resumes the match. USAGE below is what `--help` prints (MicroPython keeps no
docstrings).

The flash folder is the simulated board's flash, as "/" is a board's: the simulator
works inside it (the firmware's own paths, an update's fw/ included, land there) and
boots as a board does, through main.py (a record fw/boot: update/boot.py picks the
slot, which comes first on the module path, and a new version's trial). machine.reset()
restarts the simulated board: every module is dropped and it boots again from the flash.
"""

import sys

import termpanel
from fakebus import CountingBus

SIM_ROOT = "sim_flash"

USAGE = """usage: sim.py [options]             (make sim ARGS="...")

The scorekeeper in this terminal; its flash is the folder sim_flash/.

  --buttons        the four-button layout (default: the 4x4 keypad)
  --panel MODE     how the 128x64 panel is drawn: quad (2x2 pixels a character,
                   64x32, the default), half (128x32, square pixels), big (256x64,
                   two blocks a pixel: for a large terminal), braille (64x16)
  --lang CODE      the language: uk ru en de
  --flash DIR      keep the flash in DIR instead of sim_flash/ (made if missing; its
                   parent must exist): the match, the outbox, an update's fw/
  --club FILE      a club table: FILE is its club.json (table, password, broker, port;
                   docs/club.md); its results go to the broker, kept in the flash's
                   outbox/ until the service acknowledges them; with "fleet_key" it takes
                   updates over the broker (docs/boards.md) into the flash's fw/ and
                   restarts into them
  -h, --help       this text

Keys, keypad: a b c d players A-D | 1-6 ranks A 10 K Q J 9 | 7 8 9 0 suits
  | * or Backspace undo | # or Enter OK/menu | z = * held (redo) | m = # held (menu)
Keys, four buttons: w up | s down | e or Enter OK | q or Backspace back
  | W S E Q = the same held
Ctrl-C or x quits.

Scripted runs (no terminal needed):
  --keys KEYS      press these keys, then print the panel and exit; "|" notes the words
                   on screen for --texts, "." is an idle second (with --club the link's
                   turns, else skipped); with --club the club line follows the panel
  --keys-file F    the keys from a file (the unix port stops on arguments over 255 bytes)
  --dump FILE      write the panel text to FILE instead of printing it
  --png FILE       write the panel as a PNG (white on black, 4x)
  --state          print the match as JSON (sixtysix/snapshot.py) after the keys
  --texts FILE     write the words drawn on screen at each "|" and at the end, as JSON
"""

def write_png(path, fb, scale=4):
    """The panel as a PNG (white on black, scaled), written without zlib compression."""
    import binascii
    import struct

    w = 128 * scale
    h = 64 * scale
    raw = bytearray()
    for y in range(h):
        raw.append(0)  # filter: none
        py = y // scale
        for x in range(w):
            raw.append(255 if fb.pixel(x // scale, py) else 0)
    # zlib stream of stored blocks (each at most 65535 bytes) and the Adler-32 sum.
    z = bytearray(b"\x78\x01")
    i = 0
    while i < len(raw):
        block = raw[i:i + 65535]
        i += len(block)
        z.append(1 if i >= len(raw) else 0)
        z.extend(struct.pack("<HH", len(block), len(block) ^ 0xFFFF))
        z.extend(block)
    a, b = 1, 0
    for byte in raw:
        a = (a + byte) % 65521
        b = (b + a) % 65521
    z.extend(struct.pack(">I", (b << 16) | a))

    def chunk(kind, data):
        body = kind + bytes(data)
        return struct.pack(">I", len(data)) + body + struct.pack(">I", binascii.crc32(body))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)))
        f.write(chunk(b"IDAT", z))
        f.write(chunk(b"IEND", b""))


class Reset(BaseException):
    """machine.reset() in the simulator: main() boots the simulated board again. Not an
    Exception, so that no `except Exception` of the firmware holds it up, as none can hold
    up a board's reset."""


class Machine:
    """The unix port's machine module with the reset a board has (the port has none)."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        return getattr(self._real, name)

    def reset(self):
        raise Reset()


class Sim:
    def __init__(self, root=SIM_ROOT, layout="keypad", lang=None, panel="quad", club=None,
                 trial=None):
        import os

        import wiring
        from hw.display import Display
        from ui.text import board_font

        self.bus = CountingBus()
        self.display = Display(self.bus)
        # The board's wiring (wiring.py) on the counting bus and a folder: --lang is
        # saved before the app boots, so a fresh flash's first screen is in it too.
        self.app = wiring.build(self.display, root, os, board_font(), layout, lang=lang)
        self.layout = layout
        self.panel = panel
        self.trial = trial  # update/boot.py's Trial while a new version is on trial
        self._runs = None  # (folder, version) of the code this boot runs
        self.presses = 0
        self.sent = []  # bytes sent to the panel for each key press
        self.drawn = []  # (y, x, text) drawn in the last frame
        self._watch_text()
        self.club = None
        self.club = self._club(club, root, wiring) if club else None
        self.app.render()  # the screen the players left, before any key

    def _club(self, cfg, root, wiring):
        """The table's club link, built as a board builds it (parts.make_club) but on the
        host's network: the unix port's sockets, no WiFi to bring up. The outbox is the
        folder outbox/ in the simulator's flash. cfg: the club.json's dict, or its path."""
        import json
        import os
        import socket
        from time import ticks_ms

        from net.mqtt import MQTT
        from store.journal import Store

        if type(cfg) is str:
            with open(cfg) as f:
                cfg = json.load(f)
        try:
            os.mkdir(root)  # the outbox's folder is made inside it
        except OSError:
            pass
        table = cfg["table"]
        link = MQTT("table-" + table, table, cfg.get("password"), cfg.get("keepalive", 30))
        return wiring.link_club(self.app, cfg, Store(root + "/outbox", os), link, ticks_ms(),
                                 socket)

    def step(self):
        """One turn of the club link (loop.py's loop does the same on a board); True when
        the panel changed."""
        from time import ticks_ms

        before = self.bus.sent
        now = ticks_ms()
        self.club.poll(now)
        self.app.render()
        self.confirm(now)
        return self.bus.sent != before

    def confirm(self, now):
        """A turn of the loop's end: a version on trial is confirmed once due."""
        if self.trial is not None and self.trial.due(now):
            self.trial = None

    def runs(self):
        """(the folder the firmware's code was loaded from, the version it is): read from
        the modules loaded, not from the record alone, so it says what really runs; taken
        once a boot (after an update's switch the record names the next version)."""
        if self._runs is None:
            self._runs = self._loaded_from()
        return self._runs

    def _loaded_from(self):
        from update.slots import read

        here = sys.modules["wiring"].__file__
        folder = here[:here.rfind("/")] if here.startswith("fw/") else ""
        r = read()
        if r is None:
            return folder, 0 if folder == "" else None
        return folder, r.get("ver", 0) if "fw/" + r["slot"] == folder or \
            r["slot"] == folder == "" else None

    def firmware_line(self):
        """The version running, in words: the record's, for the folder its code came from."""
        folder, ver = self.runs()
        where = folder or "the base"
        if ver is None:
            return "firmware from %s: not the version fw/boot names" % where
        return "firmware %d (%s%s)" % (ver, where, ", on trial" if self.trial else "")

    def club_line(self):
        """The club link's state in words, as the browser's status line has them."""
        c = self.club
        if c.refused:
            return "club %s: refused (%s)" % (c.cfg["table"], c.refused)
        n = len(c.outbox.pending)
        return "club %s: %s, %s" % (c.cfg["table"], c.status,
                                    "%d waiting for the ack" % n if n else "all acknowledged")

    def _watch_text(self):
        """Note every string the app draws, so tests can read the screen as words."""
        text = self.app.text
        draw = text.draw
        draw_big = text.draw_big
        drawn = self.drawn

        def note(fb, s, x, y, *args):
            drawn.append((y, x, s))
            return draw(fb, s, x, y, *args)

        def note_big(fb, s, x, y, *args):
            drawn.append((y, x, s))
            return draw_big(fb, s, x, y, *args)

        text.draw = note
        text.draw_big = note_big
        # A frame starts by clearing the panel (App.render): the words of the last one go.
        display = self.display
        fill = display.fill

        def clear(c):
            if c == 0:
                del drawn[:]
            return fill(c)

        display.fill = clear

    def words(self):
        """The strings on screen, top to bottom and left to right."""
        return [s for _y, _x, s in sorted(self.drawn)]

    def press(self, ch):
        """One keyboard character; returns False for a character that is not a key."""
        from time import ticks_ms

        from ui.keyboard import key_of  # the booted firmware's (a slot's after an update)

        name, long = key_of(self.layout, ch)
        if name is None:
            return False
        before = self.bus.sent
        self.app.press(name, long)
        if self.trial is not None:
            self.trial.key(ticks_ms())  # handled: a new version's trial counts it (loop.py)
        self.presses += 1
        self.sent.append(self.bus.sent - before)
        return True

    def screen(self):
        """The panel as text lines in the simulator's panel mode (tools/termpanel.py)."""
        return termpanel.lines(self.display.pixel, self.panel)


def _help(layout):
    if layout == "keypad":
        return ("a-d winner | 1-6 A 10 K Q J 9 | 7890 \u2660\u2665\u2666\u2663 | * undo  z redo"
                " | # ok/menu  m menu | x quit")
    return "w up | s down | e/Enter OK | q/Bksp back | W S E Q long | x quit"


def _status(sim):
    """The lines under the panel: the firmware running (with a club, or once updated) and
    the club link's state."""
    lines = []
    if sim.club is not None or sim.runs()[0]:
        lines.append(sim.firmware_line())
    if sim.club is not None:
        lines.append(sim.club_line())
    return lines


def _draw_terminal(sim, out):
    out.write("\x1b[H")
    for line in sim.screen():
        out.write("\u2502" + line + "\u2502\x1b[K\r\n")
    out.write(_help(sim.layout) + "\x1b[K\r\n")
    for line in _status(sim):
        out.write(line + "\x1b[K\r\n")


def terminal_mode():
    """The terminal's settings, to restore at the end; None when stdin is not a terminal."""
    import termios

    try:
        return termios.tcgetattr(0)
    except Exception:  # OSError 25 (not a terminal): a pipe, a file, a test
        return None


def interactive(sim, old):
    import select
    import termios

    out = sys.stdout
    fd = 0
    termios.setraw(fd)
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    try:
        out.write("\x1b[2J")
        _draw_terminal(sim, out)
        shown = _status(sim)
        while True:
            club = sim.club
            if club is not None:
                changed = sim.step()
            else:
                from time import ticks_ms

                sim.confirm(ticks_ms())
                changed = False
            if changed or _status(sim) != shown:
                _draw_terminal(sim, out)
                shown = _status(sim)
            if not poll.poll(1000 if club is None else club.wait_ms()):
                continue  # a blocking wait: the loop sleeps until a key (or the link's turn)
            ch = sys.stdin.buffer.read(1).decode()
            if ch in ("\x03", "x"):
                break
            if ch == "\x1b":
                continue
            if sim.press(ch):
                _draw_terminal(sim, out)
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, old)
        out.write("\r\n")


def idle_second(sim):
    """A second with no key: the club link's turns, as the loop runs them."""
    from time import sleep_ms, ticks_add, ticks_diff, ticks_ms

    end = ticks_add(ticks_ms(), 1000)
    while ticks_diff(end, ticks_ms()) > 0:
        sim.step()
        sleep_ms(min(20, sim.club.wait_ms()))


def state_json(sim):
    from jsonout import dumps
    from sixtysix.snapshot import snapshot

    return dumps(snapshot(sim.app.match))


# Options that take a value, and the name each is kept under.
_VALUED = {"--keys": "keys", "--keys-file": "keys_file", "--flash": "root", "--dump": "dump",
           "--png": "png", "--lang": "lang", "--texts": "texts", "--panel": "panel",
           "--club": "club"}
_FLAGS = {"--buttons": "buttons", "--state": "state", "-h": "help", "--help": "help"}


def parse_args(argv):
    """The options as a dict; a string (the complaint) for arguments that make no sense."""
    opts = {"keys": None, "keys_file": None, "root": SIM_ROOT, "dump": None, "png": None,
            "lang": None, "texts": None, "panel": "quad", "club": None, "buttons": False,
            "state": False, "help": False}
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in _FLAGS:
            opts[_FLAGS[a]] = True
        elif a in _VALUED:
            i += 1
            if i == len(argv):
                return a + " needs a value"
            opts[_VALUED[a]] = argv[i]
        else:
            return "unknown argument " + a
        i += 1
    if opts["panel"] not in termpanel.MODES:
        return "--panel is one of " + " ".join(termpanel.MODES)
    return opts


def _exists(path):
    """"dir", "file", or None when nothing is there."""
    import os

    try:
        return "dir" if os.stat(path)[0] & 0x4000 else "file"
    except OSError:
        return None


def _parent(path):
    i = path.rstrip("/").rfind("/")
    return path[:i] if i > 0 else ("/" if i == 0 else ".")


def _absolute(path, here):
    return path if path.startswith("/") else here + "/" + path


# The club.json fields the simulator's link reads: (name, what it must be, the check).
_CLUB_FIELDS = (
    ("broker", "the broker's address, a string", lambda v: type(v) is str and v != ""),
    ("port", "a port number from 1 to 65535", lambda v: type(v) is int and 0 < v < 65536),
    ("password", "a string", lambda v: type(v) is str),
    ("keepalive", "a whole number of seconds from 1 to 3600",
     lambda v: type(v) is int and 0 < v <= 3600),
    ("resend_s", "a number of seconds above 0", lambda v: type(v) in (int, float) and v > 0),
    ("fleet_key", "the club's key in hex (tools/fleet.py --new-key)",
     lambda v: type(v) is str),
)


def check_paths(opts):
    """Read what the options name and check where the simulator writes, before anything is
    made: a complaint saying what to do, or None (opts then holds the keys and the club's
    settings read, every path absolute)."""
    import json
    import os

    from ui.i18n import LANGS

    if opts["lang"] is not None and opts["lang"] not in LANGS:
        return "--lang is one of " + " ".join(LANGS)
    root = opts["root"]
    kind = _exists(root)
    if kind == "file":
        return "--flash %s is a file; give a folder (it is the board's flash)" % root
    if kind is None and _exists(_parent(root)) != "dir":
        return ("--flash %s: the folder %s does not exist; make it first, or give a flash"
                " folder whose parent exists" % (root, _parent(root)))
    if opts["keys_file"]:
        try:
            with open(opts["keys_file"]) as f:
                opts["keys"] = f.read()
        except (OSError, UnicodeError):
            return "--keys-file %s cannot be read; give a text file of keys" % opts["keys_file"]
    if opts["club"]:
        path = opts["club"]
        try:
            with open(path) as f:
                cfg = json.load(f)
        except OSError:
            return "--club %s cannot be read; give the table's club.json (docs/club.md)" % path
        except ValueError:
            return "--club %s is not JSON; give the table's club.json (docs/club.md)" % path
        if type(cfg) is not dict or type(cfg.get("table")) is not str or not cfg["table"]:
            return '--club %s has no "table"; give the table\'s club.json (docs/club.md)' % path
        for name, what, good in _CLUB_FIELDS:
            if (name in cfg or name == "broker") and not good(cfg.get(name)):
                return '--club %s: "%s" must be %s (docs/club.md)' % (path, name, what)
        opts["club"] = cfg
    for option in ("dump", "png", "texts"):
        path = opts[option]
        if path is not None and _exists(_parent(path)) != "dir":
            return "--%s %s: the folder %s does not exist; make it first" % (
                option, path, _parent(path))
    here = os.getcwd()  # the simulator works inside the flash: the paths it writes, absolute
    for name in ("dump", "png", "texts", "root"):
        if opts[name] is not None:
            opts[name] = _absolute(opts[name], here)
    return None


def enter_flash(root):
    """Make the flash folder if it is missing and work inside it, as a board works in "/";
    the module path made absolute first. A complaint, or None."""
    import os

    here = os.getcwd()
    for i, folder in enumerate(sys.path):
        if folder and not folder.startswith("/"):
            sys.path[i] = here + "/" + folder
    try:
        if _exists(root) is None:
            os.mkdir(root)
        os.chdir(root)
    except OSError as e:
        return "--flash %s cannot be used (%s); give a folder this user can write" % (
            root, e)
    return None


def boot(opts, path):
    """The simulated board's boot: every module dropped (a reset leaves nothing in RAM),
    then main.py's own boot (a record fw/boot: the slot first on the path and the trial),
    then the app from the firmware it chose. path: the module path the process started with."""
    for name in list(sys.modules):
        if name != "machine":
            del sys.modules[name]
    sys.path[:] = path
    import main as board  # firmware/main.py, as a board's boot runs it

    trial = board.trial
    try:
        sim = Sim(".", "buttons" if opts["buttons"] else "keypad", opts["lang"], opts["panel"],
                  opts["club"], trial)
    except Exception as e:
        if trial is None:
            raise
        trial.failed(e)  # on trial: the board restarts (machine.reset), as main.py's guard
    sim.runs()  # what this boot runs, taken before an update may switch the record
    return sim


def on_trial(sim, e):
    """An exception from the loop: on a trial boot the board restarts (main.py's guard);
    else it ends the simulator."""
    if sim.trial is None:
        raise e
    sim.trial.failed(e)


def play_keys(sim, opts, done):
    """The scripted keys, from done[0] on (a restart goes on with the next key)."""
    keys = opts["keys"]
    while done[0] < len(keys):
        ch = keys[done[0]]
        done[0] += 1
        if ch == "|":
            opts["frames"].append(sim.words())
        elif ch == "." and sim.club is not None:
            idle_second(sim)
        else:
            sim.press(ch)
            if sim.club is not None:
                sim.step()


def scripted_output(sim, opts):
    text = "\n".join(sim.screen()) + "\n"
    for line in _status(sim):
        text += line + "\n"
    if opts["dump"]:
        with open(opts["dump"], "w") as f:
            f.write(text)
    elif not opts["state"]:
        sys.stdout.write(text)
    if opts["state"]:
        sys.stdout.write(state_json(sim) + "\n")
    if opts["texts"]:
        from jsonout import dumps

        opts["frames"].append(sim.words())
        with open(opts["texts"], "w") as f:
            f.write(dumps(opts["frames"]) + "\n")
    if opts["png"]:
        write_png(opts["png"], sim.display)


def main(argv):
    opts = parse_args(argv)
    if isinstance(opts, str):
        sys.stderr.write("sim.py: " + opts + " (--help lists the options)\n")
        return 2
    if opts["help"]:
        sys.stdout.write(USAGE)
        return 0
    why = check_paths(opts)
    term = None
    if why is None and opts["keys"] is None:
        term = terminal_mode()
        if term is None:
            why = ("the interactive simulator needs a terminal; scripted runs pass --keys"
                   " (--help)")
    why = why or enter_flash(opts["root"])
    if why:
        sys.stderr.write("sim.py: " + why + "\n")
        return 2
    import machine

    sys.modules["machine"] = Machine(machine)  # machine.reset() restarts the board
    path = list(sys.path)
    opts["frames"] = []
    done = [0]  # scripted keys pressed, over the restarts
    while True:
        sim = None
        try:
            sim = boot(opts, path)
            try:
                if term is not None:
                    interactive(sim, term)
                else:
                    play_keys(sim, opts, done)
                    scripted_output(sim, opts)
            except Exception as e:
                on_trial(sim, e)
            return 0
        except Reset:
            # The board restarts: its socket closes as a board's connection drops; the
            # flash is all that stays.
            if sim is not None and sim.club is not None:
                sim.club.link.close()


def _said(e):
    """An exception in one line: its words and where it was raised."""
    import io

    buf = io.StringIO()
    getattr(sys, "print_exception", lambda e, f: None)(e, buf)
    lines = [s.strip() for s in buf.getvalue().split("\n") if s.strip()]
    where = [s for s in lines if s.startswith("File ")]
    return "%s: %s%s" % (type(e).__name__, e, " (" + where[-1] + ")" if where else "")


if __name__ == "__main__":
    try:
        status = main(sys.argv)
    except KeyboardInterrupt:
        status = 130
    except Exception as e:  # the firmware stopped: said in one line, the flash as it was
        sys.stderr.write("sim.py: the firmware stopped: %s; its flash is kept, run it again"
                         " to resume\n" % _said(e))
        status = 1
    sys.exit(status)
