"""One option language: shared options read the same in every command, and default seeds repeat."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from purestate.cli import app
from purestate.core import spec

runner = CliRunner()

SHARED = ("--seed", "--json", "--force", "--jobs", "--dask", "--explore")


def _commands(group: Any, prefix: str = "") -> list[tuple[str, Any]]:
    # typer may ship its own click, so groups are told apart by their subcommands
    found: list[tuple[str, Any]] = []
    for name, cmd in sorted(group.commands.items()):
        if hasattr(cmd, "commands"):
            found += _commands(cmd, f"{prefix}{name} ")
        else:
            found.append((f"{prefix}{name}", cmd))
    return found


def test_a_shared_option_has_one_help_text_in_every_command() -> None:
    root = typer.main.get_command(app)
    helps: dict[str, dict[str, list[str]]] = {flag: {} for flag in SHARED}
    for name, cmd in _commands(root):
        for p in cmd.params:
            for flag in SHARED:
                if flag in p.opts:
                    helps[flag].setdefault(p.help or "", []).append(name)
    for flag, texts in helps.items():
        assert len(texts) == 1, f"{flag} has {len(texts)} help texts: {texts}"


def test_every_random_command_has_a_seed_option() -> None:
    root = typer.main.get_command(app)
    names = {name: cmd for name, cmd in _commands(root)}
    for name in ("evaluate", "selfplay", "tournament", "play", "tron run", "tron dataset",
                 "tron fit"):  # fmt: skip
        seed = [p for p in names[name].params if "--seed" in p.opts]
        assert seed and seed[0].default == 0, name


REPEATABLE = {
    "tournament": ["tournament", "--game", "tictactoe", "--agents", "random", "mcts:simulations=5",
                   "--games", "2", "--jobs", "1"],
    "tron run": ["tron", "run", "--bots", "random", "random", "--map", "small_room",
                 "--multi-test", "3", "--no-image"],
    "evaluate": ["evaluate", "--agent", "random", "--games", "5"],
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(REPEATABLE))
def test_the_same_command_twice_prints_the_same(name: str) -> None:
    args = REPEATABLE[name]
    a = runner.invoke(app, args)
    b = runner.invoke(app, args)
    assert a.exit_code == 0, a.output
    assert a.output == b.output
    c = runner.invoke(app, [*args, "--seed", "3"])
    assert c.exit_code == 0, c.output
    assert c.output == runner.invoke(app, [*args, "--seed", "3"]).output


REPORTING = {
    "games": ["games"],
    "agents": ["agents"],
    "solve": ["solve", "tictactoe"],
    "evaluate": ["evaluate", "--agent", "random", "--games", "3"],
    "tournament": ["tournament", "--game", "tictactoe", "--agents", "random", "random",
                   "--games", "2", "--jobs", "1"],
    "menace boxes": ["menace", "boxes", "--limit", "2"],
    "tron run": ["tron", "run", "--bots", "random", "random", "--map", "small_room",
                 "--multi-test", "2", "--no-image"],
    "tron maps": ["tron", "maps"],
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(REPORTING))
def test_reporting_commands_print_json(name: str) -> None:
    r = runner.invoke(app, [*REPORTING[name], "--json"])
    assert r.exit_code == 0, r.output
    json.loads(r.output)


def test_selfplay_json_is_json(tmp_path: Path) -> None:
    r = runner.invoke(app, ["selfplay", "--games", "20", "--block", "10", "--no-plot", "--out",
                            str(tmp_path / "run"), "--json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["games"] == 20


def test_tournament_names_are_whole_at_80_columns() -> None:
    args = ["tournament", "--game", "tictactoe", "--agents", "mcts:simulations=10",
            "mcts:simulations=20", "random", "--games", "2", "--jobs", "1"]  # fmt: skip
    r = runner.invoke(app, args, env={"COLUMNS": "80"}, terminal_width=80)
    assert r.exit_code == 0, r.output
    pairs = r.output[r.output.index("pairs") :]
    assert "mcts:simulations=10" in pairs and "mcts:simulations=20" in pairs
    assert "…" not in r.output
    assert max(len(line) for line in r.output.splitlines()) <= 80


def test_tournament_names_too_long_for_80_columns_are_listed_and_numbered() -> None:
    # two such names side by side in the pairs table would leave no room for the figures
    long = [f"mcts:simulations={n},c=0.31,playout=random,reuse=false,decisive=false"
            for n in (11, 12)]  # fmt: skip
    # the numbers follow the order given (the pairs' order), not the ranks
    args = ["tournament", "--game", "tictactoe", "--agents", "random", *long, "--games", "2",
            "--jobs", "1"]  # fmt: skip
    r = runner.invoke(app, args, env={"COLUMNS": "80"}, terminal_width=80)
    assert r.exit_code == 0, r.output
    head, pairs = r.output[: r.output.index("rank")], r.output[r.output.index("pairs") :]
    assert "#1 random" in head and f"#2 {long[0]}" in head and f"#3 {long[1]}" in head
    ranked = [line.split("│")[2].strip() for line in r.output[: r.output.index("pairs")]
              .splitlines() if line.startswith("│")]  # fmt: skip
    assert sorted(ranked) == ["#1", "#2", "#3"]
    rows = [line for line in pairs.splitlines() if line.startswith("│")]
    assert [row.split("│")[1:3] for row in rows] == [
        [" #1    ", " #2       "], [" #1    ", " #3       "], [" #2    ", " #3       "]
    ]  # fmt: skip
    assert all("0." in row for row in rows)  # the scores are shown
    assert max(len(line) for line in r.output.splitlines()) <= 80


def test_a_long_selfplay_prints_at_most_20_block_rows(tmp_path: Path) -> None:
    r = runner.invoke(app, ["selfplay", "--games", "5000", "--block", "100", "--no-plot",
                            "--out", str(tmp_path / "run")], terminal_width=80)  # fmt: skip
    assert r.exit_code == 0, r.output
    rows = [line for line in r.output.splitlines() if "│" in line and "–" in line]
    assert 0 < len(rows) <= 20
    assert "[low, high]: 95% Wilson interval" in r.output
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert len(summary["blocks"]) == 50  # the file keeps every block
    assert sum(int(line.split("│")[4]) for line in rows) == summary["losses"]


def test_attribute_docs_joins_continuations_and_skips_remarks() -> None:
    from purestate.core.spec import attribute_docs

    doc = """Summary.

    Attributes:
        a: First line
            and its continuation.
        b: Second.
        (a remark that names no attribute)

    Notes:
        c: not an attribute.
    """
    assert attribute_docs(doc) == {"a": "First line and its continuation.", "b": "Second."}


@pytest.mark.parametrize("kind", ["games", "agents"])
def test_listings_show_every_option_with_default_and_meaning(kind: str) -> None:
    import purestate
    from purestate.core import registry

    rows = json.loads(runner.invoke(app, [kind, "--json"]).output)
    assert [r["name"] for r in rows] == list(getattr(purestate, kind)())
    cls_of = registry.game_class if kind == "games" else registry.agent_class
    for r in rows:
        names = [o["name"] for o in r["details"]]
        assert r["options"] == ", ".join(sorted(names))  # "" when there are none (issue 21)
        assert sorted(names) == sorted(spec.option_fields(cls_of(r["name"]))), r["name"]
        for o in r["details"]:
            assert o["help"] and o["default"] != "", (r["name"], o)
    mcts = next(r for r in rows if r["name"] == "mcts") if kind == "agents" else None
    if mcts is not None:
        sims = next(o for o in mcts["details"] if o["name"] == "simulations")
        assert sims["default"] == "1000" and sims["help"].startswith("Simulations per move")
    text = runner.invoke(app, [kind], terminal_width=80).output
    assert max(len(line) for line in text.splitlines()) <= 80
    for r in rows:
        assert f"│ {r['name']} " in text  # whole names
        for o in r["details"]:
            assert f"│ {o['name']} " in text


def test_games_names_its_unit_and_old_spellings_still_work() -> None:
    root = typer.main.get_command(app)
    for name, cmd in _commands(root):
        for p in cmd.params:
            if "--games" in p.opts:
                assert p.help.startswith(("Games per ", "Games in ")), (name, p.help)
    base = ["tron", "run", "--bots", "random", "random", "--map", "small_room", "--no-image"]
    new = runner.invoke(app, [*base, "--games", "3"])
    assert new.exit_code == 0, new.output
    assert "out of 3 times" in new.output
    for old in ("-multi_test", "--multi-test"):
        assert runner.invoke(app, [*base, old, "3"]).output == new.output
    t = ["tournament", "--game", "tictactoe", "--agents", "random", "random", "--jobs", "1"]
    assert (
        runner.invoke(app, [*t, "-n", "2"]).output
        == runner.invoke(app, [*t, "--games", "2"]).output
    )


def test_sweep_names_are_whole_and_the_band_is_explained(tmp_path: Path) -> None:
    args = ["sweep", "--grid", "qlearning:alpha=0.1,0.5", "--seeds", "0-1", "--games", "20",
            "--block", "10", "--out", str(tmp_path / "sw"), "--jobs", "1"]  # fmt: skip
    r = runner.invoke(app, args, terminal_width=80)
    assert r.exit_code == 0, r.output
    assert "qlearning:alpha=0.1" in r.output and "qlearning:alpha=0.5" in r.output
    assert "± half-width of its 95% confidence band" in r.output
    assert max(len(line) for line in r.output.splitlines()) <= 80


def test_out_is_a_folder_for_tron_dataset_and_fit(tmp_path: Path) -> None:
    ds, fit = tmp_path / "ds", tmp_path / "fit"
    r = runner.invoke(app, ["tron", "dataset", "--out", str(ds), "--pair", "tron_greedy tron_wall",
                            "--map", "small_room", "--games", "4", "--json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["out"] == str(ds) and (ds / "positions.jsonl").is_file()
    again = runner.invoke(app, ["tron", "dataset", "--out", str(ds), "--map", "small_room"])
    assert again.exit_code == 2 and "already holds a run" in again.output
    r = runner.invoke(app, ["tron", "fit", str(ds), "--out", str(fit), "--all-positions"])
    assert r.exit_code == 0, r.output
    assert (fit / "weights.json").is_file()
    bots = ["--bots", "alphabeta:depth=1,eval=linear", "random"]
    r = runner.invoke(app, ["tron", "run", *bots, "--map", "small_room", "--no-image", "--weights",
                            str(fit)])  # fmt: skip
    assert r.exit_code == 0, r.output


def test_every_out_option_is_a_folder() -> None:
    root = typer.main.get_command(app)
    for name, cmd in _commands(root):
        for p in cmd.params:
            if "--out" in p.opts:
                assert "folder" in (p.help or "").lower(), (name, p.help)
