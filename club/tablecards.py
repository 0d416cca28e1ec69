"""Table cards: a printable HTML page with one QR code per table (`club.director cards`).

    python -m club.director cards [--page URL] [--ws URL] [--out cards.html] t01 t02 ...

Each code opens the browser table page (served by the standings service at /table/,
club/tablepage.py) with the table's settings in the URL's fragment, the form web/clubcfg.js
reads: #broker=<the broker's WebSocket URL>&table=<id>&password=<its password>. A phone's
camera opens it; the page keeps the settings and wipes them from the address bar. The
password of table t07 is read from its club file t07.json (a board's club.json, as the
rehearsal's simulators use) or else from t07.pw (a file holding only the password, as
standings.pw does), never from the command line.

Without --page and --ws the laptop's own address on its network is used: the page at
http://<address>:8080/table/ and the broker at ws://<address>:9001 (venue.conf's WebSockets
listener). A card shows the table's id and the page's address; the password is only in the
code, so keep the sheet with the director until the tables get their cards. The sheet is
written in any case; a page that does not answer at that address is a warning that names
the cause: no service there (start it), a service without the page built (how to build
it), or something else answering (the address?).
"""

import html
import os
from urllib.parse import quote

from club.logins import not_a_table

TABLE_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-"


def arguments(p):
    """The subcommand's options (director.py adds the subcommand)."""
    p.add_argument("--page", help="the table page's address (default: http://<this "
                   "laptop>:8080/table/)")
    p.add_argument("--ws", help="the broker's WebSocket URL (default: ws://<this laptop>:9001)")
    p.add_argument("--passwords", default=".",
                   help="the folder of the tables' <id>.json (or <id>.pw) files")
    p.add_argument("--out", default="cards.html", help="the page to write")
    p.add_argument("tables", nargs="+", help="table ids (the broker's user names)")


def laptop():
    from club.tablepage import lan_address

    return lan_address() or "127.0.0.1"


def link(page, ws, table, password):
    """The page's address with the table's settings in its fragment."""
    return "%s#broker=%s&table=%s&password=%s" % (
        page, quote(ws, safe=":/"), quote(table, safe=""), quote(password, safe=""))


def page_html(cards, page):
    """The printable sheet: [(table, url)]; two cards across, a cut line around each."""
    import segno

    out = ['<!doctype html>\n<html lang="en"><head><meta charset="utf-8">',
           "<title>Sixty-six: table cards</title><style>",
           "body{font-family:sans-serif;margin:1cm}",
           ".card{display:inline-block;width:8cm;margin:0 .5cm 1cm 0;padding:.5cm;",
           "border:1px dashed #888;text-align:center;break-inside:avoid;vertical-align:top}",
           ".card h2{font-size:28pt;margin:0 0 .2cm}.card p{font-size:9pt;margin:.2cm 0 0}",
           "</style></head><body>"]
    for table, url in cards:
        qr = segno.make(url, error="m").svg_inline(scale=4, border=2)
        out.append('<div class="card"><h2>%s</h2>%s<p>Scan with the phone that keeps '
                   "score at this table. Page: %s</p></div>"
                   % (html.escape(table), qr, html.escape(page)))
    out.append("</body></html>\n")
    return "\n".join(out)


def table_password(folder, table):
    """The table's password from <table>.json (its "password") or else <table>.pw."""
    import json

    path = os.path.join(folder, table + ".json")
    try:
        with open(path) as f:
            return str(json.load(f)["password"])
    except OSError:
        pass
    except (ValueError, KeyError, TypeError):
        raise SystemExit("director: %s has no password" % path) from None
    path = os.path.join(folder, table + ".pw")
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        raise SystemExit("director: no %s.json or %s.pw for the table's password in %s"
                         % (table, table, folder)) from None


def run(a):
    """Write the sheet; returns the [(table, url)] on it."""
    host = None
    if not a.page or not a.ws:
        host = laptop()
    page = a.page or "http://%s:8080/table/" % host
    ws = a.ws or "ws://%s:9001" % host
    cards = []
    for table in a.tables:
        if not table or any(c not in TABLE_CHARS for c in table):
            raise SystemExit("director: a table id is letters, digits and '-': " + table)
        if not_a_table(table):
            raise SystemExit("director: " + not_a_table(table))
        password = table_password(a.passwords, table)
        cards.append((table, link(page, ws, table, password)))
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(page_html(cards, page))
    print("%s: %d table cards (page %s, broker %s)" % (a.out, len(cards), page, ws))
    why = page_answers(page)
    if why:
        print("warning: the cards lead to %s, which does not serve the table page now (%s): "
              "%s" % (page, why[0], why[1]))
    return cards


def page_answers(page, timeout=3):
    """None when the table page answers at its address (the sheet's cards lead there), else
    (what came, the cause and what to do): no service there (not started yet), a service
    without the page built (503: how to build it), or something else answering there."""
    import urllib.error
    import urllib.request

    from club.tablepage import HOW

    try:
        with urllib.request.urlopen(page, timeout=timeout) as r:
            if b"<html" in r.read(4096).lower():
                return None
            return ("HTTP %d, not a page" % r.status, "is --page the standings service's "
                    "address (its --http, then /table/)?")
    except urllib.error.HTTPError as e:
        if e.code == 503:
            return ("HTTP 503", "the standings service runs there without the table page "
                    "built: %s" % HOW)
        return ("HTTP %d" % e.code, "something answers there, but not with the table page: "
                "is --page the standings service's address (its --http, then /table/)?")
    except (OSError, ValueError) as e:
        return ("no answer: %s" % (getattr(e, "reason", None) or e),
                "no standings service runs there yet: start it (docs/club.md, step 2: "
                "python -m club.service ... --http 0.0.0.0:8080); the cards work once it runs")
