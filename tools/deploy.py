"""Put the firmware and a board file onto a board over USB serial with mpremote.

    make deploy BOARD=devkitc-ssd1306-keypad PORT=/dev/ttyUSB0
    python tools/deploy.py --board boards/heltec-wifi-kit-32.json --port auto

1. The board file is checked (firmware/boardcheck.py): on a problem nothing is copied and
   the messages are printed (exit status 2).
2. Every firmware/*.py is compiled with mpy-cross -march=xtensawin into a private folder
   under build/, kept as build/firmware/ after a successful deploy. Two choices for the heap,
   where a board running .mpy files from its filesystem keeps their code:
   - each file is named in its tracebacks by its .mpy path (mpy-cross -s), the name the
     board's import gives __file__: one interned string per module instead of two (368 B of
     the 32-bit peak);
   - without line numbers (-X no-source-lines): 2.4 KB of the 32-bit peak. A traceback on
     the board still names the file and the function (every line reads 1); the host runs
     the same code from source, with its lines, to find the line.
   main.py stays source (the board runs it by name); other files under firmware/ (the
   language texts) are copied as they are.
3. One mpremote exec makes the folders and hashes (SHA-256, on the board) the files that are
   there; only the files whose hash differs are copied, in one more mpremote call. The
   board file is installed as board.json. Stale copies are removed: a .py that would shadow
   its new .mpy (MicroPython imports X.py before X.mpy) and files in the firmware's folders
   that are no longer part of it. The record of an update over WiFi (fw/boot) goes too, so
   the board runs what was copied. The match data (data/) is never touched.
4. The board is reset (machine.reset()), so main.py starts with the new firmware.

A board whose MicroPython has a ROMFS partition big enough (docs/memory.md) gets the code
and read-only data as one image there instead (tools/romfs.py, written by mpremote only when
its hash differs), which the board runs in place; the filesystem keeps main.py, board.json
and data/, and its old copies of the code are removed. --files keeps the copying of files.
`--image FILE` only writes the image (make romfs).
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
BOARDS = os.path.join(ROOT, "boards")
BUILD = os.path.join(ROOT, "build", "firmware")
KEEP_SOURCE = ("main.py",)
# An update over WiFi's boot record (firmware/update/slots.py): while it is there the board
# runs the update's folder, so a deploy removes it and the firmware it copies runs (the way
# back from any update).
UPDATE_RECORD = "fw/boot"

sys.path.insert(0, FIRMWARE)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import boardcheck  # noqa: E402
import romfs  # noqa: E402
from compile_check import firmware_files, mpy_cross  # noqa: E402


class DeployError(Exception):
    def __init__(self, msg, status):
        super().__init__(msg)
        self.status = status


def board_path(board):
    """A board name (boards/<name>.json) or a path to a board file."""
    if os.path.exists(board):
        return board
    p = os.path.join(BOARDS, board if board.endswith(".json") else board + ".json")
    if os.path.exists(p):
        return p
    names = sorted(n[:-5] for n in os.listdir(BOARDS) if n.endswith(".json"))
    raise DeployError("unknown board %r; boards: %s" % (board, ", ".join(names)), 2)


def check_board(path):
    cfg, errors = boardcheck.load(path)
    if errors:
        raise DeployError("%s has %d problem%s:\n  %s" % (
            os.path.relpath(path, ROOT), len(errors), "" if len(errors) == 1 else "s",
            "\n  ".join(errors)), 2)
    return cfg


def build(out, march="xtensawin"):
    """Compile firmware/ into the empty folder out. Returns {remote path: local path}.
    march=None: bytecode only, which the host's MicroPython ports load (tests, bench, the
    browser build on the WebAssembly port)."""
    files = {}
    failures = []
    for src in firmware_files():
        rel = os.path.relpath(src, FIRMWARE).replace(os.sep, "/")
        if rel in KEEP_SOURCE:
            target = os.path.join(out, rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(src, target)
        else:
            rel = rel[:-3] + ".mpy"
            target = os.path.join(out, rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            proc = subprocess.run(
                [mpy_cross()] + (["-march=" + march] if march else [])
                + ["-X", "no-source-lines", "-s", rel, "-o", target, src],
                capture_output=True, text=True)
            if proc.returncode != 0:
                failures.append("%s: %s" % (rel, (proc.stderr or proc.stdout).strip()))
                continue
        files[rel] = target
    for top, dirs, names in os.walk(FIRMWARE):
        dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
        for name in names:
            if name.endswith((".py", ".pyc", ".mpy")) or name.startswith("."):
                continue
            src = os.path.join(top, name)
            rel = os.path.relpath(src, FIRMWARE).replace(os.sep, "/")
            target = os.path.join(out, rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(src, target)
            files[rel] = target
    if failures:
        raise DeployError("mpy-cross failed:\n  " + "\n  ".join(failures), 3)
    return files


def sizes(files):
    """{folder: bytes of .mpy} ("." for the top level), bytes of main.py, bytes of data."""
    per = {}
    source = data = 0
    for rel, path in files.items():
        n = os.path.getsize(path)
        if rel.endswith(".mpy"):
            folder = rel.split("/")[0] if "/" in rel else "."
            per[folder] = per.get(folder, 0) + n
        elif rel in KEEP_SOURCE:
            source += n
        else:
            data += n
    return per, source, data


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


# Runs on the board: make the folders, list what the firmware's folders and the top level
# hold, and hash the files to deploy. Plain MicroPython (no f-strings, small buffers).
_REMOTE = """
import os, hashlib, binascii
def _h(p):
    try:
        f = open(p, 'rb')
    except OSError:
        return '-'
    h = hashlib.sha256()
    b = bytearray(256)
    m = memoryview(b)
    while True:
        n = f.readinto(b)
        if not n:
            break
        h.update(m[:n])
    f.close()
    return binascii.hexlify(h.digest()).decode()
