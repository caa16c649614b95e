"""alphazero runs like every other run: workers, progress, the reference curve, the commands that
take a trained table (tiny settings: each test takes seconds)."""

from __future__ import annotations

import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")

import json
from pathlib import Path

from tests.kills import files, invoke

import purestate
from purestate.agents.alphazero import AlphaZero
from purestate.core import history
from purestate.core.hooks import last_loss_of, selfplay_jobs_of, simulations_of
from purestate.experiments.selfplay import cut
from purestate.io.tables import load_table_agent, save_table

TINY = "alphazero:simulations=4,games_per_iteration=4,steps=3,batch=8,width=8,depth=0"
RUN = ["selfplay", "--game", "tictactoe", "--agent", TINY, "--opponent", "self", "--seed", "5"]


def test_the_hooks_find_the_jobs_the_simulations_and_the_loss() -> None:
    agent = purestate.agent(TINY)
    spread = selfplay_jobs_of(agent)
    assert spread is not None and spread.play_job.__name__ == "play_job"
    assert selfplay_jobs_of(purestate.agent("qlearning")) is None
    assert simulations_of(agent) == 4 and simulations_of(purestate.agent("random")) is None
    fresh = agent.initial_table(purestate.make("tictactoe"), 0)
    assert last_loss_of(fresh) is None and last_loss_of({}) is None


def test_an_iteration_is_cut_at_the_checkpoints() -> None:
    assert cut(range(0, 8), 0) == [range(0, 8)]
    assert cut(range(0, 8), 3) == [range(0, 3), range(3, 6), range(6, 8)]
    assert cut(range(4, 8), 4) == [range(4, 8)]
    assert cut(range(5, 7), 6) == [range(5, 6), range(6, 7)]


def test_one_worker_and_two_write_the_same_run_folder(tmp_path: Path) -> None:
    # 10 games of 4-game iterations, a checkpoint inside an iteration: parts of 1 to 4 games
    cmd = [*RUN, "--games", "10", "--checkpoint", "3"]
    one = invoke(*cmd, "--out", str(tmp_path / "one"))
    assert one.exit_code == 0, one.output
    two = invoke(*cmd, "--out", str(tmp_path / "two"), "--jobs", "2")
    assert two.exit_code == 0, two.output
    assert files(tmp_path / "one") == files(tmp_path / "two")
    # and a run resumed with workers goes on as the run in one process
    part = tmp_path / "part"
    assert invoke(*cmd[:-4], "--games", "6", "--out", str(part), "--jobs", "2").exit_code == 0
    assert invoke("selfplay", "--resume", str(part), "--more", "4", "--jobs", "2").exit_code == 0
    whole = tmp_path / "whole"
    assert invoke(*cmd[:-4], "--games", "10", "--out", str(whole)).exit_code == 0
    assert (part / "table.npz").read_bytes() == (whole / "table.npz").read_bytes()


