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
                     (with "offered"; with "refused" and "why" too when another offer
                     came while it takes and was refused: see below),
                     "switching" (all in and checked: resetting into it), "refused" (with
                     "offered" where the offer says it, and "why": a take.py code, "key",
                     "flash", "offer" (not an offer), "lost" (no piece came: it gave up)
                     or "error" (anything else)), "back"
                     (the version in "failed" never reached its first frame: the board
                     runs the previous one)
One piece is asked at a time, and asked again when it does not come; a match started at the
table, or a link gone for good, ends the job and leaves the slot unused: the retained offer
starts it again from the beginning once the table is free.

An offer heard while the job runs (Job.offered): a newer version replaces the one being taken
(the job ends, its slot's files are removed, and the newer one starts from the beginning at
the next poll: nothing half-written is ever switched to); an older one, the same version in
another offer, or not an offer is refused ("older", "same", "offer": said on the panel and
reported with the state "taking") and the job goes on; the same offer heard again (the
retained one after a reconnect) changes nothing; an empty one (withdrawn) ends the job.

Whatever an offer or a bundle holds ends in a refusal, never in an exception to the loop. A
refused offer is kept in fw/refused (replaced whole by one rename) with the version running:
the same offer, retained on the broker and heard again at every boot, is only reported again;
another offer, or another version running, is tried.
"""

import json
import os

from compat import ticks_diff

from update import slots
from update.take import Refusal, Taker

# The update's modules, dropped when the job ends (its own list, not a line in loader.py's
# table: that table is heap every board holds during play).
UNLOAD = ("update.job", "update.take", "update.sign", "update.slots", "update")
REFUSED = "fw/refused"
_PASS = ("busy", "key", "lost")  # not the offer's fault: tried again when it comes again
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
    for k in ("offered", "refused"):
        if more.get(k) is None:
            more.pop(k, None)  # not known: not an offer
    if "version" not in more:
        more["version"] = r.get("ver", 0)
    more["state"] = state
    if r.get("back"):
        more["failed"] = r["back"]
    club.link.publish(club.fw_topic("state"), json.dumps(more), retain=True)


# The panel's words (the bottom line, after "club "), short for its 21 characters; English
# only, as the codes the App shows as they are: the language files stay as they were.
_WORDS = {"signature": "bad signature", "hash": "bad hash", "older": "older version",
          "space": "no room", "format": "bad bundle", "busy": "on trial", "key": "no key",
          "failed": "did not start", "flash": "flash error", "offer": "bad offer",
          "same": "same version", "withdrawn": "withdrawn"}


def _say(club, text):
    club.on_event("fw " + _WORDS.get(text, text), None)


def _id(offer):
    import hashlib
    from binascii import hexlify

    return hexlify(hashlib.sha256(offer).digest()).decode()


def remembered(offer):
    """The refusal kept for this offer while the same version runs, or None."""
    try:
        with open(REFUSED, "rb") as f:
            r = json.loads(f.read())
    except Exception:  # none, or not whole: the offer is tried
        return None
    if type(r) is dict and r.get("offer") == _id(offer) and r.get("ver") == slots.version():
        return r
    return None


def remember(offer, why, offered):
    r = {"offer": _id(offer), "ver": slots.version(), "why": why}
    if offered is not None:
        r["offered"] = offered
    fs = slots.Flash()
    try:
        try:
            fs.stat("fw")
        except OSError:
            fs.mkdir("fw")
        slots.write(r, fs, REFUSED)
    except OSError:
        pass  # a failing flash: the offer is tried again after the next boot


def _code(e):
    if isinstance(e, Refusal) and e.args and type(e.args[0]) is str:
        return e.args[0]
    return "flash" if isinstance(e, OSError) else "error"


def _offer(payload):
    """The offer as a dict; Refusal("offer") when it is not one."""
    try:
        o = json.loads(payload)
    except Exception:
        raise Refusal("offer") from None
    if type(o) is not dict:
        raise Refusal("offer")
    return o


def _version(o):
    v = o.get("version")
    if type(v) is not int or not 0 <= v < 1 << 30:
        raise Refusal("offer")
    return v


class Job:
    def __init__(self, club, offer):
        self.club = club
        self.offer = offer
        self.version = None  # the offer's, once it says one

    def start(self, now):
        club = self.club
        o = _offer(self.offer)
        v, size, chunk = _version(o), o.get("size"), o.get("chunk")
        self.version = v  # said in the report, whatever else the offer holds
        if type(size) is not int or type(chunk) is not int or not 0 < size < 1 << 30 \
                or not 0 < chunk <= 4096:  # no piece the heap could not take
            raise Refusal("offer")
        self.size = size
        running = slots.version()
        if v == running:  # what it runs: said to the club, nothing more
            _report(club, "back" if (slots.read() or {}).get("back") else "running")
            raise StopIteration
        if v < running:
            raise Refusal("older")
        key = club.cfg.get("fleet_key")
        import binascii

        try:
            key = binascii.unhexlify(key)
        except Exception:
            key = None
        if not key:
            raise Refusal("key")
        self.taker = Taker(slots.Flash(), key, _free())
        link = club.link
        self.small = link.use_buffer(bytearray(chunk + 64))  # a piece in one packet
        # The topics are net/wire.py's (FW_WANT, FW_PART), through the club link: the
        # update sits below net/ and imports none of it.
        self.t_want = club.fw_topic("want")
        self.t_part = club.fw_topic("part")
        link.subscribe(self.t_part)
        self.at = 0
        self.tries = 0
        self.shown = -1
        _report(club, "taking", offered=self.version)
        self.ask(now)

    def offered(self, payload):
        """An offer heard while this job runs (see the docstring's end)."""
        try:
            self._offered(payload)
        except Exception as e:  # its report failed: the job ends, the loop goes on
            _fail(self, e)

    def _offered(self, payload):
        if payload == self.offer:
            return  # the same one again: the retained offer after a reconnect
        club = self.club
        if not payload:  # withdrawn: nobody is to take it any more
            self.end()
            _say(club, "withdrawn")
            _report(club, "running")
            return
        v = None
        try:
            v = _version(_offer(payload))
            mine = self.version or 0  # said once the job started
            if v > mine:
                # Newer: this take stops here (its slot cleared by end()) and the newer one
                # waits, as any offer does, for the next poll that finds the table free.
                return self.end(payload)
            raise Refusal("older" if v < mine else "same")
        except Exception as e:
            why = _code(e)
        _say(club, why)
        _report(club, "taking", offered=self.version, refused=v, why=why)

    def fail(self, e):
        """Any exception of the job: a refusal, reported, shown and kept."""
        why = _code(e)
        self.end()
        _say(self.club, why)
        _report(self.club, "refused", offered=self.version, why=why)
        if why not in _PASS:
            remember(self.offer, why, self.version)

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
            if self.tries > _TRIES:  # nobody answers: reported, so the club hears of it
                raise Refusal("lost")
            self.ask(now)

    def part(self, payload, now):
        try:
            if not self._part(payload, now):
                return
        except Exception as e:
            return _fail(self, e)
        _say(self.club, "restart")
        # The version running still (the record names the new one already): the club hears
        # the new one from the table once it runs it, after the restart.
        _report(self.club, "switching", offered=self.version, version=self.taker.running)
        self.end()
        self.club.link.poll(now)  # the state on its way before the reset
        reset = getattr(self.club, "reset", None)
        if reset is None:
            import machine

            reset = machine.reset
        reset()

    def _part(self, payload, now):
        """A piece: True once all is in and switched to."""
        nl = payload.find(b"\n")
        v = self.version
        if payload[:nl] != b"%d %d" % (v, self.at):
            return False  # an old answer to a want asked again, or not one
        data = memoryview(payload)[nl + 1:]
        t = self.taker
        t.feed(data)
        if t.version is not None and t.version != v:
            raise Refusal("format")  # the head's version is not the one offered
        self.at += len(data)
        if self.at > self.size:
            raise Refusal("format")
        if self.at == self.size:
            t.finish()
        if t.done:
            return True
        self.tries = 0
        self.ask(now)
        return False

    def end(self, offer=None):
        """Give the link its own buffer back; offer: what waits for the table to be free
        (None: the job is over until the broker gives the retained offer again)."""
        t = getattr(self, "taker", None)
        if t is not None:
            t.abandon()
        small = getattr(self, "small", None)  # the link's own buffer, lent while it runs
        if small is not None:
            self.club.link.use_buffer(small)
            self.small = None
        self.club.fw = offer
        drop()


def _fail(job, e):
    try:
        job.fail(e)
    except Exception:  # the report itself failed: the loop goes on all the same
        job.club.fw = None
        drop()


def drop():
    """Give the update's code back to the heap."""
    from loader import unload

    for name in UNLOAD:
        unload(name)


def step(club, now):
    """From Club.poll: start the job on the offer heard, or take its next step."""
    job = club.fw
    if job.__class__ is not bytes:
        try:
            job.step(now)
        except Exception as e:
            _fail(job, e)
        return
    club.fw = None
    try:
        r = remembered(job)
        if r is not None:  # refused before: said again, not tried again
            _report(club, "refused", offered=r.get("offered"), why=r.get("why"))
        else:
            new = Job(club, job)
            club.fw = new
            try:
                new.start(now)
            except StopIteration:
                club.fw = None
            except Exception as e:
                _fail(new, e)
    except Exception:
        club.fw = None
    if club.fw is None:
        drop()
