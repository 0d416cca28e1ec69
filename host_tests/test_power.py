"""Idle policy: dim, panel off, light and deep sleep, the waking press, waits, tick wrap."""

import pytest
from compat import TICKS_PERIOD, ticks_add, ticks_diff
from hw import power as power_mod
from hw.buttons import Buttons
from hw.keypad import Keypad
from hw.power import AWAKE, DEEP, DIM, OFF, Power
from hw.wake import EXT0, EXT1, GPIO, wake_on_keys

NEAR_WRAP = TICKS_PERIOD - 5000  # ticks wrap 5 s after the start
S = 1000

SETTINGS = {"dim_s": 30, "off_s": 120, "sleep_s": 1800, "scan_ms": 20, "cap_ms": 1000}


# ---------------------------------------------------------------- fakes


class FakeDisplay:
    def __init__(self, clock=None):
        self.calls = []
        self.clock = clock

    def _log(self, what, value):
        self.calls.append((what, value) if self.clock is None else (self.clock.t, what, value))

    def contrast(self, v):
        self._log("contrast", v)

    def power(self, on):
        self._log("power", on)


class Clock:
    def __init__(self, start):
        self.start = start
        self.t = 0  # elapsed ms

    @property
    def now(self):
        return ticks_add(self.start, self.t)


class FakeMachine:
    """Records light and deep sleeps; the fake deep sleep returns (a board reboots)."""

    SLEEP = 2
    DEEPSLEEP = 4

    def __init__(self, light=True, deep=True):
        self.calls = []
        if light:
            self.lightsleep = lambda ms: self.calls.append(("lightsleep", ms))
        if deep:
            self.deepsleep = lambda *a: self.calls.append(("deepsleep",) + a)


@pytest.fixture
def slept(monkeypatch):
    """Replace time.sleep_ms inside hw.power; the list gets every blocking sleep."""
    calls = []
    monkeypatch.setattr(power_mod, "sleep_ms", calls.append)
    return calls


def loop(p, clock, duration_ms, keys_idle=True, until=None):
    """Run the main loop's power part on the fake clock for duration_ms (no key events).

    Each turn: update, wait_ms, sleep(wait), advance the clock by the wait. Returns the
    waits. Stops early when until(p) is true after an update.
    """
    waits = []
    end = clock.t + duration_ms
    while clock.t < end:
        p.update(clock.now)
        if until is not None and until(p):
            break
        ms = p.wait_ms(clock.now, keys_idle)
        p.sleep(ms)
        waits.append(ms)
        clock.t += ms
    return waits


def make(start=NEAR_WRAP, settings=SETTINGS, machine="full", wake=True):
    clock = Clock(start)
    disp = FakeDisplay(clock)
    if machine == "full":
        machine = FakeMachine()
    p = Power(disp, settings, machine, wake)
    p.start(clock.now)
    return p, clock, disp, machine


# ---------------------------------------------------------------- stages


@pytest.mark.parametrize(
    "start",
    [0, NEAR_WRAP, TICKS_PERIOD - 30 * S, TICKS_PERIOD - 120 * S - 1, TICKS_PERIOD - 1],
)
def test_stages_at_their_times_across_the_wrap(start, slept):
    p, clock, disp, machine = make(start)
    for t, state in [(0, AWAKE), (30 * S - 1, AWAKE), (30 * S, DIM), (120 * S - 1, DIM),
                     (120 * S, OFF), (1800 * S - 1, OFF)]:
        clock.t = t
        assert p.update(clock.now) == state, t
    assert machine.calls == []
    clock.t = 1800 * S
    assert p.update(clock.now) == DEEP
    assert machine.calls == [("deepsleep",)]
    assert disp.calls == [(30 * S, "contrast", 0x08), (120 * S, "power", False)]
    # Nothing repeats.
    clock.t = 2000 * S
    p.update(clock.now)
    assert machine.calls == [("deepsleep",)]
    assert len(disp.calls) == 2


def test_loop_hits_each_stage_on_time(slept):
    """Driven by wait_ms/sleep alone, each stage fires at most one scan late."""
    p, clock, disp, machine = make()
    loop(p, clock, 3600 * S, until=lambda p: p.state == DEEP)
    (t_dim, _, _), (t_off, _, _) = disp.calls
    assert 30 * S <= t_dim < 30 * S + 20
    assert 120 * S <= t_off < 120 * S + 20
    assert clock.t == 1800 * S  # the last wait ends exactly on the deep sleep
    assert machine.calls[-1] == ("deepsleep",)
    # light sleeps from the dimming on: 90 s dimmed, then 1 680 s off, a second each
    assert machine.calls[:-1] == [("lightsleep", 1000)] * (90 + 1680)


