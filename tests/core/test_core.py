"""core holds what every app shares and sits below them all: it imports none of them
(DESIGN.md: core ← accounts ← matches ← league)."""

import ast
from pathlib import Path

from tests.support import ROOT

CORE = ROOT / "core"
APPS = {"accounts", "matches", "league"}


def imported_apps(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names & APPS


def test_core_imports_none_of_the_apps():
    modules = sorted(CORE.rglob("*.py"))
    assert len(modules) >= 5  # the walk found core's modules

    assert {str(path.relative_to(CORE)): imported_apps(path) for path in modules} == {
        str(path.relative_to(CORE)): set() for path in modules
    }
