"""Check a board file (boards/*.json, board.json on the board) before anything is wired up.

Shared by the host (tools/deploy.py refuses to deploy a bad file) and the board (main.py
checks board.json at boot). Runs on CPython and MicroPython; imports only compat.py's
const, which is resident on the board anyway.

    errors(cfg)              # list of messages, empty = good; changes nothing
    display_errors(cfg)      # only the display part: can the panel show the errors?

The format:

    {"name": "...",
     "display": {"chip": "ssd1306" | "sh1106", "sda": pin, "scl": pin,
                 "addr": 60 | 61 | "0x3C" | "0x3D", "freq": Hz, "reset": pin | null,
                 "rotate": false}
             or {"bus": "spi", "chip": ..., "sck": pin, "mosi": pin, "dc": pin, "cs": pin,
                 "reset": pin | null, "freq": Hz, "rotate": false},
     "keys": {"type": "keypad", "rows": [pins], "cols": [pins], "layout": "123A/456B/789C/*0#D"}
          or {"type": "buttons", "pins": {"UP": pin, "DOWN": pin, "OK": pin, "BACK": pin}},
     "buzzer": pin | null,
     "wake": true | false,
     "wifi": true | false,
     "battery": {"mAh": 2000, "V": 3.7, "kind": "18650 Li-ion",
                 "adc": pin, "divider": 3.2, "adc_on": pin},
     "watchdog": ms,
     "supply": {"iq_mA": 5.0, "led_mA": 1.0}}

"bus" is "i2c" (the default) or "spi" (the 7-pin modules: D0 = sck, D1 = mosi, DC, CS, RES =
reset). chip, sda and scl are required on I2C, chip, sck, mosi, dc and cs on SPI; addr
defaults to 0x3C, freq to 400 kHz on I2C and 4 MHz on SPI (at most 10 MHz for the SSD1306,
4 MHz for the SH1106, their datasheets' shortest clock cycles).
"wake": keys may end a light sleep (a GPIO wake source; main.py falls back to short naps
when the firmware cannot set one up).
"battery" (optional): the cell the board runs from, for the hours of play that `make bench`
reports (tools/battery.py). mAh and V are required (mAh 50-100000, V 1-24), kind is an
optional label. "adc" (optional): the pin that reads the cell through a divider, for the
battery gauge (hw/gauge.py): an ADC1 pin (32-39; ADC2 cannot be read while WiFi is on);
"divider" (required with it, 1-10): the cell's voltage over the pin's; "adc_on" (optional):
an output driven low to connect a divider the board switches (the Heltec's).
"watchdog" (optional): the watchdog's timeout in ms (2000-60000; 0: none; startup.py's
_WATCHDOG_MS, 8 s, when absent).
"supply" (optional): what the board draws besides the chip and the panel, for the hours of
play only (tools/battery.py): the regulator's quiescent current "iq_mA" and the power LED's
current "led_mA" (0: none, or removed), both required with it, each 0-50 mA.

Pins are ESP32 (WROOM-32 / WROVER) GPIO numbers. The rules:
- GPIO 0-5, 12-19, 21-23, 25-27, 32-39 exist; 6-11 are the module's flash.
- 34-39 are input-only and have no internal pull-up: not for I2C, SPI, reset, buzzer, keypad
  rows (outputs) nor keypad columns or buttons (which need the pull-up).
- 0, 2, 12, 15 are strapping pins: a key held at power-on can stop the boot or set the
  wrong flash voltage, so no key may use them.
- 1 and 3 are the serial console (TX/RX) that the REPL and deploying use.
- No pin may serve two purposes.
"""

from compat import const

# Constants folded in by the compiler: no globals, and no names interned for good by a
# module that runs once at boot.
_VALID = const("0-5, 12-19, 21-23, 25-27, 32-39")
_STRAPPING = const((0, 2, 12, 15))
_CHIPS = const(("ssd1306", "sh1106"))
_BUSES = const(("i2c", "spi"))
_ADDRS = const((0x3C, 0x3D))
_BUTTONS = const(("UP", "DOWN", "OK", "BACK"))
_KEY_NAMES = const("0123456789ABCD*#")
_DEFAULT_LAYOUT = const("123A/456B/789C/*0#D")
_FREQ_MIN = const(10000)
_FREQ_MAX = const(1000000)
_SPI_FREQ_MIN = const(100000)
_SPI_FREQ_MAX_SSD1306 = const(10000000)
_SPI_FREQ_MAX_SH1106 = const(4000000)

