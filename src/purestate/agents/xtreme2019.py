"""The 2019 Xtreme tic-tac-toe bot (``xtreme2019``, formerly ``seedbot``), rebuilt from its
README so that other agents can be measured against it.

The 2019 bot (an MCTS bot that won a 72-team Xtreme tic-tac-toe tournament) works like this, and
so does this agent, generic over the Game protocol with the heuristic injected:

1. **Pre-expansion, once per move.** The tree is built to ``depth`` plies (3 in the 2019 bot). A
   node's children are ordered by the heuristic score of their move, best first. A node below the
   root gets children only when its branching factor is below ``width`` (19 in the 2019 bot), and
   a move that ends the game is a leaf (the 2019 bot cut branches whose heuristic said "won").
2. **Selection** descends only through this fixed tree, by UCB with ``c = sqrt(2)`` and
   ``sqrt(ln N / n)``; unvisited children first, in heuristic order. A node counts the bot's wins;
   where the opponent chooses, the child is scored ``1 - w/n``.
3. **Heavy playouts** from the leaf: each move drawn with probability proportional to its score
   (``playout=random`` for vanilla playouts).
4. **Backup**: a win is 1, a loss *and a draw* are 0, for the bot.
5. **The move** with the highest win rate at the root, visits breaking ties.
6. **Memory retention**: the subtree of the position reached after the opponent's reply is kept
   and expanded again to ``depth`` (``reuse``).

What the 2019 bot got wrong is kept on purpose (draws as losses, win rate instead of visits, no
incremental expansion): this agent is a yardstick. Its README's UCB without the square root is
not kept: the 2019 bot's own code has the square root.

The heuristic is a per-move score function ``move_scores(game, state) -> tuple[float, ...]``,
one non-negative score per move of ``game.legal(state)`` in that order (the registry's
``_MOVE_SCORES``, e.g. ``xtreme2019:scores=uttt``), or injected as ``Xtreme2019(scorer=fn)``.
Without one every move scores 1 (uniform ordering and playouts).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal

from attrs import field, frozen

from purestate.agents.mcts import MoveScores, Node, Tree, find_subtree
from purestate.agents.timing import Clock, check_budget, deadline, never
from purestate.core import keys
from purestate.core.agent import Decision
from purestate.core.game import Game
from purestate.core.keys import Key
from purestate.core.spec import format_spec


def _uniform(game: Game[Any, Any], state: Any) -> tuple[float, ...]:
    return (1.0,) * len(game.legal(state))


@frozen
class Xtreme2019:
    """The 2019 bot's MCTS: fixed depth-3 tree, heuristic ordering, heavy playouts, UCB.

    Attributes:
        simulations: Simulations per move (0 = none, then ``seconds``).
        seconds: Time per move (the 2019 bot used 20 s of 24 s); needs the injected clock.
        c: The UCB constant (sqrt(2) in the 2019 bot's code).
        depth: Plies pre-expanded below the root.
        width: Nodes below the root are expanded only with fewer legal moves than this.
        playout: ``heavy`` (moves in proportion to the scores) or ``random``.
        scores: The name of registered per-move scores (empty: every move scores 1).
        reuse: Keep the subtree of the position after the opponent's reply.
    """

    simulations: int = 1000
    seconds: float = 0.0
    c: float = math.sqrt(2.0)
    depth: int = 3
    width: int = 19
    playout: Literal["heavy", "random"] = "heavy"
    scores: str = ""
    reuse: bool = True
    _clock: Clock | None = field(default=None, alias="clock", eq=False, repr=False)
    _scorer: MoveScores | None = field(default=None, alias="scorer", eq=False, repr=False)

    learns = False

    def __attrs_post_init__(self) -> None:
        check_budget(self.simulations, self.seconds)
        if self.depth < 1 or self.width < 1 or self.c < 0:
            raise ValueError("depth and width must be at least 1 and c not negative")
        if self.scores:
            from purestate.core import registry

            registry.require_move_scores(self.scores)

    @property
    def spec(self) -> str:
        """The spec string, e.g. ``xtreme2019:scores=uttt,seconds=1``."""
        return format_spec("xtreme2019", self)

    def scorer(self) -> MoveScores:
        """The injected or registered per-move scores, or uniform scores."""
        from purestate.core import registry

        return registry.chosen_move_scores(self._scorer, self.scores) or _uniform

    def check_game(self, game: Game[Any, Any]) -> None:
        """Refuse (``SpecError``, one line) a game the registered move scores are not made for
        (``scores=uttt`` plays the big boards only)."""
        if self.scores:
            from purestate.core import registry

            registry.check_plays("move scores", self.scores, game)

    def initial_table(self, game: Game[Any, Any], seat: int) -> Tree:
        """An empty tree; refuses a game the move scores are not made for."""
        self.check_game(game)
        return Tree()

    def learn(self, game: Game[Any, Any], table: Any, episode: Any, seat: int) -> Any:
        """The 2019 bot does not learn between games."""
        return table

    def without_tree(self, table: Any) -> Tree:
        """An empty tree: the table holds nothing but the tree (``KeepsTree``)."""
        return Tree()

    def act(self, game: Game[Any, Any], table: Any, state: Any, key: Key) -> Decision[Any]:
        """Pre-expand, simulate, and play the child with the best win rate."""
        tree = self.search(game, table if isinstance(table, Tree) else Tree(), state, key)
        assert tree.root is not None
        best = max(tree.root.children, key=lambda ch: (ch.w / ch.n if ch.n else 0.0, ch.n))
        return Decision(best.move, table=tree)

    def search(self, game: Game[Any, Any], tree: Tree, state: Any, key: Key) -> Tree:
        """Run the 2019 bot's search from ``state``; returns a new tree (``tree`` is not changed).

        Every node's ``w`` counts the wins of the player to move at the root.
        """
        self.check_game(game)
        if game.is_over(state):
            raise ValueError("xtreme2019 needs a state where someone is to move; the game is over")
        me = game.to_move(state)
        found = find_subtree(tree, game, state) if self.reuse else None
        if found is not None and tree.root is not None and tree.root.player == me:
            root = found.copy()
            root.move, root.mover = None, -1
        else:
            root = Node(state, None, -1, me)
        scorer = self.scorer()
        _expand(game, scorer, root, self.depth, self.width, True)
        passed = deadline(self._clock, self.seconds, "xtreme2019")
        rng = keys.generator(key)
        sims = self._simulate(game, scorer, root, me, rng.random, passed)
        return Tree(root, sims)

    def _simulate(
        self,
        game: Game[Any, Any],
        scorer: MoveScores,
        root: Node,
        me: int,
        rand: Callable[[], float],
        passed: Callable[[], bool],
    ) -> int:
        legal, step, is_over, returns = game.legal, game.step, game.is_over, game.returns
        log, sqrt = math.log, math.sqrt
        c = self.c
        heavy = self.playout == "heavy"
        limit = self.simulations if self.simulations > 0 else -1
        timed = passed is not never  # a seconds budget, or the clock's own limit
        sims = 0
        while not sims or not (sims == limit or (timed and not sims & 15 and passed())):
            node = root
            path = [root]
            while node.children:
                lg = log(node.n) if node.n > 0 else 0.0
                mine = node.player == me
                best = node.children[0]
                best_score = -1.0
                for ch in node.children:
                    n = ch.n
                    if n == 0:
                        best = ch
                        break
                    rate = ch.w / n if mine else 1.0 - ch.w / n
                    score = rate + c * sqrt(lg / n)
                    if score > best_score:
                        best_score = score
                        best = ch
                node = best
                path.append(node)
            s = node.state
            while not is_over(s):
                ms = legal(s)
                if heavy:
                    ws = scorer(game, s)
                    total = sum(ws)
                    j = 0
                    if total > 0:
                        target = rand() * total
                        acc = ws[0]
                        while acc <= target and j < len(ms) - 1:
                            j += 1
                            acc += ws[j]
                    else:
                        j = int(rand() * len(ms))
                    s = step(s, ms[j])
                else:
                    s = step(s, ms[int(rand() * len(ms))])
            win = 1.0 if returns(s)[me] > 0 else 0.0
            for nd in path:
                nd.n += 1
                nd.w += win
            sims += 1
        return sims


def _expand(
    game: Game[Any, Any], scorer: MoveScores, node: Node, levels: int, width: int, top: bool
) -> None:
    """Give ``node`` children down to ``levels`` plies, best-scored moves first."""
    if levels <= 0 or node.player < 0:
        return
    if not node.children:
        moves = game.legal(node.state)
        if not top and len(moves) >= width:
            return
        scores = scorer(game, node.state)
        order = sorted(range(len(moves)), key=lambda i: -scores[i])
        for i in order:
            s = game.step(node.state, moves[i])
            over = game.is_over(s)
            child = Node(s, moves[i], node.player, -1 if over else game.to_move(s))
            child.h = scores[i]
            node.children.append(child)
    for ch in node.children:
        _expand(game, scorer, ch, levels - 1, width, False)
