"""Screens and hosts use the App's own surface (ui/app.py), never what is behind it.

A screen (firmware/ui/*) or a host (firmware/startup.py, web/webmain.py, tools/sim.py) that
reaches `app.session`, `app.store` or `app.fb` ties itself to the session's, the store's or
the panel's insides: what it needs of them is a method of App (names(), stats(), undo(),
new_match(), always_lit(), save_settings(); the browser's WebApp adds typed(), retype() and
close()). Hosts also give the app its hooks when it is built (wiring.build's on_settings,
export and kind), never by setting attributes on it afterwards.
The source is read, not run: the check covers code no test happens to reach.
"""

import ast
import os

import pytest
from conftest import ROOT

BEHIND = ("session", "store", "fb")
HOSTS = ("firmware/startup.py", "web/webmain.py", "tools/sim.py")


def screens():
    folder = os.path.join(ROOT, "firmware", "ui")
    return sorted("firmware/ui/" + n for n in os.listdir(folder)
                  if n.endswith(".py") and n != "app.py")


def _is_app(node):
    """An expression that names the app: app, _app, self.app, page.app, _app()."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id in ("app", "_app")
    return isinstance(node, ast.Attribute) and node.attr in ("app", "_app")


def reaches(source):
    """[(line, what)] where `source` reaches behind the app or sets its attributes."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _is_app(node.value):
            if node.attr in BEHIND:
                found.append((node.lineno, "app." + node.attr))
            elif isinstance(node.ctx, ast.Store):
                found.append((node.lineno, "app." + node.attr + " ="))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "getattr" and node.args and _is_app(node.args[0])
              and isinstance(node.args[1], ast.Constant) and node.args[1].value in BEHIND):
            found.append((node.lineno, "getattr(app, %r)" % node.args[1].value))
    return found


@pytest.mark.parametrize("path", screens() + list(HOSTS))
def test_no_screen_or_host_reaches_behind_the_app(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        found = reaches(f.read())
    assert not found, "%s reaches behind the App: %s" % (path, found)


@pytest.mark.parametrize("source", [
    "app.session.undo()",
    "x = app.session.store.load_blob('names')",
    "getattr(app.fb, 'contrast', None)",
    "getattr(app, 'fb')",
    "self.app.store",
    "_page.app.session.load_stats()",
    "_app().session",
    "_app.export = want",
    "app.on_settings = power.configure",
    "self.app.dirty = True",
])
def test_the_check_catches_each_way_round(source):
    assert reaches(source), source


def test_the_check_leaves_the_app_s_own_surface_alone():
    assert reaches("app.undo(); app.names(text); app.stats(); app.match.state; "
                   "app.settings['sound']; app.screen.pick; x = app.typed()") == []


def test_the_screens_and_hosts_are_found():
    # A rename must not leave the check looking at nothing.
    assert "firmware/ui/scoreboard.py" in screens() and len(screens()) > 10
    for path in HOSTS:
        assert os.path.exists(os.path.join(ROOT, path)), path
