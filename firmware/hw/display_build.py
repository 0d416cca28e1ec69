"""Bringing the panel up: boot-only code, apart from the driver.

A display builds itself (hw/display.py's Display, hw/display_spi.py's SPIDisplay), and those
modules keep what runs while the app does: show(), power, contrast, invert. What runs once
is here, imported by Panel.__init__: the chip's first column, the frame's page views, the
reset pulse and the controller's init sequence. The boot drops this module from RAM
afterwards (parts.py), as its code is heap on the board; init_display() also re-inits a
built display.
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


def first_column(chip):
    """The panel RAM's first visible column: the SH1106 has 132 columns, the SSD1306 128."""
    if chip == "ssd1306":
        return 0
    if chip == "sh1106":
        return _COL_OFFSET_SH1106
    raise ValueError("chip must be ssd1306 or sh1106")


def pages(buf):
    """A view per page of a frame: what show() compares and sends, page by page."""
    m = memoryview(buf)
    return [m[p * _WIDTH : (p + 1) * _WIDTH] for p in range(_PAGES)]


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
