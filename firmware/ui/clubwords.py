"""The words for what a table's club link reports (net/clublink.py lists the codes), on the
bottom line. App.club_event loads this module for a report and drops it again (the loader's
job "clubwords"): reports are few, and a table without the club never loads it.
"""

from ui.i18n import t


def said(app, code, arg):
    """Show report `code` (with its argument) on the app; the mark is the App's own."""
    if code == "seated":
        app.home()
        app.say("%s %d: %s" % (t("round"), arg[0], " - ".join(arg[1])))
    elif code == "seat" and arg:  # the seating's match refused (arg: why)
        app.refuse(arg)
    elif code == "seat":  # ...or not written
        app.say(t("flash error"))
    elif code == "refused":  # the broker's answer: texts "club 1" to "club 5"
        app.say(t("club %d" % arg) if arg < 6 else "club: %d" % arg)
    else:  # "flash" (the outbox's write), "topic", "seating", "name", "gap", "twin"
        app.say(t("club " + code))
