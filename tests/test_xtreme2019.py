"""The 2019 Xtreme tic-tac-toe bot: its tree shape, determinism, and that it plays sensibly on
tic-tac-toe with a stand-in heuristic (the UTTT heuristic lives on another branch)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.moves import play_moves

import purestate
from purestate.agents.mcts import Tree
from purestate.agents.xtreme2019 import Xtreme2019
from purestate.core import keys
from purestate.core.spec import SpecError

TTT = purestate.make("tictactoe")


def centre_and_corners(game: Any, state: Any) -> tuple[float, ...]:
    """Stand-in per-move scores: centre 3, corners 2, edges 1."""
    weight = (2.0, 1.0, 2.0, 1.0, 3.0, 1.0, 2.0, 1.0, 2.0)
    return tuple(weight[m] for m in game.legal(state))


def depth_of(node: Any) -> int:
    return 1 + max((depth_of(c) for c in node.children), default=0) if node.children else 0


def test_pre_expands_three_plies_best_scored_first() -> None:
    bot = Xtreme2019(simulations=1, scorer=centre_and_corners)
    tree = bot.search(TTT, Tree(), TTT.initial(), keys.key(0))
    root = tree.root
    assert root is not None
    assert depth_of(root) == 3
    assert [c.move for c in root.children][:5] == [4, 0, 2, 6, 8]
    assert len(root.children) == 9
    assert all(len(c.children) == 8 for c in root.children)


def test_width_limits_expansion_below_the_root() -> None:
    bot = Xtreme2019(simulations=1, width=8, scorer=centre_and_corners)
    root = bot.search(TTT, Tree(), TTT.initial(), keys.key(0)).root
    assert root is not None
    # the root's children have 8 legal moves each, not fewer than 8: they stay leaves
    assert depth_of(root) == 1


def test_games_ending_moves_are_leaves() -> None:
    s = play_moves(TTT, [0, 3, 1, 4])
    root = Xtreme2019(simulations=1).search(TTT, Tree(), s, keys.key(0)).root
    assert root is not None
    win = next(c for c in root.children if c.move == 2)
    assert win.player == -1 and not win.children


def test_same_key_same_move() -> None:
    bot = Xtreme2019(simulations=200, scorer=centre_and_corners)
    s = play_moves(TTT, [0])
    assert bot.act(TTT, Tree(), s, keys.key(9)).move == bot.act(TTT, Tree(), s, keys.key(9)).move


def test_takes_a_win_and_blocks() -> None:
    bot = Xtreme2019(simulations=400, scorer=centre_and_corners)
    assert bot.act(TTT, Tree(), play_moves(TTT, [0, 3, 1, 4]), keys.key(1)).move == 2
    assert bot.act(TTT, Tree(), play_moves(TTT, [0, 4, 1]), keys.key(1)).move == 2


def test_beats_random_most_of_the_time() -> None:
    bot = Xtreme2019(simulations=300, scorer=centre_and_corners)
    rnd = purestate.agent("random")
    score = 0.0
    n = 20
    for i in range(n):
        seat = i % 2
        agents = (bot, rnd) if seat == 0 else (rnd, bot)
        tables = (Tree(), None) if seat == 0 else (None, Tree())
        ep = purestate.play(TTT, agents, tables, keys.key(i))
        score += (ep.outcome(seat) + 1) / 2
    assert score / n >= 0.75


def test_reuse_keeps_the_subtree() -> None:
    bot = Xtreme2019(simulations=300)
    d = bot.act(TTT, Tree(), TTT.initial(), keys.key(0))
    s2 = play_moves(TTT, [d.move, next(iter(TTT.legal(TTT.step(TTT.initial(), d.move))))])
    d2 = bot.act(TTT, d.table, s2, keys.key(1))
    assert d2.table.root.n > d2.table.simulations
    fresh = Xtreme2019(simulations=300, reuse=False).act(TTT, d.table, s2, keys.key(1))
    assert fresh.table.root.n == 300


def test_spec() -> None:
    bot = purestate.agent("xtreme2019:simulations=50,playout=random")
    assert bot.spec == "xtreme2019:simulations=50,playout=random"
    assert purestate.agent(bot.spec) == bot
    with pytest.raises(SpecError):
        purestate.agent("xtreme2019:scores=nothing")


def test_seedbot_is_an_alias_of_xtreme2019() -> None:
    # its former name still builds it, so old specs, run folders and records keep working
    for old in ("seedbot", "seedbot:simulations=50,playout=random"):
        bot = purestate.agent(old)
        assert bot == purestate.agent(old.replace("seedbot", "xtreme2019"))
        assert bot.spec.startswith("xtreme2019")
        assert purestate.agent(bot.spec) == bot