def test_update_after_a_long_gap_switches_off_without_dimming():
    p, clock, disp, _ = make()
    clock.t = 200 * S
    assert p.update(clock.now) == OFF
    assert disp.calls == [(200 * S, "power", False)]


def test_deep_sleep_at_sleep_s_turns_the_panel_off_first_even_without_off_s():
    p, clock, disp, machine = make(settings=dict(SETTINGS, off_s=0, dim_s=0, sleep_s=60))
    clock.t = 60 * S
    assert p.update(clock.now) == DEEP
    assert disp.calls == [(60 * S, "power", False)]
    assert machine.calls == [("deepsleep",)]


@pytest.mark.parametrize(
    "machine, wake, settings",
    [
        (FakeMachine(deep=False), True, SETTINGS),  # board without deepsleep
        (FakeMachine(), None, SETTINGS),  # no key could wake it again
        (FakeMachine(), True, dict(SETTINGS, sleep_s=0)),  # disabled
        (None, True, SETTINGS),  # no machine module at all
    ],
)
def test_no_deep_sleep_unless_supported_woken_and_enabled(machine, wake, settings, slept):
    p, clock, disp, _ = make(machine=machine, wake=wake, settings=settings)
    assert p.deep_ms == 0
    loop(p, clock, 4 * 3600 * S)
    assert p.state == OFF
    calls = machine.calls if machine is not None else []
    assert [c for c in calls if c[0] == "deepsleep"] == []


def test_deep_sleep_arms_the_wake_source_first():
    order = []
    machine = FakeMachine()
    machine.deepsleep = lambda: order.append("deepsleep")
    p, clock, _, _ = make(machine=machine, wake=lambda: order.append("arm"))
    clock.t = 1800 * S
    p.update(clock.now)
    assert order == ["arm", "deepsleep"]


def test_refused_deep_sleep_falls_back_to_light_sleep(slept):
    """The original ESP32 refuses deepsleep() while GPIO wake pins are set (ValueError)."""

    def refuse(*a):
        raise ValueError("DEEPSLEEP with gpio pins not supported on this chip")

    machine = FakeMachine()
    machine.deepsleep = refuse
    p, clock, _, _ = make(machine=machine)
    clock.t = 1800 * S
    assert p.update(clock.now) == OFF
    assert p.deep_failed and p.deep_ms == 0
    assert p.wait_ms(clock.now, True) == 1000
    p.sleep(1000)
    assert machine.calls == [("lightsleep", 1000)]
    p.configure(SETTINGS)  # a settings change does not retry it
    assert p.deep_ms == 0


def test_disabled_dim_goes_straight_to_off():
    p, clock, disp, _ = make(settings=dict(SETTINGS, dim_s=0))
    clock.t = 100 * S
    assert p.update(clock.now) == AWAKE
    clock.t = 120 * S
    assert p.update(clock.now) == OFF
    assert disp.calls == [(120 * S, "power", False)]


# ---------------------------------------------------------------- key presses


def test_waking_press_is_swallowed_and_the_next_one_acts():
    p, clock, disp, _ = make()
    clock.t = 30 * S
    p.update(clock.now)
    clock.t = 500 * S
    p.update(clock.now)
    assert p.state == OFF
    disp.calls.clear()
    assert p.key(clock.now) is True
    # Contrast first, then the panel: it lights up at full brightness, no redraw needed.
    assert disp.calls == [(500 * S, "contrast", 0xCF), (500 * S, "power", True)]
    assert p.state == AWAKE
    clock.t += 300
    assert p.key(clock.now) is False
    assert len(disp.calls) == 2
    # The idle time counts again from the last press.
    clock.t += 30 * S - 1
    assert p.update(clock.now) == AWAKE
    clock.t += 1
    assert p.update(clock.now) == DIM


def test_press_while_dimmed_restores_contrast_and_is_swallowed():
    p, clock, disp, _ = make()
    clock.t = 31 * S
    p.update(clock.now)
    assert p.state == DIM
    assert p.key(clock.now) is True
    assert disp.calls[-1] == (31 * S, "contrast", 0xCF)
    assert ("power", True) not in [c[1:] for c in disp.calls]  # the panel never went off
    assert p.key(clock.now) is False


