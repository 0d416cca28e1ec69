"""The director's actions: the one path every director request takes, from the command
(club/director.py, over MQTT) and from the director's web page (club/directorpage.py).

    reply = act(service, {"cmd": "void", "table": "t01", ...}, via="mqtt")

A request is a dict with "cmd" and that command's fields:

    correct  table inc match deal result={"gp": [..], "winner": W, "over": X} why
                              if one deal can give it there (club/legal.py asks the core)
    void     table inc match deal why
    accept   row why          a result that did not count (a refused row kept whole: a
                              conflict's other copy, a late or a held result) counts, in
                              place of the copy that counted for its (table, inc, seq)
    close                     the standings are final; results that come are kept as late
    reopen   why              the night is open again (late results stay not counted
                              unless accepted)
    list                      the results that do not count (newest first, for the command)

act() answers every request: {"ok": True, "verdict": "accepted", "note": ...} or
{"ok": False, "verdict": "refused", "why": ...}. Every failure becomes a refusal here, in
one place (an unknown table or match, a result the rule set cannot give, a malformed
request, a failure of the service itself), and nothing is half done: the database is
rolled back and the standings reloaded from it. Each action, accepted or refused, is one
line of the service's log and one row of the database's director table.
"""

import json
import traceback

from club import legal
from club.db import accept_entry
from club.standings import Invalid, check

WHY_MAX = 200  # characters of a reason


class Declined(Exception):
    """A director request the service declines: args[0] says why, and the reply carries it.
    (The core's Refused is an entry the rules do not allow; this is a request.)"""


def act(svc, request, via):
    """Carry out one director request on the Service svc (its lock held by the caller)."""
    cmd = request.get("cmd") if isinstance(request, dict) else None
    svc.db.commit()  # what came before is on disk: a refusal below rolls back only its own
    try:
        if not isinstance(request, dict):
            raise Declined("not a request")
        if "unreadable" in request:  # what the service could not read (service.py)
            raise Declined(str(request["unreadable"]))
        do = _COMMANDS.get(cmd)
        if do is None:
            raise Declined("unknown command: %s" % str(cmd)[:40])
        reply = do(svc, request)
    except Declined as e:
        reply = _refused(svc, str(e))
    except (KeyError, TypeError, ValueError) as e:
        reply = _refused(svc, "bad request: %s" % (e,))
        svc.event = svc.db.load()  # whatever it left half done in memory is gone
    except Exception as e:  # the service's own failure: still an answer, and the trace
        svc.log(traceback.format_exc().rstrip())
        reply = _refused(svc, "the service failed: %s" % type(e).__name__)
        svc.event = svc.db.load()
    if cmd == "list":
        return reply  # a look, not an action
    text = describe(request)
    if reply["ok"]:
        svc.log("director accepted: %s%s" % (text, " - " + reply["note"] if reply.get("note")
                                             else ""))
    else:
        svc.log("director refused: %s: %s" % (text, reply["why"]))
    kept = request if isinstance(request, dict) else {"unreadable": str(request)[:80]}
    svc.db.add_director(via, kept, reply["verdict"], reply.get("why") or reply.get("note") or "")
    svc.db.commit()
    return reply


def describe(request):
    """One line that names what a request asks (its reason in brackets)."""
    if not isinstance(request, dict):
        return "?"
    r = request
    cmd = str(r.get("cmd"))[:20]
    if cmd in ("correct", "void"):
        text = "%s %s %s match %s deal %s" % (cmd, r.get("table"), r.get("inc"), r.get("match"),
                                              r.get("deal"))
        if cmd == "correct" and isinstance(r.get("result"), dict):
            text += " to %s" % ":".join(str(g) for g in r["result"].get("gp") or [])
    elif cmd == "accept":
        text = "accept row %s" % r.get("row")
    else:
        text = cmd
    if r.get("why"):
        text += " (%s)" % str(r["why"])[:WHY_MAX]
    return text


def _refused(svc, why):
    # The checks come before any change, so a refusal has changed nothing; the rollback
    # is for a failure between the database's change and the standings'.
    svc.db.conn.rollback()
    return {"ok": False, "verdict": "refused", "why": why}


def _accepted(svc, note, tables=()):
    svc.director_done(tables)
    return {"ok": True, "verdict": "accepted", "note": note}


def _why(r):
    why = r.get("why")
    if not isinstance(why, str) or not why.strip():
        raise Declined("a reason is needed (--why)")
    if len(why) > WHY_MAX:
        raise Declined("the reason is longer than %d characters" % WHY_MAX)
    return why.strip()


def _open(svc):
    if svc.event.closed:
        raise Declined("the night is closed: reopen it first")


def _int(r, key):
    v = r.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise Declined("%s: not a number" % key)
    return v


def _match(svc, r):
    """The TableMatch a correction names; refused for an unknown table or match."""
    table, inc = r.get("table"), r.get("inc")
    if not isinstance(table, str) or not isinstance(inc, str):
        raise Declined("table and inc are needed")
    ev = svc.event
    if not any(key[0] == table for key in ev.matches):
        raise Declined("no such table: %s" % table[:20])
    m = ev.matches.get((table, inc, _int(r, "match")))
    if m is None:
        raise Declined("no such match: %s %s match %d" % (table, inc[:20], r["match"]))
    return m


