"""The club night's results and standings: apply-once, order-free, restartable.

A result is keyed by (table, inc, seq) (net/wire.py has the schema and validate()): a key seen
before is a duplicate and changes nothing. What counts for a deal is the result with the
highest seq for its (table, inc, match, deal): a later "deal" supersedes, a later "void"
takes it back; so the standings are a function of the set of results, whatever order
or how many times they came. A "gap" result counts nothing: it says the table's flash went
back to an older copy, and is listed in "gaps" for the director. A director's correction
(by id, latest wins) sits on top, and keeps its audit trail.

The director may also accept a result that did not count (club/actions.py): it then counts
for its (table, inc, seq), in place of the copy that did or of its held verdict (take()).

Only what the core agrees with counts: the results of a (table, inc) are judged in their
number's order by club/rescore.py (a result that comes before one it follows waits for it;
the ack says the contiguous number, so the table sends the gap again), and one the core
does not agree with is held: its number is taken (acked, never counted twice) but it
counts nothing, and a held deal takes the place of the table's earlier copy of that deal.
Held results are listed in the standings ("held") with their reason.

A bye (a round's player the director seats at no table, `seat --bye`) scores as a won
match of that round: one more match won, counted in the player's "byes" too; game points
and deals won stay as the matches give them, so at equal matches won a bye ranks below a
played win (a won match always brings game points), and at equal game points too the
player with fewer byes comes first. The byes are the director's (club/actions.py keeps
them in the database), counted from the round's seating on.

Event is the in-memory fold, fed by Db (club/db.py) at start-up and by the service as
messages come; standings() is what the page, the terminal view and the retained topic show.
"""

# The validation is the wire's (club/__init__.py puts firmware/ on the path); the service's.
from net.wire import Invalid, validate  # noqa: F401
from sixtysix.rules import side_name

from club.rescore import Judge

# A held result as the standings list it (the service fills in id, its row in refused).
HELD_FIELDS = ("id", "table", "inc", "seq", "match", "deal", "what", "code", "why")


class TableMatch:
    """One match of one table: its header and, per deal, the result that counts."""

    __slots__ = ("table", "inc", "match", "head", "head_seq", "deals")

    def __init__(self, table, inc, match):
        self.table = table
        self.inc = inc
        self.match = match
        self.head = None  # the "match" message (names, round, rules)
        self.head_seq = 0
        self.deals = {}  # deal number -> (seq, message) with the highest seq

    def live(self, corrections):
        """[(deal, message)] of the deals that count, in deal order."""
        out = []
        keys = set(self.deals)
        for (t, i, m, d) in corrections:
            if (t, i, m) == (self.table, self.inc, self.match):
                keys.add(d)
        for d in sorted(keys):
            msg = self.deals[d][1] if d in self.deals else None
            fix = corrections.get((self.table, self.inc, self.match, d))
            if fix is not None:
                msg = None if fix["action"] == "void" else fix["result"]
            if msg is not None and msg.get("kind") != "void":
                out.append((d, msg))
        return out


