"""A tiny learner whose table is numpy arrays, for testing array table files without JAX.

``counts`` keeps, per move id, how often its side played the move (``plays``, int64) and the
returns its side got in those games (``returns``, float64), plus the number of games learned
from (meta ``seen``); it plays the legal move with the best mean return, ties to the lowest id
(exploring: a random legal move for an unplayed id). Moves must be ints below ``moves``. Tests
make ``counts`` a name the registry knows with ``register``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from attrs import field, frozen
from numpy.typing import NDArray

from purestate.core import registry
from purestate.core.agent import Decision
from purestate.core.game import Game
from purestate.core.keys import Key, choice
from purestate.core.spec import format_spec

FORMAT = "purestate.test_counts/1"


def _frozen(a: NDArray[Any]) -> NDArray[Any]:
    a.setflags(write=False)
    return a


@frozen(eq=False)
class CountsTable:
    """Move counts and summed returns per move id, and the games learned from."""

    plays: NDArray[np.int64]
    returns: NDArray[np.float64]
    seen: int

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, CountsTable)
            and self.seen == other.seen
            and self.plays.dtype == other.plays.dtype
            and self.returns.dtype == other.returns.dtype
            and np.array_equal(self.plays, other.plays)
            and np.array_equal(self.returns, other.returns)
        )

    __hash__ = None  # type: ignore[assignment]


@frozen
class Counts:
    """A learner of mean returns per move id.

    Attributes:
        moves: How many move ids the table has (every move of the game is below it).
    """

    moves: int = field(default=9)
    learns = True

    @property
    def spec(self) -> str:
        """``counts`` with its options."""
        return format_spec("counts", self)

    @property
    def table_format(self) -> str:
        """``purestate.test_counts/1``."""
        return FORMAT

    def initial_table(self, game: Game[Any, Any], seat: int) -> CountsTable:
        """Nothing played yet."""
        plays = _frozen(np.zeros(self.moves, dtype=np.int64))
        return CountsTable(plays, _frozen(np.zeros(self.moves, dtype=np.float64)), 0)

    def _means(self, table: CountsTable) -> NDArray[np.float64]:
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(table.plays > 0, table.returns / np.maximum(table.plays, 1), 0.0)

    def greedy(self, game: Game[Any, Any], table: CountsTable, state: Any) -> Any:
        """The legal move with the best mean return, the lowest id on ties."""
        means = self._means(table)
        legal = game.legal(state)
        return max(legal, key=lambda m: (means[m], -m))

    def act(self, game: Game[Any, Any], table: CountsTable, state: Any, key: Key) -> Decision[Any]:
        """A legal move never played yet (drawn), else the greedy move."""
        fresh = [m for m in game.legal(state) if table.plays[m] == 0]
        if fresh:
            return Decision(choice(key, fresh))
        return Decision(self.greedy(game, table, state))

    def learn(self, game: Game[Any, Any], table: CountsTable, episode: Any, seat: int) -> Any:
        """A new table with ``seat``'s moves of ``episode`` counted; the input is unchanged."""
        plays, returns = table.plays.copy(), table.returns.copy()
        for move, mover in zip(episode.moves, episode.movers, strict=True):
            if mover == seat:
                plays[move] += 1
                returns[move] += episode.returns[seat]
        return CountsTable(_frozen(plays), _frozen(returns), table.seen + 1)

    def table_to_arrays(
        self, game: Game[Any, Any], table: CountsTable
    ) -> tuple[dict[str, Any], dict[str, NDArray[Any]]]:
        """Meta ``seen`` and ``moves``; arrays ``plays`` and ``value/returns``."""
        meta = {"seen": table.seen, "moves": self.moves}
        return meta, {"plays": table.plays, "value/returns": table.returns}

    def table_from_arrays(
        self, game: Game[Any, Any], meta: dict[str, Any], arrays: dict[str, NDArray[Any]]
    ) -> CountsTable:
        """The table, refused (ValueError) unless every part has this learner's shape."""
        if meta.get("moves") != self.moves:
            raise ValueError(f"a table of {meta.get('moves')!r} moves, not {self.moves}")
        seen = meta.get("seen")
        if type(seen) is not int or seen < 0:
            raise ValueError(f"'seen' is {seen!r}, not a count")
        if set(arrays) != {"plays", "value/returns"}:
            raise ValueError(f"arrays {sorted(arrays)}, not plays and value/returns")
        plays, returns = arrays["plays"], arrays["value/returns"]
        if plays.dtype != np.int64 or plays.shape != (self.moves,) or (plays < 0).any():
            raise ValueError(f"plays must be {self.moves} counts (int64, at least 0)")
        if returns.dtype != np.float64 or returns.shape != (self.moves,):
            raise ValueError(f"value/returns must be {self.moves} float64 values")
        return CountsTable(plays, returns, seen)


def register(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``counts`` an agent ``purestate.agent`` (and so every command) builds, for one test:
    the registry's ``agent_class`` answers ``Counts`` for it, and asks the registry otherwise."""
    known = registry.agent_class

    def agent_class(name: str) -> type:
        return Counts if name == "counts" else known(name)

    monkeypatch.setattr(registry, "agent_class", agent_class)
