"""The firmware's app driven by key presses only, in the simulator under MicroPython.

Every test runs tools/sim.py in the MicroPython unix port with a temporary folder
as flash, and reads back what the players would see (the words drawn on the
panel, --texts) and the match (--state), which is compared with the scoring
core fed the same entries as event lines. The sim runs the real App, Board,
menus, Session and Store; only the I2C bus and the keys are simulated.

- Random legal matches (tools/dealgen.py) of every rule set, entered through
  the keys tools/keyseq.py derives, on both layouts.
- Hand-written key sequences for the special flows of each rule set.
- Restarts, refused keys, the interactive simulator under tmux, and the
  figures of tools/ui_figures.py.
"""

import json
import os
import shlex
import shutil
import signal
import subprocess
import time

import pytest
from conftest import FIRMWARE, MICROPYTHON, ROOT, TOOLS
from keyseq import BUTTONS, CUT9, KEYPAD, match_keys, menu, open_menu, random_match
from sixtysix.match import Match
from sixtysix.rules import RULE_SETS, Rules
from sixtysix.snapshot import snapshot
from termpanel import pixels
from ui import i18n

i18n.use("en")
T = i18n.t  # the English texts of the firmware (ui/lang/en.txt)

SIM = os.path.join(ROOT, "tools", "sim.py")
W = 128  # the panel's width
LAYOUTS = (KEYPAD, BUTTONS)


class Run:
    def __init__(self, state, frames, screen):
        self.state = state  # the match as JSON (sixtysix/snapshot.py)
        self.frames = frames  # words on screen at each "|" of the keys, then at the end
        self.screen = screen  # the panel as text (quadrant characters unless a mode is given)

    @property
    def words(self):
        return self.frames[-1]


