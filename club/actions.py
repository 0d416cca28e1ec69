"""The director's actions: the one path every director request takes, from the command
(club/director.py, over MQTT) and from the director's web page (club/directorpage.py).

    reply = act(service, {"cmd": "void", "table": "t01", ...}, via="mqtt")

A request is a dict with "cmd" and that command's fields:

    correct  table inc match deal result={"gp": [..], "winner": W, "over": X} why
             [reopen_match]   if one deal can give it there (club/legal.py asks the core);
                              the note says the deal before -> after and the match's
                              totals and winner; a change that leaves a finished match
                              not over (or won by another side) needs reopen_match
    void     table inc match deal why [reopen_match]
                              as correct; a deal that does not count (voided already) is
                              refused
    seat     round rules seats=[[table, [names]]] [byes=[names]] [force]
                              a round played already (a match of it heard, or a later
                              round seated) is seated again over other seatings only
                              with force, and the note names what it replaced; byes:
                              the round's players who sit out (replacing its byes), kept
                              in the database's meta "byes" for pairing, each a won match
                              in the standings; without byes, the round's byes stay but
                              for a player this seating seats (the seating replaces that
                              bye); a table id that is a login of the club's own
                              programs is refused
    rounds   [after]          every round's seatings for pairing, a page at a time:
                              {"seats": [[round, table, names]] after `after` ([round,
                              table]), "byes": {round: [names]}, "next"}
    accept   row why          a result that did not count (a refused row kept whole: a
             [result]         conflict's other copy, a late or a held result) counts, in
                              place of the copy that counted for its (table, inc, seq): a
                              deal as the core scores its entries; with none the core can
                              score, as result gives it (checked as for correct), else
                              refused with what to give
    accept   rows=[..] why    each row as above, on its own: {"ok": all accepted,
    accept   round=N why      "verdict": "accepted" | "partly accepted" | "refused",
             [after]          "rows": [{"row", "ok", "note" or "why"}], "note" or "why"};
                              round: every held row of that round's matches (after a
                              [table, inc, seq]); as many rows as fit one reply, then
                              "rest" (the rows not looked at) or "next" (a round's after)
    close                     the standings are final; results that come are kept as late
    reopen   why              the night is open again (late results stay not counted
                              unless accepted, also when a table sends one again: it is
                              acked and held as late, club/service.py)
    list     [before]         a page of the results that do not count, newest first (below
                              row `before`), with exact counts: {"rows", "counts" (held,
                              conflict, late, refused), "total", "newer", "next"}

act() answers every request: {"ok": True, "verdict": "accepted", "note": ...} or
{"ok": False, "verdict": "refused", "why": ...}. Every failure becomes a refusal here, in
one place (an unknown table or match, a result the rule set cannot give, a malformed
request, a failure of the service itself), and nothing is half done: the database is
rolled back and the standings reloaded from it. Each action, accepted or refused, is one
line of the service's log and one row of the database's director table.
"""

import json
import traceback

from net import wire
from sixtysix.names import valid

