"""The broker's logins as the director's commands and the service check a table id.

A table's id is its login and the second level of its topics (club/<table>/...). The
service's own programs have logins and topics there too (club/mosquitto/acl): a table
seated as `standings` would have its seating retained on club/standings/seat, inside the
standings every reader joins. So a table id may be none of the ACL's own names (every
`user` and every club/<name>/ of its `topic` lines) and no viewer login (viewer,
viewer2, ...). The password file (Mosquitto's, venue.passwd) says which tables have a
login at all: a table without one can never connect.
"""

import os

from net import wire
from paho.mqtt.client import topic_matches_sub

ACL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mosquitto", "acl")
PASSWD = "venue.passwd"  # docs/club.md makes it in the folder the broker starts in
VIEWERS = "viewer"  # every viewer login starts so (viewer, viewer2, ... viewer9)


def service_logins(acl=ACL):
    """The names the ACL gives the service's programs: its `user` lines and the
    club/<name>/ of its `topic` lines (standings, director, service, fleet, viewer...)."""
    names = {"standings", "director", "service", "fleet", VIEWERS}
    try:
        with open(acl) as f:
            lines = f.read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        words = line.split()
        if len(words) >= 2 and words[0] == "user":
            names.add(words[1])
        elif len(words) >= 3 and words[0] == "topic":
            parts = words[-1].split("/")
            if len(parts) > 1 and parts[0] == "club" and parts[1] not in ("+", "#"):
                names.add(parts[1])
    return names


def standings_readers(acl=ACL):
    """The logins the ACL lets read the standings (club/standings/#): those whose `user`
    block reads it; None when a `pattern` line lets every login read it."""
    readers, user = set(), None
    try:
        with open(acl) as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        words = line.split()
        if len(words) >= 2 and words[0] == "user":
            user = words[1]
        elif len(words) >= 3 and words[0] in ("topic", "pattern") and words[1] in (
                "read", "readwrite") and all(topic_matches_sub(words[2], t) for t in (
                    wire.STANDINGS, wire.STANDINGS + "/0")):
            if words[0] == "pattern":
                return None
            readers.add(user)
    return readers


def not_a_table(table, acl=ACL):
    """Why `table` cannot be a table's id, or None."""
    if table.lower().startswith(VIEWERS) or table in service_logins(acl):
        return ("%s is a login of the club's own programs (club/mosquitto/acl: the "
                "service, the director, the viewers), not a table: give each table a "
                "login of its own, e.g. t01" % table)
    return None


def without_login(tables, passwd):
    """The tables with no line in the Mosquitto password file `passwd` (OSError when it
    cannot be read)."""
    with open(passwd) as f:
        users = {line.split(":", 1)[0] for line in f if ":" in line}
    return [t for t in tables if t not in users]
