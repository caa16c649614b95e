"""No import circle among purestate's modules.

Two modules that import each other at module level load only in one order, and each half of the
pair is read before the other is whole; the layers contract (``lint-imports``) cannot see a
circle inside one layer. This test reads every module's module-level imports, those under
``if TYPE_CHECKING:`` included (a circle there is two modules that need each other, which the
type checker alone resolves), and fails on any strongly connected set of more than one module.
An import inside a function runs when called, after both modules have loaded, and is left out:
the command modules import the typer app whose ``main`` imports them to register them.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "purestate"

KNOWN: frozenset[frozenset[str]] = frozenset()
"""Circles known when this test was written, each to be removed: the test fails on any other,
and on a known one that has gone (so the entry is dropped with the circle)."""


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _top_level(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """The imports at a module's top level: its body's, and those in its top-level ``if`` (``if
    TYPE_CHECKING:`` too), ``try`` and ``with`` blocks."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If):
            found += _top_level(node.body) + _top_level(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                found += _top_level(block)
            for handler in node.handlers:
                found += _top_level(handler.body)
        elif isinstance(node, ast.With):
            found += _top_level(node.body)
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules ``name`` imports at module level."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in _top_level(tree.body):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                up = here[: len(here) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            # ``from pkg import sub`` imports the module ``pkg.sub`` when there is one
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        out |= {t for t in targets if t in known and t != name}
    return out


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.add(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(frozenset(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_no_import_circle_among_purestates_modules() -> None:
    found = set(circles(graph()))
    unexpected = sorted(sorted(c) for c in found - KNOWN)
    assert not unexpected, f"import circles: {unexpected}"
    gone = sorted(sorted(c) for c in KNOWN - found)
    assert not gone, f"these known circles are gone; drop them from KNOWN: {gone}"


def test_the_circle_finder_sees_a_circle_and_reads_imports() -> None:
    # the finder itself: a circle through three modules, a chain that is none
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]
    assert circles({"a": {"b"}, "b": set()}) == []
    g = graph()
    # a module-level import is an edge, a function-level one is not (pettingzoo imports the
    # hooks at the top, Tron's rules import its drawing inside ``draw``; the registry reaches the
    # games only through strings; the typer app imports its command modules inside ``main``)
    assert "purestate.core.hooks" in g["purestate.interop.pettingzoo"]
    assert "purestate.games.tron.drawing" not in g["purestate.games.tron.rules"]
    assert "purestate.cli.play" not in g["purestate.cli"]
    assert "purestate.core.match" in g["purestate.interop.to_openspiel"]
    assert not any(m.startswith("purestate.games") for m in g["purestate.core.registry"])