from club import legal, logins
from club.db import BYES, accept_entry, digest_of
from club.standings import Invalid, validate

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
    if cmd in ("list", "rounds"):
        return reply  # a look, not an action
    text = describe(request)
    if reply["ok"]:
        svc.log("director accepted: %s%s" % (text, " - " + reply["note"] if reply.get("note")
                                             else ""))
    else:
        svc.log("director %s: %s: %s" % (reply["verdict"], text, reply["why"]))
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
        if r.get("reopen_match") is True:
            text += " --reopen-match"
    elif cmd == "accept":
        if "round" in r:
            text = "accept round %s" % r.get("round")
        elif isinstance(r.get("rows"), list):
            text = "accept rows %s" % " ".join(str(x) for x in r["rows"][:40])
        else:
            text = "accept row %s" % r.get("row")
        if isinstance(r.get("result"), dict):
            text += " as %s" % ":".join(str(g) for g in r["result"].get("gp") or [])
    elif cmd == "seat":
        text = "seat round %s (%s tables)" % (r.get("round"), len(r.get("seats") or ()))
        if r.get("force") is True:
            text += " --force"
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
    """correct and void: checked, then stored, and said: the deal before -> after, the
    match's new totals and winner. The whole match is played again in the core with the
    change (club/legal.py's ended()): a change that leaves a finished match not over (its
    winner under the target) or won by another side is refused unless the request says
    "reopen_match" (the match's end is then stored as the core gives it); one that ends a
    match at its last deal stores that end; one that puts a deal after the match's end or
    makes a deal one deal cannot give is refused. A match stored is never impossible."""
    _open(svc)
    why = _why(r)
    m = _match(svc, r)
    deal = _int(r, "deal")
    have = _deals(svc, m)
    action = "set" if r["cmd"] == "correct" else "void"
    reopen = r.get("reopen_match") is True
    live = _live(svc, m.table, m.inc, m.match)
    was = dict(live).get(deal)
    if action == "void" and deal not in have:
        raise Declined("no such deal: %s match %d deal %d" % (m.table, m.match, deal))
    if action == "void" and was is None:
        raise Declined("%s %s match %d deal %d does not count already (%s): nothing to void"
                       % (m.table, m.inc, m.match, deal, _not_counting(svc, m, deal)))
    if action == "set" and not 1 <= deal <= max(have | {0}) + 1:
        raise Declined("no such deal: %s match %d has deals 1..%d" % (m.table, m.match,
                                                                    max(have | {0})))
    fix = {"table": m.table, "inc": m.inc, "match": m.match, "deal": deal, "action": action,
           "result": None, "why": why}
    head = _head(svc, m.table, m.inc, m.match)
    if action == "set":
        given = r.get("result")
        if not isinstance(given, dict):
            raise Declined("a correction needs its result: game points, winner")
        res = _set(m, deal, given.get("gp"), given.get("winner"), given.get("over", -1))
        try:
            legal.given(head, live, deal, res["gp"], res["winner"], res["over"])
            validate(res)
        except (Invalid, legal.Illegal) as e:
            raise Declined(str(e)) from None
        fix["result"] = res
    change = "%s deal %d" % ("void" if action == "void" else "correct", deal)
    extra, said = _match_end(svc, m, head, live, fix, change, reopen)
    fix["id"] = svc.db.add_correction(fix)
    svc.event.correct(fix)
    for more in extra:
        more["id"] = svc.db.add_correction(more)
        svc.event.correct(more)
    note = "%s %s match %d deal %d: %s -> %s; %s%s" % (
        m.table, m.inc, m.match, deal, _deal_text(m, was),
        "void" if action == "void" else _deal_text(m, fix["result"]),
        _match_text(svc, m), said)
    return _accepted(svc, note, [m.table])


def _set(m, deal, gp, winner, over):
    """A deal's result as the director sets it (a `deal` message without entries)."""
    return {"v": 1, "inc": m.inc, "seq": 1, "kind": "deal", "match": m.match, "deal": deal,
            "gp": gp, "winner": winner, "over": over, "reason": "director"}


