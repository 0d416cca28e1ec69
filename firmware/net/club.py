"""The table at a club night: its results go to the club's broker, the director's seating
comes back. start.py loads this only on a board whose board file says "wifi": true and
that has a club.json beside it; nothing here runs otherwise.

club.json (deployed beside board.json, never committed):
  {"table": "t07", "password": "...", "broker": "192.168.4.1", "port": 1883,
   "ssid": "ClubWiFi", "wifi_password": "...", "keepalive": 30, "resend_s": 20}

Topics (the broker's ACL lets table t07 write only club/t07/result, read club/t07/#):
  club/<table>/result  the table's results, QoS 1 (net/outbox.py has the schema)
  club/<table>/ack     retained, from the standings service: "<inc> <seq>", every result
                       up to seq is applied
  club/<table>/seat    retained, from the director: {"round": R, "names": [..],
                       "rules": "classic66 target=7"}

poll(now) is one short step, never a wait: the keys stay instant with no WiFi at all.
Results are resent from the last acknowledged one whenever the link comes up, and again
when no ack has come for resend_s seconds (the service may be down: the broker keeps them
for it, and a resend is harmless, the service applies each (table, inc, seq) once).

app.club_mark tells the scoreboard: 1 results wait for the ack, 2 all acknowledged.
"""

import json

from compat import ticks_add, ticks_diff
from ui.i18n import t

from net import mqtt
from net.outbox import Outbox

_WINDOW = 4  # results published and not yet PUBACKed
_NAME_BAD = " ,="  # a name cannot hold these (the `new` line's separators)


class Club:
    def __init__(self, cfg, session, app, store, socket, wlan, now):
        self.cfg = cfg
        self.session = session
        self.app = app
        self.socket = socket
        self.wlan = wlan
        table = cfg["table"]
        self.outbox = Outbox(store)
        self.outbox.load()
        self.mqtt = mqtt.MQTT("table-" + table, table, cfg.get("password"),
                              cfg.get("keepalive", 30))
        base = "club/" + table
        self.t_result = base + "/result"
        self.t_ack = (base + "/ack").encode()
        self.t_seat = (base + "/seat").encode()
        self.resend_ms = int(cfg.get("resend_s", 20) * 1000)
        self._addr = None
        self._retry_at = now
        self._backoff = 1000
        self._asked_wifi = False
        self._inflight = []  # [pid, seq] of results published and not yet PUBACKed
        self._sent = 0  # the highest seq published on this connection
        self._heard = now  # when the service last acked (or the link came up)
        self._now = now
        self._seen = -1  # the match store's bytes_written at the last sync
        self._seating = None  # a seating waiting for the match in progress to end
        self.status = "offline"
        self.refused = ""  # why the broker refused us (shown once)

    # ---- the loop ----

    def poll(self, now):
        self._now = now
        store = self.session.store
        if store.bytes_written != self._seen:
            self._seen = store.bytes_written
            try:
                self.outbox.sync(self.session)
            except OSError:
                self.app.say(t("club flash"))
        if self._seating is not None:
            self._take_seating()
        m = self.mqtt
        if m.state == mqtt.CLOSED:
            if not self._wifi_up() or ticks_diff(now, self._retry_at) < 0:
                self._mark()
                return
            self._connect(now)
        if m.state == mqtt.UP:
            self._send(now)
        m.poll(now)
        self._mark()

    def wait_ms(self):
        """How long the loop may sleep without keeping the link waiting."""
        m = self.mqtt
        if m.state == mqtt.UP and not m.due():
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
            w.connect(self.cfg["ssid"], self.cfg.get("wifi_password", ""))
            self.status = "wifi"
        return False

    def _connect(self, now):
        try:
            if self._addr is None:
                info = self.socket.getaddrinfo(self.cfg["broker"], self.cfg.get("port", 1883))
                self._addr = info[0][-1]
            sock = mqtt.open_socket(self.socket, self._addr)
        except OSError as e:
            self.down("no broker (%s)" % (e.args[0],))
            return
        self.status = "connecting"
        self.mqtt.open(sock, self, now)

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
                pid = self.mqtt.publish(self.t_result, payload, qos=1)
                self._inflight.append([pid, seq])
                self._sent = seq

    def _mark(self):
        mark = 1 if self.outbox.pending else 2
        app = self.app
        if app.club_mark != mark:
            app.club_mark = mark
            app.dirty = True

    # ---- events from the MQTT client ----

    def connack(self, code):
        if code:
            why = mqtt.REFUSALS[code] if code < len(mqtt.REFUSALS) else str(code)
            self.refused = why
            self.status = "refused: " + why
            # The bottom line speaks the table's language; status stays English (logs).
            self.app.say(t("club %d" % code) if code < len(mqtt.REFUSALS) else "club: " + why)
            self._later(60000)
            return
        self.status = "online"
        self.refused = ""
        self._backoff = 1000
        self._inflight = []
        self._sent = self.outbox.acked
        self._heard = self._now
        self.mqtt.subscribe(self.t_ack)
        self.mqtt.subscribe(self.t_seat)

    def suback(self, pid, granted):
        if granted == 0x80:
            self.status = "refused: not authorised"
            self.app.say(t("club topic"))

    def puback(self, pid):
        f = self._inflight
        for i in range(len(f)):
            if f[i][0] == pid:
                f.pop(i)
                return

    def message(self, topic, payload):
        if topic == self.t_ack:
            inc, _, seq = payload.decode().partition(" ")
            if seq.isdigit() and self.outbox.ack(inc, int(seq)):
                self._heard = self._now
        elif topic == self.t_seat:
            try:
                seat = json.loads(payload)
                rnd = seat["round"]
                if type(rnd) is int and rnd > self.outbox.seated:
                    self._seating = seat
                    self._take_seating()
            except (ValueError, KeyError, TypeError):
                self.app.say(t("club seating"))

    def down(self, why):
        self.mqtt.close()
        self.status = "offline: " + why
        self._inflight = []
        self._later(self._backoff)
        self._backoff = min(self._backoff * 2, 30000)

    def _later(self, ms):
        self._retry_at = ticks_add(self._now, ms)

    # ---- seating ----

    def _take_seating(self):
        """Start the round's match when the table is free: no match, a match with nothing
        entered yet, or a finished one whose results the service has all."""
        s = self.session
        state = s.match.state
        busy = state is not None and (
            (state.over and self.outbox.pending)
            or (not state.over and (state.deals() or s.match.log)))
        seat = self._seating
        if busy or seat is None:
            return
        self._seating = None
        names = seat.get("names")
        rules = seat.get("rules")
        if type(names) is not list or type(rules) is not str:
            self.app.say(t("club seating"))
            return
        for n in names:
            if type(n) is not str or not n or [c for c in n if c in _NAME_BAD]:
                self.app.say(t("club name"))
                return
        app = self.app
        if app.attempt(s.new_match, "new %s names=%s" % (rules, ",".join(names))):
            self.outbox.take_seating(seat["round"])
            app.home()
            app.say("%s %d: %s" % (t("round"), seat["round"], " - ".join(names)))
