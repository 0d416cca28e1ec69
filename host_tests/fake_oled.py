"""A fake I2C bus with one SSD1306 or SH1106 on it, decoding what a driver sends.

It models the controller RAM (128 or 132 columns x 8 pages), the I2C control bytes, the
commands and their argument counts, and the page/horizontal/vertical addressing modes, so a
test can compare the picture the panel would show with the driver's framebuffer.
Runs on CPython and on MicroPython. The SPI module: fake_oled_spi.py.
"""

SSD1306 = "ssd1306"
SH1106 = "sh1106"

# command byte -> number of argument bytes, besides the ranges decoded in _command()
# fmt: off
_ARGS = {
    SSD1306: {
        0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x2E: 0, 0x2F: 0,
        0x81: 1, 0x8D: 1, 0xA0: 0, 0xA1: 0, 0xA3: 2, 0xA4: 0, 0xA5: 0, 0xA6: 0, 0xA7: 0,
        0xA8: 1, 0xAE: 0, 0xAF: 0, 0xC0: 0, 0xC8: 0, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1,
        0xDB: 1, 0xE3: 0,
    },
    SH1106: {
        0x30: 0, 0x31: 0, 0x32: 0, 0x33: 0,
        0x81: 1, 0xA0: 0, 0xA1: 0, 0xA4: 0, 0xA5: 0, 0xA6: 0, 0xA7: 0, 0xA8: 1, 0xAD: 1,
        0xAE: 0, 0xAF: 0, 0xC0: 0, 0xC8: 0, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
        0xE0: 0, 0xEE: 0, 0xE3: 0,
    },
}
# fmt: on

_GARBAGE = 0xA5  # what the RAM holds at power-up in this model


def _reverse_bits(b):
    r = 0
    for _ in range(8):
        r = (r << 1) | (b & 1)
        b >>= 1
    return r


