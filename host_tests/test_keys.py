"""Key input: debounce, long press, tick wrap-around, matrix scanning and ghosting."""

import os
import random
import subprocess
import sys

import pytest
from compat import TICKS_PERIOD, ticks_add, ticks_diff
from conftest import FIRMWARE
from hw import keys
from hw.buttons import Buttons
from hw.keypad import Keypad
from hw.keys import LONG, PRESS, Source
from hw.keys_build import setup
from hypothesis import given, settings
from hypothesis import strategies as st
from keys_both import run as both_run

DEB = keys.DEBOUNCE_MS
HOLD = keys.LONG_MS
NEAR_WRAP = TICKS_PERIOD - 300


# ---------------------------------------------------------------- fakes


class Signal:
    """A level over time: changes is [(elapsed_ms, level), ...] in time order."""

    def __init__(self, changes, idle=0):
        self.changes = changes
        self.idle = idle

    def at(self, e):
        level = self.idle
        for when, value in self.changes:
            if when > e:
                break
            level = value
        return level


def press_signal(start, length, bounce=()):
    """1 from start for length ms; bounce is a list of glitch offsets at each edge."""
    changes = []
    for edge, level in ((start, 1), (start + length, 0)):
        t = edge
        for glitch in bounce:
            changes += [(t, level), (t + glitch, 1 - level)]
            t += glitch + 1
        changes.append((t, level))
    return Signal(changes)


class FakeClockPins:
    """Direct button pins reading from signals at the clock's elapsed time."""

    def __init__(self, signals, pressed=0):
        self.elapsed = 0
        self.signals = signals
        self.pressed = pressed

    def pin(self, i):
        def read():
            down = self.signals[i].at(self.elapsed)
            return self.pressed if down else 1 - self.pressed

        return read


class FakeMatrix:
    """Keys as switches between row and column wires, without diodes.

    Rows behave as open-drain outputs (1 = released), columns are pulled up.
    A column reads 0 when a path of closed keys joins it to a low row, so
    three keys at the corners of a rectangle show the fourth as a phantom.
    """

    def __init__(self, nrows=4, ncols=4):
        self.nrows = nrows
        self.ncols = ncols
        self.levels = [1] * nrows
        self.closed = set()  # (row, col)
        self.low_rows_seen = []  # how many rows were low at each column read
        self.rows = [self._row(r) for r in range(nrows)]
        self.cols = [self._col(c) for c in range(ncols)]

    def _row(self, r):
        def drive(v):
            self.levels[r] = v

        return drive

    def _col(self, c):
        def read():
            self.low_rows_seen.append(self.levels.count(0))
            seen_rows, seen_cols = set(), {c}
            frontier = [("c", c)]
            while frontier:
                kind, n = frontier.pop()
                for r, cc in self.closed:
                    if kind == "c" and cc == n and r not in seen_rows:
                        seen_rows.add(r)
                        frontier.append(("r", r))
                    if kind == "r" and r == n and cc not in seen_cols:
                        seen_cols.add(cc)
                        frontier.append(("c", cc))
            return 0 if any(self.levels[r] == 0 for r in seen_rows) else 1

        return read


def run(source, until, start=0, step=1, before=None):
    """Poll source every step ms for until ms from tick start.

    before(elapsed) is called ahead of each poll to move the fakes.
    Returns [(elapsed, name, kind)].
    """
    out = []
    e = 0
    while e <= until:
        if before:
            before(e)
        while True:
            ev = source.poll(ticks_add(start, e))
            if ev is None:
                break
            out.append((e, ev[0], ev[1]))
        e += step
    return out


def one_button(signal, start=0, step=1, until=None, pressed=0):
    pins = FakeClockPins([signal], pressed)
    b = Buttons([pins.pin(0)], ["OK"], pressed=pressed)

    def before(e):
        pins.elapsed = e

    last = signal.changes[-1][0] if signal.changes else 0
    return run(b, until or last + 2000, start, step, before)


def kinds(events):
    return [k for _e, _n, k in events]


# ---------------------------------------------------------------- ticks


