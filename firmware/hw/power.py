"""Idle policy: dim the panel, switch it off, let the CPU sleep, deep sleep at last.

The policy is separate from the main loop and never reads a clock: every call takes `now`
(time.ticks_ms()), so tests drive it with a fake clock. The loop that calls it is loop.py's
run(), described there and in docs/architecture.md: watch() and key() around each key event
(a press that only woke the device does nothing else), update() before the frame, then
sleep(wait_ms()).

Stages, counted from the last key activity (each 0 = never):
- dim_s:   contrast down to dim_contrast (panel still on).
- off_s:   display.power(False); 0xAE keeps the panel RAM, so waking needs no redraw.
- sleep_s: machine.deepsleep(), only when the board's machine module has deepsleep and a
           key can wake the chip (`wake`, see below). The ESP32 wakes from deep sleep by
           rebooting: main.py starts afresh (machine.reset_cause() == DEEPSLEEP_RESET) and
           the app restores the match from the journal; nothing here survives.

Any key restores full contrast and the panel. The press that did that is swallowed: key()
returns True for it, so it does nothing else.

Waiting: with the panel bright, or while a key is held, the loop must scan the keys every
scan_ms, so wait_ms() returns scan_ms. With the panel off, or dimmed when a key can wake the
chip, and the keys idle, it returns the time to the next stage, at most cap_ms ("forever"):
the chip light-sleeps while the panel shows the dimmed picture from its own RAM, and the
key that ends the sleep is still down when the loop scans again, so it counts as it would
have counted awake (the press that lights a dimmed panel is swallowed, as ever, and gives
one frame). If no key can end a sleep early (no wake source), a dimmed panel is scanned as a
bright one, and with the panel off a press is only seen by the next scan, so the wait is at
most nowake_ms: a press shorter than about that may go unnoticed while the panel is off.
sleep(ms) then uses machine.lightsleep(ms) when the board has it and the last wait_ms() said
"nap, keys idle", otherwise time.sleep_ms(ms); both block, neither spins. While the club
link's WiFi is up (Power's `wifi`) there is no lightsleep: a light sleep called by the
firmware drops the WiFi association. A table whose club link is up only to send
(net/clubsend.py) sets `wifi` while its WiFi is on and clears it after: the chip light-sleeps
between its connections.

All tick arithmetic goes through compat.ticks_diff (ESP32 ticks wrap at 2**30 ms). update(),
key(), watch(), timeout() and wait_ms() allocate nothing (small ints and bools only).

Waking the ESP32 from light sleep with a key: see hw/wake.py (wake_on_keys()).
"""

from compat import const, sleep_ms, ticks_add, ticks_diff

_TYPE_CHECKING = const(0)  # as in hw/display.py: for the type check only
if _TYPE_CHECKING:
    from typing import Callable

    from hw.display import Panel

# States, in the order they are reached.
AWAKE = const(0)
DIM = const(1)
OFF = const(2)
DEEP = const(3)  # deepsleep() was called (it returns only on fakes)

# Longest stage delay and longest idle time tracked: far below half the tick period (2**29),
# so ticks_diff never sees a gap that wraps, however long the device lies idle.
_MAX_MS = const(0xFFFFFFF)  # 2**28 - 1 ms, about 74 hours


def _setting(settings, name, default, stage=False):
    """Setting `name` as an int: `default` when it is missing or None. A stage delay
    (stage true) is given in seconds and returned in ms: 0 (disabled) when not above 0, at
    most _MAX_MS.

    The defaults are written at the calls in configure() rather than kept in a dict: a
    dict would stay in the heap for eight numbers."""
    value = default
    if settings is not None:
        if isinstance(settings, dict):
            got = settings.get(name)
        else:
            got = getattr(settings, name, None)
        if got is not None:
            value = int(got)
    if not stage:
        return value
    return 0 if value <= 0 else min(value * 1000, _MAX_MS)


