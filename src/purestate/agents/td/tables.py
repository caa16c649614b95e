"""The Q table of the tabular learners: the value, how it represents positions, its bounds, the
scratch rows a learning step changes, and its file form.

Bounds: every value is a finite number within ``±Q_LIMIT`` and every count (visits, games per
seat) a whole number from 0 to ``COUNT_LIMIT``. Learning clamps to them, so its arithmetic never
overflows into infinities or NaN and every table it makes loads again; a table file outside them
is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from attrs import frozen
from pyrsistent import PMap, pmap

from purestate.core.game import Game
from purestate.core.memo import memo

Values = tuple[float, ...]
Q_LIMIT = 1e9
"""The largest magnitude of a value. Games pay far less (±1 for a result, a margin of boxes, the
notebook learner's ±200 per move), so only a broken file comes near it."""
COUNT_LIMIT = 2**53
"""The largest count a table holds: exact as a float (the exploration schedule divides by it) and
in any JSON reader."""
EMPTY: PMap[Any, Any] = pmap()


@frozen
class QTable:
    """A learner's table: immutable, shared freely, replaced (never changed) by ``learn``.

    Attributes:
        q: Position (as the learner represents it, ``Representation``) -> the values of its
            moves, in the order of ``game.legal(position)``.
        visits: Position -> how many updates started there (only the notebook learner keeps
            them).
        games: How many episodes each seat has learned from; the exploration schedule reads the
            larger (self-play on a shared table counts each episode once per seat).
    """

    q: PMap[Any, Values] = EMPTY
    visits: PMap[Any, int] = EMPTY
    games: tuple[int, int] = (0, 0)

    @property
    def episodes(self) -> int:
        """The number of training games seen (the schedule's clock)."""
        return max(self.games)


@frozen
class Representation:
    """How one learner's table represents one game's positions: by the state itself, by the
    drawing alone (``unscored``), by the canonical form (``symmetric``), or both.

    Attributes:
        game: The game.
        unscored: The game's ``unscored`` (the drawing, not the score so far), or None.
        symmetric: Represent a position by its canonical form.
    """

    game: Game[Any, Any]
    unscored: Callable[[Any], Any] | None
    symmetric: bool

    def of(self, state: Any) -> tuple[Any, int]:
        """The position that stands for ``state`` in the table, and the symmetry that maps the
        state onto it."""
        s = self.unscored(state) if self.unscored is not None else state
        if self.symmetric:
            rep, g = self.game.canonical(s)
            return rep, g
        return s, 0

    @property
    def kind(self) -> str:
        """How a table file names this representation (its ``keys`` field: ``state``,
        ``unscored``, ``+canonical``)."""
        return ("unscored" if self.unscored is not None else "state") + (
            "+canonical" if self.symmetric else ""
        )


@memo(
    size=256, why="one representation per (learner, game) pair a process trains; a sweep has a few"
)
def representation_for(agent: Any, game: Game[Any, Any]) -> Representation:
    """``agent.make_representation(game)``: both are immutable values, so it is memoised."""
    made: Representation = agent.make_representation(game)
    return made


class Work:
    """Scratch space for one ``learn`` call: rows copied out of the table as lists, changed in
    place, and written back into a new persistent map at the end (the input is never touched)."""

    def __init__(
        self,
        q: PMap[Any, Values],
        representation: Representation,
        game: Game[Any, Any],
        of: Callable[[Any], tuple[Any, int]] | None = None,
    ) -> None:
        self.q = q
        self.representation = representation
        self.of = of if of is not None else representation.of
        """The table position of a state and its symmetry (``representation.of``, or a caller's
        faster copy of it)."""
        self.game = game
        self.rows: dict[Hashable, list[float]] = {}

    def row(self, rep: Any) -> list[float]:
        """The changeable row of the table position ``rep`` (a copy of the table's, or zeros)."""
        row = self.rows.get(rep)
        if row is None:
            old = self.q.get(rep)
            row = list(old) if old is not None else [0.0] * len(self.game.legal(rep))
            self.rows[rep] = row
        return row

    def slot(self, state: Any, move: Any) -> tuple[list[float], int]:
        """The row of ``state``'s table position and the index of ``move`` in it."""
        rep, g = self.of(state)
        row = self.row(rep)
        m = self.game.transform_move(move, g) if g else move
        return row, self.game.legal(rep).index(m)

    def best(self, state: Any) -> float:
        """The largest value of ``state``'s moves (0 if unseen)."""
        rep = self.of(state)[0]
        row = self.rows.get(rep)
        if row is None:
            old = self.q.get(rep)
            return 0.0 if old is None else max(old)
        return max(row)

    def value(self, state: Any, move: Any) -> float:
        """The current value of ``move`` in ``state``."""
        row, i = self.slot(state, move)
        return row[i]

    def persist(self) -> PMap[Any, Values]:
        """The table's map with the changed rows written back."""
        if not self.rows:
            return self.q
        e = self.q.evolver()
        for position, row in self.rows.items():
            e[position] = tuple(row)
        return e.persistent()


def clamp(v: float) -> float:
    """``v`` within ``±Q_LIMIT`` (the update sites test the common in-range case inline)."""
    return Q_LIMIT if v > Q_LIMIT else -Q_LIMIT if v < -Q_LIMIT else v


def counted(games: tuple[int, int], seat: int) -> tuple[int, int]:
    """The per-seat game counts after one more game learned from ``seat``."""
    return (
        min(COUNT_LIMIT, games[0] + (seat == 0)),
        min(COUNT_LIMIT, games[1] + (seat == 1)),
    )


# -- the file form ----------------------------------------------------------------------------


def table_to_json(game: Game[Any, Any], table: QTable, kind: str) -> Any:
    """``{"keys": kind, "per_seat_games": [..], "q": {position: {move: value}}, "visits": ...}``."""
    enc = game.encode
    q = {}
    for position, vals in table.q.items():
        q[enc(position)] = {
            _move_text(game, m): v for m, v in zip(game.legal(position), vals, strict=True)
        }
    return {
        "keys": kind,
        "per_seat_games": list(table.games),
        "q": q,
        "visits": {enc(position): n for position, n in table.visits.items()},
    }


def table_from_json(game: Game[Any, Any], data: Any, kind: str) -> QTable:
    """The table from ``table_to_json``'s data (positions decoded, moves back to ints).

    A valid table represents positions as ``kind`` says (its ``keys`` field); its ``q`` maps
    positions where the game is not over to ``{move: value}`` with legal moves and finite values
    within ``±Q_LIMIT`` (a move left out is worth 0); ``visits`` maps positions to counts and
    ``per_seat_games`` holds two counts, counts being whole numbers from 0 to ``COUNT_LIMIT``.

    Raises:
        ValueError: one line naming the first bad position, move or field.
    """
    if not isinstance(data, dict) or not isinstance(data.get("q"), dict):
        raise ValueError("no 'q' object of position -> {move: value}")
    if data.get("keys") != kind:
        raise ValueError(
            f"the table is keyed by {data.get('keys')!r} but this learner keys by "
            f"{kind!r} (check the symmetric/rewards options)"
        )
    q: Any = pmap().evolver()
    for text, row in data["q"].items():
        state = _position(game, text)
        if game.is_over(state):
            raise ValueError(f"position {text!r}: the game is already over there")
        if not isinstance(row, dict):
            raise ValueError(f"position {text!r}: expected {{move: value}}")
        legal = game.legal(state)
        vals: list[float | None] = [None] * len(legal)
        for mtext, v in row.items():
            m = _move_from_text(game, state, str(mtext))
            if m not in legal:
                raise ValueError(f"position {text!r}: {mtext!r} is not a legal move there")
            i = legal.index(m)
            if vals[i] is not None:
                raise ValueError(f"position {text!r}: move {mtext!r} is given twice")
            vals[i] = _value(v, f"position {text!r}, move {mtext!r}")
        q[state] = tuple(0.0 if v is None else v for v in vals)
    raw_visits = data.get("visits", {})
    if not isinstance(raw_visits, dict):
        raise ValueError("'visits' must be an object of position -> count")
    visits: Any = pmap().evolver()
    for text, n in raw_visits.items():
        if not _is_count(n):
            raise ValueError(
                f"visit count {n!r} of {text!r} is not a whole number from 0 to {COUNT_LIMIT}"
            )
        visits[_position(game, text)] = n
    g = data.get("per_seat_games", [0, 0])
    if not (isinstance(g, list) and len(g) == 2 and all(_is_count(x) for x in g)):
        raise ValueError(
            f"'per_seat_games' must be two whole numbers from 0 to {COUNT_LIMIT}; got {g!r}"
        )
    return QTable(q.persistent(), visits.persistent(), (g[0], g[1]))


def _move_text(game: Game[Any, Any], move: Any) -> str:
    """A move as a JSON key: the int id itself (independent of how the game shows moves)."""
    return str(move) if isinstance(move, int) else game.format_move(move)


def _move_from_text(game: Game[Any, Any], state: Any, text: str) -> Any:
    """The inverse of ``_move_text``: ints come back as ints."""
    if text.lstrip("-").isdigit():
        return int(text)
    try:
        return game.parse_move(state, text)
    except ValueError as e:
        raise ValueError(f"bad move {text!r}: {e}") from None


def _position(game: Game[Any, Any], text: str) -> Any:
    """A position of a table file, or a ValueError naming it."""
    try:
        return game.decode(text)
    except ValueError as e:
        raise ValueError(f"bad position {text!r}: {e}") from None


def _value(v: Any, where: str) -> float:
    """A table value of a file: a finite number within ``±Q_LIMIT``, or a ValueError."""
    if not isinstance(v, int | float) or isinstance(v, bool):
        raise ValueError(f"{where}: value {v!r} is not a number")
    # one comparison refuses NaN and infinities too, and compares a huge int exactly where
    # float() would overflow
    if not -Q_LIMIT <= v <= Q_LIMIT:
        raise ValueError(f"{where}: value {v!r} is not a finite number within ±{Q_LIMIT:g}")
    return float(v)


def _is_count(n: Any) -> bool:
    """Whether a file's count is a whole number from 0 to ``COUNT_LIMIT``."""
    return isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= COUNT_LIMIT
