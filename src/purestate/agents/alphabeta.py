"""Alpha-beta search: negamax with a transposition table, iterative deepening and an injected
evaluation, generic over the Game protocol.

Values are from the point of view of the player to move in the searched state. The sign flips
only when the player to move changes, so games where one player moves twice in a row (dots and
boxes, the Xtreme bonus move) are searched correctly. Terminal states are worth
``game.returns(state)[player]``; non-terminal states at the depth horizon are worth the injected
evaluation, which gives player 0's value strictly inside (-1, 1), so a proven result always
outranks an estimate.

Transposition-table entries whose subtree reached only terminal states are stored with an
unbounded depth: they hold at any depth, later iterations reuse them, and when the root itself
is resolved this way the search stops early with a proven value.

Budgets: ``depth`` and ``nodes`` are deterministic. A ``seconds`` budget reads a clock that the
shell injects (see ``purestate.agents.timing``); it is the only non-deterministic budget.

Where the game has row kernels and the evaluation is one a kernel can run (``zero``, or one with
a compiled twin on rows), the same search runs compiled (``alphabeta_compiled``): the same value,
move, ties and statistics. ``compiled=False`` runs this module's search, the reference.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import partial
from typing import Any, Literal

from attrs import field, frozen

from purestate.agents.timing import Clock, deadline, never
from purestate.core import keys
from purestate.core.agent import Decision, FixedPolicy
from purestate.core.game import Game, require_game
from purestate.core.keys import Key
from purestate.core.spec import format_spec

Evaluate = Callable[[Game[Any, Any], Any], float]

EXACT, LOWER, UPPER = 0, 1, 2
"""The flag of a transposition-table entry: its value is exact, a lower bound (the search failed
high) or an upper bound (it failed low)."""
RESOLVED = 1 << 30
"""The depth stored in an entry proven by terminal states only: it holds at any depth."""
TIE = 1e-9
"""How close to the best value a root move's value must be to count as tied with it."""
_INF = float("inf")
POLL_NODES = 16
"""How many nodes a search visits between two looks at its ``stop`` predicate (its clock)."""


class _OutOfBudget(Exception):
    """Raised inside an iteration when the node or time budget is spent."""


class _Node:
    """A node on the search's stack: the state, its depth and window, its moves and how far
    through them it is, and the best found so far (values for the node's mover)."""

    __slots__ = (
        "a",
        "alpha",
        "best",
        "best_move",
        "beta",
        "depth",
        "flip",
        "moves",
        "next",
        "player",
        "resolved",
        "state",
    )

    def __init__(
        self,
        state: Any,
        depth: int,
        alpha: float,
        beta: float,
        moves: tuple[Any, ...],
        player: int,
        flip: bool,
    ) -> None:
        self.state = state
        self.depth = depth
        self.alpha = alpha  # the window it was searched with (for the table's flag)
        self.beta = beta
        self.a = alpha  # the window's lower end, raised as moves improve on it
        self.moves = moves
        self.next = 0
        self.player = player
        self.flip = flip  # whether its value changes sign for the node above it
        self.best = -_INF
        self.best_move = moves[0]
        self.resolved = True


@frozen
class SearchStats:
    """What one search did.

    Attributes:
        nodes: States visited (interior nodes and evaluated leaves), over all iterations.
        depth: The depth of the last completed iteration.
        evaluations: How many times the evaluation was called.
        table_size: Entries in the transposition table at the end.
        proven: Whether the returned value is exact (the whole tree below the root was resolved
            down to terminal states), so deeper search could not change it.
        ties: The moves whose value equals the best value (all of them only when the search was
            asked to collect ties; otherwise just the best move).
    """

    nodes: int
    depth: int
    evaluations: int
    table_size: int
    proven: bool
    ties: tuple[Any, ...] = ()


def zero_evaluation(game: Game[Any, Any], state: Any) -> float:
    """The evaluation that knows nothing: every unresolved position is worth 0."""
    return 0.0


