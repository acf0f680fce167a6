"""The floors below league keep their shape (docs/design.md, Layers): core ← accounts ← matches,
no import circle inside them, and the rules engine alone.

Read from the code with ast. Every import counts, those inside functions too: an import moved
into a function hides a circle from Python's start-up, it does not take it out of the design."""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOORS = ["core", "accounts", "matches"]  # lowest first
ABOVE = ["league", "clubs", "events"]


def modules() -> dict[str, Path]:
    """Every module of the floors by dotted name (a package by its own name), migrations aside."""
    found = {}
    for package in FLOORS:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
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
    """Which module of the floors imports which other module of the floors."""
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


def test_no_import_circle_in_core_accounts_or_matches():
    edges = graph()
    assert len(edges) > 80  # the walk found the floors' modules
    reach = {name: reachable(edges, name) for name in edges}
    circles = sorted(
        f"{name} <-> {other}"
        for name, targets in edges.items()
        for other in targets
        if name in reach[other]
    )
    assert circles == []


def test_core_accounts_and_matches_import_nothing_above_them():
    """core imports none of the apps, accounts not matches, and none of them league or the
    format apps: a result ripples upward through a signal, not an import."""
    edges = {name: imported_names(name, path) for name, path in modules().items()}
    upward = sorted(
        f"{name} -> {target}"
        for name, targets in edges.items()
        for target in targets
        for higher in [*FLOORS[FLOORS.index(name.split(".")[0]) + 1 :], *ABOVE]
        if target == higher or target.startswith(higher + ".")
    )
    assert upward == []


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


def test_no_module_of_the_floors_or_the_benchmark_runs_over_400_lines():
    """A module over 400 lines holds more than one idea: split it by idea (migrations aside)."""
    paths = [*modules().values(), *sorted((ROOT / "benchmarks").glob("*.py"))]
    long = {
        str(path.relative_to(ROOT)): lines
        for path in paths
        if (lines := len(path.read_text().splitlines())) > 400
    }
    assert long == {}
