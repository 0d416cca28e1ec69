"""The images in docs/img/: the tools that draw them run, write valid PNGs of the expected
sizes, and the committed images are the ones the tools draw today (byte for byte).

    tools/screenshots.py   the app's screens in the simulator (MicroPython unix port)
    tools/make_overlay.py  the printable keypad overlay (300 dpi)

A failure of the up-to-date checks means a UI change altered a screen: regenerate with
`.venv/bin/python tools/screenshots.py` and `.venv/bin/python tools/make_overlay.py`,
look at the new images, and commit them.
"""

import os
import random
import struct
import subprocess
import sys
import zlib

import pytest
from conftest import MICROPYTHON, ROOT, TOOLS

IMG = os.path.join(ROOT, "docs", "img")
OVERLAY = "keypad-overlay.png"


def read_png(data):
    """(width, height, bit depth, colour type, chunks by kind, raw scanlines); checks the
    signature, every CRC, and that the image data has one filter byte + row per line."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks = {}
    idat = b""
    i = 8
    kinds = []
    while i < len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        kind = data[i + 4:i + 8]
        body = data[i + 8:i + 8 + n]
        (crc,) = struct.unpack(">I", data[i + 8 + n:i + 12 + n])
        assert zlib.crc32(kind + body) == crc, kind
        kinds.append(kind)
        chunks[kind] = body
        if kind == b"IDAT":
            idat += body
        i += 12 + n
    assert i == len(data)
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND"
    w, h, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    raw = zlib.decompress(idat)
    bits = depth * (1 if colour in (0, 3) else 3)
    stride = 1 + (w * bits + 7) // 8
    assert len(raw) == h * stride
    assert all(raw[y * stride] == 0 for y in range(h))  # filter: none
    return w, h, depth, colour, chunks, raw


def _tool(name, *args):
    proc = subprocess.run([sys.executable, os.path.join(TOOLS, name)] + list(args),
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return proc


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory):
    if not os.path.exists(MICROPYTHON):
        pytest.fail("micropython is not installed in the virtual environment: run make venv")
    out = tmp_path_factory.mktemp("img")
    _tool("screenshots.py", "--out", str(out), "--micropython", MICROPYTHON)
    return out


@pytest.fixture(scope="module")
def overlay(tmp_path_factory):
    out = tmp_path_factory.mktemp("overlay") / OVERLAY
    _tool("make_overlay.py", "--out", str(out))
    return out


def _names(folder):
    return sorted(n for n in os.listdir(folder) if n.endswith(".png") and n != OVERLAY)


def test_screenshots_are_panel_images(screenshots):
    import screenshots as tool

    names = _names(screenshots)
    expected = sorted([s[0] + "-" + lang + ".png" for s in tool.SHOTS for lang in tool.LANGS]
                      + [tool.LABELLED[0] + ".png"])
    assert names == expected
    labelled = names.pop(names.index(tool.LABELLED[0] + ".png"))
    w, h, depth, colour, _chunks, raw = read_png((screenshots / labelled).read_bytes())
    # the panel at full scale, with the labels' column at its left
    assert (depth, colour) == (1, 0) and w > 128 * tool.SCALE + tool.LABEL_W
    assert h > 64 * tool.SCALE
    for name in names:
        w, h, depth, colour, _chunks, raw = read_png((screenshots / name).read_bytes())
        assert (w, h, depth, colour) == (128 * tool.SCALE, 64 * tool.SCALE, 1, 0), name
        lit = sum(bin(b).count("1") for b in raw)  # the filter bytes are 0
        assert 0 < lit < w * h // 2, name  # something is drawn; the panel is mostly dark


def test_screenshots_up_to_date(screenshots):
    assert _names(IMG) == _names(screenshots), "docs/img: run tools/screenshots.py"
    stale = [n for n in _names(IMG)
             if (screenshots / n).read_bytes() != open(os.path.join(IMG, n), "rb").read()]
    assert not stale, "changed screens, run tools/screenshots.py: " + ", ".join(stale)


def test_overlay_is_true_size(overlay):
    import make_overlay as tool

    w, h, depth, colour, chunks, _raw = read_png(overlay.read_bytes())
    assert (w, h, depth, colour) == (tool.WIDTH, tool.HEIGHT, 8, 3)
    assert len(chunks[b"PLTE"]) == 3 * len(tool.PALETTE)
    ppm_x, ppm_y, unit = struct.unpack(">IIB", chunks[b"pHYs"])
    assert unit == 1 and ppm_x == ppm_y == 11811  # 300 dpi
    assert abs(tool.PITCH / 300 * 25.4 - 17.0) < 0.1  # a key cell is 17 mm


def test_overlay_up_to_date(overlay):
    committed = open(os.path.join(IMG, OVERLAY), "rb").read()
    assert overlay.read_bytes() == committed, "run tools/make_overlay.py"


def test_encoder_round_trips():
    """The deterministic deflate of tools/screenshots.py against zlib's decompressor."""
    from screenshots import deflate

    rnd = random.Random(66)
    for stride in (1, 7, 65, 300):
        data = bytearray()
        while len(data) < 5000:
            if rnd.random() < 0.3 and len(data) >= stride:
                data.extend(data[-stride:][:rnd.randrange(1, 400)])
            else:
                data.extend(bytes((rnd.randrange(256),)) * rnd.randrange(1, 300))
        assert zlib.decompress(deflate(bytes(data), stride)) == bytes(data)
    assert zlib.decompress(deflate(b"", 1)) == b""
