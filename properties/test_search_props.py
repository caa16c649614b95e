"""Properties of the search agents on tic-tac-toe (and ultimate and connect four for the
ending_moves hook): exact values, purity, same key -> same move."""

from __future__ import annotations

import functools
from typing import Any

import attrs
from hypothesis import given
from hypothesis import strategies as st

import purestate
from purestate.agents.alphabeta import search
from purestate.agents.mcts import MCTS, Tree, unit_reward
from purestate.agents.xtreme2019 import Xtreme2019
from purestate.core.keys import Key
from purestate.experiments.tournament import elo

from .strategies import keys as key_strategy
from .strategies import states

TTT = purestate.make("tictactoe")


@functools.cache
def exact(state: Any) -> float:
    p = TTT.to_move(state)
    best = -2.0
    for m in TTT.legal(state):
        c = TTT.step(state, m)
        v = TTT.returns(c)[p] if TTT.is_over(c) else exact(c) if TTT.to_move(c) == p else -exact(c)
        best = max(best, v)
    return best


@given(states(TTT))
def test_alphabeta_value_is_the_minimax_value(state: Any) -> None:
    if TTT.is_over(state):
        return
    value, move, stats = search(TTT, state, 0)
    assert value == exact(state)
    assert stats.proven
    child = TTT.step(state, move)
    got = TTT.returns(child)[TTT.to_move(state)] if TTT.is_over(child) else -exact(child)
    assert got == value


@given(states(TTT))
def test_alphabeta_ties_are_exactly_the_optimal_moves(state: Any) -> None:
    if TTT.is_over(state):
        return
    value, _, stats = search(TTT, state, 0, ties=True)
    p = TTT.to_move(state)
    optimal = []
    for m in TTT.legal(state):
        c = TTT.step(state, m)
        v = TTT.returns(c)[p] if TTT.is_over(c) else -exact(c)
        if v == value:
            optimal.append(m)
    assert stats.ties == tuple(optimal)


@given(states(TTT), key_strategy())
def test_alphabeta_agent_same_key_same_move(state: Any, key: Key) -> None:
    if TTT.is_over(state):
        return
    agent = purestate.agent("alphabeta:nodes=2000")
    assert agent.act(TTT, None, state, key) == agent.act(TTT, None, state, key)


@given(states(TTT, max_plies=8), key_strategy())
def test_mcts_same_key_same_move(state: Any, key: Key) -> None:
    if TTT.is_over(state):
        return
    agent = purestate.agent("mcts:simulations=100")
    d1 = agent.act(TTT, agent.initial_table(TTT, 0), state, key)
    d2 = agent.act(TTT, agent.initial_table(TTT, 0), state, key)
    assert d1.move == d2.move
    assert d1.move in TTT.legal(state)


@given(states(TTT), key_strategy())
def test_mcts_proven_values_are_minimax_values(state: Any, key: Key) -> None:
    if TTT.is_over(state) or len(TTT.legal(state)) > 6:
        return
    tree = MCTS(simulations=20_000).search(TTT, Tree(), state, key)
    assert tree.root is not None
    assert tree.root.proven == unit_reward(exact(state))


@given(states(TTT, max_plies=7), key_strategy())
def test_mcts_does_not_change_the_table_it_is_given(state: Any, key: Key) -> None:
    if TTT.is_over(state):
        return
    agent = purestate.agent("mcts:simulations=60")
    first = agent.act(TTT, agent.initial_table(TTT, 0), TTT.initial(), key).table
    snapshot = _snapshot(first.root)
    agent.act(TTT, first, state, key)
    assert _snapshot(first.root) == snapshot


def _snapshot(node: Any) -> tuple[Any, ...]:
    return (node.move, node.n, node.w, node.proven, tuple(_snapshot(c) for c in node.children))


@given(states(TTT, max_plies=7), key_strategy())
def test_xtreme2019_does_not_change_the_table_it_is_given(state: Any, key: Key) -> None:
    if TTT.is_over(state):
        return
    bot = Xtreme2019(simulations=40)
    first = bot.act(TTT, Tree(), TTT.initial(), key).table
    snapshot = _snapshot(first.root)
    d = bot.act(TTT, first, state, key)
    assert _snapshot(first.root) == snapshot
    assert d.move in TTT.legal(state)