def test_a_run_written_before_format_4_goes_on_training_with_autodiffs_gradients(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # connect four gets the conv net, whose gradients the option is about; runs of format 3
    # took JAX's own (core.history), and resumed they still do, so they end as they would have
    cmd = ["selfplay", "--game", "connect_four", "--opponent", "self", "--seed", "5"]
    part = tmp_path / "part"
    # written as format 3 wrote it: the specs (the run's and its table's) without the option
    plain = AlphaZero.spec.fget  # type: ignore[attr-defined]
    monkeypatch.setattr(
        AlphaZero, "spec", property(lambda a: plain(a).replace(",gradients=autodiff", ""))
    )
    r = invoke(*cmd, "--agent", f"{TINY},gradients=autodiff", "--games", "4", "--out", str(part))
    assert r.exit_code == 0, r.output
    monkeypatch.undo()
    manifest = json.loads((part / "run.json").read_text())
    assert "gradients" not in manifest["agent"]
    manifest["format"] = "purestate.run/3"
    manifest["as_typed"]["agent"] = TINY
    (part / "run.json").write_text(json.dumps(manifest))
    r = invoke("selfplay", "--resume", str(part), "--more", "4")
    assert r.exit_code == 0, r.output
    whole = {}
    for how in ("autodiff", "nhwc"):
        folder = tmp_path / how
        # spelled out as the resumed run's spec is: format 3's gradients, format 4's draws and
        # format 5's play without reuse
        spec = f"{TINY},gradients={how},draws=shared,reuse=false"
        r = invoke(*cmd, "--agent", spec, "--games", "8", "--out", str(folder))
        assert r.exit_code == 0, r.output
        whole[how] = (folder / "table.npz").read_bytes()
    assert (part / "table.npz").read_bytes() == whole["autodiff"] != whole["nhwc"]


def test_a_table_file_plays_as_the_agent_that_wrote_it_under_its_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a table file says which defaults its agent spec was written under; one written by format
    # 4's code (before draws=counter) plays with draws=shared, as that code did, when evaluated,
    # played or entered in a tournament, also with options laid over it
    run = tmp_path / "run"
    r = invoke(*RUN, "--games", "4", "--out", str(run))
    assert r.exit_code == 0, r.output
    game, agent = purestate.make("tictactoe"), purestate.agent(TINY)
    today, loaded = load_table_agent(run / "table.npz", game)
    assert today.spec == agent.spec and today.draws == "counter"
    old = tmp_path / "old.npz"
    monkeypatch.setattr(history, "VERSION", 4)
    save_table(old, game, agent, loaded.table, 0, 4)
    monkeypatch.undo()
    then, again = load_table_agent(old, game)
    assert then.draws == "shared" and then.spec == f"{agent.spec},draws=shared,reuse=false"
    assert again.games == loaded.games == 4
    laid, _ = load_table_agent(old, game, options="alphazero:simulations=0,seconds=0.1")
    assert laid.draws == "shared" and laid.seconds == 0.1
    chosen, _ = load_table_agent(old, game, options="alphazero:draws=counter")
    assert chosen.draws == "counter"
    r = invoke("evaluate", "--table", str(old), "--games", "1", "--json")
    assert r.exit_code == 0 and "draws=shared" in json.loads(r.output)["agent"], r.output
    # a file from before the field (format 4's own) takes the format of the run folder it lies in
    from purestate.io.array_tables import archive_bytes, read_archive

    written = read_archive(run / "table.npz", (run / "table.npz").read_bytes())
    unmarked = {k: v for k, v in written.manifest.items()
                if k not in ("defaults", "archive", "arrays")}  # fmt: skip
    (run / "table.npz").write_bytes(archive_bytes(unmarked, written.arrays))
    assert load_table_agent(run / "table.npz", game)[0].draws == "counter"  # run.json: today's
    manifest = json.loads((run / "run.json").read_text())
    (run / "run.json").write_text(json.dumps({**manifest, "format": "purestate.run/4"}))
    assert load_table_agent(run / "table.npz", game)[0].draws == "shared"
    (run / "run.json").rename(run / "elsewhere.json")  # a link is not read: as written
    (run / "run.json").symlink_to(run / "elsewhere.json")
    assert load_table_agent(run / "table.npz", game)[0].draws == "counter"


def _rewritten(path: Path, **fields: object) -> None:
    """The run's table file at ``path`` with its manifest's ``fields`` set (None: left out), and
    the run's checkpoint saying so (as if the run had written it)."""
    import hashlib

    from purestate.io.array_tables import archive_bytes, read_archive

    written = read_archive(path, path.read_bytes())
    manifest = {k: v for k, v in written.manifest.items() if k not in ("archive", "arrays")}
    manifest.update(fields)
    path.write_bytes(archive_bytes({k: v for k, v in manifest.items() if v is not None},
                                   written.arrays))  # fmt: skip
    checkpoint = path.parent / "checkpoint.json"
    saved = json.loads(checkpoint.read_text())
    saved["files"][path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
    checkpoint.write_text(json.dumps(saved))


@pytest.mark.parametrize("field", [True, False])
def test_a_run_of_an_older_format_stopped_after_its_resume_began_resumes_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, field: bool
) -> None:
    # resuming rewrites run.json in today's format before its first game, its specs spelled out
    # (reuse=false for format 5), while the checkpoint's table stays the older code's until the
    # next checkpoint: a run stopped in between must resume again, the table read under the
    # defaults it says it was written under (or, a file from before that field, any version up
    # to the run's)
    from purestate.core.registry import spec_then

    run = tmp_path / "run"
    r = invoke(*RUN, "--games", "4", "--out", str(run))
    assert r.exit_code == 0, r.output
    _rewritten(run / "table.npz", defaults=5 if field else None)
    manifest = {**json.loads((run / "run.json").read_text()), "format": "purestate.run/5"}
    upgraded = history.upgrade(manifest, "run", spec_then)  # what the resume writes at once
    spelled = f"{purestate.agent(TINY).spec},reuse=false"
    assert upgraded["agent"] == spelled
    (run / "run.json").write_text(json.dumps({**upgraded, "games": 8}))
    r = invoke("selfplay", "--resume", str(run))  # on to its 8 games
    assert r.exit_code == 0, r.output
    assert json.loads((run / "run.json").read_text())["agent"] == spelled
    assert load_table_agent(run / "table.npz", purestate.make("tictactoe"))[1].games == 8
    # a table of another agent is still refused, named as its spec means in the run
    other = tmp_path / "other"
    r = invoke(*RUN, "--games", "4", "--out", str(other))
    assert r.exit_code == 0, r.output
    _rewritten(other / "table.npz", agent=TINY.replace("width=8", "width=9"),
               defaults=5 if field else None)  # fmt: skip
    (other / "run.json").write_text(json.dumps({**upgraded, "games": 8}))
    r = invoke("selfplay", "--resume", str(other))
    assert r.exit_code == 2 and "width=9" in r.output and "Traceback" not in r.output


def test_workers_for_a_learner_that_plays_one_game_after_another_are_refused(
    tmp_path: Path,
) -> None:
    r = invoke("selfplay", "--games", "5", "--jobs", "2", "--out", str(tmp_path / "m"))
    assert r.exit_code == 2 and "--jobs and --dask" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "m").exists()


