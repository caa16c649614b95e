"""Monte Carlo tree search: UCT or PUCT with an MCTS-Solver, generic over the Game protocol.

- **UCB1 on rewards in [0, 1]**: a child is scored ``w/n + c·sqrt(ln N / n)`` where ``w`` sums
  the rewards of the player who chose the move into it (``(return + 1) / 2``, clipped to [0, 1]).
  OpenSpiel's ``uct_c = 2`` on [-1, 1] is ``c = 1`` here.
- **Per-node mover.** Every node knows the player to move in it, and every child's statistics are
  kept for the player who moved into it, so a player moving twice in a row is handled exactly.
- **MCTS-Solver with draws and fractional results.** A terminal node's value is exact. A node is
  proven when a child gives its mover the best possible reward (1), or when all its children are
  proven (it takes the best of them, so draws and point margins are proven too). Proven children
  are not selected again (the node's lower bound holds the best one's value and raises what is
  backed up through it); the search stops once the root is proven.
- **Decisive and anti-decisive moves in the tree** (``decisive``, with the solver): a new node
  steps every move once (or asks the game's ``ending_moves`` hook which moves end it, the same
  children without the steps) and keeps the game-ending ones as proven children, so an immediate win
  proves the node at once and a move that lets the opponent win at once is a proven loss as soon
  as it is expanded.
- **PUCT and injected evaluators** (``select="puct"``, ``MCTS(evaluator=fn)``): a leaf gets all
  its children at once (the game-ending ones proven, as ``decisive`` does) and is evaluated
  (priors over ``legal``, a value for its player to move, see ``Evaluator``); children are
  scored ``Q + (c_puct/2)·P·sqrt(N)/(1+n)`` (AlphaZero's on [-1, 1]), an unvisited one valued
  as its parent; optional Dirichlet noise on the root's priors. Without an evaluator the priors
  are uniform and the value is a playout's; under UCB1 an evaluator replaces the playout.
  ``visit_distribution`` and ``choose_move`` read the root.
- **One loop, many trees.** The simulation loop is a generator yielding the leaves that need an
  evaluation; ``search`` drives one, ``search_many`` drives many with one evaluator call per
  round for all their leaves, each tree the same as searched alone. The compiled tree
  (``mcts_compiled``) is driven the same way, its kernel waiting at the leaves in its arrays.
  With ``leaves=K`` (PUCT with an evaluator) one search yields up to ``K`` leaves a round,
  collected under virtual loss (``_simulations``).
- **Playouts**: ``auto`` (the default: anti-decisive playouts through the game's fast
  ``decisive_playout(state, key, anti)`` when it has one, else its fast random ``playout(state,
  key)`` when it has that, else decisive playouts), uniform random, with decisive moves (play an
  immediate win) or decisive and anti-decisive moves (also avoid moves that let the opponent win
  at once), both through the game's decisive kernel when it has one, or heavy (moves drawn in
  proportion to injected per-move scores). Optional progressive bias ``bias·h/(n+1)`` from the
  same scores.
- **Tree reuse.** The tree is the agent's table: ``act`` finds the current position among the
  descendants of the previous root (following the actual moves, bonus moves included), copies
  that subtree, searches the copy and returns it as ``Decision(move, table=tree)``. The table
  passed in is never changed, so ``act`` is pure.
- **Final move**: a proven win if there is one, otherwise the most visited child that is not a
  proven loss.

The hot loop runs on local values. Simulation ``i``'s playout (a game's kernel or the generic
loop) and an evaluator's leaf key use ``fold_in(k, i)`` of one playout key ``k`` split from the
search's key, and the move order the counter stream of another; older run formats' ``draws``
options draw some of these from one local ``random.Random`` per search (``keys.generator``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Sequence
from functools import partial
from typing import Any, Literal, Protocol

from attrs import field, frozen

from purestate.agents.timing import Clock, check_budget, deadline, never
from purestate.core import keys
from purestate.core.agent import Decision
from purestate.core.batch import key_range, random_returns
from purestate.core.batch import unit_reward as unit_reward  # its home before the batch API
from purestate.core.game import Game, require_game
from purestate.core.hooks import (
    DecisivePlayoutFn,
    decisive_playout_of,
    ending_moves_of,
    playout_of,
)
from purestate.core.keys import Key
from purestate.core.spec import format_spec

MoveScores = Callable[[Game[Any, Any], Any], tuple[float, ...]]

Evaluation = tuple[tuple[float, ...], float]
"""Priors over ``game.legal(state)`` in that order (non-negative, summing to 1) and the value in
[-1, 1] of ``state`` for the player to move in it."""

Evaluator = Callable[[Game[Any, Any], Sequence[Any], Sequence[Key]], Sequence[Evaluation]]
"""``evaluator(game, states, keys)``: one evaluation per state, in order (a batch at a time).
The keys, one per state, let a stochastic evaluator (a rollout) draw from them; a network
ignores them. It must give a state the same evaluation whatever else is in the batch."""

PlayoutReturns = Callable[..., tuple[float, ...]]
"""``playout(state, key)`` or ``playout(state, key, draws)``: the returns of one playout."""

Draws = Literal["counter", "shared", "playouts", "mersenne"]
"""What a search draws from (the ``draws`` option): ``counter`` (every playout from its
simulation's key and the tree's move shuffle from the search's, on the counter stream,
``keys.stream``), ``shared`` (the same, but the generic decisive and heavy playouts all from the
search's one ``keys.generator``: runs of format 4),
``playouts`` (the game's playouts on the counter stream, the shuffle and the generic playouts
from the search's generator: runs of format 3) or ``mersenne`` (all from the search's generator:
runs before format 3). The last two also prove a new node from its game-ending children before
its other moves are listed, as runs before format 4 did."""

KeyedDraws = Literal["counter", "shared"]
"""What the generic decisive and heavy playouts of ``playout_returns`` (and so
``rollout_evaluator``) draw from, given a key: ``counter`` (``keys.stream(key)``, as a search with
``draws=counter`` plays them) or ``shared`` (``keys.generator(key)``, as run format 4 drew them;
``alphazero:draws=shared``)."""

_NONE = -1  # the mover of the root, which nobody moved into


class Node:
    """One position in the search tree.

    Nodes are mutable while ``act`` builds its private copy of the tree; once returned inside a
    ``Tree`` they are never changed again (the next ``act`` copies before it searches).

    Attributes:
        state: The position.
        move: The move that led here from the parent (None at the root).
        mover: The player who chose ``move`` (-1 at the root); ``w`` and ``proven`` are for them.
        player: The player to move here (-1 if the game is over).
        n: Visits.
        w: Sum of the mover's rewards in [0, 1].
        proven: The mover's exact reward once known (the root: the player to move's), or None.
        children: The expanded children.
        untried: Moves not yet expanded (popped from the end).
        h: The normalised score of ``move`` at the parent, for progressive bias.
        lower: The best proven child's value for ``player`` (-1 while no child is proven): the
            node is worth at least that much to its player.
        prior: The evaluator's probability of ``move`` at the parent (PUCT; 0 under UCB1).
    """

    __slots__ = (
        "children",
        "h",
        "lower",
        "move",
        "mover",
        "n",
        "player",
        "prior",
        "proven",
        "state",
        "untried",
        "w",
    )

    def __init__(self, state: Any, move: Any, mover: int, player: int) -> None:
        self.state = state
        self.move = move
        self.mover = mover
        self.player = player
        self.n = 0
        self.w = 0.0
        self.proven: float | None = None
        self.children: list[Node] = []
        self.untried: list[Any] = []
        self.h = 0.0
        self.lower = -1.0
        self.prior = 0.0

    def copy(self) -> Node:
        """A deep copy of the subtree rooted here (iterative, so deep trees are fine)."""
        top = _clone(self)
        stack = [(self, top)]
        while stack:
            old, new = stack.pop()
            for ch in old.children:
                c = _clone(ch)
                new.children.append(c)
                stack.append((ch, c))
        return top

    def _bare(self) -> Node:
        """A new node of the same position and move, without statistics or children."""
        return Node(self.state, self.move, self.mover, self.player)

    def size(self) -> int:
        """The number of nodes in the subtree."""
        total = 0
        stack = [self]
        while stack:
            node = stack.pop()
            total += 1
            stack.extend(node.children)
        return total


# the slots RowNode reads and writes under its properties
_STATE, _CHILDREN, _UNTRIED = (Node.__dict__[name] for name in ("state", "children", "untried"))


class Subtree(Protocol):
    """Where a ``RowNode`` finds its children and untried moves when they are first read: the
    compiled tree's arrays, left by the search that made the node."""

    def children(self, index: int) -> list[Node]:
        """The children of node ``index``, in the order they were made (nodes made now)."""
        ...

    def untried(self, index: int) -> list[Any]:
        """The untried moves of node ``index``, in order (popped from the end)."""
        ...


