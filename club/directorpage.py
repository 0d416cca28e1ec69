"""The director's web page on the standings service (docs/club.md, "The director's page").

    /director             the page (club/director.html)
    /director/state.json  what it shows: a page of the results that do not count (newest
                          first; ?before=ROW the page below that row) with exact counts,
                          corrections, the log, each table's firmware version, the
                          matches and each round's byes
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
nothing. The routes are club/httpd.py's; this module has what they check and show.
"""

import base64
import hashlib
import hmac
import json
import os
import secrets

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "director.html")
USER = "director"
TOKEN = secrets.token_urlsafe(24)  # this run's: the page gets it from state.json
MAX_BODY = 4096
REALM = 'Basic realm="club director", charset="UTF-8"'
POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
          "connect-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; "
          "base-uri 'none'")


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


def forged(headers):
    """Why a POST with these headers may come from another site's page (None if it cannot)."""
    token = headers.get("X-Director-Token") or ""
    if not hmac.compare_digest(token.encode(), TOKEN.encode()):
        return "no director's token: actions come from the director's page"
    if (headers.get("Content-Type") or "").split(";")[0].strip() != "application/json":
        return "an action is application/json"
    origin = headers.get("Origin")
    if origin is not None and origin != "http://" + (headers.get("Host") or ""):
        return "an action from another origin"
    return None


PAGE_ROWS = 50  # rows of the results that do not count on one page


def state(svc, before=None):
    """What the page shows, read under the service's lock (svc: the Desk of club/httpd.py,
    or anything with its lock, db and event): a page of the results that do not count
    (newest first; below row `before`), with exact counts of every row."""
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
                    matches, key=lambda m: (m["table"], m["inc"], m["match"])),
                # each round's byes: a won match without a table (seat --bye)
                "byes": {str(r): list(n) for r, n in sorted(svc.event.byes.items())}}

