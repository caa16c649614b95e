"""The README and the docs tell the truth about the command line (issue 21).

Every ``purestate ...`` line the pages show names a command that exists and only options that
command has; every option a help text mentions is an option of that command; the commands the
pages say take ``--seed`` are exactly the ones that do; no flag shows a value placeholder.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import purestate
from purestate.cli import app

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def commands() -> dict[tuple[str, ...], Any]:
    """Every leaf command of the app by its words (``("tron", "run")``)."""
    found: dict[tuple[str, ...], Any] = {}

    def walk(command: Any, path: tuple[str, ...]) -> None:
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, (*path, name))
        else:
            found[path] = command

    walk(typer.main.get_command(app), ())
    return found


COMMANDS = commands()


def options(command: Any) -> set[str]:
    """The long and short option names ``command`` accepts, ``--help`` included."""
    names = {"--help"}
    for p in command.params:
        names.update(getattr(p, "opts", ()), getattr(p, "secondary_opts", ()))
    return names


def shown_lines() -> Iterator[tuple[str, list[str]]]:
    """``(where, words)`` for each ``purestate ...`` command line in a code block of the pages."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S):
            for line in block.replace("\\\n", " ").splitlines():
                line = line.strip().removeprefix("$ ")
                if not line.startswith("purestate ") or "[OPTIONS]" in line:
                    continue  # a usage line of the generated reference, not a command
                try:
                    words = shlex.split(line, comments=True)
                except ValueError:  # a line cut for the page, e.g. an unclosed quote
                    continue
                yield f"{page.relative_to(ROOT)}: {line[:60]}", words[1:]


def resolve(words: list[str]) -> tuple[tuple[str, ...], list[str]] | None:
    """The command the words name and the rest of the words, or None for the bare program."""
    for size in (2, 1):
        path = tuple(words[:size])
        if path in COMMANDS:
            return path, words[size:]
    return None


SHOWN = list(shown_lines())


def test_the_pages_show_command_lines() -> None:
    assert len(SHOWN) >= 40


@pytest.mark.parametrize(("where", "words"), SHOWN, ids=[w for w, _ in SHOWN])
def test_every_command_line_shown_names_a_command_and_its_options(
    where: str, words: list[str]
) -> None:
    if not words or words[0].startswith("-"):  # `purestate --version`, `purestate --help`
        assert all(w in ("--version", "--help") for w in words if w.startswith("--"))
        return
    found = resolve(words)
    assert found is not None, f"{where}: no command {' '.join(words[:2])!r}"
    path, rest = found
    unknown = [w.split("=")[0] for w in rest if w.startswith("--")]
    unknown = [w for w in unknown if w not in options(COMMANDS[path])]
    assert not unknown, f"{where}: {' '.join(path)} has no option {unknown}"


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=[" ".join(p) for p in sorted(COMMANDS)])
def test_every_option_a_help_text_names_exists(path: tuple[str, ...]) -> None:
    command = COMMANDS[path]
    texts = [command.help or ""] + [getattr(p, "help", None) or "" for p in command.params]
    named = {flag for t in texts for flag in FLAG.findall(t)}
    assert named <= options(command), named - options(command)


