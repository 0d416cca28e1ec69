"""The session: the match as the device keeps it, through power cuts and damaged files."""

import json
import os
import pickle
import time

import faultfs
import flash_figures
import pytest
from dealgen import Player
from faultfs import FaultFS
from session import Session
from sixtysix.cards import suit_of
from sixtysix.errors import Refused
from sixtysix.events import parse
from sixtysix.match import Match
from sixtysix.snapshot import snapshot, undo_count
from store import journal as storage
from store.journal import Store

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = "d"


# ---- a scripted match: actions and the reference it must equal ----


def _records(setup, seed, limit=None):
    p = Player(setup, seed)
    p.play_match()
    lines = p.lines[1:limit + 1 if limit else None]
    return [parse(line) for line in lines]


def _ended_deal(m, prev):
    return m.prev is not prev and m.prev is not None and not m.log


def build_script(parts, seed=3):
    """Actions ("n", setup) / ("e", rec) / ("u",) / ("r",), each accepted in its place.

    After some entries it takes back and redoes one or two; right after a deal's first
    entry it takes back three (crossing back into the deal before) and redoes them one by
    one, so a deal ends by a redo with the redo stack still holding an entry."""
    actions = []
    ref = Match()

    def do(action):
        _apply_match(ref, action)
        actions.append(action)

    for setup, limit in parts:
        do(("n", setup))
        after_roll = False
        for j, rec in enumerate(_records(setup, seed, limit)):
            prev = ref.prev
            do(("e", rec))
            if ref.state.over:
                break
            if after_roll and undo_count(ref) >= 3:
                for a in ("u", "u", "u", "r", "r", "r"):
                    do((a,))
            elif j % 7 == 3:
                do(("u",))
                do(("r",))
            elif j % 11 == 5 and undo_count(ref) >= 2:
                do(("u",))
                do(("u",))
                do(("r",))
                do(("e", ref.redo_stack[0]))  # enter again instead of a second redo
            after_roll = _ended_deal(ref, prev)
    return actions


def _apply_match(m, action):
    kind = action[0]
    if kind == "n":
        m.__init__()
        m.enter_line(action[1])
    elif kind == "e":
        m.enter(action[1])
    elif kind == "u":
        m.undo()
    elif kind == "a":  # the last entry replaced (Session.replace_last)
        m.undo()
        m.enter(action[1])
    else:
        m.redo()


def apply(session, action):
    kind = action[0]
    if kind == "n":
        session.new_match(action[1])
    elif kind == "e":
        session.enter(action[1])
    elif kind == "u":
        session.undo()
    elif kind == "a":
        session.replace_last(action[1])
    else:
        session.redo()


def reference_snapshots(actions, snap=snapshot):
    """snaps[k]: the match after the first k actions."""
    m = Match()
    snaps = [snap(m)]
    for a in actions:
        _apply_match(m, a)
        snaps.append(snap(m))
    return snaps


# A match abandoned in the middle, then two more played out (two and three players).
PARTS = (("new mariage target=30", 110), ("new mariage3", None), ("new schnapsen", None))


@pytest.fixture(scope="module")
def script():
    actions = build_script(PARTS)
    return actions, reference_snapshots(actions)


def test_the_script_is_long_and_varied(script):
    actions, snaps = script
    kinds = [a[0] for a in actions]
    assert len(actions) >= 300
    assert kinds.count("n") == 3 and kinds.count("u") > 30 and kinds.count("r") > 20
    assert snaps[-1]["over"] and snaps[-1]["deals"] >= 4
    # the first match is left unfinished when the second starts
    second = kinds.index("n", 1)
    assert not snaps[second]["over"] and snaps[second]["deals"] >= 5
    # undo crosses back over deals' ends; redo ends deals with more still to redo
    crossed = sum(1 for k in range(len(actions)) if kinds[k] == "u"
                  and snaps[k + 1]["deals"] < snaps[k]["deals"])
    redone = sum(1 for k in range(len(actions)) if kinds[k] == "r"
                 and snaps[k + 1]["deals"] > snaps[k]["deals"] and snaps[k + 1]["redo"])
    assert crossed > 10 and redone > 10


# ---- power cut at every step ----


def _boot(fs):
    s = Session(Store(ROOT, fs))
    return s, s.boot()


