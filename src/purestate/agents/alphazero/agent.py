"""``alphazero``: a network trained by its own search, pure and seeded (AlphaZero, 2017).

The table is a frozen value (``Net``): the network's weights, the optimizer's state, the replay
buffer of examples (read-only numpy arrays, replaced and never written), and how many iterations
and games it has seen. Every update returns a new ``Net``; the old one keeps its arrays.

Self-play (the ``FusedSelfplay`` hook, ``selfplay_games``) is how it learns: games are played in
iterations of ``games_per_iteration``, all games of an iteration at once (their searches advance
together and their leaves go to the network in one batch per round), with the weights the table
had when the iteration began. Each position gives an example: the planes seen by the player to
move, the search's visit shares and the game's result for that player. When an iteration's last
game is played, the examples join the replay buffer (the last ``replay`` are kept) and the
network takes ``steps`` Adam steps on minibatches of ``batch`` examples. Keys:

* game ``i`` uses ``fold_in(key, i)`` (``key`` is the run's key), ply ``p`` of it
  ``fold_in(fold_in(key, i), p)``: the root's Dirichlet noise and the move drawn from the visits;
* iteration ``j``'s minibatches use ``fold_in(fold_in(key, TRAIN), j)``;
* the first weights are drawn from ``fold_in(key, INIT)`` when the first game is played: a fresh
  table (``initial_table``) has no network yet, so the run's seed reaches the weights without the
  table needing a key. A table without a network searches with uniform priors and a value of 0.

So a game's moves depend only on its index and the weights of its iteration, whatever else is
played beside it (the network's outputs do not depend on the rest of the batch), and the pieces
(``play_games``: any list of an iteration's games; ``absorb``: their examples into the table)
give the same table for games played in one call, in several, or spread over workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs
from attrs import field, frozen
from pyrsistent import pmap
from pyrsistent.typing import PMap

from purestate.agents.alphazero.network import ALONE, CHUNK, Gradients, Shape, jax_module
from purestate.agents.alphazero.training import Examples, Losses
from purestate.agents.mcts import (
    MCTS,
    KeyedDraws,
    Tree,
    check_expand_at,
    check_leaves,
    choose_move,
    rollout_evaluator,
    search_many,
    visit_distribution,
)
from purestate.agents.timing import Clock, check_budget
from purestate.core import keys
from purestate.core.agent import Decision
from purestate.core.episode import Episode
from purestate.core.game import Game, require_game
from purestate.core.hooks import move_id_count, observation_of, plane_shape_of, planes_of
from purestate.core.keys import Key
from purestate.core.spec import SpecError, format_spec

if TYPE_CHECKING:
    import numpy as np

EXAMPLE_FIELDS = ("planes", "mask", "pi", "z")
"""The arrays of a set of examples, as a table file names them (``replay/planes``, ...)."""

INIT = 0x1A17
"""The fold of the run's key that draws the first weights."""

TRAIN = 0x7EA1
"""The fold of the run's key under which iteration ``j``'s minibatches are drawn."""

EXTRA = "pip install 'purestate[alphazero]'"


def require_jax() -> None:
    """Refuse in one line when JAX or optax is missing, naming the extra that brings them.

    Raises:
        SpecError: naming ``purestate[alphazero]``.
    """
    from importlib.util import find_spec

    if find_spec("jax") is None or find_spec("optax") is None:
        raise SpecError(f"needs JAX and optax: {EXTRA}")  # build() prefixes "alphazero: "


@frozen(eq=False)
class Net:
    """``alphazero``'s table: everything that changes while it learns, as a value.

    Attributes:
        shape: The network's layout (``None`` until the first game: no network yet).
        params: The weights, a persistent map of name to read-only array (``None`` with
            ``shape``).
        opt_state: Adam's state (a pytree of read-only arrays), or ``None``.
        replay: The replay buffer, the last examples of self-play (``None`` with ``shape``).
        pending: Examples of the current iteration's games played so far (they join ``replay``
            when the iteration's last game is played).
        iterations: Training iterations done.
        games: Self-play games played.
        losses: The mean losses of the last iteration's training.
        tree: The search tree of the last move played from this table in a game (``act``,
            ``greedy_decision``), which the next move's search reuses where it holds the
            position (``AlphaZero.reuse``); ``None`` in a table that has not moved. A
            decision's table, dropped when the game ends: never saved, never sent to workers.
    """

    shape: Shape | None = None
    params: PMap[str, np.ndarray] | None = None
    opt_state: Any = None
    replay: Examples | None = None
    pending: Examples | None = None
    iterations: int = 0
    games: int = 0
    losses: Losses = field(factory=Losses)
    tree: Tree | None = None