@pytest.mark.parametrize(
    "path", [(), *sorted(COMMANDS)], ids=["purestate", *map(" ".join, sorted(COMMANDS))]
)
def test_no_flag_shows_a_value_placeholder(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "--help" in result.output
    assert "<bool>" not in result.output


def test_the_commands_said_to_take_seed_are_the_ones_that_do() -> None:
    with_seed = {" ".join(p) for p, c in COMMANDS.items() if "--seed" in options(c)}
    # docs/experiments.md lists them in its "Options every command shares" section
    text = (ROOT / "docs" / "experiments.md").read_text(encoding="utf-8")
    listed = re.search(
        r"`--seed` defaults to 0 in every command that uses randomness \((.*?)\)", text, re.S
    )
    assert listed is not None
    named = {n for n in re.findall(r"`([a-z ]+)`", listed[1])} - {"sweep"}
    assert named == with_seed
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    # the README's claim is the same one, pointing at that list
    assert "Every command that plays games takes `--seed`" in readme
    plays = {" ".join(p) for p, c in COMMANDS.items() if "--games" in options(c) or p == ("play",)}
    assert plays - {"sweep"} <= with_seed


def _listed(game: str) -> list[str]:
    result = CliRunner().invoke(app, ["agents", "--game", game, "--json"])
    assert result.exit_code == 0, result.output
    return [row["name"] for row in json.loads(result.output)]


def test_agents_for_a_game_are_those_whose_check_takes_it() -> None:
    every = _listed("tictactoe")
    assert {"rules", "menace", "perfect", "mcts", "random"} <= set(every)
    big = _listed("ultimate_tictactoe")
    assert {"mcts", "alphabeta", "random"} <= set(big)
    assert not {"rules", "menace", "perfect"} & set(big)  # tic-tac-toe only; too large to solve
    assert set(big) < set(every) <= set(purestate.agents())


@pytest.mark.parametrize("game", ["tictactoe", "dots_and_boxes:rows=1,cols=2"])
def test_every_agent_listed_for_a_game_plays_it(game: str) -> None:
    g = purestate.make(game)
    for name in _listed(game):
        if name.startswith("openspiel_") and find_spec("pyspiel") is None:
            continue
        bot = purestate.agent(name)
        tables = (bot.initial_table(g, 0), None)
        episode = purestate.play(g, (bot, purestate.agent("random")), tables, purestate.key(0))
        assert g.is_over(episode.states[-1]), name


def test_json_listings_name_no_options_as_an_empty_string() -> None:
    result = CliRunner().invoke(app, ["agents", "--json"])
    rows = {row["name"]: row for row in json.loads(result.output)}
    assert rows["random"]["options"] == ""
    assert rows["mcts"]["options"]


def test_the_menace_boxes_key_explains_every_symbol_the_boxes_show(tmp_path: Path) -> None:
    from purestate.agents.menace import Menace
    from purestate.io.tables import save_table

    game, menace = purestate.make("tictactoe"), purestate.agent("menace:preset=scroggs")
    assert isinstance(menace, Menace)
    table = menace.initial_table(game, 0)
    empty = "." * 9
    box = table.boxes[empty]
    emptied = table.__class__(table.seat, table.boxes.set(empty, box.set(next(iter(box)), 0)))
    path = tmp_path / "table.json"
    save_table(path, game, menace, emptied, 0, 0)
    result = CliRunner().invoke(
        app, ["menace", "boxes", "--table", str(path), "--stage", "1"], env={"COLUMNS": "120"}
    )
    assert result.exit_code == 0, result.output
    key, boards = result.output.split("MENACE's move 1", 1)
    assert "0" in boards.split()  # the emptied move
    assert "·" in boards.split()  # squares whose colour another stands for
    assert "0:" in key and "· =" in key and "a number = beads" in key


@pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs purestate[openspiel]")
def test_games_lists_the_openspiel_games_the_bridge_plays() -> None:
    result = CliRunner().invoke(app, ["games", "--openspiel", "--json"])
    assert result.exit_code == 0, result.output
    names = [row["name"] for row in json.loads(result.output)]
    assert {"openspiel:connect_four", "openspiel:tic_tac_toe", "openspiel:hex"} <= set(names)
    # chance, simultaneous moves and hidden information are not purestate games
    assert not {"openspiel:kuhn_poker", "openspiel:goofspiel", "openspiel:backgammon"} & set(names)
    for name in names:  # every one listed loads and plays its first move
        game = purestate.make(name)
        assert game.legal(game.initial())
    plain = CliRunner().invoke(app, ["games"], env={"COLUMNS": "200"})
    # read as words: a console made earlier in the process keeps its own width and may wrap
    assert "purestate games --openspiel" in " ".join(plain.output.split())


def test_the_command_line_starts_without_matplotlib() -> None:
    # pyplot costs about half a second of every command's start; only drawing commands load it
    import subprocess
    import sys

    code = "import sys, purestate.cli; print('matplotlib' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_the_command_line_starts_without_numpy() -> None:
    # numpy costs about a tenth of a second of every command's start; the commands that read or
    # write arrays (table archives, cached solutions, Elo) import it when they do
    import subprocess
    import sys

    code = "import sys, purestate.cli; print('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_the_command_table_names_every_command_in_the_help_order() -> None:
    from purestate.cli import COMMANDS

    root = typer.main.get_command(app)
    assert list(root.commands) == list(COMMANDS)  # type: ignore[attr-defined]


def test_a_typed_command_imports_its_own_module_alone() -> None:
    # main() imports the module of the command typed, not every command's (start-up time)
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.argv = ['purestate', 'solve', '--help']\n"
        "from purestate.cli import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    assert e.code in (0, None), e.code\n"
        "print(' '.join(m for m in sys.modules if m.startswith('purestate.cli.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = done.stdout.strip().splitlines()[-1].split()
    assert "purestate.cli.solve" in loaded
    assert "purestate.cli.tron" not in loaded and "purestate.cli.sweep" not in loaded
    assert "Usage:" in done.stdout and "solve" in done.stdout
