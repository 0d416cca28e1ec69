"""The browser table page, served by the standings service under /table/.

At a club night a phone that keeps score needs the page (the browser build, the same as
`make web` builds: tools/web.py) and the broker. The service's laptop serves both, so the
phones need only its address: http://<laptop>:8080/table/, with the table's settings in
the fragment (#broker=ws://<laptop>:9001&table=t07&password=...; club/tablecards.py prints them
as QR codes). The page's files are all named relative to it, so under /table/ it runs as
it does at the root; its service worker's scope is /table/.

build(folder) writes the page (a few seconds: the firmware compiled to .mpy); it needs the
npm packages (`npm ci`; `make club` installs them and starts the service). answer() is the
service's HTTP handler's hook: it serves GET /table/... from that folder and says whether
the path was its own; missing() answers /table/ when the page could not be built, saying
how to build it (a phone that opens a table card reads that instead of a bare 404).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "table")  # not build/web: a `make web` may be running
PREFIX = "/table/"
HOW = ("install the npm packages and start the service again: `make club` from the "
       "repository's root does both (or `npm ci`, then the service)")
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css", ".pack":
         "application/octet-stream"}


def web_tools():
    tools = os.path.join(ROOT, "tools")
    if tools not in sys.path:
        sys.path.insert(0, tools)
    import web

    return web


def build(out=OUT):
    """The table page built into out; returns out."""
    web_tools().build(out)
    return out


def url(host, port):
    """The page's address for a phone: the laptop's address on its network when the service
    listens on every address."""
    if host in ("0.0.0.0", ""):
        host = web_tools().lan_address() or "127.0.0.1"
    return "http://%s:%d%s" % (host, port, PREFIX)


def content_type(name):
    ext = os.path.splitext(name)[1]
    return TYPES.get(ext) or web_tools().MIME.get(ext, "application/octet-stream")


def answer(handler, folder):
    """Serve handler's GET if its path is the table page's (True), else leave it (False).
    Only the files directly in folder are served: no other path of the laptop."""
    path = handler.path.split("?", 1)[0].split("#", 1)[0]
    if path == PREFIX.rstrip("/"):
        handler.send_response(301)
        handler.send_header("Location", PREFIX)
        handler.send_header("Content-Length", "0")
        handler.end_headers()
        return True
    if not path.startswith(PREFIX):
        return False
    name = path[len(PREFIX):] or "index.html"
    file = os.path.join(folder, name)
    if "/" in name or "\\" in name or name.startswith(".") or not os.path.isfile(file):
        handler.send_error(404)
        return True
    with open(file, "rb") as f:
        body = f.read()
    handler.send_response(200)
    handler.send_header("Content-Type", content_type(name))
    handler.send_header("Content-Length", str(len(body)))
    handler.send_header("Cache-Control", "no-cache")  # the page's worker keeps it offline
    handler.end_headers()
    handler.wfile.write(body)
    return True


def missing(handler, why):
    """Answer handler's GET with 503 and how to build the page, if its path is the table
    page's (True), else leave it (False)."""
    path = handler.path.split("?", 1)[0].split("#", 1)[0]
    if not (path + "/").startswith(PREFIX):
        return False
    body = ("The table page is not built here (%s): %s.\n" % (why, HOW)).encode()
    handler.send_response(503)
    handler.send_header("Content-Type", "text/plain; charset=utf-8")
    handler.send_header("Content-Length", str(len(body)))
    handler.send_header("Cache-Control", "no-store")
    handler.end_headers()
    handler.wfile.write(body)
    return True
