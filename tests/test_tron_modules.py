"""Tron's modules: one flood fill."""

from __future__ import annotations

from typing import Any

import purestate
from purestate.games.tron import Tron, grid
from purestate.heuristics import tron as H


def tron(**params: Any) -> Tron:
    game = purestate.make("tron", **params)
    assert isinstance(game, Tron)
    return game


# ---- the one flood fill -------------------------------------------------------------------------


def test_the_heuristics_and_the_rules_share_one_flood_fill() -> None:
    assert H.flood is grid.flood
    assert H.neighbours_of is grid.neighbours_of


def test_flood_never_counts_its_seed_cells_even_when_they_are_free() -> None:
    g = tron(map="empty_room")
    s = g.initial()
    t = g.topology
    blocked = H.free_cells(s, t)
    head = 1 << s.head0
    # the head made free: a path out and back would reach it again, yet it is not counted
    region = H.flood(blocked | head, head, t.cols)
    assert not region & head
    assert region == H.flood(blocked, head, t.cols)
    # and the caller that wants the seed ORs it in: the start cell's component of the map
    component = H.flood(g.board.free, 1 << g.board.starts[0], t.cols) | 1 << g.board.starts[0]
    assert component >> g.board.starts[1] & 1