def test_press_while_awake_acts_and_touches_nothing():
    p, clock, disp, _ = make()
    clock.t = 29 * S
    p.update(clock.now)
    assert p.key(clock.now) is False
    assert disp.calls == []


def test_panel_off_straight_from_bright_wakes_with_power_only():
    p, clock, disp, _ = make(settings=dict(SETTINGS, dim_s=0))
    clock.t = 121 * S
    p.update(clock.now)
    disp.calls.clear()
    assert p.key(clock.now) is True
    assert disp.calls == [(121 * S, "power", True)]


def test_watch_lights_the_panel_at_key_down_and_swallows_that_press():
    p, clock, disp, _ = make()
    clock.t = 30 * S
    p.update(clock.now)
    clock.t = 300 * S
    p.update(clock.now)
    disp.calls.clear()
    p.watch(clock.now, False)
    clock.t += 5
    p.watch(clock.now, True)  # contact closes: the panel lights now, not at release
    assert [c[1:] for c in disp.calls] == [("contrast", 0xCF), ("power", True)]
    for _ in range(10):  # held for a while: no stage runs, however long
        clock.t += 20
        p.watch(clock.now, True)
        p.update(clock.now)
    clock.t += 20
    p.watch(clock.now, False)  # released; PRESS arrives now
    assert p.key(clock.now) is True
    clock.t += 200
    p.watch(clock.now, True)
    clock.t += 100
    p.watch(clock.now, False)
    assert p.key(clock.now) is False
    assert len(disp.calls) == 2


def test_long_hold_never_dims():
    p, clock, disp, _ = make()
    clock.t = 10 * S
    p.watch(clock.now, True)
    while clock.t < 100 * S:
        clock.t += 20
        p.watch(clock.now, True)
        p.update(clock.now)
    assert p.state == AWAKE and disp.calls == []


def test_a_waking_press_without_event_does_not_swallow_the_next_press():
    """A voided keypad chord wakes the panel but gives no event: the next press acts."""
    p, clock, _, _ = make()
    clock.t = 300 * S
    p.update(clock.now)
    p.watch(clock.now, True)  # wakes
    clock.t += 400
    p.watch(clock.now, False)  # chord released, no event
    clock.t += 400
    p.watch(clock.now, True)
    clock.t += 100
    p.watch(clock.now, False)
    assert p.key(clock.now) is False


def test_two_key_rollover_swallows_only_the_waking_key():
    p, clock, _, _ = make()
    clock.t = 300 * S
    p.update(clock.now)
    p.watch(clock.now, True)  # A down: wakes
    clock.t += 100
    p.watch(clock.now, True)  # B joins while A is held
    assert p.key(clock.now) is True  # A released: its PRESS was the waking one
    clock.t += 100
    p.watch(clock.now, False)
    assert p.key(clock.now) is False  # B's PRESS acts


# ---------------------------------------------------------------- waits


def test_wait_is_scan_ms_while_the_panel_is_bright():
    p, clock, _, _ = make()
    for t in (0, 10 * S, 30 * S - 1, 29 * S + 995):
        clock.t = t
        p.update(clock.now)
        assert p.wait_ms(clock.now, True) == 20


def test_dimmed_panel_naps_when_a_key_can_wake_the_chip(slept):
    """Dimmed, the panel shows its picture from its own RAM: the chip light-sleeps up to the
    next stage, and a key ends the sleep. Without a key wake source a dimmed panel is
    scanned as a bright one (a press must not go unseen while the picture is visible)."""
    p, clock, _, machine = make()
    clock.t = 60 * S
    assert p.update(clock.now) == DIM
    assert p.wait_ms(clock.now, False) == 20  # a key is settling: keep scanning
    assert p.wait_ms(clock.now, True) == 1000
    p.sleep(1000)
    assert machine.calls == [("lightsleep", 1000)] and slept == []
    clock.t = 119 * S + 300
    assert p.wait_ms(clock.now, True) == 700  # ends on the panel-off stage
    for machine, wake in ((FakeMachine(), None), (FakeMachine(light=False), True)):
        p, clock, _, _ = make(machine=machine, wake=wake)
        clock.t = 60 * S
        assert p.update(clock.now) == DIM
        assert p.wait_ms(clock.now, True) == 20
        p.sleep(20)
        assert machine.calls == []


