"""The half ultimate and Xtreme tic-tac-toe share (``games/big_board.py``): where the two games had
drifted apart, they now answer alike."""

from __future__ import annotations

from typing import Any

import pytest

from purestate.core.game import IllegalMove, ParseError
from purestate.games.big_board import BigBoards
from purestate.games.ultimate import UltimateTicTacToe
from purestate.games.xtreme import XtremeTicTacToe

ULTIMATE = UltimateTicTacToe()
XTREME = XtremeTicTacToe()
GAMES = [ULTIMATE, XTREME]


def _cells(game: Any, x: dict[int, str], o: dict[int, str]) -> str:
    """The cells of a position from ``{small board: cell digits}`` for X and for O."""
    cells = ["."] * game.spec.max_length
    for marks, ch in ((x, "X"), (o, "O")):
        for sb, cs in marks.items():
            for c in cs:
                cells[9 * sb + int(c)] = ch
    return "".join(cells)


# X holds a line of small boards (0, 1, 2: the top row of big board 0); O has scattered marks
_X_LINE = {0: "012", 1: "012", 2: "012"}
_O_SCATTERED = {3: "0", 4: "1", 5: "0", 6: "4", 7: "4", 8: "4"}


def test_xtreme_refuses_a_move_made_after_the_game_was_won() -> None:
    board = _cells(XTREME, _X_LINE, _O_SCATTERED)
    # X won with the last move, so O would be to move: that position is fine
    assert XTREME.is_over(XTREME.decode(f"{board} * O"))
    # X to move means O moved after X's line: ultimate refused this, Xtreme took it
    with pytest.raises(ParseError, match="a player moved after the game was won"):
        XTREME.decode(f"{board} * X")
    with pytest.raises(ParseError, match="a player moved after the game was won"):
        ULTIMATE.decode(
            _cells(ULTIMATE, _X_LINE, {**_O_SCATTERED, 3: "01", 4: "12", 7: "45"}) + " *"
        )


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.spec.name)
def test_a_free_move_needs_a_last_move_that_freed_it(game: Any) -> None:
    board = _cells(game, {0: "4"}, {})
    tail = " O" if game is XTREME else ""
    # X's cell 4 sends O to (small) board 4, which is open: O's move is not free
    assert game.decode(f"{board} 4{tail}").target == 4
    with pytest.raises(ParseError, match="a free move needs a last move into a cell"):
        game.decode(f"{board} *{tail}")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.spec.name)
@pytest.mark.parametrize("text", ["²", "4 ²"])
def test_digits_int_cannot_read_are_refused_as_text(game: Any, text: str) -> None:
    # str.isdigit() accepts '²' and int() then raised ValueError (a traceback in the CLI)
    with pytest.raises(ParseError, match="not a move"):
        game.parse_move(game.initial(), text)
    board, *rest = game.encode(game.initial()).split()
    rest[0] = text.split()[-1]
    with pytest.raises(ParseError, match="not a target"):
        game.decode(" ".join([board, *rest]))


def test_both_games_read_a_colon_between_board_and_cell() -> None:
    # Xtreme read '1:4 4'; ultimate refused '4:0'
    assert ULTIMATE.parse_move(ULTIMATE.initial(), "4:0") == 36
    assert XTREME.parse_move(XTREME.initial(), "1:4 4") == (9 + 4) * 9 + 4


def test_a_move_outside_the_target_boards_is_explained_as_such_in_both_games() -> None:
    # ultimate: X sent O to board 1 after winning board 0; O tries closed board 0
    u = ULTIMATE.decode(_cells(ULTIMATE, {0: "012", 2: "0"}, {4: "0", 6: "0", 7: "3"}) + " 1")
    with pytest.raises(IllegalMove, match="you were sent to board 1"):
        ULTIMATE.parse_move(u, "0 5")
    # Xtreme: the same shape; the closed board 0:0 is not a target (Xtreme said "closed" here)
    x = XTREME.decode(_cells(XTREME, {0: "012", 2: "0"}, {4: "0", 6: "0"}) + " 1 O")
    with pytest.raises(IllegalMove, match="you were sent to small board 1 of either big board"):
        XTREME.parse_move(x, "0 0 5")


def test_the_layouts_tables_agree_with_the_games() -> None:
    for game, count in ((ULTIMATE, 1), (XTREME, 2)):
        layout = BigBoards(count, game.spec.name)
        assert layout.moves == game.spec.max_length
        assert layout.symmetries == game.symmetries
        for g in game.symmetries:
            assert game.inverse(game.inverse(g)) == g
            assert sorted(layout.move_maps[g]) == list(range(layout.moves))
