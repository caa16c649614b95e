"""Purestate games as pyspiel games, for OpenSpiel's algorithms.

``as_pyspiel(game)`` is any purestate game behind OpenSpiel's Python game API (with observation
tensors from the game's ``planes`` hook), and ``to_pyspiel(game, state)`` a pyspiel state of it. A
game whose rounds are simultaneous (Tron under ``rules=simultaneous``) becomes a simultaneous-move
pyspiel game; which moves a seat may see is the core's driver's answer
(``core.match.hides_moves``, ``core.match.hidden_from``). The other direction is
``from_openspiel``.
"""

from __future__ import annotations

from typing import Any

from purestate.core.game import Game
from purestate.core.hooks import planes_of
from purestate.core.match import hidden_from, hides_moves
from purestate.core.memo import memo
from purestate.core.spec import SpecError
from purestate.interop.from_openspiel import OpenSpielGame
from purestate.interop.openspiel import format_name, num_move_ids, pyspiel_module


def _utility_bounds(game: Game[Any, Any]) -> tuple[float, float]:
    """OpenSpiel's utility bounds: the outcomes' when the spec lists them; otherwise returns are
    margins, and ``max_length`` bounds each registered game's (a box, a point per ply at most)."""
    if game.spec.outcomes is not None:
        return min(game.spec.outcomes), max(game.spec.outcomes)
    return -float(game.spec.max_length), float(game.spec.max_length)


@memo(
    size=64,
    why="any number of games could be bridged; a process uses a few",
    unhashable_ok="a pyspiel game is never changed once made (its states are)",
)
def as_pyspiel(game: Game[Any, Any]) -> Any:
    """``game`` as a pyspiel game (OpenSpiel's Python game API), for OpenSpiel's algorithms.

    A bridged OpenSpiel game gives back its own pyspiel game. Any other game becomes a
    ``pyspiel.Game`` whose Python states hold a purestate state: ``apply_action`` replaces it by
    ``game.step(state, action)``, so the purestate values are never changed, and actions are the
    move ids. Not registered with ``pyspiel.register_game`` (a game holds its options, which a
    registered name could not carry): pass the object to OpenSpiel's algorithms. Memoised:
    the same game gives the same pyspiel game.

    A game with hidden moves (Tron under simultaneous rules, played in purestate as two plies
    a round with the first move hidden) becomes a simultaneous-move pyspiel game: each round is
    one node where both players act (``apply_actions``), so neither sees the other's choice.

    Raises:
        SpecError: without OpenSpiel.
    """
    if isinstance(game, OpenSpielGame):
        return game.native
    return _python_game(pyspiel_module())(game)


class _Shared:
    """A purestate game and state inside a pyspiel state. ``clone`` deep-copies a Python state;
    both values are immutable, so the copy shares them (copying a game's memo tables on every
    clone would make OpenSpiel's search crawl)."""

    __slots__ = ("game", "state")

    def __init__(self, game: Game[Any, Any], state: Any) -> None:
        self.game = game
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