@given(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=1, max_size=40))
def test_elo_orders_two_players_by_score(scores: list[float]) -> None:
    ratings = elo(2, [(0, 1, s) for s in scores])
    total = sum(scores)
    half = len(scores) / 2
    if total > half:
        assert ratings[0] > ratings[1]
    elif total < half:
        assert ratings[0] < ratings[1]
    else:
        assert abs(ratings[0] - ratings[1]) < 1e-6


# ---- the explicit-stack alpha-beta against the recursive one ------------------------------------

_SEARCHED: tuple[tuple[Any, Any], ...] = (
    (TTT, None),
    (purestate.make("xtreme_tictactoe"), None),  # a bonus move: the same player moves again
    (purestate.make("dots_and_boxes"), None),  # so does a player who completes a box
    (purestate.make("ultimate_tictactoe"), "uttt"),
    (purestate.make("tron", map="small_room"), "voronoi"),
    (purestate.make("tron", map="center_block", rules="simultaneous"), "chamber"),
)


@st.composite
def _searches(draw: Any) -> tuple[Any, Any, Any]:
    game, evaluation = draw(st.sampled_from(_SEARCHED))
    state = draw(states(game, max_plies=30))
    return game, evaluation, state


@given(
    _searches(),
    st.sampled_from([0, 1, 2, 3, 5]),
    st.sampled_from([0, 1, 50, 700]),
    st.sampled_from([0, 1, 3]),
    st.booleans(),
)
def test_alphabeta_walks_the_tree_as_the_recursive_search(
    searched: tuple[Any, Any, Any], depth: int, nodes: int, stop_after: int, ties: bool
) -> None:
    # same value, move, ties and statistics, and the same transposition table, entry by entry and
    # in the same order; budgets (nodes, a stop that fires on its k-th call) stop both alike
    from purestate.core import registry

    from .recursive_alphabeta import search as recursive_search

    game, name, state = searched
    if game.is_over(state):
        return
    if depth == 0 and name is None and game is not TTT:
        depth = 4  # a full solve of these is too slow for a property test
    if depth == 0 and nodes == 0:
        nodes = 2000
    evaluation = registry.evaluation(name) if name else None

    def stopper() -> Any:
        calls = [0]

        def stop() -> bool:
            calls[0] += 1
            return bool(stop_after) and calls[0] >= stop_after

        return stop

    t1: dict[Any, Any] = {}
    t2: dict[Any, Any] = {}
    got = search(game, state, depth, evaluation, nodes=nodes, stop=stopper(), ties=ties, table=t1)
    want = recursive_search(
        game, state, depth, evaluation, nodes=nodes, stop=stopper(), ties=ties, table=t2
    )
    assert got == want
    assert list(t1.items()) == list(t2.items())


def _without_ending_moves(game: Any) -> Any:
    """The same game without its ``ending_moves`` hook: the search steps every move."""
    cls = type(game)
    bare = type(f"No{cls.__name__}", (cls,), {"ending_moves": None})
    return bare(*(getattr(game, f.name) for f in attrs.fields(cls) if f.init))


ULTIMATE = purestate.make("ultimate_tictactoe")
CONNECT_FOUR = purestate.make("connect_four")


def _tree(node: Any) -> tuple[Any, ...]:
    return (
        node.move,
        node.n,
        node.w,
        node.proven,
        node.lower,
        tuple(node.untried),
        tuple(_tree(c) for c in node.children),
    )


def _same_tree_with_and_without_ending_moves(game: Any, state: Any, key: Key) -> None:
    # the hook only saves steps: the same children, untried moves and statistics to the bit
    if game.is_over(state):
        return
    agent = MCTS(simulations=150)
    fast = agent.search(game, Tree(), state, key)
    slow = agent.search(_without_ending_moves(game), Tree(), state, key)
    assert fast.simulations == slow.simulations
    assert _tree(fast.root) == _tree(slow.root)


@given(states(ULTIMATE), key_strategy())
def test_mcts_ending_moves_hook_builds_the_tree_of_stepping_every_move(
    state: Any, key: Key
) -> None:
    _same_tree_with_and_without_ending_moves(ULTIMATE, state, key)


@given(states(CONNECT_FOUR), key_strategy())
def test_mcts_ending_moves_hook_builds_the_same_tree_on_connect_four(state: Any, key: Key) -> None:
    _same_tree_with_and_without_ending_moves(CONNECT_FOUR, state, key)


@given(states(TTT), key_strategy())
def test_mcts_ending_moves_hook_builds_the_same_tree_on_tictactoe(state: Any, key: Key) -> None:
    _same_tree_with_and_without_ending_moves(TTT, state, key)
