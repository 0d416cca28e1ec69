"""SSD1306 / SH1106 128x64 OLED over I2C that sends only what changed.

`Display` is a framebuf.FrameBuffer (MONO_VLSB): draw with fill/text/pixel/rect/blit, then
call show(). A shadow copy of the panel RAM lets show() send, per 8-pixel page, only the
columns from the first to the last changed byte. Both chips are driven in page addressing
mode; the SH1106 has 132 columns of RAM with the visible 128 starting at column 2.
"""

import framebuf

from hw.compat import const, sleep_ms

_WIDTH = const(128)
_HEIGHT = const(64)
_PAGES = const(8)

# I2C control bytes: Co=0, D/C# selects a command stream or a data stream.
_CTRL_CMD = const(0x00)
_CTRL_DATA = const(0x40)

_SET_CONTRAST = const(0x81)
_SET_NORM_INV = const(0xA6)
_SET_DISP = const(0xAE)
_SET_SEG_REMAP = const(0xA0)
_SET_COM_OUT_DIR = const(0xC0)
_SET_PAGE = const(0xB0)
_SET_COL_LO = const(0x00)
_SET_COL_HI = const(0x10)

# Command streams (leading 0x00 control byte) sent at init. Both leave the display off;
# orientation, RAM clear and display-on follow.
_INIT_SSD1306 = (
    b"\x00"
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
    b"\x00"
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


class Display(framebuf.FrameBuffer):
    """A 128x64 framebuffer whose show() sends the changed columns of each page.

    i2c: anything with writeto(addr, buf); writevto(addr, bufs) is used when present.
    chip: "ssd1306" or "sh1106". reset: optional callable pin, reset(0)/reset(1).
    rotate: True turns the picture by 180 degrees (panel mounted upside down).

    bytes_sent counts every byte given to the bus (control, command and data bytes, not the
    I2C address byte); last_sent holds what the last show() or show_full() sent.
    """

    width = _WIDTH
    height = _HEIGHT

    def __init__(self, i2c, addr=0x3C, chip="ssd1306", reset=None, rotate=False):
        if chip == "ssd1306":
            self._col0 = 0
        elif chip == "sh1106":
            self._col0 = _COL_OFFSET_SH1106
        else:
            raise ValueError("chip must be ssd1306 or sh1106")
        self.chip = chip
        self.buffer = bytearray(_WIDTH * _PAGES)
        super().__init__(self.buffer, _WIDTH, _HEIGHT, framebuf.MONO_VLSB)
        self._i2c = i2c
        self._addr = addr
        self._reset = reset
        self._rotate = bool(rotate)
        # Everything show() needs is allocated here, once.
        self._shadow = bytearray(_WIDTH * _PAGES)
        fb = memoryview(self.buffer)
        sh = memoryview(self._shadow)
        self._fb_pages = [fb[p * _WIDTH : (p + 1) * _WIDTH] for p in range(_PAGES)]
        self._sh_pages = [sh[p * _WIDTH : (p + 1) * _WIDTH] for p in range(_PAGES)]
        self._cmd = bytearray(4)  # control byte + up to 3 command bytes
        cmd = memoryview(self._cmd)
        self._cmd2 = cmd[:2]
        self._cmd3 = cmd[:3]
        self._vector = hasattr(i2c, "writevto")
        self._wlist = [b"\x40", None]
        # Without writevto the control byte must sit right before the data: copy via _tx.
        self._tx = memoryview(bytearray(1 if self._vector else _WIDTH + 1))
        self._tx[0] = _CTRL_DATA
        self._full = True
        self.bytes_sent = 0
        self.last_sent = 0
        self.init_display()

    # -- commands -------------------------------------------------------------------------

    def _write(self, buf):
        self._i2c.writeto(self._addr, buf)
        self.bytes_sent += len(buf)

    def write_cmd(self, c):
        cmd = self._cmd2
        cmd[0] = _CTRL_CMD
        cmd[1] = c
        self._write(cmd)

    def _write_cmd_arg(self, c, arg):
        cmd = self._cmd3
        cmd[0] = _CTRL_CMD
        cmd[1] = c
        cmd[2] = arg
        self._write(cmd)

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
        self._write(_INIT_SH1106 if self._col0 else _INIT_SSD1306)
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
        self._write_cmd_arg(_SET_CONTRAST, value & 0xFF)

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
        cmd[0] = _CTRL_CMD
        cmd[1] = _SET_PAGE | p
        cmd[2] = _SET_COL_LO | (col & 0x0F)
        cmd[3] = _SET_COL_HI | (col >> 4)
        self._i2c.writeto(self._addr, cmd)
        src = pages[p]
        if start or end != _WIDTH:
            src = src[start:end]  # the one small allocation per partial page
        n = end - start
        if self._vector:
            wl = self._wlist
            wl[1] = src
            self._i2c.writevto(self._addr, wl)
            wl[1] = None
        else:
            tx = self._tx
            tx[1 : n + 1] = src
            self._i2c.writeto(self._addr, tx if n == _WIDTH else tx[: n + 1])
        # Only after the write went through: a failed write is retried by the next show().
        if pages is self._fb_pages:
            self._sh_pages[p][start:end] = src
        sent = 5 + n  # 4 command-stream bytes, 1 data control byte, n data bytes
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
        sent = 0
        for p in range(_PAGES):
            sent += self._send(self._fb_pages, p, 0, _WIDTH)
        self._full = False
        self.last_sent = sent
        return sent
