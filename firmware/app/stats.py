"""Lifetime statistics per player name, kept in the "stats" blob: read for the statistics
screen, added to once at each match's end. Loaded only for those moments (Session's
record_match_end imports it and drops it after; reading them is app/blobs.py's).
"""

from app.blobs import stats as load


def record_match_end(session, dumps):
    """Add a finished match to the lifetime statistics, once per match.

    Returns True if the stats blob was written (False: match not over, or counted)."""
    s = session.match.state
    if s is None or not s.over:
        return False
    stats = load(session)
    if session.match_id and stats.get("last") == session.match_id:
        return False
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
    new = {"last": session.match_id, "players": players}
    session.store.save_blob("stats", dumps(new))
    session._stats = new
    return True