class Power:
    """Dim / panel off / sleep policy for one display: Power(display, settings, machine, wake).

    display: has contrast(v) and power(on) (hw.display.Display).
    settings: dict or object with any of the names configure() reads (missing ones take the
      default); call configure() again after the user changes them.
    machine: the machine module, or None (no lightsleep, no deepsleep).
    wake: how keys wake the chip from machine sleep. None/False: they cannot (no deep sleep,
      short waits with the panel off). True: a wake source is set up (hw/wake.py).
      A callable: set up, and called right before each lightsleep/deepsleep, e.g.
      Keypad.arm_wake, which drives every row low so that any key pulls its column low.
      When it returns False the keys cannot wake the chip now (a stuck key would end the
      sleep at once, hw/keys.py): no deep sleep then, and plain sleeps of at most nowake_ms
      instead of the light sleep.

    wifi: true while the club link keeps a WiFi association (startup.py: a board with WiFi
      and a club file). machine.lightsleep() is then never called: an explicit light sleep
      powers the radio down and the association is lost (ESP-IDF, "Sleep Modes": WiFi
      connections survive only modem sleep and the automatic light sleep of power
      management). The CPU idles in time.sleep_ms while the radio keeps its own modem sleep,
      and the keys are scanned as with no wake source (dimmed: every scan_ms; off: every
      nowake_ms). Deep sleep, which boots afresh, is kept. The attribute `wifi` may change
      later (net/clubsend.py: WiFi up only to send): while it is true, sleep() makes no
      light sleep and waits at most nowake_ms, so the keys are still scanned.

    Derived from the settings: dim_ms, off_ms, deep_ms (0 = stage disabled; deep_ms is 0
    unless the board can deep sleep and wake on a key), scan_ms, and cap_ms, the longest wait
    with the panel off (the cap_ms setting when a key can end a lightsleep, else nowake_ms).

    Attributes for tests and benchmarks: state (AWAKE/DIM/OFF/DEEP), wakeups (calls to
    sleep()), lightsleeps, deepsleeps.
    """

    def __init__(self, display, settings=None, machine=None, wake=None, wifi=False):
        self._display: "Panel" = display
        # machine.lightsleep / deepsleep, or None (so too without a machine)
        self._lightsleep: "Callable | None" = getattr(machine, "lightsleep", None)
        self._deepsleep: "Callable | None" = getattr(machine, "deepsleep", None)
        self.wifi = wifi  # no lightsleep while true (the club link's WiFi is up)
        # A wake source only helps when sleep() can use lightsleep (which it ends early).
        self._can_wake = bool(wake) and self._lightsleep is not None and not wifi
        self._deep_ok = bool(wake) and self._deepsleep is not None  # deep sleep a key can end
        self._arm = wake if callable(wake) else None  # the wake argument when it is a function
        self.state = AWAKE
        self._low = False  # contrast lowered
        self._off = False  # panel switched off
        self._last = 0  # tick of the last key activity
        self._held = False  # a key was down at the last watch()
        self._woke = False  # the press in progress started by waking the device
        self._nap = False  # last wait_ms(): panel off and keys idle
        self.wakeups = 0
        self.lightsleeps = 0
        self.deepsleeps = 0
        self.deep_failed = False
        self.configure(settings)

    def configure(self, settings):
        """(Re)read the settings; stages already reached stay as they are.

        Defaults for the missing ones: dim_s 30, off_s 120, sleep_s 1800, scan_ms 20,
        cap_ms 3600000, nowake_ms 100, contrast 0xCF, dim_contrast 0x08."""
        self.dim_ms = _setting(settings, "dim_s", 30, True)
        self.off_ms = _setting(settings, "off_s", 120, True)
        deep = _setting(settings, "sleep_s", 1800, True)
        self.deep_ms = deep if self._deep_ok and not self.deep_failed else 0
        self.scan_ms = max(1, _setting(settings, "scan_ms", 20))
        if self._can_wake:  # a key can end the sleep: block until the next stage (an hour at most)
            cap = _setting(settings, "cap_ms", 3600000)
        else:
            cap = _setting(settings, "nowake_ms", 100)
        self.cap_ms = max(self.scan_ms, min(cap, _MAX_MS))
        self._nowake_ms = max(self.scan_ms, _setting(settings, "nowake_ms", 100))
        self.contrast = _setting(settings, "contrast", 0xCF) & 0xFF
        self.dim_contrast = _setting(settings, "dim_contrast", 0x08) & 0xFF

    def start(self, now):
        """Count idle time from now (call once when the loop starts)."""
        self._last = now

    # -- key activity ---------------------------------------------------------------------

    def _restore(self):
        """Full contrast, panel on. True if anything was dimmed, off or asleep."""
        d = self._display
        was = self.state != AWAKE
        if self._low:
            d.contrast(self.contrast)  # before power-on: the panel lights up at full
            self._low = False
        if self._off:
            d.power(True)
            self._off = False
        self.state = AWAKE
        return was

    def key(self, now):
        """A key event (PRESS or LONG) at now: True if it only woke the device.

        Restores contrast and panel. The press that woke the device (here, or at key down
        through watch()) gives True; the presses after it give False.
        """
        self._last = now
        woke = self._restore() or self._woke
        self._woke = False
        return woke

    def watch(self, now, down):
        """Call every loop turn with keys.any_down(); optional but recommended.

        A held key is activity (no dimming during a hold), and the panel lights at key down
        rather than when the event arrives at release. Each new press decides afresh whether
        it is a waking press, so a press that ends without an event (a voided keypad chord)
        leaves nothing behind.
        """
        if down:
            self._last = now
            if not self._held:
                self._held = True
                self._woke = self._restore()
        else:
            self._held = False

    # -- stages ---------------------------------------------------------------------------

    def _idle(self, now):
        idle = ticks_diff(now, self._last)
        if idle > _MAX_MS:  # keep the reference recent: no wrap, however long the idle
            self._last = ticks_add(now, -_MAX_MS)
            idle = _MAX_MS
        elif idle < 0:  # a `now` older than the last key: nothing is due
            idle = 0
        return idle

    def update(self, now):
        """Apply the stages that are due at now. Returns the state."""
        if self._held or self.state == DEEP:
            return self.state
        idle = self._idle(now)
        d = self._display
        deep = self.deep_ms and idle >= self.deep_ms
        dark = deep or (self.off_ms and idle >= self.off_ms)  # the panel is to be off
        if self.state < DIM and self.dim_ms and idle >= self.dim_ms:
            if not dark:  # no dimming when the panel goes off in the same update anyway
                d.contrast(self.dim_contrast)
                self._low = True
            self.state = DIM
        if self.state < OFF and dark:
            d.power(False)
            self._off = True
            self.state = OFF
        if deep and (self._arm is None or self._arm() is not False):
            # (a wake function that returns False cannot arm the keys now: a stuck key)
            self.state = DEEP
            self.deepsleeps += 1
            ds = self._deepsleep
            if ds is not None:  # always, when deep_ms is set
                try:
                    ds()  # on the board: no return; the next boot restores the journal
                except (ValueError, OSError, RuntimeError):
                    # Refused (e.g. the original ESP32 with GPIO wake pins set): stay in
                    # OFF with light sleeps rather than crash; no further attempts.
                    self.deep_ms = 0
                    self.deep_failed = True
                    self.state = OFF
        return self.state

    def timeout(self, now):
        """ms until the next stage is due (0 if overdue), at most cap_ms."""
        best = self.cap_ms
        if self.state == DEEP:
            return best
        idle = self._idle(now)
        st = self.state
        if st < DIM and self.dim_ms:
            best = min(best, self.dim_ms - idle)
        if st < OFF and self.off_ms:
            best = min(best, self.off_ms - idle)
        if self.deep_ms:
            best = min(best, self.deep_ms - idle)
        return best if best > 0 else 0

    def wait_ms(self, now, keys_idle):
        """How long the loop may block now: scan_ms while the panel is bright or a key is
        busy (or dimmed, when no key can wake the chip), else up to the next stage (at most
        cap_ms). Never below 1."""
        if not keys_idle or not (self._off or (self._low and self._can_wake)):
            self._nap = False
            return self.scan_ms
        self._nap = True
        t = self.timeout(now)
        return t if t > 0 else 1

    def sleep(self, ms):
        """Block for ms: machine.lightsleep when the panel is off or dimmed and keys idle (as
        the last wait_ms() found) and the board has it, else time.sleep_ms. A key wake source ends a
        lightsleep early; the next keys.poll() then sees the key."""
        self.wakeups += 1
        if self._nap and self._lightsleep is not None:
            if not self.wifi and (self._arm is None or self._arm() is not False):
                self.lightsleeps += 1
                self._lightsleep(ms)
                return
            # WiFi up (a light sleep would drop it), or the wake function refused (a stuck
            # key would end the sleep at once): a short plain sleep, the keys still scanned.
            ms = min(ms, self._nowake_ms)
        sleep_ms(ms)
