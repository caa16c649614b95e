"""Connect four: rules by example, the codec and text, the solver against plain minimax, and
OpenSpiel's connect_four as the reference (skipped without it)."""

from __future__ import annotations

import itertools
import random
from importlib.util import find_spec
from typing import Any

import numpy as np
import pytest
from tests.moves import play_moves

import purestate
from purestate.agents.mcts import decisive_playout
from purestate.core import keys
from purestate.core.game import IllegalMove, ParseError
from purestate.core.record import Record, from_text, to_text
from purestate.core.spec import SpecError
from purestate.games.connect_four import ConnectFour, State
from purestate.solve import solve
from purestate.solve.bounds import TooLarge
from purestate.solve.connect_four import (
    MAX_EMPTY,
    ConnectFourSolution,
    empty_cells,
    plies_to_end,
    score,
)
from purestate.solve.minimax import solve_exhaustive

needs_openspiel = pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs open_spiel")

# a whole 7×6 game without four in a row (the 1-based columns played)
DRAW = "126613431456475467333341527215612225546777"


def cols(text: str) -> list[int]:
    """Move ids of a game written as the 1-based columns played."""
    return [int(ch) - 1 for ch in text]


def after(text: str, game: ConnectFour | None = None) -> State:
    g = game or ConnectFour()
    s: State = play_moves(g, cols(text))
    return s


def test_registered_with_its_options() -> None:
    g = purestate.make("connect_four")
    assert g == ConnectFour(7, 6, 4)
    assert g.spec.name == "connect_four" and g.spec.max_length == 42
    assert purestate.make_spec("connect_four:columns=5,rows=4,connect=3") == ConnectFour(5, 4, 3)
    assert "connect_four" in purestate.games()


@pytest.mark.parametrize(
    "spec",
    [
        "connect_four:columns=3",
        "connect_four:rows=10",
        "connect_four:connect=2",
        "connect_four:columns=5,rows=4,connect=6",
        "connect_four:columns=true",
    ],
)
def test_bad_sizes_are_refused_in_one_line(spec: str) -> None:
    with pytest.raises(SpecError) as e:
        purestate.make_spec(spec)
    assert "\n" not in str(e.value)


def test_moves_are_columns_from_the_left_and_stones_fall() -> None:
    g = ConnectFour()
    s = g.step(g.initial(), 0)
    assert s.x == 1 and s.o == 0 and g.to_move(s) == 1  # column 0's bottom cell
    s = g.step(s, 0)
    assert s.o == 1 << 1  # on top of it
    assert g.legal(g.initial()) == tuple(range(7))
    assert g.parse_move(g.initial(), " 4 ") == 3 and g.format_move(3) == "4"
    assert g.cell(after("4453"), 3, 1) == "O" and g.cell(after("4453"), 2, 0) == "O"


@pytest.mark.parametrize(
    ("move", "why"),
    [
        (True, "not a move"),
        (-1, "not a move"),
        (1.0, "not a move"),
        (7, "not a move"),
        ("3", "not a move"),
        (0, "column 1 is full"),
    ],
)
def test_step_refuses_anything_but_a_legal_column(move: Any, why: str) -> None:
    g = ConnectFour()
    full_first = after("111111")
    with pytest.raises(IllegalMove, match=why) as e:
        g.step(full_first, move)
    assert "\n" not in str(e.value)
    assert 0 not in g.legal(full_first)
    with pytest.raises(IllegalMove, match="full"):
        g.parse_move(full_first, "1")
    with pytest.raises(ParseError):
        g.parse_move(full_first, "8")


@pytest.mark.parametrize(
    ("game", "winner", "line"),
    [
        ("4343434", 0, "vertical"),
        ("1122334", 0, "horizontal"),
        ("12234334454", 0, "rising diagonal"),
        ("76654554434", 0, "falling diagonal"),
        ("71122334", 1, "horizontal for the second player"),
    ],
)
def test_lines_of_four_win(game: str, winner: int, line: str) -> None:
    g = ConnectFour()
    before = after(game[:-1])
    assert not g.is_over(before), line
    s = g.step(before, cols(game)[-1])
    assert g.is_over(s) and g.legal(s) == () and s.winner == winner, line
    assert g.returns(s) == ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
    with pytest.raises(IllegalMove, match="the game is over"):
        g.step(s, 0)


