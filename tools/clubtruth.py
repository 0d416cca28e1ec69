"""truth.json of a club table: the matches as a fresh boot reads them from its flash, merged
into what earlier entries wrote (the standings the service must reach are computed from
these). Runs on CPython (clubtables.PahoTable) and MicroPython (club_table.py)."""

import json
import os

from session import Session
from store.journal import Store


def write(root, rnd):
    s = Session(Store(root + "/data", os))
    s.boot()
    st = s.match.state
    if st is None or not s.match_id:
        return
    path = root + "/truth.json"
    try:
        with open(path) as f:
            known = json.load(f)
    except OSError:
        known = {}
    deals = []
    for i in range(st.deals()):
        gp = [0] * st.rules.sides
        for side, points, _m in st.row(i)[3]:
            gp[side] += points
        deals.append(gp)
    known[str(s.match_id)] = {"names": list(st.names), "deals": deals, "round": rnd,
                              "winner": st.winner if st.over else -1}
    with open(path + ".tmp", "w") as f:
        json.dump(known, f)
    os.rename(path + ".tmp", path)
