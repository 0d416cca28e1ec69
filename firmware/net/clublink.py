"""The table at a club night: its results go to the club's broker, the director's seating
comes back. loop.py loads this only on a board whose board file says "wifi": true and
that has a club.json beside it; nothing here runs otherwise.

club.json (deployed beside board.json, never committed):
  {"table": "t07", "password": "...", "broker": "192.168.4.1", "port": 1883,
   "ssid": "ClubWiFi", "wifi_password": "...", "keepalive": 30, "resend_s": 20,
   "fleet_key": "<hex>"}   (the club's key for updates over WiFi: update/job.py)
  A table on a battery adds "connect": "to_send" (and "news_s"): net/clubsend.py's
  ClubToSend, WiFi up only to send; the default, "always", is this Club, up all evening.

Topics (net/wire.py has them and the messages; the broker's ACL lets table t07 write only
club/t07/result and its update's wants and state, read only its ack, its seating and its
update's offer and pieces):
  club/<table>/result  the table's results, QoS 1
  club/<table>/ack     retained, from the standings service: "<inc> <seq>", every result
                       up to seq is applied
  club/<table>/seat    retained, from the director: {"round": R, "names": [..],
                       "rules": "classic66 target=7"}
  club/<table>/fw/...  an update over WiFi (club/fleet.py): the offer is only kept (fw)
                       until the table is free, no match under way and every result acked;
                       then update/job.py, loaded for it, takes the bundle (its docstring)

poll(now) is one short step, never a wait: the keys stay instant with no WiFi at all.
Results are resent from the last acknowledged one whenever the link comes up, and again
when no ack has come for resend_s seconds (the service may be down: the broker keeps them
for it, and a resend is harmless, the service applies each (table, inc, seq) once).

Club is the policy (when to connect, what to send, resend, seatings); the link is the
protocol, built by the caller and handed in: net/mqtt.py's MQTT on a board, web/webclub.py's
JsLink in the browser, both with the same open(sock, handler, now) and net/wire.py's
states. The Club knows no screen: it reports to on_event(code, arg), and the App (ui/app.py,
club_event) turns the codes into the scoreboard's mark and the bottom line's words:
  "mark"     1 results wait for the ack, 2 all acknowledged (sent when it changes)
  "seated"   (round, names): a seating started its match (the App goes home)
  "seat"     a seating's match refused by the rules (arg: the Refused code) or, arg
             None, not written (flash)
  "refused"  the broker's CONNACK code
  "flash"    the outbox's write failed       "topic"    a subscription refused
  "seating"  a seating that is not one       "name"     a seating with a bad name
  "gap"      the service has results this table no longer has (its flash went back to
             an older copy): numbering goes on after the service's (net/outbox.py)
  "result too big"  a deal's message would pass the broker's limit (net/wire.py's MAX; no
             deal the rules allow does): it went without its entries, and the service
             holds it for the director (the App shows the code as it is: no text of its
             own, so the language files, in every table's heap, stay as they are)
  "twin"     another device uses this table's login: the broker (use_username_as_clientid)
             ended the connection soon after it came up, _TAKEN times in a row, as it does
             when a second client logs in with the same name. The two would knock each other
             off for ever; this one tries again only every _TAKEN_RETRY ms, until a
             connection lasts
"""

import json

from compat import ticks_add, ticks_diff
from sixtysix.errors import Refused

from net import wire
from net.outbox import Outbox

_WINDOW = 4  # results published and not yet PUBACKed
_SHORT = 10000  # ms: a connection ended sooner than this after its CONNACK...
_TAKEN = 3  # ...this many times in a row: another device uses the login
_TAKEN_RETRY = 60000  # ms between tries then