def _match_end(svc, m, head, live, fix, change, reopen):
    """([the corrections the match's end needs beside fix], what the note adds); raises
    Declined for a change that leaves an impossible match (see _correct)."""
    if head is None:  # the match's rules are not known: nothing to play it in
        return [], ""
    after = dict(svc.event.corrections)
    after[(m.table, m.inc, m.match, fix["deal"])] = fix
    live_after = m.live(after)
    try:
        legal.ended(head, live)
        broken_before = None
    except legal.Illegal as e:
        broken_before = str(e)
    try:
        end = legal.ended(head, live_after)
    except legal.Illegal as e:
        if broken_before is None:
            raise Declined("%s: %s" % (change, e)) from None
        # The match did not hold before this change either: the director mends it a step
        # at a time, and the note says what is left.
        return [], " (the match still does not hold: %s)" % e
    if not live_after:
        return [], ""
    was_over = live[-1][1].get("over", -1) if live else -1
    last, msg = live_after[-1]
    now = end["over"]
    if was_over >= 0 and now != was_over and not reopen:
        who = _side(m, was_over)
        if now < 0:
            what = "leaves the match not over: %s has %d of %d after deal %d, where %s had " \
                   "won it" % (who, end["tally"][was_over], end["goal"], last, who)
        else:
            what = "leaves the match won by %s, not by %s" % (_side(m, now), who)
        raise Declined("%s %s; give --reopen-match to store the match so, or correct "
                       "another deal first so that it ends as it did" % (change, what))
    extra = []
    if msg.get("over", -1) != now:  # the last deal says how the match ends: as the core
        extra.append({"table": m.table, "inc": m.inc, "match": m.match, "deal": last,
                      "action": "set", "result": _set(m, last, msg["gp"], msg["winner"], now),
                      "why": "%s (the match's end after %s)" % (fix["why"], change)})
    if was_over >= 0 and now != was_over:
        said = " (reopened: --reopen-match)" if now < 0 else " (its winner changed: " \
            "--reopen-match)"
    elif was_over < 0 and now >= 0:
        said = " (the match now ends at deal %d)" % last
    else:
        said = ""
    return extra, said


def _not_counting(svc, m, deal):
    """Why a deal of match m does not count: voided, taken back at the table, or held."""
    fix = svc.event.corrections.get((m.table, m.inc, m.match, deal))
    if fix is not None and fix["action"] == "void":
        return "voided by the director: %s" % fix["why"]
    got = m.deals.get(deal)
    if got is not None and got[1] is None:
        return "held"
    return "taken back at the table"


def _side(m, s):
    """Side s of match m by its players' names ("side 0" when they are not known)."""
    from club.standings import side_names

    names = (m.head or {}).get("names") or []
    if not names or s < 0:
        return "side %d" % s if s >= 0 else "no side"
    return "+".join(side_names(names, 2 if len(names) == 4 else len(names), s))


def _deal_text(m, msg):
    """A deal's result as the note says it: "2:0 won by Ann", "0:0 no winner", "none"."""
    if msg is None:
        return "none"
    gp = ":".join(str(g) for g in msg.get("gp") or [])
    w = msg.get("winner", -1)
    text = "%s %s" % (gp, "won by %s" % _side(m, w) if w >= 0 else "no winner")
    if msg.get("over", -1) >= 0:
        text += ", the match to %s" % _side(m, msg["over"])
    return text


def _match_text(svc, m):
    """The match's totals and winner, as the standings have them now."""
    for row in svc.event.match_rows():
        if (row["table"], row["inc"], row["match"]) == (m.table, m.inc, m.match) \
                and row["deals"]:
            sides = ["+".join(members) for members in row["sides"]]
            totals = ", ".join("%s %d" % (n, g) for n, g in zip(sides, row["gp"]))
            end = "won by %s" % sides[row["winner"]] if row["winner"] >= 0 else "not over"
            return "the match: %s, %s (%d deal%s)" % (totals, end, row["deals"],
                                                     "" if row["deals"] == 1 else "s")
    return "the match: no deal counts"


MANY = 200  # rows one accept may name


