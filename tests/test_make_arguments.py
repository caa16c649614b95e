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
