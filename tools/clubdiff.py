"""The club against the table: random and mutated deals, judged by both.

    python tools/clubdiff.py --seed 1 --cases 1000000     (make fuzz runs this too)

Each case is one match of a random rule set (every rule set, some options): a few deals
played legally (tools/dealgen.py), sent to the standings service's judge
(club/rescore.py) as a table sends them, then one deal whose entries are a legal deal
mutated (a card's suit taken off, a winner changed, a card swapped or replaced, an entry
dropped, doubled or moved, a random entry put in) or made up entirely. The table's core
takes them one at a time (sixtysix Match.enter, as the keys do); the judge gets them as one
`deal` message: the table's own message when the core took every entry and the last
ended the deal, else a forged one with those entries. Both must agree:
  - the core took them all and the deal ended at the last: the judge counts it, and
    holds it with "score" when a compared field (gp, winner, reason, over) is changed;
  - the core refused entry k with code C: the judge holds it ("events"), naming entry k
    and C;
  - the deal ended before the last entry, or never ended: the judge holds it, saying so.
A disagreement prints the case's seed and lines and exits 1.
"""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for _p in (os.path.join(ROOT, "firmware"), HERE, ROOT):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from dealgen import Player  # noqa: E402
from net import wire  # noqa: E402
from net.wire import deal_body  # noqa: E402
from sixtysix.cards import card, rank_of  # noqa: E402
from sixtysix.errors import Refused  # noqa: E402
from sixtysix.events import VERBS, parse  # noqa: E402
from sixtysix.match import Match  # noqa: E402

from club.rescore import Judge  # noqa: E402

SETUPS = ("mariage", "classic66", "mariage3", "classic66-3", "mariage4", "schnapsen",
          "sechsundsechzig", "mariage4 scale=full", "classic66-3 judge=sum",
          "mariage3 judge=weak", "classic66 hidden=1", "mariage needtrick=1",
          "schnapsen target=3", "mariage4 games=2")
NAMES = ("Ann", "Bob", "Cid", "Dan")
_COMPARED = ("gp", "winner", "reason", "over")


def _setup(rng):
    rules = rng.choice(SETUPS)
    players = 4 if "4" in rules.split()[0] else 3 if "3" in rules.split()[0] else 2
    return rules, list(NAMES[:players])


def _legal_deal(player):
    """Play one legal deal of player's match; returns its records (None: the match is over)."""
    m = player.match
    if m.state.over:
        return None
    n = len(player.lines)
    player.play_deal()
    return [parse(line) for line in player.lines[n:]]


def _random_record(rng, players):
    verb = rng.randrange(len(VERBS))
    seat = rng.randrange(players + 1)  # one past the last seat now and then
    if verb == 1:
        cards = []
        for _ in range(players + rng.choice((0, 0, 0, 0, -1, 1))):
            cards.append(card(rng.randrange(6), rng.randrange(-1, 4)))
        return bytes([verb, seat] + cards)
    if verb in (0,):
        return bytes((verb, rng.randrange(4)))
    if verb in (2, 4):
        return bytes((verb, seat, rng.randrange(4)))[:3 if rng.random() < 0.8 else 2]
    if verb == 5:
        return bytes((verb, rng.randrange(players), rng.randrange(6)))
    if verb == 7:
        return bytes([verb] + [rng.choice((0, 20, 33, 66, 80, 255, rng.randrange(256)))
                               for _ in range(2 if players != 3 else 3)])
    if verb in (10, 11):
        return bytes((verb, seat, rng.randrange(4)))
    if verb == 12:
        return bytes((verb, rng.randrange(2)))
    return bytes((verb,) + ((seat,) if verb == 3 else ()))


def _unsuit(rec, rng):
    """A trick with some of its cards' suits taken off (typed with ranks only)."""
    b = bytearray(rec)
    for i in range(2, len(b)):
        if rng.random() < 0.5:
            b[i] = card(rank_of(b[i]))
    return bytes(b)


def mutate(recs, rng, players):
    """A legal deal's records changed one to three ways."""
    recs = list(recs)
    for _ in range(rng.randint(1, 3)):
        tricks = [i for i, r in enumerate(recs) if r[0] == 1]
        how = rng.randrange(9)
        if how <= 2 and tricks:  # the commonest slip at a table: suits left out
            i = rng.choice(tricks)
            recs[i] = _unsuit(recs[i], rng)
            if how == 2:  # ...and the winner said wrong
                b = bytearray(recs[i])
                b[1] = rng.randrange(players)
                recs[i] = bytes(b)
        elif how == 3 and tricks:  # the winner said wrong, every suit typed
            i = rng.choice(tricks)
            b = bytearray(recs[i])
            b[1] = rng.randrange(players)
            recs[i] = bytes(b)
        elif how == 4 and tricks:  # two cards of a trick swapped, or one replaced
            i = rng.choice(tricks)
            b = bytearray(recs[i])
            j = rng.randrange(2, len(b))
            if rng.random() < 0.5:
                k = rng.randrange(2, len(b))
                b[j], b[k] = b[k], b[j]
            else:
                b[j] = card(rng.randrange(6), rng.randrange(-1, 4))
            recs[i] = bytes(b)
        elif how == 5 and recs:
            del recs[rng.randrange(len(recs))]
        elif how == 6 and recs:
            i = rng.randrange(len(recs))
            recs.insert(rng.randrange(len(recs) + 1), recs[i])
        elif how == 7 and len(recs) > 1:
            i = rng.randrange(len(recs))
            recs.insert(rng.randrange(len(recs)), recs.pop(i))
        else:
            recs.insert(rng.randrange(len(recs) + 1), _random_record(rng, players))
    return recs


