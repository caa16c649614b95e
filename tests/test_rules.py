"""The Newell–Simon rules agent: exhaustive never-loses checks, the naive rule 4's traps, exact
outcome rates (reference/menace.md §3, §4)."""

from __future__ import annotations

import functools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from tests.moves import play_moves

import purestate
from purestate.agents.rules import BlockFork, Opening, Rules, candidates, fork_squares
from purestate.core.game import GameSpec
from purestate.core.keys import fold_in, key
from purestate.core.spec import SpecError
from purestate.games.tictactoe import State
from purestate.solve import solve
from purestate.solve.outcomes import exact_outcomes, uniform_policy

GAME = purestate.make("tictactoe")
SOL = solve(GAME)


def _rule_tree(seat: int, opening: Opening, block_fork: BlockFork) -> dict[str, int]:
    """Walk every line where the rules player (any tie-break among its candidates) meets every
    reply; count its decision points, value-losing moves, lost terminals and lost lines."""

    decisions: set[State] = set()
    losing_moves: set[tuple[State, int]] = set()

    @functools.cache
    def lost_lines(s: State) -> int:
        if GAME.is_over(s):
            return 1 if GAME.returns(s)[seat] < 0 else 0
        if GAME.to_move(s) == seat:
            decisions.add(s)
            moves = candidates(s, opening, block_fork)
            assert moves, "the rules must always offer a move"
            assert set(moves) <= set(GAME.legal(s))
            for m in moves:
                if SOL.value(GAME.step(s, m)) != SOL.value(s):
                    losing_moves.add((s, m))
        else:
            moves = GAME.legal(s)
        return sum(lost_lines(GAME.step(s, m)) for m in moves)

    lines = lost_lines(GAME.initial())
    return {
        "decisions": len(decisions),
        "value_losing_moves": len(losing_moves),
        "value_losing_positions": len({s for s, _ in losing_moves}),
        "lost_lines": lines,
    }


@pytest.mark.parametrize("opening", ["centre", "corner"])
@pytest.mark.parametrize("seat", [0, 1])
def test_rules_never_lose_under_any_tiebreak(seat: int, opening: Opening) -> None:
    tree = _rule_tree(seat, opening, "robust")
    assert tree["lost_lines"] == 0


def test_rules_with_centre_opening_keep_the_value_at_every_decision() -> None:
    as_x = _rule_tree(0, "centre", "robust")
    as_o = _rule_tree(1, "centre", "robust")
    assert as_x["decisions"] + as_o["decisions"] == 762
    assert as_x["value_losing_moves"] == as_o["value_losing_moves"] == 0


def test_corner_opening_misses_forced_wins_but_never_loses() -> None:
    # After X 0, O on 2, 6 or 8 the rules say "centre", but a corner wins.
    tree = _rule_tree(0, "corner", "robust")
    assert tree["lost_lines"] == 0
    first_corner = {
        s
        for s in (play_moves(GAME, [0, o]) for o in (1, 2, 3, 5, 6, 7, 8))
        if SOL.value(s) == 1.0 and SOL.value(GAME.step(s, 4)) == 0.0
    }
    assert {GAME.encode(s) for s in first_corner} == {"X.O......", "X.....O..", "X.......O"}
    assert tree["value_losing_positions"] == 4 * len(first_corner)  # the four corners


def test_naive_rule_four_loses() -> None:
    tree = _rule_tree(1, "centre", "naive")
    assert tree["value_losing_moves"] == 12
    assert tree["lost_lines"] == 48
    assert _rule_tree(0, "centre", "naive")["lost_lines"] == 0


@pytest.mark.parametrize(
    ("moves", "naive_forks", "safe"),
    [
        # X 0,8 / O 4: the fork squares are the two empty corners; O must play a side.
        ([0, 4, 8], {2, 6}, {1, 3, 5, 7}),
        # O 2 / X 4,6: X's fork squares are 0, 3, 7, 8; O must take corner 0 or 8.
        ([4, 2, 6], {0, 3, 7, 8}, {0, 8}),
    ],
)
def test_the_two_traps(moves: list[int], naive_forks: set[int], safe: set[int]) -> None:
    s = play_moves(GAME, moves)
    assert SOL.value(s) == 0.0
    forks = fork_squares(s.x, s.o)
    assert {i for i in range(9) if forks >> i & 1} == naive_forks
    naive = set(candidates(s, block_fork="naive"))
    assert naive == naive_forks
    assert any(SOL.value(GAME.step(s, m)) == 1.0 for m in naive)  # naive blocking can lose
    robust = set(candidates(s))
    assert robust == safe
    assert all(SOL.value(GAME.step(s, m)) == 0.0 for m in robust)