def run_sim(micropython, tmp_path, keys, layout=KEYPAD, flash=None, name="run", mode="quad"):
    """Run the simulator with these keys; flash defaults to tmp_path/flash."""
    flash = flash or tmp_path / "flash"
    keyfile = tmp_path / (name + ".keys")
    keyfile.write_text(keys)
    texts = tmp_path / (name + ".texts.json")
    dump = tmp_path / (name + ".screen.txt")
    args = [SIM, "--flash", str(flash), "--keys-file", str(keyfile), "--state",
            "--texts", str(texts), "--dump", str(dump), "--panel", mode]
    if layout == BUTTONS:
        args.append("--buttons")
    proc = micropython(args, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    return Run(json.loads(proc.stdout), json.loads(texts.read_text()), dump.read_text())


def as_json(match):
    """The core's snapshot in the form the simulator prints (lists, not tuples)."""
    return json.loads(json.dumps(snapshot(match)))


def replay(lines):
    m = Match()
    for line in lines:
        if line == "undo":
            m.undo()
        elif line == "redo":
            m.redo()
        else:
            m.enter_line(line)
    return m


def side_name(state, side):
    if state.rules.pairs:
        return state.names[side] + "+" + state.names[side + 2]
    return state.names[side]


def shown(state):
    out = []
    for s in range(state.rules.sides):
        text = str(state.score_shown(s))
        if state.rules.pairs:
            text += "/" + str(state.rules.target)
        out.append(text)
    return out


def gets(who, points):
    """The result of a deal on the scoreboard: "2 gets 1"."""
    return who + " " + T("gets") + " " + str(points)


def has(words, part):
    return any(part in w for w in words)


# --- random matches of every rule set, entered by keys ---------------------------------

# Two matches per rule set whose entries cover every kind of entry the rule set has
# (asserted below); the first dealer is 1 + seed % players.
SEEDS = {"mariage": (24, 254), "classic66": (9, 154), "mariage3": (1, 46),
         "classic66-3": (68, 95), "mariage4": (101, 167), "schnapsen": (216, 242),
         "sechsundsechzig": (104, 113)}
NEEDED = {2: {"trump", "trick", "marriage", "close", "result"},
          3: {"trump", "trick", "marriage", "result"},
          4: {"trump", "trick", "marriage", "result", "claim", "cut9", "nines", "redeal",
              "bid", "contract"}}


def deal_end_checks(state, layout):
    """What the scoreboard must show right after a deal ended (or the match)."""
    sides = state.rules.sides
    if state.over:
        return ("over", shown(state), side_name(state, state.winner) + " " + T("wins match"),
                "# " + T("new match") if layout == KEYPAD else "OK")
    names = []
    for s in range(sides):
        name = side_name(state, s)
        if not state.rules.pairs and state.deal.dealer == s:
            name += "\u00b7"
        names.append(name)
    row = state.row(state.deals() - 1)
    marked = [(side, m) for side, _points, m in row[3] if m]
    gp = sum(points for side, points, _m in row[3] if side == row[2])
    if marked and not gp:  # a coat (one marker) or a costume (two) on a pair
        head = side_name(state, marked[0][0]) + ": " + T("bid_%d" % (marked[0][1] + 1))
    elif row[2] >= 0:
        head = gets(side_name(state, row[2]), gp)
    else:
        head = T("no winner")
    return ("deal", names + shown(state), head,
            "# " + T("next deal") if layout == KEYPAD else T("next"))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("rid", RULE_SETS)
def test_random_matches_entered_by_keys(micropython, tmp_path, rid, layout):
    players = Rules(rid).players
    lines = []
    for seed in SEEDS[rid]:
        match_lines, m = random_match(rid, seed, suits=False, quick=25,
                                      dealer=1 + seed % players)
        assert m.state.over
        lines += match_lines
    verbs = {line.split()[0] for line in lines}
    needed = set(NEEDED[players])
    if Rules(rid).hidden:
        needed.add("claim")
    assert needed <= verbs, "the seeds no longer cover " + str(needed - verbs)

    # Keys for all lines; "|" notes the screen after each entry that ended a deal.
    keys = ""
    checks = []
    m = Match()
    for line, k in match_keys(lines, layout):
        before = m.state.deals() if m.state is not None else 0
        m.enter_line(line)
        keys += k
        # A `next` with no keys (the claim window's, said by the next deal's trump key)
        # never shows the deal's result: the trump key opens the next deal at once.
        if k and not line.startswith("new") and (m.state.deals() > before or m.state.over):
            keys += "|"
            checks.append(deal_end_checks(m.state, layout))
    run = run_sim(micropython, tmp_path, keys, layout)

    assert run.state == as_json(m), "the match entered by keys differs from the core's"
    assert run.state["over"] and run.state["score"] == list(m.state.score)
    assert len(run.frames) == len(checks) + 1
    for frame, (kind, top, head, bottom) in zip(run.frames, checks):
        sides = len(top) // 2 if kind == "deal" else len(top)
        if kind == "deal":  # names (the dealer marked; pairs add their eights), then scores
            assert all(w.startswith(name) for w, name in zip(frame[:sides], top[:sides])), frame
            assert frame[sides:2 * sides] == top[sides:], frame
        else:
            assert frame[sides:2 * sides] == top, frame
        assert any(w.startswith(head) for w in frame), (head, frame)
        assert frame[-1] == bottom, frame


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("rid", RULE_SETS)
def test_quick_matches_in_results_mode(micropython, tmp_path, rid, layout):
    """Matches of results only, in the "results" entry setting (switched on by keys)."""
    players = Rules(rid).players
    lines, m = random_match(rid, SEEDS[rid][0], quick=100, dealer=1 + SEEDS[rid][0] % players)
    assert m.state.over and all(line.split()[0] == "result" for line in lines[1:])
    keys = ""
    heads = []
    replayed = Match()
    for line, k in match_keys(lines, layout, results=True):
        replayed.enter_line(line)
        keys += k + "|"
        if not line.startswith("new"):
            heads.append(deal_end_checks(replayed.state, layout)[2])
    run = run_sim(micropython, tmp_path, keys, layout)
    assert run.state == as_json(m)
    if layout == KEYPAD:
        assert has(run.frames[0], T("winner, points"))
    for frame, head in zip(run.frames[1:], heads):
        assert any(w.startswith(head) for w in frame), (head, frame)


# --- hand-written flows ------------------------------------------------------------------


def check_flow(micropython, tmp_path, steps, layout=KEYPAD, flash=None):
    """steps: (keys, event line or None, words expected on screen after the keys).

    Returns the run; its match must equal the core fed the event lines."""
    keys = "|".join(k for k, _line, _words in steps)
    lines = [line for _k, line, _w in steps if line]
    run = run_sim(micropython, tmp_path, keys, layout, flash)
    assert len(run.frames) == len(steps)
    for frame, (k, _line, words) in zip(run.frames, steps):
        for w in words:
            assert has(frame, w), (k, w, frame)
    assert run.state == as_json(replay(lines))
    return run


def test_mariage_flow_suit_keys_close_result_undo_redo(micropython, tmp_path):
    check_flow(micropython, tmp_path, [
        ("12", "new mariage dealer=1", ["Trump? press a suit", "Dealer: 1"]),
        ("8", "trump H", ["\u2665", "Deal 1  lead 2"]),
        ("8", "marriage 2 H", ["stock 12 40\u2665", "40 (0)"]),
        ("b31", "trick 2 K A", ["55 (1)", "stock 10 40\u2665"]),
        ("#", None, ["Menu", "1 Marriage 20/40", "2 Close the stock", "3 Claim 66",
                     "4 Result only"]),
        ("2", "close 2", ["closed by 2"]),
        ("a12", "trick 1 A T", ["21 (1)"]),
        ("b44", "trick 2 Q Q", ["61 (2)"]),
        ("b22", "trick 2 T T", [gets("2", 3), T("why_closed_won"), "# " + T("next deal")]),
        ("#", "next", ["2\u00b7", T("trump?")]),
        ("#4", None, ["Result only", "1 1", "2 2"]),
        ("1", None, ["Game points", "1 +1", "2 +2", "3 +3"]),
        ("2", "result 1 2", [gets("1", 2), "# " + T("next deal")]),
        ("*", "undo", [T("undone"), T("trump?")]),
        ("z", "redo", [T("redone"), gets("1", 2)]),
    ])


def test_keypad_flow_lists_over_the_scoreboard_and_undo_from_them(micropython, tmp_path):
    # While a list covers the scoreboard its code is out of RAM (App.push); it comes back on
    # the way home as it was, less a trick half typed (as ever), and undo works from a list
    # two deep.
    check_flow(micropython, tmp_path, [
        ("12", "new mariage dealer=1", [T("trump?")]),
        ("8", "trump H", ["\u2665", "Deal 1  lead 2"]),
        ("a1", None, ["1 : A _"]),
        ("m", None, ["Menu", "1 Marriage 20/40"]),  # a long # opens the menu mid-trick
        ("*", None, ["Deal 1  lead 2"]),  # back: the trick half typed is gone
        ("a12", "trick 1 A T", ["21 (1)"]),
        ("#4", None, ["Result only", "1 1", "2 2"]),
        ("z", "undo", [T("undone"), "0 (0)"]),  # a long * two lists deep
        ("#4", None, ["Result only"]),
        ("1", None, ["Game points"]),
        ("z", "undo", [T("undone"), T("trump?")]),  # three deep
    ])


def test_classic66_flow_draw_menu_next_and_claim(micropython, tmp_path):
    run = check_flow(micropython, tmp_path, [
        ("22", "new classic66 dealer=1", ["7", "Trump? press a suit"]),
        ("9", "trump D", ["\u2666"]),
        ("#", None, ["5 Drawn deal"]),
        ("5", "draw", [T("no winner"), T("why_draw"), "# " + T("next deal")]),
        ("m", None, ["1 Next deal", "2 Trump"]),
        ("1", "next", ["2\u00b7", T("trump?")]),
        ("0", "trump C", ["\u2663"]),
        ("a11", "trick 1 A A", ["22 (1)"]),
        ("#3", None, [T("who claims"), "1 1", "2 2"]),
        ("1", "claim 1", [T("why_false_claim"), "# " + T("next deal")]),
    ])
    assert run.state["shown"] == [7 - s for s in run.state["score"]]  # counts down


def test_mariage3_flow_three_card_tricks_marriage_result(micropython, tmp_path):
    check_flow(micropython, tmp_path, [
        ("34", "new mariage3 dealer=3", ["1", "2", "3\u00b7", "Dealer: 3"]),
        ("7", "trump S", ["\u2660"]),
        ("7", "marriage 1 S", ["40\u2660"]),
        ("a312", "trick 1 K A T", ["65 (1)"]),
        ("c4", None, ["3 : Q _"]),
        ("56", "trick 3 Q J 9", ["5 (1)"]),
        ("d", None, [T("x no_player")]),
        ("#3", None, ["Result only", "3 3"]),
        ("32", "result 3 2", [gets("3", 2), "# " + T("next deal")]),
    ])


def test_classic66_3_flow_draw_and_trick_corrections(micropython, tmp_path):
    check_flow(micropython, tmp_path, [
        ("42", "new classic66-3 dealer=1", ["Trump? press a suit"]),
        ("8", "trump H", ["\u2665"]),
        ("b123", "trick 2 A T K", ["25 (1)"]),
        ("c12*", None, ["3 : A _"]),  # * takes back the last key of the trick
        ("34", "trick 3 A K Q", ["18 (1)"]),
        ("a*", None, ["Deal 1  lead 3"]),  # ... and then the winner
        ("#4", "draw", [T("no winner"), T("why_draw")]),
        ("#", "next", ["2\u00b7", T("trump?")]),
    ])


def test_mariage4_flow_four_player_menu_items(micropython, tmp_path):
    nines = T("nines cut") + ": "
    check_flow(micropython, tmp_path, [
        ("52", "new mariage4 dealer=1", ["1+3", "2+4", "0/8", "?? (0)"]),
        ("#", None, ["1 Trump", "2 Claim 66", "3 Result only", "4 Nine in the cut",
                     "5 Redeal"]),
        ("4", "cut9", [nines + "1"]),  # the scoreboard does not change: a message says it
        ("#4", "cut9", [nines + "2"]),
        ("#4", "cut9", [T("why_cut_nines"), "# " + T("next deal")]),
        ("#", "next", ["Trump? press a suit"]),
        ("#5", "redeal", [T("why_redeal"), "# " + T("next deal")]),
        ("#", "next", []),
        ("#6", None, ["Three nines", "1 1", "2 2", "3 3", "4 4"]),
        ("1", None, ["1 won", "2 lost"]),
        ("2", "nines 1 lost", []),
        # After three nines neither the cut, nor a redeal, nor three nines again.
        ("#", None, ["1 Trump", "2 Claim 66", "3 Result only", "4 Contract"]),
        ("4", None, ["Contract", "4 4"]),
        ("2", None, ["1 Five", "2 Six", "3 Coat", "4 Costume"]),
        ("2", "bid 2 six", ["Six 2"]),
        # A bid stands: trump, a higher bid or the contract's result.
        ("#", None, ["1 Trump", "2 Contract", "3 Contract made", "4 Contract failed"]),
        ("4", "contract failed", [gets("1+3", 6), T("why_contract"), "# " + T("next deal")]),
        ("7", "trump S", ["\u2660"]),
        ("a1234", "trick 1 A T K Q", ["?? (1)"]),
        ("#", None, ["1 Marriage 20/40", "2 Claim 66", "3 Result only", "4 Undo"]),
        ("2", None, [T("who claims")]),
        ("3", None, ["1 No marriage"]),
        ("1", "claim 3", ["false claim"]),
    ])


def test_schnapsen_flow_no_nines_close_claim(micropython, tmp_path):
    run = check_flow(micropython, tmp_path, [
        ("62", "new schnapsen dealer=1", ["Trump? press a suit"]),
        ("9", "trump D", ["\u2666", "stock 10"]),
        ("b16", None, [T("x bad_rank")]),
        ("b12", "trick 2 A T", ["?? (1)", "stock 8"]),
        ("#2", "close 2", ["closed by 2"]),
        ("b33", "trick 2 K K", []),
        ("#", None, ["1 Marriage 20/40", "2 Claim 66"]),  # closed: no "Close the stock"
        ("2", None, [T("who claims")]),
        ("2", "claim 2", [T("why_false_claim"), "# " + T("next deal")]),
    ])
    assert run.state["deals"] == 1


def test_sechsundsechzig_flow_hidden_totals_and_claim(micropython, tmp_path):
    check_flow(micropython, tmp_path, [
        ("72", "new sechsundsechzig dealer=1", []),
        ("7", "trump S", ["\u2660"]),
        ("7", "marriage 2 S", ["??", "40\u2660"]),
        ("b31", "trick 2 K A", ["?? (1)"]),
        ("b12", "trick 2 A T", ["?? (2)"]),
        ("#3", None, [T("who claims")]),
        ("2", "claim 2", [gets("2", 3), T("why_claim"), "# " + T("next deal")]),
    ])


def test_buttons_flow_soft_keys_rank_pages_undo_redo(micropython, tmp_path):
    check_flow(micropython, tmp_path, [
        ("e", None, ["First dealer", "1 Draw lots", "2 Dealer 1", "3 Dealer 2"]),
        ("se", "new mariage dealer=1", ["1", "2", "Suit", "Menu"]),
        ("q", None, ["Menu", "1 Trump"]),
        ("e", None, ["Trump", "1 \u2660 spades"]),
        ("se", "trump H", ["\u2665"]),
        ("s", None, ["A", "10", "K", "\u25ba"]),  # a winner: the first half of the ranks
        ("q", None, ["Q", "J", "9", "\u25c4"]),
        ("q", None, ["A", "10", "K", "\u25ba"]),
        ("ws", "trick 2 A T", ["21 (1)"]),
        ("Q", "undo", ["Undone", "0 (0)"]),
        ("W", "redo", ["Redone", "21 (1)"]),
        ("qq", None, ["1", "2", "Suit", "Menu"]),  # BACK leaves the menu
        ("wqeqw", "trick 1 9 Q", ["3 (1)"]),
        ("E", None, ["Menu"]),
        ("sse", None, [T("who claims")]),  # the seat list starts at the leader
        ("e", "claim 1", [T("why_false_claim"), T("next")]),
        ("e", "next", ["2\u00b7", "Suit"]),
    ], layout=BUTTONS)


def test_buttons_flow_four_players(micropython, tmp_path):
    check_flow(micropython, tmp_path, [
        ("sssse", None, ["First dealer", "5 Dealer 4"]),
        ("sse", "new mariage4 dealer=2", ["1", "2", "3", "4"]),
        ("E", None, ["Menu", "1 Trump"]),
        ("ewe", "trump C", ["\u2663"]),
        ("qwsqe", None, ["A", "10", "K", "\u25ba"]),
        ("e", "trick 4 A T 9 K", ["?? (1)"]),
        ("Q", "undo", [T("undone"), "?? (0)"]),
        ("E", None, ["Menu"]),
        ("Q", "undo", [T("undone")]),  # a long BACK undoes from a list too: the trump
        ("W", "redo", [T("redone"), "\u2663"]),
        ("W", "redo", [T("redone"), "?? (1)"]),
    ], layout=BUTTONS)


def test_results_mode_flow_two_presses_per_deal(micropython, tmp_path):
    steps = [
        ("12", "new mariage dealer=1", []),
        ("#9", None, ["Settings", "1 Language: English"]),
        ("7", None, ["Settings"]),  # Entry: tricks -> results; the list opens again
        ("m", None, [T("winner, points")]),
        ("b", None, ["2: +1/2/3?"]),
        ("3", "result 2 3", [gets("2", 3), T("winner, points")]),
        ("a1", "result 1 1", [gets("1", 1)]),  # the next deal opens by itself
        ("*", "undo", [T("undone"), gets("2", 3)]),
        ("c", None, [T("x no_player")]),
        ("a4", None, [T("x bad_points")]),
        ("#", "next", [T("winner, points")]),
    ]
    check_flow(micropython, tmp_path, steps)
    again = run_sim(micropython, tmp_path, "", KEYPAD, name="again")  # the setting is kept
    assert has(again.words, T("winner, points"))


def test_results_mode_flow_buttons(micropython, tmp_path):
    check_flow(micropython, tmp_path, [
        ("sse", None, ["First dealer", "4 Dealer 3"]),
        ("sse", "new mariage3 dealer=2", ["1", "2", "3", "Menu"]),
        ("q", None, ["Menu"]),
        ("ssssssse", None, ["Settings"]),
        ("wwe", None, ["Settings"]),  # up from the first item: Cards, then Entry
        ("E", None, ["1", "2", "3", "Menu"]),
        ("e", None, ["+1", "+2", "+3", "\u25c4"]),
        ("q", None, ["1", "2", "3", "Menu"]),  # the back key under the points
        ("es", "result 3 2", [gets("3", 2)]),
    ], layout=BUTTONS)


def test_buttons_show_the_trick_under_way(micropython, tmp_path):
    check_flow(micropython, tmp_path, [
        ("ese", "new mariage dealer=1", []),
        ("qese", "trump H", []),
        ("sw", None, ["2 : A _"]),
    ], layout=BUTTONS)


def test_buttons_suit_soft_key_opens_the_suits(micropython, tmp_path):
    check_flow(micropython, tmp_path, [
        ("ese", "new mariage dealer=1", ["Suit"]),
        ("e", None, ["1 \u2660 spades"]),
    ], layout=BUTTONS)


# The German suits' signs (the setting "cards", ui/settings.py use(); tools/make_font.py
# draws Laub, Schellen and Eichel at U+E000 to U+E002; Herz is the heart).
LAUB, SCHELLEN, EICHEL = "\ue000", "\ue001", "\ue002"
FRENCH, GERMAN = "\u2660\u2665\u2666\u2663", LAUB + "\u2665" + SCHELLEN + EICHEL
CARDS_ITEM = "*|m|3|bbbbbbb|8|"  # back from the rule sets, held #, Settings, down to the suits


def test_german_suits_show_on_every_screen_that_names_a_suit_and_survive_a_restart(
        micropython, tmp_path):
    # The same keys, the same match: only the signs differ. The settings line shows the
    # signs in use; trump Laub (the spades' key) and a marriage in Laub; the suit list
    # names the German suits; the ranks keep the keys' letters; a restart keeps the
    # choice, and the settings line turns it back.
    flash = tmp_path / "flash"
    keys = "#|12|7|7|a4|5|#|1|"  # a new match, trump, a marriage, a trick Q J, a suit list
    german = run_sim(micropython, tmp_path, CARDS_ITEM + keys, flash=flash, name="de")
    french = run_sim(micropython, tmp_path, "*|" + keys, flash=tmp_path / "fr", name="fr")
    assert german.state == french.state  # the match itself is the same
    assert german.state["deal"]["trump"] == "S" and german.state["deal"]["marriages"]
    assert "8 " + T("suit") + ": " + FRENCH in german.frames[3]
    trump, marriage, half = german.frames[7], german.frames[8], german.frames[9]
    assert LAUB in trump and "\u2660" not in trump
    assert has(marriage, "40" + LAUB) and not has(marriage, "40\u2660")
    assert has(french.frames[4], "40\u2660")
    assert half[-1] == french.frames[5][-1] == "1 : Q _"  # Ober: the queen's key, Q
    chooser = german.frames[-1]
    assert chooser[1:5] == ["%d %s %s" % (i + 1, sign, T("suit_" + sign))
                            for i, sign in enumerate(GERMAN)], chooser
    assert [T("suit_" + sign) for sign in GERMAN] == ["leaves", "hearts", "bells", "acorns"]
    assert french.frames[-1][1:5] == ["1 \u2660 spades", "2 \u2665 hearts",
                                      "3 \u2666 diamonds", "4 \u2663 clubs"]
    again = run_sim(micropython, tmp_path, "*|", flash=flash, name="again")  # a restart
    assert LAUB in again.frames[0] and LAUB in again.frames[1]
    toggled = tmp_path / "toggled"  # German, then the same line again: French
    run_sim(micropython, tmp_path, CARDS_ITEM, flash=toggled, name="set")
    back = run_sim(micropython, tmp_path, CARDS_ITEM + "#|12|7|", flash=toggled, name="back")
    assert "8 " + T("suit") + ": " + GERMAN in back.frames[3]
    assert "\u2660" in back.frames[-1] and LAUB not in back.frames[-1]


def test_german_suits_on_four_buttons_in_the_suit_list_and_on_the_board(micropython, tmp_path):
    flash = tmp_path / "flash"
    run_sim(micropython, tmp_path, CARDS_ITEM, flash=flash, name="set")
    check_flow(micropython, tmp_path, [
        ("ese", "new mariage dealer=1", ["Suit"]),
        ("e", None, ["1 " + LAUB + " " + T("suit_" + LAUB)]),
        ("e", "trump S", [LAUB]),
    ], layout=BUTTONS, flash=flash)


def pixel_rows(run):
    """The panel of a run in the "big" mode as 64 rows of 128 0/1 values."""
    return pixels(run.screen.split("\n"), "big")


def test_the_trick_being_typed_keeps_clear_of_the_message_bar(micropython, tmp_path):
    """A refused key puts its reason on the bar of the bottom line and the trick being typed
    one line up: its cursor ("_") must not touch the bar (rows 53-63)."""
    run = run_sim(micropython, tmp_path, "1#7a1c", mode="big")  # c: no such player
    assert "No such player" in run.words
    px = pixel_rows(run)
    assert all(px[53])  # the bar's top row
    assert not any(px[52]), "the trick's line touches the message bar"
    cursor = [x for x in range(W) if px[51][x]]
    assert len(cursor) >= 5  # the cursor is still drawn, a row higher


def test_a_long_players_item_keeps_clear_of_the_scroll_mark(micropython, tmp_path):
    """Three long names cut "Players: ..." short; the row under the cursor (its bar) and the
    \u25bc after it keep two dark columns between them."""
    # rule set 3 (three players), item 5 (players); each seat: its digit, 1 (a new name),
    # the letters, # (done); * back to the dealer's list
    names = "1" + "123232323#" + "2" + "132323232#" + "3" + "142424242#" + "*"
    run = run_sim(micropython, tmp_path, "35" + names, mode="big")
    assert run.words[-1] == "\u25bc"
    px = pixel_rows(run)
    y = 10 + 1 + 4 * 10  # the fifth row: the players, under the cursor
    band = px[y:y + 10]
    assert all(row[0] for row in band)  # the cursor's bar
    for x in (W - 8, W - 7):
        assert not any(row[x] for row in band), "column %d touches the mark" % x
    assert any(row[x] for row in band for x in range(W - 6, W))  # the mark


def test_keypad_suit_of_the_last_card(micropython, tmp_path):
    check_flow(micropython, tmp_path, [
        ("12", "new mariage dealer=1", []),
        ("8", "trump H", []),
        ("b1737", "trick 2 AS KS", ["15 (1)"]),
    ])


def test_keypad_suit_of_an_earlier_card(micropython, tmp_path):
    check_flow(micropython, tmp_path, [
        ("12", "new mariage dealer=1", []),
        ("8", "trump H", []),
        ("b17", None, ["2 : A\u2660 _"]),
        ("3", "trick 2 AS K", ["15 (1)"]),
        ("a207", None, [T("rank first")]),  # a second suit for one card is refused
        ("1", "trick 1 TC A", ["21 (1)"]),
    ])


# --- what the menu offers ------------------------------------------------------------------


def german(key):
    i18n.use("de")
    try:
        return T(key)
    finally:
        i18n.use("en")


@pytest.mark.parametrize("layout,keys", [
    (KEYPAD, "*|m|3|1|4|#"),  # back from the rule sets, held #, Settings, Language, Deutsch
    (BUTTONS, "q|E|sse|e|se|e"),  # the same with held OK; the cursor starts on English
])
def test_with_no_match_the_held_menu_key_opens_settings(micropython, tmp_path, layout, keys):
    # A new device: the language can be changed before the first match. The screen's own key
    # (# or OK) still goes straight to a new match.
    run = run_sim(micropython, tmp_path, keys, layout)
    board, menu, settings, languages, home, rules = run.frames
    assert has(board, T("new match") + "?")
    assert menu == [T("menu"), "1 " + T("history"), "2 " + T("statistics"),
                    "3 " + T("settings"), "4 " + T("new match")]  # nothing to undo or redo
    assert has(settings, "1 " + T("language") + ": English")
    assert has(languages, "4 Deutsch")
    assert has(home, german("new match") + "?")
    assert rules[0] == german("new match") and has(rules, "1 " + german("rules_mariage"))
    assert run.state == {"match": None}
    again = run_sim(micropython, tmp_path, "", layout, name="again")  # the setting is kept
    assert has(again.words, german("rules_mariage"))


# What a deal entry of the menu enters with the first choice of each list under it:
# (keys after the item's number, the event line).
FIRST_CHOICE = {
    "next deal": ("", "next"),
    "trump": ("1", "trump S"),
    "result": ("11", "result 1 1"),
    "draw": ("", "draw"),
    "cut nine": ("", "cut9"),
    "redeal": ("", "redeal"),
    "three nines": ("11", "nines 1 won"),
    "contract": ("11", "bid 1 five"),
}


@pytest.mark.parametrize("rid", RULE_SETS)
def test_after_a_deal_the_menu_lists_only_what_the_deal_takes(micropython, tmp_path, rid):
    # The deal just ended: closing and claiming are refused whatever is picked, so they are
    # not offered; each entry that is offered counts when picked.
    lines = ["new %s dealer=1" % rid, "result 1 1"]
    keys = "".join(k for _line, k in match_keys(lines, KEYPAD))
    rules = Rules(rid)
    expect = ["next deal", "trump", "result"] + ["draw"] * rules.draws
    if rules.pairs:
        expect += ["cut nine", "redeal", "three nines", "contract"]
    run = run_sim(micropython, tmp_path, keys + "|m" + "|b" * len(expect))
    assert has(run.frames[0], "# " + T("next deal"))
    items = {}
    for frame in run.frames[1:]:
        for w in frame:
            number, _sp, label = w.partition(" ")
            if number.isdigit() and label:
                items[int(number)] = label
    assert [items[i + 1] for i in range(len(expect) + 1)] == [T(k) for k in expect] + [T("undo")]
    for i, key in enumerate(expect):
        more, line = FIRST_CHOICE[key]
        picked = run_sim(micropython, tmp_path, keys + "m" + str(i + 1) + more, KEYPAD,
                         tmp_path / ("flash" + str(i)), "pick" + str(i))
        assert picked.state == as_json(replay(lines + [line])), key
        assert not has(picked.words, T("x deal_over")), key


def menu_words(micropython, tmp_path, lines, layout, name):
    """The words of every row of the menu opened after these lines (scrolled through)."""
    m = replay(lines)
    keys = "".join(k for _line, k in match_keys(lines, layout))
    down = "b" if layout == KEYPAD else "s"
    run = run_sim(micropython, tmp_path, keys + open_menu(m.state, layout) + ("|" + down) * 14,
                  layout, tmp_path / name, name)
    assert run.state == as_json(m)
    return [w for frame in run.frames for w in frame]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_four_players_the_deals_opening_entries_leave_the_menu_with_the_first_trick(
        micropython, tmp_path, layout):
    opening = [T(k) for k in ("cut nine", "redeal", "three nines", "contract")]
    new = ["new mariage4 dealer=1"]
    words = menu_words(micropython, tmp_path, new, layout, "new")
    assert all(has(words, k) for k in opening)
    # Trump counts as the deal's start for the cut; the rest wait for the first trick.
    words = menu_words(micropython, tmp_path, new + ["trump S"], layout, "trump")
    assert not has(words, T("cut nine")) and all(has(words, k) for k in opening[1:])
    words = menu_words(micropython, tmp_path, new + ["trump S", "trick 1 A T K Q"], layout,
                       "trick")
    assert has(words, T("claim 66"))
    assert [k for k in opening if has(words, k)] == []


@pytest.mark.parametrize("layout", LAYOUTS)
def test_four_players_a_nine_in_the_cut_says_how_many(micropython, tmp_path, layout):
    # The scoreboard does not change with a nine in the cut: a message says how many.
    m = replay(["new mariage4 dealer=1"])
    keys = "".join(k for _line, k in match_keys(["new mariage4 dealer=1"], layout))
    cut = menu(m.state, layout, CUT9)
    run = run_sim(micropython, tmp_path, keys + cut + "|" + cut + "|" + cut, layout)
    one, two, third = run.frames
    assert has(one, T("nines cut") + ": 1") and has(two, T("nines cut") + ": 2")
    assert has(third, T("why_cut_nines")) and not has(third, T("nines cut"))
    assert run.state == as_json(replay(["new mariage4 dealer=1"] + ["cut9"] * 3))


# --- refused keys ---------------------------------------------------------------------------


def flash_bytes(folder):
    return {name: (folder / name).read_bytes() for name in sorted(os.listdir(folder))}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_fifth_ace_is_refused_and_changes_nothing(micropython, tmp_path, layout):
    if layout == KEYPAD:
        start, fifth, then = "128a11b11", "a12", "b23"
    else:
        start, fifth, then = "eseqese" + "www" + "sww", "wws", "ses"
    lines = ["new mariage dealer=1", "trump H", "trick 1 A A", "trick 2 A A"]
    flash = tmp_path / "flash"
    before = run_sim(micropython, tmp_path, start, layout, flash, "before")
    assert before.state == as_json(replay(lines))
    saved = flash_bytes(flash)

    refused = run_sim(micropython, tmp_path, fifth, layout, flash, "refused")
    assert refused.state == before.state
    assert has(refused.words, T("x too_many"))
    assert flash_bytes(flash) == saved  # nothing written for a refused entry

    after = run_sim(micropython, tmp_path, then, layout, flash, "after")  # the next one counts
    assert after.state == as_json(replay(lines + ["trick 2 T K"]))


def test_a_late_trick_after_the_deal_is_refused(micropython, tmp_path):
    lines = ["new mariage dealer=1", "trump H", "marriage 2 H", "trick 2 K A", "trick 2 A T"]
    run = run_sim(micropython, tmp_path, "1288b31b12|a|12")
    assert run.state == as_json(replay(lines))
    assert has(run.frames[0], "# " + T("next deal"))
    assert has(run.frames[1], T("x deal_over"))
    # A rank key says the same: a winner first would not help, the deal is over.
    assert has(run.frames[2], T("x deal_over")) and not has(run.frames[2], T("winner first"))


# --- restart ---------------------------------------------------------------------------


@pytest.mark.parametrize("layout,first,then", [
    (KEYPAD, "128b31a12", "b34"),  # in a deal
    (KEYPAD, "1288b31b12", "*"),  # on the result of a deal: undo goes back into it
    (KEYPAD, "1288b31b12#7a12#2", "b56"),  # after closing in the next deal
    (BUTTONS, "eseqese" + "sww", "Q"),
])
def test_restart_resumes_on_the_same_screen(micropython, tmp_path, layout, first, then):
    flash = tmp_path / "flash"
    one = run_sim(micropython, tmp_path, first, layout, flash, "one")
    two = run_sim(micropython, tmp_path, "", layout, flash, "two")  # quit, start again
    assert two.state == one.state
    assert two.screen == one.screen
    assert two.words == one.words
    three = run_sim(micropython, tmp_path, then, layout, flash, "three")
    straight = run_sim(micropython, tmp_path, first + then, layout, tmp_path / "f2", "straight")
    assert three.state == straight.state
    assert three.screen == straight.screen


# --- the interactive simulator in a terminal ----------------------------------------------


def panel(text, width):
    """The panel lines between the frame's vertical bars."""
    return [line[1:1 + width] for line in text.split("\n") if line.startswith("\u2502")]


# Panel modes of the terminal (tools/termpanel.py): text columns and lines, window size.
TERM_MODES = {"quad": (64, 32, "100", "45"), "big": (256, 64, "270", "75")}


@pytest.mark.parametrize("mode", TERM_MODES)
def test_interactive_simulator_under_tmux(micropython, tmp_path, mode):
    tmux = shutil.which("tmux")
    if tmux is None:
        pytest.fail("tmux is not installed: apt-get install -y tmux (see make deps / .ci/run)")
    width, height, cols, rows = TERM_MODES[mode]
    socket = "sim-test-%d" % os.getpid()
    flash = tmp_path / "flash"
    cmd = "env MICROPYPATH=%s %s %s --flash %s --panel %s" % (
        shlex.quote(":".join([FIRMWARE, TOOLS, ".frozen"])), shlex.quote(MICROPYTHON),
        shlex.quote(SIM), shlex.quote(str(flash)), mode)
    base = [tmux, "-u", "-L", socket, "-f", "/dev/null"]

    def tm(*args):
        return subprocess.run(base + list(args), capture_output=True, text=True, timeout=10)

    def capture():
        return tm("capture-pane", "-p", "-t", "sim").stdout

    def wait_for(lines, timeout=10):
        end = time.time() + timeout
        while time.time() < end:
            got = panel(capture(), width)
            if got == lines:
                return got
            time.sleep(0.05)
        assert panel(capture(), width) == lines

    def scripted(keys, name):
        run = run_sim(micropython, tmp_path, keys, KEYPAD, tmp_path / name, name, mode)
        return run.screen.split("\n")[:height]

    started = tm("new-session", "-d", "-s", "sim", "-x", cols, "-y", rows, "-c", ROOT, cmd)
    assert started.returncode == 0, started.stderr
    try:
        wait_for(scripted("", "s0"))
        assert "x quit" in capture()
        tm("send-keys", "-t", "sim", "-l", "12")
        start = wait_for(scripted("12", "s1"))
        tm("send-keys", "-t", "sim", "-l", "88b31b12")
        end = wait_for(scripted("1288b31b12", "s2"))
        assert start[:14] != end[:14]  # the big score digits changed
        tm("send-keys", "-t", "sim", "Enter")  # Enter is #: the next deal
        wait_for(scripted("1288b31b12#", "s3"))
        tm("send-keys", "-t", "sim", "-l", "x")
        deadline = time.time() + 10
        while tm("has-session", "-t", "sim").returncode == 0 and time.time() < deadline:
            time.sleep(0.05)
        assert tm("has-session", "-t", "sim").returncode != 0, "x did not quit"
    finally:
        tm("kill-server")
    saved = run_sim(micropython, tmp_path, "", KEYPAD, flash, "saved")
    assert saved.state["score"] == [0, 3]
    assert saved.state["deals"] == 1 and saved.state["deal"]["dealer"] == 2


def real_process(marker):
    """The pid of the process that runs the simulator (the MicroPython runtime): of the
    processes whose command line holds `marker`, the one that is nobody's parent (make, its
    recipe's shell and tools/simterm.sh hold the marker too)."""
    found = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmdline = f.read()
            with open("/proc/%s/stat" % pid) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        if marker.encode() in cmdline:
            found[int(pid)] = ppid
    leaves = [pid for pid in found if pid not in found.values()]
    assert len(leaves) == 1, found
    return leaves[0]


@pytest.mark.parametrize("end", ["TERM", "HUP", "C-c", "x"])
def test_make_sim_gives_the_terminal_back_however_it_ends(tmp_path, end):
    """`make sim` as users run it, in a tmux pane's shell: after the simulator ends (by a
    SIGTERM or SIGHUP to its process, Ctrl-C or x), the terminal is back in canonical mode
    with echo (stty -a of the pane)."""
    tmux = shutil.which("tmux")
    if tmux is None:
        pytest.fail("tmux is not installed: apt-get install -y tmux (see make deps / .ci/run)")
    # a server of its own per case: the last case's may still be exiting
    socket = "sim-stty-%d-%s" % (os.getpid(), end)
    flash = tmp_path / "flash"
    out = tmp_path / "stty.txt"
    base = [tmux, "-u", "-L", socket, "-f", "/dev/null"]

    def tm(*args):
        return subprocess.run(base + list(args), capture_output=True, text=True, timeout=10)

    def until(what, timeout=15):
        end_at = time.time() + timeout
        while time.time() < end_at:
            if what():
                return True
            time.sleep(0.05)
        return False

    # -o: the virtual environment is taken as it is (make would not rebuild it here anyway)
    line = "make -s -o %s sim ARGS='--flash %s'; stty -a > %s" % (
        os.path.join(".venv", ".installed"), flash, out)
    started = tm("new-session", "-d", "-s", "sim", "-x", "100", "-y", "45", "-c", ROOT, "sh")
    assert started.returncode == 0, started.stderr
    try:
        tm("send-keys", "-t", "sim", "-l", line)
        tm("send-keys", "-t", "sim", "Enter")
        assert until(lambda: "x quit" in tm("capture-pane", "-p", "-t", "sim").stdout), \
            tm("capture-pane", "-p", "-t", "sim").stdout
        if end in ("TERM", "HUP"):
            os.kill(real_process(str(flash)), getattr(signal, "SIG" + end))
        elif end == "C-c":
            tm("send-keys", "-t", "sim", "C-c")
        else:
            tm("send-keys", "-t", "sim", "-l", end)
        assert until(lambda: out.exists() and out.read_text().strip()), "the shell did not return"
    finally:
        tm("kill-server")
    flags = out.read_text().split()
    assert "icanon" in flags and "-icanon" not in flags
    assert "echo" in flags and "-echo" not in flags


# --- figures ----------------------------------------------------------------------------


def test_ui_figures_are_computed(micropython, tmp_path):
    flash = tmp_path / "figures"
    proc = micropython([os.path.join(TOOLS, "ui_figures.py"), "--matches", "1", "--flash",
                        str(flash)], timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    fig = json.loads(proc.stdout)
    assert fig["full_frame"] == 8 * (128 + 5)  # show_full: 8 pages of 128 bytes + 5 framing
    assert not flash.exists()
    for name in ("trick2", "trick3", "trick4", "quick_deal"):
        for layout in LAYOUTS:
            f = fig[name][layout]
            assert f["n"] > 0
            assert f["min"] <= f["median"] <= f["max"] and f["min"] <= f["mean"] <= f["max"]
            assert f["min"] >= {"trick2": 3, "trick3": 4, "trick4": 5, "quick_deal": 2}[name]
    for name in ("per_key_bytes", "per_key_trick_bytes"):
        for layout in LAYOUTS:
            f = fig[name][layout]
            assert f["n"] > 0
            assert 0 < f["median"] <= f["p95"] <= f["max"] <= fig["full_frame"]
            assert abs(f["median_pct_of_full"] - 100 * f["median"] / fig["full_frame"]) < 0.01
    n = fig["per_key_bytes"]
    assert n[KEYPAD]["n"] + n[BUTTONS]["n"] == fig["presses"]


def test_new_match_options_target_and_counting_down(micropython, tmp_path):
    # The dealer list carries the players and the match options: item 5 cycles the target (7 -> 8),
    # item 7 counting down; then item 2 starts with player 1 dealing.
    run = run_sim(micropython, tmp_path, "1572", KEYPAD)
    assert run.state["rules"] == "mariage"
    assert run.state["target"] == 8
    assert run.state["shown"] == [8, 8]  # counting down from the target
    assert run.state["deal"]["dealer"] == 1


def test_the_menu_code_leaves_ram_when_the_players_return_to_the_scoreboard(micropython, tmp_path):
    # On the board the bytecode of an imported module lives in the heap: the menus are
    # loaded when a list opens and dropped again on the way home; the scoreboard's code
    # leaves while a list covers it and comes back with it.
    script = tmp_path / "menus_ram.py"
    script.write_text(
        "import gc, sys\n"
        "from sim import Sim\n"
        "s = Sim(%r, 'keypad')\n"
        "for ch in '12': s.press(ch)\n"
        "gc.collect(); home = gc.mem_alloc()\n"
        "s.press('#')\n"
        "gc.collect(); menu = gc.mem_alloc()\n"
        "board = 'ui.scoreboard' in sys.modules\n"
        "s.press('*')\n"
        "gc.collect(); back = gc.mem_alloc()\n"
        "print(home, menu, back, 'ui.menus' in sys.modules, board,\n"
        "      'ui.scoreboard' in sys.modules)\n"
        % str(tmp_path / "flash"))
    out = micropython([str(script)])
    assert out.returncode == 0, out.stderr.decode()
    home, menu, back, menus, board_in_menu, board_back = out.stdout.decode().split()
    assert (menus, board_in_menu, board_back) == ("False", "False", "True")
    # The menu's code is in, the scoreboard's out (about as big: the difference is small)
    # and back home it is the other way round, as before the menu.
    assert abs(int(menu) - int(home)) < 4000
    assert abs(int(back) - int(home)) < 1000


def test_lang_shows_the_first_screen_of_a_fresh_flash_in_that_language(micropython, tmp_path):
    # A fresh flash opens on the new-match list, which the boot builds: --lang must be in
    # force before it, not only from the next start.
    from test_ui_text import TEXTS

    texts = tmp_path / "texts.json"
    proc = micropython([SIM, "--flash", str(tmp_path / "flash"), "--lang", "de", "--keys", "",
                        "--texts", str(texts)], timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    first = json.loads(texts.read_text())[0]
    assert first[0] == TEXTS["de"]["new match"] and first[0] != T("new match"), first
