"""Tests and properties reach purestate through its public names only: what a test needs is a
documented name of the module it tests (or the public API), so that a test never pins a detail
the module may change, and a reader sees what the tests rely on."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).parent.parent


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # the parent is a module, not a package
        return False


def private_uses(source: str) -> list[str]:
    """``module._name`` attributes and ``from module import _name`` imports of purestate's
    modules in ``source``."""
    tree = ast.parse(source)
    modules: set[str] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("purestate"):
            assert node.module is not None
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"from {node.module} import {alias.name}")
                if _is_module(f"{node.module}.{alias.name}"):
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name.startswith("purestate"):
                    modules.add(alias.asname)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def test_the_finder_sees_both_spellings() -> None:
    source = "from purestate.experiments import tron as series\nseries._agent('x')\n"
    source += "from purestate.cli.common import _clocked\nfrom hypothesis import _x\n"
    assert private_uses(source) == [
        "from purestate.cli.common import _clocked",
        "series._agent",
    ]


def test_tests_and_properties_use_only_public_names() -> None:
    found = []
    for folder in ("tests", "properties"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            found += [f"{rel}: {use}" for use in private_uses(path.read_text(encoding="utf-8"))]
    assert found == []
