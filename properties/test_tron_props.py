"""Tron invariants: trails only grow, codec round-trips, evaluations are bounded and antisymmetric
under swapping the players, fill searches respect their bounds, bots are pure functions of keys."""

from __future__ import annotations

import contextlib
import itertools
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import purestate
from purestate.agents.alphabeta import search
from purestate.agents.mcts import decisive_playout, unit_reward
from purestate.core import compiled
from purestate.core import keys as K
from purestate.core.batch import random_returns
from purestate.core.game import IllegalMove
from purestate.core.hooks import row_evaluation_of, rows_of
from purestate.games.tron import State, Tron, trails
from purestate.games.tron.maps import parse_map
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
    c0, c1 = H.chamber_counts(s, v, False, t)
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


# ---- the explicit-stack searches against their recursive definitions ---------------------------
# fill_length and chamber_value walk with explicit stacks so that big maps cannot exhaust Python's
# recursion limit. These are the recursive searches they replaced, kept as the specification.


class _Stop(Exception):
    pass


def _fill_length_recursive(free: int, head: int, t: Any, nodes: int) -> int:
    cols, nb, even = t.cols, t.neighbours, t.even
    bound = H.parity_bound(H.flood(free, 1 << head, cols), head, even)
    best = 0
    count = 0

    def dfs(free: int, head: int, depth: int) -> None:
        nonlocal best, count
        count += 1
        if count > nodes:
            raise _Stop
        steps = [n for n in nb[head] if free >> n & 1]
        if not steps:
            return
        if len(steps) > 1:
            steps.sort(key=lambda n: sum(free >> m & 1 for m in nb[n]))
        for n in steps:
            rest = free ^ 1 << n
            if depth + 1 > best:
                best = depth + 1
                if best >= bound:
                    raise _Stop
            if depth + 1 + H.parity_bound(H.flood(rest, 1 << n, cols), n, even) <= best:
                continue
            dfs(rest, n, depth + 1)

    with contextlib.suppress(_Stop):
        dfs(free, head, 0)
    return best


def _chamber_value_recursive(
    region: int, head: int, mine: int, enemy: int, t: Any, edge_weight: float, free: int
) -> float:
    cols = t.cols
    cuts = H.articulation_points(region, head, t)
    open_cells = region & ~cuts
    layers: list[int] = []
    seen = 0
    frontier = 1 << head
    while frontier:
        frontier = H.neighbours_of(frontier, cols) & region & ~seen
        if frontier:
            layers.append(frontier)
        seen |= frontier
    visited = 0
    step_value = 1.0 + 2.0 * edge_weight

    def worth(cells: int) -> float:
        counted = cells & mine
        n = counted.bit_count()
        return n + edge_weight * H.edges(counted, free, cols) if edge_weight else float(n)

    def explore(start: int, entry: int) -> tuple[float, bool]:
        nonlocal visited
        start &= ~visited
        chamber = start & open_cells
        if chamber:
            chamber |= H.flood(open_cells & ~visited, chamber, cols)
        visited |= chamber
        front = bool((chamber | H.neighbours_of(chamber, cols)) & enemy)
        children = (H.neighbours_of(chamber, cols) | start) & cuts & ~visited
        best_calm = 0.0
        best_front = 0.0
        while children:
            low_bit = children & -children
            children ^= low_bit
            if visited & low_bit:
                continue
            visited |= low_bit
            steps = H.layer_distance(low_bit.bit_length() - 1, layers)
            value, child_front = explore(H.neighbours_of(low_bit, cols) & region, steps)
            value += worth(low_bit)
            if child_front or (low_bit | H.neighbours_of(low_bit, cols)) & enemy:
                best_front = max(best_front, max(0, steps - entry - 1) * step_value + value)
            else:
                best_calm = max(best_calm, value)
        return max(worth(chamber) + best_calm, best_front), front or best_front > 0

    return explore(H.neighbours_of(1 << head, cols) & region, 0)[0]


def _random_region(k: Any, name: str) -> tuple[Any, int, int, int]:
    """A map's topology, a random set of its free cells (sparse or dense: corridors, rooms and
    cut vertices), a head cell next to it, and another random set (an enemy's cells)."""
    from purestate.core.keys import bits, fold_in

    g = purestate.make("tron", map=name)
    assert isinstance(g, Tron)
    t = g.topology
    free = H.free_cells(g.initial(), t)
    cells = free & bits(fold_in(k, 0)) & bits(fold_in(k, 1)) | free & bits(fold_in(k, 2))
    if bits(fold_in(k, 5)) & 1:
        cells |= free & bits(fold_in(k, 6))
    listed = [c for c in range(t.size) if cells >> c & 1] or [t.map.starts[0]]
    head = listed[bits(fold_in(k, 3)) % len(listed)]
    cells &= ~(1 << head)
    return t, cells, head, free & bits(fold_in(k, 4))


MAP_NAMES = st.sampled_from(["empty_room", "center_block", "diagonal_blocks", "small_room"])


