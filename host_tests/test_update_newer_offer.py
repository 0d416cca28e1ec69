"""Offers while an update runs (issue 45, finding 6): a newer offer heard while a table takes
a bundle replaces it (the take starts over on the newer one, the older one's files leave the
slot, nothing half-written is switched to) and the newer one is booted; an older offer, or
one that is not an offer, is refused with a code and the take goes on. A table on the unix
port and on the 32-bit runtime, over a real Mosquitto, booted after through main.py."""

import contextlib
import os
import time

import fleet
import pytest
from clubkit import need_broker
from test_fleet import (
    CONFIRMING,
    KEY,
    VERSION,
    board,
    boot,
    fleet_table,
    lines,
    record,
    run_micropython_on,
)
from test_update_safety import Night, slot_files, split


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    import deploy

    out = tmp_path_factory.mktemp("fw")
    return deploy.build(str(out / "build"), march=None), out


def held(fl, after):
    """Let fl answer only its first `after` pieces; hold[0] = None lets it answer again."""
    hold = [after]
    answer = fl.answer

    def gated(table, payload):
        if hold[0] is None or fl.parts < hold[0]:
            answer(table, payload)

    fl.answer = gated
    return hold


def until(what, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if what():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("runtime", ["mp64", "mp32"])
def test_a_newer_offer_during_an_update_is_taken_and_booted(runtime, built, tmp_path):
    need_broker()
    # The older bundle has a file of its own, written first (its name sorts first): it must
    # not stay in the slot the newer one is switched to.
    only_older = tmp_path / "older.txt"
    only_older.write_bytes(b"older " * 50)
    older_data = fleet.pack(dict(built[0], **{"0older.txt": str(only_older)}), VERSION, KEY)
    newer_data = fleet.pack(built[0], VERSION + 1, KEY)
    folder = board(str(tmp_path / "t01"))
    in_slot = os.path.join(folder, "fw", "a", "0older.txt")
    with contextlib.ExitStack() as stack:
        night = Night(stack, tmp_path, 1)
        older = night.fleet(older_data, ["t01"])
        older_hold = held(older, 8)
        older.offer()
        table = fleet_table(folder, "t01", night.b.port, KEY, "update 240", runtime)
        stack.callback(table.kill)
        # The table takes the older one: its first pieces, its own file in the slot.
        assert until(lambda: older.parts >= 8 and os.path.exists(in_slot)), older.states
        assert night.state(older, "t01", {"state": "taking"}) == {
            "version": 0, "state": "taking", "offered": VERSION}
        # A second run offers a newer version while the first still answers its wants.
        newer = night.fleet(newer_data, ["t01"])
        newer_hold = held(newer, 8)
        newer.offer()
        older_hold[0] = None
        assert until(lambda: newer.parts >= 8), (newer.states, older.parts)
        assert night.state(newer, "t01", {"offered": VERSION + 1}) == {
            "version": 0, "state": "taking", "offered": VERSION + 1}
        assert not os.path.exists(in_slot)  # the older take's files left the slot
        # An older offer, and one that is not an offer, while it takes: refused, reported
        # with the take's own state, and the take goes on.
        older.offer()
        assert night.state(newer, "t01", {"refused": VERSION}) == {
            "version": 0, "state": "taking", "offered": VERSION + 1, "refused": VERSION,
            "why": "older"}
        night.client.publish("club/t01/fw/offer", b"not an offer", qos=1, retain=True)
        assert night.state(newer, "t01", {"why": "offer"}) == {
            "version": 0, "state": "taking", "offered": VERSION + 1, "why": "offer"}
        newer.offer()  # the offer being taken, heard again: nothing changes
        newer_hold[0] = None
        code, out, err = lines(table, timeout=300)
        assert code == 4 and out[-1]["reset"] == 1, (out, err[-3000:])
        said = [x for x in out[-1]["said"] if x.startswith("club fw")]
        assert "club fw older version" in said and "club fw bad offer" in said, said
        assert said.count("club fw 0%") == 2 and said[-1] == "club fw restart", said
        # Switched to the newer one, whole: its files and nothing else in the slot.
        r = record(folder)
        assert (r["slot"], r["ver"], r["ok"]) == ("a", VERSION + 1, 0), r
        assert set(slot_files(folder)) == {"fw/a/" + ln.split()[0].decode()
                                           for ln, _ in split(newer_data)[1]}
        assert night.state(newer, "t01", {"state": "switching"}) == {
            "version": 0, "state": "switching", "offered": VERSION + 1}
        # The restart boots it (main.py, its first key: confirmed)...
        code, out = boot(run_micropython_on(runtime), folder, seconds=CONFIRMING)
        assert code == 0 and out["path"] == "fw/a", out
        assert record(folder)["ok"] == 1 and record(folder)["ver"] == VERSION + 1
        # ...and the table then says it runs it: the newer run is done, the older settled.
        code, out, err = lines(fleet_table(folder, "t01", night.b.port, KEY, "poll 2000",
                                           runtime))
        assert code == 0 and out[-1]["loaded"] == [], (out, err[-3000:])
        assert night.state(newer, "t01", {"state": "running"}) == {
            "version": VERSION + 1, "state": "running"}
        assert newer.done() and newer.unfinished() == []
        assert older.settled("t01") and older.unfinished() == [
            "t01: runs version %d, newer than version %d" % (VERSION + 1, VERSION)]


@pytest.mark.parametrize("runtime", ["mp64", "mp32"])
def test_a_withdrawn_offer_stops_the_take_and_one_with_no_answers_is_reported(
        runtime, built, tmp_path):
    need_broker()
    folder = board(str(tmp_path / "t01"))
    with contextlib.ExitStack() as stack:
        night = Night(stack, tmp_path, 1)
        fl = night.fleet(fleet.pack(built[0], VERSION, KEY), ["t01"])
        hold = held(fl, 8)
        fl.offer()
        table = fleet_table(folder, "t01", night.b.port, KEY, "update 240", runtime)
        stack.callback(table.kill)
        assert until(lambda: fl.parts >= 8 and slot_files(folder)), fl.states
        # --withdraw while it takes: the take stops, its files leave the slot.
        fl.withdraw()
        assert night.state(fl, "t01", {"state": "running"}) == {"version": 0,
                                                                 "state": "running"}
        assert slot_files(folder) == {} and record(folder) is None
        # Offered again (a new run), its pieces stop coming: the table gives up and says so.
        hold[0] = fl.parts + 4
        fl.offer()
        assert night.state(fl, "t01", {"why": "lost"}, timeout=60) == {
            "version": 0, "state": "refused", "offered": VERSION, "why": "lost"}
        assert slot_files(folder) == {} and record(folder) is None
        assert fl.done() and fl.unfinished() == [
            "t01: runs version 0, gave up taking version %d: no piece came (run club.fleet "
            "again)" % VERSION]
        # Another run offers it again, and answers: taken whole.
        hold[0] = None
        fl.offer()
        code, out, err = lines(table, timeout=300)
        assert code == 4 and out[-1]["reset"] == 1, (out, err[-3000:])
        said = [x for x in out[-1]["said"] if x.startswith("club fw")]
        assert "club fw withdrawn" in said and "club fw lost" in said, said
        assert record(folder)["ver"] == VERSION
