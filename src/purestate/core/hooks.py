"""The one place generic code looks up a game's or an agent's optional hooks.

The hooks are declared as small protocols beside the ones they extend: ``Playout``,
``BatchPlayouts``, ``DecisivePlayout``, ``EndingMoves``, ``RowKernels``, ``Scored``, ``Unscored``,
``Observed``, ``NumberedMoves``, ``LabelledBoard``, ``Planes``, ``Drawn``, ``ColouredBoard``,
``MarkedSeats`` and, for evaluations and move scores, ``MadeFor`` and ``RowEvaluation`` beside
``Game`` (``core/game.py``);
``ChecksGame``, ``HasGreedy``, ``GreedyDecides``, ``KeepsTree``, ``SupportsSeat``,
``SelfplayTables``, ``FusedSelfplay``, ``FusedTraining``, ``TabledDraws``, ``SelfplayJobs``,
``PlaysFromLess``, ``Searches``, ``ReportsLoss``, ``CoversPositions``, ``FromParams`` and
``ArrayTable`` beside ``Agent`` (``core/agent.py``);
``SizedSolver``, ``CachedSolver`` and ``ArraySolution`` beside ``Solution``
(``purestate/solve/__init__.py``).
Each docstring there says when the hook is called, what it returns and what it keeps.

Every function here returns the hook (a bound method, or the declared value) or ``None`` when the
object has none, so a caller writes its fallback once: ``fast = playout_of(game)`` then
``if fast is None: ...``. Nothing else in the package asks an object for a hook by name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from attrs import frozen

if TYPE_CHECKING:
    from purestate.core.game import Game

PlayoutFn = Callable[..., tuple[float, float]]
"""``playout(state, key, draws="counter")``."""
BatchPlayoutsFn = Callable[[Sequence[Any], Any], Any]
ScoreFn = Callable[[Any], tuple[float, float]]
UnscoredFn = Callable[[Any], Any]
ObservationFn = Callable[[Any, int], Any]
RenderLabelsFn = Callable[[Mapping[int, str]], str]
PlanesFn = Callable[[Any, int], Any]
DrawFn = Callable[[Any, str, Any, Sequence[Any]], str]
ColouredBoardFn = Callable[[Sequence[Any]], tuple[tuple[str, str], ...]]
CheckGameFn = Callable[["Game[Any, Any]"], None]
GreedyFn = Callable[["Game[Any, Any]", Any, Any], Any]
GreedyDecisionFn = Callable[["Game[Any, Any]", Any, Any], Any]
WithoutTreeFn = Callable[[Any], Any]
SupportsSeatFn = Callable[[Any, int], bool]
SelfplayGamesFn = Callable[..., tuple[Any, tuple[Any, ...]]]
TrainGamesFn = Callable[..., tuple[Any, tuple[Any, ...]]]
ListDrawFn = Callable[["Game[Any, Any]", Any], Any]
PositionsFn = Callable[["Game[Any, Any]", Any], list[Any]]
FromParamsFn = Callable[[dict[str, str]], Any]

SELFPLAY_TABLES = ("shared", "separate", "only")


def _method(x: Any, name: str) -> Any:
    found = getattr(x, name, None)
    return found if callable(found) else None


# -- game hooks ----------------------------------------------------------------------------------


def playout_of(game: Any) -> PlayoutFn | None:
    """The game's fast random game to the end (``Playout``), or None."""
    found: PlayoutFn | None = _method(game, "playout")
    return found


def batch_playouts_of(game: Any) -> BatchPlayoutsFn | None:
    """The game's many random games in one call (``BatchPlayouts``), or None."""
    found: BatchPlayoutsFn | None = _method(game, "playouts")
    return found


def score_of(game: Any) -> ScoreFn | None:
    """The game's running score (``Scored``), or None."""
    found: ScoreFn | None = _method(game, "score")
    return found


def unscored_of(game: Any) -> UnscoredFn | None:
    """The game's table key without the part that does not affect the future (``Unscored``),
    or None."""
    found: UnscoredFn | None = _method(game, "unscored")
    return found


def observation_of(game: Any) -> ObservationFn | None:
    """What a player may see of a state (``Observed``), or None: the game hides nothing."""
    found: ObservationFn | None = _method(game, "observation")
    return found


def num_move_ids_of(game: Any) -> int | None:
    """The number of move ids the game declares (``NumberedMoves``), or None."""
    found = getattr(game, "num_move_ids", None)
    return found if type(found) is int else None


