"""What every screen shares: the panel's size, the base class, suit signs and side names
(sixtysix/rules.py's).

The bottom of the UI's imports: ui/scoreboard.py and ui/menus.py build on this module alone,
ui/app.py drives them, and nothing here imports another ui module back.
"""

from sixtysix.rules import side_name as side_name  # the screens' side names: the one rule

W = 128
H = 64
LINE = 10  # text line height (font 6x10)

# The suits' signs (♠ ♥ ♦ ♣: spades hearts diamonds clubs), or the German suits' when the
# setting "cards" says so: ui/settings.py use() sets them, and unloads the modules
# that imported them by name (the scoreboard's, which the settings list covers, and amend's).
SUIT_TEXT = "\u2660\u2665\u2666\u2663"




class Screen:
    """A screen: draw(app, fb) draws it, act(app, action, arg) takes (action, argument)
    pairs from ui/keymap.py; each kind of screen defines both.

    key_mode says how the keys read on it: ui/keymap.py's SCOREBOARD_KEYS (0, the scoreboard),
    LIST_KEYS or NUMBER_KEYS. (A number here, so that this module imports no other.)

    There are no on_hide / on_open hooks (micro-gui has them): the scoreboard, the one
    screen that kept state under a list, is dropped whole while a list covers it (App.push),
    and on the board every method is heap.
    """

    key_mode = 0
