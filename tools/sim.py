"""The scorekeeper in a terminal: the firmware's own app in the MicroPython unix port.

The real display driver runs against an I2C bus that only counts bytes, so the
figures are those of the board. Flash is a folder, so a restarted simulator
resumes the match. USAGE below is what `--help` prints (MicroPython keeps no
docstrings).
"""

import sys

import termpanel
from fakebus import CountingBus
from ui.keyboard import key_of

SIM_ROOT = "sim_flash"

USAGE = """usage: sim.py [options]             (make sim ARGS="...")

The scorekeeper in this terminal; its flash is the folder sim_flash/.

  --buttons        the four-button layout (default: the 4x4 keypad)
  --panel MODE     how the 128x64 panel is drawn: quad (2x2 pixels a character,
                   64x32, the default), half (128x32, square pixels), big (256x64,
                   two blocks a pixel: for a large terminal), braille (64x16)
  --lang CODE      the language: uk ru en de
  --flash DIR      keep the flash in DIR instead of sim_flash/
  --club FILE      a club table: FILE is its club.json (table, password, broker, port;
                   docs/club.md); its results go to the broker, kept in the flash's
                   outbox/ until the service acknowledges them
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


class Sim:
    def __init__(self, root=SIM_ROOT, layout="keypad", lang=None, panel="quad", club=None):
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
        self.presses = 0
        self.sent = []  # bytes sent to the panel for each key press
        self.drawn = []  # (y, x, text) drawn in the last frame
        self._watch_text()
        self.club = self._club(club, root, wiring) if club else None
        self.app.render()  # the screen the players left, before any key

    def _club(self, path, root, wiring):
        """The table's club link, built as a board builds it (parts.make_club) but on the
        host's network: the unix port's sockets, no WiFi to bring up. The outbox is the
        folder outbox/ in the simulator's flash."""
        import json
        import os
        import socket
        from time import ticks_ms

        from net.mqtt import MQTT
        from store.journal import Store

        with open(path) as f:
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
        self.club.poll(ticks_ms())
        self.app.render()
        return self.bus.sent != before

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
        name, long = key_of(self.layout, ch)
        if name is None:
            return False
        before = self.bus.sent
        self.app.press(name, long)
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


def _draw_terminal(sim, out):
    out.write("\x1b[H")
    for line in sim.screen():
        out.write("\u2502" + line + "\u2502\x1b[K\r\n")
    out.write(_help(sim.layout) + "\x1b[K\r\n")
    if sim.club is not None:
        out.write(sim.club_line() + "\x1b[K\r\n")


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
        shown = None
        while True:
            club = sim.club
            if club is not None:
                if sim.step() or sim.club_line() != shown:
                    _draw_terminal(sim, out)
                    shown = sim.club_line()
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


def main(argv):
    opts = parse_args(argv)
    if isinstance(opts, str):
        sys.stderr.write("sim.py: " + opts + " (--help lists the options)\n")
        return 2
    if opts["help"]:
        sys.stdout.write(USAGE)
        return 0
    keys = opts["keys"]
    if opts["keys_file"]:
        with open(opts["keys_file"]) as f:
            keys = f.read()
    layout = "buttons" if opts["buttons"] else "keypad"
    if keys is None:
        term = terminal_mode()
        if term is None:
            sys.stderr.write("sim.py: the interactive simulator needs a terminal;"
                             " scripted runs pass --keys (--help)\n")
            return 2
        sim = Sim(opts["root"], layout, opts["lang"], opts["panel"], opts["club"])
        interactive(sim, term)
        return 0
    sim = Sim(opts["root"], layout, opts["lang"], opts["panel"], opts["club"])
    frames = []
    for ch in keys:
        if ch == "|":
            frames.append(sim.words())
        elif ch == "." and sim.club is not None:
            idle_second(sim)
        else:
            sim.press(ch)
            if sim.club is not None:
                sim.step()
    text = "\n".join(sim.screen()) + "\n"
    if sim.club is not None:
        text += sim.club_line() + "\n"
    if opts["dump"]:
        with open(opts["dump"], "w") as f:
            f.write(text)
    elif not opts["state"]:
        sys.stdout.write(text)
    if opts["state"]:
        sys.stdout.write(state_json(sim) + "\n")
    if opts["texts"]:
        from jsonout import dumps

        frames.append(sim.words())
        with open(opts["texts"], "w") as f:
            f.write(dumps(frames) + "\n")
    if opts["png"]:
        write_png(opts["png"], sim.display)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