def sweep(actions, snaps, torn="prefix", stride=1, follow=7, cls=Session, only=None,
          snap=snapshot):
    """Cut the power at every step (every stride-th) of the scripted session (of its
    actions of the kinds `only`, when given). snap: what is compared of the match.

    The session's state (file system, store, match) is pickled before each action, so a
    cut inside action i only replays action i. Returns a dict of counts and failures."""
    fs = FaultFS(dirs=[ROOT])
    session = cls(Store(ROOT, fs))
    assert session.boot() == []
    saved = []
    for a in actions:
        saved.append((fs.step, pickle.dumps((fs, session))))
        apply(session, a)
    saved.append((fs.step, None))
    assert snap(session.match) == snaps[-1]
    out = {"steps": fs.step, "cuts": 0, "torn": 0, "in": 0, "out": 0, "lost": 0, "failures": [],
           "bytes": session.store.bytes_written}
    allowed = faultfs.TORN_OR_JUNK if torn == "garbage" else faultfs.TORN
    n = 0
    for i, a in enumerate(actions):
        start, state = saved[i]
        if only is not None and a[0] not in only:
            continue
        for cut in range(start, saved[i + 1][0]):
            n += 1
            if n % stride:
                continue
            cfs, cs = pickle.loads(state)
            cfs.cut_at, cfs.torn = cut, torn
            returned = True
            try:
                apply(cs, a)
            except OSError:
                returned = False
            if not cfs.dead:
                out["failures"].append("cut %d: the power was never cut" % cut)
                continue
            out["cuts"] += 1
            rfs = cfs.reboot()
            try:
                booted, msgs = _boot(rfs)
            except Exception as e:  # a failed boot
                out["failures"].append("cut %d (action %d): boot raised %r" % (cut, i, e))
                continue
            got = snap(booted.match)
            if got == snaps[i + 1]:
                done = i + 1
                out["in"] += not returned
            elif got == snaps[i] and not returned:
                done = i
                out["out"] += 1
            else:
                out["lost"] += returned and got in snaps[:i + 1]
                out["failures"].append("cut %d (action %d %r, returned %s): wrong match"
                                       % (cut, i, a[0], returned))
                continue
            if msgs:
                out["torn"] += 1
            for m in msgs:
                if not m.startswith(allowed):
                    out["failures"].append("cut %d: unexpected problem %r" % (cut, m))
            # Now and then: the session goes on after the boot, and boots right again.
            if n % follow == 0 and done < len(actions):
                try:
                    apply(booted, actions[done])
                    again, msgs2 = _boot(rfs.reboot())
                    assert msgs2 == [] and snap(again.match) == snaps[done + 1]
                except Exception as e:
                    out["failures"].append("cut %d: going on after boot: %r" % (cut, e))
    return out


def test_power_cut_at_every_step_of_a_scripted_session(script):
    actions, snaps = script
    started = time.time()
    stats = sweep(actions, snaps)
    print("\nsession power cut at %d points over %d actions: %d failures, %d boots dropped a "
          "torn record, action in flight kept %d / dropped %d times, %d committed actions lost, "
          "%.1f s" % (stats["cuts"], len(actions), len(stats["failures"]), stats["torn"],
                      stats["in"], stats["out"], stats["lost"], time.time() - started))
    assert stats["failures"] == [] and stats["lost"] == 0
    assert stats["cuts"] == stats["steps"] >= 10000
    assert stats["torn"] > 1000 and stats["in"] > 100 and stats["out"] > 1000


@pytest.mark.parametrize("torn", ["flushed", "garbage"])
def test_power_cut_sweep_littlefs_and_junk_tails(script, torn):
    actions, snaps = script
    stats = sweep(actions, snaps, torn=torn, stride=5, follow=3)
    assert stats["failures"] == []
    assert stats["cuts"] > 3000


# ---- a broken session must fail the sweep (the harness really looks) ----


class _SummaryWithoutPrev(Session):
    def _summary(self, m, mid):
        s = json.loads("".join(Session._summary(self, m, mid)()))
        s["prev"] = None
        return [json.dumps(s)]


class _SummaryWithoutRedo(Session):
    def _summary(self, m, mid):
        s = json.loads("".join(Session._summary(self, m, mid)()))
        s["redo"] = []
        return [json.dumps(s)]


class _CheckpointBeforeTheEntry(Session):
    """Checkpoints a deal's end, then journals the entry too."""

    def _commit(self, line, rolled, token):
        Session._commit(self, line, rolled, token)
        if not self.match.log and line not in ("u", "r"):
            self.store.append(line)


@pytest.mark.parametrize("broken", [_SummaryWithoutPrev, _SummaryWithoutRedo,
                                    _CheckpointBeforeTheEntry])
def test_the_sweep_catches_a_broken_session(script, broken):
    actions, snaps = script
    stats = sweep(actions[:150], snaps[:151], stride=5, follow=1000, cls=broken)
    assert stats["failures"], broken.__name__


class _NoRollCheckpoint(Session):
    """Journals the deal-ending entry but never checkpoints."""

    def _commit(self, line, rolled, token):
        self.store.append(line)


