"""The board runs this file at boot. It stays source, so it is kept tiny: the work is
in loop.py, which deploy compiles to .mpy. A board that took an update over WiFi has its
record fw/boot: update/boot.py then picks the folder the firmware runs from, and on a new
version's trial boots gives run() a Trial (without a record, nothing of it is loaded)."""

import os

trial = None  # update/boot.py's Trial while a new version is on trial
try:
    os.stat("fw/boot")
    from update.boot import start

    trial = start()
    del start
except OSError:
    pass  # no update over WiFi: the firmware `make deploy` copied
del os


def run(**kw):
    """loop.run(). On a trial boot an exception from the boot or the loop (an import
    included) restarts the board at once: two trial boots that fail and the previous
    version runs again (update/boot.py), with no one at the board."""
    if trial is None:
        from loop import run as loop_run

        return loop_run(**kw)
    try:
        from loop import run as loop_run

        return loop_run(trial=trial, **kw)
    except Exception as e:  # not SystemExit or KeyboardInterrupt: a reset, a technician
        trial.failed(e)


if __name__ == "__main__":
    run()