def test_wait_while_off_is_long_positive_and_ends_on_the_next_stage(slept):
    p, clock, _, _ = make()
    clock.t = 120 * S
    p.update(clock.now)
    assert p.wait_ms(clock.now, True) == 1000
    assert p.wait_ms(clock.now, False) == 20  # a key is held or settling: keep scanning
    clock.t = 1800 * S - 300
    assert p.wait_ms(clock.now, True) == 300
    clock.t = 1800 * S
    assert p.wait_ms(clock.now, True) == 1  # due and not yet applied: never 0
    clock.t = 1800 * S + 5000
    assert p.timeout(clock.now) == 0
    assert p.wait_ms(clock.now, True) == 1  # never negative either
    waits = loop(p, clock, 10 * S)
    assert p.state == DEEP
    assert min(waits, default=1) >= 1


def test_wait_never_below_one_over_a_simulated_day(slept):
    p, clock, _, _ = make(settings=dict(SETTINGS, sleep_s=0))
    waits = loop(p, clock, 24 * 3600 * S)
    assert min(waits) == 20 and max(waits) == 1000
    assert all(w >= 1 for w in waits)


def test_timeout_is_the_next_stage():
    p, clock, _, _ = make()
    assert p.timeout(clock.now) == 1000  # capped
    clock.t = 29 * S + 400
    assert p.timeout(clock.now) == 600  # dim due in 600 ms
    clock.t = 30 * S
    p.update(clock.now)
    clock.t = 119 * S + 250
    assert p.timeout(clock.now) == 750  # off due in 750 ms


# ---------------------------------------------------------------- figures


def test_idle_hour_with_the_panel_off_makes_3600_sleep_calls(slept):
    """cap_ms = 1000: one wake-up a second while the panel is off, all light sleeps."""
    p, clock, _, machine = make(settings=dict(SETTINGS, sleep_s=0))
    awake = loop(p, clock, 121 * S, until=lambda p: p.state == OFF)
    assert p.state == OFF and clock.t == 120 * S
    # Panel bright: one scan per 20 ms = 50 wake-ups a second; dimmed: a light sleep a
    # second (cap_ms), the key being the wake source.
    assert len(awake) == 30 * S // 20 + 90 == 1590
    assert len(slept) == 1500  # blocking sleeps while bright
    assert machine.calls == [("lightsleep", 1000)] * 90
    machine.calls.clear()
    before = p.wakeups
    loop(p, clock, 3600 * S)
    assert p.wakeups - before == 3600 == 3600 * S // p.cap_ms
    assert p.lightsleeps == 90 + 3600
    assert machine.calls == [("lightsleep", 1000)] * 3600
    assert len(slept) == 1500  # nothing went to time.sleep_ms while off


def test_idle_until_deep_sleep(slept):
    p, clock, _, machine = make()
    loop(p, clock, 3600 * S, until=lambda p: p.state == DEEP)
    # 30 s bright at 50/s, then 90 s dimmed and 1 680 s off at 1/s
    assert p.wakeups == 1500 + 90 + 1680
    assert machine.calls[-1] == ("deepsleep",)


def test_longer_cap_with_a_wake_source(slept):
    p, clock, _, _ = make(settings=dict(SETTINGS, sleep_s=0, cap_ms=60000))
    loop(p, clock, 121 * S, until=lambda p: p.state == OFF)
    before = p.wakeups
    loop(p, clock, 3600 * S)
    assert p.wakeups - before == 60


def test_without_a_wake_source_waits_stay_short(slept):
    """No key can end a sleep early, so the panel-off wait is nowake_ms (a press must be
    seen by a scan): ten times more wake-ups, and no deep sleep."""
    p, clock, _, machine = make(wake=None)
    assert p.cap_ms == 100 and p.deep_ms == 0
    loop(p, clock, 121 * S, until=lambda p: p.state == OFF)
    before = p.wakeups
    loop(p, clock, 3600 * S)
    assert p.wakeups - before == 36000
    assert machine.calls == [("lightsleep", 100)] * 36000  # still the cheaper sleep


# ---------------------------------------------------------------- sleep()


