"""Properties of ultimate tic-tac-toe: symmetries, codec, purity, closed boards, mark counts."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from purestate.core.keys import Key
from purestate.games.ultimate import State, UltimateTicTacToe
from purestate.heuristics import uttt as heuristic

from .strategies import keys, states, trajectories

GAME = UltimateTicTacToe()
SYMS = st.sampled_from(GAME.symmetries)


@given(states(GAME), SYMS)
def test_symmetries_commute_with_the_rules(s: State, g: int) -> None:
    img = GAME.transform(s, g)
    assert GAME.transform(img, GAME.inverse(g)) == s
    assert GAME.to_move(img) == GAME.to_move(s)
    assert GAME.is_over(img) == GAME.is_over(s)
    assert GAME.returns(img) == GAME.returns(s)
    assert sorted(GAME.transform_move(m, g) for m in GAME.legal(s)) == list(GAME.legal(img))
    for m in GAME.legal(s)[:5]:
        assert GAME.step(img, GAME.transform_move(m, g)) == GAME.transform(GAME.step(s, m), g)
    assert heuristic.evaluate(GAME, img) == heuristic.evaluate(GAME, s)


@given(states(GAME), SYMS)
def test_canonical_is_shared_by_the_whole_class(s: State, g: int) -> None:
    rep, h = GAME.canonical(s)
    assert GAME.transform(s, h) == rep
    assert GAME.canonical(GAME.transform(s, g))[0] == rep


@given(states(GAME))
def test_decode_inverts_encode(s: State) -> None:
    assert GAME.decode(GAME.encode(s)) == s


@given(states(GAME), st.integers(0, 10**6))
def test_step_never_changes_its_input(s: State, pick: int) -> None:
    if GAME.is_over(s):
        return
    before = (GAME.encode(s), hash(s))
    moves = GAME.legal(s)
    GAME.step(s, moves[pick % len(moves)])
    assert (GAME.encode(s), hash(s)) == before


@given(trajectories(GAME))
def test_closed_boards_stay_closed_and_marks_add_up(path: list[State]) -> None:
    for ply, (a, b) in enumerate(pairwise(path), start=1):
        assert a.closed & ~b.closed == 0
        assert a.won_x & ~b.won_x == 0 and a.won_o & ~b.won_o == 0
        assert b.x.bit_count() + b.o.bit_count() == ply
        assert b.x.bit_count() - b.o.bit_count() == b.to_move
        new = (b.x | b.o) & ~(a.x | a.o)
        assert new.bit_count() == 1
        assert new & (a.o if a.to_move else a.x) == 0
        # nothing is ever played in a board that was closed
        assert not a.closed >> (new.bit_length() - 1) // 9 & 1
    end = path[-1]
    assert (len(GAME.legal(end)) == 0) == GAME.is_over(end)


@given(states(GAME), keys())
def test_playout_depends_only_on_state_and_key(s: State, k: int) -> None:
    r = GAME.playout(s, Key(k))
    assert r == GAME.playout(s, Key(k))
    assert r in ((1.0, -1.0), (0.0, 0.0), (-1.0, 1.0))


@given(states(GAME), SYMS)
def test_move_scores_align_with_the_legal_moves_and_the_symmetries(s: State, g: int) -> None:
    img = GAME.transform(s, g)
    for scorer in (heuristic.move_scores, heuristic.code_move_scores):
        scores = scorer(GAME, s)
        assert len(scores) == len(GAME.legal(s))
        assert all(v >= 1.0 for v in scores)
        by_move = dict(zip(GAME.legal(img), scorer(GAME, img), strict=True))
        for m, v in zip(GAME.legal(s), scores, strict=True):
            assert by_move[GAME.transform_move(m, g)] == v
    assert -1.0 < heuristic.evaluate(GAME, s) < 1.0


@given(states(GAME))
def test_people_can_type_every_legal_move_and_read_every_board(s: State) -> None:
    for m in GAME.legal(s):
        assert GAME.parse_move(s, GAME.format_move(m)) == m
        assert GAME.parse_move(s, str(m)) == m
    text = GAME.render(s)
    assert ("to move" in text) != GAME.is_over(s)
