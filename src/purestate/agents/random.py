"""The random agent: a uniformly random legal move."""

from __future__ import annotations

from typing import Any

from attrs import frozen

from purestate.core.agent import Decision, FixedPolicy, ListDraw
from purestate.core.game import Game, require_game
from purestate.core.keys import Key, choice


@frozen
class Random(FixedPolicy):
    """Plays a uniformly random legal move."""

    @property
    def spec(self) -> str:
        """``random``."""
        return "random"

    def act(self, game: Game[Any, Any], table: Any, state: Any, key: Key) -> Decision[Any]:
        """A uniformly random legal move."""
        require_game(game, state)  # a pyspiel game, say: one line saying how to bridge it
        return Decision(choice(key, game.legal(state)))

    def list_draw(self, game: Game[Any, Any], state: Any) -> ListDraw:
        """What ``act`` draws from: ``choice`` of the legal moves (``TabledDraws``)."""
        require_game(game, state)
        return ListDraw("choice", 1.0, game.legal(state))