def test_sleep_uses_lightsleep_when_the_board_has_it(slept):
    arms = []
    p, clock, _, machine = make(wake=lambda: arms.append(clock.t))
    clock.t = 120 * S
    p.update(clock.now)
    p.sleep(p.wait_ms(clock.now, True))
    assert machine.calls == [("lightsleep", 1000)]
    assert arms == [120 * S]  # the keypad rows went low just before
    assert slept == []
    assert p.wakeups == 1 and p.lightsleeps == 1


def test_sleep_uses_time_sleep_ms_without_lightsleep(slept):
    p, clock, _, machine = make(machine=FakeMachine(light=False, deep=False))
    clock.t = 120 * S
    p.update(clock.now)
    p.sleep(p.wait_ms(clock.now, True))
    assert slept == [100]  # no lightsleep, so no key can end the wait: nowake_ms
    assert machine.calls == []
    assert p.wakeups == 1 and p.lightsleeps == 0


def test_sleep_with_the_panel_on_or_a_key_busy_is_a_plain_blocking_sleep(slept):
    p, clock, _, machine = make()
    p.sleep(p.wait_ms(clock.now, True))  # panel on
    clock.t = 120 * S
    p.update(clock.now)
    p.sleep(p.wait_ms(clock.now, False))  # panel off, key settling: a lightsleep would
    assert slept == [20, 20]  # end at once on the held key's level and spin
    assert machine.calls == []


def test_real_time_sleep_ms_blocks():
    import time

    p = Power(FakeDisplay(), SETTINGS)
    t0 = time.monotonic()
    p.sleep(30)
    assert time.monotonic() - t0 >= 0.025


def test_keypad_arm_wake_as_the_wake_function(slept):
    """Rows go low before the light sleep; the next poll scans normally again."""
    levels = [1, 1, 1, 1]

    def row(i):
        def drive(v):
            levels[i] = v

        return drive

    kp = Keypad([row(i) for i in range(4)], [lambda: 1] * 4)
    seen = []
    machine = FakeMachine()
    machine.lightsleep = lambda ms: seen.append(list(levels))
    p, clock, _, _ = make(machine=machine, wake=kp.arm_wake)
    clock.t = 120 * S
    p.update(clock.now)
    p.sleep(p.wait_ms(clock.now, kp.idle()))
    assert seen == [[0, 0, 0, 0]]
    kp.poll(clock.now)
    assert levels == [1, 1, 1, 1]


def stuck_key_loop(keys, slept, armed, levels=None, minutes=4):
    """The loop's key and power calls on the fake clock for some minutes, no key ever
    released (from tick 0). Light and plain sleeps both go to `slept`; `armed` gets the row
    levels at each light sleep."""
    machine = FakeMachine(deep=False)

    def lightsleep(ms):
        armed.append(tuple(levels or ()))
        slept.append(ms)

    machine.lightsleep = lightsleep
    p, clock, _, _ = make(start=0, machine=machine, wake=keys.arm_wake)
    while clock.t < minutes * 60 * S:
        now = clock.now
        while keys.poll(now) is not None:
            pass
        p.watch(now, keys.any_down())
        p.update(now)
        p.sleep(p.wait_ms(now, keys.idle()))
        clock.t += slept[-1]
    return p


def test_a_stuck_keypad_key_lets_the_board_switch_off_and_light_sleep(slept):
    """Key 5 shorted for good: after the stuck limit the keypad is idle, so the panel goes
    off at off_s and the loop light-sleeps, every row armed but the stuck key's own (it
    would pull its column low and end each sleep at once)."""
    levels = [1, 1, 1, 1]

    def row(i):
        def drive(v):
            levels[i] = v

        return drive

    def col(c):
        return lambda: 0 if c == 1 and levels[1] == 0 else 1

    kp = Keypad([row(i) for i in range(4)], [col(c) for c in range(4)])
    armed = []
    p = stuck_key_loop(kp, slept, armed, levels)
    assert p.state == OFF
    assert p.lightsleeps == len(armed) > 0
    assert set(armed) == {(0, 1, 0, 0)}
    assert max(slept) == SETTINGS["cap_ms"]  # long sleeps: a key of another row wakes


