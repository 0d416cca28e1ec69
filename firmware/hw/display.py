"""SSD1306 / SH1106 128x64 OLED that sends only what changed, over I2C or SPI.

`Panel` is the controller's protocol: a framebuf.FrameBuffer (MONO_VLSB) to draw on with
fill/text/pixel/rect/blit, then show(). A shadow copy of the panel RAM lets show() send, per
8-pixel page, only the columns from the first to the last changed byte. Both chips are driven
in page addressing mode; the SH1106 has 132 columns of RAM with the visible 128 starting at
column 2.

The bus is apart, as micropython-lib's ssd1306.py keeps it in write_cmd/write_data: a
subclass's send(dc, buf) puts one stream on the bus, command bytes (dc 0) or display RAM
bytes (dc 1), and returns how many bytes that took. `Display` is the panel on I2C (below);
`SPIDisplay` (hw/display_spi.py) the 7-pin SPI module, imported only by boards wired so.

A panel that does not answer (the bus raises OSError: ENODEV when nobody acknowledges,
ETIMEDOUT when the lines are held, on the ESP32) raises nothing here: `lost` is set, and
the next show() brings the panel up again (its init sequence) and sends the whole frame,
or returns 0 while it still does not answer. So a loose connector costs the picture, never
the loop; the boot keeps trying a panel absent from the start (startup.py).

Each class builds itself: Display(i2c, addr, chip, reset, rotate) and SPIDisplay(spi, dc,
cs, chip, reset, rotate) set up their bus, then Panel.__init__ allocates what show() needs
and brings the panel up (`lost` when it does not answer). What runs only then (the page
views, the reset pulse, the chip's init sequence) lives in hw/display_build.py: __init__
imports it, and the boot drops it again (on the board every module's code is heap), leaving
here only what runs while the app does: show(), power, contrast, invert. A lost panel's
show() loads it again, and it stays loaded from then on.
"""

import framebuf

from compat import const

# The bus and pin types, for the type check only: MicroPython compiles this block away (and
# evaluates no annotation), CPython skips it (the annotations naming them are strings).
_TYPE_CHECKING = const(0)
if _TYPE_CHECKING:
    from machine import I2C, Pin
    from typing import Callable

_WIDTH = const(128)
_HEIGHT = const(64)
_PAGES = const(8)

_SET_CONTRAST = const(0x81)
_SET_NORM_INV = const(0xA6)
_SET_DISP = const(0xAE)
_SET_PAGE = const(0xB0)
_SET_COL_LO = const(0x00)
_SET_COL_HI = const(0x10)


