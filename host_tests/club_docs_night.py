"""A club night and its rehearsal run from docs/club.md's own commands, taken from the
markdown as written: test_club_docs.py starts this and checks the report it writes.

    python club_docs_night.py --inside FOLDER REPORT

FOLDER is a copy of the checkout: the docs' commands run from the repository's root.
test_club_docs.py starts this under `unshare -rn` (a user and a network namespace of
its own), where the docs' own ports (1883 and 9001 for the broker, 8080 for the service)
are free whatever runs on the machine. --inside brings the namespace's loopback up and
starts this again in a nested user namespace as an ordinary user: Mosquitto started as
root would try to become the user "mosquitto", as the docs' reader never is.

Every command runs in a terminal of its own (a pseudo-terminal under `bash -e`, as a
director would type it): mosquitto_passwd is answered at its prompts, the simulators get
their keys as typed, the service is stopped with Ctrl-C and the broker with kill -9. The
passwords are the docs' own (the .pw files and the tables' club files they write).
"""

import json
import os
import pty
import re
import select
import signal
import socket
import sqlite3
import struct
import sys
import time
import urllib.request

FENCE = re.compile(r"(?m)^( *)```(\S*)[^\n]*\n(.*?)^\1```", re.S)
TABLES = ("t01", "t02", "t03")
LIVE = []  # every terminal still open: each wait reads them all, so none blocks writing


class Failure(Exception):
    pass


def sh_blocks(text):
    """The code of every ```sh block of the markdown text."""
    out = []
    for m in FENCE.finditer(text):
        if m.group(2) == "sh":
            lines = [s[len(m.group(1)):] for s in m.group(3).split("\n")]
            out.append("\n".join(lines).strip("\n"))
    return out


def block(blocks, *needles):
    found = [b for b in blocks if all(n in b for n in needles)]
    if len(found) != 1:
        raise Failure("docs/club.md: %d blocks with %r" % (len(found), needles))
    return found[0]


def passwords(text):
    """{login: password} as the docs write them: NAME.pw files and the tables' club files."""
    pw = {user: word for word, user in re.findall(r"echo '([^']*)' > (\w+)\.pw", text)}
    for body in re.findall(r"echo '(\{[^']*\})' > \S+\.json", text):
        cfg = json.loads(body)
        pw[cfg["table"]] = cfg["password"]
    return pw


class Term:
    """One terminal: `bash -e -c CODE` in a pseudo-terminal, its output kept."""

    def __init__(self, name, code, cwd):
        import fcntl
        import termios

        self.name = name
        self.code = code
        pid, fd = pty.fork()
        if pid == 0:
            try:
                os.chdir(cwd)
                os.environ["TERM"] = "xterm"
                os.execvp("bash", ["bash", "-e", "-c", code])
            finally:
                os._exit(127)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 140, 0, 0))
        self.pid, self.fd = pid, fd
        self.out = b""
        self.status = None
        LIVE.append(self)

    def read(self):
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # nothing holds the terminal any more
            chunk = b""
        self.out += chunk
        return chunk

    def text(self):
        return self.out.decode("utf-8", "replace")

    def mark(self):
        return len(self.text())

    def ended(self):
        if self.status is None:
            done, st = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.status = os.waitstatus_to_exitcode(st)
        return self.status is not None

    def send(self, keys, gap=0.15):
        """Typed: one key at a time, as a person would (the simulator reads them so)."""
        for ch in keys:
            os.write(self.fd, ch.encode())
            pump(gap)

    def expect(self, what, since=0, timeout=120):
        """The position after `what` in the output from `since` on; waits for it."""
        end = time.monotonic() + timeout
        while True:
            pump(0.1)
            i = self.text().find(what, since)
            if i >= 0:
                return i + len(what)
            if self.ended() and not self.read():
                raise Failure("%s ended (%s) without %r:\n%s" % (
                    self.name, self.status, what, self.text()[-3000:]))
            if time.monotonic() > end:
                raise Failure("%s: no %r in %d s:\n%s" % (self.name, what, timeout,
                                                          self.text()[-3000:]))

    def wait(self, timeout=120):
        """The exit status, once it has ended."""
        end = time.monotonic() + timeout
        while not self.ended():
            pump(0.1)
            if time.monotonic() > end:
                self.dump()
                raise Failure("%s did not end in %d s:\n%s" % (self.name, timeout,
                                                               self.text()[-3000:]))
        while self.read():
            pass
        return self.status

    def dump(self):
        """Ask the terminal's commands (bash's children) where their threads are: the
        standings service prints them on SIGUSR1 (docs/club.md), so a hang says where."""
        try:
            with open("/proc/%d/task/%d/children" % (self.pid, self.pid)) as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            return
        for kid in kids:
            try:
                os.kill(kid, signal.SIGUSR1)
            except ProcessLookupError:
                pass
        end = time.monotonic() + 3
        while time.monotonic() < end:
            pump(0.1)

    def close(self):
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if self.ended():
                break
            try:
                os.killpg(self.pid, sig)
            except ProcessLookupError:
                break
            time.sleep(0.5)
        if not self.ended():
            os.waitpid(self.pid, 0)
        os.close(self.fd)
        LIVE.remove(self)