def test_a_stuck_button_lets_the_board_switch_off_with_short_plain_sleeps(slept):
    """A shorted button cannot be left out of the wake pins: no light sleep (it would end at
    once), short plain sleeps instead, so the other buttons are still scanned."""
    b = Buttons([lambda: 0, lambda: 1, lambda: 1, lambda: 1], ["UP", "DOWN", "OK", "BACK"])
    armed = []
    p = stuck_key_loop(b, slept, armed)
    assert p.state == OFF
    assert p.lightsleeps == 0 and armed == []
    assert max(slept[-100:]) == 100  # nowake_ms


# ---------------------------------------------------------------- settings, long idle


def test_settings_from_an_object_with_defaults_for_the_rest():
    class Cfg:
        dim_s = 10
        off_s = None  # unset: default
        contrast = 0x7F

    p = Power(FakeDisplay(), Cfg(), FakeMachine(), True)
    assert (p.dim_ms, p.off_ms, p.deep_ms) == (10 * S, 120 * S, 1800 * S)
    assert (p.scan_ms, p.cap_ms, p.contrast, p.dim_contrast) == (20, 3600000, 0x7F, 0x08)
    p.configure({"dim_s": 0, "sleep_s": -1})
    assert (p.dim_ms, p.deep_ms) == (0, 0)
    assert Power(FakeDisplay(), None).off_ms == 120 * S


def test_ten_days_idle_with_ticks_wrapping():
    """Without deep sleep the device can lie idle for days. Ticks wrap every ~12.4 days, so
    a last-key tick 6.2 days old would read as the future; the policy keeps its reference
    recent, and a stage enabled late (here deep sleep) still sees a long idle time."""
    p, clock, disp, machine = make(settings=dict(SETTINGS, sleep_s=0))
    for _ in range(24 * 10):  # hourly updates; 10 days = 0.8 of the tick period
        clock.t += 3600 * S
        assert p.update(clock.now) == OFF
        assert 0 < p.wait_ms(clock.now, True) <= 1000
    assert ticks_diff(clock.now, NEAR_WRAP) < 0  # a naive idle time would be negative
    p.configure(SETTINGS)  # deep sleep after 1800 s enabled now
    assert p.update(clock.now) == DEEP
    assert machine.calls == [("deepsleep",)]
    assert [c[1:] for c in disp.calls] == [("power", False)]
    assert p.key(clock.now) is True
    assert p.update(clock.now) == AWAKE


# ---------------------------------------------------------------- wake sources


class WakePin:
    WAKE_LOW = 4
    WAKE_HIGH = 5

    def __init__(self, n):
        self.n = n
        self.irqs = []

    def irq(self, **kw):
        self.irqs.append(kw)


class WakeMachine:
    Pin = WakePin
    SLEEP = 2
    DEEPSLEEP = 4


class Esp32:
    def __init__(self, gpio=True):
        self.calls = []
        if gpio:
            self.wake_on_gpio = lambda pins, level: self.calls.append(("gpio", pins, level))

    def wake_on_ext1(self, pins, level):
        self.calls.append(("ext1", pins, level))


def test_wake_on_keys_prefers_gpio_wake_for_light_sleep():
    cols = [WakePin(n) for n in (32, 33, 25, 26)]
    esp = Esp32()
    assert wake_on_keys(WakeMachine, cols, 0, esp) == GPIO
    assert esp.calls == [("gpio", cols, False)]


def test_wake_on_keys_one_pin_uses_pin_irq_ext0():
    pin = WakePin(33)
    assert wake_on_keys(WakeMachine, [pin], 0, Esp32(gpio=False)) == EXT0
    assert pin.irqs == [{"trigger": WakePin.WAKE_LOW, "wake": 2 | 4}]
    pin2 = WakePin(4)
    assert wake_on_keys(WakeMachine, [pin2], 1, None, deep=True) == EXT0
    assert pin2.irqs == [{"trigger": WakePin.WAKE_HIGH, "wake": 6}]


def test_wake_on_keys_several_pins_for_deep_sleep():
    pins = [WakePin(n) for n in (32, 33)]
    esp = Esp32()
    assert wake_on_keys(WakeMachine, pins, 1, esp, deep=True) == EXT1
    assert esp.calls == [("ext1", pins, True)]
    with pytest.raises(ValueError):  # the original ESP32's ext1 only has "all low"
        wake_on_keys(WakeMachine, pins, 0, esp, deep=True)
    assert wake_on_keys(WakeMachine, pins, 0, esp, deep=True, any_low=True) == EXT1
    with pytest.raises(ValueError):
        wake_on_keys(WakeMachine, [], 0, esp)