def _core(table, recs):
    """The table's verdict on recs entered one by one: ("ok",), ("refused", k, code),
    ("ended", k) (the deal ended before entry k), ("open",) (it never ended) or
    ("bad", k) (entry k is no record the core can read)."""
    st = table.state
    n = st.deals()
    for k, rec in enumerate(recs):
        if st.deals() > n:
            return ("ended", k)
        try:
            table.enter(rec)
        except Refused as e:
            return ("refused", k, e.code)
        except (IndexError, KeyError, TypeError, ValueError):
            return ("bad", k)
    return ("ok",) if st.deals() > n else ("open",)


def one_case(seed):
    """Judge one case; returns None when the club and the table agree, else a report."""
    rng = random.Random(seed)
    rules, names = _setup(rng)
    player = Player("new %s names=%s" % (rules, ",".join(names)), seed & 0xFFFFFF,
                    suits=rng.random() < 0.7)
    players = len(names)
    judge = Judge({})
    match_msg = wire.match(1, 0, names, rules)
    got = judge.judge("t01", dict(match_msg, inc="i1"))
    if got is not None:
        return "the match message is held: %r" % (got,)
    # Some legal deals first, each counted by the judge as the table sent it.
    for _ in range(rng.choice((0, 0, 1, 2, 4))):
        if _legal_deal(player) is None:
            break
        m = player.match
        body = deal_body(m, 1, m.state.deals() - 1)
        got = judge.judge("t01", dict(body, inc="i1"))
        if got is not None:
            return "a legal deal is held: %r %r" % (body, got)
    if player.match.state.over:
        return None
    lines = list(player.lines)
    table = Match()
    for line in lines:
        table.enter_line(line)
    if rng.random() < 0.85:
        recs = _legal_deal(player)
        if rng.random() < 0.9:
            recs = mutate(recs, rng, players)
    else:
        recs = [_random_record(rng, players) for _ in range(rng.randint(1, 12))]
    n = table.state.deals()
    verdict = _core(table, recs)
    ev = " ".join(r.hex() for r in recs)
    if verdict[0] == "ok":
        body = deal_body(table, 1, n)
        assert body["ev"] == ev
        want = None
        if rng.random() < 0.2:  # a compared field changed: the entries score otherwise
            f = rng.choice(_COMPARED)
            body = dict(body)
            if f == "gp":
                body[f] = [g + 1 for g in body[f]]
            elif f == "reason":
                body[f] = "quick" if body[f] != "quick" else "reached"
            else:
                body[f] = body[f] + 1
            want = "score"
    else:
        body = wire.deal(1, n + 1, [1] + [0] * (len(table.state.score) - 1), "quick", 0,
                         -1, ev)
        want = "events"
    got = judge.judge("t01", dict(body, inc="i1"))
    code = got[0] if got else None
    why = got[1] if got else ""
    if code != want:
        return "table %r, club %r" % (verdict, got)
    if verdict[0] == "refused":
        k, c = verdict[1], verdict[2]
        if "entry %d " % (k + 1) not in why or not why.endswith(": " + c):
            return "table %r, club %r" % (verdict, got)
    elif verdict[0] == "ended" and "ended at entry %d " % verdict[1] not in why:
        return "table %r, club %r" % (verdict, got)
    elif verdict[0] == "open" and "do not end" not in why and why != "0 entries":
        return "table %r, club %r" % (verdict, got)
    return None


def run(seed, cases, out=print):
    """Judge cases seeds seed*cases .. ; returns (cases, disagreements, counts by verdict)."""
    counts = {}
    bad = []
    for i in range(cases):
        s = seed * 1000003 + i
        rng_verdict = one_case(s)
        key = "agree" if rng_verdict is None else "disagree"
        counts[key] = counts.get(key, 0) + 1
        if rng_verdict is not None:
            bad.append((s, rng_verdict))
            out("disagreement, case seed %d: %s" % (s, rng_verdict))
    return cases, bad, counts


def verdicts(seed, cases):
    """How the table judged the mutated deals (for the test: the cases reach every
    verdict, refusal codes included)."""
    seen = {}
    for i in range(cases):
        rng = random.Random(seed * 1000003 + i)
        rules, names = _setup(rng)
        player = Player("new %s names=%s" % (rules, ",".join(names)), (seed * 1000003 + i)
                        & 0xFFFFFF, suits=False)
        table = Match()
        for line in player.lines:
            table.enter_line(line)
        recs = mutate(_legal_deal(player), rng, len(names))
        v = _core(table, recs)
        key = v[0] if v[0] != "refused" else v[2]
        seen[key] = seen.get(key, 0) + 1
    return seen


def main(argv):
    import argparse
    import time

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=100000)
    a = ap.parse_args(argv)
    t = time.time()
    n, bad, _counts = run(a.seed, a.cases)
    dt = time.time() - t
    print("club against table: %d cases, %d disagreements, %.0f cases/s (seed %d)"
          % (n, len(bad), n / dt if dt else 0, a.seed))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