def move_id_count(game: Any) -> int:
    """How many move ids ``game`` needs: its ``num_move_ids`` (``NumberedMoves``), else one more
    than the largest move of the start position, as on every board of the registered games (each
    empty square, each line, each direction). What the bridges size action spaces by and
    ``alphazero`` sizes its policy by.

    Raises:
        SpecError: if the start's moves are not non-negative ints.
    """
    from purestate.core.spec import SpecError

    known = num_move_ids_of(game)
    if known is not None:
        return known
    start = game.legal(game.initial())
    if not start or not all(type(m) is int and m >= 0 for m in start):
        raise SpecError(f"{game.spec.name}: its moves are not action ids (ints from 0)")
    return int(max(start)) + 1


def render_labels_of(game: Any) -> RenderLabelsFn | None:
    """The game's board with a label per move (``LabelledBoard``), or None."""
    found: RenderLabelsFn | None = _method(game, "render_labels")
    return found


def plane_shape_of(game: Any) -> tuple[int, ...] | None:
    """The shape of the game's observation planes (``Planes``), or None: it has none."""
    found = getattr(game, "plane_shape", None)
    if isinstance(found, tuple) and found and all(type(n) is int and n > 0 for n in found):
        return found
    return None


def planes_of(game: Any) -> PlanesFn | None:
    """The game's observation planes (``Planes``): ``planes(state, player)``, or None when the
    game has none (no method, or a ``plane_shape`` of None)."""
    if plane_shape_of(game) is None:
        return None
    found: PlanesFn | None = _method(game, "planes")
    return found


def plane_lines_of(game: Any) -> tuple[str, ...] | None:
    """What each of the game's planes holds (``Planes``), one line per plane, or None."""
    found = getattr(game, "plane_lines", None)
    if isinstance(found, tuple) and all(isinstance(line, str) for line in found):
        return found
    return None


def draw_of(game: Any) -> DrawFn | None:
    """The game's vector drawing of a position (``Drawn``), or None: the text panel stands."""
    found: DrawFn | None = _method(game, "draw")
    return found


def coloured_board_of(game: Any) -> ColouredBoardFn | None:
    """The game's terminal board in coloured pieces (``ColouredBoard``), or None: ``render``."""
    found: ColouredBoardFn | None = _method(game, "coloured_board")
    return found


SEATS = ("first", "second")
"""The seats' names: every message names seat 0 the first and seat 1 the second."""


def seat_marks_of(game: Any) -> tuple[str, str] | None:
    """What each seat plays with (``MarkedSeats``: ``("X", "O")``), or None."""
    found = getattr(game, "seat_marks", None)
    if (
        isinstance(found, tuple)
        and len(found) == 2
        and all(isinstance(m, str) and m for m in found)
    ):
        return (found[0], found[1])
    return None


def seat_name(game: Any, seat: int) -> str:
    """A seat as every message names it: ``"first (X)"``, ``"second (blue)"``; plain ``"first"``
    for a game that declares no marks."""
    marks = seat_marks_of(game)
    return SEATS[seat] if marks is None else f"{SEATS[seat]} ({marks[seat]})"


def made_for_of(fn: Any) -> tuple[str, ...] | None:
    """The games an evaluation or move scores function is made for (``MadeFor``), or None: it
    plays every game."""
    found = getattr(fn, "made_for", None)
    if isinstance(found, tuple) and found and all(isinstance(g, str) for g in found):
        return found
    return None


RowEvaluationFn = Callable[[Any], Any]
"""``row_evaluation(game)``: the jitted ``evaluate(row) -> float`` on the game's rows, or None."""


def row_evaluation_of(fn: Any) -> RowEvaluationFn | None:
    """The evaluation's compiled twin on the game's rows (``RowEvaluation``), or None: it runs
    in Python only (and so does the alpha-beta that injects it)."""
    found: RowEvaluationFn | None = _method(fn, "row_evaluation")
    return found


# -- agent hooks ---------------------------------------------------------------------------------


def check_game_of(agent: Any) -> CheckGameFn | None:
    """The agent's refusal of games it cannot play (``ChecksGame``), or None: it plays them all."""
    found: CheckGameFn | None = _method(agent, "check_game")
    return found


def greedy_of(agent: Any) -> GreedyFn | None:
    """The learner's greedy policy (``HasGreedy``), or None."""
    found: GreedyFn | None = _method(agent, "greedy")
    return found


def greedy_decision_of(agent: Any) -> GreedyDecisionFn | None:
    """The learner's greedy move with the table for its next move (``GreedyDecides``), or None:
    ``Greedy`` then plays ``greedy``'s move and keeps the table."""
    found: GreedyDecisionFn | None = _method(agent, "greedy_decision")
    return found


def without_tree_of(agent: Any) -> WithoutTreeFn | None:
    """The bot's way to drop the search tree its table carries (``KeepsTree``), or None: its
    table holds nothing to drop."""
    found: WithoutTreeFn | None = _method(agent, "without_tree")
    return found