class RowNode(Node):
    """A node made by the compiled tree, read from its arrays when first asked: its state is the
    game's row, made with ``state_of`` the first time it is read (most nodes' states never are),
    and its children and untried moves come from the search's arrays (``Subtree``) the first
    time they are read; each is kept once made.

    The same value as a ``Node`` holding them all: only when the work is done differs, so a
    search hands back a tree of any size at the cost of the nodes anyone reads.
    """

    __slots__ = ("_index", "_row", "_state_of", "_subtree")

    def __init__(
        self,
        row: Any,
        state_of: Callable[[Any], Any],
        move: Any,
        mover: int,
        player: int,
        subtree: Subtree | None = None,
        index: int = 0,
    ) -> None:
        self._row = row
        self._state_of = state_of
        self._subtree = subtree
        self._index = index
        self.move = move
        self.mover = mover
        self.player = player
        self.n = 0
        self.w = 0.0
        self.proven = None
        if subtree is None:
            _CHILDREN.__set__(self, [])
            _UNTRIED.__set__(self, [])
        self.h = 0.0
        self.lower = -1.0
        self.prior = 0.0

    @property
    def state(self) -> Any:
        """The position, made from the row on the first read."""
        try:
            return _STATE.__get__(self)
        except AttributeError:
            found = self._state_of(self._row)
            _STATE.__set__(self, found)
            return found

    @state.setter
    def state(self, value: Any) -> None:
        _STATE.__set__(self, value)

    @property
    def children(self) -> list[Node]:
        """The expanded children, made from the search's arrays on the first read."""
        try:
            found: list[Node] = _CHILDREN.__get__(self)
        except AttributeError:
            assert self._subtree is not None
            found = self._subtree.children(self._index)
            _CHILDREN.__set__(self, found)
        return found

    @children.setter
    def children(self, value: list[Node]) -> None:
        _CHILDREN.__set__(self, value)

    @property
    def untried(self) -> list[Any]:
        """The moves not yet expanded, read from the search's arrays on the first read."""
        try:
            found: list[Any] = _UNTRIED.__get__(self)
        except AttributeError:
            assert self._subtree is not None
            found = self._subtree.untried(self._index)
            _UNTRIED.__set__(self, found)
        return found

    @untried.setter
    def untried(self, value: list[Any]) -> None:
        _UNTRIED.__set__(self, value)

    def row(self) -> Any:
        """The state's row (never written once the search that made it returned)."""
        return self._row

    def _bare(self) -> Node:
        # a row of its own: the copy does not keep the old search's arrays alive
        return RowNode(self._row.copy(), self._state_of, self.move, self.mover, self.player)


def _clone(node: Node) -> Node:
    c = node._bare()
    c.n = node.n
    c.w = node.w
    c.proven = node.proven
    c.untried = list(node.untried)
    c.h = node.h
    c.lower = node.lower
    c.prior = node.prior
    return c


@frozen(eq=False)
class Tree:
    """The agent's table: the search tree of its last move (``root`` None before the first).

    Attributes:
        root: The root node, or None for an empty tree.
        simulations: The simulations the last ``act`` ran (not counting reused ones).
    """

    root: Node | None = None
    simulations: int = 0
    # the compiled tree's arrays of the same tree (init argument ``arrays``; never written once
    # returned), from which the next compiled search copies its subtree: not in equality
    _arrays: Any = field(default=None, alias="arrays", eq=False, repr=False)


def find_subtree(tree: Tree, game: Game[Any, Any], state: Any, depth: int = 6) -> Node | None:
    """The node of ``state`` among the first ``depth`` levels of ``tree`` (None if absent)."""
    root = tree.root
    if root is None:
        return None
    level = [root]
    for _ in range(depth):
        nxt: list[Node] = []
        for node in level:
            if node.state == state:
                return node
            nxt.extend(node.children)
        if not nxt:
            return None
        level = nxt
    return None


MAX_LEAVES = 1024
"""The most leaves a round of one search may collect (``MCTS.leaves``): far more than a network
call gains from, and a bound on the arrays the compiled tree sizes by it (a spec from someone
else, as the browser's, asks for no more)."""


def check_leaves(leaves: int) -> None:
    """Refuse a ``leaves`` option (``MCTS``'s, or an agent's that passes it on) outside 1 to
    ``MAX_LEAVES``.

    Raises:
        ValueError: one line giving the range.
    """
    if not 1 <= leaves <= MAX_LEAVES:
        raise ValueError(f"leaves (per evaluator call) must be from 1 to {MAX_LEAVES}")


MAX_EXPAND_AT = 1_000_000_000
"""The largest expansion threshold (``MCTS.expand_at``): more visits than any search makes, and
an int the compiled tree takes (a spec from someone else, as the browser's, asks for no more)."""


