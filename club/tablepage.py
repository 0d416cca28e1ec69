"""The browser table page, served by the standings service under /table/.

At a club night a phone that keeps score needs the page (the browser build, the same as
`make web` builds) and the broker. The service's laptop serves both, so the
phones need only its address: http://<laptop>:8080/table/, with the table's settings in
the fragment (#broker=ws://<laptop>:9001&table=t07&password=...; club/tablecards.py prints them
as QR codes). The page's files are all named relative to it, so under /table/ it runs as
it does at the root; its service worker's scope is /table/.

build(folder) writes the page (a few seconds: the firmware compiled to .mpy) by running the
repository's web build (tools/web.py --build-only, a program of its own: nothing of tools/
is imported here); it needs the npm packages (`npm ci`; `make club` installs them and
starts the service). The service's routes (club/httpd.py) serve the folder's files, or
answer /table/ with how to build it when it could not be built (a phone that opens a table
card reads that instead of a bare 404).
"""

import os
import socket
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "table")  # not build/web: a `make web` may be running
BUILD = os.path.join(ROOT, "tools", "web.py")
PREFIX = "/table/"
HOW = ("install the npm packages and start the service again: `make club` from the "
       "repository's root does both (or `npm ci`, then the service)")
# The page's files by their ending (tools/web.py's `make web` serves with the same).
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css",
    ".pack": "application/octet-stream",
    ".onnx": "application/octet-stream",  # camera mode's card model
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
}


def build(out=OUT):
    """The table page built into out; returns out. OSError saying why when it cannot be
    (no npm packages, a build that failed)."""
    done = subprocess.run([sys.executable, BUILD, "--build-only", "--out", out],
                          capture_output=True, text=True)
    if done.returncode:
        lines = (done.stderr or done.stdout).strip().splitlines()
        raise OSError(lines[-1] if lines else "the web build failed (%d)" % done.returncode)
    return out


def lan_address():
    """This laptop's address on its local network (the one a phone on the same WiFi
    reaches), or None. A UDP socket "connected" to a private address sends nothing; it
    only makes the system pick the interface a packet would leave by."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 9))
        addr = s.getsockname()[0]
    except OSError:
        return None
    finally:
        s.close()
    return None if addr.startswith("127.") or addr == "0.0.0.0" else addr


def url(host, port):
    """The page's address for a phone: the laptop's address on its network when the service
    listens on every address."""
    if host in ("0.0.0.0", ""):
        host = lan_address() or "127.0.0.1"
    return "http://%s:%d%s" % (host, port, PREFIX)


def content_type(name):
    return TYPES.get(os.path.splitext(name)[1], "application/octet-stream")
