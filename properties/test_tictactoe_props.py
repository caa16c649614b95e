"""Tic-tac-toe invariants, round-trips and the purity of the rules and perfect players."""

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


@given(states(GAME), SYMS)
def test_symmetry_round_trips(s: State, g: int) -> None:
    img = GAME.transform(s, g)
    assert GAME.transform(img, GAME.inverse(g)) == s
    for m in range(9):
        assert GAME.transform_move(GAME.transform_move(m, g), GAME.inverse(g)) == m


@given(states(GAME), SYMS)
def test_symmetry_commutes_with_the_rules(s: State, g: int) -> None:
    img = GAME.transform(s, g)
    assert GAME.is_over(img) == GAME.is_over(s)
    assert GAME.returns(img) == GAME.returns(s)
    assert {GAME.transform_move(m, g) for m in GAME.legal(s)} == set(GAME.legal(img))
    for m in GAME.legal(s):
        assert GAME.step(img, GAME.transform_move(m, g)) == GAME.transform(GAME.step(s, m), g)


@given(states(GAME), SYMS)
def test_canonical_is_idempotent_and_invariant(s: State, g: int) -> None:
    rep, h = GAME.canonical(s)
    assert GAME.transform(s, h) == rep
    assert GAME.canonical(rep)[0] == rep
    assert GAME.canonical(GAME.transform(s, g))[0] == rep


@given(states(GAME))
def test_decode_encode_round_trip(s: State) -> None:
    text = GAME.encode(s)
    assert GAME.decode(text) == s
    assert GAME.encode(GAME.decode(text)) == text


@given(states(GAME))
def test_step_never_changes_its_input(s: State) -> None:
    before = (s.x, s.o, s.to_move, GAME.encode(s))
    for m in GAME.legal(s):
        GAME.step(s, m)
    assert (s.x, s.o, s.to_move, GAME.encode(s)) == before


@given(states(GAME), keys(), AGENTS)
def test_act_is_pure(s: State, k: Key, spec: str) -> None:
    if GAME.is_over(s):
        return
    agent: Any = purestate.agent(spec)
    a = agent.act(GAME, None, s, k)
    b = purestate.agent(spec).act(GAME, None, s, k)
    assert a == b
    assert a.move in GAME.legal(s)
    assert s == GAME.decode(GAME.encode(s))


@given(states(GAME), SYMS)
def test_rule_candidates_commute_with_symmetry(s: State, g: int) -> None:
    from purestate.agents.rules import candidates

    if GAME.is_over(s):
        return
    img = GAME.transform(s, g)
    assert {GAME.transform_move(m, g) for m in candidates(s)} == set(candidates(img))
