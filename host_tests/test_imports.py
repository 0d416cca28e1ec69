"""The import graphs of firmware/ and of the whole repository: no module imports itself
back, even lazily.

The graph is read from the source (every import statement, also those inside functions,
which MicroPython code uses to load a module only when it is needed), so an import circle
fails here with its path spelled out, before it fails on a board halfway through an import.
Outside firmware/ a module name is resolved as the folder's code finds it when it runs
(PATHS), and a circle is named by its files.
"""

import ast
import os
import re

import pytest
from conftest import FIRMWARE, ROOT


def module_files(root):
    """{module name: path} of every .py under root ("ui.app", "sixtysix", "main")."""
    found = {}
    for top, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in names:
            if not name.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(top, name), root)[:-3].replace(os.sep, ".")
            if rel == "__init__" or rel.endswith(".__init__"):
                rel = rel[: -len("__init__")].rstrip(".")
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

KNOWN = {"ui", "ui.app", "ui.scoreboard", "ui.menus", "ui.screen", "sixtysix", "sixtysix.deal",
         "sixtysix.deal4"}

IMPORTS = [
    # (module, source, the firmware modules it imports)
    ("ui.scoreboard", "from ui.screen import W\n", {"ui", "ui.screen"}),
    ("ui.app", "def f():\n    from ui import menus\n", {"ui", "ui.menus"}),
    ("ui.app", "import gc, ui.scoreboard\n", {"ui", "ui.scoreboard"}),
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
    assert "ui.menus" in graph["ui.app"] and "ui.scoreboard" in graph["ui.app"]
    assert "sixtysix.deal4" in graph["sixtysix.deal"]


def test_ui_screens_depend_one_way(graph):
    # The base module imports no other ui module; board and menus build on it and on the
    # leaf helpers, never on the app or on each other (the app reaches them).
    assert [m for m in graph["ui.screen"] if m.startswith("ui")] == []
    for screen in ("ui.scoreboard", "ui.menus"):
        assert graph[screen] & {"ui.app", "ui.scoreboard", "ui.menus"} == set(), screen
        assert "ui.screen" in graph[screen]


# ---- the whole repository ------------------------------------------------------------------

# Each folder's code and the folders on its import path, first first, as it runs: the
# firmware alone; the tools with the firmware (and the tests' folder, so that a tool that
# loaded a test helper would be seen doing it); the browser's glue beside the firmware it
# ships with; the club's programs from the root (club.db), with the firmware; the tests
# with the firmware, the tools and the fake machine module.
PATHS = {
    "firmware": ("firmware",),
    "tools": ("tools", "firmware", "host_tests"),
    "web": ("web", "firmware"),
    "club": ("", "firmware"),
    "host_tests": ("host_tests", "firmware", "tools", os.path.join("host_tests", "fake_machine")),
}


def _modules_on(root, entry):
    """{module name: path} importable from one folder of a path. From the root only its
    packages (folders with __init__.py): the rest of it is no module anyone imports."""
    folder = os.path.join(root, entry)
    if entry:
        return module_files(folder)
    found = {}
    for name in sorted(os.listdir(folder)):
        if os.path.isfile(os.path.join(folder, name, "__init__.py")):
            found.update({(name + "." + m).rstrip("."): p
                          for m, p in module_files(os.path.join(folder, name)).items()})
    return found


def repo_graph(root=ROOT, paths=PATHS):
    """{file: the files it imports}, files relative to root, for every .py under the
    folders of `paths`, each resolved on its own folder's path."""
    graph = {}
    for folder, path in paths.items():
        known = {}
        for entry in reversed(path):  # the first folder on the path wins
            known.update(_modules_on(root, entry))
        names = {p: m for m, p in known.items()}
        for module, src in module_files(os.path.join(root, folder)).items():
            # A file's name is the one its nearest folder on the path gives it
            # (host_tests/fake_machine/machine.py is `machine`).
            module = names.get(src, module)
            with open(src, encoding="utf-8") as f:
                found = imports_of(module, f.read(), known, src)
            graph[_rel(src, root)] = {_rel(known[m], root) for m in found}
    return graph


def _rel(path, root):
    return os.path.relpath(path, root).replace(os.sep, "/")


@pytest.fixture(scope="module")
def repo():
    return repo_graph()


def test_the_repository_has_no_import_circle(repo):
    cycle = find_cycle(repo)
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_the_repository_graph_resolves_each_folders_names(repo):
    # Names resolve across folders as each runs: a resolver that found nothing would find
    # no circle either.
    assert "tools/targets.py" in repo["tools/bench.py"]
    assert "tools/targets.py" in repo["tools/web_figures.py"]
    assert "firmware/ui/keyboard.py" in repo["tools/sim.py"]
    assert {"web/export.py", "firmware/ui/keyboard.py"} <= repo["web/webmain.py"]
    assert {"club/db.py", "club/intake.py"} <= repo["club/service.py"]
    assert "club/standings.py" in repo["club/intake.py"]
    assert "club/broker.py" in repo["club/view.py"] and "club/view.py" in repo["club/director.py"]
    assert "tools/faultfs.py" in repo["tools/fuzz.py"]
    assert "tools/web.py" in repo["host_tests/conftest.py"]
    assert "firmware/sixtysix/cards.py" in repo["firmware/sixtysix/events.py"]  # relative


# Product code (firmware/, club/, web/) as it would resolve if tools/ and host_tests/ were on
# its path too: whatever it then reaches there, it would need them for.
PRODUCT = ("firmware", "club", "web")


def _path_inserts(source):
    """The lines of `source` that put tools/ or host_tests/ on sys.path: a sys.path insert,
    append, extend or slice whose line, or the module, names either folder."""
    tree = ast.parse(source)
    names = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
             and isinstance(n.value, str) and n.value.strip("/") in ("tools", "host_tests")}
    found = []
    for n in ast.walk(tree):
        target = None
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            target = n.func.value  # sys.path.insert(...)
        elif isinstance(n, ast.Assign):
            target = n.targets[0].value if isinstance(n.targets[0], ast.Subscript) else None
        if target is not None and ast.unparse(target) == "sys.path" and names:
            found.append(n.lineno)
    return found


