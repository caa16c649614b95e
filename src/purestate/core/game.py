"""The Game protocol every game satisfies, and the errors it raises.

A game is a frozen attrs object holding its parameters (board size, map, variant). Its methods are
pure functions of their arguments. Algorithms (search, learning, the episode driver, the
conformance suite) only ever use this protocol, never a concrete game.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from attrs import Factory, field, frozen

from purestate.core.keys import Draws
from purestate.core.memo import memo

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

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

    Called by ``require_game`` and where a value is taken as a game, to say it in one line.
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


@memo(size=64, why="one entry per pair of game and state classes a process meets: a handful")
def _maybe_foreign(game_type: type, state_type: type) -> bool:
    """Whether a game of ``game_type`` or a state of ``state_type`` may not be purestate's (then
    ``not_a_game`` looks at the objects themselves)."""
    return any(
        c.__module__ == "pyspiel" for c in (*game_type.__mro__, *state_type.__mro__)
    ) or not all(callable(getattr(game_type, m, None)) for m in _METHODS)


def require_game(game: Any, state: Any = None) -> None:
    """Raise ``not_a_game(game, state)`` if there is a reason; return otherwise.

    The explicit check a search or a driver makes where a game (and a state) enters it, so that a
    pyspiel object gets one line saying how to bridge it instead of an ``AttributeError`` from
    deep inside. Cheap enough for every move: the verdict on a purestate game's class is
    remembered.
    """
    if _maybe_foreign(type(game), type(state)):
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
        examples: The specs a person is shown first (the web app's home page, ``purestate
            games``): the game's name alone unless it says.
        variants: The specs that reach every rule the game has (each option's values that change
            the rules: board sizes, rule sets, starts); the conformance suite and the generic
            properties run each. The game's name alone unless it says.
        solver: ``"module:function"`` of a special-purpose exact solver (``function(game) ->
            Solution``, in ``purestate.solve``), or ``""`` for the generic memoised minimax.
            Named, not imported, so the game needs nothing above the core.
    """

    name: str
    num_players: int
    max_length: int
    zero_sum: bool = True
    outcomes: tuple[float, ...] | None = (-1.0, 0.0, 1.0)
    positions: int | None = None
    default_opponent: str = "mcts"
    examples: tuple[str, ...] = field(default=Factory(lambda self: (self.name,), takes_self=True))
    variants: tuple[str, ...] = field(default=Factory(lambda self: (self.name,), takes_self=True))
    solver: str = ""


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

    def playout(self, state: Any, key: int, draws: Draws = "counter") -> tuple[float, float]:
        """The returns at the end of a uniformly random game from ``state``.

        Called by Monte Carlo search for every rollout, from any state (a finished one gives
        ``returns(state)``). Must return what ``returns`` gives at the end of the game that
        choosing ``legal(s)[int(r * len(legal(s)))]`` with ``r`` drawn in turn from
        ``keys.draws(key, draws)`` plays (``keys.stream(key)``; ``draws="mersenne"``, what
        runs before format 3 drew: ``keys.generator(key).random``), and so the same distribution
        as stepping uniformly random legal moves; pure: the same state and key give the same
        returns, compiled or not (``core.batch.random_returns`` is the definition).
        """
        ...


