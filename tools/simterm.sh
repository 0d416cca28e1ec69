#!/bin/sh
# Run the interactive simulator (make sim: this script, then the command it is given) and put
# the terminal's settings back however it ends.
#
# tools/sim.py puts the terminal in raw mode and restores it when it quits (x, Ctrl-C, a
# SIGINT). The MicroPython unix port has no signal module, so a SIGTERM or SIGHUP ends the
# process with the terminal still raw; this shell keeps the settings (stty -g) and restores
# them once the command has ended, whatever ended it, itself included.

saved=
if [ -t 0 ]; then
    saved=$(stty -g)
fi

restore() {
    if [ -n "$saved" ]; then
        stty "$saved" 2>/dev/null
    fi
}

# A signal that reaches this shell too (a closed terminal, kill of the process group) is
# handled once the command has ended: restore, then end as the signal would have.
trap 'restore; exit 129' HUP
trap 'restore; exit 130' INT
trap 'restore; exit 143' TERM

"$@"
status=$?
restore
exit $status