@frozen
class Played:
    """Some games of one iteration, played: what ``absorb`` adds to a table.

    Attributes:
        indices: The games' numbers in the run, in order.
        episodes: The games.
        examples: Their positions as training examples, game after game in ``indices`` order.
    """

    indices: tuple[int, ...]
    episodes: tuple[Episode, ...]
    examples: Examples


@frozen
class Job:
    """Some games of an iteration to play elsewhere (a worker process, a cluster): plain values
    that pickle, for ``play_job``.

    Attributes:
        agent: The agent's spec string.
        game: The game's spec string.
        table: What ``play_games`` reads of the table: the network (``AlphaZero.playing``).
        key: The run's key.
        indices: The games' numbers in the run.
    """

    agent: str
    game: str
    table: Net
    key: Key
    indices: tuple[int, ...]


def play_job(job: Job) -> Played:
    """The games of ``job``, played: ``play_games`` of the job's agent and game (a module-level
    function, so an executor can send it to its workers)."""
    from purestate.core.registry import agent, make_spec

    learner = agent(job.agent)
    assert isinstance(learner, AlphaZero)
    return learner.play_games(make_spec(job.game), job.table, job.key, job.indices)


@frozen
class AlphaZero:
    """AlphaZero-style learning: a network's priors and value guide PUCT search, and the network
    learns from its own search by self-play.

    Attributes:
        simulations: Simulations per move (deterministic budget; 0 = none, then ``seconds``).
        seconds: Time per move (0 = none); needs the clock the shell injects.
        c_puct: PUCT's exploration constant (prior-weighted).
        alpha: Dirichlet noise concentration at the root while exploring.
        epsilon: Share of Dirichlet noise in the root's priors while exploring (0 = none).
        temperature_moves: Self-play plies with moves drawn in proportion to the visits
            (temperature 1); after them, and in greedy play, the most visited move.
        width: Units per layer (MLP) or channels (conv net).
        depth: Residual blocks.
        lr: Adam's learning rate.
        batch: Examples per training step.
        replay: Examples kept in the replay buffer (the most recent).
        games_per_iteration: Self-play games per training iteration (played at once).
        steps: Training steps per iteration.
        augment: Learn each position under every symmetry of the game too (the planes of the
            transformed position, the visit shares moved with the moves).
        gradients: How training differentiates the conv net's convolutions: ``nhwc`` (written
            in the forward layout, see ``network.nhwc_convolution``) or ``autodiff`` (JAX's own:
            equal up to rounding, about 20 times slower on a CPU; what runs before format 4
            trained with, ``core.history``). The MLP ignores it.
        leaves: The leaves a single search (``act``, ``greedy``) collects under virtual loss
            for one network call (``mcts.MCTS.leaves``), computed in chunks of
            ``network.CHUNK`` rows when above 1 (``network.ALONE`` at 1). Self-play's trees
            take one leaf a round each whatever it says: its many trees fill the chunks.
        expand_at: The search's expansion threshold (``mcts.MCTS.expand_at``, AlphaGo's): a
            leaf other than the root is sent to the network at its ``expand_at``-th visit, and
            valued by one of ``mcts``'s playouts (``playout=auto``) before that. 1 (the
            default) is AlphaZero's search: every leaf goes to the network.
        mix: The weight λ of a playout in a leaf's value (AlphaGo's mixed evaluation): the
            network's value times ``1 - λ`` plus λ times the result of one ``mcts`` playout
            from the leaf with its simulation's key. 0 (the default) is the network alone.
        draws: What the playouts of ``expand_at`` and ``mix`` draw from on a game without a
            playout kernel of its own (tic-tac-toe, dots and boxes, Tron): ``counter`` (each
            from its simulation's key, as ``mcts`` plays them) or ``shared`` (the search's one
            generator below the threshold, the leaf key's generator in ``mix``: what runs of
            format 4 drew, ``core.history``).
        reuse: In play (``act``, and ``greedy_decision``: ``evaluate``, ``play``,
            ``tournament``, the browser), keep the subtree of the current position from the
            previous move's search, as ``mcts`` does: the decision's table holds the tree.
            Self-play always reuses its trees. ``greedy`` from a table that has not moved
            (``analyze``'s judgment of each position) searches afresh.
    """

    simulations: int = 64
    seconds: float = 0.0
    c_puct: float = 1.5
    alpha: float = 0.5
    epsilon: float = 0.25
    temperature_moves: int = 4
    width: int = 64
    depth: int = 2
    lr: float = 0.002
    batch: int = 128
    replay: int = 20000
    games_per_iteration: int = 32
    steps: int = 100
    augment: bool = True
    gradients: Gradients = "nhwc"
    leaves: int = 1
    expand_at: int = 1
    mix: float = 0.0
    draws: KeyedDraws = "counter"
    reuse: bool = True
    _clock: Clock | None = field(default=None, alias="clock", eq=False, repr=False)

    learns = True
    selfplay_tables = "only"  # its examples are its own search's, from both seats

    def __attrs_post_init__(self) -> None:
        require_jax()
        check_budget(self.simulations, self.seconds)
        for name in ("width", "depth", "batch", "replay", "games_per_iteration"):
            if getattr(self, name) < (0 if name == "depth" else 1):
                raise ValueError(f"{name} must be at least {0 if name == 'depth' else 1}")
        check_leaves(self.leaves)  # here, not only when a search makes its MCTS
        check_expand_at(self.expand_at)
        if not 0.0 <= self.mix <= 1.0:
            raise ValueError("mix (a playout's weight in a leaf's value) must be in [0, 1]")
        if self.steps < 0 or self.temperature_moves < 0:
            raise ValueError("steps and temperature_moves must not be negative")
        if not self.c_puct >= 0 or not self.alpha > 0 or not 0 <= self.epsilon <= 1:
            raise ValueError("c_puct must be >= 0, alpha > 0 and epsilon in [0, 1]")
        if not self.lr > 0:
            raise ValueError("lr must be positive")

    @property
    def spec(self) -> str:
        """The spec string, e.g. ``alphazero:simulations=100,width=32``."""
        return format_spec("alphazero", self)

    # -- the game ------------------------------------------------------------------------------

    def check_game(self, game: Game[Any, Any]) -> None:
        """Refuse (one line) a game without observation planes or with moves that are not ids.

        Raises:
            SpecError: naming what the game lacks.
        """
        if planes_of(game) is None:
            raise SpecError(f"alphazero needs observation planes; {game.spec.name} has none")
        move_id_count(game)

    def shape(self, game: Game[Any, Any]) -> Shape:
        """The network this agent builds for ``game``."""
        planes = plane_shape_of(game)
        assert planes is not None
        return Shape.of(planes, move_id_count(game), self.width, self.depth)

    # -- the table -----------------------------------------------------------------------------

    def initial_table(self, game: Game[Any, Any], seat: int) -> Net:
        """A table without a network: its first weights are drawn from the run's key when
        self-play starts (``selfplay_games``); until then the search has uniform priors and a
        value of 0. Refuses a game without planes or move ids."""
        self.check_game(game)
        return Net()

    def learn(self, game: Game[Any, Any], table: Any, episode: Any, seat: int) -> Any:
        """The table as it was: ``alphazero`` learns only through its own self-play loop
        (``selfplay_games``), whose examples hold the search's visit counts that an episode does
        not keep."""
        return table

    def with_network(self, game: Game[Any, Any], table: Net, key: Key) -> Net:
        """``table`` with a network: its own, or fresh weights drawn from ``fold_in(key, INIT)``
        and a fresh optimizer state (``key`` is the run's key)."""
        if table.params is not None:
            return table
        from purestate.agents.alphazero.network import init
        from purestate.agents.alphazero.training import frozen_array, initial_state

        shape = self.shape(game)
        k = keys.fold_in(key, INIT)
        fresh = init(shape, (k >> 32, k & 0xFFFFFFFF))
        params = pmap({n: frozen_array(w) for n, w in fresh.items()})
        state = _frozen_tree(initial_state(self.lr, dict(params)))
        return attrs.evolve(
            table,
            shape=shape,
            params=params,
            opt_state=state,
            replay=Examples.empty(shape),
            pending=Examples.empty(shape),
        )

    def positions(self, game: Game[Any, Any], table: Any) -> list[Any]:
        """Every non-terminal position reachable from the start: a network has a move for each,
        so ``analyze`` judges them all (a game too large to enumerate is refused, ``TooLarge``).
        """
        from purestate.solve.counts import reachable

        return [s for s in reachable(game) if not game.is_over(s)]

    # -- the table file (the ``ArrayTable`` hook) ---------------------------------------------

    table_format = "purestate.alphazero/1"

    def table_to_arrays(
        self, game: Game[Any, Any], table: Net
    ) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """The table as JSON-ready meta (the network's layout, the counters, the last losses)
        and named arrays: ``params/NAME`` (the weights), ``optimizer/I`` (Adam's state, its
        leaves in JAX's tree order), ``replay/FIELD`` and ``pending/FIELD`` (the examples)."""
        meta: dict[str, Any] = {
            "network": None,
            "iterations": table.iterations,
            "games": table.games,
            "losses": attrs.asdict(table.losses),
        }
        arrays: dict[str, np.ndarray] = {}
        if table.shape is None or table.params is None:
            return meta, arrays
        jax = jax_module()

        shape = table.shape
        meta["network"] = {
            "planes": list(shape.planes),
            "moves": shape.moves,
            "width": shape.width,
            "depth": shape.depth,
            "conv": shape.conv,
        }
        for name, w in table.params.items():
            arrays[f"params/{name}"] = w
        for i, leaf in enumerate(jax.tree_util.tree_leaves(table.opt_state)):
            arrays[f"optimizer/{i}"] = leaf
        for part, examples in (("replay", table.replay), ("pending", table.pending)):
            assert examples is not None
            for name in EXAMPLE_FIELDS:
                arrays[f"{part}/{name}"] = getattr(examples, name)
        return meta, arrays

    def table_from_arrays(
        self, game: Game[Any, Any], meta: dict[str, Any], arrays: dict[str, np.ndarray]
    ) -> Net:
        """The table from ``table_to_arrays``'s meta and arrays, checked against this agent and
        ``game``: the network's layout, every array's name, shape and dtype, finite weights,
        visit shares in [0, 1] on legal moves only, results in [-1, 1].

        Raises:
            ValueError: one line saying what does not fit.
        """
        return table_from_arrays(self, game, meta, arrays)

    # -- evaluation and search -----------------------------------------------------------------

    def evaluator(self, table: Net, rows: int = CHUNK) -> Any:
        """The search's evaluator for ``table``: for each state, the priors over its legal moves
        (in ``legal`` order) and the value for its player to move, computed in chunks of
        ``rows`` (``network.CHUNK`` for self-play's many trees, ``ALONE`` for one search),
        with the weights placed in JAX once for all its calls (``network.placed``); with
        ``mix``, each value is mixed with a playout's from the leaf's key."""
        weights = None
        if table.params is not None:
            from purestate.agents.alphazero.network import placed

            weights = placed(table.params)
        if not self.mix:
            return lambda game, states, ks: evaluations(game, table, states, rows, weights)
        lam = self.mix
        playouts = rollout_evaluator("auto", draws=self.draws)

        def mixed(game: Game[Any, Any], states: Sequence[Any], ks: Sequence[Key]) -> list[Any]:
            found = evaluations(game, table, states, rows, weights)
            rolled = playouts(game, states, ks)
            return [
                (priors, (1.0 - lam) * v + lam * float(z))
                for (priors, v), (_, z) in zip(found, rolled, strict=True)
            ]

        return mixed

    def searcher(self, explore: bool, leaves: int = 1) -> MCTS:
        """The PUCT search this agent runs (``agents.mcts``): Dirichlet noise at the root while
        exploring, none in greedy play, ``leaves`` leaves a round; the evaluator is passed to
        each search."""
        return MCTS(
            simulations=self.simulations,
            seconds=self.seconds,
            select="puct",
            c_puct=self.c_puct,
            noise=self.epsilon if explore else 0.0,
            alpha=self.alpha,
            leaves=leaves,
            expand_at=self.expand_at,
            draws=self.draws,
            clock=self._clock,
        )

    def search(
        self,
        game: Game[Any, Any],
        table: Net,
        trees: Sequence[Tree],
        states: Sequence[Any],
        ks: Sequence[Key],
        explore: bool,
        rows: int = CHUNK,
        leaves: int = 1,
    ) -> list[Tree]:
        """PUCT searches from ``states`` at once (one key and one tree to reuse each), their
        leaves (up to ``leaves`` a tree) evaluated by the table's network in one batch per
        round, in chunks of ``rows``."""
        evaluator = self.evaluator(table, rows)
        return search_many(self.searcher(explore, leaves), game, trees, states, ks, evaluator)

    def single(self, game: Game[Any, Any], table: Net, state: Any, key: Key, explore: bool) -> Tree:
        """One search from ``state`` with the agent's ``leaves``: a leaf at a time computed
        alone (``network.ALONE``, the cheapest way), or the leaves of a round in chunks of
        ``network.CHUNK`` rows; from the table's tree where it holds ``state`` (``reuse``)."""
        rows = ALONE if self.leaves == 1 else CHUNK
        previous = table.tree if self.reuse and table.tree is not None else Tree()
        return self.search(game, table, [previous], [state], [key], explore, rows, self.leaves)[0]

    def without_tree(self, table: Any) -> Any:
        """``table`` without the tree of its last move (``KeepsTree``): the network kept."""
        return attrs.evolve(table, tree=None) if isinstance(table, Net) and table.tree else table

    def _moved(self, table: Net, tree: Tree) -> Net | None:
        """The decision's table: ``table`` holding ``tree`` for the next move (``reuse``)."""
        return attrs.evolve(table, tree=tree) if self.reuse else None

    def act(self, game: Game[Any, Any], table: Any, state: Any, key: Key) -> Decision[Any]:
        """Search from ``state`` with root noise and play a move drawn in proportion to the
        visits (temperature 1): the exploring policy. ``greedy`` plays the most visited move.
        The decision's table holds the tree for the next move (``reuse``)."""
        require_game(game, state)
        self.check_game(game)
        net = table if isinstance(table, Net) else Net()
        k_search, k_move = keys.split(key)
        tree = self.single(game, net, state, k_search, True)
        return Decision(choose_move(game, tree, 1.0, k_move), self._moved(net, tree))

    def greedy_decision(self, game: Game[Any, Any], table: Any, state: Any) -> Decision[Any]:
        """The search's best move without noise (a proven win, else the most visited move),
        searched from the table's tree where it holds ``state``; the decision's table holds the
        new tree for the next move (``reuse``): ``Greedy``'s play, and so ``evaluate``'s."""
        require_game(game, state)
        net = table if isinstance(table, Net) else Net()
        tree = self.single(game, net, state, keys.key(0), False)
        return Decision(choose_move(game, tree, 0.0, keys.key(0)), self._moved(net, tree))

    def greedy(self, game: Game[Any, Any], table: Any, state: Any) -> Any:
        """``greedy_decision``'s move: from a table that has not moved (``analyze``'s, a file's),
        a fresh search of ``state``."""
        return self.greedy_decision(game, table, state).move

    # -- self-play -----------------------------------------------------------------------------

    def play_games(
        self, game: Game[Any, Any], table: Net, key: Key, indices: Sequence[int]
    ) -> Played:
        """Self-play games ``indices`` of the run with ``key`` (the run's key), all at once, with
        the table's weights: pure, and each game the same whatever else is played beside it.

        ``table`` must already have its network (``with_network``); the games are meant to lie
        in one iteration (``absorb`` checks).
        """
        import numpy as np

        shape = table.shape
        assert shape is not None, "play_games needs a table with a network (with_network)"
        planes = planes_of(game)
        assert planes is not None
        n = len(indices)
        gkeys = [keys.fold_in(key, i) for i in indices]
        states = [game.initial()] * n
        history: list[list[Any]] = [[game.initial()] for _ in range(n)]
        moves: list[list[Any]] = [[] for _ in range(n)]
        movers: list[list[int]] = [[] for _ in range(n)]
        rows: list[list[tuple[Any, Any, Any, int]]] = [[] for _ in range(n)]
        symmetries = game.symmetries if self.augment else (0,)
        observe = observation_of(game)
        trees = [Tree()] * n
        ply = 0
        while True:
            active = [g for g in range(n) if not game.is_over(states[g])]
            if not active:
                break
            # each player searches and learns from what it may see, as ``play`` shows it
            seen = {g: states[g] if observe is None else observe(states[g], game.to_move(states[g]))
                    for g in active}  # fmt: skip
            plies = [keys.split(keys.fold_in(gkeys[g], ply)) for g in active]
            found = self.search(game, table, [trees[g] for g in active], [seen[g] for g in active],
                                [p[0] for p in plies], explore=True)  # fmt: skip
            temperature = 1.0 if ply < self.temperature_moves else 0.0
            for g, tree, (_, k_move) in zip(active, found, plies, strict=True):
                s = states[g]
                p = game.to_move(s)
                shares = visit_distribution(game, tree)
                rows[g].extend(
                    (planes(image, p), mask, pi, p)
                    for image, mask, pi in images(game, seen[g], shares, shape.moves, symmetries)
                )
                m = choose_move(game, tree, temperature, k_move)
                movers[g].append(p)
                moves[g].append(m)
                states[g] = game.step(s, m)
                history[g].append(states[g])
                trees[g] = tree
            ply += 1
        episodes = []
        x, masks, pis, zs = [], [], [], []
        for g in range(n):
            returns = game.returns(states[g])
            episodes.append(Episode(tuple(history[g]), tuple(moves[g]), tuple(movers[g]), returns))
            for obs, mask, pi, p in rows[g]:
                x.append(obs)
                masks.append(mask)
                pis.append(pi)
                zs.append(min(1.0, max(-1.0, returns[p])))  # margins saturate, as in mcts
        if not x:
            return Played(tuple(indices), tuple(episodes), Examples.empty(shape))
        examples = Examples.of(np.stack(x), np.stack(masks), np.stack(pis), np.array(zs))
        return Played(tuple(indices), tuple(episodes), examples)

    def absorb(self, game: Game[Any, Any], table: Net, played: Sequence[Played], key: Key) -> Net:
        """``table`` after the games ``played`` (the next games of the run, in order): their
        examples, and a training iteration when the iteration's last game is among them.

        Raises:
            ValueError: if the games are not the table's next games, or cross an iteration's end.
        """
        assert table.pending is not None and table.replay is not None
        indices = [i for p in played for i in p.indices]
        expected = list(range(table.games, table.games + len(indices)))
        if indices != expected:
            raise ValueError(
                f"the table has played {table.games} games; these are games {indices[:3]}..."
            )
        g = self.games_per_iteration
        end = table.games + len(indices)
        if indices and (end - 1) // g != table.games // g:
            raise ValueError(f"games {indices[0]}..{end - 1} cross an iteration of {g} games")
        pending = table.pending.then([p.examples for p in played], 1 << 62)
        table = attrs.evolve(table, pending=pending, games=end)
        if end % g == 0 and indices:
            table = self.train(game, table, key)
        return table

    def train(self, game: Game[Any, Any], table: Net, key: Key) -> Net:
        """The iteration's training: the pending examples join the replay buffer and the network
        takes ``steps`` steps on minibatches drawn from ``fold_in(fold_in(key, TRAIN), j)``."""
        from purestate.agents.alphazero.training import train

        assert table.shape is not None and table.params is not None
        assert table.replay is not None and table.pending is not None
        replay = table.replay.then([table.pending], self.replay)
        k = keys.fold_in(keys.fold_in(key, TRAIN), table.iterations)
        params, state, losses = train(
            table.shape,
            self.lr,
            table.params,
            table.opt_state,
            replay,
            k,
            self.steps,
            self.batch,
            self.gradients,
        )
        return attrs.evolve(
            table,
            params=pmap(params),
            opt_state=state,
            replay=replay,
            pending=Examples.empty(table.shape),
            iterations=table.iterations + 1,
            losses=losses,
        )

    def iterations(self, start: int, games: int) -> list[range]:
        """Games ``start`` .. ``start + games - 1`` cut at the ends of iterations: the ranges
        ``play_games`` may play at once (or spread over workers) before ``absorb``."""
        g = self.games_per_iteration
        out, done, end = [], start, start + games
        while done < end:
            stop = min(end, (done // g + 1) * g)
            out.append(range(done, stop))
            done = stop
        return out

    def playing(self, table: Net) -> Net:
        """The table with only what ``play_games`` reads (the layout and the weights), cheap to
        send to workers."""
        return Net(shape=table.shape, params=table.params, games=table.games)  # no tree

    def jobs(
        self, game: Game[Any, Any], table: Net, key: Key, part: Sequence[int], count: int
    ) -> list[Job]:
        """The games ``part`` (within one iteration, see ``iterations``) as ``count`` jobs of
        consecutive games, for ``play_job`` on an executor; ``absorb`` takes the results in
        order. The table must have its network (``with_network``)."""
        from purestate.core.record import game_spec

        games = list(part)
        size = -(-len(games) // max(1, count))
        light, spec = self.playing(table), game_spec(game)
        return [
            Job(self.spec, spec, light, key, tuple(games[i : i + size]))
            for i in range(0, len(games), size)
        ]

    def selfplay_games(
        self, game: Game[Any, Any], table: Any, key: Key, games: int, start: int = 0
    ) -> tuple[Net, tuple[Episode, ...]]:
        """Games ``start`` .. ``start + games - 1`` of self-play: the table after the last and
        the episodes.

        Played an iteration at a time (the part of it in this range): all at once, then absorbed,
        so the same games in one call or in several give the same table. ``start`` must be the
        number of games the table has played.
        """
        self.check_game(game)
        net = self.with_network(game, table if isinstance(table, Net) else Net(), key)
        if net.games != start:
            raise ValueError(f"the table has played {net.games} games, not {start}")
        episodes: list[Episode] = []
        for part in self.iterations(start, games):
            played = self.play_games(game, net, key, part)
            net = self.absorb(game, net, [played], key)
            episodes.extend(played.episodes)
        return net, tuple(episodes)


def _frozen_tree(tree: Any) -> Any:
    jax = jax_module()

    from purestate.agents.alphazero.training import frozen_array

    return jax.tree_util.tree_map(frozen_array, tree)


def images(
    game: Game[Any, Any],
    state: Any,
    shares: Sequence[float],
    moves: int,
    symmetries: Sequence[int],
) -> list[tuple[Any, np.ndarray, np.ndarray]]:
    """``state`` under each of ``symmetries``, with its legal moves as a mask over the move ids
    and the visit ``shares`` (over ``legal(state)``, in order) moved with the moves."""
    import numpy as np

    legal = game.legal(state)
    out = []
    for sym in symmetries:
        image = game.transform(state, sym) if sym else state
        ids = [game.transform_move(m, sym) for m in legal] if sym else list(legal)
        mask = np.zeros(moves, bool)
        pi = np.zeros(moves, np.float32)
        mask[ids] = True
        pi[ids] = shares
        out.append((image, mask, pi))
    return out


def evaluations(
    game: Game[Any, Any],
    table: Net,
    states: Sequence[Any],
    rows: int = CHUNK,
    weights: Any = None,
) -> list[tuple[tuple[float, ...], float]]:
    """The network's priors over each state's legal moves (in ``legal`` order) and its value for
    the player to move, computed in chunks of ``rows`` (``network.evaluate``), with ``weights``
    the table's parameters ``network.placed`` (None: the table's own); uniform priors and 0
    for a table without a network."""
    if table.params is None or table.shape is None:
        out = []
        for s in states:
            n = len(game.legal(s))
            out.append(((1.0 / n,) * n, 0.0))
        return out
    import numpy as np

    planes = planes_of(game)
    assert planes is not None
    shape = table.shape
    from purestate.agents.alphazero.network import evaluate

    x = np.zeros((len(states), *shape.planes), np.float32)
    mask = np.zeros((len(states), shape.moves), bool)
    legal = []
    for i, s in enumerate(states):
        x[i] = planes(s, game.to_move(s))
        ms = game.legal(s)
        mask[i, list(ms)] = True
        legal.append(ms)
    priors, values = evaluate(shape, table.params if weights is None else weights, x, mask, rows)
    return [
        (tuple(float(p) for p in priors[i, list(ms)]), float(values[i]))
        for i, ms in enumerate(legal)
    ]


def table_from_arrays(
    agent: AlphaZero, game: Game[Any, Any], meta: dict[str, Any], arrays: dict[str, np.ndarray]
) -> Net:
    """``AlphaZero.table_from_arrays``: the checks, one line each.

    Raises:
        ValueError: for meta or arrays that do not fit ``agent`` and ``game``.
    """
    jax = jax_module()
    import numpy as np

    from purestate.agents.alphazero.network import layers
    from purestate.agents.alphazero.training import frozen_array, initial_state

    def count(name: str) -> int:
        v = meta.get(name)
        if type(v) is not int or v < 0:
            raise ValueError(f"{name!r} is {v!r}, not a count")
        return v

    iterations, games = count("iterations"), count("games")
    losses = meta.get("losses")
    if not isinstance(losses, dict) or set(losses) != {"total", "policy", "value"}:
        raise ValueError(f"'losses' is {losses!r}, not the total, policy and value losses")
    if not all(type(v) in (int, float) and np.isfinite(v) for v in losses.values()):
        raise ValueError(f"'losses' holds a value that is not a finite number: {losses!r}")
    last = Losses(**{k: float(v) for k, v in losses.items()})
    network = meta.get("network")
    if network is None:
        if arrays or games or iterations:
            raise ValueError("a table without a network has played no games and holds no arrays")
        return Net(losses=last)
    shape = agent.shape(game)
    mine = {"planes": list(shape.planes), "moves": shape.moves, "width": shape.width,
            "depth": shape.depth, "conv": shape.conv}  # fmt: skip
    if network != mine:
        raise ValueError(f"the table's network is {network}; {agent.spec} on this game has {mine}")
    remaining = dict(arrays)

    def take(name: str, dims: tuple[int, ...] | None, dtype: Any) -> np.ndarray:
        if name not in remaining:
            raise ValueError(f"array {name!r} is missing")
        a = np.asarray(remaining.pop(name))
        want = np.dtype(dtype)
        if a.dtype != want or (dims is not None and a.shape != dims):
            raise ValueError(
                f"array {name!r} is {a.dtype}{list(a.shape)}, not {want}{list(dims or ())}"
            )
        if a.dtype.kind == "f" and not np.isfinite(a).all():
            raise ValueError(f"array {name!r} holds a number that is not finite")
        return a

    params = {name: take(f"params/{name}", dims, "float32") for name, dims, _ in layers(shape)}
    leaves, tree = jax.tree_util.tree_flatten(initial_state(agent.lr, params))
    state = jax.tree_util.tree_unflatten(
        tree,
        [take(f"optimizer/{i}", np.shape(leaf), np.asarray(leaf).dtype)
         for i, leaf in enumerate(leaves)],
    )  # fmt: skip

    def examples(part: str, most: int | None) -> Examples:
        z = take(f"{part}/z", None, "float32")
        if z.ndim != 1 or (most is not None and len(z) > most):
            raise ValueError(f"array '{part}/z' has shape {list(z.shape)}, not [n], n <= {most}")
        n = len(z)
        planes = take(f"{part}/planes", (n, *shape.planes), "int8")
        mask = take(f"{part}/mask", (n, shape.moves), "bool")
        pi = take(f"{part}/pi", (n, shape.moves), "float32")
        if ((planes != 0) & (planes != 1)).any():
            raise ValueError(f"array '{part}/planes' holds a value other than 0 and 1")
        if (pi < 0).any() or (pi > 1).any() or (pi[~mask] != 0).any():
            raise ValueError(
                f"array '{part}/pi' holds a share outside [0, 1] or on an illegal move"
            )
        if (np.abs(z) > 1).any():
            raise ValueError(f"array '{part}/z' holds a result outside [-1, 1]")
        return Examples.of(planes, mask, pi, z)

    replay = examples("replay", agent.replay)
    pending = examples("pending", None)
    if remaining:
        raise ValueError(f"unexpected arrays: {', '.join(sorted(remaining))}")
    return Net(
        shape=shape,
        params=pmap({n: frozen_array(w) for n, w in params.items()}),
        opt_state=_frozen_tree(state),
        replay=replay,
        pending=pending,
        iterations=iterations,
        games=games,
        losses=last,
    )
