"""Properties of ``alphazero``'s network as the search sees it: priors over the legal moves that
sum to 1, a value in [-1, 1], and a state's evaluation unchanged by the rest of its batch.

Skipped without the ``alphazero`` extra (JAX and optax).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import purestate
from purestate.core.keys import key

from .strategies import states

pytest.importorskip("jax")
pytest.importorskip("optax")

from purestate.agents.alphazero import AlphaZero, Net
from purestate.agents.alphazero.agent import evaluations, images
from purestate.agents.alphazero.network import evaluate

GAMES = {
    "tictactoe": purestate.make("tictactoe"),
    "dots": purestate.make("dots_and_boxes:rows=3,cols=3"),
    "connect_four": purestate.make("connect_four:columns=5,rows=4,connect=3"),
}
AGENT: AlphaZero = purestate.agent("alphazero:width=16,depth=1")
_NETS: dict[tuple[str, int], Net] = {}


def net(name: str, seed: int) -> Net:
    """A fresh network for the game, its weights drawn from ``seed`` (built once per pair)."""
    if (name, seed) not in _NETS:
        game = GAMES[name]
        _NETS[name, seed] = AGENT.with_network(game, AGENT.initial_table(game, 0), key(seed))
    return _NETS[name, seed]


@st.composite
def positions(draw: st.DrawFn) -> tuple[str, Any]:
    name = draw(st.sampled_from(sorted(GAMES)))
    game = GAMES[name]
    state = draw(states(game).filter(lambda s: not game.is_over(s)))
    return name, state


@settings(deadline=None)
@given(positions(), st.integers(0, 3))
def test_priors_cover_the_legal_moves_and_sum_to_one(found: tuple[str, Any], seed: int) -> None:
    name, state = found
    game = GAMES[name]
    table = net(name, seed)
    [(priors, value)] = evaluations(game, table, [state])
    assert len(priors) == len(game.legal(state))
    assert all(p >= 0 for p in priors)
    assert math.isclose(sum(priors), 1.0, abs_tol=1e-5)
    assert -1.0 <= value <= 1.0
    # the raw network: every illegal move id gets exactly 0
    shape = table.shape
    assert shape is not None and table.params is not None
    planes = game.planes(state, game.to_move(state))  # type: ignore[attr-defined]
    mask = [[m in game.legal(state) for m in range(shape.moves)]]
    p, _ = evaluate(shape, table.params, planes[None], np.array(mask))
    assert all(p[0, m] == 0.0 for m in range(shape.moves) if not mask[0][m])


@settings(deadline=None, max_examples=20)
@given(positions(), st.integers(0, 80))
def test_an_evaluation_does_not_depend_on_its_batch(found: tuple[str, Any], others: int) -> None:
    name, state = found
    game = GAMES[name]
    table = net(name, 0)
    batch = [game.initial()] * others + [state]
    assert evaluations(game, table, batch)[-1] == evaluations(game, table, [state])[0]


@settings(deadline=None)
@given(positions(), st.data())
def test_the_images_of_an_example_are_examples_of_the_images(
    found: tuple[str, Any], data: st.DataObject
) -> None:
    # augmenting by a symmetry: the shares follow the moves onto the transformed position
    name, state = found
    game = GAMES[name]
    legal = game.legal(state)
    raw = data.draw(st.lists(st.integers(0, 9), min_size=len(legal), max_size=len(legal)))
    shares = [r / sum(raw) if sum(raw) else 1 / len(raw) for r in raw]
    moves = AGENT.shape(game).moves
    made = images(game, state, shares, moves, game.symmetries)
    assert len(made) == len(game.symmetries) and made[0][0] == state
    for sym, (image, mask, pi) in zip(game.symmetries, made, strict=True):
        assert image == game.transform(state, sym)
        assert sorted(np.flatnonzero(mask)) == sorted(game.legal(image))
        for m, share in zip(legal, shares, strict=True):
            assert pi[game.transform_move(m, sym)] == np.float32(share)