class Event:
    """Every result of the night, folded; apply() says whether a result was new."""

    def __init__(self):
        self.matches = {}  # (table, inc, match) -> TableMatch
        self.seen = {}  # (table, inc) -> set of seqs applied
        self.contiguous = {}  # (table, inc) -> every seq up to this one is applied
        self.latest_inc = {}  # table -> the inc of its latest result
        self.corrections = {}  # (table, inc, match, deal) -> the latest correction
        self.audit = []  # every correction, oldest first
        self.gaps = []  # tables whose flash went back to an older copy ("gap" results)
        self.results = {}  # (table, inc, seq) -> its result, judged (counted or held)
        self.seating = {}  # table -> {"round", "names", "rules"} (the director's latest)
        self.seats = {}  # (table, round) -> that round's seating of the table (the latest)
        self.judge = Judge(self.seats)
        self.byes = {}  # round -> [names]: the director's byes, each a won match
        self.waiting = {}  # (table, inc) -> {seq: message} past a gap, not judged yet
        self.held = {}  # (table, inc, seq) -> {"table", "inc", "seq", ..., "code", "why"}
        self.new_held = []  # entries of self.held judged since the caller last took them
        self.held_msgs = {}  # (table, inc, seq) -> the message of each entry in new_held
        # (table, inc, seq) -> the refused row of a result kept as late at the close whose
        # copy came again on an open night (the service sets it): held, "late", until the
        # director accepts that row
        self.late = {}
        self.judged = []  # ("counted" | "held", (table, inc, seq)) as judged since the
        # caller last took them (the service logs each in that order); none at start-up
        self.closed = False
        self.applied = 0

    def seat(self, table, seat):
        """A seating from the director (club/<table>/seat). Returns the held entries it
        releases: results held only because they came before this seating (the broker
        hands a restarted service its queued results before the retained seatings), which
        count from now on (the caller records each as accepted, so a restart agrees)."""
        self.seating[table] = seat
        rnd = seat.get("round") if isinstance(seat, dict) else None
        if type(rnd) is not int:
            return []
        self.seats[(table, rnd)] = seat
        released = []
        for hkey, h in sorted(self.held.items()):
            msg = self.results.get(hkey)
            if (h["code"] != "seat" or h["table"] != table or msg is None
                    or msg["kind"] != "match" or msg["round"] != rnd):
                continue
            if self.judge.reseat(table, msg) is not None:
                continue  # seated otherwise: it stays held, for the director
            released.append(h)
            for dkey, d in sorted(self.held.items()):
                # The deals held only because their match was: the core scored them.
                if (d["code"] == "match" and dkey[:2] == hkey[:2]
                        and d["match"] == msg["match"] and "is held" in d["why"]):
                    released.append(d)
        for h in released:
            self.held.pop((h["table"], h["inc"], h["seq"]), None)
        if released:
            self.recount()
        return released

    def set_byes(self, byes):
        """Every round's byes as the database keeps them: {"round": [names]}."""
        self.byes = {int(r): list(names) for r, names in byes.items() if names}

    def recount(self):
        """Count every judged result again (after held verdicts changed)."""
        self.matches = {}
        for (t, i, s), m in sorted(self.results.items(), key=lambda kv: kv[0]):
            if m["kind"] != "gap":
                self.count(t, m, (t, i, s) in self.held)

    def apply(self, table, msg, stored=None):
        """Take one validated result; False for a duplicate (then nothing changes). It is
        judged (club/rescore.py) and counted, or held, once every lower number of its
        (table, inc) is in. stored: at start-up, {(table, inc, seq): held entry} of the
        verdicts on disk, which stand (a result not in it was counted)."""
        inc, seq = msg["inc"], msg["seq"]
        key = (table, inc)
        seen = self.seen.get(key)
        if seen is None:
            seen = self.seen[key] = set()
            # A table's numbers run on from night to night (its outbox keeps one
            # incarnation), so a new night's service may first hear #57. When that is a
            # match's start, the stream starts there: what came before was another
            # night's, acked by another service, and no deal of this match needs it.
            start = seq - 1 if msg["kind"] == "match" else 0
            self.contiguous[key] = start
            self.waiting[key] = {}
        if seq in seen:
            return False
        seen.add(seq)
        self.latest_inc[table] = inc
        self.applied += 1
        if seq <= self.contiguous[key]:
            # Before where the stream started (it came after a later match's start): it is
            # held for the director, never counted silently nor dropped.
            self._judged(table, msg, stored, before=True)
            return True
        waiting = self.waiting[key]
        waiting[seq] = msg
        c = self.contiguous[key]
        while c + 1 in waiting:
            c += 1
            self._judged(table, waiting.pop(c), stored)
            self.contiguous[key] = c
        return True

    def _judged(self, table, msg, stored, before=False):
        hkey = (table, msg["inc"], msg["seq"])
        self.results[hkey] = msg
        if msg["kind"] == "gap":
            self.gaps.append({"table": table, "inc": msg["inc"], "seq": msg["seq"],
                              "from": msg["from"], "to": msg["to"]})
            return
        if before:
            why = ("before", "#%d came after this table's results began at a later match"
                   % msg["seq"])
        else:
            why = self.judge.judge(table, msg)  # late too: the deals after it are scored
        rid = self.late.pop(hkey, None)
        if rid is not None:
            why = ("late", late_why(rid))
        if stored is not None:
            entry = stored.get(hkey)  # the verdict given when it came stands
        elif why is not None:
            entry = {"id": rid, "table": table, "inc": msg["inc"], "seq": msg["seq"],
                     "match": msg["match"], "deal": msg.get("deal"), "what": msg["kind"],
                     "code": why[0], "why": why[1]}
            self.new_held.append(entry)
            self.held_msgs[hkey] = msg
        else:
            entry = None
        if stored is None:
            self.judged.append(("held" if entry is not None else "counted", hkey))
        if entry is not None:
            self.held[hkey] = entry
        if msg["kind"] == "match":  # its deals are judged by the verdict that stands
            self.judge.held_as(table, msg, entry["why"] if entry is not None else None)
        self.count(table, msg, entry is not None)

    def count(self, table, msg, held=False):
        """Fold a judged result in: counted, or (held) taking its number's place."""
        seq = msg["seq"]
        mkey = (table, msg["inc"], msg["match"])
        m = self.matches.get(mkey)
        if m is None:
            m = self.matches[mkey] = TableMatch(table, msg["inc"], msg["match"])
        if msg["kind"] == "match":
            if not held and seq >= m.head_seq:
                m.head, m.head_seq = msg, seq
        else:
            old = m.deals.get(msg["deal"])
            if old is None or seq >= old[0]:
                m.deals[msg["deal"]] = (seq, None if held else msg)

    def copy(self, table, inc, seq):
        """The copy of result (table, inc, seq) the event holds (judged, counted or held, or
        waiting for a lower number), or None: another copy with other content conflicts."""
        got = self.results.get((table, inc, seq))
        if got is None:
            got = self.waiting.get((table, inc), {}).get(seq)
        return got

    def counted(self, table, inc, seq):
        """The result that counts for (table, inc, seq), or None (none, or held)."""
        key = (table, inc, seq)
        return None if key in self.held else self.results.get(key)

    def take(self, table, msg, entry, stored=None):
        """The director accepts a result that did not count (a conflict's other copy, a
        late or a held one): it counts as (table, inc, seq), in place of the copy that did
        or of the held verdict. entry goes to the audit. Returns "replaced" or "added".
        stored: at start-up, the verdicts on disk, as apply() takes them (a late result
        added lets the results after it in, whose verdicts stand)."""
        key = (table, msg["inc"], msg["seq"])
        self.audit.append(entry)
        self.late.pop(key, None)  # accepted: a copy sent again and still waiting is not late
        how = "replaced" if key in self.results else "added"
        if how == "added":
            self.apply(table, msg, stored)
            # The judge may hold it as it is added (a deal without entries, given by the
            # director): it counts, so it is no held result to store.
            self.new_held = [h for h in self.new_held
                             if (h["table"], h["inc"], h["seq"]) != key]
            self.held_msgs.pop(key, None)
            self.judged = [j for j in self.judged if j[1] != key]
        self.results[key] = msg
        self.held.pop(key, None)
        if msg["kind"] == "match":  # it counts: so may its deals from now on
            self.judge.held_as(table, msg, None)
        self.recount()
        return how

    def tally(self):
        """(counted, held): the results that count (judged, not held; a gap counts
        nothing) and those held, exactly; a result waiting for a lower number is neither
        yet."""
        held = sum(1 for key in self.results if key in self.held)
        counted = sum(1 for key, m in self.results.items()
                      if key not in self.held and m["kind"] != "gap")
        return counted, held

    def ack(self, table):
        """(inc, seq) the table is told: its latest incarnation's contiguous seq."""
        inc = self.latest_inc.get(table)
        if inc is None:
            return None
        return inc, self.contiguous[(table, inc)]

    def correct(self, fix):
        """A director's correction: {"table","inc","match","deal","action": "void"|"set",
        "result": a deal message (for "set")}. Later ones supersede earlier ones."""
        key = (fix["table"], fix["inc"], fix["match"], fix["deal"])
        self.corrections[key] = fix
        self.audit.append(fix)

    # ---- what everyone sees ----

    def match_rows(self):
        """One row per match that has a header or a deal that counts."""
        rows = []
        for key in sorted(self.matches):
            m = self.matches[key]
            live = m.live(self.corrections)
            head = m.head or {}
            names = head.get("names") or []
            # Before its first deal a match has as many sides as the rules give its players.
            sides = len(live[0][1]["gp"]) if live else (2 if len(names) == 4 else len(names) or 2)
            totals = [0] * sides
            won = [0] * sides
            for _d, msg in live:
                for s in range(min(sides, len(msg["gp"]))):
                    totals[s] += msg["gp"][s]
                if 0 <= msg["winner"] < sides:
                    won[msg["winner"]] += 1
            winner = live[-1][1]["over"] if live else -1
            if not live and m.head is None:
                continue
            rows.append({"table": m.table, "inc": m.inc, "match": m.match,
                         "round": head.get("round", 0), "names": names,
                         "sides": [side_names(names, sides, s) for s in range(sides)],
                         "gp": totals, "deals_won": won, "deals": len(live),
                         "winner": winner})
        return rows

    def standings(self):
        """{"players": [...], "rounds": {...}, "tables": {...}, "closed": bool, "results":
        every result heard (counted, held or waiting), "counted": those that count}."""
        players = {}
        rounds = {}

        def player(name):
            return players.setdefault(name, {"name": name, "played": 0, "won": 0, "byes": 0,
                                             "gp": 0, "deals": 0})

        for row in self.match_rows():
            rounds.setdefault(str(row["round"]), []).append(row)
            if not row["deals"]:
                continue
            for s, members in enumerate(row["sides"]):
                for name in members:
                    p = player(name)
                    p["played"] += 1
                    p["won"] += int(row["winner"] == s)
                    p["gp"] += row["gp"][s]
                    p["deals"] += row["deals_won"][s]
        for names in self.byes.values():
            for name in names:  # a won match without a table (see the top of this file)
                p = player(name)
                p["won"] += 1
                p["byes"] += 1
        ranked = sorted(players.values(),
                        key=lambda p: (-p["won"], -p["gp"], p["byes"], p["name"]))
        tables = {}
        for table, inc in self.latest_inc.items():
            tables[table] = {"acked": self.contiguous[(table, inc)]}
        held = sorted(self.held.values(), key=lambda h: (h["table"], h["inc"], h["seq"]))
        byes = {str(r): list(names) for r, names in sorted(self.byes.items())}
        return {"players": ranked, "rounds": rounds, "byes": byes, "tables": tables,
                "audit": self.audit,
                "gaps": self.gaps, "held": held, "closed": self.closed,
                "results": self.applied, "counted": self.tally()[0]}


def late_why(rid):
    """The reason a late result sent again after a reopen is held (rid: its late row)."""
    return "late: came after the close (row %d), counts only if accepted" % rid


def side_names(names, sides, s):
    """The players of side s (sixtysix/rules.py's rule); ["?"] for a side with no name."""
    return side_name(names, sides, s, ",").split(",") if s < len(names) else ["?"]


def expected_players(matches):
    """Standings' player rows computed straight from tables' own records (the tests'
    reference): matches is [{"names", "deals": [[gp per side]...], "winner"}]."""
    players = {}
    for m in matches:
        if not m["deals"]:
            continue
        sides = len(m["deals"][0])
        for s in range(sides):
            for name in side_names(m["names"], sides, s):
                p = players.setdefault(name, {"name": name, "played": 0, "won": 0, "gp": 0,
                                              "deals": 0})
                p["played"] += 1
                p["won"] += int(m["winner"] == s)
                p["gp"] += sum(d[s] for d in m["deals"])
    return players
