"""The board's boot, for start.run(): check board.json, build the parts, boot the app.

start.run() loads this for the boot and drops it after, as this module drops boardcheck.py,
parts.py and the parts' builders: on the board every module's code is heap, and none of this
runs again before the next boot.
"""

import gc
import machine


def boot(board, data, club_file, make_buzzer):
    """(cfg, keys, power, app, club), or None when the board file is bad. data: the store's
    folder; make_buzzer(cfg): the app's beeper (start.py's: it stays for the loop)."""
    import os
    import sys

    import boardcheck

    cfg, errors = boardcheck.load(board)
    if cfg is None or errors:
        import parts

        parts.report(cfg, errors, board)
        return None
    del boardcheck
    sys.modules.pop("boardcheck")  # its code is heap: give it back before the app loads
    gc.collect()

    import parts

    display = parts.make_display(cfg)
    keys, layout, wake = parts.make_keys(cfg)
    del parts
    sys.modules.pop("parts")
    gc.collect()

    from app.session import Session
    from store.journal import Store

    # The match is rebuilt, and the settings read (the session keeps them), before the
    # UI's code is loaded: the code that reads, repairs and replays the flash and the UI's
    # are never in the heap together.
    session = Session(Store(data, os))
    problems = session.boot()
    session.load_settings()
    gc.collect()

    from hw.power import Power

    # The idle policy hears the settings from the app: once at its boot, then at each change.
    power = Power(display, None, machine, wake)
    from ui.app import App
    from ui.text import board_font

    app = App(display, session, board_font(), layout, buzzer=make_buzzer(cfg),
              on_settings=power.configure)
    app.boot(problems)
    display.contrast(app.settings["contrast"])
    import parts  # again, for the club link: dropped again straight after

    club = parts.make_club(cfg, session, app, club_file)
    del parts
    sys.modules.pop("parts")
    app.render()
    gc.collect()
    return cfg, keys, power, app, club