@pytest.mark.parametrize(
    "a, b, d",
    [
        (5, 3, 2),
        (3, 5, -2),
        (0, TICKS_PERIOD - 1, 1),
        (TICKS_PERIOD - 1, 0, -1),
        (10, TICKS_PERIOD - 10, 20),
        (TICKS_PERIOD // 2 - 1, 0, TICKS_PERIOD // 2 - 1),
        (TICKS_PERIOD // 2, 0, -(TICKS_PERIOD // 2)),
    ],
)
def test_ticks_diff_table(a, b, d):
    assert ticks_diff(a, b) == d


@given(st.integers(0, TICKS_PERIOD - 1), st.integers(0, TICKS_PERIOD - 1))
def test_ticks_diff_matches_reference_formula(a, b):
    half = TICKS_PERIOD // 2
    assert ticks_diff(a, b) == ((a - b + half) % TICKS_PERIOD) - half


@given(st.integers(0, TICKS_PERIOD - 1), st.integers(-(2**28), 2**28))
def test_ticks_add_inverts_diff(t, delta):
    assert ticks_diff(ticks_add(t, delta), t) == delta


# ---------------------------------------------------------------- the key state machine


class Bits(Source):
    """hw/keys.py's machine alone: its reading is the bits the test sets."""

    def __init__(self, names, one_key=False, **timing):
        setup(self, names, 2 * len(names), **timing)
        self.ONE_KEY = one_key
        self.bits = 0

    def _read(self):
        return self.bits


def test_the_machine_driven_directly_with_bits_and_a_fake_clock():
    k = Bits(["X"])
    k.bits = 1
    assert k.poll(1000) is None
    assert k.poll(1000 + DEB - 1) is None and not k._down
    assert k.poll(1000 + DEB) is None and k._down
    k.bits = 0
    assert k.poll(1100) is None
    assert k.poll(1100 + DEB) == ("X", PRESS) and not k._down
    assert k._events == [("X", PRESS), ("X", LONG)]


def test_timing_per_source():
    k = Bits(["X"], long_ms=2000)
    k.bits = 1
    k.poll(0)
    k.poll(DEB)
    assert k.poll(1999) is None
    assert k.poll(2000) == ("X", LONG)
    b = Buttons([lambda: 0], ["A"], long_ms=100, debounce_ms=5)
    assert b.LONG_MS == 100 and b.DEBOUNCE_MS == 5
    assert [b.poll(t) for t in (0, 4, 5, 99)] == [None] * 4 and b.poll(100) == ("A", LONG)
    assert Buttons([lambda: 0], ["A"]).LONG_MS == HOLD == 600



def test_one_reading_gives_its_releases_first_then_its_long_presses():
    k = Bits(["A", "B", "C"])
    k.bits = 0b101  # A and C closed at 0
    k.poll(0)
    k.bits = 0b111  # B closed
    k.poll(HOLD - 100)
    k.poll(HOLD - 100 + DEB)
    k.bits = 0b101  # B opens: its release counts at HOLD, when A's and C's holds go LONG
    k.poll(HOLD - DEB)
    assert [k.poll(HOLD) for _ in range(4)] == [("B", PRESS), ("A", LONG), ("C", LONG), None]

# ---------------------------------------------------------------- direct buttons

TABLE = [
    # (name, signal, expected kinds)
    ("nothing", Signal([]), []),
    ("glitch shorter than debounce", Signal([(100, 1), (100 + DEB - 1, 0)]), []),
    (
        "burst of bounce, never stable",
        Signal([(100 + 5 * i, i % 2 == 0) for i in range(12)] + [(160, 0)]),
        [],
    ),
    ("clean press", press_signal(100, 150), [PRESS]),
    ("bouncy press", press_signal(100, 150, bounce=[3, 7, 2, 11]), [PRESS]),
    ("two presses", Signal([(100, 1), (200, 0), (300, 1), (400, 0)]), [PRESS, PRESS]),
    ("hold", press_signal(100, 1500), [LONG]),
    ("bouncy hold", press_signal(100, 1500, bounce=[5, 15, 9]), [LONG]),
    ("just short of long", press_signal(100, HOLD), [PRESS]),
    ("just long", press_signal(100, HOLD + 1), [LONG]),
    ("hold then tap", Signal([(100, 1), (900, 0), (1000, 1), (1050, 0)]), [LONG, PRESS]),
]


@pytest.mark.parametrize("start", [0, 12345, NEAR_WRAP, TICKS_PERIOD - 1])
@pytest.mark.parametrize("name, signal, expected", TABLE, ids=[t[0] for t in TABLE])
def test_button_table(name, signal, expected, start):
    assert kinds(one_button(signal, start=start)) == expected


@pytest.mark.parametrize("step", [1, 3, 7])
def test_button_table_with_coarser_polling(step):
    for name, signal, expected in TABLE:
        if name in ("just short of long", "just long"):
            continue  # these sit on the threshold at 1 ms resolution
        assert kinds(one_button(signal, step=step)) == expected, name


def test_press_is_reported_on_release_after_debounce():
    events = one_button(press_signal(100, 150))
    assert events == [(250 + DEB, "OK", PRESS)]


def test_long_is_reported_while_held_at_threshold():
    events = one_button(press_signal(100, 1500))
    assert events == [(100 + HOLD, "OK", LONG)]


def test_press_spanning_the_tick_wrap():
    # Starts 50 ms before the wrap, released 100 ms after it.
    start = TICKS_PERIOD - 150
    events = one_button(press_signal(100, 150), start=start)
    assert events == [(250 + DEB, "OK", PRESS)]
    assert ticks_add(start, 100) > ticks_add(start, 250 + DEB)  # really wrapped


def test_hold_spanning_the_tick_wrap():
    start = TICKS_PERIOD - 400
    events = one_button(press_signal(100, 1500), start=start)
    assert events == [(100 + HOLD, "OK", LONG)]


def test_active_high_polarity():
    assert kinds(one_button(press_signal(100, 150), pressed=1)) == [PRESS]
    assert kinds(one_button(press_signal(100, 1500), pressed=1)) == [LONG]


def test_several_buttons_at_once_are_all_queued_in_order():
    sigs = [press_signal(100, 100), Signal([]), press_signal(100, 100), press_signal(100, 900)]
    pins = FakeClockPins(sigs)
    b = Buttons([pins.pin(i) for i in range(4)], ["UP", "DOWN", "OK", "BACK"])

    def before(e):
        pins.elapsed = e

    events = run(b, 2000, before=before)
    assert events == [
        (200 + DEB, "UP", PRESS),
        (200 + DEB, "OK", PRESS),
        (100 + HOLD, "BACK", LONG),
    ]


def test_same_event_object_every_time():
    pins = FakeClockPins([Signal([(0, 1), (50, 0), (100, 1), (150, 0)])])
    b = Buttons([pins.pin(0)], ["OK"])

    def before(e):
        pins.elapsed = e

    found = []
    e = 0
    while e < 400:
        before(e)
        ev = b.poll(e)
        if ev:
            found.append(ev)
        e += 1
    assert len(found) == 2 and found[0] is found[1]


def test_idle_and_any_down():
    level = [1]
    b = Buttons([lambda: level[0]], ["OK"])
    assert b.poll(0) is None and b.idle() and not b.any_down()
    level[0] = 0
    b.poll(10)
    assert b.any_down() and not b.idle()  # settling counts as busy
    b.poll(10 + DEB)
    assert b.any_down() and not b.idle()
    level[0] = 1
    b.poll(100)
    b.poll(100 + DEB)  # returns the PRESS
    assert b.idle()


def test_idle_is_false_while_an_event_is_queued():
    sigs = [press_signal(0, 50), press_signal(0, 50)]
    pins = FakeClockPins(sigs)
    b = Buttons([pins.pin(0), pins.pin(1)], ["A", "B"])
    for e in range(0, 50 + DEB):
        pins.elapsed = e
        assert b.poll(e) is None
    pins.elapsed = 50 + DEB
    assert b.poll(50 + DEB) == ("A", PRESS)
    assert not b.idle()
    assert b.poll(50 + DEB) == ("B", PRESS)
    assert b.idle()


def test_buttons_reject_mismatched_names():
    with pytest.raises(ValueError):
        Buttons([lambda: 1], ["A", "B"])


# ---------------------------------------------------------------- matrix keypad

LAYOUT_ROWS = ["123A", "456B", "789C", "*0#D"]


def matrix_run(m, kp, script, until, start=0, step=1):
    """script: [(elapsed, 'down'|'up', (row, col))]."""

    todo = sorted(script, key=lambda s: s[0])
    done = [0]

    def before(e):
        while done[0] < len(todo) and todo[done[0]][0] <= e:
            _when, what, rc = todo[done[0]]
            (m.closed.add if what == "down" else m.closed.discard)(rc)
            done[0] += 1

    return run(kp, until, start, step, before)


def tap(rc, at, length=100):
    return [(at, "down", rc), (at + length, "up", rc)]


@pytest.mark.parametrize("row", range(4))
@pytest.mark.parametrize("col", range(4))
def test_matrix_finds_each_key_by_name(row, col):
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    events = matrix_run(m, kp, tap((row, col), 10), 400)
    assert events == [(110 + DEB, LAYOUT_ROWS[row][col], PRESS)]


def test_matrix_scan_drives_one_row_low_at_a_time_and_rests_high():
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    for t in range(50):
        kp.poll(t)
        assert m.levels == [1, 1, 1, 1]
    assert m.low_rows_seen and set(m.low_rows_seen) == {1}


def test_matrix_long_press_and_custom_layout():
    m = FakeMatrix(2, 3)
    kp = Keypad(m.rows, m.cols, layout=[["UNDO", "OK", "MENU"], ["P1", "P2", "P3"]])
    script = tap((0, 0), 10, 1000) + tap((1, 2), 1200, 50)
    events = matrix_run(m, kp, script, 2000)
    assert events == [(10 + HOLD, "UNDO", LONG), (1250 + DEB, "P3", PRESS)]


def test_matrix_string_layout_other_shape():
    m = FakeMatrix(3, 4)
    kp = Keypad(m.rows, m.cols, layout="123A/456B/789C")
    assert kp.names == list("123A456B789C")


@pytest.mark.parametrize(
    "layout",
    ["123/456/789/*0#", "123A/456B/789C", "123A/456B/789C/*0#D/EFGH", [["1", "2"]] * 4],
)
def test_matrix_rejects_layout_that_does_not_fit(layout):
    m = FakeMatrix()
    with pytest.raises(ValueError):
        Keypad(m.rows, m.cols, layout=layout)


def test_matrix_bouncy_key_gives_one_press():
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    script = []
    for i, t in enumerate([10, 13, 15, 22, 24]):
        script.append((t, "down" if i % 2 == 0 else "up", (1, 1)))
    for i, t in enumerate([200, 204, 209, 211, 215]):
        script.append((t, "up" if i % 2 == 0 else "down", (1, 1)))
    assert kinds(matrix_run(m, kp, script, 600)) == [PRESS]


def test_matrix_press_across_the_wrap():
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    events = matrix_run(m, kp, tap((3, 1), 100, 150), 800, start=TICKS_PERIOD - 200)
    assert events == [(250 + DEB, "0", PRESS)]
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    events = matrix_run(m, kp, tap((3, 1), 100, 1000), 1500, start=TICKS_PERIOD - 200)
    assert events == [(100 + HOLD, "0", LONG)]


def test_matrix_rollover_second_key_reported_after_first():
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    script = [
        (10, "down", (0, 0)),
        (60, "down", (2, 3)),
        (100, "up", (0, 0)),
        (150, "up", (2, 3)),
    ]
    events = matrix_run(m, kp, script, 500)
    assert events == [(100 + DEB, "1", PRESS), (150 + DEB, "C", PRESS)]


def test_matrix_second_key_released_first_is_ignored():
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    script = [
        (10, "down", (0, 0)),
        (60, "down", (0, 1)),
        (100, "up", (0, 1)),
        (150, "up", (0, 0)),
    ]
    assert matrix_run(m, kp, script, 500) == [(150 + DEB, "1", PRESS)]


def test_matrix_two_keys_together_report_the_earlier_one_first():
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    script = [(10, "down", (2, 2)), (12, "down", (1, 0)), (100, "up", (1, 0)), (200, "up", (2, 2))]
    events = matrix_run(m, kp, script, 500)
    assert [n for _e, n, _k in events] == ["9"]  # "4" was released while "9" was reported


@pytest.mark.parametrize(
    "corners",
    [
        [(0, 0), (0, 1), (1, 0)],  # rectangle: phantom (1, 1)
        [(1, 1), (1, 3), (3, 3)],  # rectangle: phantom (3, 1)
        [(0, 0), (1, 1), (2, 2)],  # no phantom, still three keys
        [(0, 0), (0, 1), (1, 0), (1, 1)],
    ],
)
def test_matrix_chords_of_three_or_more_are_ignored(corners):
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    script = []
    for i, rc in enumerate(corners):
        script += [(10 + i, "down", rc), (300 + 7 * i, "up", rc)]
    assert matrix_run(m, kp, script, 1500) == []
    # and the keypad works normally afterwards
    assert matrix_run(m, kp, tap((3, 3), 10), 300) == [(110 + DEB, "D", PRESS)]


def test_matrix_ghost_really_appears_in_the_fake():
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    m.closed |= {(0, 0), (0, 1), (1, 0)}
    assert kp._read() == 0b0011_0011  # keys 1, 2, 4 and the phantom 5


def test_matrix_chord_cancels_a_key_already_held():
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    script = [(10, "down", (0, 0)), (200, "down", (1, 1)), (210, "down", (2, 2))]
    script += [(300, "up", (1, 1)), (310, "up", (2, 2)), (800, "up", (0, 0))]
    assert matrix_run(m, kp, script, 1500) == []


def test_matrix_long_press_survives_a_second_key():
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    script = [(10, "down", (3, 0)), (100, "down", (0, 0)), (150, "up", (0, 0))]
    script += [(1000, "up", (3, 0))]
    assert matrix_run(m, kp, script, 1500) == [(10 + HOLD, "*", LONG)]


def test_matrix_idle_and_arm_wake():
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    assert kp.poll(0) is None and kp.idle()
    kp.arm_wake()
    assert m.levels == [0, 0, 0, 0]
    m.closed.add((2, 1))
    assert m.cols[1]() == 0  # any key now pulls its column low
    m.low_rows_seen.clear()
    kp.poll(1)
    assert set(m.low_rows_seen) == {1}  # scanning again, one row at a time
    assert kp.any_down() and not kp.idle()
    assert kp._raw == 1 << 9  # key 9 closed, and no other


# ---------------------------------------------------------------- stuck keys

STUCK = 10000  # ms: a key held longer is stuck (hw/keys.py STUCK_MS)


def test_a_button_held_past_the_limit_is_stuck_idle_and_its_release_is_silent():
    level = [0]  # held from the start
    b = Buttons([lambda: level[0]], ["OK"])
    events = []
    for t in range(0, STUCK + 500, 10):
        ev = b.poll(t)
        if ev:
            events.append((t, ev[1]))
        if t < STUCK:
            assert b.any_down() and not b.idle()
    assert events == [(HOLD, LONG)]  # the hold went LONG once, as any long press
    assert not b.any_down() and b.idle()  # then stuck: idle, so the board may nap
    assert b.arm_wake() is False  # its pin would end any machine sleep at once
    level[0] = 1  # released at last
    assert [b.poll(t) for t in range(STUCK + 500, STUCK + 700, 10)] == [None] * 20
    assert b.idle() and b.arm_wake() is True
    level[0] = 0  # and the key works again
    b.poll(20000)
    b.poll(20000 + DEB)
    level[0] = 1
    b.poll(20100)
    assert b.poll(20100 + DEB) == ("OK", PRESS)


def test_a_stuck_button_leaves_the_others_working():
    levels = [0, 1]
    b = Buttons([lambda: levels[0], lambda: levels[1]], ["A", "B"])
    for t in range(0, STUCK + 100, 10):
        b.poll(t)
    assert b.idle()
    levels[1] = 0
    b.poll(STUCK + 200)
    assert not b.idle()  # a real press is activity
    b.poll(STUCK + 200 + DEB)
    levels[1] = 1
    b.poll(STUCK + 300)
    assert b.poll(STUCK + 300 + DEB) == ("B", PRESS)
    assert b.idle()


def test_a_stuck_keypad_key_is_idle_its_release_silent_and_other_keys_work():
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    script = [(0, "down", (1, 1))]  # "5" held from the start
    script += tap((2, 2), STUCK + 1000)  # "9" pressed while "5" is stuck
    script += [(STUCK + 3000, "up", (1, 1))]
    idle = {}

    def before(e):
        for when, what, rc in script:
            if when == e:
                (m.closed.add if what == "down" else m.closed.discard)(rc)
        if e in (STUCK - 10, STUCK + 500, STUCK + 1050, STUCK + 2000, STUCK + 3500):
            idle[e] = kp.idle()

    events = run(kp, STUCK + 4000, before=before)
    assert [(n, k) for _e, n, k in events] == [("5", LONG), ("9", PRESS)]
    assert idle == {STUCK - 10: False, STUCK + 500: True, STUCK + 1050: False,
                    STUCK + 2000: True, STUCK + 3500: True}


def test_keypad_arm_wake_leaves_a_stuck_keys_row_high():
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    m.closed.add((1, 1))
    for t in range(0, STUCK + 100, 10):
        kp.poll(t)
    assert kp.idle()
    assert kp.arm_wake() is True
    assert m.levels == [0, 1, 0, 0]  # the stuck key cannot pull its column low
    assert [m.cols[c]() for c in range(4)] == [1, 1, 1, 1]
    m.closed.add((3, 2))  # a key of another row still wakes
    assert m.cols[2]() == 0
    m.closed.discard((3, 2))
    for r in (0, 2, 3):  # a key stuck in every row: no row can be armed
        m.closed.add((r, 0))
    for t in range(STUCK + 100, 2 * STUCK + 200, 10):
        kp.poll(t)
    assert kp.arm_wake() is False


# ---------------------------------------------------------------- property test

BOUNCE = st.lists(st.integers(1, DEB - 1), max_size=4)
MARGIN = 12  # > 2 * the largest polling step below


def burst_len(bounce):
    return sum(bounce) + len(bounce)


@st.composite
def schedules(draw):
    """Random presses: (gap before, hold length, bounce at press, bounce at release).

    Holds keep clear of the long-press threshold by more than the bounce and
    the polling step (MARGIN), so each press is clearly short or clearly long.
    """
    presses = []
    last_release = 0
    for _ in range(draw(st.integers(0, 6))):
        down_b = draw(BOUNCE)
        up_b = draw(BOUNCE)
        settle = burst_len(down_b)
        if draw(st.booleans()):
            hold = draw(st.integers(settle + DEB + MARGIN, HOLD - burst_len(up_b) - MARGIN))
        else:
            hold = draw(st.integers(HOLD + settle + MARGIN, HOLD + 900))
        gap = draw(st.integers(last_release + DEB + MARGIN, 400))
        presses.append((gap, hold, down_b, up_b))
        last_release = burst_len(up_b)
    return presses


def expected_kind(hold):
    return PRESS if hold < HOLD else LONG


def build_changes(presses):
    changes = []
    t = 0
    for gap, hold, down_b, up_b in presses:
        t += gap
        for edge, level, bounce in ((t, 1, down_b), (t + hold, 0, up_b)):
            at = edge
            for glitch in bounce:
                changes += [(at, level), (at + glitch, 1 - level)]
                at += glitch + 1
            changes.append((at, level))
        t += hold
    return changes, t


@settings(max_examples=150, deadline=None)
@given(
    schedules(),
    st.integers(1, 5),
    st.integers(0, 3000),
    st.sampled_from([0, 1]),
)
def test_property_buttons_one_event_per_clean_press(presses, step, before_wrap, pressed):
    changes, end = build_changes(presses)
    start = ticks_add(0, -before_wrap)  # many schedules span the wrap
    events = one_button(Signal(changes), start=start, step=step, until=end + 1000, pressed=pressed)
    assert kinds(events) == [expected_kind(h) for _g, h, _d, _u in presses]


@settings(max_examples=100, deadline=None)
@given(
    schedules(),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=6, max_size=6),
    st.integers(1, 4),
    st.integers(0, 3000),
)
def test_property_keypad_one_event_per_clean_press(presses, keys, step, before_wrap):
    m = FakeMatrix()
    kp = Keypad(m.rows, m.cols)
    script = []
    expected = []
    t = 0
    for (gap, hold, down_b, up_b), rc in zip(presses, keys):
        changes, _end = build_changes([(gap, hold, down_b, up_b)])
        for when, level in changes:
            script.append((t + when, "down" if level else "up", rc))
        t += gap + hold
        expected.append((LAYOUT_ROWS[rc[0]][rc[1]], expected_kind(hold)))
    start = ticks_add(0, -before_wrap)
    events = matrix_run(m, kp, script, t + 1000, start=start, step=step)
    assert [(n, k) for _e, n, k in events] == expected


# ---------------------------------------------------------------- MicroPython

SCENARIO = """
from compat import ticks_add, TICKS_PERIOD
from hw.buttons import Buttons
from hw.keypad import Keypad
from hw.keys import PRESS

level = [1, 1]
b = Buttons([lambda: level[0], lambda: level[1]], ["OK", "BACK"])
rows_v = [1, 1, 1, 1]
closed = []

def row(r):
    def drive(v):
        rows_v[r] = v
    return drive

def col(c):
    def read():
        for rc in closed:
            if rc[1] == c and rows_v[rc[0]] == 0:
                return 0
        return 1
    return read

kp = Keypad([row(r) for r in range(4)], [col(c) for c in range(4)])
start = TICKS_PERIOD - 700
plan = {100: (0, 0), 103: (0, 1), 105: (0, 0), 250: (0, 1), 400: (1, 0), 1300: (1, 1),
        1500: (0, 0), 1530: (0, 1), 1560: (1, 0), 1590: (1, 1)}
taps = {50: ((2, 1), 1), 200: ((2, 1), 0), 900: ((3, 2), 1), 1700: ((3, 2), 0)}
for e in range(2000):
    if e in plan:
        i, v = plan[e]
        level[i] = v
    if e in taps:
        rc, v = taps[e]
        if v:
            closed.append(rc)
        else:
            closed.remove(rc)
    now = ticks_add(start, e)
    for src in (b, kp):
        ev = src.poll(now)
        while ev is not None:
            print(e, now, ev[0], "PRESS" if ev[1] == PRESS else "LONG")
            ev = src.poll(now)
print("idle", b.idle(), kp.idle())
"""


def test_same_output_under_micropython_and_cpython(micropython):
    mp = micropython(["-c", SCENARIO])
    assert mp.returncode == 0, mp.stderr
    env = dict(os.environ, PYTHONPATH=FIRMWARE)
    cp = subprocess.run([sys.executable, "-c", SCENARIO], capture_output=True, env=env)
    assert cp.returncode == 0, cp.stderr
    assert mp.stdout == cp.stdout
    assert mp.stdout.decode().splitlines() == [
        "220 1073741344 8 PRESS",
        "270 1073741394 OK PRESS",  # bounced at 103 and 105, released at 250
        "1000 300 BACK LONG",  # spans the wrap at 700
        "1500 800 # LONG",
        "1550 850 OK PRESS",
        "1610 910 BACK PRESS",
        "idle True True",
    ]


ALLOC = """
import gc
from hw.buttons import Buttons
from hw.keypad import Keypad

level = [1, 1, 1, 1]
b = Buttons([lambda: level[0], lambda: level[1], lambda: level[2], lambda: level[3]],
        ["UP", "DOWN", "OK", "BACK"])
rows_v = [1, 1, 1, 1]
key = [-1, -1]

def row(r):
    def drive(v):
        rows_v[r] = v
    return drive

def col(c):
    def read():
        if key[1] == c and rows_v[key[0]] == 0:
            return 0
        return 1
    return read

kp = Keypad([row(r) for r in range(4)], [col(c) for c in range(4)])
sources = (b, kp)
count = [0]

def step(t):
    # a press of 150 ms (PRESS) then one of 900 ms (LONG), with bounce, every 1400 ms
    p = t % 1400
    down = 1 if (10 <= p < 160 or 300 <= p < 1200) and p % 97 != 3 else 0
    level[t // 1400 % 4] = 1 - down
    if down:
        key[0] = t // 1400 % 4
        key[1] = t // 350 % 4
    else:
        key[0] = -1
        key[1] = -1
    for src in sources:
        ev = src.poll(t)
        while ev is not None:
            count[0] += 1
            ev = src.poll(t)

for t in range(3000):  # warm up: every code path runs once
    step(t)
gc.collect()
gc.disable()
before = gc.mem_alloc()
for t in range(3000, 9000):
    step(t)
after = gc.mem_alloc()
gc.enable()
print(count[0], after - before)
"""


def test_poll_does_not_allocate_under_micropython(unix_port):
    mp = unix_port(["-c", ALLOC], heapsize="56k")
    assert mp.returncode == 0, mp.stderr
    events, grown = mp.stdout.split()
    assert int(events) >= 8
    assert int(grown) == 0


# The ESP32's ticks_ms() wraps at 2**30; its small ints hold 31 bits (-2**30 .. 2**30 - 1).
# A loop that adds to a tick near the wrap must not step outside that range even for an
# intermediate value, or every turn allocates a long int: a leak per loop turn on the board.
TICK_WRAP = """
import gc
from compat import ticks_add, ticks_diff
from hw.buttons import Buttons

MASK = 0x3FFFFFFF
level = [1]
b = Buttons([lambda: level[0]], ["OK"])
start = MASK - 3000  # the loop crosses the wrap 3000 ms in
seen = [0, 0]

def turn(i):
    now = ticks_add(start, i)
    later = ticks_add(now, 20)  # a deadline 20 ms ahead, as the loop computes them
    earlier = ticks_add(now, -1000)
    if ticks_diff(later, now) != 20 or ticks_diff(earlier, now) != -1000:
        seen[1] += 1
    level[0] = 0 if i % 200 < 60 else 1
    if b.poll(now) is not None:
        seen[0] += 1
    return now

for i in range(500):
    turn(i)
gc.collect()
gc.disable()
before = gc.mem_alloc()
wrapped = 0
last = 0
for i in range(500, 6500):
    now = turn(i)
    if now < last:
        wrapped += 1
    last = now
grown = gc.mem_alloc() - before
gc.enable()
print(wrapped, seen[0], seen[1], grown)
"""


def test_tick_arithmetic_allocates_nothing_across_the_wrap(unix_port):
    mp = unix_port(["-c", TICK_WRAP], heapsize="56k")
    assert mp.returncode == 0, mp.stderr
    wrapped, presses, wrong, grown = (int(w) for w in mp.stdout.split())
    assert wrapped == 1  # the run did cross the wrap
    assert presses >= 25 and wrong == 0
    assert grown == 0


@pytest.mark.parametrize("t,delta", [
    (0, 0), (5, -10), (0x3FFFFFFF, 1), (0x3FFFFFFF, 0x1FFFFFFF), (0x3FFFF000, 0x2000),
    (0x20000000, 0x20000000 - 1), (100, -0x20000000), (0x3FFFFFFF, -0x3FFFFFFF),
])
def test_ticks_add_matches_the_modular_sum(t, delta):
    assert ticks_add(t, delta) == (t + delta) % (1 << 30)


# ---------------------------------------------------------------- one machine, both builds
# Issue 47: the keypad and the buttons each carried their own debounce, long press and stuck
# key; both now feed hw/keys.py's one machine. The same presses on both give the same events
# at the same ticks, and idle() changes at the same ticks (host_tests/keys_both.py).


def test_one_machine_for_both_builds():
    """The timing lives in hw/keys.py only: the builds read their wiring and nothing else
    (before, hw/keypad.py's _scan and hw/buttons.py's Key each had it)."""
    import ast

    for module, cls in (("keypad", Keypad), ("buttons", Buttons)):
        with open(os.path.join(FIRMWARE, "hw", module + ".py"), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                  for a in n.names}
        assert not names & {"ticks_diff", "DEBOUNCE_MS", "LONG_MS", "STUCK_MS", "_since",
                            "_changed", "_fired", "_muted"}, module
        for method in ("feed", "poll", "any_down", "idle"):
            assert getattr(cls, method) is getattr(Source, method), (module, method)
    assert Keypad.ONE_KEY and not Buttons.ONE_KEY


SHORT_STUCK = 1500  # ms: the random cases' STUCK_MS, so a stuck key takes a short run


def burst(bounce):
    return sum(bounce) + len(bounce)


def random_presses(rnd, stuck_ms):
    """One key at a time, each clearly short, long or stuck (MARGIN off every threshold, from
    the first edge and from the settled one: a poll may miss a glitch): (presses, run
    length)."""
    presses = []
    t = 0
    for _ in range(rnd.randint(0, 6)):
        down_b = [rnd.randint(1, DEB - 1) for _ in range(rnd.randint(0, 3))]
        up_b = [rnd.randint(1, DEB - 1) for _ in range(rnd.randint(0, 3))]
        settle = burst(down_b)
        last = burst(up_b) + DEB  # the release counts this long after the contact opens
        t += rnd.randint(DEB + MARGIN, 300)
        kind = rnd.randrange(3)
        if kind == 0:
            hold = rnd.randint(settle + DEB + MARGIN, HOLD - burst(up_b) - MARGIN)
        elif kind == 1:
            hold = rnd.randint(settle + HOLD + MARGIN, stuck_ms - last - MARGIN)
        else:
            hold = rnd.randint(settle + stuck_ms + MARGIN, settle + stuck_ms + 500)
        presses.append((rnd.randrange(4), t, t + hold, down_b, up_b))
        t += hold + burst(up_b)
    return presses, t + DEB + MARGIN + 100


def expected(presses, stuck_ms):
    """The events hw/keys.py's rules give one key at a time, polled every ms: LONG at the
    settled start + LONG_MS if still closed then, else PRESS at the settled release +
    DEBOUNCE_MS; a key held STUCK_MS gives nothing more."""
    out = []
    for key, down, up, down_b, up_b in presses:
        start = down + burst(down_b)
        if up is None or up > start + HOLD:
            out.append((start + HOLD, key, LONG))
        elif up - start < stuck_ms:
            out.append((up + burst(up_b) + DEB, key, PRESS))
    return out


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 5), st.integers(0, 3000))
def test_property_both_builds_same_events_at_the_same_ticks(rnd, step, before_wrap):
    presses, until = random_presses(rnd, SHORT_STUCK)
    start = ticks_add(0, -before_wrap)
    buttons = both_run("buttons", presses, start, step, until, SHORT_STUCK)
    keypad = both_run("keypad", presses, start, step, until, SHORT_STUCK)
    assert buttons == keypad
    want = expected(presses, SHORT_STUCK)
    if step == 1:
        assert buttons[0] == want
    else:
        assert [(k, kind) for _e, k, kind in buttons[0]] == [(k, kind) for _e, k, kind in want]
    assert not buttons[1] or buttons[1][-1][1] is True  # idle at the end