def test_three_in_a_row_wins_only_when_connect_is_three() -> None:
    assert not ConnectFour().is_over(after("11223"))
    small = ConnectFour(5, 4, 3)
    s = after("11223", small)
    assert small.is_over(s) and small.returns(s) == (1.0, -1.0)
    assert not small.is_over(after("1122", small))


def test_a_full_board_without_a_line_is_a_draw() -> None:
    g = ConnectFour()
    s = after(DRAW)
    assert g.is_over(s) and s.winner == -1 and g.legal(s) == () and g.returns(s) == (0.0, 0.0)
    assert not g.is_over(after(DRAW[:-1]))


def test_the_mirror_is_the_one_symmetry() -> None:
    g = ConnectFour()
    assert g.symmetries == (0, 1) and g.inverse(1) == 1
    assert g.transform(after("12234334454"), 1) == after("76654554434")
    assert [g.transform_move(m, 1) for m in range(7)] == [6, 5, 4, 3, 2, 1, 0]
    rep, sym = g.canonical(after("1"))
    assert rep == after("1") and sym == 0  # column 1's bit is the lowest
    rep, sym = g.canonical(after("7"))
    assert rep == after("1") and sym == 1
    assert g.canonical(g.initial()) == (g.initial(), 0)


def test_the_text_is_the_columns_played_and_the_board() -> None:
    g = ConnectFour()
    s = after("4453")
    assert g.encode(s) == "......./......./......./......./...O.../..OXX.."
    assert g.decode(g.encode(s)) == s == g.decode("4453") == g.decode(" 44 53 ")
    assert g.decode("") == g.initial()
    assert g.decode(g.encode(s).replace("/", "\n")) == s
    assert g.moves_text(cols("4453")) == "4453"
    assert g.render(s).splitlines() == [
        *[" . . . . . . ."] * 4,
        " . . . O . . .",
        " . . O X X . .",
        " 1 2 3 4 5 6 7",
    ]


def test_records_read_and_write_the_columns() -> None:
    g = ConnectFour()
    moves = tuple(cols("4453"))
    record = Record.from_game("connect_four", ("human", "mcts"), 0, 0, moves, (0.0, 0.0), None)
    line = to_text(g, record)
    assert line == "connect_four: 4 4 5 3 1/2"
    assert from_text(line) == ("connect_four", moves, (0.0, 0.0), None)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("4478", "move 4"),  # no column 8
        ("11111111", "column 1 is full"),
        ("43434343", "the game is over"),
        ("..../..../..../X...", "expected 6 rows of 7"),
        ("......./......./......./......./X....../.......", "floats"),
        ("......./......./......./......./......./XX.....", "X moves first"),
        ("......./......./......./X....../X....../O......", "in turn"),
        ("......./......./......./......./OO.O.../XXXXO..", "moved after it"),
        ("......./......./....../X....../X....../XOOOO..", "expected"),
        ("......./......./X....../X....../X....../XOOOO..", "both players"),
        ("......./......./......X/......X/OOO.OOX/XXXXOOX", "no single last stone"),
    ],
)
def test_decode_refuses_what_no_game_reaches(text: str, why: str) -> None:
    with pytest.raises(ParseError, match=why) as e:
        ConnectFour().decode(text)
    assert "\n" not in str(e.value)


def test_decode_reads_every_position_of_random_games() -> None:
    for game in (ConnectFour(), ConnectFour(5, 4, 3), ConnectFour(9, 9, 5)):
        rng = random.Random(4)
        for _ in range(30):
            s = game.initial()
            while True:
                assert game.decode(game.encode(s)) == s
                if game.is_over(s):
                    break
                s = game.step(s, rng.choice(game.legal(s)))


