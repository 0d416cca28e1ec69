"""The club's messages on the wire: built here by the table (net/outbox.py), validated
here by the standings service (club/standings.py), the same code on MicroPython and CPython.

A result (topic club/<table>/result, QoS 1) is JSON, one of three kinds:
  {"v":1,"inc":"..","seq":N,"kind":"match","match":M,"round":R,"names":[..],"rules":".."}
  {"v":1,"inc":"..","seq":N,"kind":"deal","match":M,"deal":D,"gp":[..],"reason":"..",
   "winner":W,"over":X,"ev":".."}
                           gp: game points per side, W: the deal's winner side (-1: none),
                           X: the match winner side after this deal (-1: not over),
                           ev: the deal's entries as the match's journal has them (each
                           record in hex, separated by spaces; null when the table no
                           longer has them), which the service scores again
  {"v":1,"inc":"..","seq":N,"kind":"void","match":M,"deal":D}
  {"v":1,"inc":"..","seq":N,"kind":"gap","from":F,"to":T}
                           the table's flash went back to an older copy: the service
                           has results F..T that the table no longer knows; N is T+1
A deal may also carry "cut":B, with "ev" null: its entries were left out because with them
the message was B bytes, over MAX bytes (result() below); the service holds such a deal
for the director (club/rescore.py). No deal the rules allow comes near MAX (a deal has a
few dozen entries, a message a few hundred bytes: host_tests/test_club_outbox.py).
inc is the table's outbox incarnation, seq its number for the result (net/outbox.py); the
names are players' names as sixtysix/names.py has them; rules is the match's `new` line
without "new" and its names (the rule set, its options, the first dealer), so the service
can start the same match in the same core.

A seating (club/<table>/seat, retained, from the director) is
  {"round": R, "names": [..], "rules": "classic66 target=7"}
and seat_line() turns it into the `new` line that starts its match.

The topics are spelled here only (topic(), table_of() and the names below), for the table,
the browser table, the service, the director and the tools; the broker's ACL
(club/mosquitto/acl) lets table t07 write only club/t07/result and read club/t07/#:
  club/<table>/result   the table's results (above), QoS 1
  club/<table>/ack      retained, from the service: "<inc> <seq>", every result up to seq
                        is applied
  club/<table>/seat     retained, from the director: a seating (above)
  club/director/do/<id>, club/director/reply/<id>   the director's requests and verdicts
  club/standings, club/standings/<n>, club/standings/want   the standings (club/bounded.py)
  club/service/probe    the service's own retained probe (club/service.py)
The link's states and the broker's refusals are here too: net/mqtt.py's client on a
board and web/webclub.py's JsLink in the browser have the same ones.
"""

from compat import dumps

# ---- topics ----

RESULT = "result"
ACK = "ack"
SEAT = "seat"
DIRECTOR_DO = "club/director/do/"  # + the request's id
DIRECTOR_REPLY = "club/director/reply/"
STANDINGS = "club/standings"  # the retained head; its parts on STANDINGS/<n>
WANT = STANDINGS + "/want"  # a reader's request for every part
PROBE = "club/service/probe"


# An update over WiFi (update/job.py, club/fleet.py): club/<table>/fw/<kind>.
FW_OFFER = "offer"  # retained, from the club
FW_WANT = "want"  # from the table: the next piece it needs
FW_PART = "part"  # from the club: a piece
FW_STATE = "state"  # retained, from the table: what it runs, takes or refused


def topic(table, kind):
    """A table's topic: kind RESULT, ACK or SEAT ("+" as the table: every table's)."""
    return "club/" + table + "/" + kind


def fw_topic(table, kind):
    """A table's update topic: kind FW_OFFER, FW_WANT, FW_PART or FW_STATE."""
    return topic(table, "fw/" + kind)


def table_of(name, kind):
    """The table of a table's topic of this kind ("club/t07/result": "t07"), else None."""
    parts = name.split("/")
    if len(parts) == 3 and parts[0] == "club" and parts[2] == kind:
        return parts[1]
    return None


# ---- the link (net/mqtt.py's MQTT, web/webclub.py's JsLink) ----

CLOSED = 0
OPENING = 1  # TCP connecting, CONNECT queued
WAITING = 2  # CONNECT sent, waiting for CONNACK
UP = 3
# A CONNACK's refusal codes 1..5 (MQTT 3.1.1), in words.
REFUSALS = ("", "protocol version", "client id", "server unavailable", "bad user or password",
            "not authorised")


def next_pid(pid):
    """The packet id after pid: 1..65535, round again."""
    return pid % 65535 + 1


KINDS = ("match", "deal", "void", "gap")
# Bytes of a result: the venue broker's message_size_limit (club/mosquitto/venue.conf), over
# which it drops a message unheard (MQTT 3.1.1 cannot say so), and the service's limit.
MAX = 8192


