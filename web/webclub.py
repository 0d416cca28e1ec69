"""The browser table at a club night: the device's own link (net/clublink.py) and outbox
(net/outbox.py), with npm mqtt over WebSockets in the page instead of the board's socket.

webmain.py imports this only when the page has club settings (web/clubcfg.js keeps them
in localStorage). Everything the device does is the same code here: the numbering, the
journal (a Store in the folder "outbox" of the page's WebFS: items "s66:outbox/..."),
resend from the last ack, the seatings, the mark on the scoreboard, the messages on the
bottom line. Only the transport differs: JsLink has the interface net/clublink.py uses of
net/mqtt.py's client, and hands each call to the page's glue (web/clubmqtt.js, the global
`s66club`) through the port's `js` module. The glue queues what mqtt.js reports; poll()
takes the queue, so every event reaches Club inside poll() as on the board, and no call
ever waits for the network.
"""

import json

import js
from net import wire
from net.clublink import Club

_glue = js.s66club


class JsLink:
    """The part of net/mqtt.py's MQTT that net/clublink.py uses, over mqtt.js in the page:
    the same methods and signatures, net/wire.py's states.

    Each open() is a new connection with its own number; the glue drops what an older
    connection reports. mqtt.js never reconnects or resends by itself here (the glue turns
    that off): Club decides when, as on the board. Keepalive pings are mqtt.js's own."""

    def __init__(self, url, client_id, user, password, keepalive):
        self.url = url
        self.client_id = client_id
        self.user = user
        self.password = password or ""
        self.keepalive = keepalive
        self.state = wire.CLOSED
        self.handler = None
        self._conn = 0
        self._pid = 0

    def open(self, sock, handler, now, clean=True):
        """As MQTT.open; sock is None (Club has no socket module here: mqtt.js opens the
        WebSocket) and every session is clean."""
        self.handler = handler
        self._conn += 1
        self.state = wire.WAITING
        _glue.open(self._conn, self.url, self.client_id, self.user, self.password,
                   self.keepalive)

    def publish(self, topic, payload, qos=1):
        pid = self._pid = wire.next_pid(self._pid)
        _glue.publish(topic, payload, pid)
        return pid

    def subscribe(self, topic):
        pid = self._pid = wire.next_pid(self._pid)
        _glue.subscribe(topic.decode() if isinstance(topic, bytes) else topic, pid)
        return pid

    def close(self):
        if self.state != wire.CLOSED:
            self.state = wire.CLOSED
            _glue.close()

    def due(self):
        return False  # the pings are mqtt.js's

    def poll(self, now):
        events = _glue.take(self._conn)
        if events == "[]":
            return
        h = self.handler
        for ev in json.loads(events):
            if self.state == wire.CLOSED:
                break  # closed by an earlier event of this batch
            kind = ev[0]
            if kind == "connack":
                code = ev[1]
                if code:
                    self.close()
                else:
                    self.state = wire.UP
                h.connack(code)
            elif kind == "puback":
                h.puback(ev[1])
            elif kind == "suback":
                h.suback(ev[1], ev[2])
            elif kind == "message":
                h.message(ev[1].encode(), ev[2].encode())
            elif kind == "down":
                self.close()
                h.down(ev[1])


def link_for(cfg):
    """The page's link for the club settings cfg ({"url", "table", "password"})."""
    table = cfg["table"]
    return JsLink(cfg["url"], "table-" + table, table, cfg.get("password"),
                  cfg.get("keepalive", 30))


class WebClub(Club):
    """net/clublink.py's Club with the page's link: cfg has "url" (ws:// or wss://) instead of
    "broker" and "port", and no WiFi. It reports to the App as the board's does."""

    # Built by wiring.py's link_club(..., kind=WebClub), with a JsLink (link_for()) and no
    # socket module: Club.connect() opens the link as it is.

    def close(self):
        self.link.close()
        self.outbox.store.close()

    def info(self, said):
        """What the page shows below the panel, as JSON; said: the panel's bottom line."""
        ob = self.outbox
        return json.dumps({"status": self.status, "table": self.cfg["table"],
                           "pending": len(ob.pending), "acked": ob.acked, "next": ob.next,
                           "inc": ob.inc, "mark": self.mark,
                           "refused": self.refused, "said": said})
