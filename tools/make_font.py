"""Regenerate tools/font6x10.py, the UI's bitmap font, from X11 misc-fixed 6x10.

The font is the public-domain X11 "misc-fixed" 6x10 (Debian package xfonts-base,
/usr/share/fonts/X11/misc/6x10.pcf.gz; its COPYRIGHT property reads "Public domain terminal
emulator font.  Share and enjoy."). font_to_py (PyPI font-to-py, pinned in
requirements-dev.txt) turns it into a Python module with horizontally mapped glyphs (-x),
which firmware/ui/text.py copies into a MONO_HLSB framebuffer.

Regenerate (from the repository root, after `make venv` and `apt-get install xfonts-base`):

    .venv/bin/python tools/make_font.py

Check that the committed module is up to date (exit status 1 if not):

    .venv/bin/python tools/make_font.py --check

Options: --font PATH (a .pcf or .pcf.gz), --out PATH.
"""

import argparse
import gzip
import io
import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import redirect_stdout

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tools", "font6x10.py")
# The board's form of the same font: what ui/text.py's board_font() reads.
BIN_OUT = os.path.join(ROOT, "firmware", "ui", "font6x10.bin")
FONT_CANDIDATES = (
    "/usr/share/fonts/X11/misc/6x10.pcf.gz",
    "/usr/share/fonts/X11/misc/6x10.pcf",
    "/usr/share/fonts/misc/6x10.pcf.gz",
)
FONT_TO_PY_VERSION = "0.44.2"  # the generated code layout is what text.py reads

ASCII = "".join(chr(c) for c in range(0x20, 0x7F))
# Ukrainian and Russian: the 33 Russian letters in both cases plus Ukrainian Є І Ї Ґ and the
# Ukrainian apostrophe (U+02BC; the typographic ’ is in PUNCTUATION).
CYRILLIC = (
    "".join(chr(c) for c in range(0x410, 0x450)) + "Ёё" + "Єє" + "Іі" + "Її" + "Ґґ" + "\u02bc"
)
GERMAN = "ÄÖÜäöüß"
SUITS = "♠♥♦♣"
SIGNS = "№…–—×·"
# Required above; below only what the font has (reported when missing).
ARROWS = "←→↑↓"
HUNGARIAN = "ÁÉÍÓŐÚŰáéíóőúű"  # player names (Ö Ü are in GERMAN)
PUNCTUATION = "«»„“”‘’°±≤≥≠"
SYMBOLS = "•●○◆▲▼►◄■□█♪"

REQUIRED = ASCII + CYRILLIC + GERMAN + SUITS + SIGNS
OPTIONAL = ARROWS + HUNGARIAN + PUNCTUATION + SYMBOLS

# The German suits' signs (Settings -> Suit: the setting "cards", ui/screen.py), which no
# font has (Unicode has no leaf, bell or acorn suit): drawn here in the font's style, rows
# 1 to 7 of the 6x10 cell as its suits are, and added after font_to_py's glyphs at code
# points of the Private Use Area (Herz is the font's own heart).
DRAWN = (
    (0xE000, "Laub, a leaf",
     ("..#...", ".###..", "##.##.", "##.##.", ".#.#..", "..#...", "..#...")),
    (0xE001, "Schellen, a bell",
     ("..#...", ".###..", "#####.", "#...#.", "#####.", "#.#.#.", ".###..")),
    (0xE002, "Eichel, an acorn",
     ("..#...", "#.#.#.", "#####.", ".###..", ".###..", ".###..", "..#...")),
)

HEADER = """\
# Bitmap font for the UI: X11 misc-fixed 6x10 ({xlfd}).
# Licence: public domain. The font's COPYRIGHT property reads "{copyright}"
# Source: Debian package xfonts-base {deb}, file 6x10.pcf.gz.
# GENERATED FILE, do not edit: regenerate with `.venv/bin/python tools/make_font.py`
# (font_to_py {ftp}, freetype-py {ftpy}). {count} characters and {drawn} drawn (DRAWN there);
# firmware/ui/text.py draws them.
"""


def find_font(explicit):
    for path in ([explicit] if explicit else FONT_CANDIDATES):
        if path and os.path.exists(path):
            return path
    sys.exit("6x10.pcf(.gz) not found: apt-get install xfonts-base, or pass --font PATH")


def dist_version(name):
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:
        return "unknown"


def debian_version(package):
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True
        )
        return out.stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def _cstr(data, at):
    return data[at:data.index(b"\0", at)].decode("latin-1")


def pcf_properties(data):
    """The string properties (FONT, COPYRIGHT, ...) of a PCF file, as a dict."""
    import struct

    if data[:4] != b"\x01fcp":
        return {}
    (count,) = struct.unpack_from("<i", data, 4)
    for i in range(count):
        kind, _fmt, _size, offset = struct.unpack_from("<4i", data, 8 + 16 * i)
        if kind != 1:  # PCF_PROPERTIES
            continue
        (fmt,) = struct.unpack_from("<i", data, offset)
        end = ">" if fmt & 4 else "<"  # PCF_BYTE_MASK: big-endian integers
        (nprops,) = struct.unpack_from(end + "i", data, offset + 4)
        props = [struct.unpack_from(end + "ibi", data, offset + 8 + 9 * j) for j in range(nprops)]
        strings = offset + 8 + 9 * nprops + (4 - nprops % 4) % 4 + 4

        return {
            _cstr(data, strings + name): _cstr(data, strings + value)
            for name, is_str, value in props
            if is_str
        }
    return {}