def _accept(svc, r):
    _open(svc)
    why = _why(r)
    if "rows" not in r and "round" not in r:
        tables = []
        note = _accept_one(svc, _int(r, "row"), why, r.get("result"), tables)
        return _accepted(svc, note, tables)
    if "result" in r:
        raise Declined("a result is given for one row only: accept ROW --gp ... on its own")
    after = None
    if "round" in r:
        rnd = _int(r, "round")
        after = r.get("after")
        if after is not None and not (isinstance(after, list) and len(after) == 3):
            raise Declined("after: [table, inc, seq] of a round's held result")
        keyed = _held_rows(svc, rnd, after)
        if not keyed and after is None:
            raise Declined("round %d has no held result" % rnd)
        rids = [rid for _key, rid in keyed]
    else:
        rids = r["rows"]
        if not isinstance(rids, list) or not 1 <= len(rids) <= MANY or any(
                isinstance(x, bool) or not isinstance(x, int) for x in rids):
            raise Declined("rows: 1 to %d row numbers" % MANY)
    # Each row on its own, in turn: a row declined changed nothing (its checks come first)
    # and does not stop the others; a row accepted is on disk before the next is looked at.
    # As many rows as their verdicts fit one reply (8 KB a message): the rest are left for
    # the next request ("rest": their rows; with a round, "next": where to go on after).
    out = []
    tables = []
    size = 0
    for rid in rids:
        if out and size > REPLY_BYTES:
            break
        try:
            out.append({"row": rid, "ok": True,
                        "note": _accept_one(svc, rid, why, None, tables)})
            svc.db.commit()
        except Declined as e:
            out.append({"row": rid, "ok": False, "why": str(e)})
        size += len(json.dumps(out[-1])) + 2
    if tables:
        svc.director_done(tables)
    took = [x for x in out if x["ok"]]
    said = "; ".join("row %d: %s" % (x["row"], x["note"] if x["ok"] else x["why"])
                     for x in out)
    if len(said) > 1000:  # each row's verdict is in "rows": the summary stays short
        said = said[:1000] + " ..."
    reply = {"ok": len(took) == len(out), "rows": out,
             "verdict": "accepted" if len(took) == len(out) else
             "partly accepted" if took else "refused"}
    if len(out) < len(rids):
        if "round" in r:
            reply["next"] = list(keyed[len(out) - 1][0])
        else:
            reply["rest"] = rids[len(out):]
    if reply["ok"]:
        reply["note"] = "%d rows accepted: %s" % (len(out), said)
    else:
        reply["why"] = "%d of %d rows declined: %s" % (len(out) - len(took), len(out), said)
    return reply


def _held_rows(svc, rnd, after=None):
    """[((table, inc, seq), row)] of the held rows not accepted of round rnd's matches, in
    their tables' number order; after: only those past that (table, inc, seq)."""
    rows = []
    for h in svc.db.refusals("held"):
        if h.get("match") is None or svc.db.accepted_of(h["id"]) is not None:
            continue
        key = (h["table"], h["inc"], h["seq"])
        if after is not None and key <= tuple(after):
            continue
        head = _head(svc, h["table"], h["inc"], h["match"])
        if head is not None and head.get("round") == rnd:
            rows.append((key, h["id"]))
    return sorted(rows)


def _accept_one(svc, rid, why, given, tables):
    """Accept refused row rid: the note of what counts now; raises Declined."""
    try:
        table, msg = svc.db.refused_result(rid)
    except ValueError as e:
        raise Declined(str(e)) from None
    if svc.db.accepted_of(rid) is not None:
        raise Declined("row %d is already accepted" % rid)
    counted = svc.event.counted(table, msg["inc"], msg["seq"])
    if counted == msg:
        raise Declined("row %d already counts (the same copy)" % rid)
    what = "%s %s #%d %s" % (table, msg["inc"], msg["seq"], msg["kind"])
    count, how_scored = _what_counts(svc, rid, table, msg, given)
    svc.db.add_accepted(rid, why, count if count != msg else None)
    how = svc.event.take(table, count, accept_entry(rid, table, count, why))
    if counted is not None:
        # The copy that counted is kept aside in its turn: the director may choose it back.
        # Its copies sent again later are copies of this row (club/db.py's digest_of).
        svc.db.add_copy("conflict", wire.topic(table, wire.RESULT),
                        json.dumps(counted, separators=(",", ":")).encode(),
                        "conflict: %s replaced by the director's accept of row %d"
                        % (what, rid), digest_of(counted), (table, msg["inc"], msg["seq"]))
    tables.append(table)
    # A held result's number was taken but counted nothing: it now counts, in no copy's place.
    return "%s counts%s%s" % (what, how_scored, ", in place of the copy that did"
                              if how == "replaced" and counted is not None else "")


