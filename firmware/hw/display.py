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
"""

import framebuf

from hw.compat import const, sleep_ms

_WIDTH = const(128)
_HEIGHT = const(64)
_PAGES = const(8)

_SET_CONTRAST = const(0x81)
_SET_NORM_INV = const(0xA6)
_SET_DISP = const(0xAE)
_SET_SEG_REMAP = const(0xA0)
_SET_COM_OUT_DIR = const(0xC0)
_SET_PAGE = const(0xB0)
_SET_COL_LO = const(0x00)
_SET_COL_HI = const(0x10)

# Command streams sent at init. Both leave the display off; orientation, RAM clear and
# display-on follow.
_INIT_SSD1306 = (
    b"\xae"  # display off
    b"\xd5\x80"  # clock divide / oscillator
    b"\xa8\x3f"  # multiplex 64
    b"\xd3\x00"  # display offset 0
    b"\x40"  # start line 0
    b"\x8d\x14"  # charge pump on (modules have no external VCC)
    b"\x20\x02"  # page addressing mode, same as the SH1106
    b"\xda\x12"  # COM pins: alternative, for 64 rows
    b"\x81\xcf"  # contrast
    b"\xd9\xf1"  # pre-charge for the internal pump
    b"\xdb\x30"  # VCOMH deselect level
    b"\xa4"  # show RAM content
    b"\xa6"  # not inverted
)
_INIT_SH1106 = (
    b"\xae"  # display off
    b"\xd5\x80"  # clock divide / oscillator
    b"\xa8\x3f"  # multiplex 64
    b"\xd3\x00"  # display offset 0
    b"\x40"  # start line 0
    b"\xad\x8b"  # DC-DC converter on (the SH1106 charge pump)
    b"\x32"  # pump output 8.0 V
    b"\xda\x12"  # COM pads: alternative
    b"\x81\x80"  # contrast
    b"\xd9\x22"  # pre-charge (datasheet default)
    b"\xdb\x35"  # VCOM deselect level (datasheet default)
    b"\xa4"  # show RAM content
    b"\xa6"  # not inverted
)

_COL_OFFSET_SH1106 = const(2)


class Panel(framebuf.FrameBuffer):
    """A 128x64 framebuffer whose show() sends the changed columns of each page.

    chip: "ssd1306" or "sh1106". reset: optional callable pin, reset(0)/reset(1).
    rotate: True turns the picture by 180 degrees (panel mounted upside down).
    A subclass brings the bus: send(dc, buf) (see above), and calls Panel.__init__ once the
    bus is ready.

    bytes_sent counts every byte given to the bus (control, command and data bytes, not the
    I2C address byte); last_sent holds what the last show() or show_full() sent.
    """

    def __init__(self, chip="ssd1306", reset=None, rotate=False):
        if chip == "ssd1306":
            self._col0 = 0
        elif chip == "sh1106":
            self._col0 = _COL_OFFSET_SH1106
        else:
            raise ValueError("chip must be ssd1306 or sh1106")
        self.buffer = bytearray(_WIDTH * _PAGES)
        super().__init__(self.buffer, _WIDTH, _HEIGHT, framebuf.MONO_VLSB)
        self._reset = reset
        self._rotate = bool(rotate)
        # Everything show() needs is allocated here, once.
        self._shadow = bytearray(_WIDTH * _PAGES)
        fb = memoryview(self.buffer)
        sh = memoryview(self._shadow)
        self._fb_pages = [fb[p * _WIDTH : (p + 1) * _WIDTH] for p in range(_PAGES)]
        self._sh_pages = [sh[p * _WIDTH : (p + 1) * _WIDTH] for p in range(_PAGES)]
        self._cmd = bytearray(3)  # up to 3 command bytes: sent whole, or as _cmd1 / _cmd2
        cmd = memoryview(self._cmd)
        self._cmd1 = cmd[:1]
        self._cmd2 = cmd[:2]
        self._full = True
        self.bytes_sent = 0
        self.last_sent = 0
        self.init_display()

    def send(self, dc, buf):
        raise NotImplementedError  # the bus: a subclass's

    # -- commands -------------------------------------------------------------------------

    def write_cmd(self, c):
        self._cmd[0] = c
        self.bytes_sent += self.send(0, self._cmd1)

    def reset_pulse(self):
        """Pulse the reset line (needed on boards like the Heltec WiFi Kit 32)."""
        r = self._reset
        if r is None:
            return
        r(1)
        sleep_ms(1)
        r(0)
        sleep_ms(10)  # datasheets ask for >= 3 us low; be generous
        r(1)
        sleep_ms(10)

    def init_display(self):
        """Reset (if wired), configure, clear the panel RAM and switch the panel on."""
        self.reset_pulse()
        self.bytes_sent += self.send(0, _INIT_SH1106 if self._col0 else _INIT_SSD1306)
        if self._rotate:
            self.write_cmd(_SET_SEG_REMAP)
            self.write_cmd(_SET_COM_OUT_DIR)
        else:
            self.write_cmd(_SET_SEG_REMAP | 1)  # column 127 drives SEG0
            self.write_cmd(_SET_COM_OUT_DIR | 8)  # scan COM63 to COM0
        # Clear the panel before it lights up (SH1106 RAM powers up random); the zeroed
        # shadow is the source, so the caller's drawing survives a re-init.
        sh = self._shadow
        for i in range(len(sh)):
            sh[i] = 0
        for p in range(_PAGES):
            self._send(self._sh_pages, p, 0, _WIDTH)
        self.power(True)
        self._full = True

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
        self.bytes_sent += self.send(0, self._cmd2)

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
        """Send the changed span of each changed page (everything after invalidate())."""
        full = self._full
        fb_pages = self._fb_pages
        sh_pages = self._sh_pages
        buf = self.buffer
        shadow = self._shadow
        sent = 0
        for p in range(_PAGES):
            if full:
                sent += self._send(fb_pages, p, 0, _WIDTH)
                continue
            if fb_pages[p] == sh_pages[p]:  # whole-page compare without allocating
                continue
            base = p * _WIDTH
            i = base
            while buf[i] == shadow[i]:
                i += 1
            j = base + _WIDTH - 1
            while buf[j] == shadow[j]:
                j -= 1
            sent += self._send(fb_pages, p, i - base, j - base + 1)
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
    control byte needs no copy of the data behind it.
    """

    def __init__(self, i2c, addr=0x3C, chip="ssd1306", reset=None, rotate=False):
        self._i2c = i2c
        self._addr = addr
        # I2C control bytes: Co=0, D/C# selects a command stream or a data stream.
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
