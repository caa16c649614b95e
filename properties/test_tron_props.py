"""Tron invariants: trails only grow, codec round-trips, evaluations are bounded and antisymmetric
under swapping the players, fill searches respect their bounds, bots are pure functions of keys."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import purestate
from purestate.games.tron import State, Tron
from purestate.heuristics import tron as H

from .strategies import keys, trajectories

ALT = purestate.make("tron", map="diagonal_blocks")
SIM = purestate.make("tron", map="center_block", rules="simultaneous")
SMALL = purestate.make("tron", map="small_room")
assert isinstance(ALT, Tron) and isinstance(SIM, Tron) and isinstance(SMALL, Tron)
EVALUATIONS = (H.space, H.voronoi_eval, H.chamber_eval, H.linear)


def _swap(state: State) -> State:
    """The same board with the players' roles exchanged."""
    outcome = 1 - state.outcome if state.outcome in (0, 1) else state.outcome
    return State(state.blocked, state.head1, state.head0, 1 - state.to_move, state.pending, outcome)


@given(trajectories(ALT))
def test_alternating_moves_claim_one_cell_each(states: list[State]) -> None:
    for a, b in itertools.pairwise(states):
        assert a.blocked & b.blocked == a.blocked  # nothing is ever freed
        grown = (b.blocked ^ a.blocked).bit_count()
        assert grown == (0 if b.outcome != -1 else 1)
        assert b.to_move == 1 - a.to_move
        for h in (b.head0, b.head1):
            assert h < 0 or b.blocked >> h & 1
    assert len(states) - 1 <= ALT.board.free.bit_count() - 1


@given(trajectories(SIM))
def test_simultaneous_rounds_claim_two_cells(states: list[State]) -> None:
    for a, b in itertools.pairwise(states):
        if a.pending == -1:
            assert (b.blocked == a.blocked and b.pending >= 0) or b.outcome != -1
        elif b.outcome == -1:
            assert (b.blocked ^ a.blocked).bit_count() == 2 and b.pending == -1
        assert SIM.observation(b, SIM.to_move(b)).pending == -1


@given(trajectories(SIM))
def test_codec_round_trips(states: list[State]) -> None:
    for s in states:
        assert SIM.decode(SIM.encode(s)) == s


@given(trajectories(ALT, max_plies=60))
def test_evaluations_are_bounded_and_antisymmetric(states: list[State]) -> None:
    s = states[-1]
    for ev in EVALUATIONS:
        v = ev(ALT, s)
        assert -1 < v < 1
        assert ev(ALT, _swap(s)) == -v


@given(trajectories(ALT, max_plies=60))
def test_voronoi_partitions_the_reachable_cells(states: list[State]) -> None:
    s = states[-1]
    if ALT.is_over(s):
        return
    t = ALT.topology
    v = H.voronoi(s, t)
    free = H.free_cells(s, t)
    assert not v.own0 & v.own1 and not v.own0 & v.ties and not v.own1 & v.ties
    assert v.own0 | v.own1 | v.ties == v.reach0 | v.reach1
    assert v.reach0 == H.flood(free, 1 << s.head0, t.cols)
    assert v.separated == (not v.reach0 & v.reach1)
    c0, c1 = H._chamber_counts(s, v, False, t)
    assert 0 <= c0 <= v.reach0.bit_count() and 0 <= c1 <= v.reach1.bit_count()


@given(trajectories(SMALL))
def test_fill_length_respects_its_bounds(states: list[State]) -> None:
    s = states[-1]
    if SMALL.is_over(s):
        return
    t = SMALL.topology
    free = H.free_cells(s, t)
    region = H.flood(free, 1 << s.head0, t.cols)
    n = H.fill_length(region, s.head0, t)
    assert n <= H.parity_bound(region, s.head0, t.even) <= region.bit_count()
    assert (n == 0) == (region == 0)


@given(trajectories(ALT, max_plies=40), keys())
def test_bots_are_pure_functions_of_the_key(states: list[State], k: Any) -> None:
    s = states[-1]
    if ALT.is_over(s):
        return
    for name in ("tron_random", "tron_wall", "tron_greedy"):
        bot = purestate.agent(name)
        d = bot.act(ALT, None, s, k)
        assert d == bot.act(ALT, None, s, k)
        safe = ALT.safe_moves(s)
        assert d.move in (safe or (0,))


@given(st.integers(0, 2**62))
def test_mirror_starts_for_any_seed(seed: int) -> None:
    g = purestate.make("tron", map="diagonal_blocks", start="mirror", start_seed=seed)
    assert isinstance(g, Tron)
    s = g.initial()
    m = g.board
    assert s.head1 == m.mirror(s.head0) != s.head0
    assert not m.blocked >> s.head0 & 1 and not m.blocked >> s.head1 & 1
    assert s.head0 != m.cell(m.rows // 2, m.cols // 2)


@given(keys(), st.sampled_from(["empty_room", "center_block", "diagonal_blocks", "small_room"]))
def test_articulation_points_are_the_cells_that_cut(k: int, name: str) -> None:
    # against the definition: a cell is a cut vertex iff removing it leaves some cell of the
    # root's component unreachable from the root
    from purestate.core.keys import bits, fold_in

    g = purestate.make("tron", map=name)
    assert isinstance(g, Tron)
    t = g.topology
    free = H.free_cells(g.initial(), t)
    cells = free & bits(fold_in(k, 0)) & bits(fold_in(k, 1)) | free & bits(fold_in(k, 2))
    cells_list = [c for c in range(t.size) if cells >> c & 1]
    if not cells_list:
        return
    root = cells_list[bits(fold_in(k, 3)) % len(cells_list)]
    cells &= ~(1 << root)
    component = H.flood(cells, 1 << root, t.cols)
    cuts = H.articulation_points(component, root, t)
    for c in range(t.size):
        if not component >> c & 1:
            assert not cuts >> c & 1
            continue
        rest = component & ~(1 << c)
        assert bool(cuts >> c & 1) == (H.flood(rest, 1 << root, t.cols) != rest)
