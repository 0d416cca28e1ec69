"""A real Mosquitto on a free 127.0.0.1 port, for the club tests and figures.

    with Broker(folder, users={"t01": "pw", ...}) as b:   # b.port, b.kill(), b.start()

Its configuration is the venue's own, club/mosquitto/venue.conf, read line by line: the
same message size limit, persistence and autosave, queue and login rules. Only what must
differ on a test machine is changed: the listeners' ports (free loopback ports; the
websockets listener too), the files' folder (the password file made here with
mosquitto_passwd, the project's ACL by its path, venue.db and a log in `folder`), and the
user it runs as. users=None opens the logins to anyone, without the ACL (the bench's one
client that publishes for every table). kill() is kill -9 (what was not yet saved is lost,
as in a power cut); start() again on the same folder brings the persisted state back.
"""

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ACL = os.path.join(ROOT, "club", "mosquitto", "acl")
VENUE = os.path.join(ROOT, "club", "mosquitto", "venue.conf")


def missing():
    """Why no broker can start here, or None."""
    for tool in ("mosquitto", "mosquitto_passwd"):
        if not shutil.which(tool) and not os.path.exists("/usr/sbin/" + tool):
            return "Debian's mosquitto is not installed (apt-get install mosquitto)"
    return None


def _which(tool):
    return shutil.which(tool) or "/usr/sbin/" + tool


def venue_lines():
    """venue.conf's settings, one a line, without its comments."""
    with open(VENUE) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith("#")]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Broker:
    def __init__(self, folder, users=None, acl=ACL, websockets=False, extra="", port=None):
        self.folder = folder
        os.makedirs(folder, exist_ok=True)
        self.port = port or free_port()
        # venue.conf has a websockets listener too: on a free port here, asked for or not
        # (websockets=True is kept for the callers that say they use it)
        self.ws_port = free_port()
        self.proc = None
        # Started as root (CI), Mosquitto would switch to the user "mosquitto", who cannot
        # write this folder: stay who we are (docs/club.md says what a venue does).
        conf = ["user " + getpass.getuser(), "persistence_location %s/" % folder,
                "log_dest file %s/log" % folder, "log_type error", "log_type warning",
                "log_type notice"]
        ports = iter((self.port, self.ws_port))
        for line in venue_lines():
            key = line.split()[0]
            if key == "listener":
                port = next(ports)
                line = "listener %d 127.0.0.1" % port
            elif key == "password_file":
                line = "password_file " + os.path.join(folder, "passwd")
                if users is None:
                    continue
            elif key == "acl_file":
                if users is None or acl is None:
                    continue
                line = "acl_file " + acl
            elif key == "allow_anonymous" and users is None:
                line = "allow_anonymous true"
            elif key == "use_username_as_clientid" and users is None:
                continue  # an anonymous client has no user name to take
            conf.append(line)
        if users is not None:
            pw = os.path.join(folder, "passwd")
            open(pw, "w").close()
            for name, password in users.items():
                subprocess.run([_which("mosquitto_passwd"), "-b", pw, name, password],
                               check=True, capture_output=True)
            os.chmod(pw, 0o600)
        self.conf = os.path.join(folder, "mosquitto.conf")
        with open(self.conf, "w") as f:
            f.write("\n".join(conf) + "\n" + extra)

    def start(self):
        self.proc = subprocess.Popen([_which("mosquitto"), "-c", self.conf],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("mosquitto exited: %s" % self.proc.stderr.read().decode())
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not listen on %d" % self.port)

    def kill(self):
        """kill -9: no goodbye to anyone, nothing saved."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def log(self):
        try:
            with open(os.path.join(self.folder, "log")) as f:
                return f.read()
        except OSError:
            return ""

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
