"""The perfect player: a value-optimal move from the solved game, with a choice of tie-break.

Generic over games: it asks ``purestate.solve.solve(game)`` for the exact value of every position
(the memoised minimax for tic-tac-toe, a game's own solver where one is registered) and plays a
move that keeps the value for the player to move. How it chooses among equally valued moves
matters a great deal to a learner trained against it (reference/menace.md §5):

- ``random`` (default, as Scroggs's online MENACE): uniformly among the value-optimal moves. It
  shows a learner every drawing line, including the ones that drain MENACE's boxes.
- ``first``: the first value-optimal move in the game's move order: one fixed line per position.
- ``fastest`` (Scroggs's PR #6): among value-optimal moves, those that win in the fewest plies or
  lose in the most, then uniformly at random.

The agent is registered twice, as ``perfect`` and as ``solver`` (the name dots-and-boxes users
know); both are the same player and print the name they were made with.

It needs the whole game solved, so on a game too large for that (``purestate.solve.bounds``) its
``initial_table`` (and ``check_game``) refuses at once with one line naming what to play instead.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar, Literal

from attrs import frozen

from purestate.core.agent import Decision, FixedPolicy
from purestate.core.game import Game
from purestate.core.keys import Key, below
from purestate.core.memo import memo
from purestate.core.spec import format_spec
from purestate.solve import require_solvable, solve

Tiebreak = Literal["random", "first", "fastest"]


# A key is a reachable position of a solvable game: up to 10**7 of them (POSITION_LIMIT), so the
# memo is bounded; the bound holds all of tic-tac-toe (5,478) and the positions a run revisits.
@memo(size=1 << 16, why="solvable games reach up to 10**7 positions; tic-tac-toe's 5,478 fit")
def best_moves(game: Game[Any, Any], state: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The value-optimal moves in ``state`` (in the game's move order), and the fastest of them.

    "Fastest" means: when the player to move is winning, the moves that end the game soonest;
    when losing, the moves that put the end off longest; in a draw, the shortest. Memoised; a
    state that is not a position of ``game`` raises from ``game.legal`` and is not remembered.
    """
    sol = solve(game)
    sign = 1.0 if game.to_move(state) == 0 else -1.0
    scored = []
    for m in game.legal(state):
        child = game.step(state, m)
        dist = sol.distance(child)
        scored.append((m, sign * sol.value(child), 0 if dist is None else dist))
    best = max(v for _, v, _ in scored)
    optimal = [(m, d) for m, v, d in scored if v == best]
    ds = [d for _, d in optimal]
    target = max(ds) if best < 0 else min(ds)
    return (tuple(m for m, _ in optimal), tuple(m for m, d in optimal if d == target))


@frozen
class Perfect(FixedPolicy):
    """Plays a move that keeps the game-theoretic value, from the solved game.

    Attributes:
        tiebreak: How to choose among value-optimal moves: ``random``, ``first`` (the game's move
            order) or ``fastest`` (quickest win / slowest loss, then random).
    """

    tiebreak: Tiebreak = "random"
    name: ClassVar[str] = "perfect"

    @property
    def spec(self) -> str:
        """The spec string, under the name this agent was registered with."""
        return format_spec(self.name, self)

    def check_game(self, game: Game[Any, Any]) -> None:
        """Refuse at once (``TooLarge``) a game too large to solve."""
        require_solvable(game, self.name)

    def initial_table(self, game: Game[Any, Any], seat: int) -> Any:
        """No table (solving the game happens here, so the first move is not the slow one).

        Raises:
            TooLarge: at once, before any search, if the game is too large to solve.
        """
        self.check_game(game)
        solve(game)
        return None

    def choices(self, game: Game[Any, Any], state: Any) -> tuple[Any, ...]:
        """The moves this agent chooses among, uniformly, in ``state``."""
        optimal, fastest = best_moves(game, state)
        if self.tiebreak == "first":
            return optimal[:1]
        if self.tiebreak == "fastest":
            return fastest
        return optimal

    def act(self, game: Game[Any, Any], table: Any, state: Any, key: Key) -> Decision[Any]:
        """A value-optimal move, broken by ``tiebreak``."""
        moves = self.choices(game, state)
        return Decision(moves[0] if len(moves) == 1 else moves[below(key, len(moves))])

    def policy(self, game: Game[Any, Any], state: Any) -> dict[Any, Fraction]:
        """The exact probability of each move ``act`` plays in ``state``."""
        moves = self.choices(game, state)
        return {m: Fraction(1, len(moves)) for m in moves}


@frozen
class Solver(Perfect):
    """The perfect player under the name ``solver`` (as dots-and-boxes players call it)."""

    name: ClassVar[str] = "solver"