def charset(face):
    """(charset string, missing optional characters); exits if a required one is missing."""
    missing = [c for c in REQUIRED if not face.get_char_index(c)]
    if missing:
        sys.exit("the font lacks required characters: " + "".join(missing))
    have = [c for c in OPTIONAL if face.get_char_index(c)]
    chars = []
    for c in REQUIRED + "".join(have):
        if c not in chars:
            chars.append(c)
    return "".join(chars), [c for c in OPTIONAL if not face.get_char_index(c)]


def generate(font_path):
    """Return (module text, charset, missing optional characters)."""
    import freetype
    from font_to_py import font_to_py

    version = dist_version("font-to-py")
    if version != FONT_TO_PY_VERSION:
        sys.exit("font-to-py %s installed, %s expected (see requirements-dev.txt)"
                 % (version, FONT_TO_PY_VERSION))
    work = tempfile.mkdtemp()
    old_cwd, old_argv = os.getcwd(), sys.argv
    try:
        pcf = os.path.join(work, "6x10.pcf")
        opener = gzip.open if font_path.endswith(".gz") else open
        with opener(font_path, "rb") as src, open(pcf, "wb") as dst:
            shutil.copyfileobj(src, dst)
        face = freetype.Face(pcf)
        chars, missing = charset(face)
        with open(pcf, "rb") as f:
            props = pcf_properties(f.read())
        with open(os.path.join(work, "charset.txt"), "w", encoding="utf-8") as f:
            f.write(chars)
        # Relative names only: font_to_py records its command line in the module.
        os.chdir(work)
        sys.argv = ["font_to_py", "-x", "-k", "charset.txt", "6x10.pcf", "10", "font6x10.py"]
        log = io.StringIO()
        try:
            with redirect_stdout(log):
                font_to_py.main()
        except SystemExit as e:
            if e.code:
                sys.exit("font_to_py failed:\n" + log.getvalue())
        with open("font6x10.py", encoding="utf-8") as f:
            body = f.read()
    finally:
        os.chdir(old_cwd)
        sys.argv = old_argv
        shutil.rmtree(work, ignore_errors=True)
    body = with_drawn(body)
    header = HEADER.format(
        xlfd=props.get("FONT", "?"),
        copyright=props.get("COPYRIGHT", "?"),
        deb=debian_version("xfonts-base"),
        ftp=version, ftpy=dist_version("freetype-py"), count=len(chars),
        drawn=len(DRAWN),
    )
    return header + body, chars, missing


def _byte_lines(name, data):
    """A bytes literal as font_to_py writes one: 16 bytes a line."""
    rows = ["b'%s'" % "".join("\\x%02x" % b for b in data[i:i + 16])
            for i in range(0, len(data), 16)]
    return "%s =\\\n%s\n" % (name, "\\\n".join(rows))


def with_drawn(body, drawn=DRAWN):
    """font_to_py's module with the drawn glyphs added: each a glyph record as font_to_py
    lays out the font's (width, then one byte a row, padded to 16 bytes), its code and
    offset at the sparse index's end (their codes are above every other), max_ch() raised."""
    space = {}
    exec(compile(body, "font6x10", "exec"), space)
    font, sparse = bytearray(space["_font"]), bytearray(space["_sparse"])
    font.extend(bytes(-len(font) % 16))  # font_to_py leaves the last glyph unpadded
    top = space["max_ch"]()
    for code, _what, rows in drawn:
        if code <= top:
            raise ValueError("a drawn glyph's code must be above the font's: %x" % code)
        top = code
        sparse += bytes((code & 0xFF, code >> 8, (len(font) >> 3) & 0xFF, len(font) >> 11))
        font += bytes((6, 0)) + bytes(int(r.replace(".", "0").replace("#", "1"), 2) << 2
                                      for r in ("......",) + rows + ("......",) * 2)
        font.extend(bytes(-len(font) % 16))
    start, end = body.index("_font =\\\n"), body.index("_mvfont = ")
    body = body[:start] + _byte_lines("_font", font) + "\n" + _byte_lines("_sparse", sparse) \
        + "\n" + body[end:]
    return body.replace("def max_ch():\n    return %d\n" % space["max_ch"](),
                        "def max_ch():\n    return %d\n" % top)


def font_file_bytes(module):
    """The font as ui/fontload.py reads it: a 12-byte header, the module's sparse index
    and its glyph data, unchanged. The board keeps only the character codes in RAM."""
    sparse = bytes(module._sparse)
    data = bytes(module._font)
    head = bytes((ord("S"), ord("6"), ord("6"), ord("F"), 1, module.height(), module.baseline(),
                  module.max_width(), len(sparse) & 0xFF, len(sparse) >> 8,
                  len(data) & 0xFF, len(data) >> 8))
    return head + sparse + data


def write_font_file(module_path, out_path):
    """Write the board's font file (out_path) from the module's own data."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("font_module", module_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with open(out_path, "wb") as f:
        f.write(font_file_bytes(module))
    return out_path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--font", help="6x10.pcf or 6x10.pcf.gz (default: the xfonts-base file)")
    ap.add_argument("--out", default=OUT, help="module to write (default: tools/font6x10.py)")
    ap.add_argument("--bin", default=BIN_OUT,
                    help="the board's font file to write (default: firmware/ui/font6x10.bin)")
    ap.add_argument("--check", action="store_true", help="compare with --out, write nothing")
    args = ap.parse_args(argv)
    text, chars, missing = generate(find_font(args.font))
    if missing:
        print("not in the font, left out: " + "".join(missing))
    if args.check:
        try:
            with open(args.out, encoding="utf-8") as f:
                same = f.read() == text
        except OSError:
            same = False
        print("font module is up to date" if same else "font module is out of date: regenerate")
        return 0 if same else 1
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print("%d characters, %d bytes -> %s" % (len(chars), len(text.encode()), args.out))
    binary = write_font_file(args.out, args.bin)
    print("font file for the board -> %s" % binary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
