"""``purestate.make`` and ``make_spec`` refuse what is not a game name in one line (issue 20)."""

from __future__ import annotations

from importlib.util import find_spec
from typing import Any

import pytest

import purestate
from purestate.core.game import NotAGame


@pytest.mark.parametrize("name", [5, None, 2.5, ["tictactoe"], b"tictactoe"])
def test_a_name_that_is_not_a_str_is_a_one_line_type_error(name: Any) -> None:
    for make in (purestate.make, purestate.make_spec):
        with pytest.raises(NotAGame, match=r"takes a game name \(a str\) such as 'tictactoe'") as e:
            make(name)
        assert isinstance(e.value, TypeError) and "\n" not in str(e.value)
        assert type(name).__qualname__ in str(e.value)


def test_a_game_given_for_its_name_is_refused_too() -> None:
    with pytest.raises(NotAGame, match="got a TicTacToe"):
        purestate.make(purestate.make("tictactoe"))


@pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs purestate[openspiel]")
def test_a_pyspiel_game_gets_the_bridge_named() -> None:
    import pyspiel

    # it used to be AttributeError: 'pyspiel.Game' object has no attribute 'strip'
    for make in (purestate.make, purestate.make_spec):
        with pytest.raises(NotAGame, match=r"purestate.make\('openspiel:connect_four'\)") as e:
            make(pyspiel.load_game("connect_four"))
        assert "\n" not in str(e.value)


# -- one library entry (issue 21): make takes spec strings as the command line does --------------


@pytest.mark.parametrize(
    ("spec", "options"),
    [
        ("dots_and_boxes:rows=3,cols=3", {}),
        ("dots_and_boxes:rows=3", {"cols": 3}),
        ("dots_and_boxes", {"rows": 3, "cols": 3}),
        (" dots_and_boxes : rows = 3 , cols=3 ", {}),
    ],
)
def test_make_takes_a_spec_string_and_keyword_options_alike(
    spec: str, options: dict[str, Any]
) -> None:
    game = purestate.make(spec, **options)
    assert game == purestate.make_spec("dots_and_boxes:rows=3,cols=3")
    assert game.spec.name == "dots_and_boxes"
    assert (game.rows, game.cols) == (3, 3)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: purestate.make("dots_and_boxes:rows=3", rows=2), "'rows' given both"),
        (lambda: purestate.make("dots_and_boxes", bogus=1), "has no option 'bogus'"),
        (lambda: purestate.make("dots_and_boxes:bogus=1"), "has no option 'bogus'"),
        (lambda: purestate.make("dots_and_boxes:rows=x"), "'rows' must be a whole number"),
        (lambda: purestate.make("dots_and_boxes", rows=0), "rows must be a whole number"),
        (lambda: purestate.make("chess:size=8"), "unknown game 'chess'"),
    ],
)
def test_make_refuses_bad_options_in_one_line(call: Any, message: str) -> None:
    with pytest.raises(purestate.SpecError, match=message) as e:
        call()
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("seat", [7, -1, True, "0", 0.0])
def test_initial_table_refuses_a_seat_that_is_not_0_or_1_in_one_line(seat: Any) -> None:
    game, menace = purestate.make("tictactoe"), purestate.agent("menace")
    with pytest.raises(ValueError, match=r"seat must be 0 .* or 1") as e:
        menace.initial_table(game, seat)
    assert "\n" not in str(e.value)
    assert len(menace.initial_table(game, 0).boxes) == 304  # the seats that are seats still work