# The top level's fields and the battery's, split at run time: the names only the check
# knows ("battery", "mAh", "kind") are then never interned for good in the board's heap.
_TOP = const("name display keys buzzer wake wifi battery watchdog supply")
_BATTERY = const("mAh V kind adc divider adc_on")
_SUPPLY = const("iq_mA led_mA")
_CELL = const(((50, 100000, "a capacity in mAh"), (1, 24, "a cell voltage in V")))
_DISPLAY = const(("bus", "chip", "sda", "scl", "addr", "freq", "reset", "rotate"))
_DISPLAY_SPI = const(("bus", "chip", "sck", "mosi", "dc", "cs", "freq", "reset", "rotate"))
_KEYPAD = const(("type", "rows", "cols", "layout"))
_BUTTONS_FIELDS = const(("type", "pins"))

# Roles: what a pin must be able to do.
_OUT = const(0)  # push-pull or open-drain output (keypad row, reset, buzzer)
_I2C = const(1)  # I2C line (open-drain output)
_PULL = const(2)  # input with the internal pull-up (keypad column, button)
_ADC = const(3)  # analog input on ADC1 (the battery's sense pin)


def address(value):
    """The I2C address from a board file value (60, 61, "0x3C", "0x3D"); None if invalid."""
    if type(value) is int:
        return value
    if type(value) is str:
        try:
            return int(value, 16)
        except ValueError:
            return None
    return None