REFS = ["--games", "8", "--checkpoint", "4", "--reference", "random", "--reference-games", "2"]


def test_a_run_with_references_killed_at_any_write_resumes_to_the_same_files(
    tmp_path: Path, kill_at: list[int]
) -> None:
    from tests.kills import kill_everywhere

    kill_everywhere([*RUN, *REFS], tmp_path, kill_at)
    whole = tmp_path / "whole"
    points = json.loads((whole / "references.json").read_text())["points"]
    assert [p["games"] for p in points] == [0, 4, 8]
    for p in points:
        (row,) = p["references"]
        assert row["reference"] == "random" and row["games"] == 2
        assert row["wins"] + row["draws"] + row["losses"] == 2
        assert row["low"] <= row["score"] <= row["high"]
    assert (whole / "references.png").read_bytes().startswith(b"\x89PNG")


def test_a_point_plays_each_reference_from_both_seats_and_nobody_beats_perfect() -> None:
    from purestate.core.keys import key
    from purestate.experiments.references import default_references, reference_point

    game = purestate.make("tictactoe")
    assert default_references(game) == ("random", "mcts:simulations=100", "perfect")
    assert "perfect" not in default_references(purestate.make("connect_four"))
    learner = purestate.agent(TINY)
    table = learner.initial_table(game, 0)
    refs = [(s, purestate.agent(s)) for s in ("random", "perfect")]
    point = reference_point(game, learner, table, refs, 4, key(3), 12)
    again = reference_point(game, learner, table, refs, 4, key(3), 12)
    assert point == again and point["games"] == 12
    against_random, against_perfect = point["references"]
    assert against_perfect["wins"] == 0 and against_perfect["score"] <= 0.5
    assert against_random["games"] == 4


