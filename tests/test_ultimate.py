"""Ultimate tic-tac-toe: perft, scripted rules, OpenSpiel cross-check, codec, text, heuristic."""

from __future__ import annotations

import json

import pytest
from tests.moves import play_moves
from typer.testing import CliRunner

import purestate
from purestate.cli import app
from purestate.core import keys, registry
from purestate.core.game import IllegalMove, ParseError
from purestate.games.ultimate import GAME_OVER, State, UltimateTicTacToe, playable_boards
from purestate.heuristics import uttt as heuristic

GAME = UltimateTicTacToe()


def _perft(state: State, depth: int) -> int:
    moves = GAME.legal(state)
    if depth == 1:
        return len(moves)
    return sum(_perft(GAME.step(state, m), depth - 1) for m in moves)


def _position(x: dict[int, str], o: dict[int, str], target: str) -> State:
    """A position from ``{board: cells}`` strings of cell digits for X and for O."""
    cells = ["."] * 81
    for marks, ch in ((x, "X"), (o, "O")):
        for b, cs in marks.items():
            for c in cs:
                cells[9 * b + int(c)] = ch
    return GAME.decode("".join(cells) + " " + target)


# nine O marks in boards 3-8 with no line, one of them on a cell 2 (so X may be sent to board 2)
_NINE_O = {4: "08", 3: "15", 5: "26", 6: "12", 8: "3"}


def _random_states(seed: int) -> list[State]:
    rng = keys.generator(keys.key(seed))
    s = GAME.initial()
    out = [s]
    while not GAME.is_over(s):
        s = GAME.step(s, rng.choice(GAME.legal(s)))
        out.append(s)
    return out


# --- rules ---------------------------------------------------------------------------------


def test_registered_and_made_by_name() -> None:
    assert "ultimate_tictactoe" in purestate.games()
    assert purestate.make("ultimate_tictactoe") == GAME
    assert purestate.make_spec("ultimate_tictactoe") == GAME


@pytest.mark.parametrize(("depth", "count"), [(1, 81), (2, 720), (3, 6336), (4, 55080)])
def test_perft_from_the_start(depth: int, count: int) -> None:
    assert _perft(GAME.initial(), depth) == count


def test_the_cell_sends_the_opponent_to_that_board() -> None:
    s = GAME.step(GAME.initial(), 9 * 0 + 4)  # X: board 0, cell 4
    assert (s.target, s.to_move) == (4, 1)
    assert GAME.legal(s) == tuple(range(36, 45))
    s = GAME.step(s, 9 * 4 + 0)  # O: board 4, cell 0 -> back to board 0
    assert s.target == 0
    assert GAME.legal(s) == tuple(m for m in range(9) if m != 4)


