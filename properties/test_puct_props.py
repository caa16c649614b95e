"""Properties of PUCT and injected evaluators in the MCTS tree (issue 23's search).

The search with UCB1 and the rollout evaluator is plain ``mcts:playout=random`` (one tree, not
two); the batched driver searches each tree as it would alone; noise with weight 0 and the visit
distribution keep their promises; searching never changes the table it is given.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import purestate
from purestate.agents.mcts import (
    MCTS,
    Node,
    Tree,
    dirichlet_noise,
    rollout_evaluator,
    search_many,
    visit_distribution,
)
from purestate.core import keys
from purestate.core.keys import Key

from .strategies import keys as key_strategy
from .strategies import states

TTT = purestate.make("tictactoe")
DOTS = purestate.make("dots_and_boxes:rows=2,cols=2")
GAMES = {"tictactoe": TTT, "dots": DOTS}


def statistics(tree: Tree) -> list[tuple[Any, ...]]:
    """Every node's move, visits, rewards, proven value and prior, depth first in child order."""
    out = []
    stack = [tree.root]
    while stack:
        node = stack.pop()
        assert node is not None
        out.append((node.move, node.n, node.w, node.proven, node.prior, tuple(node.untried)))
        stack.extend(node.children)
    return out


def _snapshot(root: Node | None) -> list[tuple[Any, ...]]:
    return statistics(Tree(root)) if root is not None else []


@given(
    st.sampled_from(sorted(GAMES)),
    st.data(),
    key_strategy(),
    st.integers(1, 200),
    # neither game has a decisive kernel: its decisive playouts are the generic loop, each from
    # its simulation's own key as the evaluator's (draws=counter)
    st.sampled_from(["random", "decisive", "antidecisive"]),
)
def test_ucb1_with_the_rollout_evaluator_is_plain_mcts(
    name: str, data: st.DataObject, key: Key, sims: int, playout: Any
) -> None:
    game = GAMES[name]
    state = data.draw(states(game))
    if game.is_over(state):
        return
    plain = MCTS(simulations=sims, playout=playout).search(game, Tree(), state, key)
    injected = MCTS(simulations=sims, playout=playout, evaluator=rollout_evaluator(playout))
    tree = injected.search(game, Tree(), state, key)
    assert statistics(tree) == statistics(plain)
    assert tree.simulations == plain.simulations
    assert (
        injected.act(game, Tree(), state, key).move
        == purestate.agent(f"mcts:simulations={sims},playout={playout}")
        .act(game, Tree(), state, key)
        .move
    )


@settings(max_examples=30)
@given(
    st.sampled_from(["ucb1", "puct"]),
    st.sampled_from([0.0, 0.25]),
    st.lists(st.tuples(states(TTT, max_plies=6), key_strategy()), min_size=1, max_size=5),
    st.integers(1, 80),
)
def test_search_many_is_each_search_alone(
    select: str, noise: float, searches: list[tuple[Any, Key]], sims: int
) -> None:
    searches = [(s, k) for s, k in searches if not TTT.is_over(s)]
    agent = MCTS(
        simulations=sims,
        select=select,  # type: ignore[arg-type]
        noise=noise if select == "puct" else 0.0,
        evaluator=rollout_evaluator("random"),
    )
    trees = [Tree()] * len(searches)
    together = search_many(agent, TTT, trees, [s for s, _ in searches], [k for _, k in searches])
    for (state, key), tree in zip(searches, together, strict=True):
        alone = agent.search(TTT, Tree(), state, key)
        assert statistics(tree) == statistics(alone)
        assert tree.simulations == alone.simulations


@given(states(TTT, max_plies=7), key_strategy(), st.floats(0.01, 10.0))
def test_noise_of_weight_zero_changes_nothing(state: Any, key: Key, alpha: float) -> None:
    if TTT.is_over(state):
        return
    plain = MCTS(simulations=50, select="puct").search(TTT, Tree(), state, key)
    zero = MCTS(simulations=50, select="puct", noise=0.0, alpha=alpha).search(
        TTT, Tree(), state, key
    )
    assert statistics(zero) == statistics(plain)
    priors = tuple(1.0 / (i + 1) for i in range(5))
    assert dirichlet_noise(priors, alpha, 0.0, key) == priors


@given(st.integers(1, 30), st.floats(0.01, 5.0), st.floats(0.0, 1.0), key_strategy())
def test_noise_keeps_a_distribution(n: int, alpha: float, epsilon: float, key: Key) -> None:
    priors = tuple(1.0 / n for _ in range(n))
    mixed = dirichlet_noise(priors, alpha, epsilon, key)
    assert len(mixed) == n
    assert all(p >= 0 for p in mixed)
    assert abs(sum(mixed) - 1.0) < 1e-9
    assert mixed == dirichlet_noise(priors, alpha, epsilon, key)


@given(
    st.sampled_from(sorted(GAMES)),
    st.data(),
    key_strategy(),
    st.sampled_from(["ucb1", "puct"]),
    st.integers(1, 150),
)
def test_the_visit_distribution_is_over_the_legal_moves(
    name: str, data: st.DataObject, key: Key, select: str, sims: int
) -> None:
    game = GAMES[name]
    state = data.draw(states(game))
    if game.is_over(state):
        return
    tree = MCTS(simulations=sims, select=select, noise=0.25).search(game, Tree(), state, key)  # type: ignore[arg-type]
    pi = visit_distribution(game, tree)
    assert len(pi) == len(game.legal(state))
    assert all(p >= 0 for p in pi)
    assert abs(sum(pi) - 1.0) < 1e-9
    assert tree.root is not None
    best = max(range(len(pi)), key=lambda i: pi[i])
    assert pi[best] > 0


@settings(max_examples=30)
@given(states(TTT, max_plies=7), key_strategy(), st.sampled_from(["ucb1", "puct"]))
def test_searching_does_not_change_the_table_it_is_given(state: Any, key: Key, select: str) -> None:
    if TTT.is_over(state):
        return
    agent = MCTS(simulations=60, select=select, noise=0.25, evaluator=rollout_evaluator())  # type: ignore[arg-type]
    first = agent.act(TTT, agent.initial_table(TTT, 0), TTT.initial(), key).table
    snapshot = _snapshot(first.root)
    agent.act(TTT, first, state, keys.fold_in(key, 1))
    search_many(agent, TTT, [first, first], [state, TTT.initial()], [key, key])
    assert _snapshot(first.root) == snapshot
