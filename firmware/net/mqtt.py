"""A small MQTT 3.1.1 client that never blocks: the table's loop calls poll() between keys.

Written for this project from the MQTT 3.1.1 specification (OASIS, 2014): CONNECT/CONNACK,
PUBLISH at QoS 0 or 1 with PUBACK, SUBSCRIBE/SUBACK, PINGREQ/PINGRESP, DISCONNECT. No QoS
2, no will, one subscription a packet. The socket is non-blocking and handed in already
connecting (open_socket()), so the caller decides where addresses come from.

Events go to a handler object: connack(code), puback(pid), suback(pid, granted),
message(topic, payload) (bytes), down(why). poll() does at most one read and one write
per call. Incoming packets are assembled in one buffer allocated here; a packet larger
than it is skipped (the table only gets short acks and seatings).
"""

import errno
import select

from compat import ticks_diff

from net.wire import CLOSED, OPENING, UP, WAITING, next_pid  # the states: net/wire.py's

_IN = 320  # bytes of the largest packet taken in
_CONNACK_MS = 10000


def _str(s):
    b = s.encode() if isinstance(s, str) else s
    return len(b).to_bytes(2, "big") + b


def _head(kind, size):
    out = bytearray((kind,))
    while True:
        byte = size & 0x7F
        size >>= 7
        out.append(byte | 0x80 if size else byte)
        if not size:
            return out


def open_socket(socket, addr):
    """A non-blocking TCP socket connecting to addr (from socket.getaddrinfo)."""
    s = socket.socket()
    s.setblocking(False)
    try:
        s.connect(addr)
    except OSError as e:
        if e.args[0] not in (errno.EINPROGRESS, errno.EAGAIN):
            s.close()
            raise
    return s


