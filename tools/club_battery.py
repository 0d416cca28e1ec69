"""A club table on a battery, WiFi up only to send (club.json "connect": "to_send",
net/clubsend.py), booted as a board boots it and run by the real loop.run() in real time
against a real broker: for its tests (host_tests/test_club_battery.py) and the bench's
measured session (tools/bench.py --battery: sessions per deal, seconds up per session).

Runs in a MicroPython unix port with the firmware and the fake `machine`
(host_tests/fake_machine) on the path, in a folder holding board.json and club.json, as a
board's file system does:

    club_battery.py PLAN [SETTINGS]

The fake machine gets a light sleep that sleeps (counted, and counted again when WiFi is
on, which must never happen), the `network` module a WLAN whose power (active()) is
counted. The player's part is played from the loop's ticker, one command a ';':
  new RULES names=A,B   start a match
  deals N GAP SEED      N quick deals, one every GAP seconds (the first at once); before
                        each, whether the link is down and WiFi off is recorded
  acked S               run until every result is acknowledged and the link rests (S s at most)
  rested S              run until one more session has ended (S s at most)
  seat R S              run until the seating of round R has started a match (S s at most)
  rest S                run S seconds
  until NAME S          run until the file NAME appears in the folder (S s at most)
  update S              run until an update taken over WiFi restarts the board (S s at most)
  mark NAME             write the file NAME in the folder (for the test that waits on it):
                        the JSON line as it stands
After every entry the matches as the flash holds them are written to truth.json (the
standings the service must reach: tools/clubtruth.py).
Each deal is a press (hw/power.py's key(): the panel lights, the idle stages start again).
SETTINGS (JSON, e.g. '{"dim_s": 1}') are saved as the table's settings before it boots.
Prints one JSON line at the end.
"""

import json
import machine
import os
import sys
import time

from clubtruth import write as truth
from net.wire import CLOSED

timing = {"wake_at": None}  # a deal due: the light sleep ends then, as a key would end it
counts = {"light": 0, "light_wifi": 0, "wifi_on": 0, "wifi_off": 0}


class WLAN:
    """The station: on, connected once asked (association takes no time here: its time on a
    board is tools/battery.py's cited input)."""

    PM_POWERSAVE = 2

    def __init__(self, interface):
        self.on = False
        self.joined = False

    def active(self, on=None):
        if on is None:
            return self.on
        if on and not self.on:
            counts["wifi_on"] += 1
        elif self.on and not on:
            counts["wifi_off"] += 1
        self.on = bool(on)
        self.joined = self.joined and self.on

    def config(self, **kw):
        pass

    def connect(self, ssid, password):
        self.joined = self.on

    def disconnect(self):
        self.joined = False

    def isconnected(self):
        return self.joined


class Network:
    STA_IF = 0
    WLAN = WLAN


sys.modules["network"] = Network
wlans = []
_wlan_init = WLAN.__init__


def _made(self, interface):
    _wlan_init(self, interface)
    wlans.append(self)


WLAN.__init__ = _made


def lightsleep(ms=None):
    counts["light"] += 1
    if wlans and wlans[0].on:
        counts["light_wifi"] += 1
    at = timing["wake_at"]
    if at is not None:
        ms = max(0, min(ms, time.ticks_diff(at, time.ticks_ms())))
    time.sleep_ms(ms)


machine.lightsleep = lightsleep


class _Esp32:  # the key wake source, as parts.py sets it up
    @staticmethod
    def wake_on_gpio(pins, level):
        pass


sys.modules["esp32"] = _Esp32


class Done(Exception):
    pass


from club_table import rng  # noqa: E402  (the same quick deals as a club table's)


