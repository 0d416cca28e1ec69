"""Key input: what every key source shares. The sources are apart, one per wiring, so a
board loads only its own: hw/keypad.py (a row/column matrix keypad) and hw/buttons.py
(direct push buttons); each builds itself from its pins.

Both sources give the same logical events through the same interface:

    ev = keys.poll(time.ticks_ms())   # None or (name, PRESS) / (name, LONG)

Semantics (the same for every key):
- A level change counts only after it has been stable for DEBOUNCE_MS.
- LONG is emitted once, while the key is still held, when the contact has
  been closed for LONG_MS. Such a press gives no PRESS on release (so a
  long press can mean "undo" without also doing the short-press action).
- PRESS is emitted on release (DEBOUNCE_MS after the contact opens) of a
  press shorter than that.
- A key held for STUCK_MS is stuck (a shorted contact, something lying on the keypad): from
  then until it is released it is not down for any_down() and idle(), so the board still
  dims and naps, and its release gives no PRESS. Its wiring cannot wake the board from a
  sleep meanwhile (the source's arm_wake() says so, see hw/power.py).

The edge logic of one key is hw/buttons.py's Key, which is fed (level, now_ms) samples and
knows nothing about pins or polling, so tests drive it with a fake clock. The buttons keep
a Key each; the keypad keeps the same logic for all its keys at once, as bits.

Hardware is passed in: an input is any zero-argument callable returning 0/1
(machine.Pin in input mode), a matrix row output is any callable taking 0/1
(machine.Pin in output mode). No allocation happens in poll() once built:
event tuples are made per key when the source is built.
"""

from compat import const

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
    """Fixed-size event queue and the common poll()/idle() interface. A subclass sets up its
    wiring, then calls Source.__init__ with the queue's depth: the most events one scan of
    its wiring can make. It scans the wiring in _scan(now)."""

    keys: list  # Key per key, in scan order (a Keypad keeps its keys' states as bits)
    # A subclass's method: scan the wiring, _push() what it finds. Only declared here, as no
    # Source is built bare.
    _scan: "Callable[[int], None]"

    def __init__(self, depth):
        self._q = [None] * depth  # the event queue: a ring of fixed size
        self._head = 0
        self._len = 0

    def _push(self, ev):
        # depth covers the most events one scan can make, and poll() drains
        # before scanning, so this never drops.
        n = len(self._q)
        if self._len < n:
            self._q[(self._head + self._len) % n] = ev
            self._len += 1

    def poll(self, now):
        """Scan (unless events are waiting) and return the next event or None."""
        if not self._len:
            self._scan(now)
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
        for k in self.keys:
            if (k.raw or k.down) and not k.stuck:
                return True
        return False

    def idle(self):
        """Nothing held, settling or queued: safe to sleep."""
        return not self._len and not self.any_down()