class _Check:
    def __init__(self):
        self.errors = []
        self.uses = []  # (pin, where) of every valid pin, for the duplicate check

    def err(self, msg):
        self.errors.append(msg)

    def fields(self, where, d, allowed, required):
        """Unknown and missing fields of the object d; False if d is not an object."""
        if type(d) is not dict:
            self.err(where + ": must be an object {...}" if where
                     else "the board file must be a JSON object {...}")
            return False
        prefix = where + ": " if where else ""
        for k in d:
            if k not in allowed:
                self.err("%sunknown field '%s' (allowed: %s)" % (prefix, k, ", ".join(allowed)))
        for k in required:
            if k not in d:
                self.err("%smissing field '%s'" % (prefix, k))
        return True

    def pin(self, where, v, role, key=False):
        if type(v) is not int:  # JSON true/false are not pin numbers
            self.err("%s: %r is not a pin number" % (where, v))
            return
        if 6 <= v <= 11:
            self.err("%s: pin %d is wired to the flash chip (GPIO 6-11); use another pin"
                     % (where, v))
            return
        # The GPIOs the ESP32 brings out (flash pins 6-11 excluded above).
        if not (0 <= v <= 5 or 12 <= v <= 19 or 21 <= v <= 23 or 25 <= v <= 27 or 32 <= v <= 39):
            self.err("%s: pin %d does not exist on the ESP32 (valid: %s)" % (where, v, _VALID))
            return
        self.uses.append((v, where))
        if role == _ADC:
            if v < 32:
                self.err("%s: pin %d is not on ADC1 (32-39; ADC2 cannot be read while WiFi is "
                         "on)" % (where, v))
        elif v >= 34:
            if role == _PULL:
                self.err("%s: pin %d is input-only (34-39) and has no internal pull-up"
                         % (where, v))
            elif role == _I2C:
                self.err("%s: pin %d is input-only (34-39) and cannot drive I2C" % (where, v))
            else:
                self.err("%s: pin %d is input-only (34-39) and cannot be an output"
                         % (where, v))
        if key and v in _STRAPPING:
            self.err("%s: pin %d is a strapping pin (0, 2, 12, 15): a key held at power-on "
                     "can stop the board from booting" % (where, v))
        if v == 1 or v == 3:
            self.err("%s: pin %d is the serial console (%s) used by the REPL and deploy"
                     % (where, v, "TX" if v == 1 else "RX"))

    def display(self, d):
        spi = type(d) is dict and d.get("bus") == "spi"
        if spi:
            ok = self.fields("display", d, _DISPLAY_SPI, ("chip", "sck", "mosi", "dc", "cs"))
        else:
            ok = self.fields("display", d, _DISPLAY, ("chip", "sda", "scl"))
        if not ok:
            return
        if "bus" in d and d["bus"] not in _BUSES:
            self.err("display.bus: unknown bus %r (i2c or spi)" % (d["bus"],))
        chip = d.get("chip")
        if "chip" in d and chip not in _CHIPS:
            self.err("display.chip: unknown chip %r (ssd1306 or sh1106)" % (chip,))
        # SPI: every line is an output of the ESP32 (the panel sends nothing back).
        for name in ("sck", "mosi", "dc", "cs") if spi else ("sda", "scl"):
            if name in d:
                self.pin("display." + name, d[name], _OUT if spi else _I2C)
        if "addr" in d:
            a = address(d["addr"])
            if a not in _ADDRS:
                self.err("display.addr: %r is not an OLED address (0x3C or 0x3D)" % (d["addr"],))
        if "freq" in d:
            f = d["freq"]
            if spi:
                # An unknown chip (reported above) gets the lower of the two limits.
                name = chip if chip in _CHIPS else "sh1106"
                top = _SPI_FREQ_MAX_SSD1306 if name == "ssd1306" else _SPI_FREQ_MAX_SH1106
                if type(f) is not int or not _SPI_FREQ_MIN <= f <= top:
                    self.err("display.freq: %r is not an SPI clock in Hz for the %s (%d-%d)"
                             % (f, name, _SPI_FREQ_MIN, top))
            elif type(f) is not int or not _FREQ_MIN <= f <= _FREQ_MAX:
                self.err("display.freq: %r is not a bus speed in Hz (%d-%d)"
                         % (f, _FREQ_MIN, _FREQ_MAX))
        if d.get("reset") is not None:
            self.pin("display.reset", d["reset"], _OUT)
        if "rotate" in d and type(d["rotate"]) is not bool:
            self.err("display.rotate: must be true or false")

    def pin_list(self, where, v, role):
        if type(v) is not list or not v:
            self.err("%s: must be a list of pins" % where)
            return 0
        for i in range(len(v)):
            self.pin("%s[%d]" % (where, i), v[i], role, key=True)
        return len(v)

    def keys(self, k):
        if type(k) is not dict:
            self.err("keys: must be an object {...}")
            return
        kind = k.get("type")
        if kind == "keypad":
            if not self.fields("keys", k, _KEYPAD, ("type", "rows", "cols")):
                return
            rows = self.pin_list("keys.rows", k.get("rows"), _OUT) if "rows" in k else 0
            cols = self.pin_list("keys.cols", k.get("cols"), _PULL) if "cols" in k else 0
            self.layout(k.get("layout", _DEFAULT_LAYOUT), rows, cols)
        elif kind == "buttons":
            if not self.fields("keys", k, _BUTTONS_FIELDS, ("type", "pins")):
                return
            pins = k.get("pins")
            if pins is None:
                return
            if not self.fields("keys.pins", pins, _BUTTONS, _BUTTONS):
                return
            for name in _BUTTONS:
                if name in pins:
                    self.pin("keys.pins." + name, pins[name], _PULL, key=True)
        else:
            self.err("keys.type: unknown type %r (keypad or buttons)" % (kind,))

    def layout(self, layout, rows, cols):
        if type(layout) is not str:
            self.err("keys.layout: must be a string like %r" % _DEFAULT_LAYOUT)
            return
        lines = layout.split("/")
        if rows and len(lines) != rows:
            self.err("keys.layout: %d rows of keys for %d row pins" % (len(lines), rows))
        for i in range(len(lines)):
            if cols and len(lines[i]) != cols:
                self.err("keys.layout: row %d has %d keys for %d column pins"
                         % (i + 1, len(lines[i]), cols))
        seen = ""
        for ch in layout:
            if ch == "/":
                continue
            if ch not in _KEY_NAMES:
                self.err("keys.layout: unknown key %r (keys are %s)" % (ch, _KEY_NAMES))
            elif ch in seen:
                self.err("keys.layout: key %r appears twice" % (ch,))
            seen += ch
        for ch in "*#":
            if ch not in layout:
                self.err("keys.layout: key %r is missing (undo and OK need it)" % (ch,))

    def duplicates(self):
        done = []
        for pin, _ in self.uses:
            if pin in done:
                continue
            done.append(pin)
            where = [w for p, w in self.uses if p == pin]
            if len(where) > 1:
                self.err("pin %d is used %s: %s" % (
                    pin, "twice" if len(where) == 2 else "%d times" % len(where),
                    " and ".join(where)))


