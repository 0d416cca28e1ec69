"""The club link of a table on a battery: WiFi up only to send (club.json "connect":
"to_send"; docs/club.md and docs/boards.md say when to choose it and what it costs).

The always-connected link (net/clublink.py's Club) keeps WiFi in modem sleep all evening,
and the CPU awake with it (hw/power.py: an explicit light sleep drops the association).
This one brings WiFi and MQTT up only for a connection ("a session"), then disconnects
and powers WiFi down, and the chip light-sleeps between sessions as with no club link
(it tells the board's Power through its `wifi`). A session starts when:
  - the outbox holds a result (or a match's header) not yet tried in a session, or
  - news_s seconds (club.json, default 600) have passed since the last session: the club's
    news (a seating, an update's offer) is retained on the broker, so each connection
    hears it; at boot too.
It ends, WiFi off, once the outbox is all acknowledged, every subscription answered, no
update is running or about to start, and the broker has been quiet for _GRACE_MS; or, at
the latest, _SESSION_MS after WiFi was asked for (the broker or the service away): what
is not acknowledged stays in the outbox (on flash) and goes at the next session. An
update's job (update/job.py) keeps the session up as long as it runs.

What it costs: a seating or an offer is heard at the table's next result or within news_s,
whichever comes first; a result reaches the standings a session's start after its deal.
"""

from compat import const, ticks_add, ticks_diff

from net import wire
from net.clublink import Club

_GRACE_MS = const(300)  # quiet after the last packet in: the retained news has come
_SESSION_MS = const(20000)  # the longest session that is not taking an update


class ClubToSend(Club):
    """Club with WiFi up only to send. power: the board's Power (hw/power.py) or None (the
    host's network). sessions and up_ms: the sessions made and their time up, measured
    from WiFi asked for to WiFi off (the bench's figures)."""

    def __init__(self, link, on_event, session, store, cfg, now, socket, wlan=None):
        Club.__init__(self, link, on_event, session, store, cfg, now, socket, wlan)
        self.power = None
        self.news_ms = int(cfg.get("news_s", 600) * 1000)
        self._news_at = now  # the first session at boot: the news of the night so far
        self._since = None  # when this session asked for WiFi (None: resting)
        self._tried = 0  # the outbox's next number when the last session started
        self._rx = now  # the last packet from the broker
        self._subs = 0  # subscriptions not answered yet
        self.sessions = 0
        self.up_ms = 0
        self.status = "resting"

    def poll(self, now):
        Club.poll(self, now)
        if self._since is not None and self._done(now):
            self._rest(now)

    def _wifi_up(self):
        # Club.poll asks this before it opens the link: a session starts only when wanted.
        if self._since is None:
            now = self._now
            ob = self.outbox
            if not (ob.pending and ob.next > self._tried) and ticks_diff(now, self._news_at) < 0:
                return False
            self._since = now
            self._tried = ob.next
            self._retry_at = now
            self._backoff = 1000
            if self.power is not None:
                self.power.wifi = True
        return Club._wifi_up(self)

    def _done(self, now):
        fw = self.fw
        if fw is not None and fw.__class__ is not bytes:
            return False  # an update is being taken: the link stays up for it
        if ticks_diff(now, self._since) >= _SESSION_MS:
            return True  # what is not acknowledged goes at the next session
        if fw is not None and self.stage() != 1:
            return False  # an offer the table is free for: its job starts once all is acked
        m = self.link
        return (m.state == wire.UP and not self.outbox.pending and not self._inflight
                and not self._subs and not m.due() and ticks_diff(now, self._rx) >= _GRACE_MS)

    def _rest(self, now):
        """End the session: DISCONNECT (not a lost connection: no backoff, no "twin"),
        WiFi off, light sleep allowed again."""
        self.link.disconnect()
        self._inflight = []
        self._up = None
        w = self.wlan
        if w is not None:
            try:
                w.disconnect()
            except OSError:
                pass
            w.active(False)
        self._asked_wifi = False
        self.sessions += 1
        self.up_ms += ticks_diff(now, self._since)
        self._since = None
        self._news_at = ticks_add(now, self.news_ms)
        self.status = "resting"
        if self.power is not None:
            self.power.wifi = False

    def wait_ms(self):
        if self._since is None:  # resting: until the next news (a key wakes the chip)
            d = ticks_diff(self._news_at, self._now)
            return d if d > 20 else 20
        return Club.wait_ms(self)

    # ---- events from the MQTT client: the broker heard from ----

    def connack(self, code):
        self._rx = self._now
        Club.connack(self, code)
        if not code:
            self._subs = 3 if "fleet_key" in self.cfg else 2  # Club.connack's subscriptions

    def suback(self, pid, granted):
        self._rx = self._now
        if self._subs:
            self._subs -= 1
        Club.suback(self, pid, granted)

    def puback(self, pid):
        self._rx = self._now
        Club.puback(self, pid)

    def message(self, topic, payload):
        self._rx = self._now
        Club.message(self, topic, payload)
