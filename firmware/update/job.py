"""The update job: a table takes a bundle the club offers over its broker (club/fleet.py),
between matches only. net/clublink.py hands over every message under club/<table>/fw/ and
steps the job from its poll() while no match is under way and every result is sent; the
job's code is in the heap only then (it drops itself: UNLOAD below).

Topics (the broker's ACL: the table reads its offer and parts, writes its wants and state):
  club/<t>/fw/offer  retained, from the club: {"version": V, "size": N, "chunk": C}
  club/<t>/fw/want   from the table: "V OFFSET", the next piece it needs
  club/<t>/fw/part   from the club: "V OFFSET\n" and up to C bytes of the bundle from there
  club/<t>/fw/state  retained, from the table: {"version": running, "state": S, ...}
                     S: "running" (offered what it runs, or nothing yet), "taking"
                     (with "offered"),
                     "switching" (all in and checked: resetting into it), "refused" (with
                     "offered" and "why": a take.py code, "key" or "flash"), "back"
                     (the version in "failed" never reached its first frame: the board
                     runs the previous one)
One piece is asked at a time, and asked again when it does not come; a match started at the
table, or a link gone for good, ends the job and leaves the slot unused: the retained offer
starts it again from the beginning once the table is free.
"""

import json
import os

from compat import ticks_diff

from update import slots
from update.take import Refusal, Taker

# The update's modules, dropped when the job ends (its own list, not a line in loader.py's
# table: that table is heap every board holds during play).
UNLOAD = ("update.job", "update.take", "update.sign", "update.slots", "update")
_AGAIN_MS = 3000  # a piece not come by then is asked again...
_TRIES = 5  # ...this many times, then the job gives up until the next offer


def _free():
    try:
        st = os.statvfs("/")
        return st[0] * st[3]
    except (AttributeError, OSError):
        return 1 << 30


def _report(club, state, **more):
    r = slots.read() or {}
    more["version"] = r.get("ver", 0)
    more["state"] = state
    if r.get("back"):
        more["failed"] = r["back"]
    club.link.publish(club.t_ack[:-3] + b"fw/state", json.dumps(more), retain=True)


# The panel's words (the bottom line, after "club "), short for its 21 characters; English
# only, as the codes the App shows as they are: the language files stay as they were.
_WORDS = {"signature": "bad signature", "hash": "bad hash", "older": "older version",
          "space": "no room", "format": "bad bundle", "busy": "on trial", "key": "no key",
          "failed": "did not start", "flash": "flash error"}


def _say(club, text):
    club.on_event("fw " + _WORDS.get(text, text), None)


class Job:
    def __init__(self, club, offer, now):
        self.club = club
        self.offer = offer
        o = json.loads(offer)
        self.version = o["version"]
        self.size = o["size"]
        chunk = o["chunk"]
        if type(chunk) is not int or not 0 < chunk <= 4096 or type(self.size) is not int:
            raise ValueError  # no piece the heap could not take
        running = slots.version()
        if self.version == running:  # what it runs: said to the club, nothing more
            _report(club, "back" if (slots.read() or {}).get("back") else "running")
            raise StopIteration
        if self.version < running:
            self.refuse("older")
        key = club.cfg.get("fleet_key")
        if not key:
            self.refuse("key")
        import binascii

        try:
            self.taker = Taker(slots.Flash(), binascii.unhexlify(key), _free())
        except Refusal as e:
            self.refuse(e.args[0])
        link = club.link
        self.small = link._in
        self._buffer(bytearray(chunk + 64))  # a piece in one packet
        base = club.t_ack[:-3]
        self.t_want = base + b"fw/want"
        self.t_part = base + b"fw/part"
        link.subscribe(self.t_part)
        self.at = 0
        self.tries = 0
        self.shown = -1
        _report(club, "taking", offered=self.version)
        self.ask(now)

    def _buffer(self, buf):
        link = self.club.link
        have = link._have
        if have <= len(buf):
            buf[:have] = link._in[:have]
            link._in = buf

    def refuse(self, why):
        _say(self.club, why)
        _report(self.club, "refused", offered=self.version, why=why)
        raise StopIteration

    def ask(self, now):
        self.asked = now
        self.club.link.publish(self.t_want, "%d %d" % (self.version, self.at), qos=0)
        pct = self.at * 100 // self.size
        if pct // 10 != self.shown:
            self.shown = pct // 10
            _say(self.club, "%d%%" % pct)

    def step(self, now):
        club = self.club
        if club.stage() == 1:
            return self.end(self.offer)  # a match began: it comes first, the update after
        if ticks_diff(now, self.asked) >= _AGAIN_MS:
            self.tries += 1
            if self.tries > _TRIES:
                _say(club, "lost")
                return self.end()
            self.ask(now)

    def part(self, payload, now):
        nl = payload.find(b"\n")
        if payload[:nl] != b"%d %d" % (self.version, self.at):
            return  # an old answer to a want asked again, or not one
        data = memoryview(payload)[nl + 1:]
        t = self.taker
        try:
            t.feed(data)
            self.at += len(data)
            if self.at > self.size:
                raise Refusal("format")
            if self.at == self.size:
                t.finish()
        except (Refusal, OSError) as e:  # OSError: the flash's write failed
            t.abandon()
            self.end()
            try:
                self.refuse(e.args[0] if isinstance(e, Refusal) else "flash")
            except StopIteration:
                pass
            return
        if t.done:
            _say(self.club, "restart")
            _report(self.club, "switching", offered=self.version)
            self.end()
            self.club.link.poll(now)  # the state on its way before the reset
            reset = getattr(self.club, "reset", None)
            if reset is None:
                import machine

                reset = machine.reset
            reset()
            return
        self.tries = 0
        self.ask(now)

    def end(self, offer=None):
        """Give the link its own buffer back; offer: what waits for the table to be free
        (None: the job is over until the broker gives the retained offer again)."""
        self.taker.abandon()
        self._buffer(self.small)
        self.club.fw = offer
        drop()


def drop():
    """Give the update's code back to the heap."""
    from loader import unload

    for name in UNLOAD:
        unload(name)


def step(club, now):
    """From Club.poll: start the job on the offer heard, or take its next step."""
    job = club.fw
    if job.__class__ is bytes:
        club.fw = None
        try:
            club.fw = Job(club, job, now)
        except StopIteration:
            club.fw = None
        except (ValueError, KeyError, TypeError):
            _say(club, "format")
        if club.fw is None:
            drop()
        return
    job.step(now)

