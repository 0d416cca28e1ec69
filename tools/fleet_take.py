"""Take a firmware bundle into a board's flash folder, as update/job.py does with the
pieces the broker brings, without the broker (host_tests/test_fleet.py, and the bench's
update row: tools/fleet_figures.py):

    micropython tools/fleet_take.py FLASH_DIR BUNDLE KEY_HEX FREE_BYTES [CHUNK]

Prints one JSON line: "ok" (switched) or "why" (the refusal's code), "ms" the time taken,
"heap_peak" the most the heap held while taking (live: collected after each piece), "heap_base"
what it held before.
"""

import binascii
import gc
import json
import os
import sys
import time


def main():
    root, bundle, key, free = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    chunk = int(sys.argv[5]) if len(sys.argv) > 5 else 2048
    f = open(bundle, "rb")
    os.chdir(root)
    buf = bytearray(chunk)
    gc.collect()
    base = peak = gc.mem_alloc()
    t0 = time.ticks_ms()
    from update.take import Refusal, Taker

    out = {}
    t = None
    try:
        from update.slots import Flash

        t = Taker(Flash(), binascii.unhexlify(key), free)
        while True:
            n = f.readinto(buf)
            if not n:
                break
            t.feed(memoryview(buf)[:n])
            gc.collect()  # the live heap, not the garbage between collections
            peak = max(peak, gc.mem_alloc())
        t.finish()
        out["ok"] = 1
    except Refusal as e:
        out["why"] = e.args[0]
        if t is not None:
            t.abandon()  # as update/job.py does: the slot cleared
    out["ms"] = time.ticks_diff(time.ticks_ms(), t0)
    out["heap_peak"] = max(peak, gc.mem_alloc())
    out["heap_base"] = base
    print(json.dumps(out))


main()
