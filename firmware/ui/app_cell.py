"""The App's answer to the battery's charge, on a board that reads its cell (ui/cellwatch.py
loads it with the gauge's driver for one reading a minute, the loader's "gauge" job). The
charge is drawn on the scoreboard (a small gauge, top left), and:

- at WARN % or below, "battery low" once (on the way down);
- at EMPTY % or below, the match's checkpoint, "charge me" on the scoreboard (the panel
  keeps the picture, dimmed, while the chip sleeps) and a deep sleep of SLEEP_MS; the
  first reading after it sleeps again unless the cell is above RESUME % (charged, or
  charging).
"""

WARN = 10
EMPTY = 3
RESUME = 5  # after a deep sleep at EMPTY: the play resumes above this
SLEEP_MS = 600000  # the deep sleep at EMPTY, then a reading again


def on_charge(app, pct, woke):
    """The App's answer to a charge: the ms to deep-sleep (0: play on)."""
    from ui.i18n import t

    was = getattr(app, "battery", None)  # set here: only a board with a gauge has it
    if pct != was:
        app.battery = pct
        app.dirty = True
    if pct <= EMPTY or (was is None and woke and pct <= RESUME):
        from session.checkpoint import write

        write(app.session)
        app.say(t("charge me"))
        app.render()
        contrast = getattr(app.fb, "contrast", None)
        if contrast is not None:
            contrast(0)  # the panel keeps the picture, as dim as it goes
        return SLEEP_MS
    if pct <= WARN and (was is None or was > WARN):
        app.say(t("battery low"))
    return 0
