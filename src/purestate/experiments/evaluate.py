"""Evaluation without learning: an agent against an opponent, from both seats."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from purestate.core.agent import Agent
from purestate.core.episode import Episode, play
from purestate.core.game import Game
from purestate.core.keys import Key, fold_in


def seat_games(
    game: Game[Any, Any],
    subject: Agent,
    table: Any,
    opponent: Agent,
    opponent_table: Any,
    seat: int,
    games: int,
    key: Key,
) -> Iterator[Episode]:
    """Lazily play ``games`` games with ``subject`` in ``seat``; nobody learns.

    Game ``i`` uses ``fold_in(fold_in(key, seat), i)``, so each seat's series is reproducible on
    its own.
    """
    agents = (subject, opponent) if seat == 0 else (opponent, subject)
    tables = (table, opponent_table) if seat == 0 else (opponent_table, table)
    k = fold_in(key, seat)
    for i in range(games):
        yield play(game, agents, tables, fold_in(k, i))
