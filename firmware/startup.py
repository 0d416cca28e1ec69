"""The board's boot, for loop.run(): check board.json, build the parts, boot the app.

The parts come from parts.py (the display, the keys, waking on a key, the club link), the
app from wiring.py, the wiring the simulator and the browser use too. All of it is the
loader's BOOT job: loop.run() drops it once the boot is done, and this module drops
boardcheck.py and parts.py as soon as it is done with them, before the app's code loads: on
the board every module's code is heap, and none of this runs again before the next boot.
"""

import gc
import machine

from compat import const

PANEL_RETRY_MS = 3000  # a panel that does not answer at boot: tried again this often
NO_PANEL = 4  # loop.py make_buzzer's pattern for it
_WATCHDOG_MS = const(8000)  # the board file's "watchdog" when it names none


def boot(board, data, club_file, make_buzzer):
    """(cfg, keys, power, app, ticker, wdt, nap), or None when the board file is bad. data:
    the store's folder; make_buzzer(cfg): the app's beeper (loop.py's: it stays for the
    loop). ticker: what the loop steps each turn (loop.py): the club link, the CellWatch on
    a board that reads its cell (it steps the link), or None. wdt: the started machine.WDT,
    or None (the board file's "watchdog" is 0, or the machine module has none); nap: the
    longest the loop may block between two feeds."""
    import os

    import boardcheck
    from loader import unload

    cfg, errors = boardcheck.load(board)
    if cfg is None or errors:
        import parts

        parts.report(cfg, errors, board)
        return None
    del boardcheck
    unload("boardcheck")  # its code is heap: give it back before the app loads
    gc.collect()

    import parts

    buzzer = make_buzzer(cfg)
    display = parts.make_display(cfg)
    if display.lost:
        wait_for_panel(display, buzzer)
    keys, layout, wake = parts.make_keys(cfg)
    del parts
    unload("parts")
    gc.collect()

    from hw.power import Power

    # The club link's WiFi stays up all evening on a board with WiFi and a club file
    # (parts.make_club): the idle policy then never light-sleeps, which would drop the
    # association (hw/power.py, Power's `wifi`). A club file with "connect": "to_send" (a
    # table on a battery, net/clubsend.py) is the exception: its link tells the idle
    # policy when its WiFi is on.
    wifi = False
    if cfg.get("wifi"):
        try:
            with open(club_file) as f:
                import json

                wifi = json.load(f).get("connect") != "to_send"
        except (OSError, ValueError, AttributeError):
            pass  # none, or bad: parts.make_club says so, and builds no link
    # The idle policy hears the settings at the app's boot and after each change; the
    # panel's contrast follows them there too (App).
    power = Power(display, None, machine, wake, wifi)
    import wiring  # the one wiring, the simulator's and the browser's too

    # The match is rebuilt before the UI's code loads (see wiring.build).
    app = wiring.build(display, data, os, None, layout, buzzer=buzzer,
                       on_settings=power.configure)
    import parts  # again, for the club link: dropped again straight after

    # The loop's ticker: the club link (a ticker itself), or None...
    ticker = parts.make_club(cfg, app, club_file, wiring.link_club, power)
    del parts, wiring
    unload("parts")
    cell = cfg.get("battery")
    if cell is not None and "adc" in cell:  # the board reads its cell: the gauge
        from ui.cellwatch import CellWatch

        ticker = CellWatch(machine, cell, app, ticker)  # ...or the cell's, which steps it
    app.render()
    wdt, nap = watchdog(cfg)
    gc.collect()
    return cfg, keys, power, app, ticker, wdt, nap


def watchdog(cfg):
    """Start the watchdog, last of the boot: (machine.WDT or None, the loop's longest nap).

    Fed by loop.run()'s turn only, never from a timer: a turn that does not come back (a
    screen that loops, a bus or a socket that never answers) stops the feeding, and the
    board resets and boots the match from the journal. The loop naps at most half the
    timeout, so a sleeping board is fed in time too."""
    ms = cfg.get("watchdog", _WATCHDOG_MS)
    if not ms or not hasattr(machine, "WDT"):
        return None, 0x3FFFFFFF
    return machine.WDT(timeout=ms), ms // 2


def wait_for_panel(display, buzzer):
    """No panel answered (parts.make_display has said so on the console): beep the no-panel
    pattern and try the panel again every PANEL_RETRY_MS until it answers, so a connector
    pushed home at the table brings the board up. The beeps thin out after the first ten
    tries, to one a minute."""
    import time

    from loader import unload

    tries = 0
    while display.lost:
        if buzzer is not None and (tries < 10 or tries % 20 == 0):
            buzzer(NO_PANEL)
        time.sleep_ms(PANEL_RETRY_MS)
        display.show()  # the init sequence and a frame, or lost again
        tries += 1
    unload("hw.display_build")  # loaded again by show(): boot-only code
    print("display: answering now")