class MQTT:
    def __init__(self, client_id, user=None, password=None, keepalive=30):
        self.client_id = client_id
        self.user = user
        self.password = password
        self.keepalive = keepalive
        self.state = CLOSED
        self.sock = None
        self._poll = None
        self._in = bytearray(_IN)
        self._have = 0
        self._skip = 0  # bytes of an oversized packet still to throw away
        self._out = b""
        self._pid = 0
        self._t_open = 0
        self._t_tx = 0
        self._t_rx = 0
        self.bytes_out = 0  # every byte written to sockets (the bench's bytes on the air)
        self.bytes_in = 0

    # ---- packets out ----

    def _send(self, packet):
        self._out = self._out + packet if self._out else packet

    def open(self, sock, handler, now, clean=True):
        """Start a session on `sock` (connecting, from open_socket())."""
        self.close()
        self.sock = sock
        self.handler = handler
        self.state = OPENING
        self._t_open = self._t_tx = self._t_rx = now
        self._have = self._skip = 0
        self._poll = select.poll()
        self._poll.register(sock, select.POLLIN | select.POLLOUT)
        flags = 0x02 if clean else 0
        body = _str(self.client_id)
        if self.user is not None:
            flags |= 0x80
            body += _str(self.user)
            if self.password is not None:
                flags |= 0x40
                body += _str(self.password)
        var = b"\x00\x04MQTT\x04" + bytes((flags,)) + self.keepalive.to_bytes(2, "big")
        self._out = bytes(_head(0x10, len(var) + len(body))) + var + body

    def publish(self, topic, payload, retain=False, qos=1, dup=False):
        """Queue a PUBLISH; returns its packet id (0 for QoS 0)."""
        t = _str(topic)
        p = payload.encode() if isinstance(payload, str) else payload
        pid = 0
        if qos:
            pid = self._pid = next_pid(self._pid)
        kind = 0x30 | qos << 1 | (1 if retain else 0) | (8 if dup else 0)
        size = len(t) + len(p) + (2 if qos else 0)
        head = _head(kind, size)
        head += t
        if qos:
            head += pid.to_bytes(2, "big")
        self._send(bytes(head) + p)
        return pid

    def subscribe(self, topic, qos=0):
        pid = self._pid = next_pid(self._pid)
        t = _str(topic)
        self._send(bytes(_head(0x82, len(t) + 3)) + pid.to_bytes(2, "big") + t + bytes((qos,)))
        return pid

    def use_buffer(self, buf):
        """Take in packets with buf from now on, what has come so far copied into it (when it
        holds that much); returns the buffer used before. The update job lends one a piece
        of its bundle fits in (update/job.py), and gives the old one back after."""
        old = self._in
        have = self._have
        if have <= len(buf):
            buf[:have] = old[:have]
            self._in = buf
        return old

    def disconnect(self):
        if self.state == UP:
            self._send(b"\xe0\x00")
            self._flush()
        self.close()

    def close(self):
        s = self.sock
        self.sock = None
        self._poll = None
        self._out = b""
        self.state = CLOSED
        if s is not None:
            try:
                s.close()
            except OSError:
                pass

    def _down(self, why):
        self.close()
        self.handler.down(why)

    # ---- the loop ----

    def poll(self, now):
        """One step: write what is queued, read what has come, keep the link alive.
        Returns the state (CLOSED after a failure, reported through handler.down)."""
        p = self._poll
        if self.sock is None or p is None:
            return CLOSED
        try:
            readable = writable = 0
            for _obj, ev in p.poll(0):
                if ev & (select.POLLERR | select.POLLHUP) and not ev & select.POLLIN:
                    self._down("connection lost" if self.state == UP else "no broker")
                    return CLOSED
                readable = ev & select.POLLIN
                writable = ev & select.POLLOUT
            if self.state == OPENING:
                if writable:
                    self.state = WAITING
                elif ticks_diff(now, self._t_open) > _CONNACK_MS:
                    self._down("no broker")
                    return CLOSED
            if self.state != OPENING and self._out and writable:
                self._flush()
                self._t_tx = now
            if readable and self.sock is not None:
                self._read(now)
        except OSError as e:
            self._down("network error %s" % (e.args[0],))
            return CLOSED
        if self.sock is None:
            return CLOSED
        return self._timers(now)

    def _timers(self, now):
        if self.state == WAITING and ticks_diff(now, self._t_open) > _CONNACK_MS:
            self._down("no answer")
            return CLOSED
        if self.state == UP and self.keepalive:
            ka = self.keepalive * 1000
            if ticks_diff(now, self._t_rx) > ka * 3 // 2:
                self._down("connection lost")
                return CLOSED
            if ticks_diff(now, self._t_tx) >= ka // 2 and not self._out:
                self._send(b"\xc0\x00")  # PINGREQ
        return self.state

    def due(self):
        """True when poll() has something to write."""
        return bool(self._out)

    def _flush(self):
        out = self._out
        s = self.sock
        if s is None:
            return
        try:
            n = s.send(out)
        except OSError as e:
            if e.args[0] == errno.EAGAIN:
                return
            raise
        if n is None:
            n = 0
        self.bytes_out += n
        self._out = out[n:] if n < len(out) else b""

    def _read(self, now):
        mv = memoryview(self._in)
        s = self.sock
        if s is None:
            return
        try:
            n = s.readinto(mv[self._have:])
        except OSError as e:
            if e.args[0] == errno.EAGAIN:
                return
            raise
        if n is None:
            return
        if n == 0:
            self._down("connection closed")
            return
        self.bytes_in += n
        self._t_rx = now
        self._have += n
        self._packets(mv)

    def _packets(self, mv):
        while self._have and self.sock is not None:
            if self._skip:
                k = min(self._skip, self._have)
                self._drop(k)
                self._skip -= k
                continue
            buf = self._in
            size = 0
            shift = 0
            i = 1
            while True:  # the remaining length: 1 to 4 bytes of 7 bits
                if i >= self._have:
                    return
                b = buf[i]
                size |= (b & 0x7F) << shift
                shift += 7
                i += 1
                if not b & 0x80:
                    break
                if i > 4:
                    raise OSError(errno.EIO)
            total = i + size
            if total > len(buf):
                self._skip = total
                continue
            if self._have < total:
                return
            self._packet(buf[0], mv[i:total])
            self._drop(total)

    def _drop(self, n):
        buf = self._in
        rest = self._have - n
        if rest:
            buf[:rest] = buf[n:self._have]
        self._have = rest

    def _packet(self, kind, body):
        t = kind >> 4
        h = self.handler
        if t == 2:  # CONNACK
            code = body[1]
            if code:
                self.close()
            else:
                self.state = UP
            h.connack(code)
        elif t == 3:  # PUBLISH
            n = body[0] << 8 | body[1]
            topic = bytes(body[2:2 + n])
            i = 2 + n
            qos = kind >> 1 & 3
            if qos:
                pid = bytes(body[i:i + 2])
                i += 2
                self._send(b"\x40\x02" + pid)  # PUBACK
            h.message(topic, bytes(body[i:]))
        elif t == 4:  # PUBACK
            h.puback(body[0] << 8 | body[1])
        elif t == 9:  # SUBACK
            h.suback(body[0] << 8 | body[1], body[2])
        # PINGRESP (13) needs nothing: any packet in proves the link
