"""Declared bounds: whatever needs a whole game refuses a big one at once, in one line.

"At once" is checked without timing anything: the game's ``legal`` (or the solver itself) is
replaced by a function that fails the test, so a refusal that came after any search or walk
would fail with that error instead of the one-line refusal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

import pytest
from typer.testing import CliRunner

import purestate
from purestate.agents import perfect as perfect_module
from purestate.agents.menace import Menace
from purestate.cli import app
from purestate.core.agent import check_game
from purestate.core.game import GameSpec
from purestate.core.keys import key
from purestate.core.spec import SpecError
from purestate.games.dots_and_boxes import DotsAndBoxes
from purestate.games.tron.maps import parse_map
from purestate.games.tron.rules import Tron
from purestate.games.ultimate import UltimateTicTacToe
from purestate.games.xtreme import XtremeTicTacToe
from purestate.io import solutions
from purestate.solve import bounds, memoised, minimax, require_solvable, solve
from purestate.solve import dots_and_boxes as dab_solver
from purestate.solve.bounds import POSITION_LIMIT, TooLarge, about
from purestate.solve.counts import census, count_games, reachable
from purestate.solve.outcomes import exact_outcomes, uniform_policy

BIG = ("ultimate_tictactoe", "xtreme_tictactoe", "tron")
runner = CliRunner()


def _walked(*args: Any, **kwargs: Any) -> NoReturn:
    raise AssertionError("the game was searched or walked before the refusal")


@pytest.fixture
def no_walks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any move generation on the big games, and any exact solver, fails the test."""
    for cls in (UltimateTicTacToe, XtremeTicTacToe, Tron, DotsAndBoxes):
        monkeypatch.setattr(cls, "legal", _walked)
    monkeypatch.setattr(minimax, "solve_exhaustive", _walked)
    monkeypatch.setattr(dab_solver, "line_values", _walked)


def _one_line(err: Exception) -> str:
    text = str(err)
    assert "\n" not in text
    return text


# -- the declared bounds -----------------------------------------------------------------------


def test_tictactoe_declares_its_exact_count() -> None:
    game = purestate.make("tictactoe")
    assert game.spec.positions == len(reachable(game)) == 5478


@pytest.mark.parametrize("size", [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2)])
def test_dots_and_boxes_bound_holds(size: tuple[int, int]) -> None:
    game = DotsAndBoxes(*size)
    bound = game.spec.positions
    assert bound is not None and len(reachable(game)) <= bound
    assert bound <= 5 * len(reachable(game))  # a bound that still admits these boards


def test_tron_bound_holds_on_a_tiny_map() -> None:
    tiny = parse_map("#####\n#1  #\n#  2#\n#####\n", "tiny")
    for rules in ("alternating", "simultaneous"):
        game = Tron(map=tiny, rules=rules)
        bound = game.spec.positions
        assert bound is not None and len(reachable(game)) <= bound <= POSITION_LIMIT


@pytest.mark.parametrize("name", BIG)
def test_big_games_declare_more_than_the_limit(name: str) -> None:
    positions = purestate.make(name).spec.positions
    assert positions is not None and positions > POSITION_LIMIT


def test_about_prints_counts_for_people() -> None:
    assert about(5478) == "5,478"
    assert about(10**7) == "10^7"
    assert about(1 << 27) == "2^27"
    assert about(3**81 * 22) == "~10^40"


# -- the library refuses at once ---------------------------------------------------------------


@pytest.mark.parametrize("name", BIG)
@pytest.mark.parametrize("spec", ["perfect", "solver:tiebreak=fastest"])
def test_perfect_refuses_a_big_game_at_once(name: str, spec: str, no_walks: None) -> None:
    game = purestate.make(name)
    agent = purestate.agent(spec)
    with pytest.raises(TooLarge) as err:
        agent.initial_table(game, 0)
    text = _one_line(err.value)
    assert text.startswith(f"{spec.partition(':')[0]} needs the whole game tree; {name} has up to")
    assert f"try {game.spec.default_opponent}" in text
    assert isinstance(err.value, SpecError)  # the CLI turns it into one line, exit 2
    with pytest.raises(TooLarge):
        check_game(agent, game)
    # without initial_table, the first move refuses the same way
    with pytest.raises(TooLarge):
        purestate.play(game, (agent, purestate.agent("random")), (None, None), key(0))
    assert memoised(game) is None


def test_the_solver_and_the_disk_cache_refuse_at_once(tmp_path: Path, no_walks: None) -> None:
    game = purestate.make("ultimate_tictactoe")
    with pytest.raises(TooLarge, match="the exact solver needs the whole game tree"):
        solve(game)
    with pytest.raises(TooLarge):
        solutions.load_or_solve(game, tmp_path)
    assert memoised(game) is None and not any(tmp_path.iterdir())


def test_dots_and_boxes_solver_states_its_own_size(no_walks: None) -> None:
    require_solvable(DotsAndBoxes(3, 3))  # 2^24 line sets: solved in seconds
    require_solvable(DotsAndBoxes(2, 5))  # 2^27: the largest accepted
    with pytest.raises(TooLarge) as err:
        purestate.agent("solver").initial_table(DotsAndBoxes(3, 4), 0)
    assert _one_line(err.value) == (
        "solver needs the whole game solved; dots_and_boxes has 2^31 line sets (limit 2^27): "
        "try mcts:simulations=5000"
    )
    with pytest.raises(TooLarge):
        solve(DotsAndBoxes(4, 4))


