"""Counting a small game: reachable positions, positions up to symmetry, terminals, games.

Pure functions of a game, generic over the Game protocol. They are the figures the golden tests
check (tic-tac-toe: 5,478 positions, 765 up to symmetry, 958 terminal, 255,168 games) and what
``purestate solve`` prints for a game small enough to enumerate.

The *depth* of a position is the number of plies on the shortest way to it from the start; in
tic-tac-toe and dots and boxes every way to a position has the same length (the number of marks
or lines drawn), so depth is simply the ply.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import Any

from attrs import frozen

from purestate.core.game import Game
from purestate.solve.bounds import TooLarge, require_whole_game

__all__ = ["Census", "GameCount", "TooLarge", "census", "count_games", "reachable"]


@frozen(eq=False)
class Census:
    """Counts of the positions reachable from the start of a game.

    Attributes:
        positions: Reachable positions, the start included.
        canonical_positions: The same up to the game's symmetries.
        by_depth: Positions per depth (plies from the start).
        canonical_by_depth: Canonical positions per depth.
        terminal: Terminal positions per result for player 0 (e.g. ``{1.0: 626, ...}``).
        canonical_terminal: Canonical terminal positions per result for player 0.
        canonical_to_move: Canonical non-terminal positions per ``(player to move, depth)``.
    """

    positions: int
    canonical_positions: int
    by_depth: dict[int, int]
    canonical_by_depth: dict[int, int]
    terminal: dict[float, int]
    canonical_terminal: dict[float, int]
    canonical_to_move: dict[tuple[int, int], int]


def reachable(game: Game[Any, Any], limit: int | None = None) -> dict[Hashable, int]:
    """Every position reachable from the start, with its depth, in breadth-first order.

    Args:
        game: The game.
        limit: Stop with ``TooLarge`` once more than this many positions are found. Without
            one, a game that declares more positions than ``bounds.POSITION_LIMIT`` is refused
            before the walk starts.

    Raises:
        TooLarge: if ``limit`` is exceeded, or without a limit if the game is too large.
    """
    if limit is None:
        require_whole_game(game, "counting positions", "every position")
    start = game.initial()
    depth: dict[Hashable, int] = {start: 0}
    frontier = [start]
    d = 0
    while frontier:
        d += 1
        nxt = []
        for s in frontier:
            if game.is_over(s):
                continue
            for m in game.legal(s):
                c = game.step(s, m)
                if c not in depth:
                    depth[c] = d
                    nxt.append(c)
        if limit is not None and len(depth) > limit:
            raise TooLarge(f"{game.spec.name} has more than {limit:,} reachable positions")
        frontier = nxt
    return depth


def census(game: Game[Any, Any], limit: int | None = None) -> Census:
    """Count the positions of ``game`` (all reachable, up to symmetry, terminal by result).

    Args:
        game: The game.
        limit: Give up with ``TooLarge`` beyond this many reachable positions (without one, a
            game too large to walk whole is refused at once, as by ``reachable``).
    """
    depth = reachable(game, limit)
    by_depth: Counter[int] = Counter()
    canon_depth: Counter[int] = Counter()
    terminal: Counter[float] = Counter()
    canon_terminal: Counter[float] = Counter()
    canon_to_move: Counter[tuple[int, int]] = Counter()
    seen: set[Hashable] = set()
    for s, d in depth.items():
        by_depth[d] += 1
        over = game.is_over(s)
        if over:
            terminal[game.returns(s)[0]] += 1
        rep = game.canonical(s)[0]
        if rep in seen:
            continue
        seen.add(rep)
        canon_depth[d] += 1
        if over:
            canon_terminal[game.returns(s)[0]] += 1
        else:
            canon_to_move[(game.to_move(s), d)] += 1
    return Census(
        positions=len(depth),
        canonical_positions=len(seen),
        by_depth=dict(sorted(by_depth.items())),
        canonical_by_depth=dict(sorted(canon_depth.items())),
        terminal=dict(sorted(terminal.items())),
        canonical_terminal=dict(sorted(canon_terminal.items())),
        canonical_to_move=dict(sorted(canon_to_move.items())),
    )


@frozen(eq=False)
class GameCount:
    """How many different games (move sequences from the start to an end) a game has.

    Attributes:
        total: All games.
        by_result: Games per result for player 0.
        by_length: Games per number of plies.
    """

    total: int
    by_result: dict[float, int]
    by_length: dict[int, int]


def count_games(game: Game[Any, Any], limit: int | None = None) -> GameCount:
    """Count the distinct move sequences that play ``game`` from its start to an end.

    Counted ply by ply: the number of ways to reach each position in exactly ``n`` plies, so the
    work is proportional to the positions, not to the games (255,168 for tic-tac-toe).

    Args:
        game: A game whose every game ends within ``game.spec.max_length`` plies.
        limit: Give up with ``TooLarge`` beyond this many positions in one ply. Without one, a
            game that declares more positions than ``bounds.POSITION_LIMIT`` is refused at once.

    Raises:
        TooLarge: if a ply holds more than ``limit`` positions, or a line of play is longer than
            ``spec.max_length`` (a game that can go on for ever has infinitely many games), or
            without a limit if the game is too large.
    """
    if limit is None:
        require_whole_game(game, "counting games", "every position")
    ways: dict[Hashable, int] = {game.initial(): 1}
    by_result: Counter[float] = Counter()
    by_length: Counter[int] = Counter()
    ply = 0
    while ways:
        nxt: dict[Hashable, int] = {}
        for s, n in ways.items():
            if game.is_over(s):
                by_result[game.returns(s)[0]] += n
                by_length[ply] += n
                continue
            for m in game.legal(s):
                c = game.step(s, m)
                nxt[c] = nxt.get(c, 0) + n
        if limit is not None and len(nxt) > limit:
            raise TooLarge(f"{game.spec.name} has more than {limit:,} positions at ply {ply + 1}")
        ply += 1
        if nxt and ply > game.spec.max_length:
            raise TooLarge(f"{game.spec.name} has lines longer than its max_length")
        ways = nxt
    return GameCount(
        total=sum(by_result.values()),
        by_result=dict(sorted(by_result.items())),
        by_length=dict(sorted(by_length.items())),
    )
