"""Dots and boxes: rules, scripted captures, codec, text, and an OpenSpiel cross-check."""

from __future__ import annotations

import random
import re

import pytest
from tests.moves import play_moves

import purestate
from purestate.core.game import IllegalMove, ParseError
from purestate.core.spec import format_spec
from purestate.games.dots_and_boxes import DotsAndBoxes, State

# 2×2 line ids (OpenSpiel's numbering):
#   •  0  •  1  •
#   6     7     8
#   •  2  •  3  •
#   9    10    11
#   •  4  •  5  •


def test_registered_and_sized() -> None:
    g = purestate.make("dots_and_boxes")
    assert g == DotsAndBoxes(2, 2)
    assert g.spec.name == "dots_and_boxes"
    assert g.spec.max_length == 12
    assert g.spec.outcomes is None
    assert DotsAndBoxes(margin=False).spec.outcomes == (-1.0, 0.0, 1.0)
    for (r, c), lines in {(1, 1): 4, (2, 2): 12, (3, 3): 24, (4, 4): 40, (4, 5): 49}.items():
        assert DotsAndBoxes(r, c).num_lines == lines
    assert purestate.make_spec("dots_and_boxes:rows=3,cols=2,margin=false") == DotsAndBoxes(
        3, 2, margin=False
    )


