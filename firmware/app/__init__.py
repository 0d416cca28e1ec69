"""The application: the match as the device keeps it, settings, statistics."""
