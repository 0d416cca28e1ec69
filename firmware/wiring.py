"""One wiring of the app, for every place it runs.

The board (startup.py), the terminal simulator (tools/sim.py) and the browser
(web/webmain.py) each bring what is their own: a display, a font, a key layout, a folder on
their file system for the store, a beeper. build() makes the same app of them, in the same
order everywhere:

1. the Store on the folder and the Session on the Store; the match rebuilt from what the
   store holds (session/restore.py, loaded for that and dropped);
2. the settings read, before the UI's code loads: on the board the code that reads,
   repairs and replays the flash and the UI's code are never in the heap together;
3. the App on them, with those settings, booted to the screen the players left.

link_club() adds a table's club-night link (net/clublink.py) to a built app: its events go to
the App, which has the words for them.

The loop that runs the app is App.press() for a key (the simulator and the page call it)
inside loop.py's loop on the board: docs/architecture.md has the path of one key press.
On the board this module is boot-only code (loader.BOOT).
"""

import gc


def build(display, folder, fs, font, layout, opener=None, buzzer=None, on_settings=None,
          lang=None, export=None, kind=None):
    """The app booted from what `folder` on the file system `fs` holds.

    font: the UI's font (ui/text.py), None for the board's font file.
    opener: how the store opens files when `fs` has no open() of its own that suits (the
    browser's). on_settings: called with the settings at boot and after each change (the
    board's idle policy); the panel's contrast follows them too (App). export: the host's
    export of the match (the browser's, App). kind: App or a subclass of it (the browser's
    WebApp). lang: a language to switch to first (the simulator's --lang),
    saved as a choice in the settings would be, so the first screen is in it."""
    from session import Session
    from store.journal import Store

    session = Session(Store(folder, fs, opener))
    problems = session.boot()
    settings = session.load_settings()
    if lang and settings.get("lang") != lang:
        settings["lang"] = lang
        session.save_settings(settings)
    gc.collect()

    if kind is None:
        from ui.app import App

        kind = App
    if font is None:  # the board's font file, beside ui/text.py
        from ui.text import board_font

        font = board_font()
    if settings.get("cards"):  # German signs, set by the settings list's code before a frame
        from loader import drop
        from ui import settings as listed  # (names the board holds already: no new heap)

        listed.use(1)
        drop("lists")
    app = kind(display, session, font, layout, settings, buzzer, on_settings, export)
    app.boot(problems)
    return app


def link_club(app, cfg, store, link, now, socket=None, wlan=None, kind=None, power=None):
    """The club link of a table (net/clublink.py) for a built app: results go out over `link`
    (net/mqtt.py's client on a board, the page's own in a browser), kept in `store` until
    the service acknowledges them; what the link has to say goes to app.club_event.
    kind: Club or a subclass of it (the browser's connects through the page). A club file
    with "connect": "to_send" (a table on a battery) gets net/clubsend.py's link, WiFi up
    only to send, which tells `power` (the board's idle policy) when WiFi is on."""
    from ui.app_club import session_of

    if kind is None and cfg.get("connect") == "to_send":
        from net.clubsend import ClubToSend

        club = ClubToSend(link, app.club_event, session_of(app), store, cfg, now, socket, wlan)
        club.power = power
        return club
    if kind is None:
        from net.clublink import Club

        kind = Club
    return kind(link, app.club_event, session_of(app), store, cfg, now, socket, wlan)