@memo(size=1, why="keyed by the pyspiel module: there is one")
def _python_game(pyspiel: Any) -> type:
    """The pyspiel.Game and pyspiel.State subclasses, made once pyspiel is imported (the module
    itself must load without it)."""
    T = pyspiel.GameType

    class PurestateState(pyspiel.State):  # type: ignore[misc]
        """A pyspiel state holding a purestate state (replaced, never changed, by a move)."""

        def __init__(self, pgame: Any, state: Any) -> None:
            super().__init__(pgame)
            self.held = _Shared(pgame.purestate, state)

        def current_player(self) -> int:
            game, state = self.held.game, self.held.state
            if game.is_over(state):
                return int(pyspiel.PlayerId.TERMINAL)
            return int(game.to_move(state))

        def _legal_actions(self, player: int) -> list[int]:
            game, state = self.held.game, self.held.state
            if game.is_over(state) or player != game.to_move(state):
                return []
            return list(game.legal(state))

        def _apply_action(self, action: int) -> None:
            game = self.held.game
            self.held = _Shared(game, game.step(self.held.state, int(action)))

        def _action_to_string(self, player: int, action: int) -> str:
            return str(self.held.game.format_move(int(action)))

        def is_terminal(self) -> bool:
            return bool(self.held.game.is_over(self.held.state))

        def returns(self) -> list[float]:
            return [float(r) for r in self.held.game.returns(self.held.state)]

        def rewards(self) -> list[float]:
            # the whole result comes at the end (RewardModel.TERMINAL)
            return self.returns() if self.is_terminal() else [0.0, 0.0]

        def __str__(self) -> str:
            return str(self.held.game.render(self.held.state))

    class PurestateRoundsState(PurestateState):
        """A round of a game with hidden moves (Tron under simultaneous rules) as one
        simultaneous node: both players choose, then the round's first mover's move is applied
        and the other's, which resolves the round."""

        def current_player(self) -> int:
            if self.held.game.is_over(self.held.state):
                return int(pyspiel.PlayerId.TERMINAL)
            return int(pyspiel.PlayerId.SIMULTANEOUS)

        def _legal_actions(self, player: int) -> list[int]:
            game, state = self.held.game, self.held.state
            if player < 0:
                raise ValueError("a simultaneous node: ask for one player's legal actions")
            if game.is_over(state):
                return []
            first = game.legal(state)
            if player == game.to_move(state):
                return list(first)
            # the second mover's moves cannot depend on the first mover's hidden one (they
            # would give it away), so any first move shows them
            return list(game.legal(game.step(state, first[0])))

        def _apply_action(self, action: int) -> None:
            raise ValueError("a simultaneous node: both players act at once, with apply_actions")

        def _apply_actions(self, actions: list[int]) -> None:
            game, state = self.held.game, self.held.state
            first = game.to_move(state)
            state = game.step(state, int(actions[first]))
            if not game.is_over(state):
                state = game.step(state, int(actions[1 - first]))
            self.held = _Shared(game, state)

    class PurestateGame(pyspiel.Game):  # type: ignore[misc]
        """A purestate game behind OpenSpiel's game API."""

        def __init__(self, game: Game[Any, Any]) -> None:
            low, high = _utility_bounds(game)
            name = format_name(game)
            planes = planes_of(game)
            self.rounds = hides_moves(game)
            game_type = T(
                short_name="purestate_" + game.spec.name,
                long_name=f"purestate {name}",
                dynamics=T.Dynamics.SIMULTANEOUS if self.rounds else T.Dynamics.SEQUENTIAL,
                chance_mode=T.ChanceMode.DETERMINISTIC,
                information=T.Information.PERFECT_INFORMATION,
                utility=T.Utility.ZERO_SUM if game.spec.zero_sum else T.Utility.GENERAL_SUM,
                reward_model=T.RewardModel.TERMINAL,
                max_num_players=2,
                min_num_players=2,
                provides_information_state_string=False,
                provides_information_state_tensor=False,
                provides_observation_string=planes is not None,
                provides_observation_tensor=planes is not None,
                parameter_specification={},
            )
            info = pyspiel.GameInfo(
                num_distinct_actions=num_move_ids(game),
                max_chance_outcomes=0,
                num_players=2,
                min_utility=low,
                max_utility=high,
                utility_sum=0.0 if game.spec.zero_sum else None,
                max_game_length=game.spec.max_length,
            )
            super().__init__(game_type, info, {})
            self.purestate = game
            self.planes = planes

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            """The observation planes (the game's ``planes``), or for a perfect-recall request the
            public-information observer OpenSpiel makes for any perfect-information game."""
            if params:
                raise ValueError(f"observation parameters are not supported: {params}")
            if iig_obs_type is None or (
                iig_obs_type.public_info and not iig_obs_type.perfect_recall
            ):
                if self.planes is None:
                    raise SpecError(f"no observation planes for {self.purestate.spec.name}")
                return _PlanesObserver(self.purestate, self.planes)
            from open_spiel.python.observation import IIGObserverForPublicInfoGame

            return IIGObserverForPublicInfoGame(iig_obs_type, params)

        def new_initial_state(self, state: Any = None) -> Any:
            """The start, or the pyspiel state holding the purestate ``state``.

            Raises:
                SpecError: in a game of simultaneous rounds, for a position in the middle of a
                    round (pass the player's observation, which has no committed move).
            """
            if state is None:
                state = self.purestate.initial()
            if not self.rounds:
                return PurestateState(self, state)
            game = self.purestate
            if not game.is_over(state) and hidden_from(game, state, game.to_move(state)):
                raise SpecError(
                    "a round is half played: pass the player's observation, which a "
                    "simultaneous pyspiel state starts from"
                )
            return PurestateRoundsState(self, state)

    return PurestateGame


class _PlanesObserver:
    """OpenSpiel's observer protocol over a game's observation planes: ``tensor`` (flat, float32),
    ``dict`` (the same numbers as rows × columns × planes), ``set_from`` and ``string_from``."""

    def __init__(self, game: Game[Any, Any], planes: Any) -> None:
        import numpy as np

        self.game = game
        self.planes = planes
        self.start = game.initial()
        # pyspiel reads the start position's planes before every observation it is asked for
        first = [planes(self.start, p) for p in (0, 1)]
        self.at_start = tuple(a.ravel().astype(np.float32) for a in first)
        for a in self.at_start:
            a.flags.writeable = False
        self.tensor = np.zeros(self.at_start[0].size, np.float32)
        self.dict = {"observation": self.tensor.reshape(first[0].shape)}

    def set_from(self, state: Any, player: int) -> None:
        """Fill ``tensor`` with the planes of a pyspiel state seen by ``player``."""
        position = state.held.state
        if position == self.start:
            self.tensor[:] = self.at_start[player]
        else:
            self.tensor[:] = self.planes(position, player).ravel()

    def string_from(self, state: Any, player: int) -> str:
        """The board as the game renders it (both players see the whole position)."""
        return str(self.game.render(state.held.state))


def to_pyspiel(game: Game[Any, Any], state: Any) -> Any:
    """A fresh pyspiel state of ``as_pyspiel(game)`` for the purestate ``state`` (the caller may
    mutate it: it is a clone, or a new wrapper of the immutable state)."""
    if isinstance(game, OpenSpielGame):
        return state.native.clone()
    return as_pyspiel(game).new_initial_state(state)