def product_reaches(root=ROOT):
    """{product file: the files of tools/ or host_tests/ it imports or puts on sys.path}."""
    paths = {f: PATHS[f] + ("tools", "host_tests") for f in PRODUCT}
    found = {}
    for f, deps in repo_graph(root, paths).items():
        bad = {d for d in deps if d.split("/")[0] in ("tools", "host_tests")}
        with open(os.path.join(root, f), encoding="utf-8") as src:
            bad |= {"sys.path at line %d" % n for n in _path_inserts(src.read())}
        if bad:
            found[f] = bad
    return found


def test_product_code_never_reaches_into_tools_or_tests():
    assert product_reaches() == {}


def test_no_tool_loads_a_test_helper(repo):
    on_tests = {f: sorted(d for d in deps if d.startswith("host_tests/"))
                for f, deps in repo.items() if f.startswith("tools/")}
    assert {f: d for f, d in on_tests.items() if d} == {}


def test_the_product_check_finds_an_import_and_a_path_insert(tmp_path):
    for folder in ("firmware/ui", "club", "tools", "host_tests", "web"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "club" / "__init__.py").write_text("")
    (tmp_path / "tools" / "helper.py").write_text("")
    (tmp_path / "host_tests" / "kit.py").write_text("")
    (tmp_path / "firmware" / "ui" / "ok.py").write_text("import sys\nsys.path.append('x')\n")
    (tmp_path / "firmware" / "ui" / "bad.py").write_text("def f():\n    import helper\n")
    (tmp_path / "club" / "a.py").write_text(
        "import os, sys\nsys.path.insert(0, os.path.join('r', 'tools'))\n")
    (tmp_path / "web" / "glue.py").write_text("from kit import x\n")
    assert product_reaches(str(tmp_path)) == {
        "firmware/ui/bad.py": {"tools/helper.py"}, "club/a.py": {"sys.path at line 2"},
        "web/glue.py": {"host_tests/kit.py"}}


def test_a_circle_across_folders_is_named_by_its_files(tmp_path):
    (tmp_path / "club").mkdir()
    (tmp_path / "club" / "__init__.py").write_text("")
    (tmp_path / "club" / "a.py").write_text("def f():\n    from club.b import g\n")
    (tmp_path / "club" / "b.py").write_text("import ui.thing\n")
    (tmp_path / "firmware" / "ui").mkdir(parents=True)
    (tmp_path / "firmware" / "ui" / "thing.py").write_text("")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "t.py").write_text("import thing\n")  # not on the tools' path
    paths = {"club": ("", "firmware"), "firmware": ("firmware",), "tools": ("tools",)}
    graph = repo_graph(str(tmp_path), paths)
    assert graph["club/b.py"] == {"firmware/ui/thing.py"}
    assert graph["tools/t.py"] == set()
    assert find_cycle(graph) is None
    (tmp_path / "club" / "b.py").write_text("import ui.thing\nfrom club import a\n")
    assert find_cycle(repo_graph(str(tmp_path), paths)) == ["club/a.py", "club/b.py", "club/a.py"]


