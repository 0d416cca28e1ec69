"""The next round's seating, proposed as a club's scoring software does it: what
`club.director pair` prints.

What it reads (History): every round's seatings as the service stored them (by `seat`,
`pair --send`, or published by other means), every match played (the standings' rounds),
and the byes the director gave (`seat --bye`). Two players have met when they shared a
table in any of these rounds (round 0, a table's own match, is no round of the night).

The field: the players of the latest round before this one (seated, played or given a
bye), with `--add` and without `--drop`; before any round, the standings' players and
`--add`. A player left out of a round (dropped, or not seated by hand) is out of the field
until added again.

Byes: a field that does not fill its tables leaves players out, each a bye (no match that
round, scored as a won match: club/standings.py). A bye goes only to a player
with the fewest byes so far, so nobody gets a second while another has none; among those,
the lowest ranked (Swiss) whose leaving out still lets the rest meet new opponents.

- Swiss (the default): the players ranked as the standings rank them (matches won, then
  game points; the unranked after them), seated from the top down, each with the nearest
  ranked player they have not met. Two-player tables: a pairing is kept only if the rest
  can still all be paired with players they have not met (Edmonds' matching), so no one
  meets a player twice while a seating of new opponents exists. Three or four: a bounded
  search in rank order.
- Round robin, two-player tables: the circle method (Berger tables), its first round the
  field's first round as seated (by hand or not), continued while its rounds not played
  are exactly the pairs not met. When the circle cannot continue (a round seated
  otherwise, players added or dropped), the first round of a split of the unmet pairs into
  rounds (factorization(), a bounded search), so the rounds after it can still meet
  everyone; failing that, any pairing of players who have not met (a perfect matching over
  the unmet pairs). An odd field's bye counts as a pairing with nobody, so it goes round.

When no seating avoids a repeat, the proposal has the fewest repeats found and says which
(Proposal.repeats); a round robin whose every pair has met is over (NoneLeft).
"""

import itertools

BYE = None  # the round robin's partner of the player with the bye


class NoneLeft(ValueError):
    """No pairing is left to play: args[0] says so and what the director can do."""


class History:
    """What the night holds for pairing: played {round: [[names]]} (matches heard),
    seated {round: [[names]]} (the service's seatings), byes {round: [names]}."""

    def __init__(self, played=None, seated=None, byes=None):
        self.played = {int(r): [list(n) for n in v] for r, v in (played or {}).items()}
        self.seated = {int(r): [list(n) for n in v] for r, v in (seated or {}).items()}
        self.byes = {int(r): list(v) for r, v in (byes or {}).items()}

    @classmethod
    def of(cls, standings, seated=None, byes=None):
        played = {r: [row.get("names") or [] for row in rows]
                  for r, rows in (standings.get("rounds") or {}).items()}
        return cls(played, seated, byes)

    def tables(self, rnd):
        """Every table of round rnd, seated or played (each once)."""
        out = []
        for names in self.seated.get(rnd, []) + self.played.get(rnd, []):
            if names and sorted(names) not in [sorted(n) for n in out]:
                out.append(names)
        return out

    def rounds(self, before):
        return sorted(r for r in set(self.seated) | set(self.played) | set(self.byes)
                      if 1 <= r < before)

    def met(self, rnd):
        """{name: {name met: the first round they met}} over every round but rnd (a round
        seated again is paired anew); played matches of rnd count too."""
        out = {}
        for r in sorted(set(self.seated) | set(self.played)):
            if r < 1:
                continue
            tables = self.played.get(r, []) if r == rnd else self.tables(r)
            for names in tables:
                for a, b in itertools.permutations(names, 2):
                    out.setdefault(a, {}).setdefault(b, r)
        return out

    def bye_counts(self, rnd):
        counts = {}
        for r, names in self.byes.items():
            if r != rnd:
                for n in names:
                    counts[n] = counts.get(n, 0) + 1
        return counts

    def field(self, rnd, ranked):
        """(the field before --add and --drop, the round it is taken from or None)."""
        earlier = self.rounds(rnd)
        if not earlier:
            return list(ranked), None
        last = earlier[-1]
        names = [n for t in self.tables(last) for n in t] + self.byes.get(last, [])
        return list(dict.fromkeys(names)), last


class Proposal:
    """seats [(table, names)], byes [names], repeats [(names, round they met)], notes."""

    def __init__(self, seats, byes, repeats, notes):
        self.seats, self.byes, self.repeats, self.notes = seats, byes, repeats, notes


# ---- maximum matching (Edmonds' blossoms), for two-player tables ----