def _walk(d):
    for e in os.ilistdir(d):
        p = d + '/' + e[0]
        if e[1] & 0x4000:
            _walk(p)
        else:
            print('F', p)
for d in %(dirs)r:
    try:
        os.mkdir(d)
    except OSError:
        pass
for d in %(pkgs)r:
    _walk(d)
for e in os.ilistdir():
    if not e[1] & 0x4000:
        print('F', e[0])
try:
    os.stat('fw/boot')
    print('F', 'fw/boot')
except OSError:
    pass
for p in %(files)r:
    print('H', p, _h(p))
try:
    import vfs
    r = vfs.rom_ioctl(2, 0)
except (ImportError, AttributeError, OSError):
    r = -1
if not isinstance(r, int):
    h = hashlib.sha256()
    n = %(rom_len)d
    if n <= len(r):
        for i in range(0, n, 256):
            h.update(r[i:min(n, i + 256)])
    print('R', len(r), binascii.hexlify(h.digest()).decode())
print('END')
"""


class Board:
    def __init__(self, port, mpremote):
        self.port = port
        self.mpremote = mpremote

    def run(self, *args):
        cmd = [self.mpremote, "connect", self.port] + list(args)
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            raise DeployError("mpremote %s failed (port %s):\n%s" % (
                args[0], self.port, (proc.stderr or proc.stdout).strip()), 4)
        return proc.stdout

    def survey(self, files, rom_len=0):
        """({remote path: sha256 hex or None}, set of files present in our folders,
        ROMFS partition: None if the board has none, else (size, sha256 of its first
        rom_len bytes))."""
        dirs = set()
        for rel in files:
            parts = rel.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                dirs.add("/".join(parts[:i]))
        dirs = sorted(dirs, key=lambda d: (d.count("/"), d))
        pkgs = sorted(d for d in dirs if "/" not in d)
        out = self.run("exec", _REMOTE % {"dirs": dirs, "pkgs": pkgs, "files": sorted(files),
                                          "rom_len": rom_len})
        hashes = {}
        present = set()
        rom = None
        ended = False
        for line in out.splitlines():
            parts = line.split()
            if parts[:1] == ["H"] and len(parts) == 3:
                hashes[parts[1]] = None if parts[2] == "-" else parts[2]
            elif parts[:1] == ["F"] and len(parts) == 2:
                present.add(parts[1])
            elif parts[:1] == ["R"] and len(parts) == 3:
                rom = (int(parts[1]), parts[2])
            elif parts == ["END"]:
                ended = True
        if not ended:
            raise DeployError("unexpected answer from the board:\n" + out, 4)
        return hashes, present, rom


def stale_files(files, present, in_rom=()):
    """Files on the board that the new firmware makes wrong or unused. in_rom: what the
    ROMFS image holds, when it does: their copies on the filesystem go too."""
    pkgs = set(rel.split("/")[0] for rel in list(files) + list(in_rom) if "/" in rel)
    stale = []
    for p in sorted(present):
        if p in files:
            continue
        if p in in_rom or os.path.splitext(p)[0] + ".mpy" in in_rom:
            stale.append(p)  # start.mpy, or a boardcheck.py that would come before /rom's
            continue
        stem, ext = os.path.splitext(p)
        other = stem + (".mpy" if ext == ".py" else ".py")
        if "/" in p and p.split("/")[0] in pkgs:
            stale.append(p)  # our folders hold only the firmware
        elif ext in (".py", ".mpy") and other in files:
            stale.append(p)  # boardcheck.py next to boardcheck.mpy, main.mpy next to main.py
    return stale


def deploy(board, port, mpremote, reset=True, log=print, files_only=False):
    path = board_path(board)
    cfg = check_board(path)
    log("board: %s (%s): check passed" % (os.path.relpath(path, ROOT), cfg["name"]))
    # A private folder for this run (another deploy may run at the same time), published as
    # build/firmware once the board has it.
    os.makedirs(os.path.dirname(BUILD), exist_ok=True)
    out = tempfile.mkdtemp(prefix=".firmware-", dir=os.path.dirname(BUILD))
    try:
        changed, stale = _deploy(path, cfg, out, port, mpremote, reset, log, files_only)
        publish(out)
    finally:
        if os.path.isdir(out):
            shutil.rmtree(out)
    return changed, stale


def publish(out):
    """Make out the new build/firmware (swap by renames; out is gone afterwards)."""
    old = tempfile.mkdtemp(prefix=".old-", dir=os.path.dirname(BUILD))
    try:
        if os.path.isdir(BUILD):
            os.rename(BUILD, os.path.join(old, "firmware"))
        os.rename(out, BUILD)
    except OSError:
        pass  # a deploy running at the same time published first: its build stands
    shutil.rmtree(old, ignore_errors=True)


def _deploy(path, cfg, out, port, mpremote, reset, log, files_only):
    files = build(out)
    per, source, data = sizes(files)
    log("firmware: %d files, %d bytes of .mpy (%s), %d bytes of main.py, %d bytes of data"
        % (len(files), sum(per.values()), ", ".join("%s %d" % (k, per[k]) for k in sorted(per)),
           source, data))
    image = romfs.image(out)
    files["board.json"] = path
    dev = Board(port, mpremote)
    hashes, present, rom = dev.survey(files, len(image))
    in_rom = {}
    args = []
    if rom and files_only:
        log("ROMFS partition of %d bytes: not used (--files)" % rom[0])
    elif rom and rom[0] < len(image):
        log("ROMFS partition of %d bytes: too small for the %d-byte image; files instead"
            % (rom[0], len(image)))
    elif rom:
        # The code and read-only data run from the partition (docs/memory.md); the
        # filesystem keeps main.py, board.json and the match.
        in_rom = {rel: p for rel, p in files.items() if rel not in KEEP_SOURCE + ("board.json",)}
        files = {rel: p for rel, p in files.items() if rel not in in_rom}
        if rom[1] == hashlib.sha256(image).hexdigest():
            log("ROMFS partition of %d bytes: holds this firmware already" % rom[0])
        else:
            img = os.path.join(out, "firmware.romfs")
            with open(img, "wb") as f:
                f.write(image)
            args += ["romfs", "deploy", img, "+"]
            log("ROMFS partition of %d bytes: writing the %d-byte image" % (rom[0], len(image)))
    changed = [rel for rel in sorted(files) if hashes.get(rel) != sha256(files[rel])]
    stale = stale_files(files, present, in_rom)
    for rel in changed:
        args += ["fs", "cp", "--force", files[rel], ":" + rel, "+"]
    for rel in stale:
        args += ["fs", "rm", ":" + rel, "+"]
    if UPDATE_RECORD in present:
        args += ["fs", "rm", ":" + UPDATE_RECORD, "+"]
    if reset:
        args += ["reset"]
    elif args:
        args.pop()  # the trailing "+"
    if args:
        dev.run(*args)
    log("copied %d of %d files%s" % (len(changed), len(files),
                                     ": " + " ".join(changed) if changed else ""))
    if UPDATE_RECORD in present:
        log("an update over WiFi ran: %s removed, this firmware runs" % UPDATE_RECORD)
    if stale:
        log("removed %d stale file%s: %s" % (len(stale), "" if len(stale) == 1 else "s",
                                           " ".join(stale)))
    if reset:
        log("reset %s" % port)
    return changed, stale


def default_mpremote():
    here = os.path.join(os.path.dirname(sys.executable), "mpremote")
    return here if os.path.exists(here) else "mpremote"


def main(argv=None):
    ap = argparse.ArgumentParser(description="Deploy the firmware and a board file.")
    ap.add_argument("--board", help="board name (boards/NAME.json) or file")
    ap.add_argument("--image", metavar="FILE",
                    help="only write the firmware's ROMFS image to FILE (no board needed)")
    ap.add_argument("--port", default="auto", help="serial port (default: auto)")
    ap.add_argument("--mpremote", default=default_mpremote())
    ap.add_argument("--no-reset", action="store_true", help="do not reset the board after")
    ap.add_argument("--files", action="store_true",
                    help="copy .mpy files even where the board has a ROMFS partition")
    args = ap.parse_args(argv)
    if args.image:
        with tempfile.TemporaryDirectory(prefix="romfs-build-") as tmp:
            image = romfs.image(tmp) if build(tmp, march=None) else b""
        with open(args.image, "wb") as f:
            f.write(image)
        print("%s: %d bytes (mpremote romfs deploy %s)" % (args.image, len(image), args.image))
        return 0
    if not args.board:
        ap.error("--board is required")
    try:
        deploy(args.board, args.port, args.mpremote, reset=not args.no_reset,
               files_only=args.files)
    except DeployError as e:
        print("deploy: %s" % e, file=sys.stderr)
        return e.status
    return 0


if __name__ == "__main__":
    sys.exit(main())
