"""The person-against-bots driver (``core.match.Match``): what a seat sees, and the games it plays.

* A seat's view never holds a move the rules have not revealed to it: every move of the other
  seat that the seat has not been shown can be replaced by any other legal move without changing
  the seat's view, what it has been shown, or its news. Under Tron's alternating rules every move
  is shown at once; under the simultaneous rules a round's first move stays hidden from both seats
  until the round resolves.
* With nobody a person, a match is ``core.episode.play``'s game for the same key, and a person
  who plays what an agent would play with the ply's key meets the same bot moves as that agent.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import purestate
from purestate.core.episode import play
from purestate.core.game import Game, IllegalMove
from purestate.core.keys import Key, choice, fold_in
from purestate.core.match import Match, hides_moves

from .strategies import keys

PER_CASE = settings(max_examples=max(1, settings().max_examples // 5))

# Tron's variants (its ``GameSpec.variants``, the conformance cases), both rule sets
TRON = {
    "alternating": purestate.make("tron", map="small_room"),
    "alternating, second player first": purestate.make(
        "tron", map="diagonal_blocks", first_player=1
    ),
    "simultaneous": purestate.make("tron", map="small_room", rules="simultaneous"),
    "simultaneous, mirrored start": purestate.make(
        "tron", map="empty_room", rules="simultaneous", start="mirror", start_seed=11
    ),
}
PEOPLE: tuple[None, None] = (None, None)


def _people_match(game: Game[Any, Any], plies: int, k: Key) -> list[Match]:
    """A match two people play with random legal moves (drawn from ``k``), value by value."""
    match = Match.start(game, PEOPLE, (None, None), Key(0))
    out = [match]
    for ply in range(plies):
        if match.over:
            break
        match = match.person_moves(choice(fold_in(k, ply), game.legal(match.state)))
        out.append(match)
    return out


def _replayed(game: Game[Any, Any], moves: list[Any]) -> Match | None:
    """The people's match after ``moves``, or None if the rules refuse one of them."""
    match = Match.start(game, PEOPLE, (None, None), Key(0))
    try:
        for m in moves:
            match = match.person_moves(m)
    except IllegalMove:
        return None
    return match


def _seen(match: Match, seat: int) -> tuple[Any, ...]:
    """Everything the match lets ``seat`` read: its view, how many moves it was shown, them."""
    k = match.shown[seat]
    return match.view(seat), k, match.moves[:k], match.movers[:k], match.to_move


def _check_views(game: Game[Any, Any], matches: list[Match]) -> None:
    for seat in (0, 1):
        news: list[tuple[int, Any]] = []
        for before, match in itertools.pairwise(matches):
            assert before.shown[seat] <= match.shown[seat] <= len(match.moves)
            news += match.news(before, seat)
        final = matches[-1]
        assert news == list(zip(final.movers, final.moves, strict=True))[: final.shown[seat]]
        seen = _seen(final, seat)
        moves = list(final.moves)
        for j in range(final.shown[seat], len(moves)):
            if final.movers[j] == seat:
                continue
            for other in game.legal(final.states[j]):
                alt = _replayed(game, [*moves[:j], other, *moves[j + 1 :]])
                if alt is not None:
                    assert _seen(alt, seat) == seen, (j, other)


@pytest.mark.parametrize("game", TRON.values(), ids=list(TRON))
@given(plies=st.integers(0, 60), k=keys())
def test_a_tron_seat_sees_only_what_the_rules_reveal(
    game: Game[Any, Any], plies: int, k: Key
) -> None:
    matches = _people_match(game, plies, k)
    _check_views(game, matches)
    simultaneous = getattr(game, "rules") == "simultaneous"  # noqa: B009 (a Tron option)
    assert hides_moves(game) == simultaneous
    for match in matches:
        n = len(match.moves)
        for seat in (0, 1):
            if match.over or not simultaneous:
                # every move is public: the view is the position, all moves shown
                assert match.shown[seat] == n
                assert match.view(seat) == match.state
            else:
                # a round is two plies; its first move is hidden until the second is played
                assert match.shown[seat] == n - n % 2
                if n % 2:
                    assert match.view(seat) != match.state


@PER_CASE
@given(plies=st.integers(0, 40), k=keys())
def test_no_seat_sees_an_unrevealed_move(
    registered_game: Game[Any, Any], plies: int, k: Key
) -> None:
    _check_views(registered_game, _people_match(registered_game, plies, k))


BOTS = (purestate.agent("random"), purestate.agent("mcts:simulations=2"))


@PER_CASE
@given(k=keys(), first=st.sampled_from((0, 1)))
def test_a_match_of_bots_is_plays_game(registered_game: Game[Any, Any], k: Key, first: int) -> None:
    game = registered_game
    agents = (BOTS[first], BOTS[1 - first])
    tables = (agents[0].initial_table(game, 0), agents[1].initial_table(game, 1))
    match = Match.start(game, agents, tables, k).bots_move()
    assert match.over and match.to_move is None
    assert match.episode() == play(game, agents, tables, k)


@PER_CASE
@given(k=keys(), seat=st.sampled_from((0, 1)))
def test_a_person_meets_the_bot_moves_of_the_same_key(
    registered_game: Game[Any, Any], k: Key, seat: int
) -> None:
    # the person plays what ``random`` would with the ply's key: the game is play's
    game = registered_game
    bot = BOTS[1]
    seats: tuple[Any, Any] = (None, bot) if seat == 0 else (bot, None)
    tables = (None, None)
    match = Match.start(game, seats, tables, k).bots_move()
    while not match.over:
        ply_key = fold_in(k, len(match.moves))
        match = match.person_moves(choice(ply_key, game.legal(match.view(seat)))).bots_move()
    agents = (BOTS[0], bot) if seat == 0 else (bot, BOTS[0])
    assert match.episode() == play(game, agents, (None, None), k)