def _what_counts(svc, rid, table, msg, given):
    """(the message that counts for refused row rid's result msg, what the note adds).

    A deal counts as the core scores its entries (club/legal.py), whatever it claims;
    without entries the core can score, as the director gives it (game points, winner,
    over), if one deal can give that; else the accept is declined with what to give."""
    if given is not None and not isinstance(given, dict):
        raise Declined("a result: game points, winner, over")
    if msg["kind"] == "match":
        if given is not None:
            raise Declined("row %d is a match's start: it has no result to give" % rid)
        try:
            legal.outcomes(msg, [], 1)  # the core starts the match
        except legal.Illegal as e:
            raise Declined("row %d cannot count: %s" % (rid, e)) from None
        return msg, ""
    if msg["kind"] != "deal":
        if given is not None:
            raise Declined("row %d is a %s: it has no result to give" % (rid, msg["kind"]))
        return msg, ""
    head = _head(svc, table, msg["inc"], msg["match"])
    live = _live(svc, table, msg["inc"], msg["match"])
    d = msg["deal"]
    try:
        core = legal.scored(head, live, d, msg.get("ev"))
    except legal.Illegal as e:
        unusable = str(e)
    else:
        mine = {f: core[f] for f in ("gp", "winner", "reason", "over")}
        if given is not None and _given(given) != _given(mine):
            raise Declined(
                "row %d's entries score %s: accept it without a result to count that, or "
                "correct the deal after" % (rid, _result(mine)))
        count = dict(msg, **mine)
        if count == msg:
            return msg, ""
        return count, " as its entries score: %s%s" % (_result(mine), _said(mine, msg))
    if given is None:
        try:
            hint = "; one deal can give (GP,GP WINNER): " + legal.menu(
                legal.outcomes(head, live, d))
        except legal.Illegal:
            hint = ""
        raise Declined("row %d has no entries the core can score (%s): give its result: "
                       "accept %d --gp GP,GP --winner SIDE [--over SIDE]%s"
                       % (rid, unusable, rid, hint))
    mine = dict(_given(given), reason="director")
    try:
        legal.given(head, live, d, mine["gp"], mine["winner"], mine["over"])
    except legal.Illegal as e:
        raise Declined("row %d: %s" % (rid, e)) from None
    count = dict(msg, **mine)
    try:
        validate(count)
    except Invalid as e:
        raise Declined(str(e)) from None
    return count, " as given: %s%s" % (_result(mine), _said(mine, msg))


def _given(g):
    return {"gp": g.get("gp"), "winner": g.get("winner"), "over": g.get("over", -1)}


def _said(mine, msg):
    return "" if _result(mine) == _result(msg) else " (it said %s)" % _result(msg)


def _result(m):
    text = "%s winner %s" % (":".join(str(g) for g in m.get("gp") or []), m.get("winner"))
    return text + (" over %s" % m["over"] if m.get("over", -1) != -1 else "")


def _close(svc, r):
    if svc.event.closed:  # closed once: a second close changes nothing
        return _accepted(svc, "already closed: nothing changed")
    svc.db.set_meta("closed", "1")
    svc.event.closed = True
    counted, held = svc.event.tally()
    return _accepted(svc, "closed: %d results counted%s" % (
        counted, ", %d held" % held if held else ""))


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


PAGE_ROWS = 40  # rows of one list reply at most
REPLY_BYTES = 6000  # a reply's rows at most: the broker takes 8 KB a message (venue.conf)


def _list(svc, r):
    """A page of the results that do not count, newest first, as many as fit one reply
    (MQTT, 8 KB): those below row `before` (from the newest without it). Every count is
    exact, made in SQL over every row: "counts" per outcome, "total", "newer" (rows
    before this page), "next" (the `before` of the next page; None at the last)."""
    before = r.get("before")
    if before is not None:
        before = _int(r, "before")
    counts = svc.db.not_counted_counts()
    found, newer = svc.db.not_counted_page(before, PAGE_ROWS + 1)
    rows, size = [], 0
    for x in found[:PAGE_ROWS]:
        row = {k: x.get(k) for k in ("id", "kind", "table", "inc", "seq", "match", "deal",
                                     "what", "code", "topic", "copies")}
        row.update(why=x["why"][:200], body=x["body"][:160])
        size += len(json.dumps(row)) + 2
        if rows and size > REPLY_BYTES:
            break
        rows.append(row)
    more = len(found) > len(rows)
    return {"ok": True, "verdict": "accepted", "rows": rows, "counts": counts,
            "total": sum(counts.values()), "newer": newer,
            "next": rows[-1]["id"] if more and rows else None}