def test_without_checkpoints_boot_would_replay_the_whole_match(script):
    actions, snaps = script
    fs = FaultFS(dirs=[ROOT])
    s = _NoRollCheckpoint(Store(ROOT, fs))
    s.boot()
    s.new_match(actions[0][1])
    for a in actions[1:100]:
        apply(s, a)
    got = Store(ROOT, fs.reboot()).load()
    assert len(got.events) == 99  # the correct session replays one deal (see below)


# ---- what boot replays, what the flash holds ----


class _CountingStore(Store):
    def __init__(self, root, fs):
        Store.__init__(self, root, fs)
        self.appends = 0
        self.checkpoints = 0
        self.blobs = 0

    def append(self, line):
        Store.append(self, line)
        self.appends += 1

    def checkpoint(self, summary):
        Store.checkpoint(self, summary)
        self.checkpoints += 1

    def save_blob(self, name, text):
        Store.save_blob(self, name, text)
        self.blobs += 1


def test_one_write_per_action_one_checkpoint_per_deal(script):
    actions, snaps = script
    fs = FaultFS(dirs=[ROOT])
    store = _CountingStore(ROOT, fs)
    s = Session(store)
    s.boot()
    longest = 0
    for i, a in enumerate(actions):
        before = (store.appends, store.checkpoints)
        prev = s.match.prev
        apply(s, a)
        ended = a[0] == "n" or _ended_deal(s.match, prev)
        # exactly one write per action: a checkpoint when a deal ended, else a journal line
        assert (store.appends - before[0], store.checkpoints - before[1]) == (
            (0, 1) if ended else (1, 0)), i
        replay = Store(ROOT, FaultFS(fs.files, fs.dirs)).load().events
        longest = max(longest, len(replay))
        assert len(replay) <= 40, i
    assert store.blobs == 0
    # every deal's end (a finished match's last deal does not roll), more when a deal's
    # end was taken back and entered again, and the three new matches
    ends = [snaps[k] for k in range(1, len(actions)) if actions[k][0] == "n"] + [snaps[-1]]
    assert store.checkpoints >= 3 + sum(e["deals"] - e["over"] for e in ends)
    print("\nlongest journal during the script: %d lines" % longest)


def test_boot_is_clean_and_writes_nothing(script):
    actions, snaps = script
    fs = FaultFS(dirs=[ROOT])
    s = Session(Store(ROOT, fs))
    assert s.boot() == [] and s.match.state is None
    for a in actions[:200]:
        apply(s, a)
    before = dict(fs.files)
    again = Session(Store(ROOT, fs))
    assert again.boot() == []
    assert again.store.bytes_written == 0 and fs.files == before
    assert snapshot(again.match) == snaps[200]
    # the restored match goes on like the live one: undo across a deal's end included
    for _ in range(undo_count(again.match)):
        assert again.undo() == s.undo()
        assert snapshot(again.match) == snapshot(s.match)
    with pytest.raises(Refused):
        again.undo()


@pytest.mark.parametrize("where", ["restore", "enter"])
def test_a_full_heap_at_boot_is_no_damaged_flash(script, monkeypatch, where):
    """A MemoryError while the summary is rebuilt or the journal replayed is the heap's
    fault: the boot must fail with it, not report the summary or a line as bad and start an
    empty match that the next action would write over the saved one."""
    actions, snaps = script
    fs = FaultFS(dirs=[ROOT])
    s = Session(Store(ROOT, fs))
    s.boot()
    for a in actions[:200]:
        apply(s, a)
    assert fs.files  # a summary and a journal with lines after it
    before = dict(fs.files)

    def full(*args):
        raise MemoryError("memory allocation failed")

    with monkeypatch.context() as mp:
        mp.setattr(Match, where, full)
        with pytest.raises(MemoryError):
            Session(Store(ROOT, fs)).boot()
    assert fs.files == before
    again = Session(Store(ROOT, fs))
    assert again.boot() == []
    assert snapshot(again.match) == snaps[200]


def test_refused_actions_write_nothing():
    fs = FaultFS(dirs=[ROOT])
    s = Session(Store(ROOT, fs))
    s.boot()
    assert s.enter(parse("trick 1 A T")) == (False, "no_match")  # the refusal comes back
    with pytest.raises(Refused):
        s.new_match("new nosuchgame")
    with pytest.raises(Refused):
        s.new_match("trick 1 A T")
    with pytest.raises(Refused):
        s.undo()
    assert fs.step == 0
    s.new_match("new mariage")
    steps = fs.step
    for bad in (lambda: s.redo(), lambda: s.undo()):
        with pytest.raises(Refused):
            bad()
    assert s.enter(b"\x01\x07\x00\x00") == (False, "no_player")
    assert fs.step == steps


# ---- a failed write (not a power cut): taken back in RAM, then put right ----


