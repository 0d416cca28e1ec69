"""The table's club outbox (firmware/net/outbox.py): results numbered in their own journal,
kept across reboots until acked, and folded by the service (club/standings.py) into what
the table's match says, whatever undo, redo, duplicates or order."""

import json
import random
import sys

from conftest import ROOT
from net.outbox import Outbox
from session import Session
from store.journal import Store

sys.path.insert(0, ROOT)
from club.standings import Event, expected_players, validate  # noqa: E402


def table(tmp_path):
    s = Session(Store(str(tmp_path / "data")))
    s.boot()
    ob = Outbox(Store(str(tmp_path / "outbox")))
    ob.load()
    return s, ob


def sent(ob):
    return [json.loads(p) for _seq, p in ob.pending]


def fold(messages, table="t01"):
    ev = Event()
    for m in messages:
        validate(m)
        ev.apply(table, m)
    return ev


def test_a_match_is_numbered_and_survives_a_reboot(tmp_path):
    s, ob = table(tmp_path)
    s.new_match("new classic66 names=Ann,Bob")
    assert ob.sync(s) == 1
    s.enter(bytes((5, 0, 2)))
    s.enter(bytes((5, 1, 3)))
    assert ob.sync(s) == 2
    msgs = sent(ob)
    assert [m["seq"] for m in msgs] == [1, 2, 3]
    assert [m["kind"] for m in msgs] == ["match", "deal", "deal"]
    assert msgs[0]["names"] == ["Ann", "Bob"] and msgs[0]["rules"] == "classic66"
    assert msgs[1]["gp"] == [2, 0] and msgs[2]["gp"] == [0, 3]
    assert ob.sync(s) == 0  # nothing new: nothing sent
    # Reboot: the same numbers, nothing sent twice, the next one continues.
    s2, ob2 = table(tmp_path)
    assert (ob2.inc, ob2.next, sent(ob2)) == (ob.inc, 4, msgs)
    assert ob2.sync(s2) == 0
    s2.enter(bytes((5, 0, 1)))
    assert ob2.sync(s2) == 1 and ob2.pending[-1][0] == 4


def test_acks_drop_what_the_service_has(tmp_path):
    s, ob = table(tmp_path)
    s.new_match("new classic66 names=Ann,Bob")
    s.enter(bytes((5, 0, 2)))
    s.enter(bytes((5, 1, 2)))
    ob.sync(s)
    assert not ob.ack("deadbeef" if ob.inc != "deadbeef" else "0", 2)  # another incarnation
    # (a number beyond what was sent is a gap: test_an_older_flash_numbers_on_after_...)
    assert ob.ack(ob.inc, 2) and [q for q, _ in ob.pending] == [3]
    assert not ob.ack(ob.inc, 1)  # old news
    _s, ob2 = table(tmp_path)
    assert ob2.acked == 2 and [q for q, _ in ob2.pending] == [3]


def test_undo_voids_and_redo_resends(tmp_path):
    s, ob = table(tmp_path)
    s.new_match("new classic66 names=Ann,Bob")
    s.enter(bytes((5, 0, 2)))
    ob.sync(s)
    s.undo()
    assert ob.sync(s) == 1 and sent(ob)[-1]["kind"] == "void"
    s.enter(bytes((5, 1, 3)))  # entered again, differently
    assert ob.sync(s) == 1
    s.undo()
    s.redo()
    assert ob.sync(s) == 0  # back as it was sent: nothing to say
    s.undo()
    assert ob.sync(s) == 1
    s.redo()
    assert ob.sync(s) == 1  # the same deal again, after its void
    ev = fold(sent(ob))
    rows = ev.match_rows()
    assert len(rows) == 1 and rows[0]["gp"] == [0, 3] and rows[0]["deals"] == 1


