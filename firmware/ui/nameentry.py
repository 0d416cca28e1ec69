"""Player names for a new match: the players' list, a name picked from the recent ones,
and the name editor. Loaded when the new-match list opens it, dropped on the way home.

A name is up to MAX letters (sixtysix/names.py: a player's name, one definition for the
table and the club) of Latin with ä ö ü ß, Cyrillic with the Ukrainian letters, and
digits; it goes into the match's `new` line (names=Ann,Олег), so it is part of the match,
in the journal and its summary. The recent names (newest first, at most RECENT) are one
blob on flash, "names": the names separated by commas.
"""

from sixtysix.names import MAX
from ui import keymap
from ui.i18n import t
from ui.lists import List, bind
from ui.screen import LINE, Screen, W

RECENT = 8  # names kept in the recent list
# Keypad multi-tap, as on a phone: key 2-9 (and 0, 1) cycles through its letters, then its
# digit. Latin, then Cyrillic (key A switches).
KEYS = (("0", "1", "abcä2", "def3", "ghi4", "jkl5", "mnoö6", "pqrsß7", "tuvü8", "wxyz9"),
         ("0", "1", "абвгґ2", "деєёжз3", "иіїйкл4", "мноп5", "рсту6", "фхцч7", "шщъы8",
          "ьэюя9"))


def upper(ch):
    """The capital of a letter of the tables above (MicroPython's str.upper is ASCII only)."""
    o = ord(ch)
    if 0x61 <= o <= 0x7A or 0xE0 <= o <= 0xFE or 0x430 <= o <= 0x44F:
        o -= 32
    elif 0x450 <= o <= 0x45F:
        o -= 80
    elif o == 0x491:
        o = 0x490
    return chr(o)


def recent(app):
    """The recent names, newest first."""
    return [n for n in app.names().split(",") if n]


def remember(app, names):
    """Put a new match's names first in the recent list (a failed write is shown)."""
    old = recent(app)
    new = [n for n in names if not n.isdigit()]
    if not new:
        return
    keep = new + [n for n in old if n not in new]
    text = ",".join(keep[:RECENT])
    if text != ",".join(old):
        app.names(text)


def taken(names, seat, name):
    """True if `name` cannot be seat's: another seat shows the same name."""
    for i in range(len(names)):
        if i != seat and (names[i] or str(i + 1)) == name:
            return True
    return False


class Players(List):
    """One item per seat ("1: Ann"); picking a seat offers the recent names, a new name
    or none (the seat number). `owner` keeps the names: a list, "" for no name, and
    update() to show them."""

    def __init__(self, owner):
        self.owner = owner
        List.__init__(self, t("players"), self._items())

    def _items(self):
        names = self.owner.names
        return [(str(i + 1) + ": " + (names[i] or "\u2013"), bind(self._seat, i))
                for i in range(len(names))]

    def _seat(self, app, seat):
        names = self.owner.names
        items = []  # type: list
        for n in recent(app):
            if not taken(names, seat, n) and n != names[seat]:
                items.append((n, bind(self._set, (seat, n))))
        items.append((t("new name"), lambda a: a.push(Editor(self, seat, names[seat]))))
        items.append((t("no name"), bind(self._set, (seat, ""))))
        app.push(List(t("player") + " " + str(seat + 1), items))

    def _set(self, app, pair):
        """Give the seat its name and go back to the players' list."""
        seat, name = pair
        if name and taken(self.owner.names, seat, name):
            app.refuse("same_name")  # as the core refuses it: the editor stays, the name typed
            return False
        while app.screen is not self:
            app.pop()
        self.owner.names[seat] = name
        self.owner.update()
        self.items = self._items()
        return True


class Editor(Screen):
    """A name typed with the device's keys.

    Keypad: 2-9, 0, 1 type letters as on a phone (the same key again: the next letter of
    that key; another key: a new letter; B: the next letter from the same key), A switches
    Latin and Cyrillic, * deletes, # takes the name. Four buttons: UP/DOWN turn a wheel of
    letters, digits, the other alphabet and "done"; OK takes what the wheel shows, BACK
    deletes. The first letter is a capital, the others small."""

    key_mode = keymap.NUMBER_KEYS

    def __init__(self, players, seat, name):
        self.players = players
        self.seat = seat
        self.name = name
        self.abc = 0  # 0 Latin, 1 Cyrillic
        self.key = -1  # keypad: the key whose letter is still being chosen
        self.tap = 0
        self.wheel = 2  # four buttons: 0 done, 1 the other alphabet, then letters, digits

    def _letters(self):
        return "".join(KEYS[self.abc][2:]) + "0123456789"

    def _case(self, ch):
        return upper(ch) if not self.name else ch

    def act(self, app, action, arg):
        if action == keymap.BACK:
            self.key = -1
            if not self.name:
                app.pop()
            self.name = self.name[:-1]
        elif action == keymap.MENU:
            app.home()
        elif app.layout == keymap.KEYPAD:
            self._keypad(app, action, arg)
        elif action in (keymap.UP, keymap.DOWN):
            n = len(self._letters()) + 2
            self.wheel = (self.wheel + (1 if action == keymap.DOWN else -1)) % n
        elif action == keymap.OK:
            if self.wheel == 0:
                self._done(app)
            elif self.wheel == 1:
                self.abc ^= 1
            elif len(self.name) < MAX:
                self.name += self._case(self._letters()[self.wheel - 2])
            else:
                app.say(t("name max"))

    def _keypad(self, app, action, arg):
        if action == keymap.PICK:
            keys = KEYS[self.abc][arg]
            if arg == self.key:  # the same key again: its next letter in the same place
                self.tap = (self.tap + 1) % len(keys)
                was = self.name[:-1]
                self.name = was + (upper(keys[self.tap]) if not was else keys[self.tap])
            elif len(self.name) < MAX:
                self.key = arg
                self.tap = 0
                self.name += self._case(keys[0])
            else:
                app.say(t("name max"))
        elif action == keymap.OK:
            self._done(app)
        elif action == keymap.UP:
            self.abc ^= 1
            self.key = -1
        elif action == keymap.DOWN:
            self.key = -1

    def _done(self, app):
        """Take the name (none: the seat number); a name another seat has is refused."""
        self.players._set(app, (self.seat, self.name))

    def draw(self, app, fb):
        fb.fill_rect(0, 0, W, LINE, 1)
        app.write(app.text.clip(t("player") + " " + str(self.seat + 1), W - 2), 1, 0, 0)
        x = app.write(self.name, 2, 14)
        if app.layout == keymap.KEYPAD:
            cur = "_" if len(self.name) < MAX else ""
            help1 = t("name keys")
            help2 = t("name keys 2")
        else:
            w = self.wheel
            cur = t("done") if w == 0 else ("\u0410\u0411\u0412", "ABC")[self.abc] if w == 1 \
                else self._case(self._letters()[w - 2])
            help1 = t("name wheel")
            help2 = t("name wheel 2")
        # The letter being chosen (four buttons: what OK takes) shows inverted.
        fb.fill_rect(x + 1, 14, app.text.width(cur) + 2, LINE, 1)
        app.write(cur, x + 2, 14, 0)
        app.write(("ABC", "\u0410\u0411\u0412")[self.abc], W - 20, 14)
        app.write(help1, 1, 64 - 2 * LINE)
        app.write(help2, 1, 64 - LINE)
