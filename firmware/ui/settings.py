"""The settings list: language, contrast, power timeouts, sound, the entry mode."""

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


def _languages(app):
    items = [(NAMES[i], bind(_set_lang, LANGS[i])) for i in range(len(LANGS))]
    app.push(List(t("language"), items, LANGS.index(app.lang)))


def _set_lang(app, code):
    app.settings["lang"] = code
    app.save_settings()  # the app takes the language up there
    app.home()
