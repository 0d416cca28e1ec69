"""Code in the heap only while its job runs: the one table of the modules that are not
resident, and the one way to drop them.

On the board every imported module's bytecode lives in the heap, so code that runs once (the
boot) or now and then (a list, a checkpoint, the statistics) is imported where it is used,
by a plain import, and dropped by its job's name once the job is done:

    from session import restore          # the job loads what it needs
    ...
    drop("restore")                  # and gives the heap back

Every module not named in the table is resident: loaded at boot (or on first use) and kept,
but the update package (update/), which drops itself (update/job.py's UNLOAD): a line of
its own here would be heap that every board holds during play, where none is to spare.
host_tests/test_resident.py checks what a booted board holds.
"""

from compat import const

# One line a job: its name, then its modules. Bytes, not a tuple of strings: the table
# costs its length once, while a tuple would keep each name in the heap a second time.
_JOBS = const(
    b"\nboot startup boardcheck parts wiring hw.display_build hw.keys_build hw.wake ui.app_club"
    b"\nrestore session.restore"  # rebuilding the match from the flash at boot
    b"\nrepair store.repair store.recover"  # the journal's scan and repair (Store.load)
    b"\nblob store.recover"  # reading a packed file (Store.load_blob)
    # a match's start, rebuild or checkpoint: the rule sets' table and the name rule
    b"\nsetup sixtysix.saved sixtysix.setup sixtysix.names sixtysix.rulesets"
    b"\nblobs session.blobs"  # the settings and statistics blobs
    b"\nstats session.stats session.blobs"  # adding a finished match to the statistics
    b"\nfont ui.fontload"  # reading the font's index (Text())
    b"\nlang ui.langfile"  # reading a language file's index
    # the battery's check, a minute apart (boards that read their cell): the driver, then
    # the App's words and checkpoint
    b"\ngauge hw.gauge ui.app_cell session.checkpoint"
    b"\nscoreboard ui.scoreboard ui.softkeys"  # the scoreboard's code, while a list covers it
    b"\nclubwords ui.clubwords"  # the words for a club link's report (App.club_event)
    b"\namend ui.amend"  # a suit for the trick just entered; a trick its winner cannot take
    b"\nlists ui.menus ui.points ui.info ui.settings ui.newmatch ui.pairs ui.nameentry"
    b" sixtysix.names ui.lists"  # the menus and lists, once back on the scoreboard
    b"\n"
)


def modules(job):
    """The names of the job's modules (a list of str)."""
    jobs = _JOBS
    at = jobs.find(b"\n" + job.encode() + b" ")
    if at < 0:
        raise KeyError(job)
    line = jobs[at + 1:jobs.find(b"\n", at + 1)]
    return [name.decode() for name in line.split(b" ")[1:]]


def drop(job):
    """Drop the job's modules from RAM, once nothing else holds them."""
    for name in modules(job):
        unload(name)


def unload(name):
    """Drop module `name`. The package keeps a submodule as an attribute too: drop both."""
    import sys

    sys.modules.pop(name, None)
    cut = name.rfind(".")
    if cut > 0:
        pkg = sys.modules.get(name[:cut])
        if pkg is not None and hasattr(pkg, name[cut + 1:]):
            delattr(pkg, name[cut + 1:])