@given(keys(), MAP_NAMES, st.sampled_from([1, 2, 5, 40, 300, H.FILL_NODES]))
def test_fill_length_equals_the_recursive_search(k: Any, name: str, nodes: int) -> None:
    t, cells, head, _ = _random_region(k, name)
    region = H.flood(cells, 1 << head, t.cols)
    for free in (cells, region):
        expected = _fill_length_recursive(free, head, t, nodes)
        assert H.fill_length.__wrapped__(free, head, t, nodes) == expected


@given(keys(), MAP_NAMES, st.sampled_from([0.0, 0.5, H.EDGE_WEIGHT]))
def test_chamber_value_equals_the_recursive_tree_walk(k: Any, name: str, weight: float) -> None:
    t, cells, head, enemy = _random_region(k, name)
    region = H.flood(cells, 1 << head, t.cols)
    mine = region & ~enemy if weight else region
    enemy &= ~region
    free = cells | enemy
    for enemy_cells in (0, enemy):
        expected = _chamber_value_recursive(region, head, mine, enemy_cells, t, weight, free)
        assert H.chamber_value(region, head, mine, enemy_cells, t, weight, free) == expected


@given(st.sampled_from((ALT, SIM)).flatmap(lambda g: st.tuples(st.just(g), trajectories(g))))
def test_trails_split_every_claimed_cell_between_the_players(game_states: Any) -> None:
    game, states = game_states
    for i in range(1, len(states) + 1):
        t0, t1 = trails(states[:i])
        assert t0 & t1 == 0
        assert t0 | t1 == states[i - 1].blocked & ~game.board.blocked
        for p, h in enumerate((states[i - 1].head0, states[i - 1].head1)):
            assert h < 0 or (t0, t1)[p] >> h & 1


TRON_FIELDS = ("blocked", "head0", "head1", "to_move", "pending", "outcome")


def _by_hand(s: State, **changes: Any) -> State:
    """The state built by hand, through the checking constructor (the rules skip it)."""
    fields = {f: getattr(s, f) for f in TRON_FIELDS}
    return State(**{**fields, **changes})


@given(st.sampled_from([ALT, SIM, SMALL]).flatmap(lambda g: st.tuples(st.just(g), trajectories(g))))
def test_every_reachable_tron_state_passes_the_checks(game_states: Any) -> None:
    game, states = game_states
    for s in states:
        for image in (s, game.observation(s, 0), game.observation(s, 1), game.canonical(s)[0]):
            rebuilt = _by_hand(image)
            assert game.check(rebuilt) == image and hash(rebuilt) == hash(image)
        assert game.decode(game.encode(s)) == s


@given(
    st.sampled_from([ALT, SIM, SMALL]).flatmap(lambda g: st.tuples(st.just(g), trajectories(g))),
    st.sampled_from(TRON_FIELDS),
    st.one_of(
        st.integers(min_value=-(2**70), max_value=2**70),
        st.booleans(),
        st.floats(allow_nan=False),
        st.just("1"),
    ),
)
def test_a_mutated_tron_state_is_refused_or_is_a_position(
    game_states: Any, name: str, value: Any
) -> None:
    game, states = game_states
    s = states[-1]
    try:
        mutated = game.check(_by_hand(s, **{name: value}))
    except IllegalMove as e:
        assert str(e).startswith("not a tron position: ") and "\n" not in str(e)
        return
    # accepted: a position the rules can play or show, whatever it means
    assert type(value) is int
    game.render(mutated)
    if not game.is_over(mutated):
        for move in game.legal(mutated):
            game.step(mutated, move)


def test_impossible_tron_states_name_what_is_wrong() -> None:
    s = SMALL.initial()
    cases = {
        "both heads on one cell": {"head1": s.head0},
        "a negative cell": {"head0": -5},
        "a head on a wall or barrier": {"head0": 0, "blocked": s.blocked | 1},
        "blocked cells beyond": {"blocked": s.blocked | 1 << 10_000},
        "a wall or barrier of map 'small_room' is not blocked": {"blocked": s.blocked & ~1},
        "pending must be -1 or a move 0-3": {"pending": 7},
        "a pending move under alternating rules": {"pending": 1},
        "do not fit the outcome": {"outcome": 0},
        "to_move must be 0 or 1": {"to_move": 2},
    }
    for says, change in cases.items():
        with pytest.raises(IllegalMove, match=re.escape(says)):
            SMALL.check(_by_hand(s, **change))


# -- the row kernels on long games (issue 24) -------------------------------------------------

# every shipped map's room is a few words; a wide user's map takes 19 (and the rows their size)
_WIDE = parse_map("#" * 40 + "\n" + ("#1" + " " * 36 + "2#\n") + ("#" + " " * 38 + "#\n") * 28
                  + "#" * 40 + "\n", "wide")  # fmt: skip
ROW_GAMES = (
    ALT,
    SIM,
    SMALL,
    purestate.make("tron", map="small_room", rules="simultaneous", first_player=1),
    purestate.make("tron", map="joust", first_player=1),
    purestate.make("tron", map=_WIDE, rules="simultaneous", start="mirror", start_seed=5),
    purestate.make("tron", map=_WIDE),
)


