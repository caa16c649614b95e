"""PUCT's expansion threshold (``expand_at``) and alphazero's mixed leaf values (``mix``):
AlphaGo's way of spending an expensive evaluator on the nodes the search returns to (issue 23).

The alphazero examples are skipped without the ``alphazero`` extra (JAX and optax).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import pytest

import purestate
from purestate.agents.mcts import (
    MAX_EXPAND_AT,
    MCTS,
    Evaluation,
    Node,
    Tree,
    rollout_evaluator,
    search_many,
)
from purestate.core import keys
from purestate.core.keys import Key

TTT = purestate.make("tictactoe")
C4 = purestate.make("connect_four")


def counting(seen: list[Any]) -> Any:
    """An evaluator with uniform priors and value 0 that notes every state it is given."""

    def evaluate(game: Any, states: Sequence[Any], ks: Sequence[Key]) -> list[Evaluation]:
        seen.extend(states)
        return [((1.0 / len(game.legal(s)),) * len(game.legal(s)), 0.0) for s in states]

    return evaluate


def nodes(root: Node) -> list[tuple[Node, bool]]:
    """Every node with whether it is the root."""
    out, stack = [], [(root, True)]
    while stack:
        x, top = stack.pop()
        out.append((x, top))
        stack.extend((ch, False) for ch in x.children)
    return out


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("expand_at", [2, 5])
def test_a_leaf_is_evaluated_at_its_threshold_and_played_out_before(
    expand_at: int, compiled: bool
) -> None:
    seen: list[Any] = []
    agent = MCTS(simulations=300, select="puct", expand_at=expand_at, leaves=4)
    tree = search_many(agent, C4, [Tree()], [C4.initial()], [keys.key(5)], counting(seen),
                       compiled_tree=compiled)[0]  # fmt: skip
    assert tree.root is not None and tree.simulations == 300
    expanded = [x for x, _ in nodes(tree.root) if x.children]
    # the evaluator saw each expanded node once (the root first), and nothing else
    assert seen[0] == C4.initial()
    assert sorted(map(repr, seen)) == sorted(repr(x.state) for x in expanded)
    for x, top in nodes(tree.root):
        if x.proven is not None or C4.is_over(x.state):
            continue
        if x.children:  # its first expand_at - 1 visits were playouts (the root's none)
            assert x.n - sum(ch.n for ch in x.children) == (1 if top else expand_at)
        else:  # a leaf never reaches its threshold unexpanded
            assert x.n < expand_at
    # most simulations were playouts: far fewer evaluations than simulations
    assert len(seen) < 300 / expand_at + 40


def test_expand_at_one_is_the_search_without_the_option() -> None:
    seen_a: list[Any] = []
    seen_b: list[Any] = []
    a = MCTS(simulations=80, select="puct")
    b = MCTS(simulations=80, select="puct", expand_at=1)
    assert a == b and "expand_at" not in a.spec
    ta = search_many(a, TTT, [Tree()], [TTT.initial()], [keys.key(1)], counting(seen_a))[0]
    tb = search_many(b, TTT, [Tree()], [TTT.initial()], [keys.key(1)], counting(seen_b))[0]
    assert seen_a == seen_b and len(seen_a) > 20
    assert ta.root is not None and tb.root is not None
    assert [(c.move, c.n, c.w) for c in ta.root.children] == [
        (c.move, c.n, c.w) for c in tb.root.children
    ]


def test_the_option_is_checked_and_spelled() -> None:
    agent = purestate.agent("mcts:select=puct,expand_at=8")
    assert isinstance(agent, MCTS) and agent.expand_at == 8
    assert agent.spec == "mcts:select=puct,expand_at=8"
    for bad in (0, MAX_EXPAND_AT + 1, 10**21):  # 10**21: more than the compiled tree's int64
        with pytest.raises(ValueError, match="from 1 to 1,000,000,000"):
            MCTS(select="puct", expand_at=bad)
    assert MCTS(select="puct", expand_at=MAX_EXPAND_AT).expand_at == MAX_EXPAND_AT
    with pytest.raises(ValueError, match="select=puct"):
        MCTS(expand_at=4)  # ucb1 makes a node every simulation


def test_a_threshold_without_an_evaluator_still_proves_a_win() -> None:
    # playouts below the threshold, uniform priors at it: the solver still finds the win
    x_wins = TTT.initial()
    for m in (0, 3, 1, 4):
        x_wins = TTT.step(x_wins, m)
    tree = MCTS(simulations=200, select="puct", expand_at=3).search(
        TTT, Tree(), x_wins, keys.key(0)
    )
    assert tree.root is not None and tree.root.proven == 1.0


# -- alphazero's options --------------------------------------------------------------------------

SMALL = "alphazero:simulations=16,games_per_iteration=8,steps=20,batch=32,width=32"


def alphazero() -> Any:
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    return purestate.agent(SMALL)


def test_alphazero_passes_the_threshold_to_its_search_and_checks_mix() -> None:
    agent = alphazero()
    tuned = purestate.agent(SMALL + ",expand_at=16,mix=0.5")
    assert tuned.expand_at == 16 and tuned.mix == 0.5
    assert purestate.agent(tuned.spec) == tuned
    assert "expand_at" not in agent.spec and "mix" not in agent.spec
    assert tuned.searcher(False).expand_at == 16
    for bad in ("mix=1.5", "mix=-0.1", "expand_at=0"):
        with pytest.raises(ValueError):
            purestate.agent(SMALL + "," + bad)


def test_a_mixed_value_is_the_networks_and_a_playouts_weighted() -> None:
    agent = alphazero()
    table = agent.with_network(C4, agent.initial_table(C4, 0), keys.key(3))
    states, ks = [C4.initial()], [keys.key(11)]
    for i in range(6):  # a few positions along a seeded game
        s = states[-1]
        states.append(C4.step(s, keys.choice(keys.key(100 + i), C4.legal(s))))
        ks.append(keys.key(12 + i))
    plain = agent.evaluator(table)(C4, states, ks)
    rolled = rollout_evaluator("auto")(C4, states, ks)
    mixed = attrs.evolve(agent, mix=0.25).evaluator(table)(C4, states, ks)
    assert len({z for _, z in rolled}) > 1  # the playouts do not all agree
    for (p, v), (_, z), (pm, vm) in zip(plain, rolled, mixed, strict=True):
        assert pm == p  # the priors stay the network's
        assert vm == pytest.approx(0.75 * v + 0.25 * z, abs=1e-12)


def test_alphazero_draws_shared_is_format_4s_playouts_on_a_game_without_kernels() -> None:
    # tic-tac-toe plays the generic decisive playout: draws=shared reaches the evaluator's
    # playouts (each key's generator) and the search's (its one generator), as format 4 did
    agent = alphazero()
    shared = purestate.agent(SMALL + ",mix=0.5,draws=shared")
    assert shared.draws == "shared" and "draws" not in agent.spec
    assert purestate.agent(shared.spec) == shared
    assert shared.searcher(False).draws == "shared" and agent.searcher(False).draws == "counter"
    table = shared.with_network(TTT, shared.initial_table(TTT, 0), keys.key(3))
    states, ks = [TTT.initial()] * 8, [keys.key(i) for i in range(8)]
    plain = attrs.evolve(shared, mix=0.0).evaluator(table)(TTT, states, ks)
    for draws, made in (("shared", shared), ("counter", attrs.evolve(shared, draws="counter"))):
        rolled = rollout_evaluator("auto", draws=draws)(TTT, states, ks)  # type: ignore[arg-type]
        mixed = made.evaluator(table)(TTT, states, ks)
        for (_, v), (_, z), (_, vm) in zip(plain, rolled, mixed, strict=True):
            assert vm == pytest.approx(0.5 * v + 0.5 * z, abs=1e-12)
    with pytest.raises(ValueError, match="draws"):
        purestate.agent(SMALL + ",draws=mersenne")
