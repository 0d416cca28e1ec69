"""A fake SPI bus with one SSD1306 or SH1106 on it (the 7-pin modules), decoding what a
driver sends with fake_oled.py's controller model. Kept apart so that the I2C checks, which
run in an ESP32-sized heap, do not compile it. Runs on CPython and on MicroPython.
"""

from fake_oled import SSD1306, FakePanelNoVector


class FakeSPIPanel(FakePanelNoVector):
    """A 4-wire SPI module: write(buf) is its SPI bus, dc_pin and cs_pin its D/C and CS lines
    (callables, as the driver calls machine.Pin objects). There are no control bytes: a byte
    is data while D/C is high, a command byte while it is low, and is heard only while CS is
    low. One write while selected counts as one transaction."""

    def __init__(self, chip=SSD1306, events=None):
        super().__init__(chip, events=events)
        self.dc = 0
        self.cs = 1
        self.unselected = 0  # bytes clocked out while CS was high: the panel never saw them

    def dc_pin(self, value):
        self.dc = 1 if value else 0

    def cs_pin(self, value):
        self.cs = 1 if value else 0

    def write(self, buf):
        data = bytes(buf)
        if self.cs:
            self.unselected += len(data)
            return
        if self._accept("spi", data):
            for b in data:
                self._byte(self.dc, b)