# (name, presses, start, step, run length, events): with hw/keys.py's own STUCK_MS.
SAME = [
    ("tap", [(0, 100, 200, [], [])], 0, 1, 500, [(200 + DEB, 0, PRESS)]),
    ("bouncy tap", [(1, 100, 250, [3, 7, 2], [5, 11])], 0, 1, 600,
     [(250 + 5 + 11 + 2 + DEB, 1, PRESS)]),
    ("hold", [(2, 100, 1500, [], [])], 0, 1, 2000, [(100 + HOLD, 2, LONG)]),
    ("bouncy hold", [(3, 100, 1500, [5, 15, 9], [4])], 0, 1, 2000,
     [(100 + 32 + HOLD, 3, LONG)]),
    ("just short of long", [(0, 100, 100 + HOLD, [], [])], 0, 1, 1200,
     [(100 + HOLD + DEB, 0, PRESS)]),
    ("just long", [(0, 100, 101 + HOLD, [], [])], 0, 1, 1200, [(100 + HOLD, 0, LONG)]),
    ("each key in turn", [(k, 100 + 300 * k, 200 + 300 * k, [], []) for k in range(4)], 0, 1,
     1500, [(200 + 300 * k + DEB, k, PRESS) for k in range(4)]),
    ("across the tick wrap", [(1, 100, 250, [], []), (2, 400, 1400, [], [])],
     TICKS_PERIOD - 300, 1, 2000, [(250 + DEB, 1, PRESS), (400 + HOLD, 2, LONG)]),
    ("stuck, released, then a tap", [(3, 0, STUCK + 500, [], [2]), (3, STUCK + 800,
                                                                      STUCK + 900, [], [])],
     0, 1, STUCK + 1200, [(HOLD, 3, LONG), (STUCK + 900 + DEB, 3, PRESS)]),
    ("a tap while another key is stuck", [(0, 0, None, [], []), (2, STUCK + 200, STUCK + 300,
                                                                   [], [])],
     0, 1, STUCK + 600, [(HOLD, 0, LONG), (STUCK + 300 + DEB, 2, PRESS)]),
    # every 7 ms: the release seen at 252, the PRESS at the poll 20 ms on (273); the press
    # seen at 406, the LONG at the poll 600 ms on (1008)
    ("coarse polling", [(1, 100, 250, [], []), (0, 400, 1400, [], [])], 0, 7, 2000,
     [(273, 1, PRESS), (1008, 0, LONG)]),
]
RANDOM_CASES = 12


