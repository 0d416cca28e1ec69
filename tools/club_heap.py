"""The table's heap with the club link loaded: run in MicroPython (tools/club_figures.py
runs it on the 32-bit unix port) in a board's folder holding the compiled firmware,
board.json ("wifi": true), a match on its flash, and club.json named CLUB_FILE below.

Boots with loop.run() as a board does (no club file yet: the heap a table has anyway),
then moves the club file in and starts the link with parts.make_club(), as a board whose
club file was there at boot. Polls until the match's result is acknowledged. Prints
"name value" lines: fake (the fake machine module's heap), start (live heap after boot),
club (live heap with the link up and everything acked), acked (1 if it was), done.
With a second argument rom:IMAGE the code comes from that ROMFS image (tools/romfs.py),
and "fake" includes what the image holds in this heap.
"""

import gc
import os
import sys
import time

ROM = 0
if len(sys.argv) > 2 and sys.argv[2].startswith("rom:"):
    import rom_mount  # the code in a ROMFS image (tools/romfs.py), as heap_drive.py does

    ROM = rom_mount.mount(sys.argv[2][4:])
    del rom_mount
    sys.modules.pop("rom_mount")
gc.collect()
_base = gc.mem_alloc()
import machine  # noqa: E402,F401  (the fake, before the firmware)

gc.collect()
print("fake", gc.mem_alloc() - _base + ROM)  # neither is on a board's heap
import loop  # noqa: E402

app = loop.run(loops=1)
gc.collect()
print("start", gc.mem_alloc())
os.rename(sys.argv[1], loop.CLUB_FILE)
cfg = {"wifi": True}
import parts  # noqa: E402  (as the boot, startup.py, does: loaded for this and dropped)
import wiring  # noqa: E402

club = parts.make_club(cfg, app, loop.CLUB_FILE, wiring.link_club)
del parts, wiring
from loader import unload  # noqa: E402

unload("parts")
unload("wiring")
end = time.ticks_add(time.ticks_ms(), 10000)
while club is not None and time.ticks_diff(end, time.ticks_ms()) > 0:
    club.poll(time.ticks_ms())
    if club.outbox.acked and not club.outbox.pending:
        break
    time.sleep_ms(5)
gc.collect()
print("club", gc.mem_alloc())
print("acked", int(club is not None and club.outbox.acked > 0 and not club.outbox.pending))
print("done")
