"""The settings list: language, contrast, power timeouts, sound, the entry mode, the cards'
signs (French or German suits); and use(), which sets those signs (ui/screen.py), named as
i18n's use() of a language (a name the board has interned already: a new one is heap)."""

from loader import drop
from ui import screen
from ui.i18n import LANGS, t
from ui.lists import List, bind

# Each language's own name, in ui/i18n.py's LANGS order: here, not there, so the board
# holds them only while this list is open.
NAMES = ("Українська", "Русский", "English", "Deutsch")


def settings_menu(app):
    s = app.settings
    items = [(t("language") + ": " + t("lang_name"), _languages)]
    # A screen that is always lit (the browser's canvas: its panel says so) has no contrast
    # and no dimming, panel off or sleep: those settings would do nothing there.
    if not app.always_lit():
        items += [
            (t("contrast") + ": " + str(s["contrast"]),
             _cycle("contrast", (40, 120, 200, 255))),
            (t("dim after") + ": " + str(s["dim_s"]) + t("sec"),
             _cycle("dim_s", (15, 30, 60, 120))),
            (t("off after") + ": " + str(s["off_s"]) + t("sec"),
             _cycle("off_s", (60, 120, 300, 600))),
            (t("sleep after") + ": " + str(s["sleep_s"] // 60) + t("min"),
             _cycle("sleep_s", (0, 900, 1800, 3600))),
        ]
    items += [
        (t("sound") + ": " + (t("on") if s["sound"] else t("off")), _cycle("sound", (0, 1))),
        (t("entry") + ": " + (t("results") if s["quick"] else t("tricks")),
         _cycle("quick", (0, 1))),
        # The signs themselves name the choice, in every language. "cards" is absent from
        # the settings until chosen (App's defaults): a key there is heap on every board.
        (t("suit") + ": " + screen.SUIT_TEXT, _cards),
    ]
    app.push(List(t("settings"), items))


def _cycle(key, values):
    def go(app):
        s = app.settings
        i = values.index(s[key]) if s[key] in values else -1
        s[key] = values[(i + 1) % len(values)]
        app.save_settings()  # the contrast reaches the panel there
        pick = app.screen.pick
        app.pop()
        settings_menu(app)
        app.screen.pick = pick  # stay on the changed line

    return go


def _cards(app):
    s = app.settings
    s["cards"] = 0 if s.get("cards") else 1
    app.save_settings()
    use(s["cards"])
    app.home()  # as after a new language: every screen drawn again, with the new signs


def _languages(app):
    items = [(NAMES[i], bind(_set_lang, LANGS[i])) for i in range(len(LANGS))]
    app.push(List(t("language"), items, LANGS.index(app.lang)))


def _set_lang(app, code):
    app.settings["lang"] = code
    app.save_settings()  # the app takes the language up there
    app.home()


def use(german):
    """The panel's suit signs (ui/screen.py), French or German: at boot when the settings
    say German (wiring.py), and when the setting changes. German suits stand for the French
    ones the rules use: Laub for spades, Herz for hearts, Schellen for diamonds, Eichel for
    clubs (the font's drawn signs, U+E000 to U+E002: tools/make_font.py DRAWN; Herz is the
    heart). The ranks keep the letters the keys carry: Ober is Q, Unter J, Daus A."""
    screen.SUIT_TEXT = "\ue000\u2665\ue001\ue002" if german else "\u2660\u2665\u2666\u2663"
    # Modules that import the signs by name take the new ones when loaded again: the
    # scoreboard's and amend's here, the lists' on the way home (App.home drops them).
    drop("scoreboard")
    drop("amend")