def search(
    game: Game[Any, Any],
    state: Any,
    depth: int,
    evaluate: Evaluate | None = None,
    *,
    nodes: int = 0,
    stop: Callable[[], bool] | None = None,
    ties: bool = False,
    table: dict[Hashable, tuple[int, int, float, Any]] | None = None,
    compiled: bool = True,
) -> tuple[float, Any, SearchStats]:
    """Search ``state`` by iterative deepening alpha-beta.

    Args:
        game: The game.
        state: A non-terminal state.
        depth: The deepest iteration, in plies (a move is a ply even when the same player moves
            again); 0 or less means the game's ``max_length``.
        evaluate: Player 0's value of a non-terminal state at the horizon, strictly inside
            (-1, 1); None means 0 for every such state.
        nodes: Stop after about this many nodes (0 = no limit). Deterministic.
        stop: Called after every ``POLL_NODES`` nodes or so (at the first interior node past
            each such mark); when it returns True the search stops (a time budget).
        ties: Collect every root move whose value equals the best (costs a wider root window).
        table: A transposition table to read and fill (a fresh local dict by default). It is the
            caller's to mutate; pass one only to inspect it afterwards. It maps a state to
            ``(depth, flag, value, best move)``: the depth searched below it (``RESOLVED`` when
            proven by terminal states only), ``EXACT``, ``LOWER`` or ``UPPER``, and the value for
            the player to move there.
        compiled: Run the compiled search where it applies (``alphabeta_compiled.route``: a
            game with row kernels, numba installed, the ``zero`` evaluation or one with a
            compiled twin on rows, and no ``table`` passed); False runs the Python search, the
            reference. The same results either way.

    Returns:
        ``(value, best_move, stats)``: the value for the player to move in ``state`` found by the
        last completed iteration, its best move, and the statistics. The first iteration always
        completes, whatever the budget.

    Raises:
        ValueError: if ``state`` is terminal.
    """
    return _search(
        game, state, depth, evaluate, nodes=nodes, start_clock=lambda: stop or never, ties=ties,
        table=table, compiled=compiled,
    )  # fmt: skip


