"""Games describe themselves: no table keyed by game name, and no test of a game's name, outside
``games/`` (issue 22).

A new game must not need an edit in a generic module: what the bridges, the pictures, the web app,
the solvers and the evaluations need to know about a game, the game says (the hooks of
``core/game.py`` and its ``GameSpec``). This test reads every module of ``src/purestate`` outside
``games/`` (the syntax tree, not the text, so comments, docstrings and messages that mention a
game do not count) and refuses:

* a dict literal with a registered game's name as a key (a table keyed by game);
* a set, list or tuple literal holding two or more registered names (a table of games), except
  as the arguments of ``made_for`` (an evaluation declaring the games it is made for, beside it);
* a comparison (``==``, ``!=``, ``in``, ``not in``) with a registered name, or with a literal
  holding one (``game.spec.name == "tron"``);
* ``.startswith`` / ``.endswith`` / ``.removeprefix`` of a registered name;
* a ``match`` case on a registered name.

The registry's ``_GAMES`` (one line per game) is the one table allowed; ``ALLOWED`` lists the other
places with the reason each is not a table a new game would have to join.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import purestate
from purestate.core import registry

SRC = Path(__file__).resolve().parents[1] / "src" / "purestate"
NAMES = frozenset(purestate.games())

# (module, line text that holds the name or the class) -> why it stays
_ONE_GAME = "an agent or evaluation made for one game checks that it got it"
ALLOWED: dict[tuple[str, str], str] = {
    ("web/app.py", 'tron = [r for r in listed if r["game"] == "tron" and r["games"]]'): (
        "the /tron page is Tron's own page (its shipped maps and the matches on them), not a "
        "table every game joins"
    ),
    (
        "agents/rules.py",
        "if type(game) is not TicTacToe:  # the rules are tic-tac-toe's, as ``act`` checks",
    ): _ONE_GAME,
    ("agents/rules.py", "if type(game) is not TicTacToe:"): _ONE_GAME,
    ("heuristics/tron/evaluations.py", "if not isinstance(game, Tron):"): _ONE_GAME,
    ("heuristics/uttt.py", "if not isinstance(game, UltimateTicTacToe):"): (
        "the uttt heuristic's compiled twin reads ultimate's rows only (Xtreme's rows are laid "
        "out otherwise and keep the Python evaluation)"
    ),
    ("cli/menace.py", "as_boards = isinstance(g, TicTacToe)"): (
        "`menace boxes` draws a box from tic-tac-toe's position text (MENACE's own boards); "
        "every other game lists its beads"
    ),
    ("cli/__init__.py", "COMMANDS: dict[str, str] = {"): (
        "the commands and the modules that define them; `tron` is a command (Tron's runner), "
        "not a table every game joins"
    ),
    ("io/pictures.py", "if isinstance(game, Tron):"): (
        "a Tron match's file picture is the shell's matplotlib drawing (io/tron.py: crash marks, "
        "a key naming the bots), which `tron run` writes too"
    ),
}


def _names_in(node: ast.AST) -> list[str]:
    """The registered names among the string constants directly in ``node`` (a literal)."""
    if isinstance(node, ast.Constant):
        return [node.value] if node.value in NAMES else []
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in NAMES]
    return []


def _declares_made_for(call: ast.AST) -> bool:
    if not isinstance(call, ast.Call):
        return False
    f = call.func
    return (isinstance(f, ast.Name) and f.id == "made_for") or (
        isinstance(f, ast.Attribute) and f.attr == "made_for"
    )


def _registered_classes() -> frozenset[str]:
    return frozenset(registry.game_class(name).__name__ for name in NAMES)


CLASSES = _registered_classes()


def _tests_game_class(node: ast.AST) -> bool:
    """``isinstance(x, Tron)`` or ``type(x) is Tron`` with a registered game's class."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "isinstance"
        and len(node.args) == 2
    ):
        kinds = node.args[1]
        elts = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
        return any(isinstance(e, ast.Name) and e.id in CLASSES for e in elts)
    if isinstance(node, ast.Compare) and any(
        isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops
    ):
        return any(isinstance(c, ast.Name) and c.id in CLASSES for c in node.comparators)
    return False


def findings(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) for every table or test of game names in the module ``tree``."""
    found: list[tuple[int, str]] = []
    made_for_args = {
        id(arg) for node in ast.walk(tree) if _declares_made_for(node) for arg in node.args
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            if any(k is not None and _names_in(k) for k in node.keys):
                found.append((node.lineno, "a dict keyed by game name"))
            elif any(_names_in(v) for v in node.values):
                found.append((node.lineno, "a dict of game names"))
        elif isinstance(node, (ast.Set, ast.List, ast.Tuple)):
            if len(_names_in(node)) >= 2 and id(node) not in made_for_args:
                found.append((node.lineno, "a collection of game names"))
        elif isinstance(node, ast.Compare):
            ops_named = any(
                isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) for op in node.ops
            )
            sides = [node.left, *node.comparators]
            if ops_named and any(_names_in(side) for side in sides):
                found.append((node.lineno, "a test of a game's name"))
        elif isinstance(node, ast.Call):
            f = node.func
            if (
                isinstance(f, ast.Attribute)
                and f.attr in ("startswith", "endswith", "removeprefix")
                and any(_names_in(a) for a in node.args)
            ):
                found.append((node.lineno, "a test of a game's name"))
        elif isinstance(node, ast.MatchValue) and _names_in(node.value):
            found.append((node.lineno, "a match on a game's name"))
        if _tests_game_class(node):
            found.append((node.lineno, "a test of a game's class"))
    return found


def _allowed(rel: str, line: str) -> bool:
    if rel == "core/registry.py" and line.startswith("_GAMES"):
        return True
    return (rel, line) in ALLOWED


def _scan() -> list[str]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith("games/"):
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for lineno, what in findings(ast.parse(text)):
            line = lines[lineno - 1].strip()
            if not _allowed(rel, line):
                out.append(f"{rel}:{lineno}: {what}: {line}")
    return out


def test_no_table_or_test_of_game_names_outside_the_games() -> None:
    assert _scan() == []


def test_every_allowed_place_still_exists() -> None:
    # an entry left behind after its code moved would allow the next table in its place
    for rel, line in ALLOWED:
        assert line in (SRC / rel).read_text(encoding="utf-8"), (rel, line)


@pytest.mark.parametrize(
    "code",
    [
        'PLANES = {"tictactoe": 1, "tron": 2}',
        'DRAWN = ("tictactoe", "dots_and_boxes")',
        'if game.spec.name == "tron": pass',
        'ok = name in ("connect_four", "chess")',
        'kind = "tron" if spec.startswith("tron") else "games"',
        'match name:\n    case "tictactoe":\n        pass',
        'EVALS = {"voronoi": ("tron",)}',
        "if isinstance(game, Tron): pass",
        "if type(game) is not TicTacToe: pass",
    ],
)
def test_the_scan_finds_each_kind_of_table_and_test(code: str) -> None:
    assert findings(ast.parse(code))


def test_the_scan_lets_declarations_and_other_words_be() -> None:
    fine = [
        '@made_for("ultimate_tictactoe", "xtreme_tictactoe")\ndef f(): pass',
        'for_big = made_for("ultimate_tictactoe", "xtreme_tictactoe")',
        'game = make("tictactoe")',
        'HELP = "e.g. tictactoe or tron"',
        'if kind == "games": pass',
    ]
    for code in fine:
        assert findings(ast.parse(code)) == [], code
