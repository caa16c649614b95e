"""Virtual-loss leaf batching in one PUCT search (``MCTS.leaves``): it batches, it is the
same tree for the same key, and it is refused where nothing is evaluated in batches."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import purestate
from purestate.agents.mcts import (
    MAX_LEAVES,
    MCTS,
    Evaluation,
    Tree,
    rollout_evaluator,
    search_many,
)
from purestate.core import keys
from purestate.core.game import Game

C4 = purestate.make("connect_four")


def recorded(sizes: list[int]) -> Any:
    """A rollout evaluator that records how many states each call receives."""
    inner = rollout_evaluator("random")

    def evaluate(game: Game[Any, Any], states: Sequence[Any], ks: Sequence[Any]) -> Any:
        sizes.append(len(states))
        out: list[Evaluation] = list(inner(game, states, ks))
        return out

    return evaluate


@pytest.mark.parametrize("compiled", [True, False])
def test_several_leaves_go_to_the_evaluator_in_one_call(compiled: bool) -> None:
    sizes: list[int] = []
    agent = MCTS(simulations=64, select="puct", leaves=8)
    state = C4.initial()
    tree = search_many(agent, C4, [Tree()], [state], [keys.key(3)], recorded(sizes),
                       compiled_tree=compiled)[0]  # fmt: skip
    assert tree.root is not None and tree.root.n == tree.simulations == 64
    assert max(sizes) > 1 and max(sizes) <= 8
    # the same key, the same tree
    again = search_many(agent, C4, [Tree()], [state], [keys.key(3)], recorded([]),
                        compiled_tree=compiled)[0]  # fmt: skip
    assert again.root is not None
    assert [(c.move, c.n, c.w) for c in again.root.children] == [
        (c.move, c.n, c.w) for c in tree.root.children
    ]


def test_one_leaf_a_round_calls_the_evaluator_once_a_leaf() -> None:
    sizes: list[int] = []
    agent = MCTS(simulations=40, select="puct")
    search_many(agent, C4, [Tree()], [C4.initial()], [keys.key(3)], recorded(sizes))
    assert set(sizes) == {1}


def test_leaves_need_puct_and_an_evaluator() -> None:
    for bad in (0, MAX_LEAVES + 1, 10**12):  # the compiled tree sizes arrays by it
        with pytest.raises(ValueError, match=f"from 1 to {MAX_LEAVES}"):
            MCTS(leaves=bad)
    assert MCTS(select="puct", leaves=MAX_LEAVES).leaves == MAX_LEAVES
    with pytest.raises(ValueError, match="puct"):
        MCTS(simulations=10, leaves=2).search(C4, Tree(), C4.initial(), keys.key(0))
    with pytest.raises(ValueError, match="puct"):
        MCTS(simulations=10, select="puct", leaves=2).search(C4, Tree(), C4.initial(), keys.key(0))
    assert MCTS(select="puct", leaves=4).spec == "mcts:select=puct,leaves=4"
    assert "leaves" not in MCTS(select="puct").spec
