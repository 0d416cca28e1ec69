"""The bench's update row (tools/bench.py): a bundle of the whole firmware (tools/fleet.py)
taken on the 32-bit unix port in a 56 KiB heap, with the firmware's code as .mpy files as a
board holds them, in the pieces the broker brings (tools/fleet_take.py, the update job's
Taker without the broker). The heap the update adds (its code, the piece and the Taker,
live: collected after each piece), and the time taken, writing to the host's disk: on a
board the flash's writes add their own time, which no host can measure."""

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))
KEY = bytes(range(32))
RUNS = 5


def figures(runtime="mp32"):
    import json

    import deploy
    import fleet
    import runtimes

    if runtimes.missing(runtime):
        return {"skipped": runtimes.missing(runtime)}
    with tempfile.TemporaryDirectory(prefix="s66-bench-fleet-") as tmp:
        code = os.path.join(tmp, "code")
        os.mkdir(code)
        files = deploy.build(code, march=None)
        path = os.path.join(tmp, "bundle.s66fw")
        with open(path, "wb") as f:
            f.write(fleet.pack(files, 2, KEY))
        runs = []
        for i in range(RUNS):
            board = os.path.join(tmp, "board%d" % i)
            os.mkdir(board)
            proc = runtimes.run(runtime, [os.path.join(HERE, "fleet_take.py"), board, path,
                                          KEY.hex(), str(1 << 22)], paths=[code],
                                heapsize="56k", timeout=300)
            if proc.returncode != 0:
                raise RuntimeError("fleet_take: " + proc.stderr.decode())
            out = json.loads(proc.stdout.decode().splitlines()[-1])
            if out.get("ok") != 1:
                raise RuntimeError("fleet_take refused the bundle: %r" % out)
            runs.append(out)
        ms = sorted(r["ms"] for r in runs)
        return {"runtime": runtime, "bundle_bytes": os.path.getsize(path),
                "files": len([r for r in files if r not in fleet.LEFT_OUT]),
                "heap_added": max(r["heap_peak"] - r["heap_base"] for r in runs),
                "ms_median": ms[len(ms) // 2], "runs": RUNS}


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    print(figures(sys.argv[1] if len(sys.argv) > 1 else "mp32"))
