"""The settings and statistics blobs: read at the boot, for the statistics screen and a new
match's number; written when the settings change and at a match's end (app/stats.py).
Session (app/session.py) loads this module for those moments and drops it after: on the
board its code would otherwise stay in the heap while the match is played.
"""

import json


def _load(session, name):
    """The blob as a dict ({} if none or damaged)."""
    text = session.store.load_blob(name)
    if text is not None:
        try:
            obj = json.loads(text)
            if isinstance(obj, dict):
                return obj
        except ValueError:
            pass
    return {}


def load_settings(session):
    """Session.load_settings."""
    if session._settings is None:
        session._settings = _load(session, "settings")
    return dict(session._settings)


def save_settings(session, settings, dumps):
    """Session.save_settings."""
    if session._settings is None:
        session._settings = _load(session, "settings")
    if settings == session._settings:
        return False
    session.store.save_blob("settings", dumps(settings))
    session._settings = dict(settings)
    return True


def stats(session):
    """The stats blob as a dict, read once per session."""
    if session._stats is None:
        session._stats = _load(session, "stats")
    return session._stats


def load_stats(session):
    """Session.load_stats."""
    return stats(session).get("players") or {}


def last_match(session):
    """The number of the last match the statistics counted (0: none)."""
    return stats(session).get("last", 0)
