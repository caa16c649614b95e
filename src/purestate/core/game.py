"""The Game protocol every game satisfies, and the errors it raises.

A game is a frozen attrs object holding its parameters (board size, map, variant). Its methods are
pure functions of their arguments. Algorithms (search, learning, the episode driver, the
conformance suite) only ever use this protocol, never a concrete game.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from attrs import frozen

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


class IllegalMove(ValueError):
    """A move that is not legal in the given state (the message says why)."""


class ParseError(ValueError):
    """Text that does not describe a move or a state of the game (the message says why)."""


class NotAGame(TypeError):
    """A value passed as a purestate game or state that is not one, most often an OpenSpiel
    (pyspiel) object: the message says how to bridge it."""


def _pyspiel_object(x: Any) -> bool:
    # by the defining module, so the core needs no pyspiel to recognise one (python games
    # subclass pyspiel.Game and pyspiel.State)
    return any(c.__module__ == "pyspiel" for c in type(x).__mro__)


_METHODS = ("initial", "to_move", "legal", "step", "is_over", "returns")


def not_a_game(game: Any, state: Any = None) -> NotAGame | None:
    """Why ``game`` is not a purestate game or ``state`` not a purestate state, or None.

    Called where a missing method surfaced as an ``AttributeError``, to say it in one line.
    """
    if _pyspiel_object(game):
        try:
            name = game.get_type().short_name
        except Exception:  # a python game may not say: the advice stands without the name
            name = "NAME"
        return NotAGame(
            f"a pyspiel game is not a purestate game: load it with "
            f"purestate.make('openspiel:{name}') (needs purestate[openspiel])"
        )
    missing = [m for m in _METHODS if not callable(getattr(game, m, None))]
    if missing:
        return NotAGame(
            f"a {type(game).__qualname__} is not a purestate game (it has no {', '.join(missing)})"
        )
    if state is not None and _pyspiel_object(state):
        return NotAGame(
            "a pyspiel state is not a purestate state: with a game from "
            "purestate.make('openspiel:...'), use game.from_pyspiel(state)"
        )
    return None


def require_game(game: Any, state: Any = None) -> None:
    """Raise ``not_a_game(game, state)`` if there is a reason; return otherwise."""
    err = not_a_game(game, state)
    if err is not None:
        raise err


@frozen
class GameSpec:
    """Facts about a game that algorithms check before they run.

    Attributes:
        name: The registry name, e.g. ``"tictactoe"``.
        num_players: Always 2 here.
        max_length: An upper bound on the number of plies in a game.
        zero_sum: Whether ``returns`` always sum to zero.
        outcomes: The possible returns for player 0 at a terminal state, when they are few
            (win/draw/loss); ``None`` when returns are margins.
        positions: An upper bound on the positions reachable from the start (exact when known),
            however astronomical; ``None`` when the game does not know one. Whatever needs the
            whole game (an exact solver, MENACE's matchboxes, a census) checks it first and
            refuses at once beyond ``purestate.solve.bounds.POSITION_LIMIT`` (or when ``None``).
        default_opponent: The agent spec ``purestate play`` pits a person against when no
            ``--opponent`` is given: the strongest that answers within about a second a move.
    """

    name: str
    num_players: int
    max_length: int
    zero_sum: bool = True
    outcomes: tuple[float, ...] | None = (-1.0, 0.0, 1.0)
    positions: int | None = None
    default_opponent: str = "mcts"


@runtime_checkable
class Game(Protocol[S, M]):
    """A two-player game as pure functions of immutable states.

    ``to_move`` is read from the state and never assumed to alternate: dots and boxes and the
    Xtreme bonus move give the same player another move.
    """

    def __hash__(self) -> int:
        """Games are frozen values: hashable, so pure functions of a game can be memoised."""
        ...

    @property
    def spec(self) -> GameSpec:
        """Facts about the game (name, bounds, zero-sum)."""
        ...

    def initial(self) -> S:
        """The start position."""
        ...

    def to_move(self, state: S) -> int:
        """Whose turn it is, 0 or 1 (meaningless once the game is over)."""
        ...

    def legal(self, state: S) -> tuple[M, ...]:
        """Legal moves in a fixed order; empty iff the game is over."""
        ...

    def step(self, state: S, move: M) -> S:
        """The next state. Raises ``IllegalMove`` with a clear message."""
        ...

    def is_over(self, state: S) -> bool:
        """Terminal test."""
        ...

    def returns(self, state: S) -> tuple[float, float]:
        """One result per player at a terminal state (zeros before the end)."""
        ...

    @property
    def symmetries(self) -> tuple[int, ...]:
        """The elements of the board's symmetry group, as indices; 0 is the identity."""
        ...

    def transform(self, state: S, sym: int) -> S:
        """The image of ``state`` under symmetry ``sym``."""
        ...

    def transform_move(self, move: M, sym: int) -> M:
        """The image of ``move`` under symmetry ``sym``."""
        ...

    def inverse(self, sym: int) -> int:
        """The inverse symmetry of ``sym``."""
        ...

    def canonical(self, state: S) -> tuple[S, int]:
        """The representative of the state's symmetry class and a ``sym`` that maps state to it."""
        ...

    def encode(self, state: S) -> str:
        """A stable text key for tables, logs and the CLI."""
        ...

    def decode(self, text: str) -> S:
        """The inverse of ``encode``. Raises ``ParseError`` on bad text."""
        ...

    def render(self, state: S) -> str:
        """The board for a person, with move indices where that helps."""
        ...

    def parse_move(self, state: S, text: str) -> M:
        """A move typed by a person. Raises ``ParseError`` or ``IllegalMove``."""
        ...

    def format_move(self, move: M) -> str:
        """A move as a person would type it."""
        ...


def play_moves(game: Game[Any, Any], moves: Sequence[Any], state: Any = None) -> Any:
    """Apply ``moves`` in order from ``state`` (default: the initial state); return the end."""
    s = game.initial() if state is None else state
    for m in moves:
        s = game.step(s, m)
    return s
