"""The panel on SPI: the common 7-pin SSD1306 / SH1106 modules (GND VCC D0 D1 RES DC CS).

D0 is the clock (SCK), D1 the data in (MOSI); the module sends nothing back, so no MISO.
DC tells commands (low) from display RAM bytes (high); CS low selects the panel for one
stream; RES is the reset line, pulsed at init (hw/display_build.py). Everything else, the
changed columns included, is hw/display.py's Panel.
"""

from compat import const

from hw.display import Panel

TYPE_CHECKING = const(0)  # as in hw/display.py: for the type check only
if TYPE_CHECKING:
    from machine import SPI, Pin


class SPIDisplay(Panel):
    """spi: has write(buf) (machine.SPI, polarity 0, phase 0). dc, cs: output pins, called
    with 0 or 1 (machine.Pin). reset: the RES pin the same way, or None when RES is tied
    high. chip, rotate: as Panel's."""

    def __init__(self, spi, dc, cs, chip="ssd1306", reset=None, rotate=False):
        self._spi: "SPI" = spi
        self._dc: "Pin" = dc
        self._cs: "Pin" = cs
        cs(1)  # not selected until a stream starts
        super().__init__(chip, reset, rotate)

    def send(self, dc, buf):
        self._dc(dc)
        cs = self._cs
        cs(0)
        try:
            self._spi.write(buf)
        finally:
            cs(1)  # a failed write must not leave the panel listening
        return len(buf)