class Club:
    """link: the MQTT client (state, open(sock, handler, now), publish, subscribe, poll,
    due, close); on_event(code, arg): see above; session: the match (session/__init__.py);
    store: the outbox's (store/journal.py); cfg: club.json; socket: the socket module (None:
    the link has its own transport, the browser's); wlan: the board's WiFi (None: the host's
    network)."""

    def __init__(self, link, on_event, session, store, cfg, now, socket, wlan=None):
        self.link = link
        self.on_event = on_event
        self.session = session
        self.cfg = cfg
        self.socket = socket
        self.wlan = wlan
        self.outbox = Outbox(store)
        self.outbox.load()
        table = cfg["table"]
        self.t_result = wire.topic(table, wire.RESULT)
        self.t_ack = wire.topic(table, wire.ACK).encode()
        self.t_seat = wire.topic(table, wire.SEAT).encode()
        self.resend_ms = int(cfg.get("resend_s", 20) * 1000)
        self._addr = None
        self._retry_at = now
        self._backoff = 1000
        self._asked_wifi = False
        self._inflight = []  # [pid, seq] of results published and not yet PUBACKed
        self._sent = 0  # the highest seq published on this connection
        self._heard = now  # when the service last acked (or the link came up)
        self._up = None  # when the connection came up (None: not up)
        self._short = 0  # connections in a row that ended soon after they came up
        self._now = now
        self._seen = -1  # the session's change count at the last sync
        self._seating = None  # a seating waiting for the match in progress to end
        self._cut = 0  # the outbox's last result without its entries, as last reported
        self.fw = None  # an update's offer (bytes) or its job (update/job.py)
        self.mark = 0  # as last reported ("mark")
        self.status = "offline"
        self.refused = ""  # why the broker refused us (shown once)

    # ---- the loop ----

    def poll(self, now):
        self._now = now
        s = self.session
        if s.changes != self._seen:
            self._seen = s.changes
            try:
                self.outbox.sync(s)
            except OSError:
                self.on_event("flash", None)
            if self.outbox.cut != self._cut:
                self._cut = self.outbox.cut
                self.on_event("result too big", self._cut)
        if self._seating is not None:
            self._take_seating()
        m = self.link
        if m.state == wire.CLOSED:
            if not self._wifi_up() or ticks_diff(now, self._retry_at) < 0:
                self._mark()
                return
            self.connect(now)
        if m.state == wire.UP:
            self._send(now)
            fw = self.fw  # an update: started only between matches, all results sent
            if fw is not None and (fw.__class__ is not bytes
                                   or self.stage() != 1 and not self.outbox.pending):
                from update.job import step

                step(self, now)
        m.poll(now)
        self._mark()

    def stage(self):
        """The session's match: 0 none, or nothing entered in it yet; 1 under way; 2 over.
        (A seating's match starts only at 0, or at 2 once all is sent; an update only
        between matches.) Here, not in the Session: a board without the club never asks."""
        m = self.session.match
        st = m.state
        if st is None:
            return 0
        if st.over:
            return 2
        return 1 if st.deals() or m.log else 0

    def wait_ms(self):
        """How long the loop may sleep without keeping the link waiting."""
        m = self.link
        if m.state == wire.UP and not m.due():
            return 500
        return 20

    def _wifi_up(self):
        w = self.wlan
        if w is None:
            return True  # the host's network (simulator, tests)
        if w.isconnected():
            return True
        if not self._asked_wifi:
            self._asked_wifi = True
            w.active(True)
            try:  # power save: every third beacon; keepalive and outbox still hold
                w.config(pm=w.PM_POWERSAVE)
            except (AttributeError, ValueError, OSError):
                pass  # a firmware without it: its default power save
            w.connect(self.cfg["ssid"], self.cfg.get("wifi_password", ""))
            self.status = "wifi"
        return False

    def connect(self, now):
        """Open the link now (poll() calls this when the link is closed and a try is due):
        on a board a socket to cfg's broker and port, in the browser the link's own."""
        sock = None
        if self.socket is not None:
            from net.mqtt import open_socket

            try:
                if self._addr is None:
                    info = self.socket.getaddrinfo(self.cfg["broker"], self.cfg.get("port", 1883))
                    self._addr = info[0][-1]
                sock = open_socket(self.socket, self._addr)
            except OSError as e:
                self.down("no broker (%s)" % (e.args[0],))
                return
        self.status = "connecting"
        self.link.open(sock, self, now)

    def _send(self, now):
        ob = self.outbox
        if self._inflight or not ob.pending:
            return
        if self._sent >= ob.pending[-1][0]:
            if ticks_diff(now, self._heard) < self.resend_ms:
                return
            self._sent = ob.acked  # no ack for a while: send them all again
            self._heard = now
        for seq, payload in ob.pending:
            if len(self._inflight) >= _WINDOW:
                break
            if seq > self._sent:
                pid = self.link.publish(self.t_result, payload, qos=1)
                self._inflight.append([pid, seq])
                self._sent = seq

    def _mark(self):
        mark = 1 if self.outbox.pending else 2
        if self.mark != mark:
            self.mark = mark
            self.on_event("mark", mark)

    # ---- events from the MQTT client ----

    def connack(self, code):
        if code:
            why = wire.REFUSALS[code] if code < len(wire.REFUSALS) else str(code)
            self.refused = why
            self.status = "refused: " + why
            # The bottom line speaks the table's language; status stays English (logs).
            self.on_event("refused", code)
            self._later(60000)
            return
        self.status = "online"
        self.refused = ""
        self._up = self._now
        self._backoff = 1000
        self._inflight = []
        self._sent = self.outbox.acked
        self._heard = self._now
        self.link.subscribe(self.t_ack)
        self.link.subscribe(self.t_seat)
        if "fleet_key" in self.cfg:  # a table that takes updates over WiFi (update/job.py)
            self.link.subscribe(self.fw_topic(wire.FW_OFFER))

    def suback(self, pid, granted):
        if granted == 0x80:
            self.status = "refused: not authorised"
            self.on_event("topic", None)

    def puback(self, pid):
        f = self._inflight
        for i in range(len(f)):
            if f[i][0] == pid:
                f.pop(i)
                return

    def message(self, topic, payload):
        if topic == self.t_ack:
            inc, _, seq = payload.decode().partition(" ")
            got = self.outbox.ack(inc, int(seq)) if seq.isdigit() else 0
            if got:
                self._heard = self._now
            if got == 2:
                self.on_event("gap", None)
        elif topic == self.t_seat:
            try:
                seat = json.loads(payload)
                rnd = seat["round"]
                if type(rnd) is int and rnd > self.outbox.seated:
                    self._seating = seat
                    self._take_seating()
            except (ValueError, KeyError, TypeError):
                self.on_event("seating", None)
        elif topic == self.fw_topic(wire.FW_OFFER):  # an update, kept until the table is free
            fw = self.fw
            if fw is None or fw.__class__ is bytes:
                self.fw = payload or None
            else:
                fw.offered(payload)  # while a job runs: a newer one replaces it (update/job.py)
        elif self.fw is not None and self.fw.__class__ is not bytes:
            self.fw.part(payload, self._now)  # a piece of it (update/job.py)

    def fw_topic(self, kind):
        """This table's update topic of `kind` (net/wire.py FW_*), as bytes."""
        return wire.fw_topic(self.cfg["table"], kind).encode()

    def down(self, why):
        self.link.close()
        self._inflight = []
        up = self._up
        self._up = None
        if up is not None:
            self._short = self._short + 1 if ticks_diff(self._now, up) < _SHORT else 0
            if self._short >= _TAKEN:
                self.status = "offline: another device uses this table's login"
                self.on_event("twin", None)
                self._later(_TAKEN_RETRY)
                return
        self.status = "offline: " + why
        self._later(self._backoff)
        self._backoff = min(self._backoff * 2, 30000)

    def _later(self, ms):
        self._retry_at = ticks_add(self._now, ms)

    # ---- seating ----

    def _take_seating(self):
        """Start the round's match when the table is free: no match, a match with nothing
        entered yet, or a finished one whose results the service has all."""
        s = self.session
        stage = self.stage()
        seat = self._seating
        if stage == 1 or (stage == 2 and self.outbox.pending) or seat is None:
            return
        self._seating = None
        try:
            s.new_match(wire.seat_line(seat))
        except wire.Invalid as e:
            self.on_event(e.args[0], None)  # "seating" or "name"
            return
        except Refused as e:
            self.on_event("seat", e.code)
            return
        except OSError:
            self.on_event("seat", None)
            return
        self.outbox.take_seating(seat["round"])
        self.on_event("seated", (seat["round"], seat["names"]))