@pytest.mark.parametrize("name", [*BIG, "dots_and_boxes:rows=3,cols=3"])
def test_menace_refuses_a_big_game_at_once(name: str, no_walks: None) -> None:
    game = purestate.make_spec(name)
    menace = purestate.agent("menace")
    assert isinstance(menace, Menace)
    with pytest.raises(TooLarge) as err:
        menace.initial_table(game, 0)
    text = _one_line(err.value)
    assert text.startswith("menace needs a matchbox for every position it can face;")
    assert "try qlearning" in text
    with pytest.raises(TooLarge):
        check_game(menace, game)


def test_menace_still_accepts_the_small_boards() -> None:
    menace = purestate.agent("menace")
    assert len(menace.initial_table(purestate.make("tictactoe"), 0).boxes) == 304
    assert DotsAndBoxes(2, 3).spec.positions == 10**6  # it has 211,397
    check_game(menace, DotsAndBoxes(2, 3))
    with pytest.raises(TooLarge):
        check_game(menace, DotsAndBoxes(1, 7))  # 4·10^7 by the bound


def test_counts_and_exact_outcomes_refuse_without_a_limit(no_walks: None) -> None:
    game = purestate.make("ultimate_tictactoe")
    for call in (
        lambda: reachable(game),
        lambda: census(game),
        lambda: count_games(game),
        lambda: exact_outcomes(game, [uniform_policy(game)] * 2),
    ):
        with pytest.raises(TooLarge):
            call()


def test_a_game_without_a_bound_is_refused() -> None:
    class Undeclared:
        spec = GameSpec("homebrew", 2, 9)

    game: Any = Undeclared()
    with pytest.raises(TooLarge) as err:
        bounds.require_whole_game(game, "perfect", "the whole game tree")
    assert str(err.value) == (
        "perfect needs the whole game tree; homebrew declares no bound on its positions "
        "(GameSpec.positions): try mcts"
    )


def test_a_tournament_schedule_refuses_before_any_game(no_walks: None) -> None:
    from purestate.experiments.tournament import schedule

    game = purestate.make("tron")
    with pytest.raises(TooLarge):
        schedule(game, [purestate.agent("tron_wall"), purestate.agent("perfect")], 2, 0)


# -- default opponents ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "default"),
    [
        ("tictactoe", "perfect"),
        ("dots_and_boxes", "perfect"),
        ("dots_and_boxes:rows=3,cols=3", "perfect"),
        ("dots_and_boxes:rows=3,cols=4", "mcts:simulations=5000"),
        ("ultimate_tictactoe", "mcts:simulations=5000"),
        ("xtreme_tictactoe:reward=points", "mcts:simulations=5000"),
        ("tron:map=big_room", "alphabeta:depth=4,eval=voronoi"),
    ],
)
def test_each_game_declares_a_default_opponent_that_accepts_it(spec: str, default: str) -> None:
    game = purestate.make_spec(spec)
    assert game.spec.default_opponent == default
    opponent = purestate.agent(default)
    assert opponent.spec == default
    if default != "perfect":  # the perfect player's check would solve nothing, but skip it
        check_game(opponent, game)


def test_the_perfect_defaults_are_within_the_solvers_reach(no_walks: None) -> None:
    for game in (purestate.make("tictactoe"), DotsAndBoxes(3, 3), DotsAndBoxes(1, 7)):
        assert game.spec.default_opponent == "perfect"
        check_game(purestate.agent("perfect"), game)


# -- the command line: one line, exit 2, nothing searched --------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["play", "ultimate_tictactoe", "--opponent", "perfect"],
        ["play", "tron", "--opponent", "perfect"],
        ["play", "dots_and_boxes:rows=4,cols=4", "--opponent", "solver"],
        ["evaluate", "--agent", "perfect", "--game", "ultimate_tictactoe"],
        ["evaluate", "--agent", "mcts", "--opponent", "perfect", "--game", "tron"],
        ["selfplay", "--game", "ultimate_tictactoe", "--agent", "menace", "--opponent", "random"],
        ["menace", "boxes", "--game", "xtreme_tictactoe"],
        ["solve", "ultimate_tictactoe"],
        ["solve", "tron", "--json"],
        ["solve", "dots_and_boxes", "--rows", "4", "--cols", "4"],
        ["tournament", "--game", "ultimate_tictactoe", "--agents", "perfect", "mcts", "-j", "1"],
        ["analyze", "--game", "xtreme_tictactoe", "--agent", "qlearning", "--table", "none.json"],
    ],
)
def test_cli_refuses_in_one_line(
    args: list[str], no_walks: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # selfplay would write its run here
    result = runner.invoke(app, args)
    assert result.exit_code == 2, (args, result.output, result.exception)
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    assert lines[0].startswith("error: ") and "needs" in lines[0] and "try " in lines[0]
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("game", "opponent"),
    [
        ("ultimate_tictactoe", "mcts:simulations=5000"),
        ("tron", "alphabeta:depth=4,eval=voronoi"),
    ],
)
def test_play_uses_the_games_default_opponent(
    game: str, opponent: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the old default, perfect, tried to solve these games: fail instead of hanging
    monkeypatch.setattr(perfect_module, "solve", _walked)
    result = runner.invoke(app, ["play", game, "--seat", "second", "--seed", "0"], input="q\n")
    assert result.exit_code == 0, (result.output, result.exception)
    assert f"{opponent} plays " in result.output