class Panel(framebuf.FrameBuffer):
    """A 128x64 framebuffer whose show() sends the changed columns of each page.

    chip: "ssd1306" or "sh1106". reset: optional callable pin, reset(0)/reset(1).
    rotate: True turns the picture by 180 degrees (panel mounted upside down). A subclass
    brings the bus: send(dc, buf) (see above), ready before it calls Panel.__init__, which
    sends the init sequence.

    bytes_sent counts every byte given to the bus (control, command and data bytes, not the
    I2C address byte); last_sent holds what the last show() or show_full() sent. lost: the
    panel did not answer the last write (see above).
    """

    # The bus, a subclass's method (see above); only declared here, as no Panel is built bare.
    send: "Callable[[int, bytearray | memoryview], int]"

    def __init__(self, chip="ssd1306", reset=None, rotate=False):
        from hw.display_build import first_column, init_display, pages  # boot-only: see above

        self._col0 = first_column(chip)  # the first visible column of the panel RAM
        buf = bytearray(_WIDTH * _PAGES)
        super().__init__(buf, _WIDTH, _HEIGHT, framebuf.MONO_VLSB)
        self.buffer = buf  # the frame drawn on
        self._reset: "Pin | None" = reset  # the reset pin and the rotation: for a re-init
        self._rotate = bool(rotate)
        # Everything show() needs is allocated here, once.
        self._shadow = bytearray(_WIDTH * _PAGES)  # what the panel RAM holds
        self._fb_pages = pages(buf)  # a view per page of each
        self._sh_pages = pages(self._shadow)
        self._cmd = bytearray(3)  # up to 3 command bytes: sent whole, or as _cmd1 / _cmd2
        cmd = memoryview(self._cmd)
        self._cmd1 = cmd[:1]
        self._cmd2 = cmd[:2]
        self._full = True  # the next show() sends the whole frame
        self.bytes_sent = 0
        self.last_sent = 0
        self.lost = False
        try:
            init_display(self)
        except OSError:  # no panel answers: the next show() tries again
            self.lost = True

    # -- commands -------------------------------------------------------------------------

    def write_cmd(self, c):
        self._cmd[0] = c
        self._command(self._cmd1)

    def _command(self, buf):
        try:
            self.bytes_sent += self.send(0, buf)
        except OSError:
            self.lost = True  # the next show() brings the panel up again

    def power(self, on):
        """Panel on or off; off keeps the panel RAM, so no redraw is needed after on."""
        self.write_cmd(_SET_DISP | (1 if on else 0))

    def poweroff(self):
        self.power(False)

    def poweron(self):
        self.power(True)

    def contrast(self, value):
        cmd = self._cmd
        cmd[0] = _SET_CONTRAST
        cmd[1] = value & 0xFF
        self._command(self._cmd2)

    def invert(self, flag):
        self.write_cmd(_SET_NORM_INV | (1 if flag else 0))

    def invalidate(self):
        """Forget what the panel holds: the next show() sends the whole frame."""
        self._full = True

    # -- frame transfer -------------------------------------------------------------------

    def _send(self, pages, p, start, end):
        """Send columns start..end-1 of page p from pages[p]; returns bytes sent."""
        col = start + self._col0
        cmd = self._cmd
        cmd[0] = _SET_PAGE | p
        cmd[1] = _SET_COL_LO | (col & 0x0F)
        cmd[2] = _SET_COL_HI | (col >> 4)
        sent = self.send(0, cmd)
        src = pages[p]
        if start or end != _WIDTH:
            src = src[start:end]  # the one small allocation per partial page
        sent += self.send(1, src)
        # Only after the write went through: a failed write is retried by the next show().
        if pages is self._fb_pages:
            self._sh_pages[p][start:end] = src
        self.bytes_sent += sent
        return sent

    def show(self):
        """Send the changed span of each changed page (everything after invalidate()).
        Returns the bytes sent: 0 while the panel does not answer (see above)."""
        try:
            if self.lost:  # gone from the bus: its init sequence first (a reset panel is dark)
                from hw.display_build import init_display  # boot-only code, loaded again

                self.lost = False
                init_display(self)
                if self.lost:
                    return 0
            return self._frame()
        except OSError:
            self.lost = True
            self._full = True
            return 0

    def _frame(self):
        full = self._full
        fb_pages = self._fb_pages
        sh_pages = self._sh_pages
        buf = self.buffer
        shadow = self._shadow
        sent = 0
        for p in range(_PAGES):
            start = 0
            end = _WIDTH
            if not full:
                if fb_pages[p] == sh_pages[p]:  # whole-page compare without allocating
                    continue
                base = p * _WIDTH
                while buf[base + start] == shadow[base + start]:
                    start += 1
                while buf[base + end - 1] == shadow[base + end - 1]:
                    end -= 1
            sent += self._send(fb_pages, p, start, end)
        self._full = False
        self.last_sent = sent
        return sent

    def show_full(self):
        """Send the whole frame regardless of the shadow (for comparison and recovery)."""
        self._full = True
        return self.show()


class Display(Panel):
    """The panel on I2C: a control byte (0x00 commands, 0x40 data: D/C# is bit 6) opens
    each stream.

    i2c: anything with writeto(addr, buf); writevto(addr, bufs) is used when present, so the
    control byte needs no copy of the data behind it. addr: the panel's I2C address. chip,
    reset, rotate: as Panel's.
    """

    def __init__(self, i2c, addr=0x3C, chip="ssd1306", reset=None, rotate=False):
        self._i2c: "I2C" = i2c
        self._addr = addr
        # [control byte, stream] per D/C# (Co=0), for writevto.
        self._lists = ([b"\x00", None], [b"\x40", None]) if hasattr(i2c, "writevto") else None
        if self._lists is None:
            # The control byte must sit right before the bytes: they are copied into _tx,
            # and a command stream of 1-3 bytes goes out through a view made here.
            tx = memoryview(bytearray(_WIDTH + 1))
            self._tx = tx
            self._heads = (tx[:2], tx[:3], tx[:4])
        super().__init__(chip, reset, rotate)

    def send(self, dc, buf):
        n = len(buf)
        if self._lists:
            wl = self._lists[dc]
            wl[1] = buf
            self._i2c.writevto(self._addr, wl)
            wl[1] = None
        else:
            tx = self._tx
            tx[0] = 0x40 if dc else 0x00
            tx[1 : n + 1] = buf
            if n < 4:
                tx = self._heads[n - 1]
            elif n < _WIDTH:
                tx = tx[: n + 1]
            self._i2c.writeto(self._addr, tx)
        return n + 1  # the control byte, then the stream
