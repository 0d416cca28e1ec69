"""The App's answer to the club link's one question, at boot: the match it follows.

Apart from ui/app.py so that its bytecode is in the heap only while the boot wires the
club link (loader.py's "boot" job), not all evening as a method of App would be.
"""


def session_of(app):
    """The Session the club link (net/clublink.py) follows (its changes) and seats (its
    new_match starts a seated round)."""
    return app.session