def test_a_won_board_is_closed_and_sending_there_frees_the_move() -> None:
    # X holds cells 0 and 1 of board 0 and is sent there; O's last move was cell 0 of board 4
    s = _position({0: "01", 2: "0", 8: "6"}, {4: "0", 6: "0", 1: "2", 7: "0"}, "0")
    assert s.to_move == 0
    s = GAME.step(s, 2)  # X wins board 0 with cell 2 and sends O to board 2
    assert s.won_x == 1 and s.closed == 1
    assert s.target == 2
    s = GAME.step(s, 9 * 2 + 0 + 1)  # O plays cell 1 of board 2 -> X to board 1
    s = GAME.step(s, 9 * 1 + 0)  # X plays cell 0 of board 1 -> O is sent to closed board 0
    assert s.target == -1
    assert playable_boards(s) == tuple(range(1, 9))
    assert all(m // 9 != 0 for m in GAME.legal(s))
    assert len(GAME.legal(s)) == 72 - 8  # boards 1-8 hold 3 X and 5 O
    with pytest.raises(IllegalMove, match="board 0 is closed"):
        GAME.step(s, 5)


def test_a_full_board_without_a_line_is_closed_as_drawn() -> None:
    # board 0: X O X / X O O / O X . ; X to play its last cell 8 (no line either way)
    s = _position({0: "0237", 8: "0", 5: "0"}, {0: "1456", 7: "0", 3: "0"}, "0")
    s = GAME.step(s, 8)
    assert s.closed == 1 and s.won_x == 0 and s.won_o == 0
    assert "=" in GAME.render(s)


def test_three_boards_in_a_line_win_and_end_the_game() -> None:
    # X won boards 0 and 1; X takes board 2 with cell 2 (row 0 of the big board)
    s = _position({0: "012", 1: "345", 2: "48", 7: "1"}, _NINE_O, "2")
    assert GAME.to_move(s) == 0 and not GAME.is_over(s)
    end = GAME.step(s, 9 * 2 + 0)
    assert GAME.is_over(end)
    assert GAME.returns(end) == (1.0, -1.0)
    assert GAME.legal(end) == ()
    assert end.target == GAME_OVER
    with pytest.raises(IllegalMove, match="game is over"):
        GAME.step(end, 9 * 3 + 0)
    assert "X wins" in GAME.render(end)


def test_random_games_end_in_the_usual_proportions() -> None:
    # reference: random play gives P1 41.1%, P2 36.5%, draws 22.3% (38,973 games)
    n = 3000
    tally = {1.0: 0, -1.0: 0, 0.0: 0}
    for i in range(n):
        tally[GAME.playout(GAME.initial(), keys.key(i))[0]] += 1
    assert 0.37 < tally[1.0] / n < 0.45
    assert 0.325 < tally[-1.0] / n < 0.405
    assert 0.185 < tally[0.0] / n < 0.26


def test_playout_is_a_function_of_its_key() -> None:
    s = _random_states(3)[20]
    results = {GAME.playout(s, keys.key(i)) for i in range(40)}
    assert GAME.playout(s, keys.key(5)) == GAME.playout(s, keys.key(5))
    assert len(results) > 1
    end = _random_states(4)[-1]
    assert GAME.playout(end, keys.key(0)) == GAME.returns(end)


def test_step_refuses_bad_moves_with_reasons() -> None:
    s = GAME.step(GAME.initial(), 4)
    with pytest.raises(IllegalMove, match="sent to board 4"):
        GAME.step(s, 0)
    with pytest.raises(IllegalMove, match="not a move"):
        GAME.step(s, 81)
    with pytest.raises(IllegalMove, match="not a move"):
        GAME.step(s, -1)
    s2 = GAME.step(s, 36 + 4)  # O: board 4 cell 4 -> X to board 4
    with pytest.raises(IllegalMove, match="cell 4 of board 4 is taken"):
        GAME.step(s2, 40)


# --- OpenSpiel -----------------------------------------------------------------------------


def test_matches_openspiel_on_random_games() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    peer = pyspiel.load_game("ultimate_tic_tac_toe")
    plies = 0
    for i in range(150):
        rng = keys.generator(keys.key(1000 + i))
        s = GAME.initial()
        ps = peer.new_initial_state()
        while True:
            assert GAME.is_over(s) == ps.is_terminal()
            if GAME.is_over(s):
                assert tuple(ps.returns()) == GAME.returns(s)
                break
            assert ps.current_player() == GAME.to_move(s)
            legal = GAME.legal(s)
            move = rng.choice(legal)
            board, cell = divmod(move, 9)
            if s.target < 0:
                # OpenSpiel splits a free move: the same player first chooses the board
                assert sorted(ps.legal_actions()) == sorted({m // 9 for m in legal})
                ps.apply_action(board)
                assert ps.current_player() == GAME.to_move(s)
            else:
                assert board == s.target
            assert sorted(ps.legal_actions()) == [m % 9 for m in legal if m // 9 == board]
            ps.apply_action(cell)
            s = GAME.step(s, move)
            plies += 1
    assert plies > 5000


# --- codec and text ------------------------------------------------------------------------


def test_encode_is_readable_and_round_trips() -> None:
    s = GAME.step(GAME.initial(), 4)
    text = GAME.encode(s)
    assert text.startswith("....X..../.........")
    assert text.endswith(" 4")
    assert GAME.decode(text) == s
    assert GAME.encode(GAME.initial()).endswith(" *")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("garbage", "not a position"),
        ("X" * 81 + " 4", "X moves first"),
        ("." * 81 + " 4", "no mark of the last mover"),
        ("XXX" + "." * 78 + " *", "X moves first"),
        ("....X" + "." * 76 + " 9", "not a target"),
        ("XOX" + "." * 78 + " x", "not a target"),
    ],
)
def test_decode_refuses_bad_text(text: str, why: str) -> None:
    with pytest.raises(ParseError, match=why):
        GAME.decode(text)


def test_decode_refuses_a_closed_target() -> None:
    s = _position({0: "012", 2: "0", 8: "6"}, {4: "0", 6: "0", 1: "2", 7: "0"}, "*")
    text = GAME.encode(s)
    with pytest.raises(ParseError, match="closed"):
        GAME.decode(text[:-1] + "0")


def test_parse_move_accepts_board_cell_and_ids() -> None:
    s = GAME.initial()
    for text in ("4 0", "4,0", "(4, 0)", " 4  0 ", "36"):
        assert GAME.parse_move(s, text) == 36
    assert GAME.format_move(36) == "4 0"


@pytest.mark.parametrize(
    ("text", "error", "why"),
    [
        ("", ParseError, "not a move"),
        ("a b", ParseError, "not a move"),
        ("1 2 3", ParseError, "not a move"),
        ("81", ParseError, "0 to 80"),
        ("9 0", ParseError, "numbered 0-8"),
        ("0 0", IllegalMove, "sent to board 4"),
    ],
)
def test_parse_move_explains_mistakes(text: str, error: type[Exception], why: str) -> None:
    s = GAME.step(GAME.initial(), 4)
    with pytest.raises(error, match=why):
        GAME.parse_move(s, text)


def test_parse_move_lists_the_open_boards_when_a_board_is_closed() -> None:
    s = _position({0: "012", 2: "0", 8: "6", 1: "0"}, {4: "0", 6: "0", 1: "2", 7: "0", 3: "3"}, "*")
    assert s.to_move == 1 and s.target == -1
    with pytest.raises(IllegalMove, match=r"board 0 is closed \(won by X\); you may play in "
                       r"boards 1, 2, 3, 4, 5, 6, 7, 8"):  # fmt: skip
        GAME.parse_move(s, "0 5")


def test_render_shows_the_target_board_and_whose_move_it_is() -> None:
    s = GAME.step(GAME.initial(), 4)
    text = GAME.render(s)
    assert "O to move in board 4" in text
    assert "*" in text
    # the free cells of the target board show their numbers, the others a dot
    assert " 0 1 2 " in text
    assert "X" in text
    free = GAME.render(GAME.initial())
    assert "free move" in free


def test_render_of_a_draw() -> None:
    for i in range(200):
        end = _random_states(i)[-1]
        if GAME.returns(end) == (0.0, 0.0):
            assert "Draw" in GAME.render(end)
            return
    pytest.fail("no draw in 200 random games")


def test_games_command_lists_both_games() -> None:
    result = CliRunner().invoke(app, ["games", "--json"])
    assert result.exit_code == 0
    names = {row["name"] for row in json.loads(result.stdout)}
    assert {"ultimate_tictactoe", "xtreme_tictactoe"} <= names


# --- heuristic -----------------------------------------------------------------------------


def test_evaluation_is_registered_and_bounded() -> None:
    ev = registry.evaluation("uttt")
    assert ev is heuristic.evaluate
    for i in range(10):
        for s in _random_states(i):
            v = ev(GAME, s)
            assert -1.0 < v < 1.0
    end = _random_states(1)[-1]
    assert ev(GAME, end) == pytest.approx(heuristic.LIMIT * GAME.returns(end)[0])


def test_evaluation_favours_the_player_with_more_boards() -> None:
    s = _position({0: "012", 1: "345", 7: "1"}, {4: "0", 3: "1", 5: "12", 6: "0", 8: "5"}, "*")
    assert heuristic.position_points(GAME, s)[0] > heuristic.position_points(GAME, s)[1]
    assert heuristic.evaluate(GAME, s) > 0.3
    mirror = _position(
        {4: "0", 3: "1", 5: "12", 6: "0", 8: "5", 2: "7"}, {0: "012", 1: "345", 7: "1"}, "*"
    )
    assert heuristic.evaluate(GAME, mirror) < -0.3


def test_move_scores_follow_the_readme_points() -> None:
    # X holds cells 0 and 1 of board 0 and has won board 1; X must play in board 0
    s = _position(
        {0: "01", 1: "345", 2: "0", 8: "2"},
        {4: "08", 6: "0", 7: "2", 3: "4", 5: "0", 2: "5"},
        "0",
    )
    scores = dict(zip(GAME.legal(s), heuristic.move_scores(GAME, s), strict=True))
    # cell 2 wins board 0 (10), makes no new two; big board: boards 0 and 1 won, 2 open -> +10
    assert scores[2] == 1 + 10 + 10
    # cell 4 makes two in a row with 0 (diagonal 0-4-8) and with 1 (column 1-4-7): +2
    assert scores[4] == 1 + 2
    # cell 8: diagonal 0-4-8 has X on 0 and 8 with 4 empty: +1
    assert scores[8] == 1 + 1
    assert heuristic.move_score(GAME, s, 2) == scores[2]


def test_a_game_winning_move_scores_at_least_win_score() -> None:
    s = _position({0: "012", 1: "345", 2: "48", 7: "1"}, _NINE_O, "2")
    scores = dict(zip(GAME.legal(s), heuristic.move_scores(GAME, s), strict=True))
    assert scores[18] >= heuristic.WIN_SCORE
    assert all(v < heuristic.WIN_SCORE for m, v in scores.items() if m != 18)


def test_heuristic_refuses_other_games() -> None:
    ttt = purestate.make("tictactoe")
    with pytest.raises(ValueError, match="ultimate_tictactoe"):
        heuristic.evaluate(ttt, ttt.initial())
    with pytest.raises(ValueError, match="ultimate_tictactoe"):
        heuristic.move_scores(ttt, ttt.initial())


def test_greedy_move_scores_beat_random_play() -> None:
    score = 0.0
    n = 40
    for i in range(n):
        rng = keys.generator(keys.key(i))
        seat = i % 2
        s = GAME.initial()
        while not GAME.is_over(s):
            moves = GAME.legal(s)
            if GAME.to_move(s) == seat:
                sc = heuristic.move_scores(GAME, s)
                s = GAME.step(s, moves[sc.index(max(sc))])
            else:
                s = GAME.step(s, rng.choice(moves))
        r = GAME.returns(s)[seat]
        score += 1.0 if r > 0 else 0.5 if r == 0 else 0.0
    # measured 0.85 over 60 games; random vs random scores 0.5
    assert score / n >= 0.7


def test_scripted_game_through_play_moves() -> None:
    texts = ["4 4", "4 0", "0 4", "4 8", "8 4", "4 3"]
    s = GAME.initial()
    moves = []
    for t in texts:
        m = GAME.parse_move(s, t)
        moves.append(m)
        s = GAME.step(s, m)
    assert play_moves(GAME, moves) == s
    assert GAME.encode(s).split("/")[4] == "O..OX...O"
    assert s.target == 3 and s.to_move == 0


def test_states_built_by_step_equal_states_built_by_attrs() -> None:
    for s in _random_states(9):
        built = State(s.x, s.o, s.boards, s.target, s.to_move)
        assert built == s and hash(built) == hash(s)
        assert repr(built) == repr(s)


def test_code_move_scores_follow_the_2019_bots_numbers() -> None:
    s = _position(
        {0: "01", 1: "345", 2: "0", 8: "2"},
        {4: "08", 6: "0", 7: "2", 3: "4", 5: "0", 2: "5"},
        "0",
    )
    scores = dict(zip(GAME.legal(s), heuristic.code_move_scores(GAME, s), strict=True))
    # cell 2 wins board 0: 10 x the big-board score (boards 0, 1 X's with board 2 open: 2)
    assert scores[2] == 10 * 2
    assert scores[4] == 2 + 2  # open twos on the column 1-4-7 and the diagonal 0-4-8
    assert scores[8] == 2  # the diagonal 0-4-8 with 4 empty
    assert scores[5] == 1  # nothing: the minimum
    won = _position({0: "012", 1: "345", 2: "48", 7: "1"}, _NINE_O, "2")
    game_scores = dict(zip(GAME.legal(won), heuristic.code_move_scores(GAME, won), strict=True))
    assert game_scores[18] == heuristic.CODE_WIN_SCORE
    assert all(v < heuristic.CODE_WIN_SCORE for m, v in game_scores.items() if m != 18)
    assert min(heuristic.code_move_scores(GAME, GAME.initial())) == 1.0


def test_decode_refuses_a_target_after_the_end() -> None:
    end = _random_states(1)[-1]
    text = GAME.encode(end)
    assert text.endswith(" *")
    with pytest.raises(ParseError, match="game is over, so the target must be"):
        GAME.decode(text[:-1] + "3")