# ---------------------------------------------------------------- MicroPython


FAKE_MACHINE = """
log = [0, 0, 0]  # light sleeps, ms of the last one, deep sleeps
def lightsleep(ms):
    log[0] += 1
    log[1] = ms
def deepsleep(*a):
    log[2] += 1
"""

MP_SCENARIO = """
import gc
import machine
import hw.power
from compat import ticks_add
from hw.power import Power

slept = [0]

def fake_sleep_ms(ms):
    slept[0] += 1

hw.power.sleep_ms = fake_sleep_ms  # no real waiting; the module looks it up per call

class Disp:
    def __init__(self):
        self.log = []
    def contrast(self, v):
        self.log.append(v)
    def power(self, on):
        self.log.append(on)

d = Disp()
p = Power(d, {"dim_s": 30, "off_s": 120, "sleep_s": 1800, "cap_ms": 1000}, machine, True)
start = (1 << 30) - 5000
p.start(start)
t = 0

off_at = [-1]

def turn():
    global t
    now = ticks_add(start, t)
    if p.update(now) == 2 and off_at[0] < 0:
        off_at[0] = t
        print("off", t, p.wakeups, slept[0], d.log)
    ms = p.wait_ms(now, True)
    p.sleep(ms)
    t += ms

while p.state < 2:
    turn()
n = p.wakeups
for i in range(600):
    turn()
print("ten minutes off", p.wakeups - n, machine.log)
now = ticks_add(start, t)
print("press", p.key(now), p.key(now), d.log)

# No allocation in the per-turn calls (a light sleep is a fake call here).
def spin(k):
    now = ticks_add(start, t + k)
    p.watch(now, k & 64)
    p.key(now)
    p.update(now)
    p.wait_ms(now, k & 1)
    p.timeout(now)

for k in range(200):
    spin(k)
gc.collect()
gc.disable()
before = gc.mem_alloc()
for k in range(2000):
    spin(k)
grown = gc.mem_alloc() - before
gc.enable()
print("alloc", grown)
"""


def test_scenario_under_micropython(unix_port, tmp_path):
    # On both word sizes: on the 32-bit port a tick sum past 2**30 - 1 is a heap object.
    (tmp_path / "machine.py").write_text(FAKE_MACHINE)
    mp = unix_port(["-c", MP_SCENARIO], heapsize="56k", extra_path=[str(tmp_path)])
    assert mp.returncode == 0, mp.stderr
    lines = mp.stdout.decode().splitlines()
    assert lines[0].startswith("off ")
    _, t_off, wakeups, blocking, log = lines[0].split(" ", 4)
    assert 120000 <= int(t_off) < 120020  # across the tick wrap 5 s in
    # 50 a second while the panel was bright, one a second while dimmed (light sleeps)
    assert int(wakeups) == 1590 and int(blocking) == 1500
    assert log == "[8, False]"
    # 600 wake-ups in ten minutes off; 90 light sleeps dimmed and 601 off (the turn that
    # switched the panel off slept too), every one 1000 ms; no deep sleep yet.
    assert lines[1] == "ten minutes off 600 [691, 1000, 0]"
    assert lines[2] == "press True False [8, False, 207, True]"
    assert lines[3] == "alloc 0"


# ---------------------------------------------------------------- the club link's WiFi


class FakeWLAN:
    PM_POWERSAVE = 2  # the ESP32 port's value (WIFI_PS_MAX_MODEM)

    def __init__(self, pm=True):
        self.calls = []
        if not pm:  # a firmware whose WLAN has no power-save setting
            self.config = self._refuse

    def isconnected(self):
        return False

    def active(self, on):
        self.calls.append(("active", on))

    def config(self, **kw):
        self.calls.append(("config", kw))

    def _refuse(self, **kw):
        raise ValueError("unknown config param")

    def connect(self, ssid, password):
        self.calls.append(("connect", ssid))


