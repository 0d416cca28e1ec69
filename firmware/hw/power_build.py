"""Building the idle policy (hw/power.py's Power): boot-only code, apart from the policy.

start.py builds the board's Power with it at boot and drops it again; on the board every
module's code is heap, and the construction never runs again before the next boot.
"""

from hw.power import AWAKE, Power


def make_power(display, settings=None, machine=None, wake=None):
    """Power for `display` (see Power for the arguments), configured from `settings`."""
    p = Power()
    p._display = display
    p._lightsleep = getattr(machine, "lightsleep", None) if machine else None
    p._deepsleep = getattr(machine, "deepsleep", None) if machine else None
    # A wake source only helps when sleep() can use lightsleep (which it ends early).
    p._can_wake = bool(wake) and p._lightsleep is not None
    p._deep_ok = bool(wake) and p._deepsleep is not None
    p._arm = wake if callable(wake) else None
    p.state = AWAKE
    p._low = False
    p._off = False
    p._last = 0
    p._held = False
    p._woke = False
    p._nap = False
    p.wakeups = 0
    p.lightsleeps = 0
    p.deepsleeps = 0
    p.deep_failed = False
    p.configure(settings)
    return p