def check_expand_at(expand_at: int, select: str = "puct") -> None:
    """Refuse an expansion threshold (``MCTS.expand_at``) outside 1 to ``MAX_EXPAND_AT``, or
    above 1 for UCB1 (which makes one node a simulation, no evaluator's).

    Raises:
        ValueError: one line saying which.
    """
    if not 1 <= expand_at <= MAX_EXPAND_AT:
        raise ValueError(
            f"expand_at (the visits that expand a leaf) must be from 1 to {MAX_EXPAND_AT:,}"
        )
    if expand_at > 1 and select != "puct":
        raise ValueError("expand_at is for select=puct (ucb1 makes a node each simulation)")


@frozen
class MCTS:
    """UCT or PUCT with an MCTS-Solver, decisive playouts, progressive bias and tree reuse.

    Attributes:
        simulations: Simulations per move (deterministic budget; 0 = none, then ``seconds``).
        seconds: Time per move (0 = none); needs the clock the shell injects.
        c: The exploration constant on rewards in [0, 1].
        solver: Prove wins, losses and draws and stop when the root is proven.
        playout: ``auto`` (``antidecisive`` through the game's fast decisive playout if it has
            one, else its fast random playout if it has that, else ``decisive``), ``random``,
            ``decisive`` (play an immediate win), ``antidecisive`` (also avoid giving the
            opponent an immediate win), or ``heavy`` (moves drawn in proportion to ``scores``).
        scores: The name of registered per-move scores (``heavy`` playouts, ``bias``).
        bias: Progressive-bias weight: ``bias·h/(n+1)`` with ``h`` the move's score divided by the
            best score at that node (0 = off).
        reuse: Keep the subtree of the current position from the previous move.
        decisive: Decisive and anti-decisive moves in the tree (with the solver): a new node
            tries every move at once and expands the ones that end the game, so a position
            with an immediate win is proven when it is created and the move into it is a
            proven loss for the player who made it.
        select: ``ucb1`` (UCT: one new child per simulation, scored with ``c``) or ``puct``
            (AlphaZero's: a leaf is evaluated and all its children are made with their priors,
            scored ``Q + c_puct·P·sqrt(N)/(1+n)``); the priors and values come from the
            injected evaluator, or are uniform priors and the value of one playout without one.
        c_puct: PUCT's exploration constant, AlphaZero's on values in [-1, 1] (half of it
            multiplies the priors on the search's [0, 1] rewards, the same ranking).
        noise: The weight ε of Dirichlet noise mixed into the root's priors (PUCT; 0 = none).
        alpha: The concentration α of that Dirichlet noise.
        draws: What the search draws from: ``counter`` (every playout from its simulation's
            own key and the tree's move shuffle, on ``keys.stream``: the same compiled or not),
            ``shared`` (the generic decisive and heavy playouts from the search's one
            ``keys.generator``: runs of format 4), ``playouts`` (the shuffle from that generator
            too: runs of format 3) or ``mersenne`` (every draw from it, pure Python: runs
            before format 3); ``Draws`` says more, and ``core/history.py`` gives old runs
            theirs.
        leaves: The leaves a round of PUCT with an evaluator collects under virtual loss before
            one evaluator call (1: a leaf at a time; see ``_simulations``). Refused at search
            time for UCB1 or playouts, which evaluate nothing in batches.
        expand_at: PUCT's expansion threshold (AlphaGo's): a leaf other than the root is
            expanded, and sent to the evaluator, at its ``expand_at``-th visit; its earlier
            visits are valued by a playout from the simulation's key, as ``mcts``'s leaves are.
            1 (the default) expands every leaf at its first visit: AlphaZero's search. Above 1,
            an expensive evaluator is spent on the nodes the search returns to, and the cheap
            playouts keep the simulations many.
    """

    simulations: int = field(default=1000)
    seconds: float = 0.0
    c: float = 0.3
    solver: bool = True
    playout: Literal["auto", "random", "decisive", "antidecisive", "heavy"] = "auto"
    scores: str = ""
    bias: float = 0.0
    reuse: bool = True
    decisive: bool = True
    select: Literal["ucb1", "puct"] = "ucb1"
    c_puct: float = 1.25
    noise: float = 0.0
    alpha: float = 0.3
    draws: Draws = "counter"
    leaves: int = 1
    expand_at: int = 1
    # injected functions (init arguments ``clock``, ``scorer`` and ``evaluator``): not options,
    # not in equality
    _clock: Clock | None = field(default=None, alias="clock", eq=False, repr=False)
    _scorer: MoveScores | None = field(default=None, alias="scorer", eq=False, repr=False)
    _evaluator: Evaluator | None = field(default=None, alias="evaluator", eq=False, repr=False)

    learns = False

    def __attrs_post_init__(self) -> None:
        check_budget(self.simulations, self.seconds)
        if self.c < 0 or self.bias < 0 or self.c_puct < 0:
            raise ValueError("c, c_puct and bias must not be negative")
        if not 0.0 <= self.noise <= 1.0:
            raise ValueError("noise is a weight: between 0 and 1")
        if self.alpha <= 0:
            raise ValueError("alpha (the Dirichlet concentration) must be positive")
        check_leaves(self.leaves)
        check_expand_at(self.expand_at, self.select)
        if self.select == "puct" and self.bias > 0:
            raise ValueError("progressive bias is for select=ucb1; puct follows the priors")
        needs_scores = self.playout == "heavy" or self.bias > 0
        if needs_scores and not self.scores and self._scorer is None:
            raise ValueError("heavy playouts and progressive bias need scores=NAME")
        if self.scores:
            from purestate.core import registry

            registry.require_move_scores(self.scores)

    @property
    def spec(self) -> str:
        """The spec string, e.g. ``mcts:simulations=2000,c=0.7``."""
        return format_spec("mcts", self)

    @property
    def evaluator(self) -> Evaluator | None:
        """The injected evaluator (None: leaves are played out in the search)."""
        return self._evaluator

    def scorer(self) -> MoveScores | None:
        """The injected per-move score function, or the registered one ``scores`` names."""
        from purestate.core import registry

        return registry.chosen_move_scores(self._scorer, self.scores)

    def check_game(self, game: Game[Any, Any]) -> None:
        """Refuse (``SpecError``, one line) a game the move scores are not made for, when heavy
        playouts or progressive bias use them (``scores=uttt`` plays the big boards only)."""
        if self.scores and (self.playout == "heavy" or self.bias > 0):
            from purestate.core import registry

            registry.check_plays("move scores", self.scores, game)

    def initial_table(self, game: Game[Any, Any], seat: int) -> Tree:
        """An empty tree; refuses a game the move scores are not made for."""
        self.check_game(game)
        return Tree()

    def learn(self, game: Game[Any, Any], table: Any, episode: Any, seat: int) -> Any:
        """Search does not learn between games: the table comes back as it was."""
        return table

    def without_tree(self, table: Any) -> Tree:
        """An empty tree: the table holds nothing but the tree (``KeepsTree``)."""
        return Tree()

    def act(self, game: Game[Any, Any], table: Any, state: Any, key: Key) -> Decision[Any]:
        """Search from ``state`` and play the best move; the new tree is the new table.

        Raises:
            SpecError: for a game the move scores are not made for (checked before searching).
        """
        require_game(game, state)  # a pyspiel game, say: one line saying how to bridge it
        self.check_game(game)
        tree = self.search(game, table if isinstance(table, Tree) else Tree(), state, key)
        assert tree.root is not None
        return Decision(best_child(tree.root).move, table=tree)

    def search(self, game: Game[Any, Any], tree: Tree, state: Any, key: Key) -> Tree:
        """Run the simulations from ``state``, reusing ``tree`` where it holds ``state``.

        Leaves are evaluated by the injected evaluator, one call per leaf, if there is one.

        Returns:
            A new tree rooted at ``state`` (``tree`` is not changed).

        Raises:
            ValueError: if ``state`` is terminal.
        """
        return search_many(self, game, [tree], [state], [key])[0]