def _seat(svc, r):
    """A round's seating, checked whole before any of it is stored: a round from 1, rules
    and names the core takes (sixtysix: the rule set, its number of players, the name
    rule), each table once, each player at one table of the round. Stored at once (the
    director publishes the retained seatings to the tables only after this accepts)."""
    _open(svc)
    from sixtysix.errors import Refused
    from sixtysix.match import Match

    rnd = _int(r, "round")
    if rnd < 1:
        raise Declined("round: 1 or more (round 0 is a table's own match)")
    rules, seats = r.get("rules"), r.get("seats")
    if not isinstance(rules, str) or not rules.strip() or len(rules) > 80:
        raise Declined("rules: a rule set, e.g. classic66")
    if not isinstance(seats, list) or not seats or len(seats) > 200:
        raise Declined("seats: TABLE=NAME,NAME ... (1 to 200 tables)")
    tables, players = set(), {}
    for seat in seats:
        if (not isinstance(seat, list) or len(seat) != 2 or not isinstance(seat[0], str)
                or not isinstance(seat[1], list)
                or not all(isinstance(n, str) for n in seat[1])):
            raise Declined("a seat is [table, [names]]")
        table, names = seat
        if not wire_table(table):
            raise Declined("table %r: letters, digits and '-', as its login" % table[:20])
        if logins.not_a_table(table):
            raise Declined(logins.not_a_table(table))
        if table in tables:
            raise Declined("table %s is seated twice: once a round" % table)
        tables.add(table)
        try:
            Match().enter_line("new %s names=%s" % (rules, ",".join(names)))
        except Refused as e:
            raise Declined("table %s: the core refuses %r with %s: %s" % (
                table, rules, ",".join(names)[:80], e.code)) from None
        for n in names:
            if n in players:
                raise Declined("%s is seated at %s and at %s in round %d"
                               % (n, players[n], table, rnd))
            players[n] = table
    ev = svc.event
    seated_elsewhere = {}
    for (t, n_rnd), seat in sorted(ev.seats.items()):  # the round's other tables
        if n_rnd == rnd and t not in tables:
            for n in seat.get("names") or ():
                seated_elsewhere[n] = t
                if n in players:
                    raise Declined("%s is seated at %s and at %s in round %d (seat %s "
                                   "again to move them)" % (n, t, players[n], rnd, t))
    all_byes = _byes(svc)
    had_byes = all_byes.get(str(rnd), [])
    byes = r.get("byes")
    if byes is None:  # a player this seating seats no longer sits out: the seating replaces it
        byes = [n for n in had_byes if n not in players]
    if not isinstance(byes, list) or not all(isinstance(n, str) and valid(n) for n in byes):
        raise Declined("byes: the names of the players who sit out")
    for n in byes:
        if byes.count(n) > 1:
            raise Declined("%s has the bye twice" % n)
        if n in players or n in seated_elsewhere:
            raise Declined("%s has round %d's bye and is seated at %s: a player sits out "
                           "or plays (give --bye with the round's byes but %s; --bye alone "
                           "for none)" % (n, rnd, players.get(n) or seated_elsewhere[n], n))
    replaced = []  # (table, the seating it had) of this round that this one changes
    for table, names in seats:
        had = ev.seats.get((table, rnd))
        if had is not None and had != {"round": rnd, "names": names, "rules": rules}:
            replaced.append((table, had))
    if byes != had_byes and had_byes:
        replaced.append(("bye", {"names": had_byes}))
    played = _played(ev, rnd)
    if replaced and played and r.get("force") is not True:
        raise Declined("round %d is played already (%s): seating it again replaces %s; "
                       "give --force to replace it" % (rnd, played, _seatings(replaced)))
    if byes != had_byes:
        all_byes[str(rnd)] = byes
        if not byes:
            del all_byes[str(rnd)]
        svc.db.set_meta(BYES, json.dumps(all_byes, sort_keys=True))
        ev.set_byes(all_byes)
    released = 0
    for table, names in seats:
        body = {"round": rnd, "names": names, "rules": rules}
        if ev.seats.get((table, rnd)) != body:
            released += len(svc.seated(table, body))
    unheard = sorted(t for t in tables if t not in ev.latest_inc)
    note = "round %d: %d tables" % (rnd, len(tables))
    if byes:
        note += "; a bye (no match, scores a won match): " + " ".join(byes)
    if "byes" not in r and byes != had_byes:
        note += "; seated, so no longer a bye: " + " ".join(n for n in had_byes if n in players)
    if replaced and played:
        note += "; replaced (--force) %s of a round played already (%s): its matches " \
            "stay as they were judged" % (_seatings(replaced), played)
    if released:
        note += "; %d results held as not seated now count" % released
    if unheard:
        note += "; not heard from yet (check each has a login): " + " ".join(unheard[:20])
    return _accepted(svc, note)