def _top_level(source):
    """Only the imports a module runs as it loads (not those inside functions)."""
    body = ast.parse(source).body
    return "\n".join(ast.unparse(n) for n in body if isinstance(n, (ast.Import, ast.ImportFrom)))


def test_the_page_imports_only_what_its_build_holds():
    # tools/web.py bundles the firmware (less NOT_IMPORTED) and the glue in web/: every file
    # the page's modules reach, as the page finds them, must be one of those, and none may
    # load a tool as it loads (the page has no tools; a host-only branch may, in a function).
    import web

    glue = {"web/" + name for name in web.GLUE}
    page = repo_graph(paths={"web": PATHS["web"], "firmware": PATHS["web"]})
    shipped = glue | ({f for f in page if f.startswith("firmware/")} - {
        "firmware/" + rel for rel in web.NOT_IMPORTED})
    reached, todo = set(), sorted(glue)
    while todo:
        f = todo.pop()
        if f not in reached:
            reached.add(f)
            todo.extend(page[f])
    assert reached - shipped == set()
    assert {"firmware/ui/keyboard.py", "firmware/ui/app.py"} <= reached
    tools = module_files(os.path.join(ROOT, "tools"))
    for f in sorted(reached):
        with open(os.path.join(ROOT, f), encoding="utf-8") as src:
            loads = imports_of("", _top_level(src.read()), tools)
        assert loads == set(), "%s loads %s from tools/, which the page lacks" % (f, loads)


def test_the_club_link_knows_no_screen(graph):
    # net/clublink.py reports codes to on_event; the App (ui/app.py) has the words.
    for module in ("net.clublink", "net.outbox", "net.wire", "net.mqtt"):
        assert [m for m in graph[module] if m.startswith("ui")] == [], module


def test_the_core_imports_nothing_above_it(graph):
    for module, deps in graph.items():
        if module.startswith("sixtysix"):
            assert {m.partition(".")[0] for m in deps} <= {"sixtysix"}, module


# ---- the floors docs/architecture.md draws ------------------------------------------------


def doc_floors(text, known):
    """{module or package name: floor} from the floor table of docs/architecture.md: each
    row's backquoted firmware paths (`ui/`, `loop.py`, `update/boot.py`) in its second
    column, those that name a module or package of `known` (a bare `blobs.py` after
    `session/` is its folder's, already named)."""
    floors = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 4 or not cells[1].isdigit():
            continue
        for path in cells[2].split("`")[1::2]:
            name = path.rstrip("/")
            name = (name[:-3] if name.endswith(".py") else name).replace("/", ".")
            if name in known or any(k.startswith(name + ".") for k in known):
                floors.setdefault(name, int(cells[1]))
    return floors


def floor_of(module, floors):
    """The floor of the longest name in the table that is module or a package above it."""
    parts = module.split(".")
    for i in range(len(parts), 0, -1):
        name = ".".join(parts[:i])
        if name in floors:
            return name, floors[name]
    return None, None


def floor_breaks(graph, floors):
    """[(module, floor, import, its floor)] for each import that does not go down a floor
    (within one folder imports are free), and (module, None, ...) for a module the table
    lacks."""
    out = []
    for module in sorted(graph):
        name, f = floor_of(module, floors)
        if f is None:
            out.append((module, None, None, None))
            continue
        for dep in sorted(graph[module]):
            dname, df = floor_of(dep, floors)
            if dname is None:
                out.append((dep, None, None, None))
            elif dname.partition(".")[0] != name.partition(".")[0] and df >= f:
                out.append((module, f, dep, df))
    return out


@pytest.fixture(scope="module")
def floors(graph):
    with open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8") as f:
        return doc_floors(f.read(), graph)


def test_the_floors_are_read_from_the_docs(floors):
    # A table the reader missed would check nothing.
    assert floors["main"] > floors["loop"] > floors["startup"] > floors["wiring"]
    assert floors["wiring"] > floors["ui"] > floors["session"] > floors["store"]
    assert floors["hw"] > floors["loader"] > floors["sixtysix"] == floors["compat"]
    assert floors["update.boot"] > floors["update"]


def test_every_import_goes_down_the_floors_the_docs_draw(graph, floors):
    # Issue: the battery gauge (hw/) called the session and the texts (ui/), which stood
    # hw/ above them, and no test compared the real graph with the table.
    assert floor_breaks(graph, floors) == []


