"""Observation planes (each game's ``planes`` hook): what the bridges show, for every registered
game (from the registry), and the shipped games' planes read off the moves played, cell by cell
(a new game's go in its own tests, as connect four's do; the generic contract is the conformance
suite's)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import purestate
from purestate.core.hooks import observation_of, planes_of
from purestate.core.keys import choice, fold_in, key

# every variant of every registered game (``GameSpec.variants``)
EVERY_CASE = tuple(v for name in purestate.games() for v in purestate.make(name).spec.variants)


@pytest.mark.parametrize("spec", EVERY_CASE)
def test_pettingzoo_observes_each_game_through_its_planes(spec: str) -> None:
    pytest.importorskip("pettingzoo")
    from purestate.interop.pettingzoo import env

    game, states, moves = _random_game(spec, 3)
    planes, observe = planes_of(game), observation_of(game)
    assert planes is not None
    e = env(spec)
    e.reset()
    for i, s in enumerate(states):
        for p, agent in enumerate(("player_0", "player_1")):
            seen = s if observe is None else observe(s, p)
            assert (e.observe(agent)["observation"] == planes(seen, p)).all(), (i, p)
        if i < len(moves):
            e.step(moves[i])


def _random_game(spec: str, seed: int) -> tuple[Any, list[Any], list[int]]:
    game = purestate.make_spec(spec)
    states, moves = [game.initial()], []
    while not game.is_over(states[-1]):
        moves.append(choice(fold_in(key(seed), len(moves)), game.legal(states[-1])))
        states.append(game.step(states[-1], moves[-1]))
    return game, states, moves


@pytest.mark.parametrize("seed", range(12))
def test_small_board_planes_are_the_moves_played(seed: int) -> None:
    for spec, grids in (("tictactoe", 0), ("ultimate_tictactoe", 1), ("xtreme_tictactoe", 2)):
        game, states, moves = _random_game(spec, seed)
        planes = planes_of(game)
        assert planes is not None
        for i in (len(states) // 2, len(states) - 1):
            s = states[i]
            for p in (0, 1):
                shape = (3, 3) if grids == 0 else (9, 9 * grids)
                expected = np.zeros((*shape, 2 if grids == 0 else 4), dtype=np.int8)
                for m, mover in zip(moves[:i], _movers(game, states[:i]), strict=True):
                    if grids == 0:
                        r, c = divmod(m, 3)
                    else:  # the module's numbering: (k * 9 + position) * 9 + cell
                        sb, cell = divmod(m, 9)
                        k, pos = divmod(sb, 9)
                        r = 3 * (pos // 3) + cell // 3
                        c = 9 * k + 3 * (pos % 3) + cell % 3
                    expected[r, c, 0 if mover == p else 1] = 1
                if grids:
                    for sb in range(9 * grids):
                        k, pos = divmod(sb, 9)
                        rows = slice(3 * (pos // 3), 3 * (pos // 3) + 3)
                        cols = slice(9 * k + 3 * (pos % 3), 9 * k + 3 * (pos % 3) + 3)
                        for owner, won in ((0, s.won_x), (1, s.won_o)):
                            if won >> sb & 1:
                                expected[rows, cols, 2 if owner == p else 3] = 1
                got = planes(s, p)
                assert got.dtype == np.int8 and got.shape == expected.shape
                assert (got == expected).all(), (spec, seed, i, p)


def _movers(game: Any, states: list[Any]) -> list[int]:
    return [game.to_move(s) for s in states]


@pytest.mark.parametrize("seed", range(12))
def test_dots_and_tron_planes_are_the_moves_played(seed: int) -> None:
    game, states, moves = _random_game("dots_and_boxes:rows=2,cols=3", seed)
    dots = planes_of(game)
    assert dots is not None
    rows, cols = 2, 3
    num_h = (rows + 1) * cols
    for i in (len(states) // 2, len(states) - 1):
        s = states[i]
        for p in (0, 1):
            expected = np.zeros((rows + 1, cols + 1, 4), dtype=np.int8)
            for m in moves[:i]:
                if m < num_h:  # the line right of dot (r, c)
                    r, c = divmod(m, cols)
                    expected[r, c, 0] = 1
                else:  # the line below dot (r, c)
                    r, c = divmod(m - num_h, cols + 1)
                    expected[r, c, 1] = 1
            for b in range(rows * cols):
                for owner, boxes in ((0, s.own0), (1, s.own1)):
                    if boxes >> b & 1:
                        expected[b // cols, b % cols, 2 if owner == p else 3] = 1
            assert (dots(s, p) == expected).all()
    game, states, moves = _random_game("tron:map=small_room", seed)
    m = game.board
    tron = planes_of(game)
    assert tron is not None
    for s in states:
        for p in (0, 1):
            got = tron(s, p)
            text = game.render(s).splitlines()
            for r in range(m.rows):
                for c in range(m.cols):
                    assert got[r, c, 0] == (text[r][c] != " ")  # walls, trails and heads
            for plane, head in ((1, (s.head0, s.head1)[p]), (2, (s.head1, s.head0)[p])):
                assert got[:, :, plane].sum() == (head >= 0)
                if head >= 0:
                    assert got[head // m.cols, head % m.cols, plane] == 1