def search_many(
    agent: MCTS,
    game: Game[Any, Any],
    trees: Sequence[Tree],
    states: Sequence[Any],
    search_keys: Sequence[Key],
    evaluator: Evaluator | None = None,
    compiled_tree: bool = True,
) -> list[Tree]:
    """Many independent searches at once, their leaves evaluated together.

    Search ``i`` is ``agent.search(game, trees[i], states[i], search_keys[i])`` with
    ``evaluator`` injected: each round every unfinished search runs up to its next leaf that
    needs a value, and all those leaves go to one ``evaluator`` call. Each search sees only its
    own evaluations, so its tree does not depend on the others searched beside it as long as the
    evaluator gives each state the same evaluation in any batch.

    Args:
        agent: The search's options (``select``, ``c_puct``, ``simulations``, ...).
        game: The game.
        trees: The previous trees (``Tree()`` for none), reused where they hold the state.
        states: The positions to search, one per tree.
        search_keys: One key per search.
        evaluator: The batched evaluator (None: the agent's own; with neither, leaves are played
            out and nothing is batched).
        compiled_tree: Run the compiled tree where it applies (``mcts_compiled.route``: UCB1
            or PUCT with the solver, with an evaluator or a playout the game has a row kernel
            for, on a game with row kernels, numba installed); False runs the Python tree, the
            reference the compiled one is compared with. The same trees either way.

    Returns:
        The new trees, in order (the trees passed in are not changed).

    Raises:
        ValueError: if a state is terminal, the sequences differ in length, or ``leaves`` > 1
            without PUCT and an evaluator.
    """
    if not len(trees) == len(states) == len(search_keys):
        raise ValueError("search_many needs one tree, one state and one key per search")
    evaluate = evaluator if evaluator is not None else agent.evaluator
    evaluated = evaluate is not None
    if agent.leaves > 1 and not (evaluated and agent.select == "puct"):
        raise ValueError("leaves > 1 batches an evaluator's leaves: it needs select=puct and one")
    route = None
    if compiled_tree:
        from purestate.agents import mcts_compiled

        route = mcts_compiled.route(agent, game, evaluated)
    roots: list[Node | None] = []
    runs: list[Searching] = []
    start_clock = partial(deadline, agent._clock, agent.seconds, "mcts")
    for tree, state, key in zip(trees, states, search_keys, strict=True):
        k_rng, k_playout, k_noise = keys.split(key, 3)
        if route is not None:
            rows, mode = route
            roots.append(None)
            runs.append(
                mcts_compiled.search(agent, game, rows, mode, tree, state,
                                     (k_rng, k_playout, k_noise), start_clock, evaluated)
            )  # fmt: skip
            continue
        root = _root(agent, game, tree, state)
        roots.append(root)
        passed = start_clock()
        runs.append(_simulations(agent, game, root, k_rng, k_playout, k_noise, passed, evaluated))
    ends = _drive(game, runs, evaluate)
    return [
        end if isinstance(end, Tree) else Tree(root, end)
        for root, end in zip(roots, ends, strict=True)
    ]


def _root(agent: MCTS, game: Game[Any, Any], tree: Tree, state: Any) -> Node:
    """A private root for searching ``state``: a copy of its node in ``tree``, or a new one."""
    if game.is_over(state):
        raise ValueError("mcts needs a state where someone is to move; the game is over")
    found = find_subtree(tree, game, state) if agent.reuse else None
    if found is None:
        return Node(state, None, _NONE, game.to_move(state))
    root = found.copy()
    if root.mover == 0:
        # a root's w sums player 1's rewards (nobody moved into it, see the backup); this
        # node's summed its mover's, player 0's
        root.w = root.n - root.w
    root.move, root.mover = None, _NONE
    if root.proven is not None and root.player >= 0:
        # a proven value is stored for the mover; the root keeps its own player's
        root.proven = None
        _prove(root)
    return root


Leaves = list[tuple[Any, Key]]
"""A round's leaves to evaluate, as ``(state, key)``, in the order they were collected."""

Simulations = Generator[Leaves, list[Evaluation], int]
"""The Python tree's simulation loop: it yields each round's leaves to evaluate, receives their
evaluations in the same order, and returns how many simulations ran."""

Searching = Generator[Leaves, list[Evaluation], int | Tree]
"""A search as ``_drive`` runs it: the Python tree's ``Simulations``, or the compiled tree's
search, which returns its ``Tree``."""


def _drive(
    game: Game[Any, Any], runs: Sequence[Searching], evaluate: Evaluator | None
) -> list[int | Tree]:
    """Run the searches to the end, one evaluator call per round for all their pending leaves;
    what each returned, in order."""
    ends: list[int | Tree] = [0] * len(runs)
    pending: list[tuple[int, Leaves]] = []
    for i, run in enumerate(runs):
        try:
            pending.append((i, next(run)))
        except StopIteration as stop:
            ends[i] = stop.value
    while pending:
        assert evaluate is not None  # a search yields leaves only when there is an evaluator
        # every run's leaves in one call, in run order and each run's own order
        flat = [leaf for _, leaves in pending for leaf in leaves]
        evaluations = evaluate(game, [s for s, _ in flat], [k for _, k in flat])
        if len(evaluations) != len(flat):
            raise ValueError(
                f"the evaluator gave {len(evaluations)} evaluations for {len(flat)} states"
            )
        waiting = []
        start = 0
        for i, leaves in pending:
            mine = list(evaluations[start : start + len(leaves)])
            start += len(leaves)
            try:
                waiting.append((i, runs[i].send(mine)))
            except StopIteration as stop:
                ends[i] = stop.value
        pending = waiting
    return ends