def _fail_every_ninth_write(actions, snaps, cls=Session):
    """Every ninth action's write fails at some byte, or at its flush or rename (when the
    data may have landed all the same), then the flash works again: a brown-out or a
    full flash, not a power cut. The session must take the action back in RAM, and the
    next action must bring the flash level with RAM whatever the failed write left."""
    fs = FaultFS(dirs=[ROOT])
    s = cls(Store(ROOT, fs))
    s.boot()
    failed = 0
    done = 0
    raised = False
    for i, a in enumerate(actions[:200]):
        if i % 9 == 4:
            dry_fs, dry = pickle.loads(pickle.dumps((fs, s)))
            apply(dry, a)
            steps = dry_fs.step - fs.step
            # a byte, the flush of an append, the rename of a checkpoint, its last step
            fs.cut_at = fs.step + (((i * 7) % steps, steps - 1, steps - 2)[i % 3])
            try:
                apply(s, a)
                raised = False  # the last step of a checkpoint is housekeeping
            except OSError:
                raised = True
            fs.dead, fs.cut_at = False, None
            if raised:
                failed += 1
                assert snapshot(s.match) == snaps[done], i  # nothing changed in RAM
        if i % 9 != 4 or raised:
            apply(s, a)
        done += 1
        again = Session(Store(ROOT, FaultFS(fs.files, fs.dirs)))
        assert again.boot() == [] and snapshot(again.match) == snaps[done], i
    return failed


def test_a_failed_write_takes_the_action_back_and_the_next_one_puts_it_right(script):
    assert _fail_every_ninth_write(*script) > 15


class _NoRevert(Session):
    """Keeps an action in RAM when its write failed."""

    def _commit(self, line, rolled, token):
        Session._commit(self, line, rolled, self.match.mark())  # "back" to after the action


class _NoResync(Session):
    """Appends after a failed write as if nothing happened."""

    def _commit(self, line, rolled, token):
        self._dirty = False
        Session._commit(self, line, rolled, token)


@pytest.mark.parametrize("broken", [_NoRevert, _NoResync])
def test_the_failed_write_test_catches_a_broken_session(script, broken):
    with pytest.raises(AssertionError):
        _fail_every_ninth_write(*script, cls=broken)


def test_a_summary_too_long_for_a_blob_lets_the_journal_go_on(script, monkeypatch):
    actions, snaps = script
    monkeypatch.setattr(storage, "MAX_BLOB", 330)
    fs = FaultFS(dirs=[ROOT])
    s = Session(Store(ROOT, fs))
    s.boot()
    for a in actions[:150]:
        apply(s, a)
    again = Session(Store(ROOT, fs.reboot()))
    assert again.boot() == [] and snapshot(again.match) == snaps[150]
    assert len(again.store.load().events) > 50


# ---- the last entry replaced (a suit given to the trick just entered) ----


def build_amend_script(setups, seed=4):
    """Matches where every trick whose last card has a suit is entered first without that
    suit (when the match takes it so), then replaced by the whole trick: ("a", rec). Some
    of those tricks end their deal, so the replacement crosses back into the deal before."""
    actions = []
    ref = Match()

    def do(action):
        _apply_match(ref, action)
        actions.append(action)

    for setup in setups:
        do(("n", setup))
        for rec in _records(setup, seed):
            bare = rec[:-1] + bytes((rec[-1] & 7,))
            if rec[0] == 1 and suit_of(rec[-1]) >= 0:
                try:
                    ref.state.check(bare)
                except Refused:
                    bare = None
                if bare is not None:
                    do(("e", bare))
                    if ref.state.over:
                        actions.pop()
                        ref.undo()
                    else:
                        do(("a", rec))
                        continue
            do(("e", rec))
            if ref.state.over:
                break
    return actions


def _full(m):
    """Everything of a Match that enter, undo and redo change: snapshot() shows no suit
    and counts the entries to undo and redo, this holds them."""
    return (snapshot(m), m.base, bytes(m.log), m.prev, list(m.redo_stack))


@pytest.fixture(scope="module")
def amend_script():
    """The actions, and the match after each in full (_full)."""
    actions = build_amend_script(("new mariage target=24", "new mariage4 target=10"))
    return actions, reference_snapshots(actions, _full)


