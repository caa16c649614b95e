"""Properties every registered game case keeps (the cases are each game's
``GameSpec.variants``, through the root conftest, the same the conformance suite runs): the
symmetries act as a group and commute with the rules, canonical forms are shared by a symmetry
class, the codec round-trips, ``step`` leaves its input alone, a game is over exactly when no move
is left, every legal move can be typed back.

Each case gets a fifth of the profile's examples (30 under ci); each example is a state drawn
uniformly by length, so deep states are checked as often as openings.
"""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from purestate.core.game import Game

from .strategies import states

PER_CASE = settings(max_examples=max(1, settings().max_examples // 5))


def _fields(s: Any) -> tuple[Any, ...]:
    """The state's field values, read now: plain ints, so a later change to ``s`` cannot reach
    them (a state can be written through its slot descriptors, as the fast steps build them)."""
    return tuple(getattr(s, f.name) for f in attrs.fields(type(s)))


@PER_CASE
@given(data=st.data())
def test_symmetries_undo_each_other(registered_game: Game[Any, Any], data: st.DataObject) -> None:
    game = registered_game
    s = data.draw(states(game), label="state")
    g = data.draw(st.sampled_from(game.symmetries), label="symmetry")
    assert game.transform(game.transform(s, g), game.inverse(g)) == s
    for m in game.legal(s):
        assert game.transform_move(game.transform_move(m, g), game.inverse(g)) == m


@PER_CASE
@given(data=st.data())
def test_symmetries_commute_with_the_rules(
    registered_game: Game[Any, Any], data: st.DataObject
) -> None:
    game = registered_game
    s = data.draw(states(game), label="state")
    g = data.draw(st.sampled_from(game.symmetries), label="symmetry")
    img = game.transform(s, g)
    assert game.is_over(img) == game.is_over(s)
    assert game.returns(img) == game.returns(s)
    assert {game.transform_move(m, g) for m in game.legal(s)} == set(game.legal(img))
    if game.is_over(s):
        return
    assert game.to_move(img) == game.to_move(s)
    m = data.draw(st.sampled_from(game.legal(s)), label="move")
    assert game.step(img, game.transform_move(m, g)) == game.transform(game.step(s, m), g)


@PER_CASE
@given(data=st.data())
def test_canonical_is_shared_by_the_whole_class(
    registered_game: Game[Any, Any], data: st.DataObject
) -> None:
    game = registered_game
    s = data.draw(states(game), label="state")
    g = data.draw(st.sampled_from(game.symmetries), label="symmetry")
    rep, h = game.canonical(s)
    assert game.transform(s, h) == rep
    assert game.canonical(rep)[0] == rep
    assert game.canonical(game.transform(s, g))[0] == rep


@PER_CASE
@given(data=st.data())
def test_decode_inverts_encode(registered_game: Game[Any, Any], data: st.DataObject) -> None:
    game = registered_game
    s = data.draw(states(game), label="state")
    text = game.encode(s)
    back = game.decode(text)
    assert back == s and hash(back) == hash(s)
    assert game.encode(back) == text


@PER_CASE
@given(data=st.data())
def test_states_are_values_of_immutable_fields(
    registered_game: Game[Any, Any], data: st.DataObject
) -> None:
    # why no function can change a state it is given, short of writing through the descriptors
    game = registered_game
    s = data.draw(states(game), label="state")
    assert attrs.has(type(s))
    with_setattr = attrs.exceptions.FrozenInstanceError
    name = attrs.fields(type(s))[0].name
    try:
        setattr(s, name, 0)
    except with_setattr:
        pass
    else:
        raise AssertionError(f"{type(s).__name__}.{name} could be assigned")
    assert all(isinstance(v, int | str | float | tuple | frozenset) for v in _fields(s))


@PER_CASE
@given(data=st.data())
def test_step_never_changes_its_input(registered_game: Game[Any, Any], data: st.DataObject) -> None:
    game = registered_game
    s = data.draw(states(game), label="state")
    if game.is_over(s):
        return
    before = (_fields(s), game.encode(s))
    for m in game.legal(s):
        game.step(s, m)
    assert (_fields(s), game.encode(s)) == before


@PER_CASE
@given(data=st.data())
def test_over_exactly_when_no_move_is_left(
    registered_game: Game[Any, Any], data: st.DataObject
) -> None:
    game = registered_game
    s = data.draw(states(game), label="state")
    moves = game.legal(s)
    assert (len(moves) == 0) == game.is_over(s)
    assert len(set(moves)) == len(moves)
    if not game.is_over(s):
        assert game.to_move(s) in (0, 1)
        assert game.returns(s) == (0.0, 0.0)


@PER_CASE
@given(data=st.data())
def test_people_can_type_every_legal_move(
    registered_game: Game[Any, Any], data: st.DataObject
) -> None:
    game = registered_game
    s = data.draw(states(game), label="state")
    for m in game.legal(s):
        assert game.parse_move(s, game.format_move(m)) == m
    text = game.render(s)
    assert isinstance(text, str) and text