def test_the_floor_check_catches_an_import_upwards(floors):
    graph = {"hw.gauge": {"ui.i18n"}, "ui.i18n": set(), "mystery": set()}
    assert floor_breaks(graph, floors) == [("hw.gauge", 2, "ui.i18n", 4),
                                           ("mystery", None, None, None)]


# ---- names that say one thing ------------------------------------------------------------

PRODUCT = ("firmware", "web", "club")


def _names_in(folders):
    """({package name: [folders]}, {module base name: [files]}) under the product folders
    (the page's scripts count as modules: web/app.js beside ui/app.py was one more App)."""
    packages, modules = {}, {}
    for folder in folders:
        for top, dirs, names in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            rel = _rel(top, ROOT)
            if "__init__.py" in names:
                packages.setdefault(os.path.basename(top), []).append(rel)
            for name in names:
                if name.endswith((".py", ".js")) and name != "__init__.py":
                    modules.setdefault(name.rsplit(".", 1)[0], []).append(rel + "/" + name)
    return packages, modules


def test_no_product_package_shares_a_name_with_a_module():
    # `app/` beside ui/app.py, or net/club.py beside club/, made a reader ask which one an
    # import meant: every package and module of the product has a name of its own.
    packages, modules = _names_in(PRODUCT)
    assert {n: (packages[n], modules[n]) for n in set(packages) & set(modules)} == {}
    assert {n: fs for n, fs in modules.items() if len(fs) > 1} == {}
    assert {n: ps for n, ps in packages.items() if len(ps) > 1} == {}


# ---- the page's modules ------------------------------------------------------------------

# import ... from "./x.js", import "./x.js", import("./x.js"), new URL("./x.js", ...) (a
# worker's module).
JS_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*|new URL\(\s*)["']\./([^"']+)["']""")


def page_graph():
    """{file under web/ (or the build's, as micropython.mjs): the files it imports}, for
    every file the page reaches from page.js, statically or with import()."""
    graph, todo = {}, ["page.js"]
    while todo:
        name = todo.pop()
        if name in graph:
            continue
        path = os.path.join(ROOT, "web", name)
        if not name.endswith(".js") or not os.path.exists(path):
            graph[name] = set()  # not ours: the runtime, npm's bundles, the model
            continue
        with open(path, encoding="utf-8") as f:
            graph[name] = set(JS_IMPORT.findall(f.read()))
        todo.extend(graph[name])
    return graph


def test_the_page_is_modules_of_one_job_each_under_300_lines():
    # Issue 47: web/page.js (595 lines) held the frame pipeline, the keys, the texts, the
    # beeper, the club form, the downloads, the bundle and the test hooks over one object
    # of 28 fields. Each job has its module now (tools/web.py PAGE), each under 300 lines;
    # page.js reaches every one, and the build ships (and the service worker caches) every
    # file the page reaches.
    import web

    graph = page_graph()
    assert set(web.PAGE) <= set(graph), set(web.PAGE) - set(graph)
    for name in web.PAGE:
        with open(os.path.join(ROOT, "web", name), encoding="utf-8") as f:
            lines = len(f.read().splitlines())
        assert lines <= web.PAGE_LINES, "web/%s has %d lines" % (name, lines)
    # Reached but not the page's own: the durable store (tools/web.py STORE, its modules
    # under 300 lines too), the club's transport and camera mode (each a job of its own),
    # and what the build brings from npm.
    for name in web.STORE:
        with open(os.path.join(ROOT, "web", name), encoding="utf-8") as f:
            lines = len(f.read().splitlines())
        assert lines <= web.PAGE_LINES, "web/%s has %d lines" % (name, lines)
    others = set(web.STORE) | {"clubmqtt.js", "camera.js", "camread.js", "camview.js",
                               "camteach.js", "camdeck.js"}
    assert {n for n in graph if n.endswith(".js") and os.path.exists(
        os.path.join(ROOT, "web", n))} - set(web.PAGE) == others
    shipped = set(web.STATIC) | set(web.RUNTIME_FILES) | set(web.CAMERA) | {"mqtt.esm.js"}
    assert set(graph) - shipped == set()
    assert not set(web.PAGE) & set(web.LAZY)  # cached at install: the page works offline


def test_every_call_into_python_from_the_page_is_counted():
    # The test of one call per key (test_web_page.py) reads runtime.js's count: a Python
    # module the page imports is always wrapped by counted(), so no call goes uncounted.
    for name in sorted(page_graph()):
        path = os.path.join(ROOT, "web", name)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if "pyimport(" in line:
                    assert "counted(" in line, "web/%s:%d: %s" % (name, n, line.strip())