@pytest.mark.parametrize("which", ["script", "amend_script"])
def test_enter_says_when_a_deal_rolled_over_and_rollback_undoes_any_action(which, request):
    actions, snaps = request.getfixturevalue(which)
    full = which == "amend_script"  # its snaps are _full's
    m = Match()
    rolls = crossed = 0
    for k, a in enumerate(actions):
        if a[0] == "n":
            _apply_match(m, a)
            continue
        before = _full(m)
        token = m.mark()
        prev = m.prev
        if a[0] == "e":
            rolled = m.enter(a[1])
        elif a[0] == "r":
            rolled = m.redo()
        elif a[0] == "u":
            m.undo()
            rolled = False
        else:
            m.undo()
            rolled = m.enter(a[1])
        assert rolled == _ended_deal(m, prev), k
        rolls += rolled
        after = _full(m)
        assert (after if full else after[0]) == snaps[k + 1], k
        # a take-back into the deal before (its row leaves the history, then comes back)
        crossed += a[0] in ("u", "a") and not before[2] and before[3] is not None
        m.rollback(token)
        assert _full(m) == before, k
        _apply_match(m, a)
        assert _full(m) == after, k
    assert rolls > 10 and crossed > 3


def test_an_amend_is_one_journal_write(amend_script):
    actions, snaps = amend_script
    kinds = [a[0] for a in actions]
    assert kinds.count("a") > 40
    fs = FaultFS(dirs=[ROOT])
    store = _CountingStore(ROOT, fs)
    s = Session(store)
    s.boot()
    lines = rolled = 0
    for i, a in enumerate(actions):
        before = (store.appends, store.checkpoints, s.changes)
        prev = s.match.prev
        apply(s, a)
        assert _full(s.match) == snaps[i + 1], i
        if a[0] != "a":
            continue
        ended = _ended_deal(s.match, prev)
        rolled += ended
        assert (store.appends - before[0], store.checkpoints - before[1]) == (
            (0, 1) if ended else (1, 0)), i
        assert s.changes == before[2] + 1
        if not ended:
            lines += 1
            assert Store(ROOT, FaultFS(fs.files, fs.dirs)).load().events[-1] == (
                "u " + a[1].hex())
        again, msgs = _boot(FaultFS(fs.files, fs.dirs))
        assert msgs == [] and _full(again.match) == snaps[i + 1], i
        assert snaps[i + 1] != snaps[i], i  # the new trick is not the old one
    assert lines > 30 and rolled > 3


def test_a_power_cut_during_an_amend_keeps_the_old_or_the_new_trick(amend_script):
    actions, snaps = amend_script
    stats = sweep(actions, snaps, follow=5, only="a", snap=_full)
    assert stats["failures"] == [] and stats["lost"] == 0
    assert stats["cuts"] > 1000 and stats["in"] > 50 and stats["out"] > 500


class _AmendAsUndoAndEntry(Session):
    """Replaces the last entry in two writes, as the suit key once did."""

    def replace_last(self, rec):
        self.undo()
        self.enter(rec)


def test_the_amend_sweep_catches_two_writes(amend_script):
    actions, snaps = amend_script
    stats = sweep(actions[:120], snaps[:121], stride=3, follow=1000, only="a", snap=_full,
                  cls=_AmendAsUndoAndEntry)
    assert stats["failures"]


def test_a_failed_amend_write_takes_it_back(amend_script):
    actions, snaps = amend_script
    assert _fail_every_ninth_write(actions, [f[0] for f in snaps]) > 10


def test_a_refused_amend_changes_and_writes_nothing():
    fs = FaultFS(dirs=[ROOT])
    s = Session(Store(ROOT, fs))
    s.boot()
    s.new_match("new mariage dealer=1")
    assert s.replace_last(parse("trump H")) == (False, "nothing_to_undo")  # none yet
    s.enter(parse("trump H"))
    s.enter(parse("trick 2 AS T"))
    s.enter(parse("trick 2 K Q"))
    s.undo()  # a redo stack, which a refusal keeps
    before, steps, changes = _full(s.match), fs.step, s.changes
    for bad, why in ((parse("trick 2 AS TH"), "wrong_winner"),  # the trump ten: not 2's
                     (parse("trick 1 AH T"), "wrong_winner"),  # no suit of a ten beats A♥
                     (b"\x01\x07\x00\x00", "no_player")):
        assert s.replace_last(bad) == (False, why)
        assert _full(s.match) == before and fs.step == steps and s.changes == changes
    assert s.replace_last(parse("trick 2 AS TC")) == (False, "")
    assert s.match.records()[-1] == parse("trick 2 AS TC") and not s.match.redo_stack
    again, msgs = _boot(fs.reboot())
    assert msgs == [] and _full(again.match)[:3] == _full(s.match)[:3]


# ---- damaged files at the session level ----


def _session_with(actions, count):
    fs = FaultFS(dirs=[ROOT])
    s = Session(Store(ROOT, fs))
    s.boot()
    for a in actions[:count]:
        apply(s, a)
    s.store.close()
    return fs


