"""The firmware on the board's word size: the 32-bit unix port and the WebAssembly port.

The ESP32 has 4-byte pointers and 31-bit small ints; the 64-bit unix port hides bugs of
that arithmetic (an intermediate past 2**30 - 1 becomes a heap object there only) and
overstates the heap. Here, on ../shared/mp32/micropython32 (the unix port built for i386,
with the real GC and a capped heap) and on the WebAssembly port under Node:
- the core's scenarios replay to the same bytes as on CPython and the 64-bit port;
- whole matches typed key by key into the device, booted by the real loop.run() from
  compiled .mpy files, as on a board, in the board's heap;
- a power-cut sweep of a short match; a short device fuzz.
The tick wrap at the 31-bit boundary is in test_keys.py and test_power.py.
"""

import json
import os
import shutil

import deploy
import pytest
import runtimes
from conftest import ROOT
from dealgen import Player
from keyseq import match_keys, random_match
from test_fuzz import _fuzz, _number
from test_runtimes import GENERATED, SCENARIOS

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE_MACHINE = os.path.join(HERE, "fake_machine")
DRIVER = os.path.join(ROOT, "tools", "heap_drive.py")
BOARD = os.path.join(ROOT, "boards", "devkitc-ssd1306-keypad.json")
# The heap the device tests get, in KiB: what `make bench` finds the firmware needs today,
# plus what the fake machine module holds (built into the firmware on a board, a module
# here). The target is the ESP32's initial heap, 56 KiB: lower this as the firmware shrinks.
FAKE_MACHINE_K = 3
DEVICE_HEAP_K = 92 + FAKE_MACHINE_K


@pytest.fixture(params=["mp32", "wasm"])
def runtime32(request):
    why = runtimes.missing(request.param)
    if why:
        if request.param == "wasm" and os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    return request.param


def _replay(runtime, path):
    proc = runtimes.run(runtime, [os.path.join(ROOT, "tools", "replay.py"), path],
                        mounts=[os.path.dirname(path)], heapsize="256k")  # a host tool
    assert proc.returncode == 0, proc.stderr.decode() + proc.stdout.decode()[-2000:]
    return proc.stdout


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_scenarios_replay_to_the_same_bytes(runtime32, path):
    with open(path[:-4] + ".json", "rb") as f:
        assert _replay(runtime32, path) == f.read()  # the file CPython and mp64 must match


@pytest.mark.parametrize("setup,seed", GENERATED[::2])
def test_random_matches_replay_as_on_cpython(runtime32, tmp_path, setup, seed):
    p = Player(setup, seed)
    p.play_match()
    path = tmp_path / "events.txt"
    path.write_text("\n".join(p.lines) + "\n")
    cpy = runtimes.run("cpython", [os.path.join(ROOT, "tools", "replay.py"), str(path)])
    assert cpy.returncode == 0
    assert _replay(runtime32, str(path)) == cpy.stdout


@pytest.fixture(scope="module")
def mpy(tmp_path_factory):
    """The firmware as deploy puts it on a board: .mpy files plus the data files."""
    out = str(tmp_path_factory.mktemp("image"))
    deploy.build(out, march=None)
    return out


def _device(runtime, mpy, folder, keys, heap_k, rom=None):
    """Type `keys` (one string per entry) into the device whose flash is `folder`; a
    missing folder is a freshly flashed board. Returns the driver's figures by name.
    rom: the name of a ROMFS image in `folder` that holds the code instead of `mpy`, and
    heap_k is then in bytes, exact."""
    if not os.path.exists(folder):
        os.makedirs(folder)
        shutil.copy(BOARD, os.path.join(folder, "board.json"))
    path = os.path.join(folder, "keys.txt")
    with open(path, "w") as f:
        for k in keys:
            f.write(k + "\n")
    extra = {"steps": "step", "after": "report"} if runtime == "wasm" else {}
    args, paths = ([DRIVER, path, "rom:" + rom], [FAKE_MACHINE]) if rom else \
        ([DRIVER, path], [FAKE_MACHINE, mpy])
    proc = runtimes.run(runtime, args, paths=paths, heapsize=heap_k if rom else "%dk" % heap_k,
                        mounts=[folder], cwd=folder, **extra)
    out = proc.stdout.decode()
    assert proc.returncode == 0 and "done" in out, out[-2000:] + proc.stderr.decode()
    figures = {}
    for line in out.splitlines():
        words = line.split(" ", 1)
        if len(words) == 2:
            figures[words[0]] = words[1]
    return figures


def _same_match(got, m):
    assert int(got["deals"]) == m.state.deals()
    assert json.loads(got["score"]) == m.state.score
    assert got["hist"] == "".join(m.state.row_bytes(i).hex() for i in range(m.state.deals()))
    assert got["over"] == str(m.state.over)


@pytest.mark.parametrize("rid,seed", [("mariage", 3), ("classic66", 4), ("mariage4", 5)])
def test_a_whole_match_typed_into_the_device(runtime32, mpy, tmp_path, rid, seed):
    lines, m = random_match(rid, seed, suits=False, quick=3)
    keys = [k for _line, k in match_keys(lines, "keypad")]
    got = _device(runtime32, mpy, str(tmp_path / "flash"), keys, DEVICE_HEAP_K)
    _same_match(got, m)
    assert m.state.over


