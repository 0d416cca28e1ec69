"""Heap held by each firmware package once imported, in MicroPython (prints JSON pairs).

    micropython heap_imports.py        (the compiled firmware on the path)

Modules are imported in the order the board's boot imports them, with a collection before
and after each, so each figure is what that package adds to the live heap: its bytecode,
its interned names and the objects its import builds. The qstr pool grows in steps of
doubling size, so a package's figure also carries part of the pool its names landed in.
"""

import gc
import json

PACKAGES = (
    ("sixtysix", ("sixtysix.errors", "sixtysix.cards", "sixtysix.rules", "sixtysix.events",
                  "sixtysix.snapshot", "sixtysix.deal", "sixtysix.match")),
    ("hw", ("compat", "store.journal", "hw.keys", "hw.keypad", "hw.power", "hw.display")),
    ("session", ("session",)),
    ("session boot and stats", ("session.restore", "sixtysix.rulesets", "sixtysix.setup",
                                "sixtysix.saved", "session.blobs", "session.stats")),
    ("quick entries", ("sixtysix.quick",)),
    ("ui", ("ui.i18n", "ui.keymap", "ui.text", "ui.app", "ui.scoreboard")),
    ("ui menus", ("ui.lists", "ui.menus")),
    ("ui lists", ("ui.points", "ui.info", "ui.settings", "ui.newmatch", "ui.pairs",
                  "ui.nameentry")),
    ("loop + boot-only modules", ("startup", "boardcheck", "parts", "hw.keys_build",
                                   "hw.display_build", "hw.wake", "loop")),
)

import machine  # noqa: E402,F401  (loop imports it: the board has it built in, not counted)

out = []
gc.collect()
before = gc.mem_alloc()
for name, modules in PACKAGES:
    for m in modules:
        __import__(m)
    gc.collect()
    now = gc.mem_alloc()
    out.append([name, now - before])
    before = now
print(json.dumps(out))