def _mid_deal(actions, journal_lines=5, skip=40):
    """(k, fs): the flash after the first k actions, its journal holding journal_lines
    lines (each one of the last actions: all came after the last checkpoint)."""
    fs = FaultFS(dirs=[ROOT])
    s = Session(Store(ROOT, fs))
    s.boot()
    for k, a in enumerate(actions):
        apply(s, a)
        journal = fs.files.get("d/journal", b"")
        if k >= skip and journal.count(b"\n") == journal_lines + 1:  # a header, then lines
            return k + 1, FaultFS(fs.files, fs.dirs)
    raise AssertionError("no deal with enough lines")


def test_garbage_journal_keeps_the_summary(script):
    actions, snaps = script
    k, fs = _mid_deal(actions)
    n = len(Store(ROOT, FaultFS(fs.files, fs.dirs)).load().events)
    fs.files["d/journal"] = b"\x00\xffnot a journal\n" * 4
    s, msgs = _boot(fs)
    assert msgs == ["journal: unreadable header"]
    assert snapshot(s.match) == snaps[k - n]  # the deal's start, as the summary has it
    apply(s, actions[k - n])
    again, msgs = _boot(fs.reboot())
    assert msgs == [] and snapshot(again.match) == snaps[k - n + 1]


def test_torn_last_record_drops_only_that_action(script):
    actions, snaps = script
    k, fs = _mid_deal(actions)
    data = fs.files["d/journal"]
    fs.files["d/journal"] = data[:-4]
    s, msgs = _boot(fs)
    at = data.rindex(b"\n", 0, len(data) - 1) + 1
    assert msgs == ["journal: dropped torn record at byte %d" % at]
    assert snapshot(s.match) == snaps[k - 1]


def test_flipped_bit_in_the_journal_keeps_the_prefix(script):
    actions, snaps = script
    k, fs = _mid_deal(actions)
    data = bytearray(fs.files["d/journal"])
    starts = [i + 1 for i in range(len(data) - 1) if data[i] == 10]
    n = len(starts)  # records in the journal
    data[starts[2] + 1] ^= 0x01  # the third record
    fs.files["d/journal"] = bytes(data)
    s, msgs = _boot(fs)
    assert msgs == ["journal: bad record at byte %d, dropped %d records" % (starts[2], n - 2)]
    assert snapshot(s.match) == snaps[k - n + 2]


def test_corrupt_summary_restarts_the_match(script):
    actions, snaps = script
    k, fs = _mid_deal(actions)
    data = bytearray(fs.files["d/summary"])
    data[60] ^= 0x01
    fs.files["d/summary"] = bytes(data)
    s, msgs = _boot(fs)
    assert msgs == ["summary: bad checksum", "summary: missing, journal continues generation %d"
                    % s.store.gen, "summary lost: match restarted"]
    assert s.match.state is None and "d/summary.bad" in fs.files
    with pytest.raises(Refused):
        s.undo()
    s.new_match("new mariage")
    s.enter(parse("trick 1 A T"))
    again, msgs = _boot(fs.reboot())
    assert msgs == [] and snapshot(again.match)["deal"]["tricks"] != []


def test_summary_that_is_no_summary(script):
    actions, snaps = script
    for text in ("not json", "[1, 2]", '{"v": 99}', '{"v": 1, "setup": "new nosuch"}'):
        fs = _session_with(actions, 20)
        st = Store(ROOT, fs)
        st.load()
        st.checkpoint(text)  # a valid file holding something the core cannot take
        s, msgs = _boot(fs)
        assert msgs == ["summary: unreadable", "summary lost: match restarted"], text
        assert s.match.state is None


def test_journal_line_the_match_refuses(script):
    actions, snaps = script
    k, fs = _mid_deal(actions)
    n = len(Store(ROOT, FaultFS(fs.files, fs.dirs)).load().events)
    st = Store(ROOT, fs)
    st.load()
    st.append("u")
    st.append("zz")  # checksummed but no record
    st.append("r")
    s, msgs = _boot(fs)
    assert msgs == ["journal: line %d refused, 2 dropped" % (n + 2)]
    undone = Match()
    for a in actions[:k]:
        _apply_match(undone, a)
    undone.undo()
    assert snapshot(s.match) == snapshot(undone)
    # The next action is a checkpoint past the bad lines; then all boots are clean.
    s.redo()
    again, msgs = _boot(fs.reboot())
    assert msgs == [] and snapshot(again.match) == snaps[k]
    assert again.store.load().events == []


def test_unreadable_flash_still_boots():
    class _Dead(FaultFS):
        def open(self, path, mode="r"):
            raise OSError(5)

        def remove(self, path):
            raise OSError(5)

        def rename(self, old, new):
            raise OSError(5)

    s, msgs = _boot(_Dead(dirs=[ROOT]))
    assert msgs == ["summary: read error", "journal: read error",
                    "summary lost: match restarted"]
    assert s.match.state is None

    class _Raising(Store):
        def load(self):
            raise OSError(5)

    s = Session(_Raising(ROOT, FaultFS(dirs=[ROOT])))
    assert s.boot() == ["storage: read error"] and s.match.state is None


