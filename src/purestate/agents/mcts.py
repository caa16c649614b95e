"""Monte Carlo tree search: UCT with an MCTS-Solver, generic over the Game protocol.

- **UCB1 on rewards in [0, 1]**: a child is scored ``w/n + c·sqrt(ln N / n)`` where ``w`` sums
  the rewards of the player who chose the move into it (``(return + 1) / 2``, clipped to [0, 1]).
  OpenSpiel's ``uct_c = 2`` on [-1, 1] is ``c = 1`` here.
- **Per-node mover.** Every node knows the player to move in it, and every child's statistics are
  kept for the player who moved into it, so a player moving twice in a row is handled exactly.
- **MCTS-Solver with draws and fractional results.** A terminal node's value is exact. A node is
  proven when a child gives its mover the best possible reward (1), or when all its children are
  proven (it takes the best of them, so draws and point margins are proven too). Proven children
  are scored by their exact value in selection; the search stops once the root is proven.
- **Decisive and anti-decisive moves in the tree** (``decisive``, with the solver): a new node
  steps every move once and keeps the game-ending ones as proven children, so an immediate win
  proves the node at once and a move that lets the opponent win at once is a proven loss as soon
  as it is expanded.
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

The hot loop runs on local values and one local ``random.Random`` per ``act`` from
``keys.generator``; simulation ``i`` of a game's own playout kernel uses ``fold_in(key, i)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal

from attrs import field, frozen

from purestate.agents.timing import Clock, check_budget, deadline, never
from purestate.core import keys
from purestate.core.agent import Decision
from purestate.core.game import Game, require_game
from purestate.core.hooks import decisive_playout_of, playout_of
from purestate.core.keys import Key
from purestate.core.spec import format_spec

MoveScores = Callable[[Game[Any, Any], Any], tuple[float, ...]]

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
    """

    __slots__ = (
        "children",
        "h",
        "lower",
        "move",
        "mover",
        "n",
        "player",
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

    def size(self) -> int:
        """The number of nodes in the subtree."""
        total = 0
        stack = [self]
        while stack:
            node = stack.pop()
            total += 1
            stack.extend(node.children)
        return total


def _clone(node: Node) -> Node:
    c = Node(node.state, node.move, node.mover, node.player)
    c.n = node.n
    c.w = node.w
    c.proven = node.proven
    c.untried = list(node.untried)
    c.h = node.h
    c.lower = node.lower
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


def unit_reward(r: float) -> float:
    """A return in [-1, 1] as a reward in [0, 1] (clipped, so margins saturate)."""
    u = (r + 1.0) * 0.5
    return 0.0 if u < 0.0 else 1.0 if u > 1.0 else u


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


@frozen
class MCTS:
    """UCT with an MCTS-Solver, decisive playouts, progressive bias and tree reuse.

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
        draws: What the game's playout kernels draw from: ``counter`` (``keys.stream``, the
            same compiled or not) or ``mersenne`` (``keys.generator``, pure Python: what runs
            before format 3 drew, which ``core/history.py`` gives them).
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
    draws: keys.Draws = "counter"
    # injected functions (init arguments ``clock`` and ``scorer``): not options, not in equality
    _clock: Clock | None = field(default=None, alias="clock", eq=False, repr=False)
    _scorer: MoveScores | None = field(default=None, alias="scorer", eq=False, repr=False)

    learns = False

    def __attrs_post_init__(self) -> None:
        check_budget(self.simulations, self.seconds)
        if self.c < 0 or self.bias < 0:
            raise ValueError("c and bias must not be negative")
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

        Returns:
            A new tree rooted at ``state`` (``tree`` is not changed).

        Raises:
            ValueError: if ``state`` is terminal.
        """
        if game.is_over(state):
            raise ValueError("mcts needs a state where someone is to move; the game is over")
        found = find_subtree(tree, game, state) if self.reuse else None
        if found is not None:
            root = found.copy()
            root.move, root.mover = None, _NONE
            if root.proven is not None and root.player >= 0:
                # a proven value is stored for the mover; the root keeps its own player's
                root.proven = None
                _prove(root)
        else:
            root = Node(state, None, _NONE, game.to_move(state))
        passed = deadline(self._clock, self.seconds, "mcts")
        k_rng, k_playout = keys.split(key)
        rng = keys.generator(k_rng)
        sims = _run(self, game, root, rng, k_playout, passed)
        return Tree(root, sims)


def best_child(root: Node) -> Node:
    """The move to play: a proven win, else the most visited child that is not a proven loss.

    Ties on visits go to the higher mean reward, then to the earlier child.
    """
    children = root.children
    if not children:
        raise ValueError("the root has no expanded children")
    best_value = root.proven

    def rank(ch: Node) -> tuple[int, int, float]:
        pv = ch.proven
        if pv is not None and best_value is not None and pv >= best_value:
            tier = 2  # proves the root's value
        elif pv is not None and pv < 0.5:
            tier = 0
        else:
            tier = 1
        return (tier, ch.n, ch.w / ch.n if ch.n else 0.0)

    return max(children, key=rank)


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


def _run(
    agent: MCTS,
    game: Game[Any, Any],
    root: Node,
    rng: Any,
    k_playout: Key,
    passed: Callable[[], bool],
) -> int:
    """The simulation loop on local values; returns how many simulations ran."""
    legal, step, is_over = game.legal, game.step, game.is_over
    to_move, returns = game.to_move, game.returns
    rand = rng.random
    shuffle = rng.shuffle
    log, sqrt = math.log, math.sqrt
    c = agent.c
    solver = agent.solver
    bias = agent.bias
    scorer = agent.scorer()
    timed = passed is not never  # a seconds budget, or the clock's own limit
    limit = agent.simulations if agent.simulations > 0 else -1
    fast_decisive = decisive_playout_of(game)
    fast_random = playout_of(game)
    draws = agent.draws
    mode = agent.playout
    if mode == "auto":
        # With the game's decisive kernel anti-decisive playouts cost little and win the most;
        # without it, stepping every reply in Python costs b² steps a ply, and the game's random
        # kernel buys more simulations than decisive checks gain.
        if fast_decisive is not None:
            mode = "antidecisive"
        else:
            mode = "random" if fast_random is not None else "decisive"
    eager = agent.decisive and solver
    anti = mode == "antidecisive"
    if mode != "random":
        fast_random = None
    if mode not in ("decisive", "antidecisive"):
        fast_decisive = None

    def expand_moves(node: Node) -> None:
        moves = list(legal(node.state))
        shuffle(moves)
        if eager:
            # the moves that end the game become proven children now: one step per move finds
            # an immediate win (the node is proven) or the only moves that do not lose at once
            p = node.player
            state = node.state
            rest = []
            for m in moves:
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

    def playout(s: Any, i: int) -> float:
        # the reward of player 0, in [0, 1]
        if fast_random is not None:
            return unit_reward(fast_random(s, keys.fold_in(k_playout, i), draws)[0])
        if fast_decisive is not None:
            return unit_reward(fast_decisive(s, keys.fold_in(k_playout, i), anti, draws)[0])
        if mode == "random":
            while not is_over(s):
                ms = legal(s)
                s = step(s, ms[int(rand() * len(ms))])
        elif mode == "heavy":
            assert scorer is not None
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
        else:
            s = decisive_playout(game, s, rand, anti)
        return unit_reward(returns(s)[0])

    if root.player >= 0 and not root.untried and not root.children:
        expand_moves(root)
    if solver and root.proven is None:
        _prove(root)
    sims = 0
    while root.proven is None or not solver:
        # at least one simulation, so the root always has a child to play
        if sims and (sims == limit or (timed and not sims & 15 and passed())):
            break
        node = root
        path = [root]
        # selection and expansion
        while True:
            if node.proven is not None and solver:
                break
            if node.player < 0:
                break
            if node.untried:
                child = make_child(node, node.untried.pop())
                node.children.append(child)
                path.append(child)
                node = child
                break
            lg = c * sqrt(log(node.n)) if node.n > 1 else 0.0
            best: Node | None = None
            best_score = -1.0
            for ch in node.children:
                # A proven child can teach nothing more: the node's lower bound already holds
                # its value, so only unproven children (which might be better) are explored.
                if ch.proven is not None and solver:
                    continue
                n = ch.n
                score = ch.w / n + lg / sqrt(n)
                if bias:
                    score += bias * ch.h / (n + 1)
                if score > best_score:
                    best_score = score
                    best = ch
            if best is None:  # every child proven (only without the solver's bookkeeping)
                best = max(node.children, key=lambda ch: ch.proven or 0.0)
            node = best
            path.append(node)
        # simulation
        if node.proven is not None:
            r0 = node.proven if node.mover == 0 else 1.0 - node.proven
            if node.mover == _NONE:
                r0 = node.proven if node.player == 0 else 1.0 - node.proven
        else:
            r0 = playout(node.state, sims)
        # backup, each node for its own mover; a node with a proven child is worth at least
        # that child's value to its player, so lower results are raised to that bound
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
        if solver and node.proven is not None:
            for i in range(len(path) - 2, -1, -1):
                if not _prove(path[i]):
                    break
        sims += 1
    return sims


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
