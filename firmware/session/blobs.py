"""Reading the settings and statistics blobs: at the boot, for the statistics screen and a new
match's number. Session (session/__init__.py) loads this module for those moments, keeps what it
returns and drops the module: on the board its code would otherwise stay in the heap while
the match is played.
"""

import json


def load(store, name):
    """The blob `name` of the store as a dict ({} if none or damaged)."""
    text = store.load_blob(name)
    if text is not None:
        try:
            obj = json.loads(text)
            if isinstance(obj, dict):
                return obj
        except ValueError:
            pass
    return {}
