"""Do-nothing I2C buses for running the display driver without a panel.

The simulator, the fuzz and the tests hand one of these to hw.display.Display when they
need the app but not the picture on the glass (fake_oled.py in host_tests decodes the
stream when a test needs that). They only count the bytes (the address byte aside), which
allocates nothing, so heap measurements through them stay those of the driver.
"""


class NoVectorBus:
    """A bus with writeto only: the driver falls back to copying each page."""

    def __init__(self):
        self.sent = 0

    def writeto(self, addr, buf):
        self.sent += len(buf)


class CountingBus(NoVectorBus):
    """A bus with writeto and writevto, as machine.I2C and SoftI2C have."""

    def writevto(self, addr, bufs):
        for b in bufs:
            self.sent += len(b)
