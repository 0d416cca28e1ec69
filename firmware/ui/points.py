"""Counted card points: a deal played without the device, entered as the piles' points."""

from ui import keymap
from ui.i18n import t
from ui.lists import entry
from ui.screen import LINE, Screen, W, side_name


class Points(Screen):
    """Counted card points, one side after the other (marriages included). Keypad:
    digits, * deletes, # takes the number; # with no number means "took no trick".
    Four buttons: UP adds 10, DOWN adds 1, BACK clears, OK takes the number."""

    key_mode = keymap.NUMBER_KEYS

    def __init__(self, app):
        self.sides = app.match.state.rules.sides
        self.values = bytearray()
        self.typed = ""

    def act(self, app, action, arg):
        if action == keymap.PICK and len(self.typed) < 3:
            self.typed += str(arg)
        elif action == keymap.UP:
            self.typed = str(int(self.typed or "0") + 10)
        elif action == keymap.DOWN:
            self.typed = str(int(self.typed or "0") + 1)
        elif action == keymap.BACK:
            if self.typed:
                self.typed = self.typed[:-1] if app.layout == keymap.KEYPAD else ""
            elif self.values:
                self.values = self.values[:-1]
            else:
                app.pop()
        elif action == keymap.OK:
            v = int(self.typed) if self.typed else 255  # 255: took no trick
            if v > 254:
                v = 255 if not self.typed else 254
            self.values.append(v)
            self.typed = ""
            if len(self.values) == self.sides:
                if not entry(bytes((7,)) + bytes(self.values))(app):
                    self.values = bytearray()  # refused: the message says why; start again
        elif action == keymap.MENU:
            app.home()

    def draw(self, app, fb):
        state = app.match.state
        fb.fill_rect(0, 0, W, LINE, 1)
        app.write(t("counted points"), 1, 0, 0)
        for s in range(self.sides):
            y = LINE + 1 + s * LINE
            if s < len(self.values):
                v = self.values[s]
                shown = t("no trick") if v == 255 else str(v)
            elif s == len(self.values):
                shown = self.typed + "_"
            else:
                shown = ""
            name = side_name(state.names, self.sides, s)
            app.write(app.text.clip(name + ": " + shown, W - 2), 1, y)
        app.write(app.text.clip(t("empty no trick"), W - 2), 1, 64 - LINE)
