"""Club results as a table makes them, for the service's tests: a match played in the
firmware's own core (sixtysix.match.Match) and each message built by the firmware's own code
(net/wire.py's result and deal_body), so a deal carries the entries the service scores
again. No copy of the scoring here."""

from net import wire
from net.wire import deal_body
from sixtysix.events import parse
from sixtysix.match import Match


class Played:
    """One match of one table; results() gives its payloads numbered from `seq`."""

    def __init__(self, inc="abcd0001", mid=1, rnd=0, names=("Ann", "Bob"),
                 rules="classic66", seq=1):
        self.inc, self.mid, self.seq = inc, mid, seq
        self.m = Match()
        self.m.enter_line("new %s names=%s" % (rules, ",".join(names)))
        self.payloads = [self._next(wire.match(mid, rnd, list(names), rules))]

    def _next(self, body):
        p = wire.result(self.inc, self.seq, body)
        self.seq += 1
        return p

    def deal(self, *lines):
        """Enter one deal's event lines (docs/events.md), e.g. "result 1 2"; returns its
        deal message (a dict), also appended to payloads."""
        st = self.m.state
        n = st.deals()
        for line in lines:
            self.m.enter(parse(line))
        assert st.deals() == n + 1, "the lines did not end the deal"
        body = deal_body(self.m, self.mid, n)
        self.payloads.append(self._next(body))
        return body

    def send(self, body):
        """A payload of any body (a forged or changed one) with the next number."""
        p = self._next(body)
        self.payloads.append(p)
        return p
