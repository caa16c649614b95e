"""The generic solver and counters on tic-tac-toe and on toy games where a player may move twice."""

from __future__ import annotations

import functools
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from attrs import frozen
from tests.moves import play_moves

import purestate
from purestate.core.game import GameSpec, IllegalMove
from purestate.solve import solve, solver_for
from purestate.solve.counts import TooLarge, census, count_games, reachable
from purestate.solve.minimax import solve_exhaustive
from purestate.solve.outcomes import exact_outcomes, uniform_policy

TTT = purestate.make("tictactoe")


@frozen
class BonusNim:
    """Take 1 or 2 counters; taking 2 earns another move; who takes the last counter wins.

    States are (counters left, player to move, last mover): a player can move twice in a row.
    """

    pile: int = 7

    @property
    def spec(self) -> GameSpec:
        # (counters left, player to move, last mover): at most (pile + 1) · 2 · 3 positions
        return GameSpec("bonus_nim", 2, self.pile, positions=(self.pile + 1) * 6)

    def initial(self) -> tuple[int, int, int]:
        return (self.pile, 0, -1)

    def to_move(self, s: tuple[int, int, int]) -> int:
        return s[1]

    def legal(self, s: tuple[int, int, int]) -> tuple[int, ...]:
        return tuple(m for m in (1, 2) if m <= s[0])

    def step(self, s: tuple[int, int, int], m: int) -> tuple[int, int, int]:
        if m not in self.legal(s):
            raise IllegalMove(f"cannot take {m}")
        nxt = s[1] if m == 2 else 1 - s[1]
        return (s[0] - m, nxt, s[1])

    def is_over(self, s: tuple[int, int, int]) -> bool:
        return s[0] == 0

    def returns(self, s: tuple[int, int, int]) -> tuple[float, float]:
        if s[0]:
            return (0.0, 0.0)
        return (1.0, -1.0) if s[2] == 0 else (-1.0, 1.0)

    symmetries = (0,)

    def canonical(self, s: Any) -> tuple[Any, int]:
        return s, 0


@frozen
class Loop:
    """A broken game whose moves lead back to the start (to check cycle detection)."""

    @property
    def spec(self) -> GameSpec:
        return GameSpec("loop", 2, 4)

    def initial(self) -> int:
        return 0

    def to_move(self, s: int) -> int:
        return s % 2

    def legal(self, s: int) -> tuple[int, ...]:
        return (1,)

    def step(self, s: int, m: int) -> int:
        return (s + 1) % 3

    def is_over(self, s: int) -> bool:
        return False

    def returns(self, s: int) -> tuple[float, float]:
        return (0.0, 0.0)


def _brute_value(game: BonusNim, s: tuple[int, int, int]) -> float:
    """Plain recursive minimax (independent of the solver under test)."""

    @functools.cache
    def v(state: tuple[int, int, int]) -> float:
        if game.is_over(state):
            return game.returns(state)[0]
        vals = [v(game.step(state, m)) for m in game.legal(state)]
        return max(vals) if game.to_move(state) == 0 else min(vals)

    return v(s)


@pytest.mark.parametrize("pile", [1, 2, 3, 4, 5, 6, 7, 10])
def test_minimax_handles_a_player_moving_twice(pile: int) -> None:
    game = BonusNim(pile)
    sol = solve_exhaustive(game)  # type: ignore[arg-type]
    for s in sol.states():
        assert sol.value(s) == _brute_value(game, s)  # type: ignore[arg-type]
    # Taking 2 keeps the move, so the first player always wins: take 1 if odd, then 2s.
    assert sol.value(game.initial()) == 1.0
    assert any(s[1] == 1 for s in sol.states())  # player 1 does get to move


def test_bonus_nim_distances() -> None:
    game = BonusNim(4)
    sol = solve_exhaustive(game)  # type: ignore[arg-type]
    # Player 0 wins fastest with 2 + 2 (two plies, the bonus keeps the move).
    assert sol.distance(game.initial()) == 2
    assert sol.distance((0, 0, 0)) == 0
    assert sol.distance((2, 0, 0)) == 1 and sol.value((2, 0, 0)) == 1.0
    # One counter left, the mover takes it: one ply.
    assert sol.distance((1, 1, 0)) == 1 and sol.value((1, 1, 0)) == -1.0


def test_cycles_are_refused() -> None:
    with pytest.raises(ValueError, match="acyclic"):
        solve_exhaustive(Loop())  # type: ignore[arg-type]


def test_distance_winner_hurries_loser_delays() -> None:
    sol = solve(TTT)
    # X: 0, 1; O: 3, 4. X to move wins at once on 2 (and could also win slower elsewhere).
    s = play_moves(TTT, [0, 3, 1, 4])
    assert sol.value(s) == 1.0
    assert sol.distance(s) == 1
    # X 0,8 / O 4: X to move cannot win; a draw, which always fills the board here.
    assert sol.distance(play_moves(TTT, [0, 4, 8])) == 6
    # O to move facing a fork: O loses, delaying to the longest line.
    forked = play_moves(TTT, [4, 1, 0, 8, 6])  # X 0,4,6 threatens 2 (diagonal) and 3 (column)
    assert sol.value(forked) == 1.0
    assert sol.distance(forked) == 2


def test_solution_covers_every_reachable_state_and_refuses_others() -> None:
    sol = solve_exhaustive(TTT)
    assert len(sol) == 5478
    assert set(sol.states()) == set(reachable(TTT))
    with pytest.raises(KeyError, match="not reachable"):
        sol.value("nonsense")