SIZES = pytest.mark.parametrize(
    "game",
    [ConnectFour(), ConnectFour(4, 4, 3), ConnectFour(5, 4, 5), ConnectFour(9, 9, 9)],
    ids=["7x6", "4x4-connect3", "5x4-connect5", "9x9-connect9"],
)


def positions_with_keys(game: ConnectFour, seed: int) -> list[tuple[State, keys.Key]]:
    """300 positions from every stage of seeded random games, each with its own key."""
    rng, found = random.Random(seed), []
    for i in range(300):
        s = game.initial()
        for _ in range(rng.randrange(game.board.cells)):
            if game.is_over(s):
                break
            s = game.step(s, rng.choice(game.legal(s)))
        found.append((s, keys.fold_in(keys.key(seed), i)))
    return found


@SIZES
def test_playout_is_the_random_game_its_key_draws(game: ConnectFour) -> None:
    # both of the hook's loops (lines of 3-4 written out, longer lines by the general test) and
    # its first plies without a line test, from positions at every stage of a game
    # (the counter stream, compiled where numba is, and the generator runs before format 3 drew)
    for s, k in positions_with_keys(game, 8):
        for draws in ("counter", "mersenne"):
            draw, end = keys.draws(k, draws), s
            while not game.is_over(end):
                moves = game.legal(end)
                end = game.step(end, moves[int(draw() * len(moves))])
            assert game.playout(s, k, draws) == game.returns(end)
        assert game.playout(s, k) == game.playout(s, k, "counter")


@SIZES
def test_decisive_playout_is_the_decisive_game_its_key_draws(game: ConnectFour) -> None:
    # both threat tests (four in a row written out, other lengths by the loop) and the first
    # plies without one, with and without anti-decisive moves
    for s, k in positions_with_keys(game, 9):
        for anti, draws in itertools.product((False, True), ("counter", "mersenne")):
            end = decisive_playout(game, s, keys.draws(k, draws), anti)
            assert game.decisive_playout(s, k, anti, draws) == game.returns(end)
        assert game.decisive_playout(s, k) == game.decisive_playout(s, k, False, "counter")


def test_a_decisive_playout_takes_a_win_and_lets_the_opponent_take_theirs() -> None:
    game = ConnectFour()
    # X to move with three in a row on the bottom, open at both ends: X wins whatever the key
    x_wins = after("273747")  # X in columns 2-4 on the bottom, O's three in column 7
    assert game.to_move(x_wins) == 0
    assert all(game.decisive_playout(x_wins, keys.key(i)) == (1.0, -1.0) for i in range(50))
    # O to move cannot win at once, X threatens two cells: O blocks one at most, X takes the other
    o_to_move = after("22334")  # X in columns 2-4 on the bottom, O's two on top of 2 and 3
    assert game.to_move(o_to_move) == 1
    assert all(game.decisive_playout(o_to_move, keys.key(i)) == (1.0, -1.0) for i in range(50))
    # and random playouts from there do not always see it
    assert {game.playout(o_to_move, keys.key(i)) for i in range(50)} != {(1.0, -1.0)}


# -- the solver --------------------------------------------------------------------------


def late_positions(game: ConnectFour, stones: int, n: int, seed: int) -> list[State]:
    """``n`` positions of random games with ``stones`` stones, nobody having won yet."""
    rng, found = random.Random(seed), []
    while len(found) < n:
        s = game.initial()
        while not game.is_over(s) and (s.x | s.o).bit_count() < stones:
            s = game.step(s, rng.choice(game.legal(s)))
        if not game.is_over(s):
            found.append(s)
    return found


def minimax_score(game: ConnectFour, state: State) -> tuple[int, int]:
    """The score and plies to the end by the generic memoised minimax, which knows nothing of
    connect four: the winner's stone drops with ``empty - plies + 1`` cells empty."""
    sol = solve_exhaustive(game, state)
    value, plies = sol.value(state), sol.distance(state)
    if value == 0:
        return 0, plies
    s = (empty_cells(game, state) - plies + 2) // 2
    mover_won = (value > 0) == (state.to_move == 0)
    return (s if mover_won else -s), plies


