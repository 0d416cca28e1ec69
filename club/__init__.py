"""Club night on the host: the standings service, the director, the terminal view and the
Mosquitto configs (docs/club.md)."""
