"""Updates over WiFi (docs/boards.md, "Updates over WiFi"): the boot's choice of the
firmware's folder (slots.py), and the update job (job.py over take.py and sign.py), loaded
only while an update runs."""