@pytest.mark.parametrize(
    ("game", "stones", "n"),
    [(ConnectFour(), 30, 40), (ConnectFour(5, 4, 3), 7, 40), (ConnectFour(4, 4, 4), 6, 20)],
    ids=["7x6", "5x4-connect3", "4x4"],
)
def test_the_solver_agrees_with_plain_minimax_on_late_positions(
    game: ConnectFour, stones: int, n: int
) -> None:
    for state in late_positions(game, stones, n, seed=stones):
        expected, plies = minimax_score(game, state)
        got = score(game, state)
        assert got == expected, game.encode(state)
        assert plies_to_end(game, state, got) == plies
        # solve(game) is the whole game, refused on 7×6; a solution of any board answers here
        sol = ConnectFourSolution(game)
        assert sol.value(state) == solve_exhaustive(game, state).value(state)
        assert sol.distance(state) == plies


def test_scores_follow_pons_convention() -> None:
    g = ConnectFour()
    small = ConnectFour(5, 4)
    # X wins at once in column 1 with 20 - 6 = 14 cells empty: 15 // 2 = 7 stones in hand
    assert score(small, after("121212", small)) == 7
    # X has 2-3-4 on the bottom row, open at both ends: O blocks one, X wins at the other with
    # 13 cells empty, so 7 for X and -7 for O to move
    assert score(small, after("22334", small)) == -7
    assert score(small, after("2233", small)) == 7  # X to move: 1 or 4 makes the double threat
    # a finished game: the player to move has lost with the last stone dropped
    done = after("4343434")
    assert score(g, done) == -((empty_cells(g, done) + 2) // 2)
    assert score(g, after(DRAW)) == 0


def test_the_solver_refuses_positions_too_far_from_the_end() -> None:
    g = ConnectFour()
    with pytest.raises(TooLarge, match=f"at most {MAX_EMPTY} empty cells") as e:
        score(g, g.initial())
    assert "\n" not in str(e.value)
    with pytest.raises(TooLarge, match="42 empty cells at the start"):
        solve(g)
    with pytest.raises(TooLarge):
        purestate.agent("perfect").check_game(g)


def test_perfect_plays_the_small_boards() -> None:
    g = ConnectFour(4, 4, 4)
    sol = solve(g)
    assert sol.value(g.initial()) == 0.0 and sol.distance(g.initial()) == 16
    agents = (purestate.agent("perfect"), purestate.agent("random"))
    for i in range(4):
        episode = purestate.play(g, agents, (None, None), purestate.key(i))
        assert episode.returns[0] >= 0  # perfect never loses a drawn game


# -- OpenSpiel, PettingZoo and the pictures ------------------------------------------------


@needs_openspiel
@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        ("connect_four", "connect_four"),
        ("connect_four:columns=5,rows=4,connect=3", "connect_four(columns=5,rows=4,x_in_row=3)"),
    ],
)
def test_matches_openspiel_on_random_games(ours: str, theirs: str) -> None:
    import pyspiel

    game, ref = purestate.make_spec(ours), pyspiel.load_game(theirs)
    rng = random.Random(11)
    for _ in range(2000):
        s, t = game.initial(), ref.new_initial_state()
        while not t.is_terminal():
            assert not game.is_over(s)
            assert game.to_move(s) == t.current_player()
            assert list(game.legal(s)) == t.legal_actions()
            m = rng.choice(game.legal(s))
            s = game.step(s, m)
            t.apply_action(m)
        assert game.is_over(s) and game.legal(s) == ()
        assert game.returns(s) == tuple(t.returns())