def test_rules_in_order() -> None:
    def cands(moves: list[int], opening: Opening = "centre") -> tuple[int, ...]:
        return candidates(play_moves(GAME, moves), opening)

    assert cands([]) == (4,)  # 5 centre
    assert cands([], "corner") == (0, 2, 6, 8)
    assert cands([0]) == (4,)  # 5 centre for O too
    assert cands([4]) == (0, 2, 6, 8)  # 7 empty corner (no opponent corner yet)
    assert cands([4, 0]) == (8,)  # 6 opposite corner
    assert cands([0, 3, 1, 4]) == (2,)  # 1 win beats 2 block (O threatens 5)
    assert cands([0, 4, 1]) == (2,)  # 2 block
    assert cands([0, 1, 4, 8, 6]) == (2, 3)  # 1 win: two squares
    assert cands([0, 4, 8, 1]) == (7,)  # 2 block O's column
    assert cands([4, 1, 0]) == (8,)  # 2 block X's diagonal


def _policy(spec: str) -> Any:
    return functools.partial(purestate.agent(spec).policy, GAME)


def test_exact_rates_rules_x_against_random() -> None:
    rnd = uniform_policy(GAME)
    centre = exact_outcomes(GAME, [_policy("rules:p=1"), rnd])
    assert centre == {0.0: Fraction(1, 24), 1.0: Fraction(23, 24)}  # 95.83 % / 4.17 %
    corner = exact_outcomes(GAME, [_policy("rules:p=1,opening=corner"), rnd])
    assert corner == {0.0: Fraction(1, 32), 1.0: Fraction(31, 32)}  # 96.88 % / 3.12 %


def test_exact_rates_random_x_against_rules() -> None:
    out = exact_outcomes(GAME, [uniform_policy(GAME), _policy("rules:p=1")])
    assert out == {-1.0: Fraction(278, 315), 0.0: Fraction(37, 315)}
    assert round(float(out[-1.0]) * 100, 2) == 88.25
    assert round(float(out[0.0]) * 100, 2) == 11.75


def test_p_mixes_rules_and_random_moves() -> None:
    s = play_moves(GAME, [0, 4, 1])  # O must block on 2
    pol = Rules(p=0.7).policy(GAME, s)
    assert sum(pol.values()) == 1
    assert pol[2] == Fraction(7, 10) + Fraction(3, 10) / 6
    assert pol[3] == Fraction(3, 10) / 6
    agent = Rules(p=0.7)
    counts = Counter(agent.act(GAME, None, s, fold_in(key(5), i)).move for i in range(6000))
    # 0.75 expected on square 2; 6,000 draws put it within 0.72-0.78 essentially always.
    assert 0.72 < counts[2] / 6000 < 0.78
    assert set(counts) == set(GAME.legal(s))
    assert Rules(p=0.0).policy(GAME, s) == uniform_policy(GAME)(s)


def test_tiebreak_first_and_random() -> None:
    s = GAME.step(GAME.initial(), 4)  # candidates: the four corners
    first = Rules(p=1.0, tiebreak="first")
    assert {first.act(GAME, None, s, key(i)).move for i in range(50)} == {0}
    rand = Rules(p=1.0)
    assert {rand.act(GAME, None, s, key(i)).move for i in range(200)} == {0, 2, 6, 8}


def test_same_key_same_move() -> None:
    agent = Rules()
    s = play_moves(GAME, [4, 0])
    for i in range(100):
        k = key(i)
        assert agent.act(GAME, None, s, k) == agent.act(GAME, None, s, k)


def test_spec_round_trip_and_options() -> None:
    agent = purestate.agent("rules:p=1,tiebreak=first,opening=corner")
    assert agent == Rules(1.0, "first", "corner")
    assert purestate.agent(agent.spec) == agent
    assert purestate.agent("rules").spec == "rules"
    with pytest.raises(SpecError, match="between 0 and 1"):
        purestate.agent("rules:p=1.5")
    with pytest.raises(SpecError, match="opening"):
        purestate.agent("rules:opening=edge")


def test_refuses_other_games() -> None:
    class Other:
        spec = GameSpec("dots_and_boxes", 2, 12)

    with pytest.raises(SpecError, match="tic-tac-toe only"):
        Rules().initial_table(Other(), 0)  # type: ignore[arg-type]
    with pytest.raises(SpecError, match="tic-tac-toe only"):
        Rules().act(Other(), None, (0, 0), key(0))  # type: ignore[arg-type]


def test_plays_full_games_without_losing_to_random() -> None:
    rules, rnd = purestate.agent("rules:p=1"), purestate.agent("random")
    for i in range(300):
        a = purestate.play(GAME, (rules, rnd), (None, None), key(i))
        b = purestate.play(GAME, (rnd, rules), (None, None), key(i))
        assert a.returns[0] >= 0 and b.returns[1] >= 0
