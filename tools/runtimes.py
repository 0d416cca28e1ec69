"""Run a script on any runtime the board resembles, from the host (CPython).

  cpython  this Python: the core's second home
  mp64     the MicroPython unix port from PyPI (.venv/bin/micropython): 64-bit
  mp32     ../shared/mp32/micropython32: the same port built for i386 (4-byte pointers,
           31-bit small ints, as on the ESP32) with the real GC, so `heapsize` caps the heap
           and "does it run in 56 KiB" has a yes/no answer
  wasm     the official WebAssembly port from npm under Node (tools/wasm_run.mjs): also
           32-bit; its heap grows by itself and it frees garbage only between top-level
           calls, so it measures live heap and allocations per call, not a capped heap

    run(name, [script, arg, ...], paths=[dir, ...], heapsize="56k", mounts=[dir, ...])

`paths` is the import path (MICROPYPATH on the unix ports, sys.path elsewhere). `mounts`
matters for wasm only: folders the script reads and writes, copied in and back out (the
unix ports and CPython see the host's files directly). Returns a CompletedProcess with
stdout and stderr as bytes.

    python3 tools/runtimes.py mp32 -X heapsize=56k script.py args   (firmware/ on the path)
"""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
TOOLS = os.path.join(ROOT, "tools")
NAMES = ("cpython", "mp64", "mp32", "wasm")
MP64 = os.path.join(os.path.dirname(sys.executable), "micropython")
MP32 = os.path.normpath(os.path.join(ROOT, "..", "shared", "mp32", "micropython32"))
WASM_RUNNER = os.path.join(TOOLS, "wasm_run.mjs")
WASM_PACKAGE = os.path.join(ROOT, "node_modules", "@micropython",
                            "micropython-webassembly-pyscript")
BITS = {"cpython": 64, "mp64": 64, "mp32": 32, "wasm": 32}


def missing(name):
    """Why runtime `name` cannot run on this machine, or None when it can."""
    if name == "mp64" and not os.path.exists(MP64):
        return "the MicroPython unix port is not in the virtual environment: run make venv"
    if name == "mp32" and not os.path.exists(MP32):
        return ("no 32-bit MicroPython at ../shared/mp32/micropython32 (every developer "
                "machine and CI have it; a plain clone does not)")
    if name == "wasm":
        if not os.path.exists(WASM_PACKAGE):
            return "the WebAssembly port is not installed: run npm ci (make test does)"
        try:
            subprocess.run(["node", "--version"], capture_output=True, check=True)
        except (OSError, subprocess.CalledProcessError):
            return "node is not installed"
    return None


def _heap_k(heapsize):
    """'56k' / '1m' / 57344 -> KiB."""
    if isinstance(heapsize, int):
        return max(1, heapsize // 1024)
    s = heapsize.lower()
    if s.endswith("k"):
        return int(s[:-1])
    if s.endswith("m"):
        return int(s[:-1]) * 1024
    return max(1, int(s) // 1024)


def command(name, args, paths=(), heapsize=None, mounts=(), cwd=ROOT, steps=None, code=None,
            after=None):
    """(argv, env) that runs `args` (script and its arguments) or `code` on runtime `name`."""
    paths = [os.path.abspath(p) for p in paths]
    env = dict(os.environ)
    if name == "cpython":
        env["PYTHONPATH"] = os.pathsep.join(paths)
        head = [sys.executable]
        return head + (["-c", code] if code is not None else list(args)), env
    if name in ("mp64", "mp32"):
        env["MICROPYPATH"] = ":".join(paths + [".frozen"])
        head = [MP64 if name == "mp64" else MP32]
        if isinstance(heapsize, int):  # bytes, exactly
            head += ["-X", "heapsize=%d" % heapsize]
        elif heapsize:
            head += ["-X", "heapsize=%dk" % _heap_k(heapsize)]
        return head + (["-c", code] if code is not None else list(args)), env
    if name == "wasm":
        spec = {"paths": paths, "mounts": [os.path.abspath(m) for m in mounts],
                "cwd": os.path.abspath(cwd), "heap_k": _heap_k(heapsize or "56k"),
                "argv": [os.path.abspath(args[0])] + list(args[1:]) if args else []}
        if code is not None:
            spec["code"] = code
        if steps:
            spec["steps"] = steps
        if after:
            spec["after"] = after
        return ["node", WASM_RUNNER, json.dumps(spec)], env
    raise ValueError("unknown runtime %r (one of %s)" % (name, ", ".join(NAMES)))


def run(name, args=(), paths=(FIRMWARE, TOOLS), heapsize=None, mounts=(), cwd=ROOT,
        stdin=None, timeout=600, steps=None, code=None, after=None):
    """`steps`, `after` (wasm only): see tools/wasm_run.mjs."""
    cmd, env = command(name, args, paths, heapsize, mounts, cwd, steps, code, after)
    return subprocess.run(cmd, input=stdin, capture_output=True, cwd=cwd, env=env,
                          timeout=timeout)


def main(argv):
    if not argv or argv[0] not in NAMES:
        print(__doc__.strip().split("\n\n")[0])
        print("usage: runtimes.py {%s} [-X heapsize=N] script [args]" % ",".join(NAMES))
        return 2
    name, rest = argv[0], argv[1:]
    heap = None
    if len(rest) >= 2 and rest[0] == "-X" and rest[1].startswith("heapsize="):
        heap, rest = rest[1].split("=", 1)[1], rest[2:]
    why = missing(name)
    if why:
        print("%s: %s" % (name, why), file=sys.stderr)
        return 2
    # wasm sees only copied folders: those of the script and of any file argument
    mounts = sorted({os.path.dirname(os.path.abspath(a)) for a in rest if os.path.exists(a)})
    proc = run(name, rest, heapsize=heap, mounts=mounts, cwd=os.getcwd(), timeout=None)
    sys.stdout.buffer.write(proc.stdout)
    sys.stderr.buffer.write(proc.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