@pytest.mark.parametrize("bad", [{"rows": 0}, {"cols": -1}, {"rows": 9, "cols": 9}])
def test_bad_sizes_are_refused(bad: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        DotsAndBoxes(**bad)


def test_line_ids_follow_openspiel() -> None:
    b = DotsAndBoxes(3, 3).board
    assert b.h(0, 0) == 0 and b.h(3, 2) == 11
    assert b.v(0, 0) == 12 and b.v(2, 3) == 23
    assert b.coordinates(23) == ("v", 2, 3)
    assert b.box_masks[0] == (1 << 0) | (1 << 3) | (1 << 12) | (1 << 13)


def test_completing_a_box_gives_one_extra_move() -> None:
    g = DotsAndBoxes()
    s = play_moves(g, [0, 2, 6])
    assert g.to_move(s) == 1
    s = g.step(s, 7)  # player 1 closes box 0
    assert s.own1 == 0b0001 and s.own0 == 0
    assert g.to_move(s) == 1
    s = g.step(s, 1)  # no box: the turn passes
    assert g.to_move(s) == 0


def test_a_double_box_move_still_gives_only_one_extra_move() -> None:
    g = DotsAndBoxes(1, 2)
    # 1×2: h 0,1 (top), 2,3 (bottom), v 4,5,6; line 5 is shared by both boxes
    s = play_moves(g, [0, 1, 2, 3, 4])
    assert g.to_move(s) == 1
    s = g.step(s, 6)
    assert g.to_move(s) == 0  # 6 closes nothing alone
    s = g.step(s, 5)  # closes both boxes at once
    assert s.own0 == 0b11
    assert g.is_over(s)
    assert g.returns(s) == (2.0, -2.0)


def test_chain_capture_scripted() -> None:
    # 1×3 chain: the player who opens the chain hands over all three boxes
    g = DotsAndBoxes(1, 3)
    # h: top 0,1,2 bottom 3,4,5; v: 6,7,8,9
    s = play_moves(g, [0, 1, 2, 3, 4, 5])  # alternate: 0,1,0,1,0,1
    assert g.to_move(s) == 0
    s = g.step(s, 6)  # player 0 opens the chain at the left end
    assert g.to_move(s) == 1
    s = play_moves(g, [7, 8, 9], s)  # player 1 takes box 0, 1, 2 in turn, moving again each time
    assert s.own1 == 0b111
    assert g.is_over(s)
    assert g.returns(s) == (-3.0, 3.0)
    assert DotsAndBoxes(1, 3, margin=False).returns(s) == (-1.0, 1.0)


def test_illegal_moves_are_refused() -> None:
    g = DotsAndBoxes()
    s = g.step(g.initial(), 3)
    for bad in (3, 12, -1, "3", 2.0):
        with pytest.raises(IllegalMove):
            g.step(s, bad)  # type: ignore[arg-type]
    full = play_moves(g, range(12))
    with pytest.raises(IllegalMove, match="over"):
        g.step(full, 0)


def test_codec() -> None:
    g = DotsAndBoxes()
    s = play_moves(g, [0, 2, 6, 7])
    assert g.dbn(s) == "101000110000"
    assert g.encode(s) == "101000110000/1/1---"
    assert g.decode(g.encode(s)) == s
    assert g.decode("101000110000") == State(s.lines, 0, 0, 0)
    assert g.decode("101000110000/1") == State(s.lines, 0, 0, 1)
    for bad in (
        "10100011000",
        "1010001100002",
        "101000110000/2",
        "101000110000/1/0---"[:-1],
        "000000000000/0/0---",
        "1/2/3/4",
    ):
        with pytest.raises(ParseError):
            g.decode(bad)


def test_render_shows_lines_numbers_owners_and_score() -> None:
    g = DotsAndBoxes()
    s = play_moves(g, [0, 2, 6, 7])
    text = g.render(s)
    assert "B" in text and "─" in text and "│" in text
    assert "0 - 1" in text and "B to move" in text
    assert " 11" in text and " 1 " in text  # undrawn lines show their ids
    seed = DotsAndBoxes(numbering="seed")
    assert "12" in seed.render(s) and seed == g  # numbering is only text for people


def test_seed_numbering_is_an_old_name_of_the_notebooks() -> None:
    g = DotsAndBoxes(numbering="notebook")
    old = purestate.make_spec("dots_and_boxes:numbering=seed")
    assert old.numbering == "notebook" and old.render(old.initial()) == g.render(g.initial())
    assert format_spec("dots_and_boxes", old) == "dots_and_boxes:numbering=notebook"
    assert g.parse_move(g.initial(), "notebook:6") == g.parse_move(g.initial(), "seed:6") == 5


def test_parse_move_numberings() -> None:
    g = DotsAndBoxes()
    s = g.initial()
    assert g.parse_move(s, "5") == 5
    assert g.parse_move(s, "seed:6") == 5
    assert g.parse_move(s, "id:5") == 5
    assert g.parse_move(s, "h 2 1") == 5
    assert g.parse_move(s, "(v,1,2)") == 11
    seed = DotsAndBoxes(numbering="seed")
    assert seed.parse_move(s, "6") == 5 and seed.format_move(5) == "6"
    assert seed.parse_move(s, "id:5") == 5
    with pytest.raises(ParseError):
        seed.parse_move(s, "0")
    with pytest.raises(ParseError):
        g.parse_move(s, "h 3 0")
    with pytest.raises(ParseError):
        g.parse_move(s, "x")
    with pytest.raises(IllegalMove):
        g.parse_move(g.step(s, 5), "5")


def test_symmetry_groups() -> None:
    assert len(DotsAndBoxes(2, 2).symmetries) == 8
    assert len(DotsAndBoxes(3, 3).symmetries) == 8
    assert len(DotsAndBoxes(2, 3).symmetries) == 4
    assert len(DotsAndBoxes(1, 1).symmetries) == 8


def test_canonical_line_sets_on_2x2() -> None:
    # 570 symmetry classes of the 4,096 line sets (reference §5.2)
    g = DotsAndBoxes()
    reps = {g.canonical(State(lines, 0, 0, 0))[0] for lines in range(1 << 12)}
    assert len(reps) == 570


# -- OpenSpiel cross-check ------------------------------------------------------------------


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 3), (3, 2), (3, 3)])
@pytest.mark.parametrize("margin", [True, False])
def test_matches_openspiel_on_random_games(rows: int, cols: int, margin: bool) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    um = "true" if margin else "false"
    ref = pyspiel.load_game(f"dots_and_boxes(num_rows={rows},num_cols={cols},utility_margin={um})")
    g = DotsAndBoxes(rows, cols, margin=margin)
    assert ref.num_distinct_actions() == g.num_lines
    rng = random.Random(rows * 10 + cols + margin)
    for _ in range(60):
        theirs = ref.new_initial_state()
        ours = g.initial()
        while not theirs.is_terminal():
            assert not g.is_over(ours)
            assert list(g.legal(ours)) == theirs.legal_actions()
            assert g.to_move(ours) == theirs.current_player()
            assert g.dbn(ours) == theirs.dbn_string()
            a = rng.choice(theirs.legal_actions())
            theirs.apply_action(a)
            ours = g.step(ours, a)
        assert g.is_over(ours)
        assert g.returns(ours) == tuple(theirs.returns())


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ((0, 0, 0, 5), "to_move must be 0 or 1 (got 5)"),  # render raised IndexError
        ((0, -1, 0, 0), "own0 must not be negative"),  # canonical raised IndexError
        ((-1, 0, 0, 0), "lines must not be negative"),
        ((0, 0, 0, True), "to_move must be an int, not True"),
        ((4095, 15, 15, 0), "a box is owned by both players"),
    ],
)
def test_a_state_no_board_has_is_refused_when_built(fields: tuple[int, ...], says: str) -> None:
    with pytest.raises(IllegalMove, match=re.escape(f"not a dots_and_boxes position: {says}")):
        State(*fields)


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ((1 << 40, 0, 0, 0), "lines beyond the 12 of a 2x2 board"),
        ((0, 1, 0, 0), "box 0 is owned but not complete"),
        ((4095, 1 << 4, 0, 0), "boxes beyond the 4 of a 2x2 board"),
    ],
)
def test_a_state_off_this_board_is_refused_by_check_render_and_encode(
    fields: tuple[int, ...], says: str
) -> None:
    game = DotsAndBoxes(2, 2)
    s = State(*fields)
    for look in (game.check, game.render, game.encode):
        with pytest.raises(IllegalMove, match=re.escape(says)):
            look(s)
    assert game.check(State(4095, 3, 12, 1)) == State(4095, 3, 12, 1)


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (2, 3), (3, 3), (5, 5), (1, 20)])
def test_row_kernels_on_the_boards_the_kernels_fit(rows: int, cols: int) -> None:
    from purestate.core import compiled
    from purestate.core.hooks import rows_of
    from purestate.games.dots_and_boxes import kernel_sides

    kernel = compiled.kernels("dots_and_boxes")
    found = rows_of(DotsAndBoxes(rows, cols))
    if kernel is None:
        assert found is None
        return
    assert found is not None and found is rows_of(DotsAndBoxes(rows, cols))
    assert found.max_moves == DotsAndBoxes(rows, cols).num_lines
    # the playout's table, worked out in the kernel, is the rules' table
    assert (kernel.sides_of(rows, cols) == kernel_sides(rows, cols)).all()


