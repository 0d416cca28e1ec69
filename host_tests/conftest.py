"""Shared test plumbing: import paths and runners for the MicroPython runtimes.

`micropython` runs the 64-bit unix port; `mp32` the 32-bit unix port with the real, capped
GC (the board's word size); `wasm` the WebAssembly port under Node (32-bit as well). All of
them go through tools/runtimes.py, which the bench and the fuzz use too.
"""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
TOOLS = os.path.join(ROOT, "tools")

# The firmware is imported by tests exactly as the board imports it: from firmware/.
for path in (FIRMWARE, TOOLS):
    if path not in sys.path:
        sys.path.insert(0, path)

import runtimes  # noqa: E402

MICROPYTHON = runtimes.MP64


def run_micropython(args, heapsize=None, stdin=None, cwd=ROOT, extra_path=(), timeout=120,
                    paths=None, runtime="mp64", mounts=()):
    """Run a MicroPython runtime with firmware/ (and tools/) on its path.

    `paths` replaces the default path (e.g. a folder of compiled .mpy files).
    Returns the CompletedProcess (stdout/stderr as bytes).
    """
    paths = list(paths or [FIRMWARE, TOOLS]) + list(extra_path)
    return runtimes.run(runtime, args, paths=paths, heapsize=heapsize, stdin=stdin, cwd=cwd,
                        timeout=timeout, mounts=mounts)


def _runner(name):
    why = runtimes.missing(name)
    if why:
        if name == "mp64" or (name == "wasm" and os.environ.get("CI")):
            pytest.fail(why)
        pytest.skip(why)

    def run(args, **kw):
        kw.setdefault("runtime", name)
        return run_micropython(args, **kw)

    return run


@pytest.fixture
def micropython():
    return _runner("mp64")


@pytest.fixture
def mp32():
    """The 32-bit unix port (capped heap). Absent only in a plain clone: skipped there."""
    return _runner("mp32")


@pytest.fixture
def wasm():
    """The WebAssembly port under Node (npm ci installs it; make test runs npm ci)."""
    return _runner("wasm")


@pytest.fixture(params=["mp64", "mp32"])
def unix_port(request):
    """Each unix port in turn: 64-bit, then the board's 32-bit word size."""
    return _runner(request.param)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The browser build (tools/web.py) served on 127.0.0.1: its URL."""
    import web

    out = str(tmp_path_factory.mktemp("web"))
    web.build(out)
    with web.serving(out) as (_server, url):
        yield url
