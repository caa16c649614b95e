"""``alphazero``'s ``leaves`` option: single searches batch their leaves under virtual loss,
computed in chunks; self-play's trees do not change.

Skipped without the ``alphazero`` extra (JAX and optax).
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import attrs
import numpy as np
import pytest

import purestate
from purestate.core.keys import key

pytest.importorskip("jax")
pytest.importorskip("optax")

from purestate.agents.alphazero import AlphaZero, Net
from purestate.agents.alphazero import agent as agent_module
from purestate.agents.alphazero.network import ALONE, CHUNK
from purestate.agents.mcts import MAX_LEAVES

TTT = purestate.make("tictactoe")
SMALL = "alphazero:simulations=16,games_per_iteration=8,steps=20,batch=32,width=32"


def test_the_option_round_trips_and_is_left_out_at_its_default() -> None:
    agent = purestate.agent(SMALL + ",leaves=8")
    assert isinstance(agent, AlphaZero) and agent.leaves == 8
    assert purestate.agent(agent.spec) == agent
    assert "leaves" not in purestate.agent(SMALL).spec
    for bad in (0, MAX_LEAVES + 1):
        with pytest.raises(ValueError, match="leaves"):
            AlphaZero(leaves=bad)


@pytest.mark.parametrize("leaves", [1, 8])
def test_a_single_search_batches_its_leaves_in_chunks(leaves: int) -> None:
    agent = attrs.evolve(purestate.agent(SMALL), simulations=40, leaves=leaves)
    table = agent.with_network(TTT, agent.initial_table(TTT, 0), key(3))
    calls: list[tuple[int, int]] = []
    real = agent_module.evaluations

    def spy(game: Any, table: Net, states: Any, rows: int = CHUNK, weights: Any = None) -> Any:
        calls.append((len(states), rows))
        return real(game, table, states, rows, weights)

    with mock.patch.object(agent_module, "evaluations", spy):
        move = agent.greedy(TTT, table, TTT.initial())
        chosen = agent.act(TTT, table, TTT.initial(), key(4)).move
    assert move in TTT.legal(TTT.initial()) and chosen in TTT.legal(TTT.initial())
    sizes = {n for n, _ in calls}
    assert {r for _, r in calls} == {ALONE if leaves == 1 else CHUNK}
    assert (max(sizes) > 1) == (leaves > 1) and max(sizes) <= leaves


def test_selfplay_ignores_the_option() -> None:
    one = purestate.agent(SMALL)
    eight = attrs.evolve(one, leaves=8)
    table = one.with_network(TTT, one.initial_table(TTT, 0), key(7))
    a = one.play_games(TTT, table, key(7), range(4))
    b = eight.play_games(TTT, table, key(7), range(4))
    assert a.episodes == b.episodes
    assert a.examples.same(b.examples)
    assert np.array_equal(np.asarray(a.indices), np.asarray(b.indices))
