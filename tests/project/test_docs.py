"""docs/rules.md answers "where is rule X enforced and tested?": every test it names exists, and
every `module` · `function` it names is defined there, so the page cannot drift from the code."""

import ast
import re
from pathlib import Path

import pytest

from tests.support import ROOT

RULES = (ROOT / "docs" / "rules.md").read_text()


def _names_defined(path: Path) -> set[str]:
    """Functions, classes and module-level names a Python file (or package) defines."""
    files = sorted(path.glob("*.py")) if path.is_dir() else [path]
    names = set()
    for file in files:
        for node in ast.walk(ast.parse(file.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


TESTS_NAMED = sorted(set(re.findall(r"(tests/[\w/]+\.py)::(\w+)", RULES)))
CODE_NAMED = sorted(set(re.findall(r"`([\w/]+(?:\.py)?)` · `(\w+)`", RULES)))


def test_the_rules_page_names_tests_and_code():
    assert len(TESTS_NAMED) > 50 and len(CODE_NAMED) > 20
    assert all(f"### {rule} " in RULES for rule in ("L1", "L8", "L11", "G1", "G10", "E1", "E5"))


@pytest.mark.parametrize(("module", "test"), TESTS_NAMED)
def test_every_test_the_rules_page_names_exists(module, test):
    assert test in _names_defined(ROOT / module), f"{module}::{test} is not there"


@pytest.mark.parametrize(("module", "name"), CODE_NAMED)
def test_every_function_the_rules_page_names_exists(module, name):
    path = ROOT / module
    assert path.exists(), f"{module} does not exist"
    assert name in _names_defined(path), f"{module} does not define {name}"