def test_with_the_code_in_romfs_a_whole_match_plays_in_56k(mpy, tmp_path):
    # A board whose MicroPython has a ROMFS partition runs the .mpy files where they lie
    # (tools/romfs.py): the heap holds only what their imports build. Here the image is read
    # into the heap first, so the cap is 56 KiB plus what the image and the fake machine
    # module hold, both measured by a first boot with no keys.
    if runtimes.missing("mp32"):
        pytest.skip(runtimes.missing("mp32"))
    import romfs

    folder = str(tmp_path / "flash")
    os.makedirs(folder)
    shutil.copy(BOARD, os.path.join(folder, "board.json"))
    with open(os.path.join(folder, "firmware.romfs"), "wb") as f:
        f.write(romfs.image(mpy))
    boot = _device("mp32", mpy, folder, [], 1024 * 1024, rom="firmware.romfs")
    assert int(boot["rom"]) > os.path.getsize(os.path.join(folder, "firmware.romfs"))
    lines, m = random_match("mariage", 6, suits=False, quick=3)
    keys = [k for _line, k in match_keys(lines, "keypad")]
    cap = 56 * 1024 + int(boot["rom"]) + int(boot["fake"])
    _same_match(_device("mp32", mpy, folder, keys, cap, rom="firmware.romfs"), m)
    assert m.state.over


def test_a_reboot_mid_match_resumes_it_on_32_bit(mpy, tmp_path):
    # Two boots through loop.run() over the same flash: the second finishes the match.
    if runtimes.missing("mp32"):
        pytest.skip(runtimes.missing("mp32"))
    lines, m = random_match("mariage", 8, suits=False, quick=2)
    keys = [k for _line, k in match_keys(lines, "keypad")]
    half = len(keys) // 2
    folder = str(tmp_path / "flash")
    _device("mp32", mpy, folder, keys[:half], DEVICE_HEAP_K)
    _same_match(_device("mp32", mpy, folder, keys[half:], DEVICE_HEAP_K), m)


SWEEP = """
import sys
from faultfs import sweep
from store.journal import Store
from dealgen import Player

p = Player("new mariage", 21)
p.play_match(3)
events = p.lines[1:]
steps = sweep(Store, events, 9, cuts=())["steps"]
stats = sweep(Store, events, 9, cuts=range(0, steps, int(sys.argv[1])))
print(len(events), stats["steps"], stats["cuts"], stats["torn"], len(stats["failures"]))
for f in stats["failures"][:5]:
    print(f)
"""


def test_a_power_cut_sweep_on_32_bit(tmp_path):
    if runtimes.missing("mp32"):
        pytest.skip(runtimes.missing("mp32"))
    script = tmp_path / "sweep.py"
    script.write_text(SWEEP)
    out = {}
    for name in ("cpython", "mp32"):
        proc = runtimes.run(name, [str(script), "4"], paths=[HERE, os.path.join(ROOT, "firmware"),
                                                             os.path.join(ROOT, "tools")],
                            heapsize="256k")  # the flash lives in RAM here, beside dealgen
        assert proc.returncode == 0, proc.stdout.decode()[-2000:] + proc.stderr.decode()
        out[name] = proc.stdout.decode()
    events, steps, cuts, _torn, failures = (int(w) for w in out["mp32"].split()[:5])
    assert events >= 20 and cuts >= steps // 4 - 1 and failures == 0
    assert out["mp32"] == out["cpython"]  # the same cuts land the same way


def test_a_short_fuzz_on_32_bit(mp32):
    rc, out = _fuzz(mp32, "--seed", 13, "--presses", 4000, "--segment", 800)
    assert rc == 0, out[-3000:]
    assert out.rstrip().endswith("OK")
    assert _number(out, r"seed 13: (\d+) presses") == 4000
    assert _number(out, r"power cuts (\d+)") >= 5


B64 = """
import gc
from dealgen import Player

p = Player("new schnapsen target=30 dealer=1", 3, quick=1)
m = p.play_match(1000)
m.hist_b64  # loaded before counting: the code the checkpoint runs is not what is measured
gc.collect()
before = gc.mem_alloc()
pieces = list(m.hist_b64())
print(m.state.deals(), len("".join(pieces)), gc.mem_alloc() - before)
"""


def test_the_history_s_base64_is_the_built_in_one(runtime32):
    # On the WebAssembly port plain `binascii` is micropython-lib's Python code: its base64
    # of a long match's history made some 270 KB of garbage and took 70 ms at every deal's
    # end in the browser. The checkpoint takes the built-in (ubinascii) where there is one.
    proc = runtimes.run(runtime32, [], code=B64,
                        paths=[HERE, os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tools")],
                        heapsize="1m")
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    deals, chars, allocated = (int(w) for w in proc.stdout.split())
    assert deals >= 20 and chars >= (deals - 1) * 12 * 4 // 3  # 12-byte rows, finished deals
    # The pieces themselves and the load of saved.py are most of it; the Python base64
    # allocates some 230 bytes per byte of history.
    assert allocated < 30 * chars, (deals, chars, allocated)