def matching(n, adj, alive=None, match=None):
    """A maximum matching of the graph (vertices 0..n-1, adj[v] a set) over the alive
    vertices, grown from match (a list, -1 unmatched) when given: the list, updated."""
    alive = alive or [True] * n
    match = list(match) if match is not None else [-1] * n

    def augment(root):
        used = [False] * n
        parent = [-1] * n
        base = list(range(n))
        used[root] = True
        queue = [root]

        def lca(a, b):
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if match[a] == -1:
                    break
                a = parent[match[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[match[b]]

        def mark(v, b, child, blossom):
            while base[v] != b:
                blossom[base[v]] = blossom[base[match[v]]] = True
                parent[v] = child
                child = match[v]
                v = parent[match[v]]

        i = 0
        while i < len(queue):
            v = queue[i]
            i += 1
            for to in adj[v]:
                if not alive[to] or base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != -1 and parent[match[to]] != -1):
                    cur = lca(v, to)
                    blossom = [False] * n
                    mark(v, cur, to, blossom)
                    mark(to, cur, v, blossom)
                    for u in range(n):
                        if blossom[base[u]]:
                            base[u] = cur
                            if not used[u]:
                                used[u] = True
                                queue.append(u)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:
                        while to != -1:  # flip the path root .. to
                            pv = parent[to]
                            nxt = match[pv]
                            match[to], match[pv] = pv, to
                            to = nxt
                        return True
                    used[match[to]] = True
                    queue.append(match[to])
        return False

    for v in range(n):
        if alive[v] and match[v] == -1:
            for to in adj[v]:  # a free neighbour first: most vertices need no search
                if alive[to] and match[to] == -1:
                    match[v], match[to] = to, v
                    break
    for v in range(n):
        if alive[v] and match[v] == -1:
            augment(v)
    return match


def unmet_graph(order, unmet):
    """For each player of `order` (by index), the indices of those they may still meet."""
    adj = [set() for _ in order]
    for i, j in itertools.combinations(range(len(order)), 2):
        if unmet(order[i], order[j]):
            adj[i].add(j)
            adj[j].add(i)
    return adj


def pairs_in_order(order, unmet, first=()):
    """Pairs of every player of `order` (an even count), each with the first player after
    them in `order` they may meet (unmet(a, b)) such that the rest can still all be paired
    so; None when no such pairing exists. first: [(a, [b candidates in order])] paired
    before the rest (the round robin's bye)."""
    n = len(order)
    adj = unmet_graph(order, unmet)
    match = matching(n, adj)
    if -1 in match:
        return None
    alive = [True] * n
    index = {p: i for i, p in enumerate(order)}
    out = []
    steps = [(index[a], [index[b] for b in cands]) for a, cands in first]
    steps += [(i, list(range(i + 1, n))) for i in range(n)]
    for i, cands in steps:
        if not alive[i]:
            continue
        for j in cands:
            if not alive[j] or j not in adj[i]:
                continue
            if match[i] == j:
                got = match
            else:  # pair i with j: the rest must still be perfectly matched
                trial = list(match)
                for v in (i, j):
                    if trial[v] != -1:
                        trial[trial[v]] = -1
                alive[i] = alive[j] = False
                trial[i] = trial[j] = -1
                got = matching(n, adj, alive, trial)
                alive[i] = alive[j] = True
                if any(alive[v] and got[v] == -1 for v in range(n) if v not in (i, j)):
                    continue
                got[i], got[j] = j, i
            match = got
            alive[i] = alive[j] = False
            out.append((order[i], order[j]))
            break
    return out


def fewest_repeats(order, unmet):
    """Pairs of every player of `order` with as many unmet pairs as a maximum matching
    gives, the rest paired in order: (pairs, the pairs that are repeats)."""
    n = len(order)
    adj = unmet_graph(order, unmet)
    match = matching(n, adj)
    pairs = [(order[i], order[match[i]]) for i in range(n) if match[i] > i]
    rest = [order[i] for i in range(n) if match[i] == -1]
    repeats = list(zip(rest[0::2], rest[1::2]))
    return pairs + repeats, repeats


# ---- three or four a table ----

def _groups(players, size, met, allowed, budget=None):
    """Groups of `size` from players in rank order, none with more than `allowed` players
    any member met before; None if there is none (a bounded search: 20,000 steps)."""
    steps = [20000] if budget is None else budget
    if not players:
        return []
    first, rest = players[0], players[1:]

    def pick(group, pool):
        if len(group) == size:
            left = [p for p in rest if p not in group]
            more = _groups(left, size, met, allowed, steps)
            return None if more is None else [group] + more
        for i, cand in enumerate(pool):
            steps[0] -= 1
            if steps[0] < 0:
                return None
            seen = sum(1 for g in group if cand in met.get(g, ()))
            if seen > allowed:
                continue
            got = pick(group + [cand], pool[i + 1:])
            if got is not None:
                return got
        return None

    return pick([first], rest)


# ---- the systems ----

def _bye_order(players, counts, ranked_last_first):
    """The players who may have the bye (the fewest byes so far), in the order it is
    offered to them."""
    fewest = min(counts.get(p, 0) for p in players)
    return [p for p in ranked_last_first if counts.get(p, 0) == fewest]


def swiss(ranked, size, met, counts):
    """(groups, byes, repeats) of a ranked field (best first)."""
    unmet = lambda a, b: b not in met.get(a, ())  # noqa: E731
    out_count = len(ranked) % size
    if size == 2:
        if out_count:  # the bye: a vertex that may meet only those who may have it
            cands = _bye_order(ranked, counts, ranked[::-1])
            order = [BYE] + list(ranked)
            ok = lambda a, b: (b in cands if a is BYE else a in cands if b is BYE  # noqa: E731
                               else unmet(a, b))
            pairs = pairs_in_order(order, ok, [(BYE, cands)])
            if pairs is None:
                byes = [cands[0]]
                pairs, repeats = fewest_repeats([p for p in ranked if p != cands[0]], unmet)
            else:
                byes = [b if a is BYE else a for a, b in pairs if BYE in (a, b)]
                pairs = [p for p in pairs if BYE not in p]
                repeats = []
        else:
            byes = []
            pairs = pairs_in_order(list(ranked), unmet)
            repeats = []
            if pairs is None:
                pairs, repeats = fewest_repeats(list(ranked), unmet)
        return [list(p) for p in pairs], byes, [list(p) for p in repeats]
    byes = []
    left = list(ranked)
    while len(byes) < out_count:
        byes.append(_bye_order(left, counts, left[::-1])[0])
        left.remove(byes[-1])
    for allowed in range(size):  # repeats allowed a player: none first
        groups = _groups(left, size, met, allowed)
        if groups is not None:
            break
    else:
        groups = [left[i:i + size] for i in range(0, len(left), size)]
    repeats = [g for g in groups if any(b in met.get(a, ()) for a, b in
                                        itertools.combinations(g, 2))]
    return groups, byes, repeats


def circle(order, k):
    """Round k (1..) of the circle method over `order` (even): order[0] stays, the rest
    turn k - 1 places; round 1 pairs position i with position len - 1 - i."""
    fixed, ring = order[0], order[1:]
    s = (k - 1) % len(ring)
    turned = [fixed] + ring[s:] + ring[:s]
    half = len(turned) // 2
    return [(turned[i], turned[len(turned) - 1 - i]) for i in range(half)]


def round_robin(field, history, rnd, met, counts):
    """(pairs, byes, repeats) of round rnd of a round robin over field."""
    players = list(field) + ([BYE] if len(field) % 2 else [])
    cands = _bye_order(field, counts, field[::-1]) if BYE in players else []

    def unmet(a, b):
        if a is BYE or b is BYE:
            return (b if a is BYE else a) in cands
        return b not in met.get(a, ())

    if all(not unmet(a, b) for a, b in itertools.combinations(field, 2)):
        raise NoneLeft(
            "round robin: every pair of these %d players has met: the round robin is "
            "over; for another round give --system swiss (it seats the fewest repeats), "
            "or --add or --drop players" % len(field))
    # The rest of a round robin is a split of the unmet pairs into rounds. The circle's
    # rounds not played yet are one when they hold exactly the unmet pairs: it goes on.
    # Else the first round of one found by a search, so that the rounds after it can
    # meet everyone too; failing that (none found, or the players have unequal numbers
    # of unmet pairs), any pairing of unmet pairs.
    left = [k for k in _circle_from(players, history, rnd) if all(unmet(a, b) for a, b in k)]
    unmet_pairs = {frozenset(p) for p in itertools.combinations(players, 2) if unmet(*p)}
    if left and {frozenset(p) for k in left for p in k} == unmet_pairs:
        pairs = left[0]
    else:
        rounds = factorization(players, unmet)
        pairs = rounds[0] if rounds else None
    if pairs is None:
        pairs = pairs_in_order(players, unmet, [(BYE, cands)] if cands else ())
        if pairs is None:
            bye = cands[:1]
            rest = [p for p in field if p not in bye]
            pairs, repeats = fewest_repeats(rest, unmet)
            return [list(p) for p in pairs], bye, [list(p) for p in repeats]
    byes = [b if a is BYE else a for a, b in pairs if BYE in (a, b)]
    return [list(p) for p in pairs if BYE not in p], byes, []


def factorization(players, unmet, budget=20000):
    """Rounds (each a pairing of every player) that between them pair every unmet pair
    once, or None: none found within `budget` steps, or one cannot exist (players with
    unequal numbers of unmet pairs). A depth-first search, the player with the fewest
    choices first."""
    adj = {p: {q for q in players if q != p and unmet(p, q)} for p in players}
    if len({len(a) for a in adj.values()}) != 1:
        return None
    steps = [budget]

    def pairings(left, chosen):
        steps[0] -= 1
        if steps[0] < 0:
            return
        if not left:
            yield list(chosen)
            return
        v = min(left, key=lambda x: (len(adj[x] & left), _key(x)))
        for u in sorted(adj[v] & left, key=_key):
            chosen.append((v, u))
            yield from pairings(left - {v, u}, chosen)
            chosen.pop()

    def rounds():
        if not any(adj.values()):
            return []
        for pairs in pairings(frozenset(players), []):
            for a, b in pairs:
                adj[a].discard(b)
                adj[b].discard(a)
            rest = rounds()
            for a, b in pairs:
                adj[a].add(b)
                adj[b].add(a)
            if rest is not None:
                return [pairs] + rest
            if steps[0] < 0:
                return None
        return None

    return rounds()


def _circle_from(players, history, rnd):
    """The circle method's rounds over players, laid out so that its round 1 is the
    earliest round that seated exactly this field (its tables and its bye), else over the
    field's order; yielded in the circle's order."""
    first = None
    want = sorted(players, key=_key)
    for r in history.rounds(rnd):
        tables = history.tables(r)
        pairs = [list(t) for t in tables if len(t) == 2]
        pairs += [[b, BYE] for b in history.byes.get(r, [])]
        if len(pairs) == len(tables) + len(history.byes.get(r, [])) and sorted(
                (n for p in pairs for n in p), key=_key) == want:
            first = pairs
            break
    if first is None:
        order = list(players)
    else:
        n = len(players)
        order = [None] * n
        for i, (a, b) in enumerate(first):
            order[i], order[n - 1 - i] = a, b
    for k in range(1, len(players)):
        yield circle(order, k)


def _key(name):
    return "" if name is BYE else name  # no name is empty


def propose(standings, rnd, size, system="swiss", tables=None, add=(), drop=(),
            seated=None, byes=None):
    """The Proposal for round rnd from a standings dict and the service's seatings
    ({round: [[names]]}) and byes ({round: [names]}). tables: the table ids to use, in
    order (t01, t02, ... when not given). ValueError (NoneLeft among them) for what
    cannot be proposed, with what to do."""
    history = History.of(standings, seated, byes)
    ranked = [p["name"] for p in standings.get("players") or []]
    field, source = history.field(rnd, ranked)
    notes = []
    for n in drop:
        if n not in field:
            raise ValueError("--drop %s: not in the field (%s)" % (n, _field_words(source)))
    for n in add:
        if n in field:
            raise ValueError("--add %s: in the field already (%s)" % (n, _field_words(source)))
        if n in drop:
            raise ValueError("%s is both added and dropped" % n)
    if len(set(add)) != len(add):
        raise ValueError("--add names a player twice")
    field = [n for n in field if n not in drop] + list(add)
    if source is not None:
        before = {n for r in history.rounds(rnd) for t in history.tables(r) for n in t} | {
            n for r in history.rounds(rnd) for n in history.byes.get(r, [])}
        away = sorted(before - set(field) - set(drop))
        if away:
            notes.append("not in round %d, so not in the field (--add to bring back): %s"
                         % (source, " ".join(away)))
    if len(field) < size:
        raise ValueError("%d players for tables of %d: --add players" % (len(field), size))
    met = history.met(rnd)
    counts = history.bye_counts(rnd)
    if system == "roundrobin":
        if size != 2:
            raise ValueError("round robin seats two-player tables only: use swiss")
        groups, out, repeats = round_robin(field, history, rnd, met, counts)
    else:
        order = [n for n in ranked if n in field] + [n for n in field if n not in ranked]
        groups, out, repeats = swiss(order, size, met, counts)
    names = tables or ["t%02d" % (i + 1) for i in range(len(groups))]
    if len(names) < len(groups):
        raise ValueError("%d tables for %d groups: name %d tables with --tables"
                         % (len(names), len(groups), len(groups)))
    said = []
    for g in repeats:
        for a, b in itertools.combinations(g, 2):
            if b in met.get(a, {}):
                said.append(("%s and %s (round %d)" % (a, b, met[a][b])))
    if said:
        notes.append("no seating of this field avoids a repeat; these met before: %s (the "
                     "director may --add or --drop players, or seat the round by hand)"
                     % ", ".join(said))
    return Proposal(list(zip(names, groups)), out, repeats, notes)


def _field_words(source):
    return ("round %d's players" % source if source is not None
            else "the standings' players")
