"""Tic-tac-toe only: mark counts, the purity of the rules and perfect players, the rules agent's
candidates under symmetry. What every game keeps is in test_game_props.py."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import purestate
from purestate.core.keys import Key
from purestate.games.tictactoe import State

from .strategies import keys, states, trajectories

GAME = purestate.make("tictactoe")
SYMS = st.sampled_from(GAME.symmetries)
AGENTS = st.sampled_from(
    [
        "rules",
        "rules:p=1",
        "rules:p=1,tiebreak=first,opening=corner",
        "perfect",
        "perfect:tiebreak=fastest",
        "perfect:tiebreak=first",
        "solver",
    ]
)


@given(trajectories(GAME))
def test_x_count_minus_o_count_is_zero_or_one(traj: list[State]) -> None:
    for s in traj:
        diff = s.x.bit_count() - s.o.bit_count()
        assert diff in (0, 1)
        assert GAME.to_move(s) == diff
        assert s.x & s.o == 0


@given(states(GAME), keys(), AGENTS)
def test_act_is_pure(s: State, k: Key, spec: str) -> None:
    if GAME.is_over(s):
        return
    agent: Any = purestate.agent(spec)
    before = GAME.encode(s)
    a = agent.act(GAME, None, s, k)
    b = purestate.agent(spec).act(GAME, None, s, k)
    assert a == b
    assert a.move in GAME.legal(s)
    assert GAME.encode(s) == before


@given(states(GAME), SYMS)
def test_rule_candidates_commute_with_symmetry(s: State, g: int) -> None:
    from purestate.agents.rules import candidates

    if GAME.is_over(s):
        return
    img = GAME.transform(s, g)
    assert {GAME.transform_move(m, g) for m in candidates(s)} == set(candidates(img))
