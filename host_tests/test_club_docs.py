"""docs/club.md runs as written: the club night's steps and the rehearsal on one laptop.

club_docs_night.py takes the commands from the markdown's code blocks (never a copy of
them) and runs them, each in a terminal of its own, in a copy of the checkout inside a
network namespace of its own, where the docs' own ports (1883, 9001, 8080) are free: the
password file typed at mosquitto_passwd's prompts and the broker with venue.conf (its
passwords, ACL and persistence), the service with the browser table page, the tables'
club files and three simulators (`make sim ARGS="--club ..."`, the firmware's own club
link on the unix port), the director's seating, a deal typed on each table. Then the
service is stopped with Ctrl-C, a table plays a deal (queued by the broker for the
service's durable session), every table is switched off, the broker is killed -9 after
its autosave and started again by the docs' command: the retained seatings and acks are
back, the service started again gets the queued result, once, and acks it; the table
switched on again hears that ack. Then the director's `show` and `cards`.
"""

import json
import os
import re
import subprocess
import sys

import pytest
from clubkit import need_broker
from conftest import ROOT

HERE = os.path.dirname(os.path.abspath(__file__))
NIGHT = os.path.join(HERE, "club_docs_night.py")
PYTHON = os.path.join(ROOT, ".venv", "bin", "python")


def namespace_missing():
    """Why no network namespace of our own can be had here, or None."""
    try:
        probe = subprocess.run(["unshare", "-rn", "unshare", "-U", "--map-user=65534",
                                "--map-group=65534", "true"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return "unshare: %s" % e
    if probe.returncode != 0:
        return "no user and network namespace (unshare -rn): %s" % probe.stderr.decode()
    return None


def seated(text):
    """{table: names} of the docs' seating command."""
    block = text[text.index(" seat 1 "):].split("\n", 1)[0]
    return {t: names.split(",") for t, names in re.findall(r"(t\d\d)=(\S+)", block)}


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    need_broker()
    why = namespace_missing()
    if why:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    from test_docs_recipes import _checkout_copy

    top = tmp_path_factory.mktemp("docs-night")
    copy = str(top / "checkout")
    _checkout_copy(copy)
    out = str(top / "report.json")
    proc = subprocess.run(["unshare", "-rn", PYTHON, NIGHT, "--inside", copy, out],
                          capture_output=True, timeout=900)
    assert os.path.exists(out), proc.stderr.decode()[-3000:]
    with open(out) as f:
        report = json.load(f)
    assert "error" not in report, "%s\n%s" % (report["error"], json.dumps(
        report.get("terminals"), indent=1))
    return report


def test_the_night_and_the_rehearsal_run_as_written(night):
    assert night["users"] == ["standings", "director", "viewer", "t01", "t02", "t03"]
    assert night["missing_passwords"] == []  # each login's password is one the docs write
    status, loads, pack = night["table_page"]
    assert (status, loads) == (200, True) and pack > 50000  # the page and its firmware
    assert night["files"] == 0
    assert night["seat"] == [0, "round 1 seated: 3 tables"]
    assert sorted(night["before"]["tables"]) == ["t01", "t02", "t03"]


def test_the_recipes_said_to_run_here_are_the_ones_run(night):
    from test_docs_recipes import RECIPES

    said = [code.strip("\n") for rel, _line, _tag, code, comment in RECIPES
            if rel == "docs/club.md" and "(test_club_docs.py runs it)" in comment]
    assert len(said) == 7
    assert sorted(said) == sorted(set(night["ran"]) - {b for b in night["ran"]
                                                       if "echo '{" in b})


def test_the_broker_keeps_seatings_acks_and_the_queue_through_kill_9(night):
    with open(os.path.join(ROOT, "docs", "club.md"), encoding="utf-8") as f:
        seats = seated(f.read())
    assert night["service_stopped"] == 0  # Ctrl-C: the service ends cleanly
    assert night["broker_killed"] in (-9, 137)
    assert night["broker_up"]
    for table, got in night["retained"].items():
        seat = json.loads(got["seat"])
        assert seat["round"] == 1 and seat["names"] == seats[table], got
        inc, seq = got["ack"].split()
        assert seq == "2", got  # t03's third result came with the service away: not acked
    after = night["after"]["tables"]
    assert {t: after[t]["acked"] for t in after} == {"t01": 2, "t02": 2, "t03": 3}
    # each table's results 1..N in the database once: the queued one arrived once
    assert night["seqs"] == {"t01": [1, 2], "t02": [1, 2], "t03": [1, 2, 3]}
    assert re.search(r"counted t03 \S+ #3 deal", night["service_log"])
    assert night["t03_again"]


def test_the_standings_are_the_deals_typed_at_the_tables(night):
    with open(os.path.join(ROOT, "docs", "club.md"), encoding="utf-8") as f:
        seats = seated(f.read())
    # club_docs_night.DEALS: t01 side 2 gets 3; t02 side 1 gets 2; t03 side 2 gets 1,
    # then side 1 gets 3 (the deal played with the service down)
    gp = {seats["t01"][1]: 3, seats["t02"][0]: 2, seats["t03"][1]: 1, seats["t03"][0]: 3}
    players = {p["name"]: p["gp"] for p in night["after"]["players"]}
    assert players == {n: gp.get(n, 0) for names in seats.values() for n in names}
    status, shown = night["show"]
    assert status == 0 and all(n in shown for names in seats.values() for n in names), shown


def test_the_cards_open_the_table_page_with_each_tables_settings(night):
    status, said = night["cards"]
    assert status == 0 and said.startswith("cards.html: 3 table cards"), said
    html = night["cards_html"]
    assert html.count('<div class="card">') == 3
    assert all("<h2>%s</h2>" % t in html for t in ("t01", "t02", "t03"))


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
