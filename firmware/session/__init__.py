"""The match as the device keeps it: the Session (session/keeper.py), its rebuild at boot
(restore.py), the settings and statistics blobs (blobs.py, stats.py)."""
