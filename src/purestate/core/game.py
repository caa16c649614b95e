"""The Game protocol every game satisfies, and the errors it raises.

A game is a frozen attrs object holding its parameters (board size, map, variant). Its methods are
pure functions of their arguments. Algorithms (search, learning, the episode driver, the
conformance suite) only ever use this protocol, never a concrete game.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
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


# -- optional hooks ---------------------------------------------------------------------------
# A game may offer any of these beside the protocol; generic code finds them through
# ``purestate.core.hooks`` (one place, typed) and falls back to the plain protocol when a game has
# none, so a new game works before it is fast. The conformance suite checks each contract on every
# registered game that has the hook.


class Playout(Protocol):
    """A game with a fast random game to the end (MCTS rollouts; ``mcts:playout=random``)."""

    def playout(self, state: Any, key: int) -> tuple[float, float]:
        """The returns at the end of a uniformly random game from ``state``.

        Called by Monte Carlo search for every rollout, from any state (a finished one gives
        ``returns(state)``). Must return what ``returns`` gives at the end of the game that
        choosing ``legal(s)[int(r * len(legal(s)))]`` with ``r`` drawn in turn from
        ``keys.generator(key).random`` plays, and so the same distribution as stepping uniformly
        random legal moves; pure: the same state and key give the same returns.
        """
        ...


class Scored(Protocol):
    """A game with a running score before the end (dots and boxes' boxes)."""

    def score(self, state: Any) -> tuple[float, float]:
        """Each player's score so far, as ``returns`` would count it if the game ended now.

        Called by learners with per-box rewards (``qlearning:rewards=score``) after every move.
        Zero-sum, zeros at the start, and at the end of the game it agrees with ``returns``:
        equal to it when returns are margins, of the same sign otherwise.
        """
        ...


class Unscored(Protocol):
    """A game whose future does not depend on part of the state (who scored what so far)."""

    def unscored(self, state: Any) -> Any:
        """``state`` with the part that does not affect the future forgotten: a table key.

        Called by learners that key their tables by it (``qlearning:rewards=score`` on dots and
        boxes: 4,096 keys on 2×2 instead of every history of scores). Idempotent; the result has
        the same legal moves and end, and every move gains its mover the same ``score`` (keeping
        the turn or not) from it as from ``state``.
        """
        ...


class Observed(Protocol):
    """A game with hidden information: what a player may see of the state."""

    def observation(self, state: Any, player: int) -> Any:
        """``state`` as ``player`` sees it (Tron's simultaneous rules hide a committed move).

        Called by every driver (``play``, ``purestate play``, the browser, the bridges) before it
        shows the player to move a state; the move it returns is applied to the true state. The
        observation of the player to move is a state where that player is to move with the
        same legal moves; observing it again changes nothing; a state with nothing hidden comes
        back unchanged.
        """
        ...


class NumberedMoves(Protocol):
    """A game that knows how many move ids it has (a bridged OpenSpiel game)."""

    @property
    def num_move_ids(self) -> int:
        """Every move of every position is an int below this (OpenSpiel's ``num_distinct_actions``).

        Read by the bridges to size action spaces; when absent they take one more than the
        largest move of the start position.
        """
        ...


class LabelledBoard(Protocol):
    """A game that can draw its board with a label in each move's place (tic-tac-toe)."""

    def render_labels(self, labels: Mapping[int, str]) -> str:
        """The board with the text ``labels[move]`` in the place of each labelled move.

        Called by ``purestate solve`` to show the value of each opening move on the board;
        without it the values are a table. Pure text in which every label appears.
        """
        ...


def play_moves(game: Game[Any, Any], moves: Sequence[Any], state: Any = None) -> Any:
    """Apply ``moves`` in order from ``state`` (default: the initial state); return the end."""
    s = game.initial() if state is None else state
    for m in moves:
        s = game.step(s, m)
    return s


# -- the decisive playout hook (an optional hook like those above; kept here at the end) ------


class DecisivePlayout(Protocol):
    """A game with a fast decisive random game to the end (MCTS rollouts: ``mcts:playout=auto``,
    ``decisive`` and ``antidecisive``)."""

    def decisive_playout(self, state: Any, key: int, anti: bool = False) -> tuple[float, float]:
        """The returns at the end of a random game from ``state`` in which a player who can win at
        once does (and, with ``anti``, a player who can avoid letting the opponent win at once
        does).

        Called by Monte Carlo search for every rollout, from any state (a finished one gives
        ``returns(state)``). Each ply: if a move of ``legal(s)`` ends the game with the mover's
        return above 0, the first such move is played; otherwise the move ``legal(s)[i]`` with
        ``i = int(r * len(legal(s)))`` and ``r`` the next draw of ``keys.generator(key).random``
        (a draw only on plies with no winning move), or with ``anti`` the first move from ``i``
        on, cyclically, after which the opponent cannot end the game at once with their return
        above 0 (``legal(s)[i]`` when every move lets them). Must return what ``returns`` gives at
        the end of that game, the one ``agents.mcts.decisive_playout`` plays with the same draws;
        pure: the same state, key and ``anti`` give the same returns.
        """
        ...
