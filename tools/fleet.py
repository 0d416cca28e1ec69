"""make fleet: the compiled firmware as one signed bundle, for the club to offer its tables
over the broker (club/fleet.py; docs/boards.md, "Updates over WiFi").

    python tools/fleet.py --new-key fleet.key      once: the club's key (keep it like the
                                                   club's passwords; *.key is never committed)
    python tools/fleet.py --key fleet.key [--version N] [--out FILE]

The bundle holds what `make deploy` copies (tools/deploy.py's build, .mpy for the ESP32)
but main.py, which stays the one `make deploy` put there (it picks the firmware's folder at
boot), and a manifest: the version, each file's path, size and SHA-256, signed with
HMAC-SHA256 and the club's key (firmware/update/take.py says the format). The version is
the number of commits (git rev-list --count HEAD) unless --version gives it: a table takes
only a version above the one it runs. Each table's club.json carries the key as
"fleet_key" (hex).
"""

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import deploy  # noqa: E402
from update.sign import hmac_sha256  # noqa: E402
from update.take import MAGIC  # noqa: E402

DEFAULT_OUT = os.path.join(ROOT, "build", "fleet")
LEFT_OUT = ("main.py",)


def read_key(path):
    with open(path) as f:
        return bytes.fromhex(f.read().strip())


def new_key(path):
    """A new random key in path (hex); refuses to replace one."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(os.urandom(32).hex() + "\n")


def git_version():
    out = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=ROOT,
                         capture_output=True, text=True)
    return int(out.stdout.strip()) if out.returncode == 0 else 1


def pack(files, version, key):
    """The bundle's bytes from {path on the board: local file} (firmware/update/take.py)."""
    lines = []
    body = []
    total = 0
    for rel in sorted(files):
        if rel in LEFT_OUT:
            continue
        with open(files[rel], "rb") as f:
            data = f.read()
        line = b"%s %d %s\n" % (rel.encode(), len(data), hashlib.sha256(data).hexdigest().encode())
        lines.append(line)
        body += [line, data]
        total += len(data)
    manifest = hashlib.sha256(b"".join(lines)).hexdigest().encode()
    head = MAGIC + b"%d %d %d %s" % (version, len(lines), total, manifest)
    return b"".join([head, b" ", hmac_sha256(key, head).hex().encode(), b"\n"] + body)


def build(key, version, march="xtensawin"):
    """The bundle (bytes) of firmware/ as it is now."""
    with tempfile.TemporaryDirectory(prefix="fleet-") as tmp:
        return pack(deploy.build(tmp, march=march), version, key)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Build the signed firmware bundle.")
    ap.add_argument("--key", default=os.path.join(ROOT, "fleet.key"),
                    help="the club's key file (default: fleet.key)")
    ap.add_argument("--new-key", metavar="FILE", help="make a new key file and stop")
    ap.add_argument("--version", type=int, help="the bundle's version (default: commits)")
    ap.add_argument("--out", help="the bundle's file (default: build/fleet/firmware-V.s66fw)")
    ap.add_argument("--host", action="store_true",
                    help="bytecode for the host's MicroPython (tests), not the ESP32")
    args = ap.parse_args(argv)
    if args.new_key:
        try:
            new_key(args.new_key)
        except FileExistsError:
            print("fleet: %s exists already: it stays" % args.new_key, file=sys.stderr)
            return 2
        print("fleet: new key in %s; give each table's club.json its hex as \"fleet_key\""
              % args.new_key)
        return 0
    try:
        key = read_key(args.key)
    except (OSError, ValueError) as e:
        print("fleet: cannot read the key %s (%s); make one with --new-key"
              % (args.key, e), file=sys.stderr)
        return 2
    version = args.version if args.version is not None else git_version()
    try:
        data = build(key, version, march=None if args.host else "xtensawin")
    except deploy.DeployError as e:
        print("fleet: %s" % e, file=sys.stderr)
        return e.status
    out = args.out or os.path.join(DEFAULT_OUT, "firmware-%d.s66fw" % version)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "wb") as f:
        f.write(data)
    print("fleet: %s: version %d, %d bytes" % (os.path.relpath(out), version, len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
