"""The settings list offers what the device it runs on can do (ui/settings.py).

Issue: contrast, dim, off and sleep were offered in the browser, where they do nothing.
The browser's panel (web/webmain.py) says it is always lit; the board's and the
simulator's panels do not, and keep every setting.
"""

import os

from conftest import FIRMWARE, ROOT

WEB = os.path.join(ROOT, "web")


class _App:
    def __init__(self, fb):
        self.fb = fb
        self.settings = {"contrast": 200, "dim_s": 30, "off_s": 120, "sleep_s": 900,
                         "sound": 1, "quick": 0, "cards": 0}

    def push(self, screen):
        self.screen = screen

    def always_lit(self):  # the App's own answer, read from its panel
        from ui.app import App

        return App.always_lit(self)  # type: ignore[arg-type]


def _labels(fb):
    from ui import i18n
    from ui.settings import settings_menu

    i18n.use("en")
    app = _App(fb)
    settings_menu(app)
    return [label.split(":")[0] for label, _go in app.screen.items]


def test_the_board_offers_every_setting():
    class Oled:  # the board's panel drivers say nothing of it (hw/display*.py)
        pass

    for name in ("display.py", "display_spi.py"):
        with open(os.path.join(FIRMWARE, "hw", name), encoding="utf-8") as f:
            assert "always_lit" not in f.read()
    assert _labels(Oled()) == ["Language", "Contrast", "Dim after", "Off after",
                               "Sleep after", "Sound", "Entry", "Suit"]


def test_the_browser_offers_only_what_it_can_do():
    class Canvas:  # web/webmain.py's Panel says the same of itself
        always_lit = True

    assert _labels(Canvas()) == ["Language", "Sound", "Entry", "Suit"]
    with open(os.path.join(WEB, "webmain.py"), encoding="utf-8") as f:
        assert "always_lit = True" in f.read()
