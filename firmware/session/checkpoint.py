"""The match written as a checkpoint now (the journal's lines folded in), so the next boot
has nothing to replay: before a deep sleep on an empty cell (ui/app_cell.py). Loaded for
that moment only (the loader's "gauge" job)."""


def write(session):
    """Every action is on flash already: a failed write loses nothing."""
    import session as pkg

    m = session.match
    if m.state is None:
        return
    try:
        session.store.checkpoint(session._summary(m, session.match_id))
    except (OSError, ValueError):
        pass
    finally:
        pkg._drop_saved()
