"""The standings service's HTTP: one route table, one send helper, one error answer.

    GET  /                      the live page (club/page.html)
    GET  /favicon.svg, .ico     its icon
    GET  /standings.json        the standings as last published
    GET  /events                the same, pushed at every change (server-sent events)
    GET  /table, /table/...     the browser table page (club/tablepage.py), or 503 saying
                                how to build it when it could not be
    GET  /director, GET /director/state.json, POST /director/act
                                the director's page (club/directorpage.py), behind the
                                director's password (so is every other path under
                                /director/: 404 once the password is given)
Anything else is 404 (GET) or 501 (another method: the public pages are read-only).
Which routes need the password is the route table's column (ROUTES), read in one place
before any handler runs (admitted()). A handler that fails answers 500, one line of plain
text, and writes one line to the service's log; the server goes on serving.

The handlers get a Desk, not the Service: the event and its database under their lock,
the standings as last published, the director's one path (act) and the pages' settings.
The Service (club/service.py) owns one and changes it; serve() answers from it in threads
of its own (http.server's ThreadingHTTPServer).
"""

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

from club import directorpage, tablepage

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "page.html")
# The live page's icon (the browser asks for one): "66" on a dark square.
ICON = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
        b'<rect width="32" height="32" rx="6" fill="#123"/><text x="16" y="22" font-size="16" '
        b'font-family="sans-serif" font-weight="bold" fill="#fd4" text-anchor="middle">66</text>'
        b'</svg>')
TEXT = "text/plain; charset=utf-8"
JSON = "application/json"


class Desk:
    """What the pages may use of the service. db and event are read and changed under lock
    (the service replaces event when the director reopens the night); act(request, via) is
    the director's one path (club/actions.py); publish() hands the pages new standings."""

    def __init__(self, db, event, act, director_password=None, log=None):
        self.log = log or (lambda line: None)  # the service's: a handler's failure, one line
        self.lock = threading.RLock()  # the event and the database: one user at a time
        self.db = db
        self.event = event
        self.act = act
        self.director_password = director_password  # None: the director's page is off
        self.table_page = None  # the browser table page's folder, served under /table/
        self.table_page_missing = None  # why it could not be built (/table/ says how to)
        self.stop = threading.Event()  # the service ends: the event streams end too
        self.changed = threading.Condition()
        self.version = 0
        self.snapshot = "{}"
        # {table: its last firmware state} (retained club/<t>/fw/state: club/fleet.py)
        self.firmware = {}

    def publish(self, text):
        """New standings (JSON text) for the page and every open event stream."""
        with self.changed:
            self.snapshot = text
            self.version += 1
            self.changed.notify_all()


# ---- the one send helper and the one error answer ----


def send(h, code, body, ctype, headers=None, cache="no-store"):
    h.send_response(code)
    h.send_header("Content-Type", ctype)
    h.send_header("Content-Length", str(len(body)))
    h.send_header("Cache-Control", cache)
    for k, v in (headers or {}).items():
        h.send_header(k, v)
    h.end_headers()
    h.wfile.write(body)


def error(h, code, why, headers=None):
    """Every refusal: the status and one line saying why, as plain text."""
    send(h, code, (why + "\n").encode(), TEXT, headers)


# ---- the pages ----


def live_page(desk, h, path, query):
    with open(PAGE, "rb") as f:
        send(h, 200, f.read(), "text/html; charset=utf-8")


def icon(desk, h, path, query):
    send(h, 200, ICON, "image/svg+xml")


def standings(desk, h, path, query):
    send(h, 200, desk.snapshot.encode(), JSON)


def events(desk, h, path, query):
    """The standings at every change; a comment line every 10 s keeps the stream open."""
    h.send_response(200)
    h.send_header("Content-Type", "text/event-stream")
    h.send_header("Cache-Control", "no-store")
    h.end_headers()
    seen = -1
    try:
        while not desk.stop.is_set():
            with desk.changed:
                if desk.version == seen:
                    desk.changed.wait(10)
                version, text = desk.version, desk.snapshot
            if version != seen:
                h.wfile.write(b"data: " + text.encode() + b"\n\n")
                seen = version
            else:
                h.wfile.write(b": idle\n\n")
            h.wfile.flush()
    except OSError:
        pass


def table_root(desk, h, path, query):
    if desk.table_page is None:
        table_file(desk, h, path, query)
        return
    send(h, 301, b"", TEXT, {"Location": tablepage.PREFIX})


def table_file(desk, h, path, query):
    """One file of the table page's folder: only the files directly in it, no other path
    of the laptop."""
    if desk.table_page is None:
        if desk.table_page_missing is None:
            error(h, 404, "no such page")
        else:
            error(h, 503, "The table page is not built here (%s): %s."
                  % (desk.table_page_missing, tablepage.HOW))
        return
    name = path[len(tablepage.PREFIX):] or "index.html"
    file = os.path.join(desk.table_page, name)
    if "/" in name or "\\" in name or name.startswith(".") or not os.path.isfile(file):
        error(h, 404, "no such file of the table page")
        return
    with open(file, "rb") as f:
        body = f.read()
    # no-cache, not no-store: the page's service worker keeps it for offline use
    send(h, 200, body, tablepage.content_type(name), cache="no-cache")


