"""The device, booted as a board boots it, typed into from a file; prints heap figures.

Runs in MicroPython (any port, through tools/runtimes.py) with the compiled firmware and
the fake `machine` (host_tests/fake_machine) on the path, in a folder that holds
board.json and the flash folder data/, as a board's file system does:

    heap_drive.py KEYS [alloc] [rom:IMAGE]

Boot is the real loop.run() for one loop turn (board check, unload it, display, keys,
storage, power, app, first frame). Then every line of KEYS is typed: one character per
press, z / m for a long * / #; a line "=" marks a match's end. After every press the heap
is collected and measured. Prints "name value" lines: fake (what the fake machine module
holds; on a board `machine` is built in and costs no heap), start (live heap after boot),
peak, presses, deals, a "mark N" per "=", and "done" last; and, after boot, the line of
micropython.qstr_info() (the interned names and the bytes they hold).

With `alloc`, each press also runs with the collector off, and the bytes it allocated are
printed as one "alloc" line of numbers (use a large heap for that run). The WebAssembly
port collects only between calls from JS: there it runs one press per call of step()
(tools/wasm_run.mjs `steps`), and what a press allocates is counted the same way.

With `rom:IMAGE`, the code is not in the folder but in a ROMFS image (tools/romfs.py),
mounted at /rom and first on sys.path, as a board with a ROMFS partition does. Here the
image is read into the heap; "rom N" is what it holds there (on a board it is mapped from
flash and costs no heap), to be subtracted from the figures and added to a heap cap.
"""

import binascii
import gc
import micropython  # built in; imported before the first figure, so it is in none of them
import sys

gc.collect()
_base = gc.mem_alloc()
ROM = 0
for _arg in sys.argv[2:]:
    if _arg.startswith("rom:"):
        import rom_mount  # beside this script

        ROM = rom_mount.mount(_arg[4:])
        del rom_mount
        sys.modules.pop("rom_mount")
        _base += ROM
import machine  # noqa: E402,F401  (the fake, on the path before the firmware)

gc.collect()
FAKE = gc.mem_alloc() - _base
del _base
import loop  # noqa: E402

WASM = sys.platform == "webassembly"
_keys = open(sys.argv[1])
_alloc = "alloc" in sys.argv[2:]
app = loop.run(loops=1)
gc.collect()
START = gc.mem_alloc()
# The interned names after boot: "qstr pool: n_pool=.., n_qstr=.., n_str_data_bytes=..,
# n_total_bytes=.." (names are never freed; the bench reports them beside the heap).
micropython.qstr_info()
peak = START
presses = 0
allocs = []
_line = ""
_pos = 0


def press(ch):
    if ch == "z":
        app.key("*", True)
    elif ch == "m":
        app.key("#", True)
    else:
        app.key(ch.upper())
    app.settle()
    app.render()


def step():
    """One press (or one mark). False at the end of the file."""
    global _line, _pos, peak, presses
    while _pos >= len(_line):
        _line = _keys.readline()
        _pos = 0
        if not _line:
            return False
        _line = _line.rstrip("\n")
        if _line == "=":
            gc.collect()
            print("mark", gc.mem_alloc())
            _line = ""
    ch = _line[_pos]
    _pos += 1
    if WASM or _alloc:
        gc.collect()  # a no-op inside a call on wasm: that call starts collected
        before = gc.mem_alloc()
        if WASM and before > peak:
            peak = before  # the live heap between two presses
        if not WASM:
            gc.disable()
        press(ch)
        allocs.append(gc.mem_alloc() - before)
        gc.enable()
    else:
        press(ch)
    presses += 1
    if not WASM:
        gc.collect()
        used = gc.mem_alloc()
        if used > peak:
            peak = used
    return True


def report():
    print("fake", FAKE)
    print("rom", ROM)
    print("start", START)
    print("peak", peak)
    print("presses", presses)
    state = app.match.state
    if state is not None:  # None: no match started yet
        print("deals", state.deals())
        print("score", state.score)
        print("over", state.over)
        # In pieces: one hex string of a long match's history would be the largest block
        # this script asks for, and a capped heap could fail here after the match played.
        print("hist", end=" ")
        for i in range(state.deals()):
            print(binascii.hexlify(state.row_bytes(i)).decode(), end="")
        print()
    if allocs:
        print("alloc", " ".join([str(a) for a in allocs]))
    print("done")


if not WASM:  # on wasm, wasm_run.mjs calls step() until it is done, then report()
    while step():
        pass
    report()
