"""The scorekeeper in a terminal: the firmware's own app in the MicroPython unix port.

    make sim                          # keypad layout, flash kept in sim_flash/
    make sim ARGS="--buttons"         # the four-button layout
    micropython tools/sim.py --keys "a12b34" --dump screen.txt --png screen.png

The 128x64 panel is drawn with Unicode quadrant blocks (2x2 pixels per
character). The real display driver runs against an I2C bus that only counts
bytes, so the figures are those of the board. Flash is a folder, so a
restarted simulator resumes the match.

Keys (keypad layout): a b c d = A-D (players), 1-6 ranks A 10 K Q J 9,
7 8 9 0 = suits, * undo, # OK/menu, Enter = #, Backspace = *;
long presses: z = long * (redo), m = long # (menu).
Four buttons: w up, s down, e or Enter OK, q or Backspace back;
W S E Q = the same held long.
Scripted keys use the same letters; "." is reserved for one idle second (the
simulator does not model time yet: it is skipped); "|" notes the words on
screen for --texts. An argument longer than 255 bytes stops the unix port
("FATAL: uncaught NLR"): pass long scripts with --keys-file.
Ctrl-C or x quits.

Test hooks (scripted runs):
  --state         print the match as JSON (sixtysix/snapshot.py, sorted keys) after
                  the keys, instead of the screen (use --dump for the screen then)
  --texts FILE    write, as JSON, the words drawn on screen at each "|" in the keys
                  and after the last key: a list of frames, each a list of strings in
                  reading order (top to bottom, left to right)
"""

import sys

SIM_ROOT = "sim_flash"

# Index: bit 0 top left, 1 top right, 2 bottom left, 3 bottom right.
QUADS = (" \u2598\u259d\u2580\u2596\u258c\u259e\u259b"
         "\u2597\u259a\u2590\u259c\u2584\u2599\u259f\u2588")

PAD_KEYS = {"a": "A", "b": "B", "c": "C", "d": "D", "*": "*", "#": "#", "\r": "#", "\n": "#",
            "\x7f": "*", "\x08": "*"}
PAD_LONG = {"z": "*", "m": "#"}
BUTTON_KEYS = {"w": "UP", "s": "DOWN", "e": "OK", "\r": "OK", "\n": "OK", "q": "BACK",
               "\x7f": "BACK", "\x08": "BACK"}
BUTTON_LONG = {"W": "UP", "S": "DOWN", "E": "OK", "Q": "BACK"}


def key_of(layout, ch):
    """(key name, long press) for a keyboard character, (None, False) if it is no key.
    The browser page (web/) uses it too, so both speak the same keys."""
    if layout == "keypad":
        name = PAD_KEYS.get(ch) or (ch if ch and ch in "0123456789" else None)
        if name is None and ch in PAD_LONG:
            return PAD_LONG[ch], True
        return name, False
    name = BUTTON_KEYS.get(ch)
    if name is None and ch in BUTTON_LONG:
        return BUTTON_LONG[ch], True
    return name, False


class CountingBus:
    """An I2C bus that accepts everything and counts the bytes (the address byte aside)."""

    def __init__(self):
        self.sent = 0

    def writeto(self, addr, buf):
        self.sent += len(buf)

    def writevto(self, addr, bufs):
        for b in bufs:
            self.sent += len(b)


def frame_text(fb):
    """The panel as 32 lines of 64 quadrant characters."""
    lines = []
    for row in range(0, 64, 2):
        chars = []
        for col in range(0, 128, 2):
            q = fb.pixel(col, row) | (fb.pixel(col + 1, row) << 1)
            q |= (fb.pixel(col, row + 1) << 2) | (fb.pixel(col + 1, row + 1) << 3)
            chars.append(QUADS[q])
        lines.append("".join(chars))
    return lines


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
    def __init__(self, root=SIM_ROOT, layout="keypad", lang=None):
        import os

        from app.session import Session
        from hw.display import Display
        from hw.storage import Store
        from ui.app import App
        from ui.text import board_font

        self.bus = CountingBus()
        self.display = Display(self.bus)
        self.store = Store(root, os)
        self.session = Session(self.store)
        self.app = App(self.display, self.session, board_font(), layout)
        self.app.boot()
        if lang:
            self.app.set_lang(lang)
        self.layout = layout
        self.presses = 0
        self.sent = []  # bytes sent to the panel for each key press
        self.drawn = []  # (y, x, text) drawn in the last frame
        self._watch_text()
        self.app.render()  # the screen the players left, before any key

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
        app_render = self.app.render

        def render():
            if self.app.dirty:
                del drawn[:]
            return app_render()

        self.app.render = render

    def words(self):
        """The strings on screen, top to bottom and left to right."""
        return [s for _y, _x, s in sorted(self.drawn)]

    def press(self, ch):
        """One keyboard character; returns False for a character that is not a key."""
        name, long = key_of(self.layout, ch)
        if name is None:
            return False
        before = self.bus.sent
        self.app.key(name, long)
        self.app.render()
        self.presses += 1
        self.sent.append(self.bus.sent - before)
        return True

    def screen(self):
        return frame_text(self.display)


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


def interactive(sim):
    import select
    import termios

    out = sys.stdout
    fd = 0
    old = termios.tcgetattr(fd)
    termios.setraw(fd)
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    try:
        out.write("\x1b[2J")
        _draw_terminal(sim, out)
        while True:
            if not poll.poll(1000):
                continue  # a blocking wait: the loop sleeps until a key arrives
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


def state_json(sim):
    from jsonout import dumps
    from sixtysix.snapshot import snapshot

    return dumps(snapshot(sim.app.match))


def main(argv):
    layout = "buttons" if "--buttons" in argv else "keypad"
    state = "--state" in argv
    root = SIM_ROOT
    keys = None
    dump = None
    png = None
    lang = None
    texts = None
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("--keys", "--keys-file", "--flash", "--dump", "--png", "--lang", "--texts"):
            i += 1
            v = argv[i]
            if a == "--keys":
                keys = v
            elif a == "--keys-file":
                with open(v) as f:
                    keys = f.read()
            elif a == "--flash":
                root = v
            elif a == "--dump":
                dump = v
            elif a == "--png":
                png = v
            elif a == "--texts":
                texts = v
            else:
                lang = v
        i += 1
    sim = Sim(root, layout, lang)
    if keys is None:
        interactive(sim)
        return 0
    frames = []
    for ch in keys:
        if ch == "|":
            frames.append(sim.words())
        else:
            sim.press(ch)
    text = "\n".join(sim.screen()) + "\n"
    if dump:
        with open(dump, "w") as f:
            f.write(text)
    elif not state:
        sys.stdout.write(text)
    if state:
        sys.stdout.write(state_json(sim) + "\n")
    if texts:
        from jsonout import dumps

        frames.append(sim.words())
        with open(texts, "w") as f:
            f.write(dumps(frames) + "\n")
    if png:
        write_png(png, sim.display)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