def same_cases():
    cases = [(p, start, step, until, None) for _n, p, start, step, until, _ev in SAME]
    for seed in range(RANDOM_CASES):
        presses, until = random_presses(random.Random(seed), SHORT_STUCK)
        cases.append((presses, ticks_add(0, -37 * seed), 1 + seed % 3, until, SHORT_STUCK))
    return cases


def test_both_builds_give_the_table_s_events_in_cpython():
    for name, presses, start, step, until, want in SAME:
        buttons = both_run("buttons", presses, start, step, until)
        assert buttons == both_run("keypad", presses, start, step, until), name
        assert buttons[0] == want, name
        assert buttons[1] and buttons[1][-1][1] is True, name  # busy, then idle again


def test_both_builds_same_events_and_timing_in_micropython(unix_port):
    """The table and seeded random presses, each on both builds, in the unix port (64-bit,
    then the board's 32-bit word size): each case's two builds print the same, and the same
    as CPython, whose table events are checked above."""
    cases = same_cases()
    code = "from keys_both import main\nmain(%r)\n" % (cases,)
    here = os.path.dirname(os.path.abspath(__file__))
    mp = unix_port(["-c", code], extra_path=[here], timeout=300)
    assert mp.returncode == 0, mp.stderr
    lines = mp.stdout.decode().splitlines()
    assert len(lines) == 2 * len(cases)
    for n in range(len(cases)):
        b_head, b_rest = lines[2 * n].split(" [", 1)
        k_head, k_rest = lines[2 * n + 1].split(" [", 1)
        assert (b_head, k_head) == ("%d buttons" % n, "%d keypad" % n)
        assert b_rest == k_rest, n
        events, idles = both_run("buttons", *cases[n])
        assert b_rest == ("%r %r" % (events, idles))[1:], n
        if n < len(SAME):
            assert events == SAME[n][5], SAME[n][0]
        elif cases[n][2] == 1:
            assert events == expected(cases[n][0], SHORT_STUCK), n