def _search(
    game: Game[Any, Any],
    state: Any,
    depth: int,
    evaluate: Evaluate | None,
    *,
    nodes: int,
    start_clock: Callable[[], Callable[[], bool]],
    ties: bool,
    table: dict[Hashable, tuple[int, int, float, Any]] | None,
    compiled: bool,
) -> tuple[float, Any, SearchStats]:
    """``search`` with its time budget started by ``start_clock()`` (``timing.deadline``): on
    the compiled path once the kernel is compiled or loaded, so that a process's first search
    does not spend its budget compiling."""
    if compiled and table is None:
        from purestate.agents import alphabeta_compiled

        found = alphabeta_compiled.route(game, evaluate)
        if found is not None:
            return alphabeta_compiled.search(
                game, found, state, depth, nodes=nodes, start_clock=start_clock, ties=ties
            )
    if game.is_over(state):
        raise ValueError("search() needs a state where someone is to move; the game is over")
    passed = start_clock()
    stop = None if passed is never else passed
    max_depth = depth if depth > 0 else game.spec.max_length
    evaluate_fn: Evaluate = evaluate if evaluate is not None else zero_evaluation
    tt: dict[Hashable, tuple[int, int, float, Any]] = {} if table is None else table
    tt_get = tt.get
    legal, step, is_over = game.legal, game.step, game.is_over
    to_move, returns = game.to_move, game.returns
    stop_fn = stop
    limit = nodes if nodes > 0 else 0
    count = 0
    evals = 0
    # the node count at which ``stop`` is next asked: leaves are counted too but never poll, so
    # a test of ``count`` against exact multiples would miss most marks and overrun a budget
    next_poll = POLL_NODES
    limited = False  # the first iteration runs without budget checks

    def child_value(child: Any, d: int, alpha: float, beta: float, p: int) -> tuple[float, bool]:
        # The value for player p of the position p's move led to, searched d - 1 plies below
        # it, and whether it is proven. The sign flips only when the turn passes: in dots and
        # boxes or after an Xtreme bonus the same player moves again.
        #
        # Negamax with an explicit stack of the nodes on the current line: a search as deep as a
        # game is long (depth 0 on a big Tron map) would exceed Python's recursion limit. Nodes
        # are visited, counted, evaluated and stored in the order of the plain recursion.
        nonlocal count, evals, next_poll
        stack: list[_Node] = []
        while True:
            # value `child` for p, searched with the window (alpha, beta), or open its node
            pushed = False
            if is_over(child):
                v, r = returns(child)[p], True
            elif d <= 1:
                count += 1
                evals += 1
                e = evaluate_fn(game, child)
                v, r = (-e if p else e), False
            else:
                flip = to_move(child) != p
                lo, hi = (-beta, -alpha) if flip else (alpha, beta)
                count += 1
                if limited:
                    if limit and count > limit:
                        raise _OutOfBudget
                    if stop_fn is not None and count >= next_poll:
                        next_poll = count + POLL_NODES
                        if stop_fn():
                            raise _OutOfBudget
                entry = tt_get(child)
                first = None
                pushed = True
                if entry is not None:
                    e_depth, e_flag, e_value, first = entry
                    if e_depth >= d - 1 and (
                        e_flag == EXACT
                        or (e_flag == LOWER and e_value >= hi)
                        or (e_flag == UPPER and e_value <= lo)
                    ):
                        v, r = (-e_value if flip else e_value), e_depth == RESOLVED
                        pushed = False
                if pushed:
                    moves = legal(child)
                    if first is not None and moves[0] != first:
                        moves = (first, *(m for m in moves if m != first))
                    stack.append(_Node(child, d - 1, lo, hi, moves, to_move(child), flip))
            if not pushed:
                # hand the value up the line until a node has a move left to search
                while True:
                    if not stack:
                        return v, r
                    top = stack[-1]
                    top.resolved = top.resolved and r
                    if v > top.best:
                        top.best = v
                        top.best_move = top.moves[top.next - 1]
                        if v > top.a:
                            top.a = v
                    if top.a < top.beta and top.next < len(top.moves):
                        break
                    stack.pop()
                    best = top.best
                    flag = UPPER if best <= top.alpha else LOWER if best >= top.beta else EXACT
                    tt[top.state] = (
                        RESOLVED if top.resolved else top.depth,
                        flag,
                        best,
                        top.best_move,
                    )
                    v, r = (-best if top.flip else best), top.resolved
            # the top node's next move
            top = stack[-1]
            m = top.moves[top.next]
            top.next += 1
            child, d, alpha, beta, p = step(top.state, m), top.depth, top.a, top.beta, top.player

    root_moves = legal(state)
    p0 = to_move(state)

    def root(d: int, order: tuple[Any, ...]) -> tuple[float, Any, tuple[Any, ...], bool]:
        nonlocal count
        count += 1
        best = -_INF
        best_move = order[0]
        found: list[tuple[Any, float]] = []
        resolved = True
        for m in order:
            child = step(state, m)
            # With ties wanted, later moves are searched just below the best so far, so a move
            # that equals it comes back exact instead of failing low.
            a = best - TIE if ties else best
            v, r = child_value(child, d, a, _INF, p0)
            resolved = resolved and r
            found.append((m, v))
            if v > best:
                best = v
                best_move = m
        tied = tuple(m for m in root_moves if any(mm == m and v >= best - TIE for mm, v in found))
        tt[state] = (RESOLVED if resolved else d, EXACT, best, best_move)
        return best, best_move, tied, resolved

    value, best_move, tied, proven = 0.0, root_moves[0], (root_moves[0],), False
    completed = 0
    order = root_moves
    for d in range(1, max_depth + 1):
        try:
            value, best_move, tied, proven = root(d, order)
        except _OutOfBudget:
            break
        completed = d
        limited = True
        if proven:
            break
        # the best move of this iteration is searched first in the next one
        order = (best_move, *(m for m in root_moves if m != best_move))
    if not ties:
        tied = (best_move,)
    return value, best_move, SearchStats(count, completed, evals, len(tt), proven, tied)