@pytest.mark.parametrize("pm", [True, False])
def test_the_club_station_listens_every_third_beacon(tmp_path, pm):
    """The club link starts the station with power save (PM_POWERSAVE: ESP-IDF's maximum
    modem sleep, tools/battery.py's DTIM3 currents); a firmware without it connects all
    the same."""
    import os

    from net.clublink import Club
    from net.mqtt import MQTT
    from session import Session
    from store.journal import Store

    session = Session(Store(str(tmp_path / "data"), os))
    session.boot()
    wlan = FakeWLAN(pm)
    club = Club(MQTT("table-1", "1", None, 30), lambda code, arg: None, session,
                Store(str(tmp_path / "outbox"), os),
                {"table": "1", "ssid": "club", "broker": "127.0.0.1"}, 0, None, wlan)
    club.poll(0)
    club.poll(20)
    expect = [("active", True)] + [("config", {"pm": 2})] * pm + [("connect", "club")]
    assert wlan.calls == expect


def test_with_the_club_wifi_up_the_policy_never_light_sleeps(slept):
    """Power's `wifi` (startup.py: a board with WiFi and a club file): an explicit light
    sleep would drop the association, so the CPU idles in time.sleep_ms and the keys are
    scanned as with no wake source (dimmed: every scan_ms; off: every nowake_ms). Deep sleep,
    which boots afresh, is kept."""
    clock = Clock(NEAR_WRAP)
    machine = FakeMachine()
    arms = []
    p = Power(FakeDisplay(clock), SETTINGS, machine, lambda: arms.append(clock.t), True)
    p.start(clock.now)
    assert p.cap_ms == 100 and p.deep_ms == 1800 * S
    loop(p, clock, 31 * S, until=lambda p: p.state == DIM)
    dimmed = loop(p, clock, 91 * S, until=lambda p: p.state == OFF)
    assert set(dimmed) == {20}  # dimmed: scanned as bright
    assert set(loop(p, clock, 60 * S)) == {100}  # off: nowake_ms
    assert p.lightsleeps == 0 and arms == []
    loop(p, clock, 1800 * S, until=lambda p: p.state == DEEP)
    assert machine.calls == [("deepsleep",)] and len(arms) == 1
    assert p.wakeups == len(slept)


LOOP_SLEEPS = """
import os
import sys
import time
import machine

light = [0]


def lightsleep(ms=None):  # a board with no key pressed: the whole sleep
    light[0] += 1
    time.sleep_ms(ms)


machine.lightsleep = lightsleep


class _Esp32:  # the key wake source, as parts.py sets it up
    @staticmethod
    def wake_on_gpio(pins, level):
        pass


sys.modules["esp32"] = _Esp32
from session import Session
from store.journal import Store

Session(Store("data", os)).save_settings({"dim_s": 1, "off_s": 5})
import main
main.run(seconds=2)
import loop
power = loop.held[1]
print("SLEEPS", light[0], power.state, power.cap_ms, loop.turns)
"""


@pytest.mark.parametrize("wifi,club", [(True, True), (True, False), (False, True)])
def test_the_loop_light_sleeps_only_without_the_club_wifi(tmp_path, wifi, club):
    """The real loop.run() on the unix port with the fake machine (and a lightsleep that
    sleeps): with the club link's WiFi up (a board with "wifi" and a club file) the dimmed
    table never calls machine.lightsleep, it scans its keys every 20 ms instead; without
    the club file, or on a board without WiFi, it light-sleeps as before."""
    import json
    import os

    from conftest import FIRMWARE, ROOT, run_micropython

    with open(os.path.join(ROOT, "boards", "devkitc-ssd1306-keypad.json")) as f:
        cfg = json.load(f)
    cfg["wifi"] = wifi
    (tmp_path / "board.json").write_text(json.dumps(cfg))
    if club:  # no WiFi name: no network module needed; port 9: refused at once
        (tmp_path / "club.json").write_text(json.dumps({"table": "1", "broker": "127.0.0.1",
                                                        "port": 9}))
    proc = run_micropython(["-c", LOOP_SLEEPS], cwd=str(tmp_path), heapsize="512k",
                           paths=[FIRMWARE, os.path.join(ROOT, "host_tests", "fake_machine")])
    assert proc.returncode == 0, proc.stderr.decode()
    line = [x for x in proc.stdout.decode().splitlines() if x.startswith("SLEEPS")][0]
    sleeps, state, cap, turns = (int(x) for x in line.split()[1:])
    assert state == DIM  # dimmed after 1 s, as the settings say
    if wifi and club:
        assert sleeps == 0
        assert cap == 100  # scanned as with no wake source
        assert turns > 25  # the dimmed second scanned every 20 ms
    else:
        assert sleeps >= 1
        assert cap == 3600000  # a key ends the light sleep