def _tier(child: Node, best_value: float | None) -> int:
    """2: proves the root's value; 0: a proven loss (below a draw); 1: otherwise."""
    pv = child.proven
    if pv is not None and best_value is not None and pv >= best_value:
        return 2
    if pv is not None and pv < 0.5:
        return 0
    return 1


def best_child(root: Node) -> Node:
    """The move to play: a proven win, else the most visited child that is not a proven loss.

    Ties on visits go to the higher mean reward, then to the higher prior, then to the earlier
    child.
    """
    children = root.children
    if not children:
        raise ValueError("the root has no expanded children")
    best_value = root.proven

    def rank(ch: Node) -> tuple[int, int, float, float]:
        return (_tier(ch, best_value), ch.n, ch.w / ch.n if ch.n else 0.0, ch.prior)

    return max(children, key=rank)


def visit_distribution(game: Game[Any, Any], tree: Tree) -> tuple[float, ...]:
    """The root's visit counts as probabilities over ``game.legal(root state)``, in that order.

    AlphaZero's training target π. Moves proven to lose are left out while another move is not;
    once the root is proven, the moves that prove its value share the probability equally (they
    may have few visits: the search stopped when it knew). A move without a child gets 0.

    Raises:
        ValueError: if the tree has no expanded root.
    """
    root = tree.root
    if root is None or not root.children:
        raise ValueError("the tree has no expanded root")
    best_value = root.proven
    tiers = [_tier(ch, best_value) for ch in root.children]
    if best_value is not None:
        weights = [1.0 if t == 2 else 0.0 for t in tiers]
    else:
        weights = [float(ch.n) if t else 0.0 for ch, t in zip(root.children, tiers, strict=True)]
    if sum(weights) <= 0:  # nothing visited but proven losses, or no visit at all
        weights = [1.0 if ch is best_child(root) else 0.0 for ch in root.children]
    total = sum(weights)
    by_move = {ch.move: w / total for ch, w in zip(root.children, weights, strict=True)}
    return tuple(by_move.get(m, 0.0) for m in game.legal(root.state))


def choose_move(game: Game[Any, Any], tree: Tree, temperature: float, key: Key) -> Any:
    """A move drawn from the visit distribution sharpened by ``temperature``.

    Move ``i`` is drawn with probability proportional to ``π_i^(1/temperature)``, from ``key``;
    temperature 0 plays ``best_child`` (the most visited move, no draw).

    Raises:
        ValueError: for a negative temperature or a tree without an expanded root.
    """
    if temperature < 0:
        raise ValueError("the temperature must not be negative")
    root = tree.root
    if root is None or not root.children:
        raise ValueError("the tree has no expanded root")
    if temperature == 0:
        return best_child(root).move
    pi = visit_distribution(game, tree)
    top = max(pi)
    # scaled by the largest, so a small temperature cannot underflow every weight to 0
    weights = [(p / top) ** (1.0 / temperature) if p > 0 else 0.0 for p in pi]
    return game.legal(root.state)[keys.weighted_index(key, weights)]


def dirichlet_noise(
    priors: Sequence[float], alpha: float, epsilon: float, key: Key
) -> tuple[float, ...]:
    """``(1 - ε)·P + ε·η`` with ``η`` drawn from ``Dirichlet(α, ..., α)`` with ``key``.

    ``epsilon = 0`` gives the priors back unchanged (and draws nothing). The noise is drawn as
    normalised ``gammavariate(α, 1)`` draws of ``keys.generator(key)`` (``dirichlet_draws``).
    """
    if epsilon == 0:
        return tuple(priors)
    draws, total = dirichlet_draws(len(priors), alpha, key)
    return tuple(
        (1.0 - epsilon) * p + epsilon * d / total for p, d in zip(priors, draws, strict=True)
    )


def dirichlet_draws(count: int, alpha: float, key: Key) -> tuple[list[float], float]:
    """The ``count`` unnormalised draws of ``dirichlet_noise`` and their sum: ``gammavariate(α,
    1)`` draws of ``keys.generator(key)``, or all 1 when every draw underflowed (tiny α)."""
    rng = keys.generator(key)
    draws = [rng.gammavariate(alpha, 1.0) for _ in range(count)]
    total = sum(draws)
    if total <= 0:  # the noise is uniform
        draws = [1.0] * count
        total = float(count)
    return draws, total


def check_priors(priors: Sequence[float], moves: int) -> None:
    """Refuse an evaluator's priors of the wrong length.

    Raises:
        ValueError: unless there are ``moves`` priors.
    """
    if len(priors) != moves:
        raise ValueError(f"the evaluator gave {len(priors)} priors for {moves} legal moves")


def rollout_evaluator(
    playout: Literal["auto", "random", "decisive", "antidecisive", "heavy"] = "random",
    scorer: MoveScores | None = None,
    draws: KeyedDraws = "counter",
) -> Evaluator:
    """An evaluator from playouts: uniform priors and the return of one playout per state.

    The playout of a state with key ``k`` is the one the search plays with the same mode for a
    simulation whose key is ``k`` (``playout_returns``), so ``mcts:playout=random`` and the
    search with this evaluator build the same tree from the same key.

    Args:
        playout: The playout mode, as the ``playout`` option (``heavy`` needs ``scorer``).
        scorer: The per-move scores of heavy playouts.
        draws: What the generic decisive and heavy playouts draw from (``playout_returns``).
    """

    # the playout of the last game evaluated, looked up once rather than once per call (a
    # single search calls once per leaf); a cache: it changes no result
    last: list[tuple[Game[Any, Any], PlayoutReturns]] = []

    def evaluate(
        game: Game[Any, Any], states: Sequence[Any], leaf_keys: Sequence[Key]
    ) -> list[Evaluation]:
        if not last or last[0][0] is not game:
            last[:] = [(game, playout_returns(game, playout, scorer, draws))]
        play = last[0][1]
        out: list[Evaluation] = []
        for s, k in zip(states, leaf_keys, strict=True):
            n = len(game.legal(s))
            v = play(s, k)[game.to_move(s)]
            out.append(((1.0 / n,) * n, -1.0 if v < -1.0 else 1.0 if v > 1.0 else v))
        return out

    return evaluate


def random_playout(
    game: Game[Any, Any], state: Any, key: Key, draws: keys.Draws = "counter"
) -> tuple[float, ...]:
    """The returns of the random game from ``state`` a ``playout(state, key, draws)`` hook must
    play (``core.batch.random_returns``): a game without the hook plays the same games, slower.

    Each ply plays ``legal(s)[int(r * len(legal(s)))]`` with ``r`` the next draw of
    ``keys.draws(key, draws)``.
    """
    return random_returns(game, state, key, draws)