def supports_seat_of(agent: Any) -> SupportsSeatFn | None:
    """Whether the agent's tables say which seat they play (``SupportsSeat``), or None."""
    found: SupportsSeatFn | None = _method(agent, "supports_seat")
    return found


def supports_seat(agent: Any, table: Any, seat: int) -> bool:
    """Whether ``table`` of ``agent`` can play ``seat``: the agent's answer, True if it has none."""
    supports = supports_seat_of(agent)
    return True if supports is None else bool(supports(table, seat))


def selfplay_tables(agent: Any) -> str:
    """How the agent learns against itself (``SelfplayTables``): ``"shared"`` unless it says.

    Raises:
        ValueError: for a declared value other than ``"shared"``, ``"separate"`` or ``"only"``.
    """
    found = getattr(agent, "selfplay_tables", "shared")
    if found not in SELFPLAY_TABLES:
        raise ValueError(f"selfplay_tables must be one of {SELFPLAY_TABLES}; got {found!r}")
    return str(found)


def selfplay_games_of(agent: Any) -> SelfplayGamesFn | None:
    """The learner's fused self-play loop (``FusedSelfplay``), or None."""
    found: SelfplayGamesFn | None = _method(agent, "selfplay_games")
    return found


def train_games_of(agent: Any) -> TrainGamesFn | None:
    """The learner's fused loop against an opponent that does not learn (``FusedTraining``), or
    None."""
    found: TrainGamesFn | None = _method(agent, "train_games")
    return found


def list_draw_of(agent: Any) -> ListDrawFn | None:
    """A fixed policy's ``list_draw`` (``TabledDraws``: what its ``act`` draws from), or None."""
    found: ListDrawFn | None = _method(agent, "list_draw")
    return found


@frozen
class Jobs:
    """A learner's ``SelfplayJobs`` hook: its methods and the module-level ``play_job``.

    Attributes:
        iterations: ``iterations(start, games)``: the ranges played with one table.
        with_network: ``with_network(game, table, key)``: the table ready to play.
        jobs: ``jobs(game, table, key, part, count)``: a range's games as jobs.
        play_job: ``play_job(job)``: a job's games, played (module-level: it pickles by name).
        absorb: ``absorb(game, table, played, key)``: the table after the results, in order.
    """

    iterations: Callable[[int, int], list[range]]
    with_network: Callable[..., Any]
    jobs: Callable[..., list[Any]]
    play_job: Callable[[Any], Any]
    absorb: Callable[..., Any]


def selfplay_jobs_of(agent: Any) -> Jobs | None:
    """The learner's self-play in jobs for workers (``SelfplayJobs``), or None."""
    names = ("iterations", "with_network", "jobs", "absorb")
    found = [_method(agent, n) for n in names]
    if any(f is None for f in found):
        return None
    module = importlib.import_module(type(agent).__module__)
    play = _method(module, "play_job")
    if play is None:
        return None
    return Jobs(found[0], found[1], found[2], play, found[3])


def playing_table(agent: Any, table: Any) -> Any:
    """``table`` with only what the agent's play reads, cheap to send to workers: its
    ``playing(table)`` (``alphazero``: the network without the replay buffer), else the table."""
    found = _method(agent, "playing")
    return table if found is None else found(table)


def simulations_of(agent: Any) -> int | None:
    """The simulations a searching agent runs per move (``Searches``), or None: it does not say,
    or searches by time."""
    found = getattr(agent, "simulations", None)
    return found if type(found) is int and found > 0 else None


def last_loss_of(table: Any) -> float | None:
    """The mean loss of the table's last training (``ReportsLoss``), or None: it reports none, or
    has not trained yet."""
    if type(getattr(table, "iterations", None)) is not int or table.iterations < 1:
        return None
    total = getattr(getattr(table, "losses", None), "total", None)
    return float(total) if isinstance(total, float | int) else None


def positions_of(agent: Any) -> PositionsFn | None:
    """The learner's list of the positions a table covers (``CoversPositions``), or None."""
    found: PositionsFn | None = _method(agent, "positions")
    return found


def array_table_of(agent: Any) -> Any | None:
    """The agent itself if its tables are saved as arrays (``ArrayTable``: a ``table_format``
    text and ``table_to_arrays``/``table_from_arrays``), or None (a JSON table, or none).

    Typed ``Any``: ``core.agent`` (where ``ArrayTable`` is declared) imports this module, and a
    circle through ``TYPE_CHECKING`` is still a circle; callers annotate the result."""
    if not isinstance(getattr(agent, "table_format", None), str):
        return None
    if _method(agent, "table_to_arrays") is None or _method(agent, "table_from_arrays") is None:
        return None
    return agent


