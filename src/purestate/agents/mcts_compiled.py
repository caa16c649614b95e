"""The compiled MCTS tree behind ``mcts.search_many``: when it runs, and the ``Node`` tree in and
out of its arrays.

``agents/kernels/mcts_tree.py`` runs the Python tree's search over arrays, on a game's row
kernels (``core.hooks.Rows``): UCB1 (decisive expansion, the shuffle on the counter stream) or
PUCT (every child at once, priors, first-play urgency, root noise), the solver on, leaves valued
by random or decisive playouts or by an injected evaluator. ``route`` says whether a search may
run there: the solver on, no progressive bias, UCB1 with decisive moves, ``draws=counter`` or
``shared`` (except PUCT with an evaluator, which draws nothing it changes), an evaluator or a
playout the game has a row kernel for (a game without a decisive kernel plays the generic
decisive playout compiled over its rows, ``mcts_tree.generic_decisive``: only under
``draws=counter``, which draws it from the simulation's key), and numba importable.
``search`` converts the (reused, private) root's subtree to arrays, runs the kernel (in chunks
of 16 simulations when a clock is read, growing the arrays when they fill, stopping at each
round's leaves the evaluator must value: ``search`` is a generator as the Python tree's loop is)
and hands the tree back as ``Node`` objects, the reused ones updated in place and the new ones
made with ``Rows.state_of``: the table every reader of a ``Tree`` knows. The same key gives the
same tree as the Python tree, node for node (``properties/test_compiled_tree_props.py``)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from purestate.agents.mcts import (
    MCTS,
    Evaluation,
    Node,
    RowNode,
    Tree,
    _playout_kernels,
    _root,
    check_priors,
    dirichlet_draws,
)
from purestate.agents.timing import never
from purestate.core import compiled, keys
from purestate.core.batch import key_range
from purestate.core.hooks import Rows, rows_of
from purestate.core.keys import Key

if TYPE_CHECKING:
    from purestate.core.game import Game

CHUNK = 16
"""Simulations between two looks at the clock, as the Python tree's."""
FIND_DEPTH = 6
"""The levels of the previous tree searched for the position, as ``mcts.find_subtree``'s."""


def route(agent: MCTS, game: Game[Any, Any], evaluated: bool) -> tuple[Rows, int] | None:
    """The game's rows and the kernel's playout mode when ``agent``'s search runs compiled on
    ``game``, else None (the Python tree runs)."""
    puct = agent.select == "puct"
    # a search with an evaluator plays no playout, unless PUCT's leaves under its expansion
    # threshold are played out
    plays = not evaluated or agent.expand_at > 1
    if (
        agent.bias > 0
        or not agent.solver
        or not (puct or agent.decisive)
        # PUCT with an evaluator and no playouts draws nothing the option changes; the others
        # shuffle or play out (draws=shared shuffles on the counter stream as counter does)
        or (agent.draws not in ("counter", "shared") and (plays or not puct))
    ):
        return None
    rows = rows_of(game)
    if rows is None:
        return None
    kernel = _kernel()
    if kernel is None:
        return None
    if not plays:
        return rows, int(kernel.RANDOM)  # no playout is played
    mode, fast_random, fast_decisive = _playout_kernels(game, agent.playout, "counter")
    if mode == "random" and fast_random is not None:
        return rows, int(kernel.RANDOM)
    if mode not in ("decisive", "antidecisive"):
        return None
    code = int(kernel.ANTIDECISIVE if mode == "antidecisive" else kernel.DECISIVE)
    if fast_decisive is not None:
        # the game's decisive hook: compiled where it has the row kernel
        return (rows, code) if rows.decisive0 is not None else None
    # the generic loop, compiled over the rows where each playout draws from its simulation's
    # key (draws=shared draws them all from the search's one generator)
    generic = (
        rows.decisive0 is None  # a decisive row kernel plays the game's hook, which it lacks
        and rows.returns is not None
        and rows.max_moves <= kernel.GENERIC_MOVES
    )
    return (rows, code) if generic and agent.draws == "counter" else None


def _decisive0(kt: Any, rows: Rows, mode: int, ending: Any) -> Any:
    """The tree's ``decisive0``: the game's decisive kernel, else (a decisive ``mode`` that
    ``route`` let through) the generic decisive playout compiled over its rows (``ending``:
    the game's, or ``legal`` where it has none)."""
    if rows.decisive0 is not None:
        return rows.decisive0
    if mode == kt.RANDOM:
        return kt.no_decisive
    return kt.generic_decisive(
        rows.legal, rows.step, rows.player, rows.reward0, rows.returns, ending
    )


