"""Club night on the host: the standings service, the director, the terminal view and the
Mosquitto configs (docs/club.md).

The club's messages and a player's name are the firmware's own (firmware/net/wire.py,
firmware/sixtysix/names.py): firmware/ goes on the path here, after everything else."""

import os
import sys

_FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
if _FIRMWARE not in sys.path:
    sys.path.append(_FIRMWARE)
