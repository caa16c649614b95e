"""How good is a learned table? Its greedy moves scored against an exact solution.

Generic over games and learners: a learner says which positions its table covers
(``positions(game, table)``) and what it would play there (``greedy(game, table, state)``); the
solution says what every move is worth. Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from attrs import frozen

from purestate.core.agent import Greedy
from purestate.core.episode import resign_returns
from purestate.core.game import Game, ParseError
from purestate.core.hooks import positions_of, supports_seat
from purestate.core.keys import key
from purestate.solve import Solution


@frozen
class SeatResult:
    """One game of the table's greedy policy against the solver.

    Attributes:
        seat: The table's seat (0 moves first).
        result: The table's return in that game.
        perfect: What perfect play from that seat gets (the ceiling).
        moves: The moves of the game.
    """

    seat: int
    result: float
    perfect: float
    moves: tuple[Any, ...]


@frozen
class TableAnalysis:
    """The greedy policy of a table, scored move by move.

    Attributes:
        positions: Positions scored (covered by the table, not finished).
        optimal: Positions where the greedy move is optimal.
        total_loss: The summed loss of the greedy moves (the mover's value of the best move minus
            that of the greedy move: boxes in dots and boxes, outcome units in win/draw/loss games).
        worst: Up to 10 positions with the largest loss, as (position, greedy move, loss).
        vs_solver: The greedy policy against the solver from each seat the table plays (both, or
            the one seat of a MENACE table), in seat order.
    """

    positions: int
    optimal: int
    total_loss: float
    worst: tuple[tuple[Any, Any, float], ...]
    vs_solver: tuple[SeatResult, ...]

    @property
    def optimal_move_rate(self) -> float:
        """The share of covered positions where the greedy move is optimal."""
        return self.optimal / self.positions if self.positions else 0.0

    @property
    def mean_loss(self) -> float:
        """The mean loss per covered position."""
        return self.total_loss / self.positions if self.positions else 0.0


def covered_positions(game: Game[Any, Any], agent: Any, table: Any) -> list[Any]:
    """The positions a table covers: ``agent.positions(game, table)`` if the agent says, else
    the keys of the table's map (``table.q``, ``table.boxes`` or the table itself), decoded with
    ``game.decode`` when they are text.

    Raises:
        ValueError: if neither gives positions.
    """
    says = positions_of(agent)
    if says is not None:
        return list(says(game, table))
    for source in (getattr(table, "q", None), getattr(table, "boxes", None), table):
        if isinstance(source, Mapping):
            out = []
            for k in source:
                if isinstance(k, str):
                    try:
                        k = game.decode(k)
                    except ParseError:
                        continue
                out.append(k)
            return out
    raise ValueError(
        f"agent {getattr(agent, 'spec', agent)!r} does not say which positions its table covers"
    )


def _mover_values(game: Game[Any, Any], solution: Solution, state: Any) -> dict[Any, float]:
    sign = 1.0 if game.to_move(state) == 0 else -1.0
    return {m: sign * solution.value(game.step(state, m)) for m in game.legal(state)}


def solver_move(game: Game[Any, Any], solution: Solution, state: Any) -> Any:
    """The first (in ``game.legal`` order) move that is optimal for the player to move."""
    vals = _mover_values(game, solution, state)
    top = max(vals.values())
    return next(m for m, v in vals.items() if v == top)


def _greedy_value(game: Game[Any, Any], vals: Mapping[Any, float], move: Any) -> float:
    """The mover's value of the greedy move; ``None`` (MENACE resigning) is scored as the episode
    driver scores a resignation, a loss."""
    if move is None:
        return resign_returns(0)[0]
    if move not in vals:
        raise ValueError(f"the greedy move {game.format_move(move)} is not legal there")
    return vals[move]


def play_against_solver(
    game: Game[Any, Any], agent: Any, table: Any, solution: Solution, seat: int
) -> SeatResult:
    """One game: the table's greedy moves from ``seat`` (as ``Greedy`` plays them, a decision's
    table kept for the next move: ``alphazero``'s tree), the solver's from the other seat.

    A greedy ``None`` (MENACE with an empty box) resigns: the game ends as a loss for ``seat``.
    """
    state = game.initial()
    moves: list[Any] = []
    perfect = solution.value(game.initial())
    sign = 1.0 if seat == 0 else -1.0
    player = Greedy(agent)
    while not game.is_over(state):
        if game.to_move(state) == seat:
            decision = player.act(game, table, state, key(0))  # Greedy draws nothing
            m = decision.move
            if decision.table is not None:
                table = decision.table
            if m is None:
                return SeatResult(seat, resign_returns(seat)[seat], sign * perfect, tuple(moves))
        else:
            m = solver_move(game, solution, state)
        moves.append(m)
        state = game.step(state, m)
    return SeatResult(seat, game.returns(state)[seat], sign * perfect, tuple(moves))


def analyze_table(
    game: Game[Any, Any],
    agent: Any,
    table: Any,
    solution: Solution,
    positions: Iterable[Any] | None = None,
) -> TableAnalysis:
    """Score a table's greedy policy against an exact solution.

    Args:
        game: The game.
        agent: A learner with ``greedy(game, table, state)``.
        table: Its table.
        solution: The exact solution of ``game``.
        positions: The positions to score (default: those the table covers).
    """
    states = covered_positions(game, agent, table) if positions is None else list(positions)
    n = good = 0
    loss = 0.0
    worst: list[tuple[Any, Any, float]] = []
    for s in states:
        if game.is_over(s):
            continue
        vals = _mover_values(game, solution, s)
        top = max(vals.values())
        m = agent.greedy(game, table, s)
        lost = top - _greedy_value(game, vals, m)
        n += 1
        if lost == 0:
            good += 1
        else:
            loss += lost
            worst.append((s, m, lost))
    worst.sort(key=lambda w: -w[2])
    vs = tuple(
        play_against_solver(game, agent, table, solution, seat)
        for seat in (0, 1)
        if supports_seat(agent, table, seat)
    )
    return TableAnalysis(n, good, loss, tuple(worst[:10]), vs)


_Visited = tuple[Any, frozenset[Any] | None, dict[Any, Any]]
"""A position met while scoring a run's moves: the position, its optimal moves when the scored
seat is to move there (else None), and the positions after its moves played so far, by move."""


def optimal_move_rates(
    game: Game[Any, Any],
    solution: Solution,
    games: Iterable[Iterable[Any]],
    seat: int,
    block: int,
) -> tuple[tuple[int, int], ...]:
    """Per block of games, how many of ``seat``'s moves were value-optimal, out of how many.

    A move is optimal when no other legal move in its position is worth more to the mover
    according to ``solution``, the measure ``analyze_table`` applies to a table's greedy moves,
    here applied to the moves actually played (exploration included).

    Args:
        game: The game.
        solution: Its exact solution.
        games: The moves of each game, in order (move values, or their text as the game prints
            them).
        seat: The learner's seat: only its moves are scored.
        block: Games per block; the last block may be partial.

    Returns:
        One ``(optimal moves, moves)`` pair per block.
    """
    if block < 1:
        raise ValueError(f"block must be at least 1, not {block}")
    # a run revisits the same few thousand positions: each is scored and stepped from once, and
    # the games walk a graph of them (a node per position: the position, the set of its optimal
    # moves when ``seat`` is to move there, else None, and its children by move)
    nodes: dict[Any, _Visited] = {}

    def visit(state: Any) -> _Visited:
        node = nodes.get(state)
        if node is None:
            top = None
            if not game.is_over(state) and game.to_move(state) == seat:
                vals = _mover_values(game, solution, state)
                high = max(vals.values())
                top = frozenset(k for k, v in vals.items() if v == high)
            node = nodes[state] = (state, top, {})
        return node

    out: list[tuple[int, int]] = []
    good = moved = played = 0
    start = visit(game.initial())
    for moves in games:
        node = start
        for m in moves:
            if isinstance(m, str):
                m = game.parse_move(node[0], m)
            child = node[2].get(m)
            if child is None:
                child = node[2][m] = visit(game.step(node[0], m))
            top = node[1]
            if top is not None:
                moved += 1
                good += m in top
            node = child
        played += 1
        if played % block == 0:
            out.append((good, moved))
            good = moved = 0
    if played % block:
        out.append((good, moved))
    return tuple(out)
