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
        table: State -> (player 0's return under perfect play, plies to the end under perfect
            play with the winner hurrying and the loser delaying).
    """

    table: Mapping[Hashable, tuple[float, int]] = field(repr=lambda t: f"<{len(t)} states>")

    def _entry(self, state: Any) -> tuple[float, int]:
        try:
            return self.table[state]
        except KeyError:
            raise KeyError(f"state {state!r} is not reachable from the start position") from None

    def value(self, state: Any) -> float:
        """Player 0's return from ``state`` under perfect play.

        Raises:
            KeyError: if ``state`` is not reachable from the start of the game.
        """
        return self._entry(state)[0]

    def distance(self, state: Any) -> int:
        """Plies to the end of the game from ``state`` under perfect play."""
        return self._entry(state)[1]

    def __len__(self) -> int:
        return len(self.table)

    def states(self) -> Iterator[Hashable]:
        """Every reachable state (in the order the search first met them)."""
        return iter(self.table)


# Marks a state on the current line of play: meeting it again means the game has a cycle.
_OPEN = (float("nan"), -1)


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
    # State -> (value, distance); _OPEN marks a state on the current line of play (cycle check).
    # One dict, so each edge costs one look-up (state hashing dominates the run time).
    solved: dict[Hashable, tuple[float, int]] = {}
    get = solved.get
    if is_over(root):
        solved[root] = (returns(root)[0], 0)
        return _solution(solved)
    solved[root] = _OPEN
    # Frames: (state, its children, the results of the children scanned so far).
    stack: list[tuple[Any, list[Any], list[tuple[float, int]]]] = [
        (root, [step(root, m) for m in legal(root)], [])
    ]
    while stack:
        s, children, results = stack[-1]
        n = len(children)
        i = len(results)
        while i < n:
            r = get(children[i])
            if r is None:
                break
            if r is _OPEN:
                raise ValueError(
                    f"{game.spec.name}: a line of play returns to an earlier state; "
                    "exhaustive minimax needs an acyclic game"
                )
            results.append(r)
            i += 1
        if i < n:
            c = children[i]
            if is_over(c):
                solved[c] = (returns(c)[0], 0)
            else:
                solved[c] = _OPEN
                stack.append((c, [step(c, m) for m in legal(c)], []))
            continue
        solved[s] = _best(results, to_move(s) == 0)
        stack.pop()
    return _solution(solved)


def _best(results: list[tuple[float, int]], maximise: bool) -> tuple[float, int]:
    """The minimax value for the mover and the distance that goes with it.

    ``(value, distance)`` tuples compare on the distance second, so ``max``/``min`` already
    pick the longest/shortest line among equal values; only the other case needs a second pass.
    """
    if maximise:
        best = max(results)  # the highest value; among equals the longest line
        if best[0] >= 0:  # winning or drawing: hurry
            v = best[0]
            best = min(r for r in results if r[0] == v)
    else:
        best = min(results)  # the lowest value; among equals the shortest line
        if best[0] > 0:  # losing: delay
            v = best[0]
            best = max(r for r in results if r[0] == v)
    return best[0], best[1] + 1


def _solution(solved: dict[Hashable, tuple[float, int]]) -> ExhaustiveSolution:
    return ExhaustiveSolution(solved)
