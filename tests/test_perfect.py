"""The perfect player (and its alias ``solver``): tie-breaks, exact rates, never losing."""

from __future__ import annotations

import functools
from fractions import Fraction

import pytest
from tests.moves import play_moves

import purestate
from purestate.agents.perfect import Perfect, Solver, best_moves
from purestate.core.keys import key
from purestate.core.spec import SpecError
from purestate.solve import solve
from purestate.solve.outcomes import exact_outcomes, uniform_policy

GAME = purestate.make("tictactoe")


def test_registered_as_perfect_and_solver() -> None:
    p = purestate.agent("perfect")
    s = purestate.agent("solver:tiebreak=fastest")
    assert type(p) is Perfect and p.spec == "perfect"
    assert type(s) is Solver and s.spec == "solver:tiebreak=fastest"
    assert purestate.agent(s.spec) == s
    assert purestate.agent("perfect:tiebreak=first").spec == "perfect:tiebreak=first"
    with pytest.raises(SpecError, match="tiebreak"):
        purestate.agent("perfect:tiebreak=slowest")


def test_exact_rates_against_random() -> None:
    rnd = uniform_policy(GAME)
    x = exact_outcomes(GAME, [functools.partial(Perfect().policy, GAME), rnd])
    assert x == {0.0: Fraction(2503, 77760), 1.0: Fraction(75257, 77760)}  # 96.78 / 3.22 / 0
    o = exact_outcomes(GAME, [rnd, functools.partial(Perfect().policy, GAME)])
    assert o == {-1.0: Fraction(2645, 3402), 0.0: Fraction(757, 3402)}  # 0 / 22.25 / 77.75
    assert round(float(x[1.0]) * 100, 2) == 96.78
    assert round(float(o[-1.0]) * 100, 2) == 77.75


def test_every_move_keeps_the_value() -> None:
    sol = solve(GAME)
    for tiebreak in ("random", "first", "fastest"):
        agent = Perfect(tiebreak)  # type: ignore[arg-type]
        for s in sol.states():
            if GAME.is_over(s):
                continue
            for m in agent.choices(GAME, s):
                assert sol.value(GAME.step(s, m)) == sol.value(s)


@pytest.mark.parametrize("tiebreak", ["random", "first", "fastest"])
def test_never_loses_to_random_in_either_seat(tiebreak: str) -> None:
    perfect, rnd = purestate.agent(f"perfect:tiebreak={tiebreak}"), purestate.agent("random")
    for i in range(300):
        a = purestate.play(GAME, (perfect, rnd), (None, None), key(i))
        b = purestate.play(GAME, (rnd, perfect), (None, None), key(10_000 + i))
        assert a.returns[0] >= 0 and b.returns[1] >= 0


def test_fastest_wins_in_the_fewest_plies() -> None:
    # X 6, 8; O 4, 5; X to move. 7 wins at once; 3 blocks O and forks, winning two plies later.
    s = play_moves(GAME, [6, 4, 8, 5])
    assert GAME.encode(s) == "....OOX.X"
    optimal, fastest = best_moves(GAME, s)
    assert optimal == (3, 7)
    assert fastest == (7,)
    fast = Perfect("fastest")
    for i in range(50):
        assert fast.act(GAME, None, s, key(i)).move == 7
    assert {Perfect("random").act(GAME, None, s, key(i)).move for i in range(100)} == {3, 7}


def test_fastest_loser_delays() -> None:
    # X 3, 5; O 4, 8; X to move and lost (O threatens 0 and wins whatever X does later).
    # Every move loses; only blocking on 0 puts the loss off by two plies.
    s = play_moves(GAME, [3, 4, 5, 8])
    sol = solve(GAME)
    assert sol.value(s) == -1.0
    optimal, fastest = best_moves(GAME, s)
    assert optimal == GAME.legal(s)
    assert fastest == (0,)
    assert sol.distance(s) == 4


def test_first_is_deterministic_and_follows_move_order() -> None:
    agent = Perfect("first")
    s = GAME.step(GAME.initial(), 4)
    assert {agent.act(GAME, None, s, key(i)).move for i in range(30)} == {0}
    assert agent.act(GAME, None, GAME.initial(), key(0)).move == 0


def test_same_key_same_move() -> None:
    agent = Perfect()
    s = GAME.initial()
    moves = {agent.act(GAME, None, s, key(i)).move for i in range(200)}
    assert moves == set(range(9))  # every opening draws
    for i in range(50):
        assert agent.act(GAME, None, s, key(i)) == agent.act(GAME, None, s, key(i))
