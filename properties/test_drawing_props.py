"""The vector boards of ``purestate.svg`` on random positions of every registered game case:
well-formed SVG, one ``data-move`` per legal move, whose texts are exactly the legal moves'
texts and parse back to those moves, and the last move highlighted without changing any of that.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import purestate
from purestate.core.game import Game
from purestate.core.hooks import draw_of

from .strategies import trajectories

PER_CASE = settings(max_examples=max(1, settings().max_examples // 5))
SVG = "{http://www.w3.org/2000/svg}"


@PER_CASE
@given(data=st.data())
def test_every_legal_move_is_one_clickable_element(
    registered_game: Game[Any, Any], data: st.DataObject
) -> None:
    game = registered_game
    path = data.draw(trajectories(game), label="trajectory")
    state = path[-1]
    last = None
    if len(path) > 1:
        # the move that led here: the one legal move of the previous state that steps to it
        last = next(m for m in game.legal(path[-2]) if game.step(path[-2], m) == state)
    picture = purestate.svg(game, state, "seat 0 & seat 1 <x>", last)
    assert isinstance(picture, purestate.Picture)
    assert picture._repr_svg_() == str(picture)
    root = ET.fromstring(str(picture))  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    texts = [e.get("data-move") for e in root.iter() if e.get("data-move") is not None]
    legal = game.legal(state)
    assert sorted(texts) == sorted(game.format_move(m) for m in legal)
    assert len(set(texts)) == len(texts)
    for t in texts:
        assert game.parse_move(state, t) in legal
    # a real drawing, not the text panel: the board is made of shapes
    assert draw_of(game) is not None
    assert sum(1 for e in root.iter() if e.tag in (f"{SVG}rect", f"{SVG}circle")) >= len(legal)
    assert "seat 0 &amp; seat 1 &lt;x&gt;" in str(picture)