def _kernel() -> Any:
    found: Any = compiled.kernels("mcts_tree", compiled.AGENT_KERNELS)
    return found


def search(
    agent: MCTS,
    game: Game[Any, Any],
    rows: Rows,
    mode: int,
    tree: Tree,
    state: Any,
    search_keys: tuple[Key, Key, Key],
    start_clock: Callable[[], Callable[[], bool]],
    evaluated: bool,
) -> Generator[list[tuple[Any, Key]], list[Evaluation], Tree]:
    """The search from ``state``, reusing ``tree`` where it holds ``state``, as the Python tree
    would run it with the same keys (``k_rng, k_playout, k_noise``; ``tree`` is not changed).

    A generator as ``mcts._simulations`` is: with ``evaluated``, each round's leaves that need
    a value are yielded as a list of ``(state, key)`` (each state made from its row) and their
    evaluations sent back in order, the kernel waiting with those leaves in its arrays (up to
    ``agent.leaves`` a round, under virtual loss); it returns the tree.

    A tree a compiled search returned keeps its arrays: the subtree to reuse is found and copied
    there (``find``, ``extract``), without a ``Node`` per node; another tree goes through
    ``mcts._root`` and is converted node by node. ``start_clock()`` starts a time budget
    (``timing.deadline``): it is called once the kernel has set the root up, so the seconds
    numba takes to compile the tree (or to load it from its cache) on a process's first search
    do not eat the first move's budget.
    """
    import numpy as np

    kt = _kernel()
    k_rng, k_playout, k_noise = search_keys
    _, k_shuffle = keys.split(k_rng)  # the Python tree's shuffle key under draws=counter
    # the stream's seed (kernels/stream.py's ``seed``), typed uint64 whatever its value
    s_shuffle = np.uint64(k_shuffle ^ keys.STREAM_SALT)
    limit = agent.simulations if agent.simulations > 0 else -1
    extra = (2 * limit if limit > 0 else 1024) + 2 * rows.max_moves + 64
    source = tree._arrays if agent.reuse and isinstance(tree._arrays, _Arrays) else None
    if source is not None:
        if game.is_over(state):
            raise ValueError("mcts needs a state where someone is to move; the game is over")
        nodes: list[Node] = [Node(state, None, kt.NONE, game.to_move(state))]
        a = _Arrays.reused(source, rows.row_of(state), nodes[0], rows, extra)
    else:
        nodes = _nodes(_root(agent, game, tree, state))
        a = _Arrays(nodes, rows, extra)
    leaves = agent.leaves  # above 1 only for PUCT with an evaluator (search_many refuses else)
    pend = np.zeros((leaves, kt.PEND_COLUMNS), np.int64)
    paths = np.empty((leaves, game.spec.max_length + 2), np.int64)
    ending = rows.ending if rows.ending is not None else rows.legal  # the tree steps every move
    run = kt.tree(
        rows.legal, rows.step, rows.player, rows.reward0, rows.playout0,
        _decisive0(kt, rows, mode, ending), ending,
    )  # fmt: skip
    puct = agent.select == "puct"
    noise = agent.noise if puct else 0.0
    noise_draws = np.zeros(1, np.float64)
    noise_total = 1.0
    if noise > 0:
        # the root's children are its legal moves, the priors' length
        drawn, noise_total = dirichlet_draws(len(game.legal(state)), agent.alpha, k_noise)
        noise_draws = np.array(drawn, np.float64)
    priors = np.zeros((leaves, rows.max_moves), np.float64)
    values = np.zeros(leaves, np.float64)
    # an evaluated search reads the clock after every round (of ``leaves`` simulations at most),
    # as the Python tree does; with an expansion threshold, after every round that evaluated
    # and at every CHUNK-th simulation
    each_round = evaluated and agent.expand_at == 1
    chunk = leaves if each_round else CHUNK
    passed: Callable[[], bool] | None = None
    timed = False
    sims, base, stop = 0, 0, 0  # the first call sets the root up and runs no simulation
    sim_keys = np.empty(0, np.int64)
    while True:
        status = run(
            rows.ending is not None, mode, rows.max_moves, a.rows, a.ints, a.floats, a.arena,
            a.counters, sim_keys, base, stop, agent.c, s_shuffle, puct, evaluated,
            agent.c_puct * 0.5, noise, noise_draws, noise_total, leaves, agent.expand_at,
            evaluated and timed,
            pend, paths, values, priors,
        )  # fmt: skip
        sims = int(a.counters[kt.SIMS])
        if status == kt.ROOM:
            a.grow()
            continue
        if status == kt.EVALUATE:
            waiting = pend[: int(a.counters[kt.PENDING])].tolist()
            evaluations = yield [
                (rows.state_of(a.rows[v]), keys.Key(int(sim_keys[i - base]) & keys.MASK))
                for v, _, i in waiting
            ]
            for j, ((v, _, _), (given, found)) in enumerate(zip(waiting, evaluations, strict=True)):
                if puct:
                    first, last = int(a.ints[v, kt.FIRST]), int(a.ints[v, kt.LAST])
                    check_priors(given, last - first + 1)  # consecutive, made at once
                    priors[j, : len(given)] = [float(p) for p in given]
                values[j] = float(found)
            continue
        if passed is None:
            passed = start_clock()
            timed = passed is not never
            assert timed or limit > 0, "a search has a budget (check_budget)"
        elif a.floats[0, kt.PROVEN] >= 0.0 or sims == limit or (timed and passed()):
            break
        if a.floats[0, kt.PROVEN] >= 0.0:
            break
        stop = limit
        if timed and each_round:
            stop = sims + chunk  # a round, then the clock
            if limit > 0:
                stop = min(stop, limit)
        elif timed:
            stop = (sims // chunk + 1) * chunk
            if limit > 0:
                stop = min(stop, limit)
        if stop > base + len(sim_keys):
            base = sims
            sim_keys = key_range(k_playout, sims, stop - sims).view(np.int64)
    a.to_nodes(nodes, rows)
    return Tree(nodes[0], sims, arrays=a)


def _nodes(root: Node) -> list[Node]:
    """The subtree's nodes, parents before children (breadth first)."""
    out = [root]
    i = 0
    while i < len(out):
        out.extend(out[i].children)
        i += 1
    return out


class _Arrays:
    """A search's tree as the kernel's arrays: node 0 the root, every node's row filled. Written
    by one search only; once it returns they are read, never written (a ``Tree`` keeps them for
    the next search to copy its subtree from)."""

    def __init__(self, nodes: list[Node], rows: Rows, extra: int) -> None:
        import numpy as np

        kt = _kernel()
        index = {id(node): i for i, node in enumerate(nodes)}
        cap = len(nodes) + extra
        ints = np.zeros((cap, kt.INT_COLUMNS), np.int64)
        floats = np.zeros((cap, kt.FLOAT_COLUMNS), np.float64)
        self.rows = np.zeros((cap, rows.width), np.int64)
        int_rows: list[list[int]] = []
        float_rows: list[list[float]] = []
        links: list[tuple[int, int]] = []
        untried: list[Any] = []
        none = kt.NONE
        for i, node in enumerate(nodes):
            kids = [index[id(ch)] for ch in node.children]
            int_rows.append(
                [node.n, node.mover, node.player, none if node.move is None else node.move,
                 kids[0] if kids else none, none, kids[-1] if kids else none, len(untried),
                 len(node.untried)]
            )  # fmt: skip
            links.extend(pairwise(kids))
            untried.extend(node.untried)
            float_rows.append(
                [node.w, -1.0 if node.proven is None else node.proven, node.lower, node.prior]
            )
            # every row, so that the next search can find its position by rows (``find``)
            self.rows[i] = node.row() if isinstance(node, RowNode) else rows.row_of(node.state)
        ints[: len(nodes)] = int_rows
        for a, b in links:
            ints[a, kt.NEXT] = b
        floats[: len(nodes)] = float_rows
        self.ints = ints
        self.floats = floats
        self.arena = np.zeros(len(untried) + extra * rows.max_moves // 4 + rows.max_moves, np.int64)
        self.arena[: len(untried)] = untried
        self.counters = np.zeros(kt.COUNTERS, np.int64)
        self.counters[kt.SIZE] = len(nodes)
        self.counters[kt.USED] = len(untried)

    @classmethod
    def reused(cls, source: _Arrays, row: Any, fresh: Node, rows: Rows, extra: int) -> _Arrays:
        """The arrays of a search from the position ``row``: its subtree in ``source`` copied
        and made a root as ``mcts._root`` makes a found node one, or ``fresh`` alone where
        ``source`` does not hold it within ``find_subtree``'s depth."""
        import numpy as np

        kt = _kernel()
        size = int(source.counters[kt.SIZE])
        top = kt.find(source.rows, source.ints, size, row, FIND_DEPTH)
        if top < 0:
            return cls([fresh], rows, extra)
        a = cls.__new__(cls)
        cap = size + extra
        a.rows = np.zeros((cap, source.rows.shape[1]), np.int64)
        a.ints = np.zeros((cap, kt.INT_COLUMNS), np.int64)
        a.floats = np.zeros((cap, kt.FLOAT_COLUMNS), np.float64)
        used = int(source.counters[kt.USED])
        a.arena = np.zeros(used + extra * rows.max_moves // 4 + rows.max_moves, np.int64)
        a.counters = np.zeros(kt.COUNTERS, np.int64)
        kt.extract(source.rows, source.ints, source.floats, source.arena, size, top, a.rows,
                   a.ints, a.floats, a.arena, a.counters)  # fmt: skip
        # as mcts._root: the root's w sums player 1's rewards, nobody moved into it, and a
        # proven value is the root's player's
        if a.ints[0, kt.MOVER] == 0:
            a.floats[0, kt.W] = int(a.ints[0, kt.N]) - float(a.floats[0, kt.W])
        a.ints[0, kt.MOVE] = kt.NONE
        a.ints[0, kt.MOVER] = kt.NONE
        if a.floats[0, kt.PROVEN] >= 0.0 and a.ints[0, kt.PLAYER] >= 0:
            a.floats[0, kt.PROVEN] = -1.0
            kt.prove(a.ints, a.floats, 0)
        return a

    def grow(self) -> None:
        """Twice the room for nodes and untried moves."""
        import numpy as np

        self.rows = np.concatenate([self.rows, np.zeros_like(self.rows)])
        self.ints = np.concatenate([self.ints, np.zeros_like(self.ints)])
        self.floats = np.concatenate([self.floats, np.zeros_like(self.floats)])
        self.arena = np.concatenate([self.arena, np.zeros_like(self.arena)])

    def to_nodes(self, nodes: list[Node], rows: Rows) -> None:
        """Write the arrays back: the ``nodes`` the search began with updated in place (their
        new children made as ``RowNode``s), the nodes below read from the arrays when first
        asked for (``_Subtree``)."""
        subtree = _Subtree(self, len(nodes), rows)
        for v, node in enumerate(nodes):
            subtree.fill(node, v)
            node.children = subtree.children(v, nodes)
            node.untried = subtree.untried(v)


class _Subtree:
    """A finished search's arrays, from which ``RowNode``s read their children and untried moves
    when first asked (``mcts.Subtree``), a node's row made plain values as it is read: a search
    whose caller reads a few nodes (alphazero's self-play reads the root's children) pays for
    those only. Arrays and plain values only, so a tree pickles."""

    def __init__(self, arrays: _Arrays, known: int, rows: Rows) -> None:
        kt = _kernel()
        size = int(arrays.counters[kt.SIZE])
        self.ints = arrays.ints[:size]
        self.floats = arrays.floats[:size]
        self.arena = arrays.arena[: int(arrays.counters[kt.USED])]
        self.table = arrays.rows
        # the search's own nodes are rows 0 .. known - 1; the subtree keeps no reference to
        # them, so no cycle (root, its children, their subtree, the root) keeps a dropped tree's
        # arrays, hundreds of MB after seconds of search, waiting for the garbage collector
        self.known = known
        self.state_of = rows.state_of
        self.columns = (kt.N, kt.W, kt.PROVEN, kt.LOWER, kt.PRIOR, kt.FIRST, kt.NEXT, kt.MOVE,
                        kt.MOVER, kt.PLAYER, kt.USTART, kt.UCOUNT)  # fmt: skip

    def fill(self, node: Node, v: int, r: list[int] | None = None) -> None:
        """Node ``v``'s statistics into ``node`` (``r``: its ints as a list, if made already)."""
        n, w, proven, lower, prior = self.columns[:5]
        f = self.floats[v].tolist()
        node.n = (self.ints[v].tolist() if r is None else r)[n]
        node.w = f[w]
        node.proven = None if f[proven] < 0.0 else f[proven]
        node.lower = f[lower]
        node.prior = f[prior]

    def children(self, v: int, own: list[Node] | None = None) -> list[Node]:
        """Node ``v``'s children in order: the search's own nodes (``own``, given while
        ``to_nodes`` fills them; a node made from the arrays has only nodes made after it below
        it), the others made now."""
        ints = self.ints
        first, nxt, move, mover, player = self.columns[5:10]
        known = self.known
        out: list[Node] = []
        ch = int(ints[v, first])
        while ch >= 0:
            r = ints[ch].tolist()
            if ch < known:
                assert own is not None
                out.append(own[ch])
            else:
                node = RowNode(
                    self.table[ch], self.state_of, r[move], r[mover], r[player], self, ch
                )
                self.fill(node, ch, r)
                out.append(node)
            ch = r[nxt]
        return out

    def untried(self, v: int) -> list[Any]:
        """Node ``v``'s untried moves, in order."""
        start, count = self.columns[10:]
        r = self.ints[v].tolist()
        moves: list[Any] = self.arena[r[start] : r[start] + r[count]].tolist()
        return moves
