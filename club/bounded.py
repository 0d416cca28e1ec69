"""The standings as retained MQTT messages of bounded size, whatever the night's size.

The whole standings of a night of 20 tables x 6 rounds run to tens of kilobytes, more than
the broker takes in one message (venue.conf's message_size_limit, 8 KB). So the service
splits them (split()) into parts, each under PART_BYTES, on club/standings/<n>, and a
small head, retained, on club/standings:

    {"v": 1, "parts": 12, "hash": "...", "scalars": {"closed": false, "results": 840},
     "lists": ["audit", "gaps", "held", "players"], "dicts": ["rounds", "tables"]}

A part is one slice of one list ("players": 60 rows), of one round's matches, or of a dict
("tables"); only the parts whose bytes changed are published again. The head goes last
and names the hash of every part's bytes (a hash of their hashes): a reader (Reader) joins
the parts only when the set it holds has that hash, so it never shows a mix of two
versions, and a head it cannot complete yet just waits for the parts still on their way.

The parts are not retained: a night's worth of retained standings in the broker's
database (venue.conf saves it every 2 s) made every save ten times dearer. A reader asks for them
instead: it publishes anything on club/standings/want (net/wire.py's WANT) once subscribed,
and the service sends every part again, then the head; it also does so every REPEAT_S
seconds, so a league's service behind a one-way bridge (club/# out) completes them too.
"""

import hashlib
import json

from net.wire import STANDINGS as HEAD  # the topics are net/wire.py's

PART_BYTES = 6000  # a part's payload at most: venue.conf's 8 KB less room to spare
REPEAT_S = 30.0  # every part sent again this often, asked or not


def _dumps(value):
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _slices(items, limit):
    """Consecutive slices of a list, each of at most `limit` bytes of JSON."""
    out, chunk, size = [], [], 0
    for item in items:
        n = len(_dumps(item)) + 1
        if chunk and size + n > limit:
            out.append(chunk)
            chunk, size = [], 0
        chunk.append(item)
        size += n
    if chunk:
        out.append(chunk)
    return out


def split(doc, limit=PART_BYTES):
    """(head, [part payload bytes]) of a standings dict: lists and dicts of the top level
    go into parts of at most `limit` bytes (one item larger than that is a part alone;
    the standings' items are a few hundred bytes), everything else into the head."""
    room = limit - 64  # a part's own keys and brackets
    parts = []
    lists, dicts, scalars = [], [], {}
    for key in sorted(doc):
        value = doc[key]
        if isinstance(value, list):
            lists.append(key)
            for chunk in _slices(value, room):
                parts.append({"k": key, "l": chunk})
        elif isinstance(value, dict):
            dicts.append(key)
            plain = {}
            for sub in sorted(value, key=_order):
                item = value[sub]
                if isinstance(item, list):  # a round's matches: slices of its own
                    for chunk in _slices(item, room) or [[]]:
                        parts.append({"k": key, "s": sub, "l": chunk})
                else:
                    plain[sub] = item
            pairs = [[sub, plain[sub]] for sub in sorted(plain, key=_order)]
            for chunk in _slices(pairs, room):
                parts.append({"k": key, "d": chunk})
        else:
            scalars[key] = value
    payloads = [_dumps(p).encode() for p in parts]
    head = {"v": 1, "parts": len(payloads), "hash": _hash(payloads), "scalars": scalars,
            "lists": lists, "dicts": dicts}
    return _dumps(head).encode(), payloads


def _order(key):
    """Rounds in number order ("2" before "10"), other keys as text."""
    return (0, int(key), "") if key.isdigit() else (1, 0, key)


def _hash(payloads):
    h = hashlib.sha256()
    for p in payloads:
        h.update(hashlib.sha256(p).digest())
    return h.hexdigest()[:16]


def join(head, payloads):
    """The standings dict from a head (bytes or dict) and its parts' payloads, in order."""
    if not isinstance(head, dict):
        head = json.loads(head)
    doc = dict(head["scalars"])
    for key in head["lists"]:
        doc[key] = []
    for key in head["dicts"]:
        doc[key] = {}
    for raw in payloads:
        part = json.loads(raw)
        key = part["k"]
        if "d" in part:
            doc[key].update({sub: item for sub, item in part["d"]})
        elif "s" in part:
            doc[key].setdefault(part["s"], []).extend(part["l"])
        else:
            doc[key].extend(part["l"])
    return doc


class Reader:
    """Feed it every message of club/standings and club/standings/+ (subscribe to
    club/standings/#); feed() returns the whole standings dict each time a head's set of
    parts is complete and consistent, else None."""

    def __init__(self, prefix=HEAD):
        self.prefix = prefix
        self.head = None
        self.head_raw = None
        self.parts = {}  # n -> payload bytes (the latest retained)
        self.done = None  # the head of the last standings returned

    def feed(self, topic, payload):
        if topic == self.prefix:
            try:
                self.head = json.loads(payload)
            except ValueError:
                return None
            self.head_raw = bytes(payload)
        elif topic.startswith(self.prefix + "/"):
            n = topic[len(self.prefix) + 1:]
            if not n.isdigit():  # the want topic, another reader's
                return None
            self.parts[int(n)] = bytes(payload)
        else:
            return None
        return self._complete()

    def _complete(self):
        head = self.head
        if head is None or self.head_raw == self.done:
            return None
        have = [self.parts.get(n) for n in range(head["parts"])]
        if None in have or _hash(have) != head["hash"]:
            return None
        self.done = self.head_raw  # the head, scalars and all: returned once
        return join(head, have)


class Publisher:
    """What the service sends: publish(client, doc) sends the parts that changed since
    the last call (QoS 1; every part after reset()), then the head (retained)."""

    def __init__(self, prefix=HEAD, limit=PART_BYTES):
        self.prefix = prefix
        self.limit = limit
        self.sent = []  # the payload last sent at each part number
        self.largest = 0  # bytes of the largest message sent (the bench reports it)

    def publish(self, client, doc):
        head, payloads = split(doc, self.limit)
        for n, p in enumerate(payloads):
            if n >= len(self.sent) or self.sent[n] != p:
                client.publish("%s/%d" % (self.prefix, n), p, qos=1)
            self.largest = max(self.largest, len(p))
        self.sent = payloads
        self.largest = max(self.largest, len(head))
        client.publish(self.prefix, head, qos=1, retain=True)
        return head

    def reset(self):
        """Every part goes out again with the next publish (a reader asked; a reconnect)."""
        self.sent = []


def want(client, prefix=HEAD):
    """Ask the service for every part (a reader, once its subscription is in)."""
    client.publish(prefix + "/want", b"", qos=0)
