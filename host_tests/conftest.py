"""Shared test plumbing: import paths and a runner for the MicroPython unix port."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
TOOLS = os.path.join(ROOT, "tools")

# The firmware is imported by tests exactly as the board imports it: from firmware/.
for path in (FIRMWARE, TOOLS):
    if path not in sys.path:
        sys.path.insert(0, path)

MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")


def run_micropython(args, heapsize=None, stdin=None, cwd=ROOT, extra_path=(), timeout=120,
                    paths=None):
    """Run the MicroPython unix port with firmware/ (and tools/) on its path.

    `paths` replaces the default path (e.g. a folder of compiled .mpy files).
    Returns the CompletedProcess (stdout/stderr as bytes).
    """
    paths = list(paths or [FIRMWARE, TOOLS]) + list(extra_path) + [".frozen"]
    env = dict(os.environ, MICROPYPATH=":".join(paths))
    cmd = [MICROPYTHON]
    if heapsize:
        cmd += ["-X", "heapsize=" + heapsize]
    cmd += list(args)
    return subprocess.run(
        cmd, input=stdin, capture_output=True, cwd=cwd, env=env, timeout=timeout
    )


@pytest.fixture
def micropython():
    if not os.path.exists(MICROPYTHON):
        pytest.fail("micropython is not installed in the virtual environment: run make venv")
    return run_micropython
