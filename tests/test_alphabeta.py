"""Alpha-beta: solved values, mates and blocks, agreement with exhaustive minimax, a game where
one player moves twice, budgets, tie-breaks and the agent's spec."""

from __future__ import annotations

import functools
import itertools
from typing import Any

import pytest
from attrs import frozen
from tests.moves import play_moves

import purestate
from purestate.agents.alphabeta import AlphaBeta, search
from purestate.agents.timing import with_clock
from purestate.core import keys
from purestate.core.game import GameSpec, IllegalMove
from purestate.core.spec import SpecError

TTT = purestate.make("tictactoe")


def minimax(game: Any, state: Any) -> float:
    """The exact value for the player to move, by exhaustive search (no pruning)."""

    @functools.cache
    def value(s: Any) -> float:
        p = game.to_move(s)
        best = -2.0
        for m in game.legal(s):
            c = game.step(s, m)
            if game.is_over(c):
                v = game.returns(c)[p]
            else:
                v = value(c) if game.to_move(c) == p else -value(c)
            best = max(best, v)
        return best

    return value(state)


def test_solves_tictactoe_to_a_draw() -> None:
    value, move, stats = search(TTT, TTT.initial(), 0)
    assert value == 0.0
    assert stats.proven
    assert move in TTT.legal(TTT.initial())
    assert stats.depth <= 9


def test_all_first_moves_tie_at_a_draw() -> None:
    _, _, stats = search(TTT, TTT.initial(), 0, ties=True)
    assert stats.ties == tuple(range(9))


def test_finds_a_win_in_one() -> None:
    # X: 0, 1; O: 3, 4; X to move wins at 2 (and O threatens 5).
    s = play_moves(TTT, [0, 3, 1, 4])
    for depth in (1, 2, 0):
        value, move, _ = search(TTT, s, depth)
        assert move == 2
        assert value == 1.0


def test_blocks_a_win_in_one() -> None:
    # X: 0, 1 threatens 2; O (to move) holds 4 and must block at 2.
    s = play_moves(TTT, [0, 4, 1])
    for depth in (2, 0):
        _value, move, _ = search(TTT, s, depth)
        assert move == 2, depth
    assert search(TTT, s, 0)[0] == 0.0


def test_agrees_with_minimax_on_seeded_positions() -> None:
    for i in range(60):
        s = TTT.initial()
        k = keys.key(i)
        for ply in range(keys.below(keys.fold_in(k, 99), 7)):
            if TTT.is_over(s):
                break
            s = TTT.step(s, keys.choice(keys.fold_in(k, ply), TTT.legal(s)))
        if TTT.is_over(s):
            continue
        value, move, stats = search(TTT, s, 0)
        exact = minimax(TTT, s)
        assert value == exact
        assert stats.proven
        child = TTT.step(s, move)
        p = TTT.to_move(s)
        if TTT.is_over(child):
            got = TTT.returns(child)[p]
        else:
            got = minimax(TTT, child) * (1 if TTT.to_move(child) == p else -1)
        assert got == exact


@frozen
class Pile:
    tokens: int
    to_move: int
    last: int = -1  # who moved last


@frozen
class TakeTwoMoveAgain:
    """A pile of tokens; take 1 or 2; whoever takes 2 moves again; taking the last token wins."""

    size: int = 9

    @property
    def spec(self) -> GameSpec:
        return GameSpec("take_two_move_again", 2, self.size)

    def initial(self) -> Pile:
        return Pile(self.size, 0)

    def to_move(self, state: Pile) -> int:
        return state.to_move

    def legal(self, state: Pile) -> tuple[int, ...]:
        return tuple(m for m in (1, 2) if m <= state.tokens)

    def is_over(self, state: Pile) -> bool:
        return state.tokens == 0

    def step(self, state: Pile, move: int) -> Pile:
        if move not in self.legal(state):
            raise IllegalMove(f"cannot take {move}")
        mover = state.to_move if move == 2 else 1 - state.to_move
        return Pile(state.tokens - move, mover, state.to_move)

    def returns(self, state: Pile) -> tuple[float, float]:
        if state.tokens:
            return (0.0, 0.0)
        return (1.0, -1.0) if state.last == 0 else (-1.0, 1.0)


def test_same_player_twice_matches_exhaustive_minimax() -> None:
    disagreements = 0
    for n in range(1, 13):
        for p in (0, 1):
            game = TakeTwoMoveAgain(n)
            s = Pile(n, p)
            exact = minimax(game, s)
            value, _move, stats = search(game, s, 0)
            assert value == exact, (n, p)
            assert stats.proven
            disagreements += naive_alternating(game, s, n) != exact
    # the game does punish a search that flips the sign on every ply
    assert disagreements > 0


def naive_alternating(game: Any, s: Any, depth: int) -> float:
    """A negamax that wrongly assumes the players alternate (the mistake the test rules out)."""
    best = -2.0
    for m in game.legal(s):
        c = game.step(s, m)
        if game.is_over(c):
            v = game.returns(c)[game.to_move(s)]
        else:
            v = -naive_alternating(game, c, depth - 1)
        best = max(best, v)
    return best


