"""The action menu and its choosers (lists: ui/lists.py).

History and statistics (ui/info.py), settings (ui/settings.py), a new match
(ui/newmatch.py) and counted points (ui/points.py) are modules of their own, opened
from here.
"""

from ui.i18n import t
from ui.keymap import SUIT
from ui.lists import List, bind, choose_seat, entry, takes
from ui.screen import SUIT_TEXT, side_name


def choose_suit(app, title, then):
    items = []
    for s in range(4):
        # the suit's name is keyed by its sign: French or German (the setting "cards")
        items.append((SUIT_TEXT[s] + " " + t("suit_" + SUIT_TEXT[s]), bind(then, s)))
    app.push(List(title, items))


def suit_list(app):
    """Four buttons: the suits, as the keypad's suit keys on the scoreboard."""
    choose_suit(app, t("suit"), _suit_key)


def _suit_key(app, suit):
    # Back home first: the scoreboard's code is not in RAM while a list covers it.
    app.home()
    app.screen.act(app, SUIT, suit)


# --- the action menu ---------------------------------------------------------


def scoreboard_menu(app):
    """The deal's entries while a match is under way, then the general items; with no match
    the general items alone (history, statistics, settings, a new match). An entry the deal
    would refuse whatever is picked under it is left out: after a deal ended, closing and
    claiming (the next deal, trump and a result stay); while a contract is bid, all but trump,
    a higher bid and the contract's result; in the claim window (hidden totals, the last trick
    in) the claim of that trick's side and "no claim"."""
    state = app.match.state
    items = []
    if state is not None and not state.over:
        rules = state.rules
        deal = state.deal
        leader = deal.leader
        if deal.played == deal.total:
            # The claim window: the side that took the last trick (the leader now) claims,
            # without a marriage; or nobody does (`next`, as # on the scoreboard). The deal
            # takes nothing else.
            items.append((t("claim 66"), entry(bytes((4, leader)))))
            items.append((t("no claim"), entry(b"\x0d")))
        else:
            if not deal.opened:
                items.append((t("next deal"), entry(b"\x0d")))
            # Trump once per deal, then the leader's marriages: the suit picked ends the
            # record (nothing changes the leader while the menu is open).
            key, head = ("trump", (0,)) if deal.trump < 0 else ("marriage", (2, leader))

            def enter_suit(a, suit):
                entry(bytes(head + (suit,)))(a)

            for s in range(4):  # trump always goes in; a marriage if one suit is still open
                if takes(state, bytes(head + (s,))):
                    items.append((t(key), lambda a: choose_suit(a, t(key), enter_suit)))
                    break
            if rules.stock and takes(state, bytes((3, leader))):
                items.append((t("close"), _close))
            if takes(state, bytes((4, leader))):  # a plain claim (four players: "no marriage")
                items.append((t("claim 66"),
                              lambda a: choose_seat(a, t("who claims"), _claim)))
            # A result or a draw is refused only while a bid stands (Deal._need) and in the
            # claim window; asked by its rule here, not of the core, whose check would load
            # their code (sixtysix/quick.py) into every match that opens the menu.
            if deal.bid_kind < 0:
                items.append((t("result"), _result))
                if rules.draws:
                    items.append((t("draw"), entry(b"\x06")))
            if rules.pairs:
                from ui.pairs import pairs_items

                pairs_items(items, state)
    if state is not None:  # nothing to undo or redo before the first match
        items.append((t("undo"), lambda a: (a.home(), a.undo())))
        items.append((t("redo"), lambda a: (a.home(), a.redo())))
    items += (
        (t("history"), _history),
        (t("statistics"), _stats),
        (t("settings"), settings_menu),
        (t("new match"), new_match),
    )
    app.push(List(t("menu"), items))


# The lists players open now and then live in modules of their own, loaded when opened
# and dropped with this one on the way home (App.home): the action menu, which every deal
# opens, stays small.


def _counted(app):
    from ui.points import Points

    app.push(Points(app))


def _history(app):
    from ui.info import History

    app.push(History(app))


def _stats(app):
    from ui.info import Stats

    app.push(Stats(app))


def settings_menu(app):
    from ui.settings import settings_menu

    settings_menu(app)


def new_match(app):
    """Rule set, then the first dealer (by lot or picked), then start."""
    from ui.newmatch import new_match

    new_match(app)


def _result(app):
    """The winning side, then its game points; or (last) the counted card points of a deal
    played without the device, from which the game points follow."""
    state = app.match.state
    items = []
    for s in range(state.rules.sides):
        items.append((side_name(state.names, state.rules.sides, s), bind(_result_points, s)))
    items.append((t("counted points"), _counted))
    app.push(List(t("result"), items))


def _close(app):
    entry(bytes((3, app.match.state.deal.leader)))(app)


def _claim(app, seat):
    if app.match.state.rules.pairs:
        from ui.pairs import claim_with_marriage

        claim_with_marriage(app, seat)
    else:
        entry(bytes((4, seat)))(app)


def _result_points(app, side):
    items = []
    for g in app.match.state.rules.choices():
        items.append(("+" + str(g), entry(bytes((5, side, g)))))
    app.push(List(t("game points"), items))