def pump(wait):
    """Read what every open terminal has written, for up to `wait` seconds."""
    end = time.monotonic() + wait
    while True:
        fds = [t.fd for t in LIVE]
        left = max(0.0, end - time.monotonic())
        ready = select.select(fds, [], [], left)[0] if fds else time.sleep(left) or []
        for t in LIVE:
            if t.fd in ready:
                t.read()
        if time.monotonic() >= end:
            return


def sleep(seconds):
    """Terminals read for `seconds`: only where nothing must happen (sim_update_rehearsal.py
    watches a table mid-match take no update), never to wait for something to happen."""
    pump(seconds)


def port_open(port, timeout=60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return True
        except OSError:
            pump(0.1)
    raise Failure("nothing listens on %d" % port)


OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def get(path):
    with OPENER.open("http://127.0.0.1:8080" + path, timeout=30) as r:
        return r.status, r.read()


def standings():
    return json.loads(get("/standings.json")[1])


def acked_until(want, timeout=60):
    """The standings once every table in `want` has at least that many results acked."""
    end = time.monotonic() + timeout
    while True:
        data = standings()
        tables = data.get("tables", {})
        if all(tables.get(t, {}).get("acked", 0) >= n for t, n in want.items()):
            return data
        if time.monotonic() > end:
            raise Failure("acks %r, wanted %r" % (tables, want))
        pump(0.2)


def broker_pid(folder):
    """The pid of the broker the docs' command started in folder."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
            cwd = os.readlink("/proc/%s/cwd" % pid)
        except OSError:
            continue
        if os.path.basename(argv[0]) == b"mosquitto" and cwd == folder:
            found.append(int(pid))
    if len(found) != 1:
        raise Failure("brokers running in the folder: %r" % found)
    return found[0]


def retained(table, password, timeout=3):
    """What the broker holds retained for a table, read as the table logs in."""
    import paho.mqtt.client as mqtt

    got = {}
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="table-" + table,
                    protocol=mqtt.MQTTv311)
    c.username_pw_set(table, password)
    c.on_message = lambda client, userdata, msg: got.__setitem__(
        msg.topic.rsplit("/", 1)[1], msg.payload.decode())
    c.connect("127.0.0.1", 1883)
    c.loop_start()
    c.subscribe([("club/%s/seat" % table, 1), ("club/%s/ack" % table, 1)])
    end = time.monotonic() + timeout
    while len(got) < 2 and time.monotonic() < end:
        time.sleep(0.05)
    c.loop_stop()
    c.disconnect()
    return got


def seqs(db):
    conn = sqlite3.connect(db)
    try:
        out = {}
        for table, seq in conn.execute("SELECT table_id, seq FROM results ORDER BY table_id, seq"):
            out.setdefault(table, []).append(seq)
        return out
    finally:
        conn.close()


# A deal's result on the keypad: # (the menu), 4 (a result), the winner, the game points.
DEALS = {"t01": ["#423"], "t02": ["#412"], "t03": ["#421", "##413"]}


def night(folder, report):
    with open(os.path.join(folder, "docs", "club.md"), encoding="utf-8") as f:
        text = f.read()
    blocks = sh_blocks(text)
    pw = passwords(text)
    step1 = block(blocks, "mosquitto_passwd -c")
    restart = [b for b in blocks
               if b.split("#")[0].strip() == "mosquitto -c club/mosquitto/venue.conf"]
    if len(restart) != 1:
        raise Failure("docs/club.md: no one block that starts the broker again")
    step2 = block(blocks, "-m club.service")
    seat = block(blocks, "club.director", " seat ")
    files = block(blocks, "echo '{", "t01.json")
    sims = block(blocks, 'make sim ARGS="--club').split("\n")
    show = block(blocks, "club.director", " show")
    cards = block(blocks, "club.director", " cards ")
    report["ran"] = [step1, restart[0], step2, seat, files, "\n".join(sims), show, cards]
    users = re.findall(r"^mosquitto_passwd (?:-c )?\S+ (\S+)", step1, re.M)
    report["users"] = users
    report["missing_passwords"] = [u for u in users if u not in pw]

    # Step 1: the password file, typed at the prompts, and the broker.
    broker = Term("broker", step1, folder)
    at = 0
    for user in users:
        at = broker.expect("Password:", at)
        broker.send(pw.get(user, "x") + "\n", 0)
        at = broker.expect("Reenter password:", at)
        broker.send(pw.get(user, "x") + "\n", 0)
    port_open(1883)
    port_open(9001)
    # Step 2: the service, with the table page.
    service = Term("service", step2, folder)
    service.expect("standings: the table page for phones at", timeout=300)
    status, page = get("/table/")
    report["table_page"] = [status, b"clubcfg.js" in page, len(get("/table/firmware.pack")[1])]
    # The rehearsal: the tables' club files, three simulators, the director's seating.
    files_term = Term("club files", files, folder)
    report["files"] = files_term.wait()
    tables = {}
    for line in sims:
        table = re.search(r"(t\d\d)\.json", line).group(1)
        tables[table] = Term("sim " + table, line, folder)
    for table, term in tables.items():
        term.expect("club %s: online" % table, timeout=180)
    director = Term("seat", seat, folder)
    report["seat"] = [director.wait(), director.text().strip().splitlines()[-1]]
    acked_until({t: 1 for t in TABLES})  # each seated match started and its message acked
    marks = {}
    for table, term in tables.items():
        marks[table] = term.mark()
        term.send(DEALS[table][0])
    report["before"] = acked_until({t: 2 for t in TABLES})
    for table, term in tables.items():
        term.expect("club %s: online, all acknowledged" % table, marks[table])

    # The service stops (Ctrl-C); a table plays on, its result queued by the broker.
    service.send("\x03", 0)
    report["service_stopped"] = service.wait(30)
    t03 = tables["t03"]
    at = t03.mark()
    t03.send(DEALS["t03"][1])
    saved = broker.mark()
    t03.expect("club t03: online, 1 waiting for the ack", at)
    for term in tables.values():  # every table switched off: none of them sends again
        term.send("x", 0)
        term.wait(30)
    # venue.conf saves every 2 s, not at every change (docs/club.md, "What a power cut
    # loses"): the power goes once the broker has saved twice since t03 sent, so the
    # save that holds t03's result is on disk however slowly the broker read it.
    since = broker.expect("Saving in-memory database", saved, timeout=60)
    broker.expect("Saving in-memory database", since, timeout=60)
    os.kill(broker_pid(folder), signal.SIGKILL)
    report["broker_killed"] = broker.wait(30)
    again = Term("broker again", restart[0], folder)
    port_open(1883)
    report["retained"] = {t: retained(t, pw.get(t, "")) for t in TABLES}
    # The service again, the way the docs start it: the queued result arrives.
    service2 = Term("service again", step2, folder)
    service2.expect("standings: the table page for phones at", timeout=300)
    report["after"] = acked_until({"t01": 2, "t02": 2, "t03": 3})
    report["service_log"] = service2.text()
    # Table t03 switched on again: it hears its ack, nothing waits.
    t03 = Term("sim t03 again", sims[2], folder)
    t03.expect("club t03: online, all acknowledged", timeout=180)
    report["t03_again"] = True
    viewer = Term("show", show, folder)
    report["show"] = [viewer.wait(), viewer.text()]
    sheet = Term("cards", cards, folder)
    report["cards"] = [sheet.wait(), sheet.text().strip()]
    with open(os.path.join(folder, "cards.html"), encoding="utf-8") as f:
        report["cards_html"] = f.read()
    report["seqs"] = seqs(os.path.join(folder, "night.sqlite"))
    report["broker_up"] = not again.ended()


def bring_loopback_up():
    import fcntl

    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    ifr = struct.pack("16sH22x", b"lo", 0)
    flags = struct.unpack("16sH", fcntl.ioctl(s, 0x8913, ifr)[:18])[1]  # SIOCGIFFLAGS
    fcntl.ioctl(s, 0x8914, struct.pack("16sH22x", b"lo", flags | 1))  # SIOCSIFFLAGS, IFF_UP
    s.close()


def main(argv):
    if argv[1] == "--inside":
        bring_loopback_up()
        os.execvp("unshare", ["unshare", "-U", "--map-user=65534", "--map-group=65534",
                              sys.executable, os.path.abspath(argv[0])] + argv[2:])
    folder, out = argv[1], argv[2]
    report = {}
    try:
        night(folder, report)
    except Failure as e:
        report["error"] = str(e)
    except Exception as e:  # noqa: BLE001 (the report says what broke, with the terminals)
        import traceback

        report["error"] = traceback.format_exc() + repr(e)
    finally:
        if "error" in report:
            report["terminals"] = {t.name: t.text()[-2000:] for t in LIVE}
        for t in list(LIVE):
            t.close()
        with open(out, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