def _known_evaluation(instance: Any, attribute: Any, value: str) -> None:
    from purestate.core import registry

    if value != "zero" and value not in registry.evaluations():
        known = ", ".join(("zero", *registry.evaluations()))
        raise ValueError(f"unknown evaluation {value!r} (evaluations: {known})")


def _not_negative(instance: Any, attribute: Any, value: float) -> None:
    if value < 0:
        raise ValueError(f"{attribute.name} must be 0 (no limit) or positive; got {value}")


@frozen
class AlphaBeta(FixedPolicy):
    """Iterative deepening alpha-beta with a transposition table and an injected evaluation.

    Attributes:
        depth: The deepest iteration in plies; 0 = the game's maximum length (a full solve when
            no other budget stops it first).
        nodes: A deterministic budget in nodes (0 = none). The default keeps a default agent from
            running for ever on a big game while still solving tic-tac-toe.
        seconds: A time budget per move (0 = none); needs the clock the shell injects.
        eval: The name of a registered evaluation (``purestate evaluations``), or ``zero``.
        tiebreak: ``random``: among the moves of equal best value, one drawn from the key;
            ``first``: the principal move of the last iteration.
    """

    depth: int = field(default=0, validator=_not_negative)
    nodes: int = field(default=100_000, validator=_not_negative)
    seconds: float = field(default=0.0, validator=_not_negative)
    eval: str = field(default="zero", validator=_known_evaluation)
    tiebreak: Literal["random", "first"] = "random"
    # the injected clock (init argument ``clock``): not an option, not part of equality
    _clock: Clock | None = field(default=None, alias="clock", eq=False, repr=False)

    @property
    def spec(self) -> str:
        """The spec string, e.g. ``alphabeta:depth=4,eval=voronoi``."""
        return format_spec("alphabeta", self)

    def evaluation(self) -> Evaluate:
        """The evaluation function this agent's ``eval`` names."""
        if self.eval == "zero":
            return zero_evaluation
        from purestate.core import registry

        return registry.evaluation(self.eval)

    def check_game(self, game: Game[Any, Any]) -> None:
        """Refuse (``SpecError``, one line) a game the evaluation is not made for
        (``eval=voronoi`` plays Tron only)."""
        if self.eval != "zero":
            from purestate.core import registry

            registry.check_plays("evaluation", self.eval, game)

    def initial_table(self, game: Game[Any, Any], seat: int) -> Any:
        """No table; refuses a game the evaluation is not made for."""
        self.check_game(game)
        return None

    def act(self, game: Game[Any, Any], table: Any, state: Any, key: Key) -> Decision[Any]:
        """The best move found within the budget (ties broken from ``key`` if asked).

        Raises:
            SpecError: for a game the evaluation is not made for (checked before searching, so
                an agent handed a game without ``initial_table`` refuses it in one line too).
        """
        require_game(game, state)  # a pyspiel game, say: one line saying how to bridge it
        self.check_game(game)
        decision, _ = self.analyse(game, state, key)
        return decision

    def analyse(self, game: Game[Any, Any], state: Any, key: Key) -> tuple[Decision[Any], Any]:
        """The decision and the search's ``(value, best_move, stats)``."""
        random_ties = self.tiebreak == "random"
        result = _search(
            game,
            state,
            self.depth,
            self.evaluation(),
            nodes=self.nodes,
            start_clock=partial(deadline, self._clock, self.seconds, "alphabeta"),
            ties=random_ties,
            table=None,
            compiled=True,
        )
        _, best_move, stats = result
        move = keys.choice(key, stats.ties) if random_ties and len(stats.ties) > 1 else best_move
        return Decision(move), result