# ---- the summary round trip (Match.summary / Match.restore) ----


@pytest.mark.parametrize("setup", ["new mariage", "new mariage3", "new mariage4",
                                   "new schnapsen"])
def test_summary_round_trip_keeps_undo_across_the_deal_end_and_redo(setup):
    actions = build_script(((setup, None),), seed=5)
    m = Match()
    checked = crossed = with_redo = 0
    for k, a in enumerate(actions):
        _apply_match(m, a)
        if k % 3 and not m.redo_stack:
            continue
        restored = Match()
        restored.restore(json.loads(json.dumps(m.summary())), m.records())
        assert snapshot(restored) == snapshot(m), k
        checked += 1
        with_redo += bool(m.redo_stack)
        # undo all the way back: the same records, the same match at every step
        twin = pickle.loads(pickle.dumps(m))
        while undo_count(twin):
            deals = twin.state.deals()
            assert restored.undo() == twin.undo()
            assert snapshot(restored) == snapshot(twin), k
            crossed += twin.state.deals() < deals
        while twin.redo_stack:
            assert restored.redo() == twin.redo()
            assert snapshot(restored) == snapshot(twin), k
    assert checked > 10 and crossed > 5 and with_redo > 3


# ---- settings and statistics ----


def test_settings_are_written_only_when_they_change():
    fs = FaultFS(dirs=[ROOT])
    s = Session(Store(ROOT, fs))
    s.boot()
    assert s.load_settings() == {}
    settings = {"lang": "uk", "contrast": 40, "name": "Гравець"}
    assert s.save_settings(settings) is True
    written = s.store.bytes_written
    assert s.save_settings(dict(settings)) is False
    assert s.store.bytes_written == written
    fs = fs.reboot()
    again, _ = _boot(fs)
    assert again.load_settings() == settings
    assert again.save_settings(settings) is False and again.store.bytes_written == 0
    changed = again.load_settings()
    changed["lang"] = "de"
    assert again.save_settings(changed) is True
    assert _boot(fs.reboot())[0].load_settings()["lang"] == "de"
    fs.files["d/settings.blob"] = b"S66B 1 0 2 00000000\n{}"  # a bad checksum
    damaged, _ = _boot(fs.reboot())
    assert damaged.load_settings() == {}
    assert damaged.store.problems == ["settings.blob: bad checksum, kept as settings.blob.bad"]


def _play_out(s, setup, seed):
    s.new_match(setup)
    for rec in _records(setup, seed):
        s.enter(rec)
    return s.match.state


def test_statistics_count_each_finished_match_once():
    fs = FaultFS(dirs=[ROOT])
    s = Session(Store(ROOT, fs))
    s.boot()
    assert s.record_match_end() is False  # no match
    s.new_match("new mariage names=Ann,Bob")
    assert s.record_match_end() is False  # not over
    first = _play_out(s, "new mariage names=Ann,Bob", 1)
    assert first.over
    assert s.record_match_end() is True
    written = s.store.bytes_written
    assert s.record_match_end() is False and s.store.bytes_written == written
    fs = fs.reboot()
    s, _ = _boot(fs)  # a reboot does not count it again
    assert s.record_match_end() is False
    second = _play_out(s, "new mariage names=Bob,Ann", 2)
    assert s.record_match_end() is True
    s, _ = _boot(fs.reboot())
    stats = s.load_stats()
    assert stats["Ann"] == {
        "played": 2, "won": (first.winner == 0) + (second.winner == 1),
        "deals": first.won[0] + second.won[1], "won2": first.won2[0] + second.won2[1],
        "won3": first.won3[0] + second.won3[1]}
    assert stats["Bob"]["played"] == 2 and stats["Bob"]["won"] == 2 - stats["Ann"]["won"]
    assert stats["Ann"]["deals"] + stats["Bob"]["deals"] == sum(first.won) + sum(second.won)


def test_statistics_of_pairs():
    fs = FaultFS(dirs=[ROOT])
    s = Session(Store(ROOT, fs))
    s.boot()
    state = _play_out(s, "new mariage4 names=A,B,C,D", 1)
    assert s.record_match_end()
    stats = s.load_stats()
    assert stats["A"] == stats["C"] and stats["B"] == stats["D"]
    assert stats["A"]["won"] + stats["B"]["won"] == 1
    assert stats["A"]["deals"] == state.won[0] and stats["B"]["deals"] == state.won[1]
    assert stats["A"]["won3"] == state.won3[0] and stats["B"]["won2"] == state.won2[1]


# ---- figures ----