def test_any_order_and_duplicates_fold_to_the_match(tmp_path):
    s, ob = table(tmp_path)
    rnd = random.Random(7)
    for setup in ("new classic66 names=Ann,Bob", "new mariage4 names=Ann,Bob,Cid,Dan"):
        s.new_match(setup)
        while not s.match.state.over:
            if s.match.state.deals() and rnd.random() < 0.2:
                s.undo()
            else:
                r = s.match.state.rules
                s.enter(bytes((5, rnd.randrange(r.sides), rnd.choice(r.choices()))))
            ob.sync(s)
            if s.match.state.over:
                truth_gp = [s.match.state.row(i)[3] for i in range(s.match.state.deals())]
        assert truth_gp
    msgs = sent(ob)
    mixed = msgs + rnd.sample(msgs, len(msgs) // 2)
    rnd.shuffle(mixed)
    ev = fold(mixed)
    assert ev.contiguous[("t01", ob.inc)] == len(msgs)
    assert ev.standings() == fold(msgs).standings()
    rows = ev.match_rows()
    assert [r["winner"] >= 0 for r in rows] == [True, True]
    # The second match's pairs: Ann+Cid and Bob+Dan share their side's game points.
    players = {p["name"]: p for p in ev.standings()["players"]}
    assert players["Cid"]["gp"] == rows[1]["gp"][0]
    assert players["Ann"]["gp"] == rows[0]["gp"][0] + rows[1]["gp"][0]


def test_a_cut_between_the_match_and_the_outbox_is_caught_up(tmp_path):
    # The match's checkpoint is on flash but the outbox line is not (power cut between):
    # the next boot's first sync sends it.
    s, ob = table(tmp_path)
    s.new_match("new classic66 names=Ann,Bob")
    ob.sync(s)
    s.enter(bytes((5, 0, 3)))  # no sync: the cut
    s2, ob2 = table(tmp_path)
    assert ob2.sync(s2) == 1 and sent(ob2)[-1]["gp"] == [3, 0]


class NoDedupe(Event):
    """An Event that forgets what it has seen: the bug the night scenarios must catch."""

    copies = 0

    def apply(self, table, msg, stored=None):
        if msg["kind"] == "deal" and msg["seq"] in self.seen.get((table, msg["inc"]), ()):
            self.copies += 1  # a copy, counted anew as a deal of its own
            self.count(table, dict(msg, deal=msg["deal"] + 1000 * self.copies))
            return True
        return Event.apply(self, table, msg, stored)


def test_a_broken_dedupe_shows():
    from clubplay import Played

    played = Played(inc="a1")
    played.deal("result 1 2")
    msgs = [json.loads(p) for p in played.payloads]
    truth = {n: p["gp"] for n, p in expected_players(
        [{"names": ["Ann", "Bob"], "deals": [[2, 0]], "winner": -1}]).items()}
    for cls, equal in ((Event, True), (NoDedupe, False)):
        ev = cls()
        for m in msgs + msgs[1:]:  # the deal comes twice
            ev.apply("t01", m)
        got = {p["name"]: p["gp"] for p in ev.standings()["players"]}
        assert (got == truth) is equal


# ---- compaction -------------------------------------------------------------------------


def _state(ob):
    return (ob.inc, ob.next, ob.acked, list(ob.pending), ob.seated, ob.round, ob._mid, ob._n,
            ob._key)


def _night(fs, deals, states=None):
    """A table that plays `deals` deals (new matches as they end), each synced and acked,
    with a seating taken now and then; `states` gets the outbox after each of its steps."""
    s = Session(Store("data", fs))
    s.boot()
    ob = Outbox(Store("outbox", fs))
    ob.load()
    r = random.Random(7)
    note = states.append if states is not None else (lambda _x: None)
    note(_state(ob))
    for d in range(deals):
        st = s.match.state
        if st is None or st.over:
            if d % 3 == 0:
                ob.take_seating(ob.seated + 1)
                note(_state(ob))
            s.new_match("new classic66 names=Ann,Bob")
        s.enter(bytes((5, r.randrange(2), r.choice((1, 2, 3)))))
        ob.sync(s)
        note(_state(ob))
        ob.ack(ob.inc, ob.next - 2 if d % 4 == 0 else ob.next - 1)  # now and then one behind
        note(_state(ob))
    return s, ob


def test_compaction_keeps_the_outbox_and_the_flash_small(tmp_path, monkeypatch):
    from faultfs import FaultFS
    from net import outbox

    monkeypatch.setattr(outbox, "new_inc", lambda: "0badcafe")
    fs = FaultFS(dirs=["data", "outbox"])
    s, ob = _night(fs, 120)
    assert ob.next > 120  # as many results and acks: several compactions
    size = sum(len(fs.files[p]) for p in fs.files if p.startswith("outbox/"))
    assert size < 8000, size  # at most COMPACT_LINES lines and a summary
    again = Outbox(Store("outbox", fs))
    again.load()
    assert again.problems == [] and _state(again) == _state(ob)
    # The same night without compaction comes to the same outbox.
    monkeypatch.setattr(outbox, "COMPACT_LINES", 10 ** 9)
    fs2 = FaultFS(dirs=["data", "outbox"])
    _s2, plain = _night(fs2, 120)
    assert _state(plain) == _state(ob)
    assert sum(len(fs2.files[p]) for p in fs2.files if p.startswith("outbox/")) > 3 * size
    # Numbering goes on after a reboot over a compacted outbox.
    s.enter(bytes((5, 0, 1)))
    assert again.sync(s) >= 1 and again.pending[-1][0] == ob.next


def test_a_power_cut_anywhere_in_a_compaction_leaves_a_state_the_outbox_was_in(monkeypatch):
    # Whatever the cut, the outbox boots to one it was in after some whole write: a
    # compaction is the store's checkpoint, atomic by its rename.
    from faultfs import FaultFS
    from net import outbox

    monkeypatch.setattr(outbox, "new_inc", lambda: "0badcafe")
    monkeypatch.setattr(outbox, "COMPACT_LINES", 12)  # a compaction every few deals
    ref = FaultFS(dirs=["data", "outbox"])
    durable = set()

    def boot_state(fs):
        ob = Outbox(Store("outbox", fs))
        ob.load()
        return repr(_state(ob))

    in_compaction = set()

    def noted(fn):
        def after(self, *args):
            first = ref.step
            fn(self, *args)
            if fn is compact:
                in_compaction.update(range(first, ref.step + 1))
            durable.add(boot_state(ref.reboot()))  # what a reboot here would find
        return after

    compact = Outbox.compact
    with monkeypatch.context() as m:
        m.setattr(Outbox, "_append", noted(Outbox._append))
        m.setattr(Outbox, "compact", noted(compact))
        _night(ref, 14)
    durable.add(boot_state(FaultFS(dirs=["data", "outbox"])))  # nothing written yet
    assert in_compaction
    compactions = 0
    # Every step of every compaction, and every 9th elsewhere (each byte is a step).
    for cut in sorted(in_compaction | set(range(0, ref.step, 9))):
        fs = FaultFS(dirs=["data", "outbox"], cut_at=cut)
        try:
            _night(fs, 14)
        except OSError:
            pass
        got = boot_state(fs.reboot())
        assert got in durable, "cut %d: %s" % (cut, got)
        compactions += any(p.startswith("outbox/summary") for p in fs.files)
    assert compactions > 0


def test_one_definition_of_a_name_from_the_new_line_to_the_wire(tmp_path):
    from net import wire
    from sixtysix.errors import Refused
    from sixtysix.names import MAX, valid

    assert valid("Ярослава") and valid("2") and len("Ярослава") == MAX
    for bad in ("", "Ярославаа", "Ann Lee", "A,B", "A=B", "A\tB", None, 7):
        assert not valid(bad), bad
    s, ob = table(tmp_path)
    for line in ("new classic66 names=Ann,Wolfgangs", "new classic66 names=Ann,B=b"):
        try:
            s.new_match(line)
            raise AssertionError("accepted: " + line)
        except Refused as e:
            assert e.code == "bad_option"
    assert s.match.state is None and ob.sync(s) == 0
    # A seating is the `new` line it makes, or why not.
    assert wire.seat_line({"round": 1, "names": ["Ann", "Bob"], "rules": "classic66"}) == (
        "new classic66 names=Ann,Bob")
    for seat, why in (({"names": "Ann,Bob", "rules": "classic66"}, "seating"),
                      ({"names": ["Ann", "Bob"]}, "seating"),
                      ({"names": ["Ann", "Bob Lee"], "rules": "classic66"}, "name"),
                      ({"names": ["Ann", "Wolfgangs"], "rules": "classic66"}, "name")):
        try:
            wire.seat_line(seat)
            raise AssertionError("accepted: %r" % seat)
        except wire.Invalid as e:
            assert e.args[0] == why
    # The service refuses on the wire what the table cannot send.
    msg = {"v": 1, "inc": "ab12", "seq": 1, "kind": "match", "match": 1, "round": 0,
           "names": ["Ann", "Wolfgangs"], "rules": "classic66"}
    try:
        validate(msg)
        raise AssertionError("accepted a 9-letter name")
    except wire.Invalid:
        pass
    msg["names"] = ["Ann", "Wolfgang"]
    assert validate(msg) == ("ab12", 1)


# ---- a flash restored from an older copy -------------------------------------------------


def test_an_older_flash_numbers_on_after_the_service(tmp_path):
    # The service has acked 1..5; the table's flash is put back to a copy from when it had
    # given 1..3. The ack names a number it never gave: it numbers on after it, says so
    # with a "gap" result, and a deal typed again gets a new number.
    import shutil

    s, ob = table(tmp_path)
    s.new_match("new classic66 names=Ann,Bob")
    for entry in ((5, 0, 1), (5, 1, 1)):  # each deal numbered as it ends, as the link does
        s.enter(bytes(entry))
        ob.sync(s)
    given = sent(ob)  # what the service has: 1..3 now, 1..5 below
    assert ob.ack(ob.inc, 3) == 1
    shutil.copytree(tmp_path, tmp_path.parent / "older")
    for entry in ((5, 0, 2), (5, 1, 2)):
        s.enter(bytes(entry))
        ob.sync(s)
    given += sent(ob)
    assert ob.ack(ob.inc, 5) == 1 and ob.next == 6
    shutil.rmtree(tmp_path)
    shutil.copytree(tmp_path.parent / "older", tmp_path)
    s, ob = table(tmp_path)
    assert (ob.next, ob.acked, ob.pending) == (4, 3, [])
    assert ob.ack("other", 9) == 0  # another incarnation's number says nothing
    assert ob.ack(ob.inc, 5) == 2
    assert ob.acked == 5 and ob.next == 7
    assert sent(ob) == [{"v": 1, "inc": ob.inc, "seq": 6, "kind": "gap", "from": 4, "to": 5}]
    validate(sent(ob)[0])
    assert ob.ack(ob.inc, 5) == 0  # heard again (retained): nothing more
    s.enter(bytes((5, 0, 3)))  # the lost deal typed again, otherwise
    assert ob.sync(s) == 1 and sent(ob)[-1]["seq"] == 7 and sent(ob)[-1]["deal"] == 3
    _s, again = table(tmp_path)  # a reboot keeps the new numbering
    assert (again.next, again.acked, [q for q, _ in again.pending]) == (8, 5, [6, 7])
    # The service counts nothing for the gap; the deal typed again supersedes the lost one
    # (scored again from the start of its deal); the lost deal 4, never typed again, still
    # counts as the service has it (the director voids it after checking the gap).
    ev = fold(given + sent(again))
    assert ev.gaps == [{"table": "t01", "inc": ob.inc, "seq": 6, "from": 4, "to": 5}]
    assert ev.held == {}
    assert ev.match_rows()[0]["gp"] == [1 + 3, 1 + 2]


def test_a_gap_message_is_checked():
    from net import wire

    good = {"v": 1, "inc": "ab12", "seq": 6, "kind": "gap", "from": 4, "to": 5}
    assert validate(good) == ("ab12", 6)
    for bad in ({"to": 6}, {"to": 0}, {"from": 6}, {"from": 0}, {"from": "4"}):
        try:
            validate(dict(good, **bad))
            raise AssertionError("accepted %r" % bad)
        except wire.Invalid:
            pass


def test_a_power_cut_while_taking_a_gap_never_gives_a_number_twice(monkeypatch):
    # Wherever the power goes while the gap is written, the next boot either has not
    # taken it (the retained ack comes again and it is taken then) or numbers on after
    # the service's number.
    from faultfs import FaultFS
    from net import outbox

    monkeypatch.setattr(outbox, "new_inc", lambda: "0badcafe")

    def older(fs):
        s = Session(Store("data", fs))
        s.boot()
        ob = Outbox(Store("outbox", fs))
        ob.load()
        s.new_match("new classic66 names=Ann,Bob")
        s.enter(bytes((5, 0, 1)))
        ob.sync(s)
        return s, ob

    ref = FaultFS(dirs=["data", "outbox"])
    older(ref)
    first = ref.step
    _s, ob = older(FaultFS(dirs=["data", "outbox"]))
    assert ob.next == 3
    ob.ack(ob.inc, 9)  # steps of the gap, on the reference flash
    ref2 = FaultFS(dirs=["data", "outbox"])
    _s, ob = older(ref2)
    ob.ack(ob.inc, 9)
    last = ref2.step
    assert last > first
    for cut in range(first, last + 1):
        fs = FaultFS(dirs=["data", "outbox"], cut_at=cut)
        try:
            _s, ob = older(fs)
            ob.ack(ob.inc, 9)
        except OSError:
            pass
        boot = Outbox(Store("outbox", fs.reboot()))
        boot.load()
        if boot.next <= 9:  # the gap is not on flash: the ack is taken again
            assert (boot.next, boot.acked) == (3, 0), cut
            assert boot.ack(boot.inc, 9) == 2
        assert boot.next == 11 and [q for q, _ in boot.pending][-1] == 10, cut
        assert json.loads(boot.pending[-1][1])["kind"] == "gap"
def test_a_deal_carries_its_entries_in_journal_lines_of_200_bytes(tmp_path):
    # A deal message carries its entries (the service scores them again): longer than one
    # journal line of the outbox's store, so it is written in pieces, read back whole after
    # a reboot, and a power cut between its pieces leaves nothing of them behind.
    from dealgen import Player
    from sixtysix.events import parse

    s, ob = table(tmp_path)
    s.new_match("new classic66 names=Ann,Bob")
    ob.sync(s)
    p = Player(s.match.setup, 3, quick=0)
    while len(ob.pending) < 4 and not p.match.state.over:
        k = len(p.lines)
        p.play_deal()
        for line in p.lines[k:]:
            s.enter(parse(line))
            ob.sync(s)
    msgs = sent(ob)
    deals = [m for m in msgs if m["kind"] == "deal"]
    assert deals and all(len(m["ev"].split()) >= 6 for m in deals), deals
    assert max(len(payload) for _seq, payload in ob.pending) > 200
    with open(str(tmp_path / "outbox" / "journal"), "rb") as f:
        assert max(len(line) for line in f) <= 200 + 10  # the line, its CRC and newline
    # Every deal's entries, scored again in the core from the match's start, are the match.
    ev = fold(msgs)
    assert ev.held == {} and ev.contiguous[("t01", ob.inc)] == len(msgs)
    # A reboot reads the same payloads back.
    s2, ob2 = table(tmp_path)
    assert sent(ob2) == msgs
    # Pieces of a result whose "p" line never came (a cut), then that number again whole.
    ob2.store.append("c %d 0 {\"v\":1,\"junk\":" % ob2.next)
    ob2.store.append("c %d 1 still junk" % ob2.next)
    s3, ob3 = table(tmp_path)
    k = len(p.lines)
    p.play_deal()
    for line in p.lines[k:]:
        s3.enter(parse(line))
    ob3.sync(s3)
    s4, ob4 = table(tmp_path)
    assert sent(ob4) == sent(ob3) and sent(ob4)[-1]["seq"] == ob2.next
    assert fold(sent(ob4)).held == {}


VENUE_LIMIT = 8192  # club/mosquitto/venue.conf's message_size_limit


def _venue_limit():
    import os

    with open(os.path.join(ROOT, "club", "mosquitto", "venue.conf")) as f:
        limits = [int(ln.split()[1]) for ln in f if ln.startswith("message_size_limit")]
    assert limits == [VENUE_LIMIT]
    return VENUE_LIMIT


def _largest_entries(rules):
    """An upper bound on a deal's entries for these rules, from what the core lets in one
    deal (sixtysix/deal.py, deal4.py, quick.py): (records, bytes). Each kind of entry at
    most as often as the core takes it, every record as long as its verb's longest, and
    entries that exclude each other (a bid and tricks) counted together."""
    from sixtysix.rules import CONTRACTS

    kinds = [(1, 2),  # trump
             (2, 1),  # `next`: opening the deal, and the claim window's end
             (rules.tricks, 2 + rules.players),  # tricks, each card with its suit
             (4, 3),  # a marriage per suit (a claim's marriage among them)
             (1, 2),  # close
             (1, 1 + max(2, rules.sides))]  # the entry that ends it: claim, result, points
    if rules.pairs:
        kinds += [(2, 1), (1, 3), (2 * len(CONTRACTS), 3), (1, 2)]  # cut9, nines, bids, contract
    return sum(n for n, _ in kinds), sum(n * b for n, b in kinds)


def test_no_result_passes_the_brokers_limit_at_the_largest_deal_the_rules_allow(tmp_path):
    # Issue 26, finding 10: nothing bounded a result; the venue's broker drops a message over
    # 8 KB unheard (MQTT 3.1.1 cannot tell the table), and the table would resend it forever.
    from net import wire
    from sixtysix.names import MAX as NAME
    from sixtysix.rules import RULE_SETS, Rules

    limit = _venue_limit()
    # Whatever the entries, the message is bounded: a deal over the limit goes without its
    # entries, saying how long it was, and is still a result the service takes (and holds).
    huge = wire.deal(1, 1, [2, 0], "reached", 0, -1, " ".join(["0100"] * 3000))
    p = wire.result("abcd0001", 2, huge)
    assert len(p.encode()) <= limit
    msg = json.loads(p)
    assert msg["ev"] is None and msg["cut"] > limit and huge["ev"]  # the body is not changed
    assert validate(msg) == ("abcd0001", 2)
    from club import service

    assert wire.MAX == service.MAX_PAYLOAD == limit
    # The largest deal message any rule set allows: the longest entries, numbers and reason.
    longest = 0
    for rid in RULE_SETS:
        r = Rules(rid)
        records, size = _largest_entries(r)
        ev = " ".join(["ff" * (size // records + 1)] * records)
        body = wire.deal(1 << 30, 9999, [99] * r.sides, "false_claim", r.sides - 1,
                         r.sides - 1, ev)
        p = wire.result("f" * 16, 1 << 30, body)
        assert json.loads(p)["ev"] == ev
        longest = max(longest, len(p.encode()))
    names = ["\u0416" * NAME] * 4  # Cyrillic: 2 bytes each, 6 as a JSON escape
    head = wire.result("f" * 16, 1 << 30, wire.match(1 << 30, 999, names, "x" * 200))
    longest = max(longest, len(head.encode()))
    assert longest < limit // 8, longest  # far under it: a real deal is never cut
    # A long real deal (15 entries, marriages and a claim), through the table's own outbox:
    # under the limit, whole, and scored again by the service's core.
    from dealgen import Player
    from sixtysix.events import parse

    s, ob = table(tmp_path)
    s.new_match("new classic66 hidden=1 names=Ann,Bob")
    p = Player(s.match.setup, 62, quick=0, forget_claim=0)
    p.play_deal()
    for line in p.lines[1:]:
        s.enter(parse(line))
    ob.sync(s)
    deal = sent(ob)[-1]
    assert deal["kind"] == "deal" and len(deal["ev"].split()) == 15 and "cut" not in deal
    assert max(len(payload.encode()) for _seq, payload in ob.pending) < limit
    assert fold(sent(ob)).held == {}


def test_a_deal_too_big_for_the_broker_is_said_on_the_panel_and_held_for_the_director(
        tmp_path, monkeypatch):
    # The same with the limit made small, so that a real deal passes it: the outbox sends
    # it without its entries, the table's panel says so, and the service holds the deal
    # with the reason (the director's list and page show it; accept --gp counts it).
    from net import clublink, mqtt, wire
    from ui.app import App

    class Link:
        state = mqtt.UP

        def publish(self, topic, payload, qos=1):
            self.sent.append(payload)
            return len(self.sent)

        def poll(self, now):
            pass

        def due(self):
            return False

    monkeypatch.setattr(wire, "MAX", 120, raising=False)
    s = Session(Store(str(tmp_path / "data")))
    s.boot()
    said = []
    link = Link()
    link.sent = []
    club = clublink.Club(link, lambda code, arg: said.append((code, arg)), s,
                         Store(str(tmp_path / "outbox")), {"table": "t01"}, 0, None)
    s.new_match("new classic66 names=Ann,Bob")
    s.enter(bytes((5, 0, 2)))  # a result: Ann 2
    club.poll(0)
    assert ("result too big", 2) in said
    msgs = [json.loads(p) for p in link.sent]
    assert [m["kind"] for m in msgs] == ["match", "deal"]
    assert msgs[1]["ev"] is None and msgs[1]["cut"] > 120
    ev = fold(msgs)
    (h,) = ev.held.values()
    assert h["code"] == "events" and "without its entries" in h["why"], h
    # The App shows the code on the bottom line (no text of its own in the language files).
    app = App.__new__(App)
    app.message = ""
    App.club_event(app, "result too big", 2)
    assert app.message == "club result too big"