def from_params_of(cls: Any) -> FromParamsFn | None:
    """The agent class's own builder from spec options (``FromParams``), or None."""
    found: FromParamsFn | None = _method(cls, "from_params")
    return found


# -- solver hooks (declared in purestate/solve/__init__.py) ---------------------------------------


def solver_size_of(module: Any) -> Callable[[Any], int] | None:
    """The solver module's own measure of a game (``SizedSolver``), or None."""
    found: Callable[[Any], int] | None = _method(module, "solver_size")
    return found


def cache_name_of(module: Any) -> Callable[[Any], str] | None:
    """The solver module's cache file name of a game (``CachedSolver``), or None."""
    found: Callable[[Any], str] | None = _method(module, "cache_name")
    return found


def to_array_of(solution: Any) -> Callable[[], Any] | None:
    """The solution's one-array form (``ArraySolution``), or None."""
    found: Callable[[], Any] | None = _method(solution, "to_array")
    return found


# -- the decisive playout hook (declared at the end of core/game.py) ------------------------------


DecisivePlayoutFn = Callable[..., tuple[float, float]]
"""``decisive_playout(state, key, anti=False, draws="counter")``."""


def decisive_playout_of(game: Any) -> DecisivePlayoutFn | None:
    """The game's fast decisive random game to the end (``DecisivePlayout``), or None."""
    found: DecisivePlayoutFn | None = _method(game, "decisive_playout")
    return found


EndingMovesFn = Callable[[Any], tuple[Any, ...]]
"""``ending_moves(state)``."""


def ending_moves_of(game: Any) -> EndingMovesFn | None:
    """The game's moves that end it from a state, found without stepping (``EndingMoves``), or
    None."""
    found: EndingMovesFn | None = _method(game, "ending_moves")
    return found


# -- the row kernels hook (declared at the end of core/game.py) ----------------------------------


@frozen
class Rows:
    """A game's states as int64 rows and compiled (numba) functions over them: what the compiled
    MCTS tree needs of a game, without naming it.

    Every function must agree exactly with the pure rules, checked by properties over random
    positions: the same moves in ``legal``'s order, the same successor, the same floats.

    Attributes:
        width: int64 entries in a row.
        max_moves: an upper bound on ``len(legal(state))`` over every state (array sizes).
        row_of: ``row_of(state)``: the state's row (a new 1-d int64 numpy array), in Python.
        state_of: ``state_of(row)``: the state again (equal to the one ``row_of`` was given).
        legal: jitted ``legal(row, out) -> count``: writes the legal moves (non-negative ints:
            the kernels mark "no move" with -1), in the order of ``game.legal(state)``, to
            ``out[:count]``; 0 when the game is over.
        step: jitted ``step(row, move, out)``: writes the successor's row to ``out`` (another
            row; ``row`` unchanged). Only ever called with a legal move.
        player: jitted ``player(row) -> int``: the player to move, -1 when the game is over.
        reward0: jitted ``reward0(row) -> float``: player 0's reward of a finished row in [0, 1],
            ``mcts.unit_reward(returns(state)[0])`` to the bit.
        playout0: jitted ``playout0(row, key) -> float``: player 0's reward, as ``reward0``, of
            the game's random playout from the row with the int64 key (``compiled.as_int64``):
            the same game as the ``playout(state, key, "counter")`` hook.
        decisive0: jitted ``decisive0(row, key, anti) -> float``: the same of the
            ``decisive_playout(state, key, anti, "counter")`` hook, or None where the game has
            no decisive kernel.
        ending: jitted ``ending(row, out) -> count``: the moves that end the game, in
            ``legal``'s order (the ``ending_moves`` hook's), or None: the tree steps every move.
        returns: jitted ``returns(row, player) -> float``: ``returns(state)[player]`` of a
            finished row, to the bit (margins unclipped, the sign of a zero kept): what the
            compiled alpha-beta values a terminal state with; None where the game has none
            (alpha-beta then runs in Python).
    """

    width: int
    max_moves: int
    row_of: Callable[[Any], Any]
    state_of: Callable[[Any], Any]
    legal: Any
    step: Any
    player: Any
    reward0: Any
    playout0: Any
    decisive0: Any = None
    ending: Any = None
    returns: Any = None


def rows_of(game: Any) -> Rows | None:
    """The game's row kernels (``RowKernels``), or None: no hook, no numba, or a board the
    kernels do not fit."""
    # not ``rows``: connect four and dots and boxes have an option of that name (an int)
    method = _method(game, "row_kernels")
    if method is None:
        return None
    found: Rows | None = method()
    return found