def test_no_row_kernels_beyond_63_lines() -> None:
    from purestate.core.hooks import rows_of

    assert rows_of(DotsAndBoxes(6, 6)) is None  # 84 lines
    assert rows_of(DotsAndBoxes(1, 21)) is None  # 64 lines


@pytest.mark.parametrize(("rows", "cols", "margin"), [(5, 5, True), (4, 3, False), (1, 20, True)])
def test_row_kernels_play_the_rules_on_bigger_boards(rows: int, cols: int, margin: bool) -> None:
    import numpy as np

    from purestate.agents.mcts import unit_reward
    from purestate.core.hooks import rows_of

    game = DotsAndBoxes(rows, cols, margin)
    found = rows_of(game)
    if found is None:
        pytest.skip("numba is not installed (or NUMBA_DISABLE_JIT is set)")
    moves, out = np.empty(found.max_moves, np.int64), np.empty(found.width, np.int64)
    rng = random.Random(rows * 100 + cols)
    s = game.initial()
    while not game.is_over(s):
        row = found.row_of(s)
        assert found.player(row) == s.to_move
        count = found.legal(row, moves)
        assert tuple(moves[:count]) == game.legal(s)
        m = rng.choice(game.legal(s))
        found.step(row, m, out)
        s = game.step(s, m)
        assert found.state_of(out) == s
    assert found.player(found.row_of(s)) == -1
    assert found.reward0(found.row_of(s)) == unit_reward(game.returns(s)[0])