def _byes(svc):
    """{"round": [names]} of the byes the director gave (seat --bye)."""
    return svc.db.byes()


def _rounds(svc, r):
    """Every round's seatings as the service keeps them, for pairing (club/pairing.py):
    a page of [round, table, names] after r["after"] ([round, table]), as many as fit one
    reply, "next" the after of the next page (None at the last), and every bye."""
    after = r.get("after")
    if after is not None and (not isinstance(after, list) or len(after) != 2):
        raise Declined("after: [round, table]")
    rows = sorted([rnd, t, list(s.get("names") or [])]
                  for (t, rnd), s in svc.event.seats.items() if isinstance(rnd, int))
    if after is not None:
        rows = [x for x in rows if (x[0], x[1]) > (after[0], after[1])]
    out, size = [], 0
    for x in rows:
        size += len(json.dumps(x)) + 2
        if out and size > REPLY_BYTES:
            break
        out.append(x)
    return {"ok": True, "verdict": "accepted", "seats": out, "byes": _byes(svc),
            "next": out[-1][:2] if len(out) < len(rows) else None}


def _played(ev, rnd):
    """What says round rnd is played already ("3 matches heard", "round 4 seated"), or
    "" while it is not: a match of it heard from a table, or a later round seated."""
    heard = sum(1 for m in ev.results.values()
                if m["kind"] == "match" and m.get("round") == rnd)
    later = max([r for _t, r in ev.seats if r > rnd] or [0])
    said = []
    if heard:
        said.append("%d match%s heard" % (heard, "es" if heard > 1 else ""))
    if later:
        said.append("round %d seated" % later)
    return ", ".join(said)


def _seatings(replaced):
    """The seatings a seat replaces, as the seat command writes them."""
    return " ".join("%s=%s" % (t, ",".join(had.get("names") or ())) if t != "bye" else
                    "the bye of %s" % " ".join(had["names"]) for t, had in replaced)


def fit(reply, limit=7000):
    """The reply as sent over MQTT, under the broker's 8 KB a message whatever it holds:
    list and accept page their rows by request, so this only cuts a long reason short."""
    if len(json.dumps(reply).encode()) <= limit:
        return reply
    out = dict(reply)
    for k in ("note", "why"):
        if isinstance(out.get(k), str) and len(out[k]) > 500:
            out[k] = out[k][:500] + " ..."
    while out.get("rows") and len(json.dumps(out).encode()) > limit:
        out["rows"] = out["rows"][:-1]
        out["cut"] = True
    return out


def wire_table(table):
    """A table id as the broker's logins and topics take it."""
    return 1 <= len(table) <= 20 and all(c.isalnum() or c == "-" for c in table) \
        and table.isascii()


_COMMANDS = {"correct": _correct, "void": _correct, "accept": _accept, "close": _close,
             "reopen": _reopen, "list": _list, "seat": _seat, "rounds": _rounds}
