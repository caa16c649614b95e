"""Exhaustive memoised minimax over every reachable state of a small game.

The search is an explicit-stack depth-first walk (no recursion limit to hit), so it works for any
game that satisfies the Game protocol and whose reachable state graph is finite and acyclic:
tic-tac-toe (5,478 states), small dots-and-boxes boards. It never assumes that players
alternate: a state is maximised for player 0 when ``to_move(state) == 0`` and minimised
otherwise, so a player who moves twice in a row (a completed box, a bonus move) is handled.

Values are player 0's return under perfect play. The distance of a state is the number of plies
to the end when the side that is winning hurries and the side that is losing delays; in a
drawn position (value 0) both sides are taken to hurry. Among moves of equal value the distance
breaks ties, which is what the ``fastest`` tie-break of the perfect player uses.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from typing import Any

from attrs import field, frozen

from purestate.core.game import Game


@frozen(eq=False)
class ExhaustiveSolution:
    """The value and distance of every state reachable from the start of a game.

    Attributes:
        values: State -> player 0's return under perfect play.
        distances: State -> plies to the end under perfect play (winner hurries, loser delays).
    """

    values: Mapping[Hashable, float] = field(repr=lambda v: f"<{len(v)} states>")
    distances: Mapping[Hashable, int] = field(repr=False)

    def value(self, state: Any) -> float:
        """Player 0's return from ``state`` under perfect play.

        Raises:
            KeyError: if ``state`` is not reachable from the start of the game.
        """
        try:
            return self.values[state]
        except KeyError:
            raise KeyError(f"state {state!r} is not reachable from the start position") from None

    def distance(self, state: Any) -> int:
        """Plies to the end of the game from ``state`` under perfect play."""
        try:
            return self.distances[state]
        except KeyError:
            raise KeyError(f"state {state!r} is not reachable from the start position") from None

    def __len__(self) -> int:
        return len(self.values)

    def states(self) -> Iterator[Hashable]:
        """Every reachable state (in the order the search finished them: children first)."""
        return iter(self.values)


def _best(values: list[float], dists: list[int], maximise: bool) -> tuple[float, int]:
    """The minimax value for the mover and the distance that goes with it."""
    best = max(values) if maximise else min(values)
    ds = [d for v, d in zip(values, dists, strict=True) if v == best]
    mover_value = best if maximise else -best
    # The winner hurries, the loser delays; a draw is taken at its shortest.
    d = max(ds) if mover_value < 0 else min(ds)
    return best, d + 1


def solve_exhaustive(game: Game[Any, Any], start: Any = None) -> ExhaustiveSolution:
    """Solve ``game`` by minimax over all states reachable from ``start``.

    Args:
        game: Any game with a finite, acyclic state graph (every state appears once however it
            was reached, so transpositions are solved once).
        start: The root (default: ``game.initial()``).

    Returns:
        The solution: value and distance of every reachable state.

    Raises:
        ValueError: if the game can return to a state it has already visited on the current line
            of play (a cycle: exhaustive minimax does not apply).
    """
    root = game.initial() if start is None else start
    is_over, legal, step, to_move, returns = (
        game.is_over,
        game.legal,
        game.step,
        game.to_move,
        game.returns,
    )
    values: dict[Hashable, float] = {}
    dists: dict[Hashable, int] = {}
    on_path: set[Hashable] = set()
    # Frames: [state, its children, index of the next child to look at].
    stack: list[list[Any]] = []

    def enter(s: Any) -> None:
        if is_over(s):
            values[s] = returns(s)[0]
            dists[s] = 0
            return
        on_path.add(s)
        stack.append([s, tuple(step(s, m) for m in legal(s)), 0])

    enter(root)
    while stack:
        frame = stack[-1]
        children = frame[1]
        i = frame[2]
        n = len(children)
        while i < n and children[i] in values:
            i += 1
        if i < n:
            frame[2] = i + 1
            child = children[i]
            if child in on_path:
                raise ValueError(
                    f"{game.spec.name}: a line of play returns to an earlier state; "
                    "exhaustive minimax needs an acyclic game"
                )
            enter(child)
            continue
        s = frame[0]
        v, d = _best([values[c] for c in children], [dists[c] for c in children], to_move(s) == 0)
        values[s] = v
        dists[s] = d
        on_path.discard(s)
        stack.pop()
    return ExhaustiveSolution(values, dists)
