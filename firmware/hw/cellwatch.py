"""The battery's check a minute apart, for a board that reads its cell (battery.adc).

startup.py puts a CellWatch in the club link's place in loop.run()'s turn (it passes the
turn on to the link, when there is one), so the loop holds no gauge code on a board without
a sense pin. The check itself (hw/gauge.py) is loaded for each check and dropped after it
(the loader's "gauge" job).
"""

from compat import const, ticks_add, ticks_diff

_CHECK_MS = const(60000)
_FOREVER = const(0x3FFFFFFF)


class CellWatch:
    def __init__(self, machine, cell, app, link=None):
        self.machine = machine
        self.cell = cell  # the board file's "battery": adc, divider, adc_on
        self.app = app
        self.link = link  # the club link, or None
        self.due = None  # the next check's tick; None: at the first turn

    def poll(self, now):
        if self.due is None or ticks_diff(now, self.due) >= 0:
            self.due = ticks_add(now, _CHECK_MS)
            from hw import gauge

            gauge.check(self.machine, self.cell, self.app)
            del gauge
            from loader import drop

            drop("gauge")
        if self.link is not None:
            self.link.poll(now)

    def wait_ms(self):
        """The link's wait; without one, no limit of its own (the next check may come a
        few seconds late: the watchdog's naps are shorter than a minute)."""
        return _FOREVER if self.link is None else self.link.wait_ms()