def test_a_resumed_run_keeps_its_references_and_refuses_others(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert invoke(*RUN, *REFS, "--out", str(out)).exit_code == 0
    r = invoke("selfplay", "--resume", str(out), "--more", "4")
    assert r.exit_code == 0, r.output
    points = json.loads((out / "references.json").read_text())["points"]
    assert [p["games"] for p in points] == [0, 4, 8, 12]
    r = invoke("selfplay", "--resume", str(out), "--more", "4", "--reference", "perfect")
    assert r.exit_code == 2 and "references" in r.output and "Traceback" not in r.output
    bad = invoke(*RUN, "--games", "4", "--reference", "qlearning", "--out", str(tmp_path / "q"))
    assert bad.exit_code == 2 and "must not learn" in bad.output


def test_the_run_page_draws_the_references_and_ignores_a_bad_file(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from purestate.web.app import create_app

    runs = tmp_path / "runs"
    assert invoke(*RUN, *REFS, "--no-plot", "--out", str(runs / "az")).exit_code == 0
    client = TestClient(create_app(runs), base_url="http://127.0.0.1")
    page = client.get("/runs/az")
    assert page.status_code == 200
    assert "Against fixed references" in page.text
    assert 'data-label="random"' in page.text and "after 8 games, against random" in page.text
    (runs / "az" / "references.json").write_text('{"points": [{"games": "many"}]}')
    page = client.get("/runs/az")
    assert page.status_code == 200 and "Against fixed references" not in page.text


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run folder holding a tiny trained table (8 games: two training iterations)."""
    runs = tmp_path_factory.mktemp("runs")
    r = invoke(*RUN, "--games", "8", "--no-plot", "--out", str(runs / "az"))
    assert r.exit_code == 0, r.output
    return runs


def test_the_library_plays_a_trained_table(trained: Path) -> None:
    from purestate.core.agent import greedy_agent
    from purestate.io.tables import load_table

    game = purestate.make("tictactoe")
    agent = purestate.agent(TINY)
    table = load_table(trained / "az" / "table.npz", game, agent).table
    assert table.games == 8 and table.iterations == 2
    me = greedy_agent(agent)
    ep = purestate.play(game, (me, purestate.agent("random")), (table, None), purestate.key(1))
    again = purestate.play(game, (me, purestate.agent("random")), (table, None), purestate.key(1))
    assert ep.moves == again.moves and game.is_over(ep.states[-1])


def test_play_in_the_terminal_against_a_trained_table(trained: Path) -> None:
    # the person plays squares in order; each refused square (taken) asks again
    moves = "\n".join(str(m) for m in range(9) for _ in range(2)) + "\n"
    from typer.testing import CliRunner

    from purestate.cli import app

    r = CliRunner().invoke(app, ["play", "--table", str(trained / "az" / "table.npz")], input=moves)
    assert r.exit_code == 0, r.output
    assert "alphazero" in r.output and any(w in r.output for w in ("win", "draw", "lose"))


def test_a_tournament_takes_a_trained_table(trained: Path) -> None:
    entrant = f"table:{trained / 'az' / 'table.npz'}"
    cmd = ["tournament", "--game", "tictactoe", "--agents", entrant, "random", "--games", "4"]
    one = invoke(*cmd, "--jobs", "1", "--json")
    assert one.exit_code == 0, one.output
    two = invoke(*cmd, "--jobs", "2", "--json")
    assert two.exit_code == 0, two.output
    standings = json.loads(one.stdout)
    assert standings["agents"] == [entrant, "random"]
    assert json.loads(two.stdout)["pairs"] == standings["pairs"]
    bad = invoke("tournament", "--game", "tictactoe", "--agents", "table:nowhere.npz", "random")
    assert bad.exit_code == 2 and "nowhere.npz" in bad.output and "Traceback" not in bad.output


def test_a_tournament_lays_options_over_a_trained_table(trained: Path) -> None:
    from purestate.cli.tournament import entrant

    game = purestate.make("tictactoe")
    path = trained / "az" / "table.npz"
    plain, laid = f"table:{path}", f"table:{path}?alphazero:simulations=6,leaves=2"
    a, b = entrant(plain, game, False), entrant(laid, game, False)
    assert a.table is not None and b.table is not None
    assert a.agent.learner.simulations == 4  # the file's own agent (TINY), played greedily
    assert (b.agent.learner.simulations, b.agent.learner.leaves) == (6, 2)
    assert b.agent.learner.width == a.agent.learner.width  # the layout still the file's
    # the same table meets itself with other options, named as typed
    r = invoke("tournament", "--game", "tictactoe", "--agents", plain, laid, "--games", "2",
               "--jobs", "1", "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["agents"] == [plain, laid]
    bad = invoke("tournament", "--game", "tictactoe", "--agents", f"{plain}?alphazero:nope=1",
                 "random", "--games", "1")  # fmt: skip
    assert bad.exit_code == 2 and "nope" in bad.output and "Traceback" not in bad.output


def test_the_browser_plays_against_a_trained_table(trained: Path) -> None:
    from starlette.testclient import TestClient

    from purestate.web.app import create_app

    client = TestClient(create_app(trained), base_url="http://127.0.0.1")
    setup = {"game": "tictactoe", "opponent": "table:az/table.npz", "seat": 1}
    view = client.post("/api/play", json=setup).json()
    assert view["opponent"].startswith("alphazero") and len(view["moves"]) == 1, view


def test_evaluate_judges_a_trained_table_from_both_seats(trained: Path) -> None:
    path = str(trained / "az" / "table.npz")
    cmd = ["evaluate", "--table", path, "--opponent", "random", "--games", "3", "--json"]
    r = invoke(*cmd, "--seed", "4")
    assert r.exit_code == 0, r.output
    seats = json.loads(r.stdout)
    for seat in ("first", "second"):
        s = seats[seat]
        assert s["games"] == 3 and s["wins"] + s["draws"] + s["losses"] == 3
    assert json.loads(invoke(*cmd, "--seed", "4").stdout) == seats


def test_training_against_another_opponent_is_refused_in_one_line(tmp_path: Path) -> None:
    # its examples are its own search's from both seats: against random it would learn nothing
    cmd = [*RUN[:-4], "--opponent", "random", "--games", "4", "--out", str(tmp_path / "r")]
    result = invoke(*cmd)
    assert result.exit_code == 2
    assert "learns only against itself" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "r").exists()
