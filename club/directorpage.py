"""The director's web page on the standings service (docs/club.md, "The director's page").

    /director             the page (club/director.html)
    /director/state.json  what it shows: a page of the results that do not count (newest
                          first; ?before=ROW the page below that row) with exact counts,
                          corrections, the log, each table's firmware version
    /director/act         POST: one director request (JSON), answered with the verdict

All of it needs the director's password (HTTP Basic, user "director"; the service reads
the password from the file given with --director-password-file, and without one the page
is off). The actions take the service's one director path (Service.director, which is
club/actions.py), as the command's requests over MQTT do.

Forged requests from another site (CSRF): a browser sends the director's Basic
credentials with any request to this origin, so an action needs more than them. A POST to
/director/act must carry the header X-Director-Token with this service's token, which only
state.json gives (a page of another origin cannot read it, and cannot send a header of its
own here without a CORS preflight, which this server never grants); its Content-Type must
be application/json and an Origin header, when sent, must be this server's. GET changes
nothing. service.py's handler calls handle() first for every request.
"""

import base64
import hashlib
import hmac
import json
import os
import secrets
from urllib.parse import parse_qs

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "director.html")
USER = "director"
TOKEN = secrets.token_urlsafe(24)  # this run's: the page gets it from state.json
MAX_BODY = 4096
REALM = 'Basic realm="club director", charset="UTF-8"'
POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
          "connect-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; "
          "base-uri 'none'")


def handle(svc, h):
    """Serve a /director request on BaseHTTPRequestHandler h; False for any other path."""
    path = h.path.split("?", 1)[0]
    if path != "/director" and not path.startswith("/director/"):
        return False
    if svc.director_password is None:
        _send(h, 404, b"the director's page is off (--director-password-file)", "text/plain")
        return True
    if not authorised(svc.director_password, h.headers.get("Authorization")):
        _send(h, 401, b"the director's password is needed", "text/plain",
              {"WWW-Authenticate": REALM})
        return True
    if h.command == "GET" and path == "/director":
        with open(PAGE, "rb") as f:
            _send(h, 200, f.read(), "text/html; charset=utf-8",
                  {"Content-Security-Policy": POLICY, "X-Frame-Options": "DENY"})
    elif h.command == "GET" and path == "/director/state.json":
        query = parse_qs(h.path.partition("?")[2])
        before = (query.get("before") or [""])[0]
        if before and not before.isdigit():
            _send(h, 400, b"before: a row number", "text/plain")
            return True
        _send(h, 200, json.dumps(state(svc, int(before) if before else None)).encode(),
              "application/json")
    elif h.command == "POST" and path == "/director/act":
        why = forged(h)
        if why:
            _send(h, 403, why.encode(), "text/plain")
            return True
        try:
            size = int(h.headers.get("Content-Length") or 0)
        except ValueError:
            size = -1
        if not 0 < size <= MAX_BODY:
            _send(h, 413 if size > MAX_BODY else 400, b"a request is 1 to 4096 bytes",
                  "text/plain")
            return True
        try:
            request = json.loads(h.rfile.read(size))
        except ValueError:
            request = {"unreadable": "not JSON"}
        reply = svc.director(request, "web")
        _send(h, 200, json.dumps(reply).encode(), "application/json")
    elif path in ("/director", "/director/state.json", "/director/act"):
        _send(h, 405, b"not with this method", "text/plain")
    else:
        _send(h, 404, b"no such page", "text/plain")
    return True


def authorised(password, header):
    """Whether an Authorization header is the director's; the comparison takes the same
    time whatever the header holds (digests of equal length, hmac.compare_digest)."""
    want = hashlib.sha256(("%s:%s" % (USER, password)).encode()).digest()
    got = b""
    if header and header[:6].lower() == "basic ":
        try:
            got = base64.b64decode(header[6:].strip(), validate=True)
        except ValueError:
            got = b""
    return hmac.compare_digest(hashlib.sha256(got).digest(), want)


def forged(h):
    """Why a POST may come from another site's page (None if it cannot)."""
    token = h.headers.get("X-Director-Token") or ""
    if not hmac.compare_digest(token.encode(), TOKEN.encode()):
        return "no director's token: actions come from the director's page"
    if (h.headers.get("Content-Type") or "").split(";")[0].strip() != "application/json":
        return "an action is application/json"
    origin = h.headers.get("Origin")
    if origin is not None and origin != "http://" + (h.headers.get("Host") or ""):
        return "an action from another origin"
    return None


PAGE_ROWS = 50  # rows of the results that do not count on one page


def state(svc, before=None):
    """What the page shows, read under the service's lock: a page of the results that do
    not count (newest first; below row `before`), with exact counts of every row."""
    with svc.lock:
        rows = []
        found, newer = svc.db.not_counted_page(before, PAGE_ROWS + 1)
        for row in found[:PAGE_ROWS]:
            try:
                table, msg = svc.db.refused_result(row["id"])
                whole = True
                counted = svc.event.counted(table, msg["inc"], msg["seq"])
            except ValueError:
                whole, counted = False, None
            rows.append({"id": row["id"], "at": row["at"], "topic": row["topic"],
                         "why": row["why"], "body": row["body"][:300], "kind": row["kind"],
                         "copies": row["copies"], "acceptable": whole, "counted": json.dumps(
                             counted, separators=(",", ":")) if counted else None})
        counts = svc.db.not_counted_counts()
        counted, held = svc.event.tally()
        matches = [{"table": m.table, "inc": m.inc, "match": m.match,
                    "names": (m.head or {}).get("names") or [],
                    "deals": sorted(m.deals)} for m in svc.event.matches.values()]
        return {"token": TOKEN, "closed": svc.event.closed, "counted": counted, "held": held,
                "not_counted": rows, "counts": counts, "total": sum(counts.values()),
                "newer": newer, "next": rows[-1]["id"] if len(found) > PAGE_ROWS else None,
                "audit": list(svc.event.audit),
                "log": svc.db.director_log(),
                "firmware": [dict(svc.firmware[t], table=t) for t in sorted(svc.firmware)],
                "matches": sorted(
                    matches, key=lambda m: (m["table"], m["inc"], m["match"]))}


def _send(h, code, body, ctype, headers=None):
    h.send_response(code)
    h.send_header("Content-Type", ctype)
    h.send_header("Content-Length", str(len(body)))
    h.send_header("Cache-Control", "no-store")
    for k, v in (headers or {}).items():
        h.send_header(k, v)
    h.end_headers()
    h.wfile.write(body)
