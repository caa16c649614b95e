"""The command line through typer's CliRunner: outputs, files, and one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from purestate.cli import app

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.output


def test_selfplay_writes_the_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, text = run("selfplay", "--opponent", "random", "--games", "120", "--out", str(out))
    assert code == 0, text
    for name in ("table.json", "games.jsonl", "summary.json", "learning_curve.png"):
        assert (out / name).exists()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 120 and summary["seed"] == 0
    assert summary["wins"] + summary["draws"] + summary["losses"] == 120
    assert summary["agent"] == "menace:preset=michie" and summary["opponent"] == "random"
    lines = (out / "games.jsonl").read_text().splitlines()
    assert len(lines) == 120 and json.loads(lines[0])["index"] == 0
    table = json.loads((out / "table.json").read_text())
    assert len(table["boxes"]) == 304 and table["games"] == 120


def test_selfplay_resume_continues_the_same_games(tmp_path: Path) -> None:
    # --games is the run's total: a run of 50 resumed to 80 is the run of 80
    whole, part = tmp_path / "whole", tmp_path / "part"
    base = ["selfplay", "--opponent", "random", "--seed", "3", "--no-plot", "--json"]
    assert run(*base, "--games", "80", "--out", str(whole))[0] == 0
    assert run(*base, "--games", "50", "--out", str(part))[0] == 0
    code, text = run(*base, "--games", "80", "--resume", str(part / "table.json"))
    assert code == 0, text
    assert (part / "games.jsonl").read_text() == (whole / "games.jsonl").read_text()
    a = json.loads((whole / "table.json").read_text())
    b = json.loads((part / "table.json").read_text())
    assert a["boxes"] == b["boxes"] and b["games"] == 80


def test_selfplay_qlearning_self_logs_the_train_fold(tmp_path: Path) -> None:
    # the shell plays Q-learning self-play through the fused loop, in stretches cut at every
    # checkpoint: the log and table must be the library's generic fold, game for game
    import itertools

    import purestate
    from purestate.io.tables import load_table

    out = tmp_path / "q"
    code, text = run(
        "selfplay", "--agent", "qlearning", "--opponent", "self", "--games", "250",
        "--checkpoint", "100", "--seed", "4", "--out", str(out), "--no-plot", "--json",
    )  # fmt: skip
    assert code == 0, text
    game = purestate.make("tictactoe")
    agent = purestate.agent("qlearning")
    t0 = agent.initial_table(game, 0)
    steps = list(
        itertools.islice(
            purestate.train(
                game, (agent, agent), (t0, t0), purestate.key(4), learning=(True, True), shared=True
            ),
            250,
        )
    )
    logged = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert [r["moves"] for r in logged] == [list(s.episode.moves) for s in steps]
    assert [r["index"] for r in logged] == list(range(250))
    saved = load_table(out / "table.json", game, agent)
    assert saved.games == 250 and saved.table == steps[-1].tables[0]
    # and a run resumed from its checkpoint goes on with the same games
    part = tmp_path / "part"
    base = ["selfplay", "--agent", "qlearning", "--opponent", "self", "--seed", "4", "--no-plot"]
    assert run(*base, "--games", "100", "--out", str(part))[0] == 0
    code, text = run(*base, "--more", "150", "--resume", str(part))
    assert code == 0, text
    assert (part / "games.jsonl").read_text() == (out / "games.jsonl").read_text()
    assert load_table(part / "table.json", game, agent).table == saved.table


def test_selfplay_stops_where_menace_refuses_to_play(tmp_path: Path) -> None:
    # MENACE playing second against the perfect player empties its first box: the shell stops
    # at that game, as the library fold says, and saves the table after it
    from purestate.experiments.selfplay import Selfplay, refused

    out = tmp_path / "m"
    code, text = run(
        "selfplay", "--opponent", "perfect", "--seat", "second", "--games", "400", "--seed", "0",
        "--out", str(out), "--no-plot", "--json",
    )  # fmt: skip
    assert code == 0, text
    summary = json.loads(text)
    sp = Selfplay("tictactoe", "menace", "perfect", 1, 0)
    game = sp.make_game()
    stop = next(
        s.index + 1 for s in sp.run(game, sp.initial_tables(game), 0) if refused(s.episode, 1)
    )
    assert stop < 400
    assert summary["first_refusal"] == stop and summary["refused"] == 1
    assert len((out / "games.jsonl").read_text().splitlines()) == stop
    assert json.loads((out / "table.json").read_text())["games"] == stop


def test_selfplay_menace_against_itself(tmp_path: Path) -> None:
    out = tmp_path / "self"
    code, text = run(
        "selfplay", "--opponent", "self", "--games", "40", "--out", str(out), "--no-plot"
    )
    assert code == 0, text
    assert json.loads((out / "opponent_table.json").read_text())["seat"] == 1


def test_evaluate_json_has_both_seats() -> None:
    code, text = run(
        "evaluate", "--agent", "random", "--opponent", "random", "--games", "50", "--json"
    )
    assert code == 0, text
    data = json.loads(text)
    for seat in ("first", "second"):
        assert sum(data[seat][k] for k in ("wins", "draws", "losses")) == 50


def test_evaluate_a_saved_menace_table(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert run("selfplay", "--opponent", "random", "--games", "30", "--out", str(out))[0] == 0
    code, text = run(
        "evaluate",
        "--agent",
        "menace",
        "--table",
        str(out / "table.json"),
        "--games",
        "20",
        "--json",
    )
    assert code == 0, text
    data = json.loads(text)
    assert data["second"] is None and data["first"]["wins"] >= 0


def test_evaluate_on_workers_plays_the_same_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # game i of a seat has its own key, so worker processes play exactly the games one
    # process plays, and the log keeps their order; a table's learner plays from it there too
    from purestate.cli import evaluate

    spread: list[bool] = []
    plain = evaluate.seat_games

    def noted(*args: Any) -> Any:
        spread.append(args[8] is not None)  # the executor's run, or None for this process
        return plain(*args)

    monkeypatch.setattr(evaluate, "seat_games", noted)
    table = tmp_path / "run"
    assert run("selfplay", "--opponent", "random", "--games", "30", "--out", str(table))[0] == 0
    cases = (["--agent", "mcts:simulations=20", "--opponent", "random", "--games", "37"],
             ["--table", str(table / "table.json"), "--opponent", "mcts:simulations=8",
              "--games", "9"])  # fmt: skip
    for n, case in enumerate(cases):
        outputs = []
        for jobs in ("1", "2", "3"):
            folder = tmp_path / f"games{n}_{jobs}"
            args = [
                "evaluate",
                *case,
                "--seed",
                "4",
                "--json",
                "--jobs",
                jobs,
                "--out",
                str(folder),
            ]
            result = runner.invoke(app, args)
            assert result.exit_code == 0, result.output
            outputs.append((json.loads(result.stdout), (folder / "games.jsonl").read_bytes()))
        assert outputs[0] == outputs[1] == outputs[2]
        assert outputs[0][0]["first"]["games"] == int(case[-1])
    assert spread == [False] * 2 + [True] * 4 + [False] + [True] * 2  # the table plays one seat


def test_agent_options_beside_a_table_change_the_files_agent(tmp_path: Path) -> None:
    # --agent beside --table lays its options over the file's agent (the same learner with
    # another play-time option), rather than starting from the defaults
    out = tmp_path / "run"
    agent = "qlearning:alpha=0.3,gamma=0.8"
    code, text = run("selfplay", "--agent", agent, "--games", "30", "--out", str(out))
    assert code == 0, text
    table = str(out / "table.json")
    code, text = run(
        "evaluate", "--table", table, "--agent", "qlearning:epsilon=0.25", "--games", "5", "--json"
    )
    assert code == 0, text
    spec = json.loads(text)["agent"]
    assert "alpha=0.3" in spec and "gamma=0.8" in spec and "epsilon=0.25" in spec, spec
    # a bad option is the user's: one line, exit 2, the file untouched
    before = (out / "table.json").read_bytes()
    code, text = run("evaluate", "--table", table, "--agent", "qlearning:epsilon=2")
    assert code == 2 and "Traceback" not in text, text
    assert len([ln for ln in text.splitlines() if ln.strip()]) == 1, text
    assert (out / "table.json").read_bytes() == before
    # another agent replaces the file's, as before (and MENACE cannot read a Q table)
    code, text = run("evaluate", "--table", table, "--agent", "menace")
    assert code == 2 and "Traceback" not in text, text
    # a fault in the file's own agent is named as the file's, options beside it or not
    data = json.loads((out / "table.json").read_text())
    data["agent"] = "qlearning:alpha=0.3,bogus=1"
    lying = tmp_path / "lying.json"
    lying.write_text(json.dumps(data))
    for extra in ([], ["--agent", "qlearning:epsilon=0.25"]):
        code, text = run("evaluate", "--table", str(lying), *extra)
        assert code == 2 and "lying.json: its agent" in text and "Traceback" not in text, text


def test_menace_boxes_shows_boards_with_beads() -> None:
    code, text = run("menace", "boxes", "--stage", "1")
    assert code == 0, text
    assert "304 boxes" in text and " 4 " in text
    code, text = run("menace", "boxes", "--agent", "menace:preset=scroggs", "--json")
    boxes = json.loads(text)
    assert len(boxes) == 304 and boxes[0]["box"] == "........." and len(boxes[0]["beads"]) == 3


def test_play_explains_bad_moves_and_leaves_on_eof() -> None:
    code, text = run("play", "tictactoe", "--opponent", "random", "--seed", "1", input="9\nx\n4\n")
    assert code == 0, text
    assert "not a square" in text
    assert "bye" in text


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    for args in (
        ["selfplay", "--agent", "nosuch"],
        ["selfplay", "--opponent", "rules:q=3"],
        ["evaluate", "--agent", "menace:preset=x"],
        ["selfplay", "--game", "chess"],
    ):
        code, text = run(*args)
        assert code == 2, (args, text)
        assert "Traceback" not in text
        assert len([ln for ln in text.splitlines() if ln.strip()]) == 1, text


def test_a_corrupt_table_is_refused_and_kept(tmp_path: Path) -> None:
    bad = tmp_path / "table.json"
    bad.write_text('{"format": "purestate.menace/1", "game": "tictactoe", "boxes": [')
    before = bad.read_text()
    code, text = run("evaluate", "--agent", "menace", "--table", str(bad))
    assert code == 2 and "not valid JSON" in text and "Traceback" not in text
    code, text = run("selfplay", "--opponent", "random", "--resume", str(bad))
    assert code == 2 and "holds no selfplay run" in text and "Traceback" not in text
    assert bad.read_text() == before
    code, text = run("evaluate", "--agent", "menace", "--table", str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in text


def test_games_and_agents_list_every_registered_name() -> None:
    import purestate

    code, text = run("games", "--json")
    assert code == 0 and [g["name"] for g in json.loads(text)] == list(purestate.games())
    for g in json.loads(text):  # the specs a person is shown first, each a spec of the game
        assert g["examples"] and all(purestate.make_spec(e).spec.name == g["name"]
                                     for e in g["examples"])  # fmt: skip
    code, text = run("games")
    assert code == 0 and "dots_and_boxes:rows=3,cols=3" in text
    code, text = run("agents", "--json")
    assert code == 0 and [a["name"] for a in json.loads(text)] == list(purestate.agents())
    menace = next(a for a in json.loads(text) if a["name"] == "menace")
    assert "preset" in menace["options"]


def test_version() -> None:
    import purestate

    code, text = run("--version")
    assert code == 0 and text.strip() == f"purestate {purestate.__version__}"


def test_usage_errors_are_one_line() -> None:
    for args in (["selfplay", "--games", str(10**23)], ["selfplay", "--bogus"],
                 ["evaluate", "--agent", "random", "--games", str(10**23)],
                 ["sweep", "--grid", "menace", "--jobs", "0"]):  # fmt: skip
        code, text = run(*args)
        lines = [ln for ln in text.splitlines() if ln.strip()]
        assert code == 2 and len(lines) == 1 and lines[0].startswith("error:"), (args, text)


def test_the_cli_reference_is_the_help() -> None:
    from purestate.cli.reference import markdown

    page = Path(__file__).parent.parent / "docs" / "cli.md"
    assert page.read_text(encoding="utf-8") == markdown(), (
        "docs/cli.md is stale: python -m purestate.cli.reference > docs/cli.md"
    )


def test_every_command_opens_with_a_one_line_summary() -> None:
    # the command lists show a command's first paragraph with its line breaks kept
    import typer.main

    def commands(cmd: Any, path: str) -> list[tuple[str, Any]]:
        subs = getattr(cmd, "commands", None)  # a group (typer carries its own click)
        if subs is not None:
            return [c for name, sub in subs.items() for c in commands(sub, f"{path} {name}")]
        return [(path, cmd)]

    found = commands(typer.main.get_command(app), "purestate")
    assert len(found) >= 15
    for path, cmd in found:
        summary = (cmd.help or "").strip().split("\n\n")[0]
        assert summary and "\n" not in summary, path


def test_the_command_line_asks_openmp_to_sleep_unless_the_shell_says_otherwise() -> None:
    from purestate.cli import quiet_threads

    environ: dict[str, str] = {}
    quiet_threads(environ)
    assert environ == {"OMP_WAIT_POLICY": "PASSIVE"}
    chosen = {"OMP_WAIT_POLICY": "ACTIVE"}
    quiet_threads(chosen)
    assert chosen == {"OMP_WAIT_POLICY": "ACTIVE"}  # the shell's choice stands
    # and the entry point sets it before any command runs, where numba's threads would read it
    script = (
        "import os, sys\n"
        "sys.argv = ['purestate', '--version']\n"
        "from purestate.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(os.environ.get('OMP_WAIT_POLICY'))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "PASSIVE"
