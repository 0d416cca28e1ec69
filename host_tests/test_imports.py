"""The import graph of firmware/: no module imports itself back, even lazily.

The graph is read from the source (every import statement, also those inside functions,
which MicroPython code uses to load a module only when it is needed), so an import circle
fails here with its path spelled out, before it fails on a board halfway through an import.
"""

import ast
import os

import pytest
from conftest import FIRMWARE


def module_files(root):
    """{module name: path} of every .py under root ("ui.app", "sixtysix", "main")."""
    found = {}
    for top, _dirs, names in os.walk(root):
        for name in names:
            if not name.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(top, name), root)[:-3].replace(os.sep, ".")
            if rel.endswith(".__init__"):
                rel = rel[: -len(".__init__")]
            found[rel] = os.path.join(top, name)
    return found


def _package(module, path):
    return module if path.endswith("__init__.py") else module.rpartition(".")[0]


def imports_of(module, source, known, path=""):
    """The modules of `known` that `source` (module `module`) imports, anywhere in it."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.update(_known_prefixes(alias.name, known))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = _package(module, path)
                for _ in range(node.level - 1):
                    pkg = pkg.rpartition(".")[0]
                base = pkg + "." + base if base else pkg
            out.update(_known_prefixes(base, known))
            for alias in node.names:
                sub = base + "." + alias.name if base else alias.name
                if sub in known:  # `from ui import menus` imports the module ui.menus
                    out.add(sub)
    out.discard(module)
    return out


def _known_prefixes(name, known):
    """Importing a.b.c runs a, a.b and a.b.c: those of them that are firmware modules."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)} & set(known)


def import_graph(root):
    files = module_files(root)
    graph = {}
    for module, path in files.items():
        with open(path, encoding="utf-8") as f:
            graph[module] = imports_of(module, f.read(), files, path)
    return graph


def find_cycle(graph):
    """One import circle as a list of modules (the first repeated at the end), or None."""
    state = {}  # module -> 1 while on the current path, 2 when done
    path = []

    def visit(m):
        state[m] = 1
        path.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


# ---- the checker itself ------------------------------------------------------------------

KNOWN = {"ui", "ui.app", "ui.board", "ui.menus", "ui.screen", "sixtysix", "sixtysix.deal",
         "sixtysix.deal4"}

IMPORTS = [
    # (module, source, the firmware modules it imports)
    ("ui.board", "from ui.screen import W\n", {"ui", "ui.screen"}),
    ("ui.app", "def f():\n    from ui import menus\n", {"ui", "ui.menus"}),
    ("ui.app", "import gc, ui.board\n", {"ui", "ui.board"}),
    ("ui.app", "class A:\n    def m(self):\n        import ui.menus as m\n",
     {"ui", "ui.menus"}),
    ("sixtysix.deal", "def f():\n    from .deal4 import ENTRIES4\n",
     {"sixtysix", "sixtysix.deal4"}),
    ("ui.app", "import framebuf\nfrom sixtysix.errors import Refused\n", {"sixtysix"}),
    ("ui.screen", "'''from ui.app import App'''\n", set()),  # a docstring is no import
]


@pytest.mark.parametrize("module,source,expected", IMPORTS)
def test_imports_are_read_from_every_statement(module, source, expected):
    assert imports_of(module, source, KNOWN) == expected


CYCLES = [
    ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
    ({"a": {"b"}, "b": {"a"}}, ["a", "b", "a"]),
    ({"a": {"a"}}, ["a", "a"]),
    ({"a": {"b", "d"}, "b": {"c"}, "c": {"d"}, "d": {"b"}}, ["b", "c", "d", "b"]),
    ({"x": {"y"}, "y": set(), "z": {"x", "y"}}, None),
]


@pytest.mark.parametrize("graph,cycle", CYCLES)
def test_find_cycle(graph, cycle):
    assert find_cycle(graph) == cycle


# ---- firmware/ ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def graph():
    return import_graph(FIRMWARE)


def test_firmware_has_no_import_circle(graph):
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_the_graph_sees_the_lazy_imports(graph):
    # Imported inside functions only: a reader that missed those would miss circles.
    assert "ui.menus" in graph["ui.app"] and "ui.board" in graph["ui.app"]
    assert "sixtysix.deal4" in graph["sixtysix.deal"]


def test_ui_screens_depend_one_way(graph):
    # The base module imports no other ui module; board and menus build on it and on the
    # leaf helpers, never on the app or on each other (the app reaches them).
    assert [m for m in graph["ui.screen"] if m.startswith("ui")] == []
    for screen in ("ui.board", "ui.menus"):
        assert graph[screen] & {"ui.app", "ui.board", "ui.menus"} == set(), screen
        assert "ui.screen" in graph[screen]


def test_the_club_link_knows_no_screen(graph):
    # net/club.py reports codes to on_event; the App (ui/app.py) has the words.
    for module in ("net.club", "net.outbox", "net.wire", "net.mqtt"):
        assert [m for m in graph[module] if m.startswith("ui")] == [], module


def test_the_core_imports_nothing_above_it(graph):
    for module, deps in graph.items():
        if module.startswith("sixtysix"):
            assert {m.partition(".")[0] for m in deps} <= {"sixtysix"}, module


# ---- club/ (the host side) ---------------------------------------------------------------


def test_club_has_no_import_circle():
    from conftest import ROOT

    root = os.path.join(ROOT, "club")
    files = {"club." + m: p for m, p in module_files(root).items()}
    files["club"] = files.pop("club.__init__")
    graph = {}
    for module, path in files.items():
        with open(path, encoding="utf-8") as f:
            graph[module] = imports_of(module, f.read(), files, path)
    assert "club.broker" in graph["club.view"] and "club.view" in graph["club.director"]
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle)
