"""Key input: the one key state machine of every key source. The sources are apart, one per
wiring, so a board loads only its own: hw/keypad.py (a row/column matrix keypad) and
hw/buttons.py (direct push buttons); each builds itself from its pins and reads them as a bit
per key, which it feeds to the machine here (Source.feed).

Both sources give the same logical events through the same interface:

    ev = keys.poll(time.ticks_ms())   # None or (name, PRESS) / (name, LONG)

Semantics (the same for every key):
- A level change counts only after it has been stable for DEBOUNCE_MS.
- LONG is emitted once, while the key is still held, when the contact has
  been closed for LONG_MS. Such a press gives no PRESS on release (so a
  long press can mean "undo" without also doing the short-press action).
  No key repeats.
- PRESS is emitted on release (DEBOUNCE_MS after the contact opens) of a
  press shorter than that.
- A key held for STUCK_MS is stuck (a shorted contact, something lying on the keypad): from
  then until it is released it is not down for any_down() and idle(), so the board still
  dims and naps, and its release gives no PRESS. Its wiring cannot wake the board from a
  sleep meanwhile (the source's arm_wake() says so, see hw/power.py).
- Which keys are reported: a matrix (ONE_KEY) reports one key at a time, the earliest
  pressed, and voids a chord of three or more (hw/keypad.py); buttons report every key.
  One reading's events come releases (PRESS) first, then LONGs, each in key order.

Hardware is passed in: an input is any zero-argument callable returning 0/1
(machine.Pin in input mode), a matrix row output is any callable taking 0/1
(machine.Pin in output mode). No allocation happens in poll() once built:
event tuples are made per key when the source is built (hw/keys_build.py's setup()).
"""

from compat import const, ticks_diff

_TYPE_CHECKING = const(0)  # for the type check only, as in hw/display.py
if _TYPE_CHECKING:
    from typing import Callable

PRESS = const(1)
LONG = const(2)

# The keys' timing (ms), the same for every source; a board or a test may set its own.
DEBOUNCE_MS = 20
LONG_MS = 600
STUCK_MS = 10000


class Source:
    """The key state machine, for all keys of a source at once, and its fixed-size event
    queue. A key is a bit (bit i = key i, in the source's order): the states are ints and two
    lists of ticks, so a key costs no object of its own. A subclass reads its wiring in
    _read() and calls hw/keys_build.py's setup() when built."""

    ONE_KEY = False  # True: one key reported at a time, a chord of three or more void
    # A subclass's method: its wiring read once, a bit per closed contact. Only declared
    # here, as no Source is built bare.
    _read: "Callable[[], int]"
    # Set by setup(): the key names in the order of the reading's bits; per key i,
    # [2 * i] its (name, PRESS), [2 * i + 1] its (name, LONG); per key, the tick of its last
    # raw change and of the start of its debounced press; the queue.
    names: list
    _events: list
    _changed: list
    _since: list
    _q: list
    DEBOUNCE_MS: int
    LONG_MS: int
    STUCK_MS: int
    _head: int
    _len: int
    # A bit per key: raw (closed at the last reading), down (debounced), fired (LONG already
    # emitted), muted (no events until it ends), stuck (held for STUCK_MS), on (its events
    # are reported: buttons every key held and not muted, a matrix one of them).
    _raw: int
    _down: int
    _fired: int
    _muted: int
    _stuck: int
    _on: int

    def feed(self, bits, now):
        """One reading of every key (bit i set: key i closed) at tick now; the events it
        makes go to the queue."""
        changed = self._changed
        since = self._since
        n = len(changed)
        raw = bits
        edges = raw ^ self._raw
        self._raw = raw
        if edges:
            for i in range(n):
                if (edges >> i) & 1:
                    changed[i] = now
        down = self._down
        fired = self._fired
        muted = self._muted
        stuck = self._stuck
        on = self._on
        moving = raw ^ down  # raw differs from debounced: an edge once it is stable
        if moving:
            deb = self.DEBOUNCE_MS
            for i in range(n):
                bit = 1 << i
                if not moving & bit or ticks_diff(now, changed[i]) < deb:
                    continue
                if raw & bit:  # pressed: the press started at the change
                    down |= bit
                    since[i] = changed[i]
                    fired &= ~bit
                    continue
                down &= ~bit  # released: reported unless it went LONG, is muted or not on
                if on & ~fired & bit:
                    self._push(self._events[2 * i])
                on &= ~bit
                muted &= ~bit
                stuck &= ~bit
        if down:
            # Held for STUCK_MS: stuck, muted, and no longer reported (so others can be).
            fresh = down & ~stuck
            if fresh:
                stuck_ms = self.STUCK_MS
                for i in range(n):
                    if (fresh >> i) & 1 and ticks_diff(now, since[i]) >= stuck_ms:
                        stuck |= 1 << i
                        muted |= 1 << i
            on &= ~muted
            if not self.ONE_KEY:
                on = down & ~muted
            else:
                m = down & (down - 1)
                if m & (m - 1):  # three or more keys: void the chord
                    muted |= down
                    on = 0
                elif not on:
                    # The earliest-pressed key that is down and not muted, if any.
                    live = down & ~muted
                    a = -1
                    for i in range(n):
                        if (live >> i) & 1 and (a < 0 or ticks_diff(since[i], since[a]) < 0):
                            a = i
                    if a >= 0:
                        on = 1 << a
            # A reported hold reaching LONG_MS: LONG, once per press. raw too: a contact
            # already opening is not a long press, whatever the debounce delay still says.
            due = on & raw & ~fired
            if due:
                long_ms = self.LONG_MS
                for i in range(n):
                    if (due >> i) & 1 and ticks_diff(now, since[i]) >= long_ms:
                        fired |= 1 << i
                        self._push(self._events[2 * i + 1])
        self._down = down
        self._fired = fired
        self._muted = muted
        self._stuck = stuck
        self._on = on

    def _push(self, ev):
        # The queue's depth covers the most events one reading can make, and poll() drains
        # before reading, so this never drops.
        n = len(self._q)
        if self._len < n:
            self._q[(self._head + self._len) % n] = ev
            self._len += 1

    def poll(self, now):
        """Read the wiring (unless events are waiting) and return the next event or None."""
        if not self._len:
            self.feed(self._read(), now)
            if not self._len:
                return None
        q = self._q
        head = self._head
        ev = q[head]
        q[head] = None
        self._head = (head + 1) % len(q)
        self._len -= 1
        return ev

    def any_down(self):
        """True while any key is held or still settling (as of the last poll); a stuck key
        does not count."""
        return bool((self._raw | self._down) & ~self._stuck)

    def idle(self):
        """Nothing held, settling or queued: safe to sleep."""
        return not self._len and not self.any_down()
