"""What the OLED driver allocates: per show(), per command, and to build one; printed as JSON.

Run by test_display.py under the MicroPython unix port, also in an ESP32-sized heap, so it is
kept small (the unix port compiles it at start) and needs no fake panel:
    micropython display_alloc.py CHIP
"""

import gc
import json
import sys

from fakebus import CountingBus, NoVectorBus
from hw.display import Display
from hw.display_spi import SPIDisplay


class NullSPI:
    def write(self, buf):
        pass


def null_pin(value):
    pass


def allocated(fn):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    fn()
    after = gc.mem_alloc()
    gc.enable()
    return after - before


def run_alloc(chip):
    out = {}
    for name in ("vector", "novector", "spi"):
        if name == "spi":
            d = SPIDisplay(NullSPI(), null_pin, null_pin, chip=chip)
        else:
            d = Display(CountingBus() if name == "vector" else NoVectorBus(), chip=chip)
        d.text("Round 3", 0, 0, 1)
        d.show()
        d.show()
        res = {"nochange": allocated(d.show)}
        d.text("4", 8, 16, 1)
        res["one_page"] = allocated(d.show)
        d.text("5", 8, 16, 1)
        d.text("6", 8, 32, 1)
        d.text("7", 8, 48, 1)
        res["three_pages"] = allocated(d.show)
        d.invalidate()
        res["full"] = allocated(d.show)
        res["show_full"] = allocated(d.show_full)
        res["contrast"] = allocated(lambda d=d: d.contrast(9))
        out[name] = res
        d = None  # one frame buffer pair at a time: the 56k heap holds little more
    holder = []
    out["construct"] = allocated(lambda: holder.append(Display(CountingBus(), chip=chip)))
    # a pointer-sized word tells 64-bit hosts from the ESP32's 32 bits
    out["word"] = 8 if sys.maxsize > 2**32 else 4
    return out


print(json.dumps(run_alloc(sys.argv[1])))