def director_page(desk, h, path, query):
    with open(directorpage.PAGE, "rb") as f:
        send(h, 200, f.read(), "text/html; charset=utf-8",
             {"Content-Security-Policy": directorpage.POLICY, "X-Frame-Options": "DENY"})


def director_state(desk, h, path, query):
    before = (query.get("before") or [""])[0]
    if before and not before.isdigit():
        error(h, 400, "before: a row number")
        return
    send(h, 200, json.dumps(directorpage.state(desk, int(before) if before else None)).encode(),
         JSON)


def director_act(desk, h, path, query):
    why = directorpage.forged(h.headers)
    if why:
        error(h, 403, why)
        return
    try:
        size = int(h.headers.get("Content-Length") or 0)
    except ValueError:
        size = -1
    if not 0 < size <= directorpage.MAX_BODY:
        error(h, 413 if size > directorpage.MAX_BODY else 400, "a request is 1 to %d bytes"
              % directorpage.MAX_BODY)
        return
    try:
        request = json.loads(h.rfile.read(size))
    except ValueError:
        request = {"unreadable": "not JSON"}
    send(h, 200, json.dumps(desk.act(request, "web")).encode(), JSON)


# (method, path, handler, needs the director's password). A path ending in "/" is every
# path under it; the first match of path and method wins. The last column alone decides
# the login (admitted()). A row of no method and no handler claims its paths for the
# director without serving them: they answer 404 behind the password.
ROUTES = (
    ("GET", "/", live_page, False),
    ("GET", "/favicon.svg", icon, False),
    ("GET", "/favicon.ico", icon, False),
    ("GET", "/standings.json", standings, False),
    ("GET", "/events", events, False),
    ("GET", "/table", table_root, False),
    ("GET", "/table/", table_file, False),
    ("GET", "/director", director_page, True),
    ("GET", "/director/state.json", director_state, True),
    ("POST", "/director/act", director_act, True),
    (None, "/director/", None, True),
)


def route(method, path):
    """(handler, needs the password, status) of a request: status 200 with a handler, else
    None and 404 (no such path) or 405 (the path, not with this method). It needs the
    password when any row of its path does, whatever the method."""
    fn = None
    secret = known = False
    for m, p, handler, needs in ROUTES:
        if path == p or (p.endswith("/") and p != "/" and path.startswith(p)):
            secret = secret or needs
            if handler is None:
                continue
            if m == method:
                fn = fn or handler
            known = True
    return fn, secret, 200 if fn else 405 if known else 404


def admitted(desk, h, secret):
    """The login, before any handler: True if the request may go on, else it has been
    answered (404 while the director's page is off, 401 without the password)."""
    if not secret:
        return True
    if desk.director_password is None:
        error(h, 404, "the director's page is off (--director-password-file)")
        return False
    if not directorpage.authorised(desk.director_password, h.headers.get("Authorization")):
        error(h, 401, "the director's password is needed", {"WWW-Authenticate":
                                                             directorpage.REALM})
        return False
    return True


def answer(desk, h):
    """Answer one request on BaseHTTPRequestHandler h."""
    path, _, query = h.path.partition("?")
    path = path.partition("#")[0]
    fn, secret, code = route(h.command, path)
    if not admitted(desk, h, secret):
        return
    if fn is None:
        if code == 405 and (secret or h.command == "GET"):
            error(h, 405, "not with this method")
        elif h.command == "GET" or secret:
            error(h, 404, "no such page")
        else:
            error(h, 501, "the public pages are read-only")
        return
    try:
        fn(desk, h, path, parse_qs(query))
    except ConnectionError:  # the client went away mid-answer: nobody to tell
        h.close_connection = True
    except Exception as e:  # a bug of a handler: the service's log has it, the client a 500
        desk.log("http: %s %s: %s: %s" % (h.command, path[:80], type(e).__name__,
                                          " ".join(str(e).split())[:200]))
        h.close_connection = True
        if not h.answered:  # headers already out: a status now would corrupt the answer
            try:
                error(h, 500, "internal error: the service's log says more")
            except OSError:
                pass


def serve(desk, host, port):
    """Serve desk's pages on host:port in a thread; returns the server (shutdown() ends it)."""

    class Handler(BaseHTTPRequestHandler):
        answered = False  # a status line sent (answer(): too late for a 500)

        def log_message(self, *args):
            pass

        def send_response(self, *args):
            self.answered = True
            super().send_response(*args)

        def do_GET(self):
            self.answered = False  # a connection may carry several requests
            answer(desk, self)

        do_POST = do_GET

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