class Invalid(ValueError):
    """A message that is not one: args[0] says why ("name" for a seating's bad name)."""


# ---- building (the table) ----


def result(inc, seq, body):
    """The payload of result `seq`: one of the bodies below, after v, inc and seq. Never
    over MAX bytes: a deal whose entries would make it longer goes without them, with "cut"
    the bytes it had (see above)."""
    p = '{"v":1,"inc":"%s","seq":%d,%s' % (inc, seq, dumps(body)[1:])
    n = len(p.encode())
    if n > MAX and body.get("ev"):
        body = dict(body)
        body["ev"] = None
        body["cut"] = n
        p = result(inc, seq, body)
    return p


def match(mid, rnd, names, rules):
    return {"kind": "match", "match": mid, "round": rnd, "names": names, "rules": rules}


def deal(mid, d, gp, reason, winner, over, ev=None):
    return {"kind": "deal", "match": mid, "deal": d, "gp": gp, "reason": reason,
            "winner": winner, "over": over, "ev": ev}


def deal_body(m, mid, i):
    """The `deal` body of deal i (0-based) of m (a sixtysix Match) in match mid, with its
    entries while the match still holds them: the last deal's, in the log before the
    current one (Match.prev), or in the current log once the match is over. "ev" is their
    records (the core's log_records) as hex, space-separated; the service scores them again
    (club/rescore.py)."""
    from sixtysix.match import log_records

    state = m.state
    _dealer, reason, winner, awards, _pts = state.row(i)
    gp = [0] * state.rules.sides
    for side, points, _markers in awards:
        gp[side] += points
    last = i == state.deals() - 1
    over = state.winner if state.over and last else -1
    log = None
    if last:
        log = m.log if state.over else m.prev[1] if m.prev else None
    ev = None
    if log is not None:
        ev = " ".join([r.hex() for r in log_records(log)])
    return deal(mid, i + 1, gp, reason, winner, over, ev)


def void(mid, d):
    return {"kind": "void", "match": mid, "deal": d}


def seat_line(seat):
    """The `new` line of a seating (decoded JSON). Raises Invalid: "seating" for what is
    not one, "name" for a name that is not a player's name."""
    from sixtysix.names import valid

    names = seat.get("names")
    rules = seat.get("rules")
    if type(names) is not list or type(rules) is not str:
        raise Invalid("seating")
    for n in names:
        if not valid(n):
            raise Invalid("name")
    return "new %s names=%s" % (rules, ",".join(names))


# ---- validating (the service) ----


def _int(msg, key, low=0, high=1 << 30):
    v = msg.get(key)
    if type(v) is not int or not low <= v <= high:
        raise Invalid("%s: not an integer in %d..%d" % (key, low, high))
    return v


def validate(msg):
    """Validate one decoded result message: its form, not whether the standings take it;
    raises Invalid, changes nothing. Returns (inc, seq)."""
    from sixtysix.names import valid

    if not isinstance(msg, dict):
        raise Invalid("not an object")
    if msg.get("v") != 1:
        raise Invalid("v: unknown version")
    inc = msg.get("inc")
    if not isinstance(inc, str) or not 1 <= len(inc) <= 16 or not inc.isalnum():
        raise Invalid("inc: not an id")
    seq = _int(msg, "seq", 1)
    kind = msg.get("kind")
    if kind not in KINDS:
        raise Invalid("kind: unknown")
    if kind == "gap":
        last = _int(msg, "to", 1, seq - 1)
        _int(msg, "from", 1, last)
        return inc, seq
    _int(msg, "match", 1)
    if kind == "match":
        _int(msg, "round", 0, 999)
        names = msg.get("names")
        if not isinstance(names, list) or not 2 <= len(names) <= 4:
            raise Invalid("names: 2 to 4 names")
        for n in names:
            if not valid(n):
                raise Invalid("names: not a player's name")
        if not isinstance(msg.get("rules"), str):
            raise Invalid("rules: not a string")
    else:
        _int(msg, "deal", 1, 9999)
    if kind == "deal":
        gp = msg.get("gp")
        if not isinstance(gp, list) or not 2 <= len(gp) <= 4:
            raise Invalid("gp: 2 to 4 small integers")
        for g in gp:
            if type(g) is not int or not 0 <= g <= 99:
                raise Invalid("gp: 2 to 4 small integers")
        _int(msg, "winner", -1, len(gp) - 1)
        _int(msg, "over", -1, len(gp) - 1)
        if not isinstance(msg.get("reason"), str):
            raise Invalid("reason: not a string")
        ev = msg.get("ev")
        if ev is not None and not isinstance(ev, str):
            raise Invalid("ev: not a string")
        if "cut" in msg:
            _int(msg, "cut", MAX + 1)
    return inc, seq