def errors(cfg):
    """Every problem of a board file (parsed JSON) as a message; [] when it is good."""
    c = _Check()
    top = _TOP.split()
    if not c.fields("", cfg, top, ("name", "display", "keys")):
        return c.errors
    if "name" in cfg and (type(cfg["name"]) is not str or not cfg["name"]):
        c.err("name: must be a non-empty string")
    if "display" in cfg:
        c.display(cfg["display"])
    if "keys" in cfg:
        c.keys(cfg["keys"])
    if cfg.get("buzzer") is not None:
        c.pin("buzzer", cfg["buzzer"], _OUT)
    if "wake" in cfg and type(cfg["wake"]) is not bool:
        c.err("wake: must be true or false")
    if "wifi" in cfg and type(cfg["wifi"]) is not bool:
        c.err("wifi: must be true or false")  # true: club night (club.json, net/)
    if top[6] in cfg:  # "battery": the cell, for the bench's hours of play only
        b = cfg[top[6]]
        names = _BATTERY.split()
        sense = type(b) is dict and names[3] in b
        if c.fields(top[6], b, names, names[:2] + names[4:5] * sense):
            if names[3] in b:  # "adc": the gauge's sense pin, its divider, its switch
                c.pin("battery.adc", b[names[3]], _ADC)
                v = b.get(names[4])
                if v is not None and (type(v) not in (int, float) or not 1 <= v <= 10):
                    c.err("battery.divider: %r is not a divider ratio (1-10)" % (v,))
            if b.get(names[5]) is not None:
                c.pin("battery.adc_on", b[names[5]], _OUT)
            for i in range(3):
                k = names[i]
                if k not in b:
                    continue
                v = b[k]
                if i == 2:
                    if type(v) is not str or not v:
                        c.err("battery.kind: must be a non-empty string")
                    continue
                lo, hi, what = _CELL[i]
                # JSON true/false are no numbers here (bool is an int on CPython)
                if type(v) not in (int, float) or not lo <= v <= hi:
                    c.err("battery.%s: %r is not %s (%d-%d)" % (k, v, what, lo, hi))
    if top[7] in cfg:  # "watchdog": ms
        v = cfg[top[7]]
        if type(v) is not int or not (v == 0 or 2000 <= v <= 60000):
            c.err("watchdog: %r is not a timeout in ms (2000-60000, or 0 for none)" % (v,))
    if top[8] in cfg:  # "supply": the regulator's and the power LED's mA, for the bench only
        b = cfg[top[8]]
        names = _SUPPLY.split()
        if c.fields(top[8], b, names, names):
            for k in names:
                v = b.get(k, 0)  # (a missing one is reported above)
                if type(v) not in (int, float) or not 0 <= v <= 50:
                    c.err("supply.%s: %r is not a current in mA (0-50)" % (k, v))
    c.duplicates()
    return c.errors


def display_errors(cfg):
    """Problems of the display part alone: [] means the panel can be started (to show the
    other problems on it)."""
    if type(cfg) is not dict or "display" not in cfg:
        return ["missing field 'display'"]
    c = _Check()
    c.display(cfg["display"])
    c.duplicates()
    return c.errors


def load(path):
    """(cfg, errors) for a board file; cfg is None when it cannot be read or parsed. The
    checked cfg comes without "supply": that is for the bench's hours of play alone
    (tools/battery.py reads the file itself), and the board holds cfg all evening."""
    import json

    try:
        with open(path) as f:
            cfg = json.load(f)
    except OSError:
        return None, ["%s: cannot be read" % path]
    except ValueError as e:
        return None, ["%s: not valid JSON (%s)" % (path, e)]
    found = errors(cfg)
    if type(cfg) is dict:
        cfg.pop(_TOP.split()[8], None)  # "supply" (a name never interned on the board)
    return cfg, found
