"""The conformance suite every registered game passes (like pgx's api_test and OpenSpiel's
random_sim_test): random playouts through the public API, checking the protocol's promises."""

from __future__ import annotations

import importlib
import pickle
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import purestate
from purestate.agents.mcts import decisive_playout
from purestate.core import keys
from purestate.core.agent import check_game
from purestate.core.batch import random_returns
from purestate.core.game import Game, IllegalMove
from purestate.core.hooks import (
    coloured_board_of,
    decisive_playout_of,
    draw_of,
    ending_moves_of,
    num_move_ids_of,
    observation_of,
    plane_lines_of,
    plane_shape_of,
    planes_of,
    playout_of,
    render_labels_of,
    score_of,
    seat_marks_of,
    seat_name,
    unscored_of,
)
from purestate.core.record import game_spec

GAMES_PER_CASE = 12


def _random_game(game: Game[Any, Any], k: keys.Key) -> list[Any]:
    state = game.initial()
    states = [state]
    ply = 0
    while not game.is_over(state):
        moves = game.legal(state)
        state = game.step(state, keys.choice(keys.fold_in(k, ply), moves))
        states.append(state)
        ply += 1
    return states


@pytest.fixture(scope="module")
def game(conformance_game: Game[Any, Any]) -> Game[Any, Any]:
    """Each registered game case in turn (each game's ``GameSpec.variants``, through the root
    conftest), then each OpenSpiel game of ``OPENSPIEL_CASES`` through the bridge."""
    return conformance_game


def test_spec_names_the_game(registered_game: Game[Any, Any]) -> None:
    game = registered_game
    assert game.spec.name in purestate.games()
    assert game.spec.num_players == 2


def test_the_spec_string_rebuilds_the_game(game: Game[Any, Any]) -> None:
    # what records store; a bridged game's name is its whole spec (``openspiel:hex:...``)
    spec = game_spec(game)
    assert purestate.make_spec(spec) == game
    assert game.spec.num_players == 2
    if game.spec.name not in purestate.games():
        assert spec == game.spec.name and spec.startswith("openspiel:")


def test_spec_declares_a_bound_and_a_default_opponent_that_plays_it(
    game: Game[Any, Any],
) -> None:
    # whole-game algorithms refuse a game without a bound, so every registered game has one
    assert isinstance(game.spec.positions, int) and game.spec.positions > 0
    opponent = purestate.agent(game.spec.default_opponent)
    check_game(opponent, game)  # `purestate play GAME` must not open with a refusal


def test_playouts_keep_the_protocol(game: Game[Any, Any]) -> None:
    for i in range(GAMES_PER_CASE):
        states = _random_game(game, keys.key(i))
        assert len(states) - 1 <= game.spec.max_length
        for s in states:
            over = game.is_over(s)
            assert (len(game.legal(s)) == 0) == over
            if not over:
                assert game.to_move(s) in (0, 1)
                assert len(set(game.legal(s))) == len(game.legal(s))
        r = game.returns(states[-1])
        assert len(r) == 2
        if game.spec.zero_sum:
            assert r[0] + r[1] == pytest.approx(0.0)
        if game.spec.outcomes is not None:
            assert r[0] in game.spec.outcomes


def test_encode_decode_round_trip(game: Game[Any, Any]) -> None:
    for i in range(GAMES_PER_CASE):
        for s in _random_game(game, keys.key(100 + i)):
            text = game.encode(s)
            assert isinstance(text, str)
            back = game.decode(text)
            assert back == s
            assert hash(back) == hash(s)
            assert game.encode(back) == text