@st.composite
def _long_game(draw: st.DrawFn) -> tuple[Tron, list[State]]:
    """A game and the positions of a trajectory made mostly of moves that do not crash:
    uniformly random moves end a Tron game in a few plies, so ``strategies.states`` rarely
    reaches the middle game."""
    game = draw(st.sampled_from(ROW_GAMES), label="game")
    assert isinstance(game, Tron)
    plies = draw(st.integers(0, game.spec.max_length), label="plies")
    k = draw(keys(), label="moves key")
    reckless = draw(st.sampled_from([0, 1, 20]), label="one in this many moves may crash")
    s = game.initial()
    out = [s]
    for ply in range(plies):
        if game.is_over(s):
            break
        moves = game.safe_moves(s)
        k_ply = K.fold_in(k, ply)
        if not moves or (reckless and K.below(K.fold_in(k_ply, 1), reckless) == 0):
            moves = game.legal(s)
        s = game.step(s, moves[K.below(k_ply, len(moves))])
        out.append(s)
    return game, out


@given(_long_game(), keys())
def test_tron_rows_are_the_rules_deep_into_a_game(game_states: Any, k: Any) -> None:
    game, states = game_states
    s = states[-1]
    # the playouts: the pure kernel and the row kernel play the definition's game
    expected = random_returns(game, s, k)
    assert game.random_playout(s, k) == expected
    rows = rows_of(game)
    if rows is None:
        return  # no numba: no rows
    assert rows.playout0(rows.row_of(s), compiled.as_int64(k)) == unit_reward(expected[0])
    tree = compiled.kernels("mcts_tree", compiled.AGENT_KERNELS)
    assert tree is not None
    decisive = tree.generic_decisive(
        rows.legal, rows.step, rows.player, rows.reward0, rows.returns, rows.ending
    )
    # every position of the game, each with every move: a crash, a collision of the heads or a
    # swap needs the heads close, which the last position alone seldom has
    for s in states:
        row = rows.row_of(s)
        assert row.dtype == np.int64 and row.shape == (rows.width,)
        assert rows.state_of(row) == s
        out = np.full(rows.max_moves, -7, np.int64)
        assert tuple(out[: rows.legal(row, out)]) == game.legal(s)
        assert rows.player(row) == (-1 if game.is_over(s) else s.to_move)
        ends = tuple(m for m in game.legal(s) if game.is_over(game.step(s, m)))
        assert tuple(out[: rows.ending(row, out)]) == ends
        before = row.copy()
        for m in game.legal(s):
            child = np.full(rows.width, -7, np.int64)
            rows.step(row, m, child)
            assert np.array_equal(child, rows.row_of(game.step(s, m))), m
        assert np.array_equal(row, before)
        if game.is_over(s):
            assert rows.reward0(row) == unit_reward(game.returns(s)[0])
            for p in (0, 1):
                assert repr(rows.returns(row, p)) == repr(game.returns(s)[p])
        # the default mcts's playout, compiled over the rows (heads close: collisions and
        # draws among the moves the anti-decisive one weighs)
        for anti in (False, True):
            expected = game.returns(decisive_playout(game, s, K.stream(k), anti))
            assert decisive(row, compiled.as_int64(k), anti) == unit_reward(expected[0])


@given(_long_game())
def test_the_compiled_voronoi_is_the_voronoi_evaluation(game_states: Any) -> None:
    # every running position of a long game: the connected ones (territories) and the separated
    # ones (each side's fill search), which ``strategies.states`` seldom reaches
    game, states = game_states
    rows = rows_of(game)
    twin = row_evaluation_of(H.voronoi_eval)
    assert twin is not None
    kernel = twin(game)
    if rows is None or kernel is None:
        return  # no numba: no twin
    for s in states:
        if not game.is_over(s):
            assert repr(kernel(rows.row_of(s))) == repr(H.voronoi_eval(game, s)), game.encode(s)


@settings(max_examples=max(1, settings().max_examples // 3))
@given(_long_game(), st.sampled_from([(1, 0), (2, 0), (4, 0), (4, 40), (6, 500), (0, 300)]))
def test_alphabeta_with_voronoi_is_the_same_search_compiled(
    game_states: Any, budget: tuple[int, int]
) -> None:
    # the Tron bot's search (``alphabeta:depth=4,eval=voronoi``) from deep positions: the same
    # value to the bit, move and statistics on both paths (0 depth: the game's length)
    game, states = game_states
    running = [s for s in states if not game.is_over(s)]
    if not running:
        return
    s = running[-1]
    depth, nodes = budget
    compiled_side, python_side = (
        search(game, s, depth, H.voronoi_eval, nodes=nodes, ties=True, compiled=c)
        for c in (True, False)
    )
    assert repr(compiled_side[0]) == repr(python_side[0])
    assert compiled_side[1:] == python_side[1:]  # the move, and the statistics with the ties
