"""Properties of the search agents on tic-tac-toe: exact values, purity, same key -> same move."""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import given
from properties.strategies import keys as key_strategy
from properties.strategies import states

import purestate
from purestate.agents.alphabeta import search
from purestate.core.keys import Key

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