def playout_returns(
    game: Game[Any, Any],
    playout: Literal["auto", "random", "decisive", "antidecisive", "heavy"],
    scorer: MoveScores | None = None,
    draws: KeyedDraws = "counter",
) -> PlayoutReturns:
    """The playout of mode ``playout`` on ``game`` as a function of a state and a key.

    The game's kernels where the search uses them (with ``auto`` resolved as the search does),
    else the generic decisive and heavy loops drawing from ``keys.stream(key)``: the playouts a
    search with ``draws=counter`` plays (``draws="shared"``: from ``keys.generator(key)``, what
    this function drew in run format 4).
    """
    mode, fast_random, fast_decisive = _playout_kernels(game, playout)
    rand_of = keys.stream if draws == "counter" else lambda k: keys.generator(k).random
    if fast_random is not None:
        return fast_random
    if fast_decisive is not None:
        kernel, anti = fast_decisive, mode == "antidecisive"
        return lambda s, k: kernel(s, k, anti)
    if mode == "random":
        return lambda s, k: random_playout(game, s, k)
    if mode == "heavy":
        if scorer is None:
            raise ValueError("heavy playouts need per-move scores")
        chosen = scorer
        return lambda s, k: game.returns(_heavy_playout(game, s, rand_of(k), chosen))
    anti_ = mode == "antidecisive"
    return lambda s, k: game.returns(decisive_playout(game, s, rand_of(k), anti_))


def _playout_kernels(
    game: Game[Any, Any], mode: str, draws: keys.Draws = "counter"
) -> tuple[str, PlayoutReturns | None, DecisivePlayoutFn | None]:
    """The playout mode with ``auto`` resolved, and the game kernel that plays it (if any).

    A game without a random kernel gets ``random_playout`` for ``random``, so simulation ``i``
    draws from its own key on every game, with a kernel or without; under ``draws=mersenne``
    (runs before format 3) it gets none, and plays from the search's generator as it did then.
    """
    fast_decisive = decisive_playout_of(game)
    fast_random: PlayoutReturns | None = playout_of(game)
    if mode == "auto":
        # With the game's decisive kernel anti-decisive playouts cost little and win the most;
        # without it, stepping every reply in Python costs b² steps a ply, and the game's random
        # kernel buys more simulations than decisive checks gain.
        if fast_decisive is not None:
            mode = "antidecisive"
        else:
            mode = "random" if fast_random is not None else "decisive"
    if mode != "random":
        fast_random = None
    elif fast_random is None and draws == "counter":
        fast_random = partial(random_playout, game)
    if mode not in ("decisive", "antidecisive"):
        fast_decisive = None
    return mode, fast_random, fast_decisive


def playout_draws(draws: Draws) -> keys.Draws:
    """What the playouts of a search with option ``draws`` draw from: ``mersenne`` for
    ``mersenne``, the counter stream otherwise."""
    return "mersenne" if draws == "mersenne" else "counter"


def counter_shuffle(moves: list[Any], rand: Callable[[], float]) -> None:
    """Shuffle ``moves`` in place with the draws of ``rand`` (a ``keys.stream``): Fisher-Yates
    from the end, item ``i`` (from the last down to 1) swapped with item
    ``int(rand() * (i + 1))``, one draw per swap: what the compiled tree does with the same
    stream (``draws=counter``)."""
    for i in range(len(moves) - 1, 0, -1):
        j = int(rand() * (i + 1))
        moves[i], moves[j] = moves[j], moves[i]


