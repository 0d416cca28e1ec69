"""The next round's seating, proposed from the standings: what `club.director pair` prints.

Two systems, as a club's scoring software offers them:

- Swiss (the default): the players ranked as the standings rank them (matches won, then
  game points), seated in groups of the rule set's table size from the top down, so that
  no one meets a player they have already met at a table if any seating avoids it
  (backtracking over the ranked list, nearest ranks first). With a number of players that
  does not fill the tables, the lowest ranked players who have had no bye yet sit out
  (a bye: they play no match that round).
- Round robin, for a fixed field of two-player tables: the circle method over the players
  in the order of round 1's seating; round r turns the circle r - 1 places, so over
  players - 1 rounds everyone meets everyone once (an odd field gets a bye in turn).

Names come from the standings (`players`, and the rounds' matches for who met whom); the
result is [(table, [names])] in table order, and the players who sit out.
"""


def met(rounds):
    """{name: the set of names met at a table} over every round's matches."""
    out = {}
    for rows in rounds.values():
        for row in rows:
            names = row.get("names") or []
            for n in names:
                out.setdefault(n, set()).update(m for m in names if m != n)
    return out


def byes(rounds, players):
    """Players who sat out a round: seated in none of its matches while others played."""
    out = set()
    for key, rows in rounds.items():
        if key == "0" or not rows:
            continue
        seated = {n for row in rows for n in row.get("names") or []}
        out.update(p for p in players if p not in seated)
    return out


def swiss(ranked, size, met_before, had_bye=()):
    """(groups of `size` names, the names who sit out). ranked: best first. Groups avoid
    players who met before where any seating can; else the fewest repeats, top first."""
    players = list(ranked)
    out_count = len(players) % size
    sit_out = []
    if out_count:
        for name in reversed(players):  # the lowest ranked without a bye yet
            if len(sit_out) < out_count and name not in had_bye:
                sit_out.append(name)
        for name in reversed(players):  # everyone had one: the lowest ranked again
            if len(sit_out) < out_count and name not in sit_out:
                sit_out.append(name)
        players = [p for p in players if p not in sit_out]
    for allowed in range(size):  # repeats allowed per player: none first
        groups = _groups(players, size, met_before, allowed)
        if groups is not None:
            return groups, sit_out
    return [players[i:i + size] for i in range(0, len(players), size)], sit_out


def _groups(players, size, met_before, allowed, budget=None):
    """Groups of `size` from players in rank order, none with more than `allowed` players
    any member met before; None if there is none (a bounded search: 20,000 steps)."""
    steps = [20000] if budget is None else budget
    if not players:
        return []
    first, rest = players[0], players[1:]

    def pick(group, pool):
        if len(group) == size:
            left = [p for p in rest if p not in group]
            more = _groups(left, size, met_before, allowed, steps)
            return None if more is None else [group] + more
        for i, cand in enumerate(pool):
            steps[0] -= 1
            if steps[0] < 0:
                return None
            seen = sum(1 for g in group if cand in met_before.get(g, ()))
            if seen > allowed:
                continue
            got = pick(group + [cand], pool[i + 1:])
            if got is not None:
                return got
        return None

    return pick([first], rest)


def round_robin(field, rnd):
    """(pairs, the one who sits out or None) of round rnd over `field` (round 1's order)."""
    players = list(field)
    bye = None
    if len(players) % 2:
        players.append(None)
    fixed, ring = players[0], players[1:]
    k = (rnd - 1) % len(ring)
    order = [fixed] + ring[k:] + ring[:k]
    half = len(order) // 2
    pairs = []
    for i in range(half):
        a, b = order[i], order[len(order) - 1 - i]
        if a is None or b is None:
            bye = b if a is None else a
        else:
            pairs.append([a, b])
    return pairs, bye


def propose(standings, rnd, size, system="swiss", tables=None, extra=()):
    """([(table, names)], sit out) for round rnd from a standings dict. tables: the table
    ids to use, in order (t01, t02, ... when not given); extra: players who join (or who
    sat out every round so far), after the ranked ones."""
    rounds = standings.get("rounds") or {}
    ranked = [p["name"] for p in standings.get("players") or []]
    seated_before = [n for row in rounds.get("1", []) for n in row.get("names") or []]
    everyone = [n for key in sorted(rounds, key=int) for row in rounds[key]
                for n in row.get("names") or []]
    for n in everyone + list(extra):  # seated, but no deal counted yet; or joining
        if n not in ranked:
            ranked.append(n)
    if system == "roundrobin":
        if size != 2:
            raise ValueError("round robin seats two-player tables only: use swiss")
        groups, bye = round_robin(seated_before or ranked, rnd)
        sit_out = [bye] if bye else []
    else:
        groups, sit_out = swiss(ranked, size, met(rounds), byes(rounds, ranked))
    names = tables or ["t%02d" % (i + 1) for i in range(len(groups))]
    if len(names) < len(groups):
        raise ValueError("%d tables for %d groups" % (len(names), len(groups)))
    return list(zip(names, groups)), sit_out