@needs_openspiel
def test_planes_are_openspiels_observation_tensor() -> None:
    import pyspiel

    from purestate.core.hooks import planes_of

    game, ref = ConnectFour(), pyspiel.load_game("connect_four")
    planes = planes_of(game)
    assert planes is not None
    rng = random.Random(5)
    for _ in range(20):
        s, t = game.initial(), ref.new_initial_state()
        while True:
            tensor = np.asarray(t.observation_tensor(0)).reshape(3, 6, 7)  # X, O, empty
            for p in (0, 1):
                got = planes(s, p)
                assert got.shape == (6, 7, 3)
                assert (got[:, :, 0] == tensor[p]).all() and (got[:, :, 1] == tensor[1 - p]).all()
                assert (got[:, :, 2] == tensor[2]).all()
            if t.is_terminal():
                break
            m = rng.choice(game.legal(s))
            s, _ = game.step(s, m), t.apply_action(m)


@pytest.mark.skipif(find_spec("pettingzoo") is None, reason="needs purestate[pettingzoo]")
@pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be",
    "ignore:Observation is not a NumPy array",
    "ignore:Observation numpy array is all zeros",
)
def test_passes_pettingzoos_api_test() -> None:
    from pettingzoo.test import api_test

    from purestate.interop.pettingzoo import env

    api_test(env("connect_four", render_mode="ansi"), num_cycles=100, verbose_progress=False)


def test_the_picture_lets_a_person_click_the_open_columns() -> None:
    g = ConnectFour()
    s = after("111111")
    picture = str(purestate.svg(g, s, last=0))
    assert picture.count('data-move="') == 6 and 'data-illegal="1"' in picture
    for c in range(2, 8):
        assert f'data-move="{c}"' in picture


def test_the_web_app_plays_it_by_clicking_columns(tmp_path: Any) -> None:
    from starlette.testclient import TestClient

    from purestate.web.app import create_app

    client = TestClient(
        create_app(tmp_path), base_url="http://127.0.0.1", raise_server_exceptions=False
    )
    view = client.post(
        "/api/play", json={"game": "connect_four", "opponent": "random", "seed": 3}
    ).json()
    played = 0
    while not view["over"]:
        assert view["your_turn"]
        column = next(c for c in "1234567" if f'data-move="{c}"' in view["svg"])
        view = client.post(f"/api/play/{view['id']}/move", json={"move": column}).json()
        played += 1
    assert played >= 4 and all(m in "1234567" for m in view["moves"])
    game = ConnectFour()
    end = game.decode("".join(view["moves"]))
    assert game.is_over(end) and list(game.returns(end)) == view["returns"]


def test_ending_moves_include_the_last_cell_of_a_drawn_board() -> None:
    # 4×4 with four in a row is drawn often: the last empty cell ends the game without a line,
    # which the random games of the conformance suite's boards almost never reach
    game = purestate.make("connect_four:columns=4,rows=4,connect=4")
    drawn = 0
    for i in range(60):
        s, k, ply = game.initial(), keys.key(i), 0
        while not game.is_over(s):
            expected = tuple(m for m in game.legal(s) if game.is_over(game.step(s, m)))
            assert game.ending_moves(s) == expected
            s = game.step(s, keys.choice(keys.fold_in(k, ply), game.legal(s)))
            ply += 1
        assert game.ending_moves(s) == ()
        drawn += game.returns(s) == (0.0, 0.0)
    assert drawn


def test_row_kernels_on_the_boards_the_kernels_fit() -> None:
    from purestate.core import compiled
    from purestate.core.hooks import rows_of

    # 9 columns of 10 bits do not fit an int64: the pure rules only, at any time
    assert rows_of(ConnectFour(9, 9)) is None
    fits = rows_of(ConnectFour(9, 6, 6))
    if compiled.kernels("connect_four") is None:
        assert fits is None
        return
    assert fits is not None and fits is rows_of(ConnectFour(9, 6, 6))
    assert fits.max_moves == 9 and fits.decisive0 is not None
    s = ConnectFour(9, 6, 6).step(ConnectFour(9, 6, 6).initial(), 8)
    out = np.zeros(fits.max_moves, np.int64)
    assert fits.legal(fits.row_of(s), out) == 9 and list(out) == list(range(9))