def shuffle(moves: list[Any], getrandbits: Callable[[int], int]) -> None:
    """Shuffle ``moves`` in place as ``random.Random.shuffle`` does with the generator whose
    ``getrandbits`` this is: the same draws, the same order.

    CPython's shuffle swaps item ``i`` (from the last down to 1) with item ``randbelow(i + 1)``,
    drawing ``i + 1``'s bit length in bits until the draw is below ``i + 1``; written out here
    without a method call per move (a tenth of an ultimate simulation). A test holds it to
    ``random.Random.shuffle`` on the running Python.
    """
    for i in range(len(moves) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        moves[i], moves[j] = moves[j], moves[i]


def _prove(node: Node) -> bool:
    """Mark ``node`` proven if its children decide it; return whether it is proven."""
    p = node.player
    best = -1.0
    complete = not node.untried and bool(node.children)
    for ch in node.children:
        pv = ch.proven
        if pv is None:
            complete = False
            continue
        if pv > best:
            best = pv
            if best >= 1.0:
                break
    node.lower = best
    if best >= 1.0 or (complete and best >= 0.0):
        # children store the value for their mover, which is node's player
        node.proven = best if node.mover in (p, _NONE) else 1.0 - best
        return True
    return False


def _simulations(
    agent: MCTS,
    game: Game[Any, Any],
    root: Node,
    k_rng: Key,
    k_playout: Key,
    k_noise: Key,
    passed: Callable[[], bool],
    evaluated: bool,
) -> Simulations:
    """The simulation loop of one search on local values; returns how many simulations ran.

    With ``evaluated``, each round's leaves that need a value are yielded as a list of ``(state,
    key)``, simulation ``i``'s key being ``fold_in(k_playout, i)``, and their evaluations are
    sent back as a list in the same order; without, each leaf is played out here (the same key
    for the keyed playouts) and nothing is yielded.

    A round runs up to ``k = agent.leaves`` simulations (``min(leaves, limit - sims)`` under a
    simulation limit; 1 without an evaluator). Each selects from the root as one simulation
    does, reading visits that include virtual ones, and ends:

    - at a proven node (terminal, proven by the solver, or by ``expand_all`` at the leaf): its
      value is backed up at once and the simulation counted;
    - at a new leaf needing the evaluator: it is expanded, marked pending, and a virtual loss
      is put on its path (every node's ``n`` + 1, nothing added to ``w``); the simulation is
      counted now, its number giving its key;
    - at a pending node (a collision): the round stops collecting; that selection counts
      nothing;
    - (PUCT) at a leaf other than the root with fewer than ``expand_at - 1`` visits: it is
      played out from the simulation's key and the result backed up at once, the leaf left
      unexpanded (with ``expand_at=1``, never).

    The pending leaves then go to the evaluator in one yield; for each, in collection order,
    the virtual loss is taken off its path, its priors set (the root's with noise) and its value
    backed up. The clock is read between rounds (with ``expand_at`` above 1: after a round
    that called the evaluator, and at every 16th simulation, where rounds are cut); at least
    one simulation runs. With ``leaves=1`` a round is one simulation: the search of a leaf at
    a time.
    """
    legal, step, is_over = game.legal, game.step, game.is_over
    to_move, returns = game.to_move, game.returns
    counter = agent.draws in ("counter", "shared")
    # each generic decisive or heavy playout on its own simulation's key
    keyed = agent.draws == "counter"
    if counter:
        # the shuffle draws from its own key's counter stream (as the compiled tree does); the
        # generator is left to the generic decisive and heavy playouts of draws=shared
        k_rng, k_shuffle = keys.split(k_rng)
        shuffle_draw = keys.stream(k_shuffle)
    rng = keys.generator(k_rng)
    rand = rng.random
    getrandbits = rng.getrandbits
    log, sqrt = math.log, math.sqrt
    c = agent.c
    solver = agent.solver
    bias = agent.bias
    scorer = agent.scorer()
    timed = passed is not never  # a seconds budget, or the clock's own limit
    limit = agent.simulations if agent.simulations > 0 else -1
    draws = playout_draws(agent.draws)
    mode, fast_random, fast_decisive = _playout_kernels(game, agent.playout, draws)
    eager = agent.decisive and solver
    ending = ending_moves_of(game)
    anti = mode == "antidecisive"
    puct = agent.select == "puct"
    # AlphaZero's c_puct weighs priors against values in [-1, 1]; here values are in [0, 1]
    c_prior = agent.c_puct * 0.5
    noise = agent.noise if puct else 0.0
    expand_at = agent.expand_at

    def expand_moves(node: Node) -> None:
        moves = list(legal(node.state))
        if counter:
            counter_shuffle(moves, shuffle_draw)
        else:
            shuffle(moves, getrandbits)
        if eager:
            # the moves that end the game become proven children now: one step per move finds
            # an immediate win (the node is proven) or the only moves that do not lose at once
            p = node.player
            state = node.state
            ends = None if ending is None else ending(state)
            if ends is not None and not ends:  # the game's hook: no move ends it, no step
                node.untried = moves
                return
            rest = []
            for m in moves:
                if ends is not None and m not in ends:
                    rest.append(m)
                    continue
                s = step(state, m)
                if is_over(s):
                    child = Node(s, m, p, -1)
                    child.proven = unit_reward(returns(s)[p])
                    if bias > 0 and scorer is not None:
                        child.h = _scaled_score(game, scorer, state, m)
                    node.children.append(child)
                else:
                    rest.append(m)
            moves = rest
            if counter:
                # the moves left count before the proof: a game-ending draw among them does not
                # prove the node a draw (runs before format 4, draws=playouts or mersenne, proved
                # it with the moves still unlisted, and keep doing so to replay exactly)
                node.untried = moves
            if node.children:
                _prove(node)
        node.untried = moves

    def make_child(parent: Node, move: Any) -> Node:
        s = step(parent.state, move)
        p = parent.player
        if is_over(s):
            child = Node(s, move, p, -1)
            child.proven = unit_reward(returns(s)[p])
        else:
            child = Node(s, move, p, to_move(s))
            expand_moves(child)
        if bias > 0 and scorer is not None:
            child.h = _scaled_score(game, scorer, parent.state, move)
        return child

    def expand_all(node: Node) -> None:
        # PUCT: every move becomes a child at once, in legal order (the priors' order); the
        # ones that end the game are proven, so an immediate win proves the node unevaluated
        p = node.player
        state = node.state
        for m in legal(state):
            s = step(state, m)
            if is_over(s):
                child = Node(s, m, p, -1)
                child.proven = unit_reward(returns(s)[p])
            else:
                child = Node(s, m, p, to_move(s))
            node.children.append(child)
        if solver:
            _prove(node)

    def set_priors(node: Node, priors: Sequence[float]) -> None:
        children = node.children
        check_priors(priors, len(children))
        # plain floats, whatever array the evaluator used, before any noise is mixed in
        floats = [float(pr) for pr in priors]
        if node is root and noise > 0:
            floats = list(dirichlet_noise(floats, agent.alpha, noise, k_noise))
        for ch, pr in zip(children, floats, strict=True):
            ch.prior = pr

    def playout(s: Any, i: int) -> float:
        # the reward of player 0, in [0, 1]
        if fast_random is not None:
            return unit_reward(fast_random(s, sim_keys[i], draws)[0])
        if fast_decisive is not None:
            return unit_reward(fast_decisive(s, sim_keys[i], anti, draws)[0])
        # the generic loops: on the counter stream of the simulation's key, as rollout_evaluator
        # and the compiled tree's generic decisive playout draw (older formats: the search's one
        # generator)
        draw = keys.stream(sim_keys[i]) if keyed else rand
        if mode == "heavy":
            assert scorer is not None
            s = _heavy_playout(game, s, draw, scorer)
        elif mode == "random":  # draws=mersenne without a random kernel: as before format 3
            while not is_over(s):
                ms = legal(s)
                s = step(s, ms[int(rand() * len(ms))])
        else:
            s = decisive_playout(game, s, draw, anti)
        return unit_reward(returns(s)[0])

    def backup(path: list[Node], r0: float) -> None:
        # each node for its own mover; a node with a proven child is worth at least that
        # child's value to its player, so lower results are raised to that bound
        for i in range(len(path) - 1, -1, -1):
            nd = path[i]
            low = nd.lower
            if low >= 0.0:
                if nd.player == 0:
                    if r0 < low:
                        r0 = low
                elif 1.0 - r0 < low:
                    r0 = 1.0 - low
            nd.n += 1
            nd.w += r0 if nd.mover == 0 else 1.0 - r0
        if solver and path[-1].proven is not None:
            for i in range(len(path) - 2, -1, -1):
                if not _prove(path[i]):
                    break

    if puct:
        if noise > 0 and root.children:  # a reused root is expanded already
            set_priors(root, [ch.prior for ch in root.children])
    elif root.player >= 0 and not root.untried and not root.children:
        expand_moves(root)
    if solver and root.proven is None:
        _prove(root)
    # sqrt(n) for every visit count n a child can have, looked up rather than called (the same
    # floats): the UCB1 loop scores every child of every node on the path
    roots: list[float] = []
    # fold_in(k_playout, i) for simulation i, made with numpy's speed (the same keys)
    sim_keys: list[Key] = []
    plain = solver and not bias
    sims = 0
    # the clock is read every 16 simulations, or every one when a leaf waits for an evaluator (a
    # network call can cost more than 16 playouts: a page's bot stops within its move budget)
    look = 0 if evaluated else 15
    # with an expansion threshold most rounds only play out: the clock is read every 16
    # simulations (rounds cut there) and after each round that called the evaluator
    cut = evaluated and timed and expand_at > 1
    if cut:
        look = 15
    called = False
    rounds = agent.leaves  # above 1 only for PUCT with an evaluator (search_many refuses else)
    # the leaves waiting for this round's evaluations: (node, path, simulation number)
    waiting: list[tuple[Node, list[Node], int]] = []
    waiting_ids: set[int] = set()
    while root.proven is None or not solver:
        # at least one simulation, so the root always has a child to play
        if sims and (sims == limit or (timed and (called or not sims & look) and passed())):
            break
        k = rounds if limit < 0 else min(rounds, limit - sims)
        if cut:
            k = min(k, 16 - (sims & 15))
        for _ in range(k):
            if solver and root.proven is not None:
                break
            if sims == len(sim_keys):  # the keys of the next simulations, in blocks that double
                block = sims + 64 if limit < 0 else min(limit - sims, sims + 64)
                sim_keys.extend(key_range(k_playout, sims, block).tolist())
            if root.n >= len(roots):  # a child's visits are at most the root's
                roots.extend([sqrt(n) for n in range(len(roots), 2 * root.n + 64)])
            node = root
            path = [root]
            collided = False
            shallow = False
            # selection and expansion
            while True:
                if node.proven is not None and solver:
                    break
                if node.player < 0:
                    break
                best: Node | None = None
                best_score = -1.0
                if puct:
                    if waiting and id(node) in waiting_ids:
                        collided = True  # a leaf of this round, waiting for its evaluation
                        break
                    if not node.children:
                        if node.n + 1 < expand_at and node is not root:
                            shallow = True  # under the threshold: a playout, no expansion
                            break
                        expand_all(node)  # the leaf: evaluated below unless this proves it
                        break
                    # First-play urgency: an unvisited child is valued as its parent is to the
                    # player choosing (the parent's mean), so the priors alone order the
                    # untried moves and a move is tried when its prior outweighs the visited
                    # ones' means.
                    nn = node.n
                    q0 = node.w / nn if nn else 0.5
                    # the root's w is kept for player 1 (nobody moved into it)
                    if (node.mover if node.mover >= 0 else 1) != node.player:
                        q0 = 1.0 - q0
                    u = c_prior * sqrt(nn)
                    for ch in node.children:
                        if ch.proven is not None and solver:
                            continue
                        n = ch.n
                        score = (ch.w / n if n else q0) + u * ch.prior / (1 + n)
                        if score > best_score:
                            best_score = score
                            best = ch
                else:
                    if node.untried:
                        child = make_child(node, node.untried.pop())
                        node.children.append(child)
                        path.append(child)
                        node = child
                        break
                    lg = c * sqrt(log(node.n)) if node.n > 1 else 0.0
                    if plain:  # the common case, every child of every node on the path: the
                        # loop below without the branches that cannot be taken
                        for ch in node.children:
                            if ch.proven is None:
                                n = ch.n
                                score = ch.w / n + lg / roots[n]
                                if score > best_score:
                                    best_score = score
                                    best = ch
                    else:
                        for ch in node.children:
                            # A proven child can teach nothing more: the node's lower bound
                            # already holds its value, so only unproven children (which might
                            # be better) are explored.
                            if ch.proven is not None and solver:
                                continue
                            n = ch.n
                            score = ch.w / n + lg / roots[n]
                            if bias:
                                score += bias * ch.h / (n + 1)
                            if score > best_score:
                                best_score = score
                                best = ch
                if best is None:  # every child proven (only without the solver's bookkeeping)
                    best = max(node.children, key=lambda ch: ch.proven or 0.0)
                node = best
                path.append(node)
            if collided:
                break
            # simulation: the proven value, a playout's, or the evaluator's after the round
            if node.proven is not None:
                r0 = node.proven if node.mover == 0 else 1.0 - node.proven
                if node.mover == _NONE:
                    r0 = node.proven if node.player == 0 else 1.0 - node.proven
            elif evaluated and not shallow:
                # a virtual loss on the path until the evaluation comes: the round's next
                # selections see the visit and no reward, and look elsewhere
                for nd in path:
                    nd.n += 1
                waiting.append((node, path, sims))
                waiting_ids.add(id(node))
                sims += 1
                continue
            else:
                r0 = playout(node.state, sims)
                if puct and not shallow:
                    set_priors(node, (1.0 / len(node.children),) * len(node.children))
            backup(path, r0)
            sims += 1
        called = bool(waiting)
        if waiting:
            found = yield [(nd.state, sim_keys[i]) for nd, _, i in waiting]
            for (node, path, _), (priors, v) in zip(waiting, found, strict=True):
                for nd in path:
                    nd.n -= 1
                # v is for the player to move in the leaf; the other player's is -v
                r0 = unit_reward(float(v)) if node.player == 0 else unit_reward(-float(v))
                if puct:
                    set_priors(node, priors)
                backup(path, r0)
            waiting = []
            waiting_ids = set()
    return sims


def _heavy_playout(
    game: Game[Any, Any], s: Any, rand: Callable[[], float], scorer: MoveScores
) -> Any:
    """A playout drawing each move in proportion to its score (uniformly when all are 0)."""
    legal, step, is_over = game.legal, game.step, game.is_over
    while not is_over(s):
        ms = legal(s)
        ws = scorer(game, s)
        total = sum(ws)
        if total > 0:
            target = rand() * total
            j = 0
            acc = ws[0]
            while acc <= target and j < len(ms) - 1:
                j += 1
                acc += ws[j]
            s = step(s, ms[j])
        else:
            s = step(s, ms[int(rand() * len(ms))])
    return s


def _scaled_score(game: Game[Any, Any], scorer: MoveScores, state: Any, move: Any) -> float:
    """The score of ``move`` divided by the best score in ``state`` (0 when all are 0)."""
    moves = game.legal(state)
    scores = scorer(game, state)
    top = max(scores) if scores else 0.0
    if top <= 0:
        return 0.0
    return scores[moves.index(move)] / top


def decisive_playout(game: Game[Any, Any], s: Any, rand: Callable[[], float], anti: bool) -> Any:
    """A random playout that plays an immediate win when there is one and, with ``anti``, avoids
    moves after which the opponent wins at once. Returns the terminal state.

    Each ply: the first move of ``legal(s)`` that ends the game with the mover's return above 0;
    otherwise ``legal(s)[int(rand() * len(legal(s)))]`` (with ``anti``, the first move from there
    on, cyclically, after which the opponent cannot win at once, if any). A game's
    ``decisive_playout`` hook is this game without ``anti``, drawn from its key's generator.
    """
    legal, step, is_over = game.legal, game.step, game.is_over
    to_move, returns = game.to_move, game.returns
    while not is_over(s):
        ms = legal(s)
        p = to_move(s)
        nxt = None
        children = []
        for m in ms:
            ch = step(s, m)
            if is_over(ch) and returns(ch)[p] > 0:
                nxt = ch
                break
            children.append(ch)
        if nxt is None:
            start = int(rand() * len(children))
            nxt = children[start]
            if anti:
                for j in range(len(children)):
                    ch = children[(start + j) % len(children)]
                    if not _opponent_wins_at_once(game, ch, p):
                        nxt = ch
                        break
        s = nxt
    return s


def _opponent_wins_at_once(game: Game[Any, Any], s: Any, p: int) -> bool:
    if game.is_over(s):
        return game.returns(s)[p] < 0
    q = game.to_move(s)
    if q == p:
        return False
    for m in game.legal(s):
        ch = game.step(s, m)
        if game.is_over(ch) and game.returns(ch)[q] > 0:
            return True
    return False
