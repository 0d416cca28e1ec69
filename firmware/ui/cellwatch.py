"""The cell read a minute apart, for a board that reads its cell (battery.adc).

startup.py makes a CellWatch loop.run()'s ticker (what the loop steps each turn: poll(now),
wait_ms()) in the club link's place, and it steps the link in turn when there is one, so
the loop holds no gauge code on a board without a sense pin. Each reading loads the gauge's
driver (hw/gauge.py: the charge) and the App's answer to it (ui/app_cell.py's on_charge:
the words, the checkpoint; the loader's "gauge" job), and deep-sleeps for as long as the
answer says (0: play on); the chip then boots again as after a reset. Not a method of the
App: on a board without a gauge it would be heap for nothing.
"""

from compat import const, ticks_add, ticks_diff

_EVERY_MS = const(60000)
_FOREVER = const(0x3FFFFFFF)


class CellWatch:
    def __init__(self, machine, cell, app, link=None):
        self.machine = machine
        self.cell = cell  # the board file's "battery": adc, divider, adc_on
        self.app = app
        self.link = link  # the club link, or None
        self.due = None  # the next reading's tick; None: at the first turn

    def poll(self, now):
        if self.due is None or ticks_diff(now, self.due) >= 0:
            first = self.due is None
            self.due = ticks_add(now, _EVERY_MS)
            from hw import gauge

            m = self.machine
            pct = gauge.percent(gauge.read_mv(m, self.cell))
            woke = first and gauge.after_deep_sleep(m)
            del gauge
            from ui.app_cell import on_charge

            sleep = on_charge(self.app, pct, woke)
            del on_charge
            from loader import drop

            drop("gauge")
            if sleep:
                m.deepsleep(sleep)  # on the board: no return; the next boot restores
        if self.link is not None:
            self.link.poll(now)

    def wait_ms(self):
        """The link's wait; without one, no limit of its own (the next reading may come a
        few seconds late: the watchdog's naps are shorter than a minute)."""
        return _FOREVER if self.link is None else self.link.wait_ms()
