"""The person-against-bots driver (``core.match.Match``) by example: refusals leave the value as
it was, a resigning bot ends the game, the bridges and the driver agree on hidden moves."""

from __future__ import annotations

from typing import Any

import pytest

import purestate
from purestate.core.agent import Decision, FixedPolicy
from purestate.core.game import IllegalMove
from purestate.core.keys import fold_in, key
from purestate.core.match import Match, hidden_from, hides_moves

TTT = purestate.make("tictactoe")
SIM = purestate.make("tron", map="small_room", rules="simultaneous")


def test_an_illegal_move_raises_and_changes_nothing() -> None:
    bot = purestate.agent("random")
    match = Match.start(TTT, (None, bot), (None, None), key(0))
    before = match
    with pytest.raises(IllegalMove):
        match.person_moves(9)
    with pytest.raises(IllegalMove):
        match.person_moves(True)
    assert match == before and match.moves == () and match.persons_turn()
    after = match.person_moves(4)
    assert after.moves == (4,) and after.to_move == 1 and match.moves == ()
    with pytest.raises(IllegalMove, match="not a person's turn"):
        after.person_moves(0)
    answered = after.bots_move()
    assert answered.movers == (0, 1) and answered.persons_turn()
    # the bot's move is the one its key gives: ply 1 of the game's key
    expected = bot.act(TTT, None, answered.states[1], fold_in(key(0), 1)).move
    assert answered.moves[1] == expected


def test_a_finished_match_refuses_moves_and_is_an_episode() -> None:
    bots = (purestate.agent("random"), purestate.agent("random"))
    match = Match.start(TTT, bots, (None, None), key(3))
    with pytest.raises(ValueError, match="not over"):
        match.episode()
    done = match.bots_move()
    assert done.over and done.shown == (len(done.moves), len(done.moves))
    with pytest.raises(IllegalMove, match="over"):
        done.person_moves(0)
    assert done.bots_move() == done


class Resigns(FixedPolicy):
    spec = "resigns"

    def act(self, game: Any, table: Any, state: Any, k: Any) -> Decision[Any]:
        return Decision(None)


def test_a_bot_that_resigns_ends_the_game_and_shows_everything() -> None:
    match = Match.start(SIM, (None, Resigns()), (None, None), key(0)).person_moves(0)
    assert match.shown == (0, 0)  # the person's committed move is hidden from both seats
    done = match.bots_move()
    assert done.over and done.resigned == 1 and done.returns == (1.0, -1.0)
    assert done.shown == (1, 1) and done.view(1) == done.state
    episode = done.episode()
    assert episode.resigned == 1 and episode.moves == (0,)


def test_the_bridges_and_the_driver_agree_on_what_is_hidden() -> None:
    assert hides_moves(SIM) and not hides_moves(TTT)
    assert not hides_moves(purestate.make("tron", map="small_room"))
    committed = SIM.step(SIM.initial(), 0)
    assert hidden_from(SIM, committed, 0) and hidden_from(SIM, committed, 1)
    assert not hidden_from(SIM, SIM.step(committed, 1), 0)
