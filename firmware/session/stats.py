"""Lifetime statistics per player name, kept in the "stats" blob: read for the statistics
screen, added to once at each match's end. Loaded only for that addition (Session's
record_match_end imports it and drops it after; the reading is session/blobs.py's).
"""


def record(store, s, match_id, read, dumps):
    """Add a finished match to the stats blob, once per match: `s` its MatchState, `match_id`
    its number (the blob's "last"), read() the blob as a dict (not changed here).

    Returns the blob's new dict once written, None if not (match not over, or counted)."""
    if s is None or not s.over:
        return None
    stats = read()
    if match_id and stats.get("last") == match_id:
        return None
    players = {}
    players.update(stats.get("players") or {})
    pairs = s.rules.pairs
    for i in range(len(s.names)):
        side = i % 2 if pairs else i
        old = players.get(s.names[i])
        if not isinstance(old, dict):
            old = {}
        row = {}
        for key, add in (("played", 1), ("won", int(s.winner == side)),
                         ("deals", s.won[side]), ("won2", s.won2[side]),
                         ("won3", s.won3[side])):
            row[key] = old.get(key, 0) + add
        players[s.names[i]] = row
    new = {"last": match_id, "players": players}
    store.save_blob("stats", dumps(new))
    return new
