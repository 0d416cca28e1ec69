"""Building the panel on its bus and bringing it up: boot-only code, apart from the driver.

hw/display.py keeps what runs while the app does (show(), power, contrast, invert); this
module holds what runs once: the frame buffers and their views, the reset pulse and the
controller's init sequence. parts.py builds the board's display with it at boot, and both
are dropped from RAM after the boot. The simulator, the fuzz and the tests build theirs
here too.

    make_i2c_display(i2c, addr=0x3C, chip="ssd1306", reset=None, rotate=False)
    make_spi_display(spi, dc, cs, chip="ssd1306", reset=None, rotate=False)

chip: "ssd1306" or "sh1106". reset: optional callable pin, reset(0)/reset(1).
rotate: True turns the picture by 180 degrees (panel mounted upside down).
"""

from compat import const, sleep_ms

_WIDTH = const(128)
_PAGES = const(8)

_SET_SEG_REMAP = const(0xA0)
_SET_COM_OUT_DIR = const(0xC0)

_COL_OFFSET_SH1106 = const(2)

# Command streams sent at init (constants: no globals, no names). Both leave the display
# off; orientation, RAM clear and display-on follow.
_INIT_SSD1306 = const(
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
_INIT_SH1106 = const(
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


def make_i2c_display(i2c, addr=0x3C, chip="ssd1306", reset=None, rotate=False):
    """The panel on I2C (hw.display.Display), initialised and on.

    i2c: anything with writeto(addr, buf); writevto(addr, bufs) is used when present, so the
    control byte needs no copy of the data behind it.
    """
    from hw.display import Display  # looked up now: a test may have put a subclass there

    col0 = _first_column(chip)
    d = Display(bytearray(_WIDTH * _PAGES))
    d._i2c = i2c
    d._addr = addr
    # I2C control bytes: Co=0, D/C# selects a command stream or a data stream.
    d._lists = ([b"\x00", None], [b"\x40", None]) if hasattr(i2c, "writevto") else None
    if d._lists is None:
        # The control byte must sit right before the bytes: they are copied into _tx,
        # and a command stream of 1-3 bytes goes out through a view made here.
        tx = memoryview(bytearray(_WIDTH + 1))
        d._tx = tx
        d._heads = (tx[:2], tx[:3], tx[:4])
    return _panel(d, col0, reset, rotate)


def make_spi_display(spi, dc, cs, chip="ssd1306", reset=None, rotate=False):
    """The panel on SPI (hw.display_spi.SPIDisplay), initialised and on.

    spi: has write(buf) (machine.SPI, polarity 0, phase 0). dc, cs: output pins, called
    with 0 or 1 (machine.Pin). reset: the RES pin the same way, or None when RES is tied
    high.
    """
    from hw.display_spi import SPIDisplay

    col0 = _first_column(chip)
    d = SPIDisplay(bytearray(_WIDTH * _PAGES))
    d._spi = spi
    d._dc = dc
    d._cs = cs
    cs(1)  # not selected until a stream starts
    return _panel(d, col0, reset, rotate)


def _first_column(chip):
    """The panel RAM's first visible column: the SH1106 has 132 columns, the SSD1306 128."""
    if chip == "ssd1306":
        return 0
    if chip == "sh1106":
        return _COL_OFFSET_SH1106
    raise ValueError("chip must be ssd1306 or sh1106")


def _panel(d, col0, reset, rotate):
    """Give the display on its bus what every Panel has, then init_display() it."""
    d._col0 = col0
    d._reset = reset
    d._rotate = bool(rotate)
    # Everything show() needs is allocated here, once.
    d._shadow = bytearray(_WIDTH * _PAGES)
    fb = memoryview(d.buffer)
    sh = memoryview(d._shadow)
    d._fb_pages = [fb[p * _WIDTH : (p + 1) * _WIDTH] for p in range(_PAGES)]
    d._sh_pages = [sh[p * _WIDTH : (p + 1) * _WIDTH] for p in range(_PAGES)]
    d._cmd = bytearray(3)  # up to 3 command bytes: sent whole, or as _cmd1 / _cmd2
    cmd = memoryview(d._cmd)
    d._cmd1 = cmd[:1]
    d._cmd2 = cmd[:2]
    d._full = True
    d.bytes_sent = 0
    d.last_sent = 0
    init_display(d)
    return d


def reset_pulse(d):
    """Pulse the reset line (needed on boards like the Heltec WiFi Kit 32)."""
    r = d._reset
    if r is None:
        return
    r(1)
    sleep_ms(1)
    r(0)
    sleep_ms(10)  # datasheets ask for >= 3 us low; be generous
    r(1)
    sleep_ms(10)


def init_display(d):
    """Reset (if wired), configure, clear the panel RAM and switch the panel on. Also a
    re-init of a built display (after a brown-out of the panel, say): its drawing stays."""
    reset_pulse(d)
    d.bytes_sent += d.send(0, _INIT_SH1106 if d._col0 else _INIT_SSD1306)
    if d._rotate:
        d.write_cmd(_SET_SEG_REMAP)
        d.write_cmd(_SET_COM_OUT_DIR)
    else:
        d.write_cmd(_SET_SEG_REMAP | 1)  # column 127 drives SEG0
        d.write_cmd(_SET_COM_OUT_DIR | 8)  # scan COM63 to COM0
    # Clear the panel before it lights up (SH1106 RAM powers up random); the zeroed
    # shadow is the source, so the caller's drawing survives a re-init.
    sh = d._shadow
    for i in range(len(sh)):
        sh[i] = 0
    for p in range(_PAGES):
        d._send(d._sh_pages, p, 0, _WIDTH)
    d.power(True)
    d._full = True
