"""The club night's bench (tools/club_figures.py night_figures(), make bench) measures the
night docs/club.md sets up (issue 46, finding 8): before, it started the broker without
the password file and the ACL, published for every table from one anonymous client and
ran the service in a thread of the bench. Here a small night: the broker from venue.conf
with its passwords and ACL, each table its own connection and login, the service its own
process, the director's seatings by its command, a viewer's latency for every result."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import mosquitto  # noqa: E402


def test_the_bench_measures_a_night_as_the_docs_set_it_up(tmp_path):
    if mosquitto.missing():
        pytest.skip(mosquitto.missing())
    import club_figures

    s = club_figures.night_figures(tables=4, folder=str(tmp_path), min_steady=12,
                                   min_rounds=2, catchup_deals=2, swarms=2, window_s=2.0)
    # Through venue.conf's logins and ACL: each table its own login, and the service's,
    # the director's and the viewer's.
    assert s["passwords_and_acl"]
    assert s["logins"] == 4 + 3
    # The service is a process of its own, measured from /proc.
    assert s["service_pid"] != os.getpid()
    assert s["service_cpu_s"] > 0 and s["service_rss_peak_kb"] > 10000
    assert s["catchup_rss_peak_kb"] > 10000
    # Every result of the night seen by the viewer, each phase timed.
    assert s["steady_results"] >= 12 and s["rounds"] >= 2
    assert s["finish_results"] == s["start_results"] == 4 * s["rounds"]
    assert s["latency_samples"] == s["night_results"] == (
        s["steady_results"] + s["finish_results"] + s["start_results"])
    for phase in ("steady", "finish", "start", "latency"):
        assert 0 < s[phase + "_p50_ms"] <= s[phase + "_p95_ms"] <= s[phase + "_max_ms"]
    # every table's last deal due within one second (a busy machine may send some later)
    assert s["finish_spread_s"] <= 3.0
    # Every result counted once, every deal scored again, none held.
    assert s["all_acked"] and s["held"] == 0
    assert s["counted"] == s["night_results"] + s["catchup_results"]
    assert s["rescored"] >= s["steady_results"] + s["finish_results"] + 4 * 2
    assert s["results_per_s"] > 0 and s["largest_message"] < s["size_limit"]
