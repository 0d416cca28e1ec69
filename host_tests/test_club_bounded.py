"""The standings in retained parts of bounded size (club/bounded.py).

Issue finding: the standings travelled as one retained message, and venue.conf's own 8 KB
limit dropped it once a night passed about 10 tables x 4 rounds: `close --csv` then wrote no
file. Here: every part fits, the parts join back to the standings exactly, and a reader
never shows a mix of two versions, in whatever order the parts come.
"""

import json
import sys

from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from club.bounded import HEAD, PART_BYTES, Publisher, Reader, join, split  # noqa: E402

NAME = st.text("AbcЖї", min_size=1, max_size=16)
PLAYER = st.fixed_dictionaries({"name": NAME, "played": st.integers(0, 9),
                                "won": st.integers(0, 9), "gp": st.integers(0, 99),
                                "deals": st.integers(0, 99)})
MATCH = st.fixed_dictionaries({"table": st.text("t0123", min_size=1, max_size=4),
                               "names": st.lists(NAME, min_size=2, max_size=4),
                               "gp": st.lists(st.integers(0, 99), min_size=2, max_size=3),
                               "winner": st.integers(-1, 2)})
STANDINGS = st.fixed_dictionaries({
    "players": st.lists(PLAYER, max_size=150),
    "rounds": st.dictionaries(st.integers(0, 12).map(str), st.lists(MATCH, max_size=60),
                              max_size=8),
    "tables": st.dictionaries(st.text("t0123456789", min_size=1, max_size=4),
                              st.fixed_dictionaries({"acked": st.integers(0, 9999)}),
                              max_size=60),
    "held": st.lists(st.fixed_dictionaries({"why": st.text(max_size=200)}), max_size=30),
    "audit": st.just([]), "gaps": st.just([]),
    "closed": st.booleans(), "results": st.integers(0, 10 ** 6)})


@settings(max_examples=30, deadline=None)
@given(STANDINGS)
def test_parts_fit_and_join_back_exactly(doc):
    head, parts = split(doc)
    assert len(head) <= 1024
    assert all(len(p) <= PART_BYTES for p in parts)
    assert join(head, parts) == doc


class _Client:
    def __init__(self):
        self.sent = []

    def publish(self, topic, payload, qos=0, retain=False):
        assert qos == 1 and retain == (topic == HEAD)  # only the head is retained
        self.sent.append((topic, payload))


@settings(max_examples=30, deadline=None)
@given(STANDINGS, STANDINGS, st.randoms(use_true_random=False))
def test_a_reader_never_shows_a_mix_of_two_versions(one, two, rnd):
    client = _Client()
    pub = Publisher()
    pub.publish(client, one)
    first = list(client.sent)
    client.sent.clear()
    pub.publish(client, two)
    second = list(client.sent)
    client.sent.clear()
    pub.reset()  # the reader's want: every part again, then the head
    pub.publish(client, two)
    again = list(client.sent)
    # A reader subscribes while the second version is on its way: the broker hands it the
    # retained head (the first's, or the second's if it came before the subscription),
    # then the rest of the second as it comes, then what its want brought.
    cut = rnd.randrange(len(second) + 1)
    retained = dict(first + second[:cut])[HEAD]
    reader = Reader()
    seen = [got for topic, payload in [(HEAD, retained)] + second[cut:] + again
            if (got := reader.feed(topic, payload)) is not None]
    assert all(got in (one, two) for got in seen)
    assert seen and seen[-1] == two
    # Parts of two versions, mixed in any order, never join as either.
    mixed = Reader()
    stray = [m for m in first + second if m[0] != HEAD]
    rnd.shuffle(stray)
    for topic, payload in [(HEAD, second[-1][1])] + stray:
        got = mixed.feed(topic, payload)
        assert got is None or got == two


def test_a_night_of_forty_tables_is_many_small_messages():
    rows = [{"table": "t%02d" % t, "inc": "abcd%04d" % t, "match": r, "round": r,
             "names": ["Player%02da" % t, "Player%02db" % t],
             "sides": [["Player%02da" % t], ["Player%02db" % t]], "gp": [7, 3],
             "deals_won": [4, 2], "deals": 6, "winner": 0} for t in range(40) for r in range(6)]
    doc = {"players": [{"name": "Player%02d%s" % (t, s), "played": 6, "won": 3, "gp": 30,
                        "deals": 20} for t in range(40) for s in "ab"],
           "rounds": {str(r): [x for x in rows if x["round"] == r] for r in range(6)},
           "tables": {"t%02d" % t: {"acked": 60} for t in range(40)}, "held": [],
           "audit": [], "gaps": [], "closed": True, "results": 2400}
    whole = len(json.dumps(doc))
    head, parts = split(doc)
    assert whole > 8192 * 6  # far past one message
    assert max(len(p) for p in parts) <= PART_BYTES and len(head) < 512
    assert join(head, parts) == doc
