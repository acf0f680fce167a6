"""The project keeps its shape (docs/design.md, Layers): core ← accounts ← matches ← ratings ←
league ← (clubs, events), the two format apps never importing each other, no import circle in any
package, the rules engine alone, no module over 400 lines, and every module on the design
page's Layout.

Read from the code with ast. Every import counts, those inside functions too: an import moved
into a function hides a circle from Python's start-up, it does not take it out of the design."""

import ast
import re
import sys
from pathlib import Path

from tests.support import ROOT

FLOORS = ["core", "accounts", "matches", "ratings", "league"]  # lowest first
FORMATS = ["clubs", "events"]  # one floor above league, side by side
APPS = FLOORS + FORMATS
ELSEWHERE = ["config", "benchmarks"]  # modules that are not an app's, also held to the rules


def python_files(packages) -> list[Path]:
    return [
        path
        for package in packages
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
    ]


def modules() -> dict[str, Path]:
    """Every module of the apps by dotted name (a package by its own name), migrations aside."""
    found = {}
    for path in python_files(APPS):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imported_names(name: str, path: Path) -> set[str]:
    """The dotted names a module imports, relative imports made absolute."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names.add(base)
            names |= {f"{base}.{alias.name}" for alias in node.names}
    return names


def graph() -> dict[str, set[str]]:
    """Which module of the apps imports which other module of the apps."""
    found = modules()

    def module_of(dotted: str) -> str | None:
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            if ".".join(parts[:end]) in found:
                return ".".join(parts[:end])
        return None

    edges = {}
    for name, path in found.items():
        targets = {module_of(dotted) for dotted in imported_names(name, path)}
        edges[name] = targets - {None, name}
    return edges


def reachable(edges: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for target in edges.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def test_no_import_circle_in_any_package():
    edges = graph()
    assert len(edges) > 200  # the walk found the apps' modules
    reach = {name: reachable(edges, name) for name in edges}
    circles = sorted(
        f"{name} <-> {other}"
        for name, targets in edges.items()
        for other in targets
        if name in reach[other]
    )
    assert circles == []


def forbidden_for(app: str) -> list[str]:
    """The apps `app` may not import: those above it, and a sibling format."""
    if app in FORMATS:
        return [other for other in FORMATS if other != app]
    return [*FLOORS[FLOORS.index(app) + 1 :], *FORMATS]


def test_every_app_imports_only_the_floors_below_it():
    """core imports none of the apps, accounts not matches, none of them league, league no
    format app, and a format app not the other: a result ripples upward through a signal, a
    format through league's registry, never through an import."""
    edges = {name: imported_names(name, path) for name, path in modules().items()}
    wrong = sorted(
        f"{name} -> {target}"
        for name, targets in edges.items()
        for target in targets
        for other in forbidden_for(name.split(".")[0])
        if target == other or target.startswith(other + ".")
    )
    assert wrong == []


def test_league_tests_no_format_value_to_decide_what_to_do():
    """League asks the registry (league.formats) what a format does; only its own formats, the
    league and the tournament, are named in its code."""
    named = sorted(
        f"{path.relative_to(ROOT)}:{number}"
        for path in python_files(["league"])
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"LeagueFormat\.(CLUB|EVENT)\b", line)
    )
    assert named == []


def test_the_rules_engine_imports_nothing_of_the_project_and_no_django():
    engine = {name: path for name, path in modules().items() if name.startswith("matches.scrabble")}
    assert len(engine) >= 8
    outside = sorted(
        f"{name} -> {target}"
        for name, path in engine.items()
        for target in imported_names(name, path)
        if not target.startswith("matches.scrabble")
        and target.split(".")[0] not in sys.stdlib_module_names
    )
    assert outside == []


def test_no_module_of_the_project_runs_over_400_lines():
    """A module over 400 lines holds more than one idea: split it by idea (migrations and tests
    aside)."""
    long = {
        str(path.relative_to(ROOT)): lines
        for path in python_files(APPS + ELSEWHERE)
        if (lines := len(path.read_text().splitlines())) > 400
    }
    assert long == {}


def layout_lines() -> list[str]:
    design = (ROOT / "docs" / "design.md").read_text()
    section = design.split("## Layout", 1)[1].split("\n## ", 1)[0]
    return section.split("```", 2)[1].splitlines()


def listed_modules() -> set[str]:
    """The modules the design page's Layout names: `app/` opens an app, an indented
    `path.py` is a module of it."""
    listed, app = set(), None
    for line in layout_lines():
        heading = re.match(r"^([a-z_]+)/\s", line + " ")
        if heading:
            app = heading.group(1)
            continue
        module = re.match(r"^\s+([\w/]+\.py)\s", line + " ")
        if module and app:
            listed.add(f"{app}/{module.group(1)}")
    return listed


def test_the_design_page_lists_every_module():
    """docs/design.md's Layout names every module, one line each (empty `__init__.py` files
    aside), and none that is gone."""
    modules_on_disk = {
        str(path.relative_to(ROOT))
        for path in python_files(APPS + ELSEWHERE)
        if path.read_text().strip() or path.name != "__init__.py"
    }
    listed = listed_modules()
    assert sorted(modules_on_disk - listed) == [], "not on the Layout"
    assert sorted(listed - modules_on_disk) == [], "on the Layout, not in the code"