def test_solve_dispatches_to_minimax_and_memoises() -> None:
    assert solver_for(TTT) == "purestate.solve.minimax:solve_exhaustive"
    assert solve(TTT) is solve(purestate.make("tictactoe"))
    # a game with a special solver names it in its spec; solve() takes the one it names
    boxes = purestate.make("dots_and_boxes", rows=1, cols=2)
    assert solver_for(boxes) == boxes.spec.solver == "purestate.solve.dots_and_boxes:solve"
    assert type(solve(boxes)).__module__ == "purestate.solve.dots_and_boxes"


def test_counts_on_a_toy_game() -> None:
    game = BonusNim(4)
    counts = count_games(game)  # type: ignore[arg-type]
    # Compositions of 4 into parts 1 and 2: 5 games.
    assert counts.total == 5
    assert counts.by_length == {2: 1, 3: 3, 4: 1}
    c = census(game)  # type: ignore[arg-type]
    assert c.positions == len(reachable(game))  # type: ignore[arg-type]
    with pytest.raises(TooLarge):
        reachable(TTT, limit=100)
    with pytest.raises(TooLarge):
        count_games(TTT, limit=100)


def test_exact_outcomes_random_vs_random() -> None:
    rnd = uniform_policy(TTT)
    out = exact_outcomes(TTT, [rnd, rnd])
    assert out == {1.0: Fraction(737, 1260), 0.0: Fraction(8, 63), -1.0: Fraction(121, 420)}
    assert sum(out.values()) == 1


def test_cli_solve_json() -> None:
    import json

    from typer.testing import CliRunner

    from purestate.cli import app

    result = CliRunner().invoke(app, ["solve", "tictactoe", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["value"] == 0
    assert data["openings"] == [0] * 9
    assert data["positions"] == 5478
    assert data["canonical_positions"] == 765
    assert data["games"] == 255168
    assert data["terminal_positions"] == {"-1": 316, "0": 16, "1": 626}


def test_cli_solve_for_people() -> None:
    from typer.testing import CliRunner

    from purestate.cli import app

    result = CliRunner().invoke(app, ["solve", "tictactoe"])
    assert result.exit_code == 0, result.output
    assert "a draw" in result.stdout
    assert " 0 | 0 | 0 " in result.stdout
    assert "5,478" in result.stdout and "765" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "tictactoe", "--rows", "3"], "no option 'rows'"),
        (["solve", "tictactoe:size=4"], "no option 'size'"),
        (["solve", "chess"], "unknown game"),
    ],
)
def test_cli_solve_bad_input(args: list[str], message: str) -> None:
    from typer.testing import CliRunner

    from purestate.cli import app

    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


@frozen
class GridNim(BonusNim):
    """Bonus nim on rows × cols counters (a stand-in for a game with board-size options)."""

    rows: int = 2
    cols: int = 2

    def initial(self) -> tuple[int, int, int]:
        return (self.rows * self.cols, 0, -1)

    @property
    def spec(self) -> GameSpec:
        return GameSpec(
            "grid_nim", 2, self.rows * self.cols, positions=(self.rows * self.cols + 1) * 6
        )

    def format_move(self, m: int) -> str:
        return str(m)

    def transform(self, s: Any, g: int) -> Any:
        return s


def test_cli_solve_merges_rows_and_cols(monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from typer.testing import CliRunner

    from purestate.cli import app
    from purestate.core import registry

    real = registry.game_class
    monkeypatch.setattr(
        registry, "game_class", lambda name: GridNim if name == "grid_nim" else real(name)
    )
    runner = CliRunner()
    result = runner.invoke(app, ["solve", "grid_nim:rows=1", "--cols", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "grid_nim:rows=1,cols=3"
    assert data["value"] == 1
    # Move ids 1 and 2 (no id 0): taking 1 leaves 2 for the opponent, who takes both.
    assert data["openings"] == [None, -1, 1]
    assert data["positions"] == len(reachable(GridNim(rows=1, cols=3)))  # type: ignore[arg-type]
    result = runner.invoke(app, ["solve", "grid_nim", "--rows", "2"])
    assert result.exit_code == 0, result.output
    assert "the first player wins" in result.stdout


# -- a count that gave up is remembered (issue 21: a warm 3x3 solve is quick) --------------------


def test_a_count_that_gave_up_is_remembered_by_game_and_limit(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from purestate.cli import app
    from purestate.io.solutions import known_beyond, remember_beyond

    game = purestate.make("dots_and_boxes", rows=2, cols=2)
    args = ["solve", "dots_and_boxes:rows=2,cols=2", "--count-limit", "50", "--json"]
    env = {"PURESTATE_CACHE": str(tmp_path)}
    first = CliRunner().invoke(app, args, env=env)
    assert first.exit_code == 0, first.output
    assert json.loads(first.output)["positions"] is None
    assert known_beyond(game, 50, tmp_path) and known_beyond(game, 10, tmp_path)
    assert not known_beyond(game, 51, tmp_path)  # a larger limit counts again
    assert not known_beyond(purestate.make("dots_and_boxes", rows=1, cols=2), 50, tmp_path)
    again = CliRunner().invoke(app, args, env=env)
    assert json.loads(again.output) == json.loads(first.output)
    # a damaged or foreign note means counting again, never a wrong skip
    (note,) = tmp_path.glob("counts-beyond-*.json")
    for text in ("{", '{"game": "tictactoe", "more_than": 99}', '{"game": 1}', "[]"):
        note.write_text(text)
        assert not known_beyond(game, 50, tmp_path)
    remember_beyond(game, 50, tmp_path)
    counted = CliRunner().invoke(app, [*args[:2], "--count-limit", "100000", "--json"], env=env)
    assert json.loads(counted.output)["positions"] > 50