def test_symmetries_commute_with_the_rules(game: Game[Any, Any]) -> None:
    syms = game.symmetries
    assert syms[0] == 0
    for i in range(max(2, GAMES_PER_CASE // 3)):
        for s in _random_game(game, keys.key(200 + i)):
            rep, g = game.canonical(s)
            assert game.transform(s, g) == rep
            assert game.canonical(rep)[0] == rep
            for h in syms:
                img = game.transform(s, h)
                assert game.transform(img, game.inverse(h)) == s
                assert game.canonical(img)[0] == rep
                assert game.is_over(img) == game.is_over(s)
                assert game.returns(img) == game.returns(s)
                if game.is_over(s):
                    continue
                assert game.to_move(img) == game.to_move(s)
                moved = {game.transform_move(m, h) for m in game.legal(s)}
                assert moved == set(game.legal(img))
                m = game.legal(s)[0]
                assert game.step(img, game.transform_move(m, h)) == game.transform(
                    game.step(s, m), h
                )


def test_same_key_same_game(game: Game[Any, Any]) -> None:
    rnd = purestate.agent("random")
    a = purestate.play(game, (rnd, rnd), (None, None), keys.key(7))
    b = purestate.play(game, (rnd, rnd), (None, None), keys.key(7))
    assert a == b
    assert purestate.replay(game, a.moves) == a


def test_the_game_pickles_and_plays_the_same_games_in_a_worker(game: Game[Any, Any]) -> None:
    # evaluate, tournament, sweep and selfplay send games to worker processes by pickle;
    # connect four's closures once made tournament --jobs 2 end in a traceback
    again = pickle.loads(pickle.dumps(game))
    assert again == game
    rnd = purestate.agent("random")
    a = purestate.play(game, (rnd, rnd), (None, None), keys.key(8))
    b = purestate.play(again, (rnd, rnd), (None, None), keys.key(8))
    assert a.moves == b.moves and a.returns == b.returns


def test_terminal_and_illegal_moves_are_refused(game: Game[Any, Any]) -> None:
    final = _random_game(game, keys.key(300))[-1]
    first = game.initial()
    with pytest.raises(IllegalMove):
        game.step(final, game.legal(first)[0])


def test_render_and_move_text(game: Game[Any, Any]) -> None:
    s = game.initial()
    assert isinstance(game.render(s), str) and game.render(s)
    for m in game.legal(s):
        assert game.parse_move(s, game.format_move(m)) == m


def _lookalikes(move: Any) -> list[Any]:
    """Objects that resemble ``move`` without being it: the same number as a bool, float or
    text, the move in a tuple, and for an int the negative index of the same table slot."""
    out: list[Any] = [str(move), (move,)]
    if type(move) is int:
        out += [float(move), -1 - move, -move]
        if move in (0, 1):
            out.append(bool(move))
    return out


def _odd_moves(seen: Sequence[Any]) -> st.SearchStrategy[Any]:
    """Objects a caller might pass as a move: ints of any size and sign, bools, floats, text,
    None, tuples, the moves ``seen`` in this and other positions, and look-alikes of them."""
    near = st.integers(-200, 200)
    return st.one_of(
        near,
        st.integers(),
        st.sampled_from((-(2**64), -(10**30), 2**63 - 1, 2**64, 10**30)),
        st.booleans(),
        st.floats(),
        st.text(max_size=4),
        st.none(),
        st.tuples(near),
        st.tuples(near, near),
        st.sampled_from(seen),
        st.sampled_from(seen).flatmap(lambda m: st.sampled_from(_lookalikes(m))),
    )


def _step_or_refuse(game: Game[Any, Any], state: Any, move: Any) -> None:
    """``move`` is one of ``legal(state)`` (same type and value) and steps, or it raises
    ``IllegalMove`` with a one-line reason: no other exception, no silent success."""
    if any(type(move) is type(m) and move == m for m in game.legal(state)):
        game.step(state, move)
        return
    with pytest.raises(IllegalMove) as refused:
        game.step(state, move)
    reason = str(refused.value)
    assert reason and "\n" not in reason


# each example plays two whole games: a third of the profile's examples per case
@settings(max_examples=settings().max_examples // 3)
@given(data=st.data(), seeds=st.tuples(st.integers(0, 2**32), st.integers(0, 2**32)))
def test_step_takes_exactly_the_legal_moves(
    game: Game[Any, Any], data: st.DataObject, seeds: tuple[int, int]
) -> None:
    states = _random_game(game, keys.key(seeds[0]))
    others = states + _random_game(game, keys.key(seeds[1]))
    seen = sorted({m for s in others for m in game.legal(s)}, key=repr)
    # the start (every move open) and a drawn position of a random game, maybe the last
    for state in (states[0], data.draw(st.sampled_from(states), label="state")):
        moves = data.draw(st.lists(_odd_moves(seen), min_size=1, max_size=12), label="moves")
        for m in moves:
            _step_or_refuse(game, state, m)
        # memoised rules (tic-tac-toe keeps each position's children) must check before the
        # memo, so the same objects again once every child of the position is cached
        for m in game.legal(state):
            game.step(state, m)
        for m in moves:
            _step_or_refuse(game, state, m)


# -- the optional hooks, on every game that has them (declared in core/game.py) -------------------


def _states(game: Game[Any, Any], n: int, base: int) -> list[Any]:
    """The positions of ``n`` random games (openings, middles and ends alike)."""
    return [s for i in range(n) for s in _random_game(game, keys.key(base + i))]


@pytest.mark.with_hook.with_args(playout_of)
def test_playout_plays_the_random_game_of_its_key(hooked_game: Game[Any, Any]) -> None:
    game = hooked_game
    playout = playout_of(game)
    assert playout is not None
    for n, s in enumerate(_states(game, 4, 500)):
        k = keys.fold_in(keys.key(501), n)
        # the game the contract names: legal(s)[int(r * len)] with r drawn from the key's
        # counter stream (compiled or not), or its generator with draws="mersenne"
        for draws in ("counter", "mersenne"):
            rand = keys.draws(k, draws)
            t = s
            while not game.is_over(t):
                moves = game.legal(t)
                t = game.step(t, moves[int(rand() * len(moves))])
            assert playout(s, k, draws) == game.returns(t)
        assert playout(s, k) == playout(s, k, "counter") == random_returns(game, s, k)


@pytest.mark.with_hook.with_args(decisive_playout_of)
def test_decisive_playout_plays_the_decisive_game_of_its_key(hooked_game: Game[Any, Any]) -> None:
    game = hooked_game
    playout = decisive_playout_of(game)
    assert playout is not None
    for n, s in enumerate(_states(game, 4, 600)):
        k = keys.fold_in(keys.key(601), n)
        # the game the contract names: an immediate win when there is one, else the key's draw
        # (with ``anti``: from there on, the first move that does not let the opponent win)
        for anti in (False, True):
            for draws in ("counter", "mersenne"):
                end = decisive_playout(game, s, keys.draws(k, draws), anti)
                assert playout(s, k, anti, draws) == game.returns(end)
            assert playout(s, k, anti) == playout(s, k, anti, "counter")


@pytest.mark.with_hook.with_args(ending_moves_of)
def test_ending_moves_are_the_moves_after_which_the_game_is_over(
    hooked_game: Game[Any, Any],
) -> None:
    game = hooked_game
    ending = ending_moves_of(game)
    assert ending is not None
    found = 0
    for s in _states(game, 12, 700):
        expected = tuple(m for m in game.legal(s) if game.is_over(game.step(s, m)))
        assert ending(s) == expected
        found += bool(expected)
    assert found  # the random games reach positions a move can end


@pytest.mark.with_hook.with_args(score_of)
def test_score_agrees_with_returns(hooked_game: Game[Any, Any]) -> None:
    game = hooked_game
    score = score_of(game)
    assert score is not None
    assert score(game.initial()) == (0.0, 0.0)
    for i in range(GAMES_PER_CASE):
        states = _random_game(game, keys.key(600 + i))
        for s in states:
            a, b = score(s)
            assert a + b == pytest.approx(0.0)
        end, r = score(states[-1]), game.returns(states[-1])
        if game.spec.outcomes is None:  # margins: the score is the result
            assert end == r
        else:
            assert [(v > 0) - (v < 0) for v in end] == [(v > 0) - (v < 0) for v in r]


@pytest.mark.with_hook.with_args(unscored_of)
def test_unscored_keeps_the_future(hooked_game: Game[Any, Any]) -> None:
    game = hooked_game
    unscored, score = unscored_of(game), score_of(game)
    assert unscored is not None
    assert score is not None, "unscored keys a table by the future score: the game scores"
    for s in _states(game, 4, 700):
        u = unscored(s)
        assert unscored(u) == u
        assert game.is_over(u) == game.is_over(s)
        assert game.legal(u) == game.legal(s)
        if game.is_over(s):
            continue
        p, q = game.to_move(s), game.to_move(u)
        for m in game.legal(s):
            after_s, after_u = game.step(s, m), game.step(u, m)
            # the same gain for the mover, and the same answer to "does the mover go again"
            assert score(after_s)[p] - score(s)[p] == score(after_u)[q] - score(u)[q]
            assert (game.to_move(after_s) == p) == (game.to_move(after_u) == q)


@pytest.mark.with_hook.with_args(observation_of)
def test_observation_shows_the_mover_a_position_to_move_in(hooked_game: Game[Any, Any]) -> None:
    game = hooked_game
    observe = observation_of(game)
    assert observe is not None
    for s in _states(game, 4, 800):
        for p in (0, 1):
            o = observe(s, p)
            assert observe(o, p) == o
            assert game.is_over(o) == game.is_over(s)
        if game.is_over(s):
            continue
        p = game.to_move(s)
        o = observe(s, p)
        assert game.to_move(o) == p
        assert game.legal(o) == game.legal(s)


@pytest.mark.with_hook.with_args(num_move_ids_of)
def test_move_ids_stay_below_the_declared_count(hooked_game: Game[Any, Any]) -> None:
    game = hooked_game
    count = num_move_ids_of(game)
    assert count is not None
    for s in _states(game, 4, 900):
        assert all(0 <= m < count for m in game.legal(s))


@pytest.mark.with_hook.with_args(render_labels_of)
def test_labelled_board_shows_every_label(hooked_game: Game[Any, Any]) -> None:
    game = hooked_game
    render_labels = render_labels_of(game)
    assert render_labels is not None
    labels = {m: f"<{i}>" for i, m in enumerate(game.legal(game.initial()))}
    text = render_labels(labels)
    assert all(label in text for label in labels.values())


def test_a_refused_move_leaves_the_memo_sound_and_a_cached_one_still_checks(
    game: Game[Any, Any],
) -> None:
    # memoised rules answer from a table once warm: look-alikes of a legal move are refused
    # before its child is cached and after, and the child is the one a fresh copy of the
    # position gives (a refusal cached nothing wrong)
    for s in _states(game, 2, 1000):
        if game.is_over(s):
            continue
        legal = game.legal(s)
        for m in legal:
            odd = [
                x for x in _lookalikes(m) if not any(type(x) is type(y) and x == y for y in legal)
            ]
            for x in odd:
                _step_or_refuse(game, s, x)
            child = game.step(s, m)
            for x in odd:
                _step_or_refuse(game, s, x)
            assert game.step(s, m) == child
            assert game.step(game.decode(game.encode(s)), m) == child


# -- what a game says about itself: planes, pictures, examples, variants, solver ----------------


def test_every_registered_game_has_planes_and_a_drawing(registered_game: Game[Any, Any]) -> None:
    # the bridges show the planes and the browser the drawing: a game without them would lose
    # those features without a word, so a new game fails here until it has both
    assert planes_of(registered_game) is not None
    assert draw_of(registered_game) is not None


def test_examples_and_variants_build_the_game(game: Game[Any, Any]) -> None:
    spec = game.spec
    assert spec.examples and spec.variants
    for text in (*spec.examples, *spec.variants):
        built = purestate.make_spec(text)
        assert built.spec.name == spec.name, text


def test_a_named_solver_is_a_function_of_the_solve_layer(game: Game[Any, Any]) -> None:
    if not game.spec.solver:
        return  # the generic minimax solves it
    module, sep, name = game.spec.solver.partition(":")
    assert sep and module.startswith("purestate.solve."), game.spec.solver
    assert callable(getattr(importlib.import_module(module), name))


def _planes_axis(game: Game[Any, Any], shape: tuple[int, ...]) -> int:
    """The length of the planes axis: the last (rows × columns × planes), the first for a game
    bridged from OpenSpiel, which keeps OpenSpiel's layout."""
    return shape[-1] if game.spec.name in purestate.games() else shape[0]


@pytest.mark.with_hook.with_args(planes_of)
def test_planes_have_the_declared_shape_and_lines_and_are_zero_or_one(
    hooked_game: Game[Any, Any],
) -> None:
    game = hooked_game
    planes, shape, lines = planes_of(game), plane_shape_of(game), plane_lines_of(game)
    assert planes is not None and shape is not None
    assert lines is not None and all(line for line in lines)
    assert len(lines) == _planes_axis(game, shape)
    dtype = planes(game.initial(), 0).dtype
    assert dtype in (np.int8, np.float32)
    for s in _states(game, 3, 1000):
        for p in (0, 1):
            a = planes(s, p)
            assert a.shape == shape and a.dtype == dtype
            assert set(np.unique(a).tolist()) <= {0, 1}
            kept = a.copy()
            a[...] = 1 - a  # a caller may write into what it was given: nothing shared changes
            assert (planes(s, p) == kept).all()


@pytest.mark.with_hook.with_args(planes_of)
def test_a_symmetry_moves_the_planes_entries_and_changes_no_value(
    hooked_game: Game[Any, Any],
) -> None:
    # the planes of the images of many positions under one symmetry are those of the positions
    # with the entries permuted: the same multiset of entry histories (an entry's values
    # across all the positions), for each observer
    game = hooked_game
    planes = planes_of(game)
    assert planes is not None
    states = _states(game, 3, 1100)[::2][:60]
    for h in game.symmetries[1:]:
        for p in (0, 1):
            before = np.stack([planes(s, p).ravel() for s in states], axis=1)
            after = np.stack([planes(game.transform(s, h), p).ravel() for s in states], axis=1)
            a, na = np.unique(before, axis=0, return_counts=True)
            b, nb = np.unique(after, axis=0, return_counts=True)
            assert a.shape == b.shape and (a == b).all() and (na == nb).all(), (h, p)


SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.with_hook.with_args(draw_of)
def test_the_drawing_is_svg_with_a_data_move_for_each_legal_move(
    hooked_game: Game[Any, Any],
) -> None:
    game = hooked_game
    draw = draw_of(game)
    assert draw is not None
    states = _random_game(game, keys.key(1200))
    for i in range(0, len(states), max(1, len(states) // 8)):
        s = states[i]
        for history in (states[:i], ()):
            root = ET.fromstring(draw(s, "a <title>", None, history))
            assert root.tag == f"{SVG}svg"
            texts = [e.get("data-move") for e in root.iter() if e.get("data-move") is not None]
            assert sorted(texts) == sorted(game.format_move(m) for m in game.legal(s))


@pytest.mark.with_hook.with_args(seat_marks_of)
def test_the_seats_have_two_different_marks_named_with_their_order(
    hooked_game: Game[Any, Any],
) -> None:
    marks = seat_marks_of(hooked_game)
    assert marks is not None and len(set(marks)) == 2 and all(m.strip() == m != "" for m in marks)
    # one way everywhere: the seat's order, then its mark
    assert [seat_name(hooked_game, p) for p in (0, 1)] == [
        f"first ({marks[0]})",
        f"second ({marks[1]})",
    ]


def test_every_registered_game_names_its_seats_marks(registered_game: Game[Any, Any]) -> None:
    # "you are X", "you are blue": a person is told what they play with in every game
    assert seat_marks_of(registered_game) is not None


@pytest.mark.with_hook.with_args(coloured_board_of)
def test_the_coloured_board_is_the_rendered_board_in_colour(hooked_game: Game[Any, Any]) -> None:
    game = hooked_game
    coloured = coloured_board_of(game)
    assert coloured is not None
    states = _random_game(game, keys.key(1300))
    for i in range(1, len(states) + 1):
        pieces = coloured(states[:i])
        assert all(isinstance(t, str) and isinstance(style, str) for t, style in pieces)
        assert "".join(t for t, _ in pieces) == game.render(states[i - 1])
