"""Tic-tac-toe: golden counts and solved values (reference/menace.md §3), OpenSpiel cross-checks."""

from __future__ import annotations

import random

import pytest
from tests.moves import play_moves

import purestate
from purestate.core.game import IllegalMove, ParseError
from purestate.solve import solve
from purestate.solve.counts import census, count_games, reachable

GAME = purestate.make("tictactoe")
X_WIN, DRAW, O_WIN = 1.0, 0.0, -1.0


def test_reachable_positions_and_canonical_positions() -> None:
    c = census(GAME)
    assert c.positions == 5478
    assert c.canonical_positions == 765
    assert list(c.by_depth.values()) == [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]
    assert list(c.canonical_by_depth.values()) == [1, 3, 12, 38, 108, 174, 204, 153, 57, 15]


def test_canonical_is_the_smallest_text_image_everywhere() -> None:
    # canonical() ranks images by an int that must order them exactly as their encode() texts
    # (saved MENACE and Q tables are keyed by these representatives)
    for s in reachable(GAME):
        images = [(GAME.encode(GAME.transform(s, g)), g) for g in GAME.symmetries]
        text, g = min(images)
        assert GAME.canonical(s) == (GAME.transform(s, g), g)
        assert GAME.encode(GAME.canonical(s)[0]) == text


def test_terminal_positions_by_result() -> None:
    c = census(GAME)
    assert sum(c.terminal.values()) == 958
    assert c.terminal == {X_WIN: 626, O_WIN: 316, DRAW: 16}
    assert sum(c.canonical_terminal.values()) == 138
    assert c.canonical_terminal == {X_WIN: 91, O_WIN: 44, DRAW: 3}


def test_canonical_non_terminal_positions_by_player_and_ply() -> None:
    by = census(GAME).canonical_to_move
    x_to_move = [by[(0, d)] for d in (0, 2, 4, 6, 8)]
    o_to_move = [by[(1, d)] for d in (1, 3, 5, 7)]
    assert x_to_move == [1, 12, 108, 183, 34]  # 338; without the forced 9th move: Michie's 304
    assert sum(x_to_move[:4]) == 304
    assert o_to_move == [3, 38, 153, 95]  # 289
    assert len(by) == 9


def test_possible_games() -> None:
    g = count_games(GAME)
    assert g.total == 255168
    assert g.by_result == {X_WIN: 131184, O_WIN: 77904, DRAW: 46080}
    assert g.by_length == {5: 1440, 6: 5328, 7: 47952, 8: 72576, 9: 127872}


def test_value_is_a_draw_and_every_opening_draws() -> None:
    sol = solve(GAME)
    start = GAME.initial()
    assert sol.value(start) == 0.0
    assert sol.distance(start) == 9
    assert [sol.value(GAME.step(start, m)) for m in range(9)] == [0.0] * 9


def test_o_drawing_replies() -> None:
    # Corner -> only the centre; centre -> any corner; edge -> centre, adjacent corners, far edge.
    sol = solve(GAME)

    def drawing(first: int) -> set[int]:
        s = GAME.step(GAME.initial(), first)
        return {m for m in GAME.legal(s) if sol.value(GAME.step(s, m)) == 0.0}

    assert drawing(0) == {4}
    assert drawing(4) == {0, 2, 6, 8}
    assert drawing(1) == {4, 0, 2, 7}


def test_scripted_game_and_errors() -> None:
    s = play_moves(GAME, [4, 0, 8, 2, 1, 7, 6, 3, 5])
    assert GAME.is_over(s) and GAME.returns(s) == (0.0, 0.0)
    won = play_moves(GAME, [0, 3, 1, 4, 2])
    assert GAME.returns(won) == (1.0, -1.0)
    assert GAME.legal(won) == ()
    with pytest.raises(IllegalMove, match="over"):
        GAME.step(won, 8)
    with pytest.raises(IllegalMove, match="taken"):
        GAME.step(GAME.step(GAME.initial(), 4), 4)
    with pytest.raises(ParseError):
        GAME.decode("XXXXXXXXX")


def test_cached_children_do_not_take_lookalike_moves() -> None:
    # the memo of children is a list: -1 would read square 8 and True square 1 once cached
    s = GAME.initial()
    GAME.step(s, 8)
    GAME.step(s, 1)
    with pytest.raises(
        IllegalMove, match=r"^-1 is not a move of tictactoe \(moves are ints 0-8\)$"
    ):
        GAME.step(s, -1)
    with pytest.raises(IllegalMove, match=r"^True is not a move of tictactoe"):
        GAME.step(s, True)  # type: ignore[arg-type]
    for bad in (1.0, "1", None, 9, 2**70):
        with pytest.raises(IllegalMove, match="is not a move of tictactoe"):
            GAME.step(s, bad)  # type: ignore[arg-type]


def test_openspiel_agrees_on_random_playouts() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    ref = pyspiel.load_game("tic_tac_toe")
    rng = random.Random(3)
    for _ in range(300):
        s = GAME.initial()
        r = ref.new_initial_state()
        while not GAME.is_over(s):
            assert list(GAME.legal(s)) == list(r.legal_actions())
            assert GAME.to_move(s) == r.current_player()
            m = rng.choice(GAME.legal(s))
            s = GAME.step(s, m)
            r.apply_action(m)
        assert r.is_terminal()
        assert tuple(GAME.returns(s)) == tuple(r.returns())


def test_openspiel_minimax_agrees_on_values() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import minimax

    ref = pyspiel.load_game("tic_tac_toe")
    sol = solve(GAME)
    for moves in ([], [0], [1], [4, 0], [0, 1], [0, 4, 8], [1, 4, 7, 0]):
        r = ref.new_initial_state()
        for m in moves:
            r.apply_action(m)
        value, _ = minimax.alpha_beta_search(ref, state=r, maximizing_player_id=0)
        assert value == sol.value(play_moves(GAME, moves))