class FakePanelNoVector:
    """I2C bus object with writeto() only (some I2C implementations lack writevto)."""

    def __init__(self, chip=SSD1306, addr=0x3C, events=None):
        if chip not in _ARGS:
            raise ValueError(chip)
        self.chip = chip
        self.addr = addr
        self.ncols = 132 if chip == SH1106 else 128
        self.offset = 2 if chip == SH1106 else 0
        self.ram = [bytearray([_GARBAGE] * self.ncols) for _ in range(8)]
        self.events = events if events is not None else []
        self.commands = []  # (command, args) in order
        self.unknown = []  # command bytes this chip does not know
        self.transactions = 0
        self.bytes_in = 0  # every byte after the address byte
        self.data_bytes = 0
        self.overruns = 0  # data written past the last RAM column
        self.in_reset = False
        self.writes_in_reset = 0
        self.fail_at = None  # transaction number (1-based, counted from now) that fails
        self._pending = None
        self._wrapped = False
        self.power_on_reset()

    def power_on_reset(self):
        """Registers to their datasheet reset values (RAM is left as it is)."""
        self.on = False
        self.contrast = 0x80 if self.chip == SH1106 else 0x7F
        self.inverted = False
        self.entire_on = False
        self.seg_remap = 0
        self.com_reverse = False
        self.mux = 63
        self.display_offset = 0
        self.start_line = 0
        self.charge_pump = 0x10 if self.chip == SSD1306 else None
        self.dcdc = 0x8B if self.chip == SH1106 else None
        self.mode = 2  # SSD1306: page addressing mode after reset
        self.page = 0
        self.col = 0
        self.col_start, self.col_end = 0, self.ncols - 1
        self.page_start, self.page_end = 0, 7
        self._pending = None

    # -- the bus ---------------------------------------------------------------------------

    def writeto(self, addr, buf, stop=True):
        return self._transaction(addr, bytes(buf))

    def _accept(self, kind, data):
        """Count one bus transaction; False if the controller ignores it (held in reset)."""
        if self.fail_at is not None:
            self.fail_at -= 1
            if self.fail_at == 0:
                self.fail_at = None
                raise OSError(116)  # ETIMEDOUT
        if self.in_reset:
            self.writes_in_reset += 1
            return False
        self.transactions += 1
        self.bytes_in += len(data)
        self.events.append((kind, len(data)))
        return True

    def _transaction(self, addr, data):
        if addr != self.addr:
            raise OSError(19)  # no ACK: ENODEV, as on the ESP32
        if not self._accept("i2c", data):
            return len(data)
        i = 0
        n = len(data)
        while i < n:
            ctrl = data[i]
            i += 1
            is_data = ctrl & 0x40
            if ctrl & 0x80:  # Co=1: one byte, then another control byte
                if i < n:
                    self._byte(is_data, data[i])
                    i += 1
                continue
            while i < n:  # Co=0: the rest is one stream
                self._byte(is_data, data[i])
                i += 1
        return len(data)

    def reset_pin(self, value):
        """The panel's RES# line, usable as the driver's reset callable."""
        self.events.append(("reset", value))
        if not value:
            self.in_reset = True
            self.power_on_reset()
        else:
            self.in_reset = False

    # -- the controller --------------------------------------------------------------------

    def _byte(self, is_data, b):
        if is_data:
            self._data(b)
        elif self._pending is not None:
            cmd, need, args = self._pending
            args.append(b)
            if len(args) == need:
                self._pending = None
                self._command(cmd, tuple(args))
        else:
            need = self._nargs(b)
            if need is None:
                self.unknown.append(b)
            elif need:
                self._pending = (b, need, [])
            else:
                self._command(b, ())

    def _nargs(self, b):
        if b < 0x20 or 0x40 <= b <= 0x7F or 0xB0 <= b <= 0xB7:
            return 0
        return _ARGS[self.chip].get(b)

    def _command(self, c, args):
        self.commands.append((c, args))
        self._wrapped = False
        page_cmds = self.chip == SH1106 or self.mode == 2
        if c < 0x10:
            if page_cmds:
                self.col = (self.col & 0xF0) | c
        elif c < 0x20:
            if page_cmds:
                self.col = (self.col & 0x0F) | ((c & 0x0F) << 4)
        elif 0xB0 <= c <= 0xB7:
            if page_cmds:
                self.page = c & 7
        elif 0x40 <= c <= 0x7F:
            self.start_line = c & 0x3F
        elif c == 0x20:
            self.mode = args[0] & 3
        elif c == 0x21:
            self.col_start, self.col_end = args[0] & 0x7F, args[1] & 0x7F
            self.col = self.col_start
        elif c == 0x22:
            self.page_start, self.page_end = args[0] & 7, args[1] & 7
            self.page = self.page_start
        elif c == 0x81:
            self.contrast = args[0]
        elif c == 0x8D:
            self.charge_pump = args[0]
        elif c == 0xAD:
            self.dcdc = args[0]
        elif c in (0xA0, 0xA1):
            self.seg_remap = c & 1
        elif c in (0xA4, 0xA5):
            self.entire_on = bool(c & 1)
        elif c in (0xA6, 0xA7):
            self.inverted = bool(c & 1)
        elif c == 0xA8:
            self.mux = args[0] & 0x3F
        elif c in (0xAE, 0xAF):
            self.on = bool(c & 1)
        elif c in (0xC0, 0xC8):
            self.com_reverse = bool(c & 8)
        elif c == 0xD3:
            self.display_offset = args[0] & 0x3F

    def _data(self, b):
        self.data_bytes += 1
        if self.col >= self.ncols:
            self.overruns += 1
            return
        self.ram[self.page][self.col] = b
        if self.chip == SH1106:
            self.col += 1  # stops past the end; later bytes are counted as overruns
        elif self.mode == 2:  # page mode: wraps within the page
            if self._wrapped:
                self.overruns += 1
            self.col += 1
            if self.col > 127:
                self.col = 0
                self._wrapped = True  # a further byte would land on column 0
        elif self.mode == 0:  # horizontal
            self.col += 1
            if self.col > self.col_end:
                self.col = self.col_start
                self.page = self.page + 1 if self.page < self.page_end else self.page_start
        elif self.mode == 1:  # vertical
            self.page += 1
            if self.page > self.page_end:
                self.page = self.page_start
                self.col = self.col + 1 if self.col < self.col_end else self.col_start
        else:
            raise ValueError("invalid addressing mode")

    # -- what the viewer sees -------------------------------------------------------------

    def visible(self, upside_down=False):
        """The visible 128x64 area as a MONO_VLSB frame, as someone facing the panel sees it.

        Modules are built so that segment remap on + COM scan reversed is upright; both off
        is the same picture turned by 180 degrees. Other combinations are mirror images,
        which no driver here should produce. upside_down: the module is mounted turned.
        """
        off = self.offset
        if self.seg_remap and self.com_reverse:
            turned = False
        elif not self.seg_remap and not self.com_reverse:
            turned = True
        else:
            raise ValueError("mirrored picture")
        if upside_down:
            turned = not turned
        out = bytearray(1024)
        for p in range(8):
            if turned:
                row = self.ram[7 - p]
                for x in range(128):
                    out[p * 128 + x] = _reverse_bits(row[off + 127 - x])
            else:
                row = self.ram[p]
                for x in range(128):
                    out[p * 128 + x] = row[off + x]
        return out

    def hidden_columns(self):
        """RAM bytes outside the visible area (the SH1106's columns 0, 1, 130, 131)."""
        out = []
        for p in range(8):
            row = self.ram[p]
            for c in range(self.ncols):
                if c < self.offset or c >= self.offset + 128:
                    out.append(row[c])
        return out


class FakePanel(FakePanelNoVector):
    """I2C bus object: writeto() and writevto() feed the modelled controller."""

    def writevto(self, addr, bufs, stop=True):
        whole = b""
        for b in bufs:
            whole += bytes(b)
        return self._transaction(addr, whole)