def _head(svc, table, inc, mid):
    """The `match` message of a match: the one that counts, else the latest held one (its
    rules and names still say how its deals are scored), else None."""
    m = svc.event.matches.get((table, inc, mid))
    if m is not None and m.head is not None:
        return m.head
    best = None
    for (t, i, seq), msg in svc.event.results.items():
        if (t, i, msg["kind"], msg["match"]) == (table, inc, "match", mid):
            if best is None or seq > best[0]:
                best = (seq, msg)
    return best[1] if best else None


def _live(svc, table, inc, mid):
    m = svc.event.matches.get((table, inc, mid))
    return m.live(svc.event.corrections) if m is not None else []


def _deals(svc, m):
    """Deal numbers a match has: sent by the table or set by the director."""
    keys = set(m.deals)
    for (t, i, mm, d) in svc.event.corrections:
        if (t, i, mm) == (m.table, m.inc, m.match):
            keys.add(d)
    return keys


def _correct(svc, r):
    _open(svc)
    why = _why(r)
    m = _match(svc, r)
    deal = _int(r, "deal")
    have = _deals(svc, m)
    action = "set" if r["cmd"] == "correct" else "void"
    if action == "void" and deal not in have:
        raise Declined("no such deal: %s match %d deal %d" % (m.table, m.match, deal))
    if action == "set" and not 1 <= deal <= max(have | {0}) + 1:
        raise Declined("no such deal: %s match %d has deals 1..%d" % (m.table, m.match,
                                                                    max(have | {0})))
    fix = {"table": m.table, "inc": m.inc, "match": m.match, "deal": deal, "action": action,
           "result": None, "why": why}
    if action == "set":
        given = r.get("result")
        if not isinstance(given, dict):
            raise Declined("a correction needs its result: game points, winner")
        res = {"v": 1, "inc": m.inc, "seq": 1, "kind": "deal", "match": m.match,
               "deal": deal, "gp": given.get("gp"), "winner": given.get("winner"),
               "over": given.get("over", -1), "reason": "director"}
        try:
            legal.given(_head(svc, m.table, m.inc, m.match),
                        _live(svc, m.table, m.inc, m.match), deal, res["gp"],
                        res["winner"], res["over"])
            check(res)
        except (Invalid, legal.Illegal) as e:
            raise Declined(str(e)) from None
        fix["result"] = res
    fix["id"] = svc.db.add_correction(fix)
    svc.event.correct(fix)
    return _accepted(svc, "", [m.table])


def _accept(svc, r):
    _open(svc)
    why = _why(r)
    rid = _int(r, "row")
    try:
        table, msg = svc.db.refused_result(rid)
    except ValueError as e:
        raise Declined(str(e)) from None
    if svc.db.accepted_of(rid) is not None:
        raise Declined("row %d is already accepted" % rid)
    counted = svc.event.counted(table, msg["inc"], msg["seq"])
    if counted == msg:
        raise Declined("row %d already counts (the same copy)" % rid)
    svc.db.add_accepted(rid, why)
    how = svc.event.take(table, msg, accept_entry(rid, table, msg, why))
    what = "%s %s #%d %s" % (table, msg["inc"], msg["seq"], msg["kind"])
    if counted is not None:
        # The copy that counted is kept aside in its turn: the director may choose it back.
        svc.db.add_refused("club/%s/result" % table,
                           json.dumps(counted, separators=(",", ":")).encode(),
                           "conflict: %s replaced by the director's accept of row %d"
                           % (what, rid), "conflict", None, (table, msg["inc"], msg["seq"]))
    # A held result's number was taken but counted nothing: it now counts, in no copy's place.
    note = ("%s counts, in place of the copy that did" % what
            if how == "replaced" and counted is not None else "%s counts" % what)
    return _accepted(svc, note, [table])


def _close(svc, r):
    if svc.event.closed:  # closed once: a second close changes nothing
        return _accepted(svc, "already closed: nothing changed")
    svc.db.set_meta("closed", "1")
    svc.event.closed = True
    return _accepted(svc, "closed: %d results counted" % svc.event.applied)


def _reopen(svc, r):
    _why(r)
    if not svc.event.closed:
        raise Declined("the night is not closed")
    late = svc.db.conn.execute(
        "SELECT COUNT(*) FROM refused WHERE why LIKE 'late:%' AND id NOT IN "
        "(SELECT refused_id FROM accepted)").fetchone()[0]
    svc.db.del_meta("closed")
    svc.event.closed = False
    return _accepted(svc, "open again; %d late results do not count unless accepted" % late)


def _list(svc, r):
    """The results that do not count, as many as fit one reply (MQTT, 8 KB)."""
    rows = [{"id": x["id"], "why": x["why"][:100], "topic": x["topic"],
             "body": x["body"][:160]} for x in svc.db.not_counted(40)]
    while rows and len(json.dumps(rows)) > 6000:
        rows.pop()
    return {"ok": True, "verdict": "accepted", "rows": rows}


_COMMANDS = {"correct": _correct, "void": _correct, "accept": _accept, "close": _close,
             "reopen": _reopen, "list": _list}