def test_flash_figures():
    f = flash_figures.measure()
    print("\nflash: %.1f bytes per event (journal line), %.0f bytes per deal with its "
          "checkpoint (%.0f for the checkpoint, %d-byte summary at the end); boot after a "
          "%d-deal match replays %d journal lines (longest deal: %d actions)"
          % (f["bytes_per_event"], f["bytes_per_deal"], f["bytes_per_checkpoint"],
             f["summary_bytes"], f["deals"], f["boot_lines"], f["longest_deal"]))
    assert f["deals"] >= 100
    assert f["restored"]  # the boot at the end equals the live match
    assert 1 <= f["boot_lines"] <= f["longest_deal"]
    assert f["bytes_per_event"] < 24
    assert f["bytes_per_deal"] < 4000


# ---- MicroPython ----

MP_SCRIPT = """
from session import Session
from faultfs import FaultFS
from store.journal import Store
from sixtysix.events import parse
from sixtysix.match import Match
from sixtysix.snapshot import snapshot

from dealgen import Player

p = Player("new mariage names=Ann,Bob", 1)
p.play_match()
LINES = p.lines[1:6]
fs = FaultFS(dirs=["d"])
s = Session(Store("d", fs))
print("boot", s.boot())
s.new_match("new mariage names=Ann,Bob")
ref = Match()
ref.enter_line("new mariage names=Ann,Bob")
for line in LINES[:4]:
    s.enter(parse(line))
    ref.enter(parse(line))
s.undo()
ref.undo()
fs.cut_at = fs.step + 5
try:
    s.enter(parse(LINES[3]))
    print("not cut")
except OSError:
    print("cut")
s2 = Session(Store("d", fs.reboot()))
print("boot", s2.boot())
print("same", snapshot(s2.match) == snapshot(ref))
s2.redo()
ref.redo()
s3 = Session(Store("d", s2.store._fs))
print("boot", s3.boot())
print("same", snapshot(s3.match) == snapshot(ref))
s3.save_settings({"lang": "uk"})
print("settings", Session(Store("d", s2.store._fs)).load_settings())
"""


def test_session_under_micropython(micropython, tmp_path, capsys):
    script = tmp_path / "mp_session.py"
    script.write_text(MP_SCRIPT, encoding="utf-8")
    # From source: every import is compiled here, and the module names carry the checkout's
    # path, so the heap this needs depends on where the repository lies; the board loads
    # .mpy files and bench.py --heap has its figures. A roomy cap keeps this a test of
    # behaviour.
    proc = micropython([str(script)], heapsize="256k", extra_path=[HERE])
    out = proc.stdout.decode()
    assert proc.returncode == 0, out + proc.stderr.decode()
    lines = out.split("\n")
    assert lines[:2] == ["boot []", "cut"]
    assert lines[2].startswith("boot ['journal: dropped torn record at byte ")
    assert lines[3:] == ["same True", "boot []", "same True", "settings {'lang': 'uk'}", ""]
    exec(compile(MP_SCRIPT, "mp_session", "exec"), {})  # byte for byte as on CPython
    assert capsys.readouterr().out == out


MP_DROPPED = """
import sys
from session import Session
from faultfs import FaultFS
from store.journal import Store

LOADED = ("session.restore", "session.blobs", "sixtysix.saved", "sixtysix.setup",
          "sixtysix.rulesets", "sixtysix.quick")
fs = FaultFS(dirs=["d"])
s = Session(Store("d", fs))
s.boot()
s.save_settings({"lang": "uk"})
s.new_match("new schnapsen target=9")
print("new", [m for m in LOADED if m in sys.modules], s.load_settings())
s = Session(Store("d", fs.reboot()))
s.boot()
s.enter(bytes((0, 1)))  # trump
print("boot", [m for m in LOADED if m in sys.modules])
r = s.match.state.rules
print(r.id, r.target, r.choices(), r.hidden, r.tricks)
s.enter(bytes((5, 0, 2)))  # a quick result loads its code
print("result", [m for m in LOADED if m in sys.modules], s.match.state.score)
"""


def test_the_rule_sets_and_the_summary_code_leave_ram_after_a_new_match_and_a_boot(micropython,
                                                                                    tmp_path):
    # On the board a module's code lives in the heap: the rule sets' table and the summary's
    # code are loaded to start or rebuild a match and dropped after; the match's rules are
    # still whole without them. The quick entries' code loads with the first of them.
    script = tmp_path / "mp_dropped.py"
    script.write_text(MP_DROPPED, encoding="utf-8")
    proc = micropython([str(script)], heapsize="256k", extra_path=[HERE])
    out = proc.stdout.decode()
    assert proc.returncode == 0, out + proc.stderr.decode()
    assert out.split("\n") == ["new [] {'lang': 'uk'}", "boot []", "schnapsen 9 (1, 2, 3) 1 10",
                                "result ['sixtysix.quick'] [2, 0]", ""]