class BatchPlayouts(Protocol):
    """A game that plays many random games in one call (``core.batch.playouts``)."""

    def playouts(self, states: Sequence[Any], ks: npt.NDArray[np.uint64]) -> Any:
        """The returns at the end of the uniformly random game from ``states[i]`` that key
        ``ks[i]`` draws, as a float64 array of shape ``(len(ks), 2)``; one state stands for
        all. Each game is ``core.batch.random_returns(game, states[i], ks[i])``: the same
        moves, compiled or not.
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


class Planes(Protocol):
    """A game seen as planes of 0/1 (learners that want arrays: PettingZoo, OpenSpiel tensors)."""

    @property
    def plane_shape(self) -> tuple[int, ...] | None:
        """The shape of every ``planes`` array: rows × columns × planes for a board game (a
        bridged OpenSpiel game keeps OpenSpiel's layout, planes first). ``None``: the game has
        no planes after all (an OpenSpiel game without an observation tensor)."""
        ...

    @property
    def plane_lines(self) -> tuple[str, ...]:
        """What each plane holds, one line per plane in the order of the planes axis."""
        ...

    def planes(self, state: Any, player: int) -> Any:
        """``state`` seen by ``player`` as a numpy array of ``plane_shape``.

        Called by the bridges for every observation (PettingZoo's ``observation``,
        ``as_pyspiel``'s observation tensor). Values are 0 or 1 (int8; float32 for a bridged
        OpenSpiel game, whose tensor it is); the observer's own pieces come before the other
        player's, as PettingZoo's classic games and AlphaZero-style nets expect; a symmetry of
        the position moves the entries and changes no value. Pure: read off the state, and a
        new array each call (the caller may write into it).
        """
        ...


class Drawn(Protocol):
    """A game that draws its board as a vector picture (``purestate.svg``)."""

    def draw(self, state: Any, title: str, last: Any, history: Sequence[Any]) -> str:
        """The position as a standalone SVG document (helpers in ``purestate.core.picture``).

        Called by ``purestate.svg`` for the web app, notebooks and ``replay --svg``;
        without it the picture is the framed text of ``render``. ``title`` is a line above the
        board (escaped); ``last`` the move that led to ``state`` (highlighted; ``None`` for
        none); ``history`` the states before ``state`` when the caller has them (Tron colours
        trails from them), possibly empty. Every legal move's square carries
        ``data-move="<format_move(move)>"``; a square that is not a legal move now may carry
        ``data-illegal`` (the app then shows the game's reason). Pure: text from values.
        """
        ...


class ColouredBoard(Protocol):
    """A game whose terminal board needs colour to be read (Tron's trails)."""

    def coloured_board(self, states: Sequence[Any]) -> tuple[tuple[str, str], ...]:
        """The last of ``states`` (the game's positions so far) as (text, style) pieces.

        Called by the terminal (``purestate play``, ``tron run``) instead of ``render``. The
        texts joined are the board a person reads, as many lines as ``render`` gives; a style
        is a terminal style name (``"bold blue"``; ``""`` for plain) that the shell applies, so
        the game imports no terminal library.
        """
        ...


class MarkedSeats(Protocol):
    """A game whose seats a person tells apart by a mark or a colour (X and O, blue and red)."""

    seat_marks: tuple[str, str]
    """What the first and the second seat play with, in the words a person reads on the board
    and in the terminal (``"X"``, ``"blue"``): two different non-empty texts. Read through
    ``core.hooks.seat_name`` (``"first (X)"``) by the web app and the CLI, which name a seat
    that way and no other."""


class MadeFor(Protocol):
    """An evaluation or per-move scores made for some games only (``made_for`` declares it)."""

    made_for: tuple[str, ...]
    """The registry names of the games it is made for: an agent injecting it refuses others."""


class RowEvaluation(Protocol):
    """An evaluation with a compiled twin on a game's rows (``core.hooks.Rows``), so that the
    compiled alpha-beta can inject it (``agents/alphabeta_compiled.py``)."""

    def row_evaluation(self, game: Any) -> Any:
        """The jitted ``evaluate(row) -> float`` on ``game``'s rows giving, for every
        non-terminal row, the same float as the evaluation of ``Rows.state_of(row)`` (to the
        bit), or None: numba is not installed, or the twin does not cover this game (an
        evaluation made for several games whose rows differ). Called when a search is routed,
        so numba is imported only then."""
        ...


EvaluationT = TypeVar("EvaluationT", bound=Callable[..., Any])


def made_for(*games: str) -> Callable[[EvaluationT], EvaluationT]:
    """Declare, beside its definition, the games an evaluation or move scores are made for.

    ``@made_for("tron")`` above ``def voronoi_eval(game, state)``: the registry's
    ``check_plays`` reads it (through ``core.hooks.made_for_of``) and refuses other games.
    """

    def declare(fn: EvaluationT) -> EvaluationT:
        fn.made_for = games  # type: ignore[attr-defined]
        return fn

    return declare


# -- the decisive playout hook (an optional hook like those above; kept here at the end) ------


class DecisivePlayout(Protocol):
    """A game with a fast decisive random game to the end (MCTS rollouts: ``mcts:playout=auto``,
    ``decisive`` and ``antidecisive``)."""

    def decisive_playout(
        self, state: Any, key: int, anti: bool = False, draws: Draws = "counter"
    ) -> tuple[float, float]:
        """The returns at the end of a random game from ``state`` in which a player who can win at
        once does (and, with ``anti``, a player who can avoid letting the opponent win at once
        does).

        Called by Monte Carlo search for every rollout, from any state (a finished one gives
        ``returns(state)``). Each ply: if a move of ``legal(s)`` ends the game with the mover's
        return above 0, the first such move is played; otherwise the move ``legal(s)[i]`` with
        ``i = int(r * len(legal(s)))`` and ``r`` the next draw of ``keys.draws(key, draws)``
        (a draw only on plies with no winning move), or with ``anti`` the first move from ``i``
        on, cyclically, after which the opponent cannot end the game at once with their return
        above 0 (``legal(s)[i]`` when every move lets them). Must return what ``returns`` gives at
        the end of that game, the one ``agents.mcts.decisive_playout`` plays with the same draws;
        pure: the same state, key and ``anti`` give the same returns.
        """
        ...


class EndingMoves(Protocol):
    """A game that tells which moves end it without stepping each (MCTS's decisive expansion)."""

    def ending_moves(self, state: Any) -> tuple[Any, ...]:
        """The moves of ``legal(state)`` after which the game is over, in ``legal``'s order.

        Called by Monte Carlo search on every new node with ``decisive`` expansion (the
        default), instead of stepping every legal move to ask ``is_over``: it must be exactly
        ``tuple(m for m in legal(state) if is_over(step(state, m)))``, and () once the game is
        over. Pure.
        """
        ...


class RowKernels(Protocol):
    """A game whose states fit fixed-width int64 rows, with compiled functions over them (the
    compiled MCTS tree's; see ``core.hooks.Rows``)."""

    def row_kernels(self) -> Any:
        """The game's ``core.hooks.Rows``, or None where numba is missing or the board does not
        fit the kernels. Called once per search that might run compiled; pure (the same value
        each call, so memoizing it is safe).
        """
        ...
