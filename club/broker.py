"""The club's broker as the host side reaches it: "host:port", the password file, and a paho
client connected with them (the director and the terminal view; the service builds its own
durable client from the same pieces).

connect() returns only once the broker has let the client in; anything else is a
CannotConnect whose text says what went wrong in one line (no broker at that address, the
login refused, an unreadable password file), which the commands print instead of a
traceback (club/director.py exits 3 with it)."""

import threading

import paho.mqtt.client as mqtt


class CannotConnect(Exception):
    """The broker cannot be reached, or refused the login: args[0] says which."""


def hostport(text, default=1883):
    """("host", port) from "host:port" (either part may be left out); ValueError for a
    port that is not a number."""
    host, _, port = text.rpartition(":")
    if port and not port.isdigit():
        raise ValueError("host:port, the port a number: %s" % text)
    return host or "127.0.0.1", int(port or default)


def password(path):
    """The password a file holds, or None without a file (kept out of the command line)."""
    if not path:
        return None
    with open(path) as f:
        return f.read().strip()


def connect(a, client_id, timeout=10):
    """A client connected to a.broker as a.user (a.password_file), its network loop running;
    raises CannotConnect when it cannot be."""
    try:
        host, port = hostport(a.broker)
    except ValueError as e:
        raise CannotConnect("--broker: %s" % e) from None
    try:
        secret = password(a.password_file)
    except OSError as e:
        raise CannotConnect("cannot read the password file %s: %s"
                            % (a.password_file, e.strerror or e)) from None
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                    protocol=mqtt.MQTTv311)
    if a.user:
        c.username_pw_set(a.user, secret)
    answered = threading.Event()
    box = {}

    def on_connect(client, userdata, flags, reason, properties):
        box["reason"] = reason
        answered.set()

    c.on_connect = on_connect
    try:
        c.connect(host, port)
    except (OSError, ValueError) as e:
        raise CannotConnect("cannot reach the broker at %s:%d: %s"
                            % (host, port, getattr(e, "strerror", None) or e)) from None
    c.loop_start()
    if not answered.wait(timeout) or box["reason"].is_failure:
        c.loop_stop()
        c.disconnect()
        if not answered.is_set():
            raise CannotConnect("the broker at %s:%d did not answer the login in %g s"
                                % (host, port, timeout))
        raise CannotConnect("the broker at %s:%d refused the login as %s: %s (the password?)"
                            % (host, port, a.user, box["reason"]))
    return c
