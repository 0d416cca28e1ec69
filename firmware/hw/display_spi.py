"""The panel on SPI: the common 7-pin SSD1306 / SH1106 modules (GND VCC D0 D1 RES DC CS).

D0 is the clock (SCK), D1 the data in (MOSI); the module sends nothing back, so no MISO.
DC tells commands (low) from display RAM bytes (high); CS low selects the panel for one
stream; RES is the reset line, pulsed by hw/display_build.py at init. Everything else, the
changed columns included, is hw/display.py's Panel.
"""

from compat import const

from hw.display import Panel

TYPE_CHECKING = const(0)  # as in hw/display.py: for the type check only
if TYPE_CHECKING:
    from machine import SPI, Pin


class SPIDisplay(Panel):
    """spi: has write(buf) (machine.SPI, polarity 0, phase 0). dc, cs: output pins, called
    with 0 or 1 (machine.Pin). Built by hw.display_build.make_spi_display(spi, dc, cs, chip,
    reset, rotate)."""

    _spi: "SPI"
    _dc: "Pin"
    _cs: "Pin"

    def send(self, dc, buf):
        self._dc(dc)
        cs = self._cs
        cs(0)
        try:
            self._spi.write(buf)
        finally:
            cs(1)  # a failed write must not leave the panel listening
        return len(buf)
