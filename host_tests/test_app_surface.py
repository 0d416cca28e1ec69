"""Every module uses the App's own surface (ui/app.py), never what is behind it.

A module of firmware/ or web/ (a screen, a host, the loop, a driver) or the simulator that
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
HOSTS = ("tools/sim.py",)
# The App's own code: ui/app.py, and its parts loaded only for their moment (ui/app_*.py).
OWN = ("firmware/ui/app.py",)
# Where the App still is reached behind. The list may only shrink: it is empty since the
# club link takes its session from ui/app_club.py (issue 47).
KNOWN = {}


def screens():
    """Every module of firmware/ and web/ but the App's own code."""
    found = []
    for top in ("firmware", "web"):
        for folder, dirs, names in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "node_modules")]
            for n in names:
                rel = os.path.relpath(os.path.join(folder, n), ROOT).replace(os.sep, "/")
                if n.endswith(".py") and rel not in OWN and not rel.startswith(
                        "firmware/ui/app_"):
                    found.append(rel)
    return sorted(found)


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
    assert found == KNOWN.get(path, []), "%s reaches behind the App: %s" % (path, found)


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
    assert "firmware/ui/scoreboard.py" in screens() and len(screens()) > 60
    assert {"firmware/hw/gauge.py", "firmware/loop.py", "web/webcamera.py",
            "firmware/startup.py", "web/webmain.py"} <= set(screens())
    for path in HOSTS:
        assert os.path.exists(os.path.join(ROOT, path)), path


# ---- private names stay in their folder ----------------------------------------------------


def _package(rel):
    """The folder a module belongs to: firmware/ui/text.py -> firmware/ui; a top-level
    firmware module is its own (firmware/loop.py)."""
    folder = rel.rpartition("/")[0]
    return rel if folder == "firmware" else folder


def private_crossings(sources):
    """[(file, line, use)] where `obj._name` is used (obj not self or cls) in a folder whose
    modules define no `_name` (a def, a class, a `self._name =`, a module-level name):
    another folder's insides."""
    defined, uses = {}, []
    for rel, source in sources.items():
        names = defined.setdefault(_package(rel), set())
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                own = node.value.id in ("self", "cls")
                if own and isinstance(node.ctx, ast.Store):
                    names.add(node.attr)
                elif (not own and node.attr.startswith("_")
                      and not node.attr.startswith("__")):
                    uses.append((rel, node.lineno, node.value.id + "." + node.attr))
    return [u for u in uses if u[2].partition(".")[2] not in defined[_package(u[0])]]


def test_no_module_uses_another_folder_s_private_names():
    # Issue 47: the gauge called session._summary and session's _drop_saved; the update job
    # swapped the MQTT link's _in buffer (now MQTT.use_buffer).
    sources = {}
    for rel in screens() + list(OWN):
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            sources[rel] = f.read()
    assert {(f, use) for f, _line, use in private_crossings(sources)} <= KNOWN_PRIVATE


# Names of another format, not another folder's insides: a font_to_py module keeps its glyphs
# under _font and _mvi (ui/fontload.py reads them).
KNOWN_PRIVATE = {("firmware/ui/fontload.py", "font._font"),
                 ("firmware/ui/fontload.py", "font._mvi")}


def test_the_private_name_check_catches_a_crossing():
    sources = {"firmware/hw/gauge.py": "def f(s):\n    s._summary()\n",
               "firmware/session/__init__.py": "class S:\n    def _summary(self): pass\n",
               "firmware/session/stats.py": "def g(s):\n    return s._summary()\n"}
    assert private_crossings(sources) == [("firmware/hw/gauge.py", 2, "s._summary")]
