"""The boot's first step on a board that took an update over WiFi (main.py calls start()
only when the record fw/boot is there: a board that never took one loads none of this).

start() runs the firmware from the folder update/slots.py chooses. On a trial boot it also
hooks the app as wiring.build makes it: its first render() and its first press() call
slots.reached(), then the hooks go: the play code knows nothing of updates, and holds
nothing of them.
"""

from update.slots import choose, reached, read


def start():
    """The boot's first step (main.py): run from the chosen folder. Its modules come first
    on the path; this module is dropped so that the folder's own comes in later."""
    import sys

    folder = choose()
    if folder:
        sys.path.insert(0, folder)
    r = read()
    if r is not None and not r.get("ok"):
        _watch()
    for name in ("update.boot", "update.slots", "update"):
        sys.modules.pop(name, None)


def _watch():
    """Hook the first frame and the first key of the app the boot builds (the folder's own
    wiring, loaded now rather than a moment later by the boot)."""
    import wiring

    build = wiring.build

    def first_build(*args, **kw):
        wiring.build = build
        app = build(*args, **kw)

        def first_render():
            del app.render
            drew = app.render()
            reached(False)
            return drew

        def first_press(name, long=False):
            del app.press
            done = app.press(name, long)
            reached(True)
            return done

        app.render = first_render
        app.press = first_press
        return app

    wiring.build = first_build