class Player:
    """The loop's ticker: the plan's next step, then the club link's poll."""

    def __init__(self, plan, power, app, club):
        from ui.app_club import session_of

        self.steps = [c.split() for c in plan.split(";") if c.strip()]
        self.power, self.app, self.club = power, app, club
        self.session = session_of(app)
        self.deadline = None
        self.left = 0  # deals still to play in a "deals" step
        self.next_deal = 0
        self.r = None
        self.deals = 0
        self.down_at_deal = 0  # deals entered with the link down and WiFi off
        self.base = None  # the sessions made when a "rested" step began

    def wait_ms(self):
        return self.club.wait_ms()

    def poll(self, now):
        while self.steps and self._step(now):
            self.steps.pop(0)
            self.deadline = None
            timing["wake_at"] = None
        self.club.poll(now)

    def _until(self, now, seconds):
        if self.deadline is None:
            self.deadline = time.ticks_add(now, int(float(seconds) * 1000))
        timing["wake_at"] = self.deadline
        return time.ticks_diff(now, self.deadline) >= 0

    def _step(self, now):
        """True when the first step is done."""
        w = self.steps[0]
        club = self.club
        if w[0] == "new":
            self.session.new_match(" ".join(w))
            truth(".", club.outbox.round)
            self.power.key(now)
            return True
        if w[0] == "deals":
            if self.r is None:
                self.left, self.r, self.next_deal = int(w[1]), rng(int(w[3])), now
            if time.ticks_diff(now, self.next_deal) < 0:
                timing["wake_at"] = self.next_deal
                return False
            st = self.session.match.state
            if not self.left or st is None or st.over:
                self.r = None
                return True
            if not wlans[0].on and club.link.state == CLOSED:
                self.down_at_deal += 1
            self.power.key(now)
            side = self.r(st.rules.sides)
            choices = st.rules.choices()
            self.session.enter(bytes((5, side, choices[self.r(len(choices))])))
            truth(".", club.outbox.round)
            self.deals += 1
            self.left -= 1
            self.next_deal = time.ticks_add(now, int(float(w[2]) * 1000))
            return False
        if w[0] == "rested":
            if self.base is None:
                self.base = self.sessions()
            done = self.sessions() > self.base and self.resting()
            if done or self._until(now, w[1]):
                self.base = None
                return True
            return False
        if w[0] == "acked":
            done = not club.outbox.pending and self.resting()
            return done or self._until(now, w[1])
        if w[0] == "seat":
            return club.outbox.seated >= int(w[1]) or self._until(now, w[2])
        if w[0] == "rest":
            return self._until(now, w[1])
        if w[0] == "until":
            try:
                os.stat(w[1])
                return True
            except OSError:
                done = self._until(now, w[2])
                timing["wake_at"] = time.ticks_add(now, 50)  # looked for again soon
                return done
        if w[0] == "update":  # ends with the board's restart (update/job.py: club.reset)
            return self._until(now, w[1])
        if w[0] == "mark":
            with open(w[1], "w") as f:
                f.write(json.dumps(self.report()))
            return True
        raise Done()


    # (a link that is always up has neither: it never rests)
    def sessions(self):
        return getattr(self.club, "sessions", 0)

    def resting(self):
        return getattr(self.club, "_since", 0) is None

    def report(self):
        club = self.club
        ob = club.outbox
        st = self.session.match.state
        return {
            "deals": self.deals, "down_at_deal": self.down_at_deal, "sessions": self.sessions(),
            "up_ms": getattr(club, "up_ms", 0), "lightsleeps": counts["light"],
            "light_with_wifi": counts["light_wifi"], "wifi_on": counts["wifi_on"],
            "wifi_off": counts["wifi_off"], "wifi_now": wlans[0].on,
            "power_wifi": getattr(self.power, "wifi", None), "pending": len(ob.pending),
            "acked": ob.acked, "next": ob.next, "seated": ob.seated,
            "names": list(st.names) if st is not None else None, "status": club.status,
            "message": self.app.message, "reset": timing.get("reset", False)}


booted = []


def main():
    if len(sys.argv) > 2:  # the player's settings, on the flash before the boot
        from session import Session
        from store.journal import Store

        Session(Store("data", os)).save_settings(json.loads(sys.argv[2]))
    import startup

    boot = startup.boot

    def _booted(*args):
        out = boot(*args)
        cfg, keys, power, app, club, wdt, nap = out
        player = Player(sys.argv[1] + ";end", power, app, club)
        booted.append(player)

        def reset():  # the update's restart (update/job.py): the plan ends here
            timing["reset"] = True
            raise Done()

        club.reset = reset
        return cfg, keys, power, app, player, wdt, nap

    startup.boot = _booted
    import loop

    try:
        loop.run()
    except Done:
        pass
    print(json.dumps(booted[0].report()))


main()