def test_the_synthetic_game_rewards_the_last_taker() -> None:
    g = TakeTwoMoveAgain(3)
    # player 0 takes 2 (moves again), then takes the last one: player 0 wins
    end = play_moves(g, [2, 1])
    assert g.returns(end) == (1.0, -1.0)
    # player 0 takes 1, player 1 takes 2 and wins
    end = play_moves(g, [1, 2])
    assert g.returns(end) == (-1.0, 1.0)


def test_node_budget_is_deterministic_and_limits_depth() -> None:
    s = TTT.initial()
    a = search(TTT, s, 0, nodes=300)
    b = search(TTT, s, 0, nodes=300)
    assert a == b
    assert 1 <= a[2].depth < 9
    assert not a[2].proven


def test_first_iteration_always_completes() -> None:
    _value, move, stats = search(TTT, TTT.initial(), 0, nodes=1)
    assert stats.depth == 1
    assert move in TTT.legal(TTT.initial())


def test_stop_function_ends_the_search() -> None:
    calls = itertools.count()
    stats = search(TTT, TTT.initial(), 0, stop=lambda: next(calls) >= 2)[2]
    assert stats.depth < 9


def test_evaluation_is_used_at_the_horizon() -> None:
    # An evaluation that likes X on square 4 makes depth-1 X play the centre.
    def centre(game: Any, state: Any) -> float:
        return 0.5 if state.x >> 4 & 1 else 0.0

    value, move, stats = search(TTT, TTT.initial(), 1, centre)
    assert move == 4
    assert value == 0.5
    assert stats.evaluations == 9


def test_terminal_state_is_refused() -> None:
    end = play_moves(TTT, [0, 3, 1, 4, 2])
    with pytest.raises(ValueError, match="over"):
        search(TTT, end, 0)


def test_agent_spec_round_trip_and_bad_options() -> None:
    a = purestate.agent("alphabeta:depth=3,tiebreak=first")
    assert isinstance(a, AlphaBeta)
    assert a.spec == "alphabeta:depth=3,tiebreak=first"
    assert purestate.agent(a.spec) == a
    assert purestate.agent("alphabeta").spec == "alphabeta"
    with pytest.raises(SpecError, match="evaluation"):
        purestate.agent("alphabeta:eval=nonsense")
    with pytest.raises(SpecError, match="depth"):
        purestate.agent("alphabeta:depth=-1")
    with pytest.raises(SpecError, match="clock"):
        purestate.agent("alphabeta:clock=3")


def test_agent_random_tiebreak_follows_the_key() -> None:
    a = purestate.agent("alphabeta")
    s = TTT.initial()
    moves = {a.act(TTT, None, s, keys.key(i)).move for i in range(30)}
    assert len(moves) > 3
    assert a.act(TTT, None, s, keys.key(7)) == a.act(TTT, None, s, keys.key(7))
    first = purestate.agent("alphabeta:tiebreak=first")
    assert {first.act(TTT, None, s, keys.key(i)).move for i in range(5)} == {0}


def test_seconds_budget_needs_a_clock() -> None:
    a = purestate.agent("alphabeta:seconds=0.5")
    with pytest.raises(ValueError, match="clock"):
        a.act(TTT, None, TTT.initial(), keys.key(0))
    ticks = itertools.count()
    timed = with_clock(a, lambda: float(next(ticks)))
    assert timed == a  # the clock is not part of the agent's identity
    assert timed.spec == "alphabeta:seconds=0.5"
    d = timed.act(TTT, None, TTT.initial(), keys.key(0))
    assert d.move in TTT.legal(TTT.initial())


def test_never_loses_to_random() -> None:
    ab = purestate.agent("alphabeta")
    rnd = purestate.agent("random")
    for i in range(20):
        seat = i % 2
        agents = (ab, rnd) if seat == 0 else (rnd, ab)
        ep = purestate.play(TTT, agents, (None, None), keys.key(i))
        assert ep.outcome(seat) >= 0


def test_the_compiled_search_runs_where_the_game_has_rows_and_the_evaluation_a_twin() -> None:
    from purestate.agents.alphabeta_compiled import route
    from purestate.core import compiled, registry
    from purestate.core.hooks import rows_of

    tron = purestate.make("tron")
    # Tron's other evaluations (``chamber``, ``space``) declare no twin: the Python search
    assert route(tron, registry.evaluation("chamber")) is None
    assert route(tron, registry.evaluation("space")) is None
    if compiled.kernels("alphabeta_search", compiled.AGENT_KERNELS) is None:
        assert route(TTT, None) is None  # without numba, nothing is compiled
        assert route(tron, registry.evaluation("voronoi")) is None
        return
    # Tron has rows, and ``voronoi`` a twin on them (the default opponent's search)
    assert route(tron, None) is not None
    assert route(tron, registry.evaluation("voronoi")) is not None
    assert rows_of(TTT) is not None
    assert route(TTT, None) is not None
    # an evaluation that declares no compiled twin keeps the Python search
    assert route(TTT, lambda game, state: 0.25) is None
    # uttt's twin covers ultimate tic-tac-toe's rows, not Xtreme's
    uttt = registry.evaluation("uttt")
    assert route(purestate.make("ultimate_tictactoe"), uttt) is not None
    assert route(purestate.make("xtreme_tictactoe"), uttt) is None
    # a table asked for is the Python search's dict, filled as ever
    table: dict[Any, Any] = {}
    _, _, stats = search(TTT, TTT.initial(), 2, table=table)
    assert len(table) == stats.table_size > 0
