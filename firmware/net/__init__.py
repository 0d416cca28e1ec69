"""Club night: the table's results to the club's MQTT broker.

Loaded only on a board with WiFi and a club file (parts.make_club)."""
