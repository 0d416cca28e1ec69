"""The boot's first step on a board that took an update over WiFi (main.py calls start()
only when the record fw/boot is there: a board that never took one loads none of this).

start() runs the firmware from the folder update/slots.py chooses. On a trial boot (a
version not yet confirmed: slots.choose counted this boot) it returns a Trial, which
main.py hands to loop.run():
- the version is confirmed once the loop has handled its first key without an exception
  and kept running CONFIRM_MS after it (Trial.due; slots.confirm);
- an exception that leaves the boot or the loop meanwhile, an import's included, restarts
  the board at once (main.py's guard calls Trial.failed: machine.reset(), before the
  watchdog exists and after); a hang after the boot is the watchdog's reset;
- a boot that ends before that (a reset, a power cut) is not confirmed: after two such
  boots the next one runs the previous version again (slots.choose).
The play code knows nothing of updates but the Trial it is handed.
"""

from compat import ticks_diff

from update.slots import choose, confirm, read

CONFIRM_MS = 3000  # running after the first key, before the version is the board's


class Trial:
    def __init__(self):
        self.key_at = None  # the tick of the first key handled

    def key(self, now):
        """A key the loop handled (App.press returned)."""
        if self.key_at is None:
            self.key_at = now

    def due(self, now):
        """True once the version is confirmed (the loop then forgets the trial); a failed
        write is tried again at the next turn."""
        return self.key_at is not None and ticks_diff(now, self.key_at) >= CONFIRM_MS \
            and confirm()

    def failed(self, e):
        """An exception during the trial: said on the console, and the board restarts."""
        import sys

        getattr(sys, "print_exception", print)(e)
        import machine

        machine.reset()


def start():
    """The boot's first step (main.py): run from the chosen folder; a Trial on a trial boot,
    else None. The folder's modules come first on the path; this module is dropped so that
    the folder's own comes in later."""
    import sys

    folder = choose()
    if folder:
        sys.path.insert(0, folder)
    r = read()
    trial = Trial() if r is not None and not r.get("ok") else None
    for name in ("update.boot", "update.slots", "update"):
        sys.modules.pop(name, None)
    return trial
