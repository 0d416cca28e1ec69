"""The club's broker as the host side reaches it: "host:port", the password file, and a paho
client connected with them (the director and the terminal view; the service builds its own
durable client from the same pieces)."""

import paho.mqtt.client as mqtt


def hostport(text, default=1883):
    """("host", port) from "host:port" (either part may be left out)."""
    host, _, port = text.rpartition(":")
    return host or "127.0.0.1", int(port or default)


def password(path):
    """The password a file holds, or None without a file (kept out of the command line)."""
    if not path:
        return None
    with open(path) as f:
        return f.read().strip()


def connect(a, client_id):
    """A client connected to a.broker as a.user (a.password_file), its network loop running."""
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                    protocol=mqtt.MQTTv311)
    if a.user:
        c.username_pw_set(a.user, password(a.password_file))
    c.connect(*hostport(a.broker))
    c.loop_start()
    return c
