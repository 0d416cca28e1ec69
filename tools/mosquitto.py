"""A real Mosquitto on a free 127.0.0.1 port, for the club tests and figures.

    with Broker(folder, users={"t01": "pw", ...}) as b:   # b.port, b.kill(), b.start()

The broker gets the project's own ACL (club/mosquitto/acl) and a password file made with
mosquitto_passwd, and the same security settings as club/mosquitto/venue.conf; only the
ports and folders differ. kill() is kill -9 (in-memory state since the last autosave is
lost, as in a power cut); start() again on the same folder brings the persisted state back.
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


def missing():
    """Why no broker can start here, or None."""
    for tool in ("mosquitto", "mosquitto_passwd"):
        if not shutil.which(tool) and not os.path.exists("/usr/sbin/" + tool):
            return "Debian's mosquitto is not installed (apt-get install mosquitto)"
    return None


def _which(tool):
    return shutil.which(tool) or "/usr/sbin/" + tool


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
        self.ws_port = free_port() if websockets else None
        self.proc = None
        # Started as root (CI), Mosquitto would switch to the user "mosquitto", who cannot
        # read this folder: stay who we are.
        conf = ["user " + getpass.getuser(), "per_listener_settings false", "persistence true",
                "persistence_location %s/" % folder, "autosave_interval 1",
                "max_queued_messages 100000", "log_dest file %s/log" % folder,
                "log_type error", "log_type warning", "log_type notice",
                "listener %d 127.0.0.1" % self.port]
        if self.ws_port:
            conf += ["listener %d 127.0.0.1" % self.ws_port, "protocol websockets"]
        if users is None:
            conf.insert(0, "allow_anonymous true")
        else:
            pw = os.path.join(folder, "passwd")
            open(pw, "w").close()
            for name, password in users.items():
                subprocess.run([_which("mosquitto_passwd"), "-b", pw, name, password],
                               check=True, capture_output=True)
            os.chmod(pw, 0o600)
            conf[:0] = ["allow_anonymous false", "password_file " + pw]
            if acl:
                conf.insert(2, "acl_file " + acl)
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
