"""What `make run` does: deploy to an ESP32 on USB, or start the simulator.

    python tools/find_board.py [BOARD] [PORT]

Prints the make goal and its variables on one line, e.g. `deploy BOARD=... PORT=...` or
`sim`, and on stderr one line saying why. A board counts as attached only when a serial
port's USB vendor and product ids (as `mpremote connect list` prints them) are those of
a USB-serial chip that ESP32 boards carry; any other serial device (a modem, a built-in
ttyS0, a phone) leaves the simulator in charge. BOARD, or a PORT other than `auto`, says
the user means a board, so it deploys whatever is found.
"""

import sys

DEFAULT_BOARD = "devkitc-ssd1306-keypad"

# (vendor id, product id): the chip, and boards known to carry it.
ESP32_USB_SERIAL = {
    (0x10C4, 0xEA60): "Silicon Labs CP210x (DevKitC, Heltec WiFi Kit 32)",
    (0x1A86, 0x7523): "WCH CH340 (Wemos Lolin32, many clones)",
    (0x1A86, 0x55D4): "WCH CH9102 (recent DevKitC V4)",
    (0x1A86, 0x55D3): "WCH CH343",
    (0x0403, 0x6010): "FTDI FT2232 (ESP-WROVER-KIT)",
}


def esp32_ports(ports):
    """The ports (pyserial ListPortInfo or alike) whose USB ids are an ESP32's bridge."""
    return [p for p in ports if (p.vid, p.pid) in ESP32_USB_SERIAL]


def decide(board, port, ports):
    """The make goal with its variables, and the reason, for BOARD, PORT and the ports seen.

    board and port are what the user gave ("" for nothing; port "auto" is nothing too).
    """
    found = esp32_ports(ports)
    port = "" if port == "auto" else port
    if found:
        chip = ESP32_USB_SERIAL[(found[0].vid, found[0].pid)]
        why = "an ESP32 (%s) on %s" % (chip, found[0].device)
    else:
        why = "no ESP32 USB-serial chip attached"
    if not (board or port or found):
        return ["sim"], why + ": the simulator"
    target = port or (found[0].device if found else "auto")
    if board or port:
        why = "asked for a board; " + why
    return ["deploy", "BOARD=" + (board or DEFAULT_BOARD), "PORT=" + target], why + ": deploy"


def serial_ports():
    """The serial ports pyserial sees (mpremote's own dependency); none without it."""
    try:
        from serial.tools.list_ports import comports
    except ImportError:
        return []
    return comports()


def main(argv):
    board = argv[1] if len(argv) > 1 else ""
    port = argv[2] if len(argv) > 2 else ""
    goal, why = decide(board, port, serial_ports())
    sys.stderr.write("make run: " + why + "\n")
    print(" ".join(goal))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
