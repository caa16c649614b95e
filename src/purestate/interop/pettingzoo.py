"""purestate games as PettingZoo environments.

``env("tictactoe")`` is an AEC environment (agents ``player_0`` and ``player_1``, in the
game's seat order) like PettingZoo's classic board games: each observation is a dict of
``observation``, planes of 0/1 seen from the observing player (its own pieces first), and
``action_mask``, the legal move ids of the agent to move. Actions are the move ids, so a
trained policy's actions replay in purestate as they are. Rewards come at the end: the game's
returns. ``parallel_env`` gives Tron under simultaneous rules as a PettingZoo parallel
environment, both players moving at once.

The environment is the imperative shell's kind of object (``reset`` and ``step`` change it),
built around the pure core: it holds one immutable state and replaces it on each step. Needs the
``pettingzoo`` extra: ``pip install 'purestate[pettingzoo]'``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from purestate.core.game import Game, IllegalMove, NotAGame, not_a_game
from purestate.core.hooks import PlanesFn, observation_of, planes_of
from purestate.core.match import hides_moves
from purestate.core.registry import make_spec
from purestate.core.spec import SpecError
from purestate.interop.openspiel import num_move_ids

INSTALL = "pip install 'purestate[pettingzoo]'"
AGENTS = ("player_0", "player_1")


def _import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        raise SpecError(f"the PettingZoo bridge needs PettingZoo: {INSTALL}") from None


def _game(spec: str | Game[Any, Any], what: str) -> Game[Any, Any]:
    """The game a spec string names, or ``spec`` itself when it is a game.

    Raises:
        NotAGame: (a TypeError) in one line for anything else, saying what ``what`` takes.
    """
    if isinstance(spec, str):
        return make_spec(spec)
    why = not_a_game(spec)
    if why is not None:
        raise NotAGame(f"{what} takes a game spec (a str) or a purestate game: {why}")
    return spec


def _shown(x: Any, most: int = 60) -> str:
    """``repr(x)`` on one short line (an array's repr may run over many)."""
    text = " ".join(repr(x).split())
    return text if len(text) <= most else text[: most - 3] + "..."


def action_id(game: Game[Any, Any], action: Any, n: int) -> int:
    """A PettingZoo action as a move id: an int (a numpy integer too) from 0 to ``n - 1``.

    Floats, bools, text and the like are refused rather than rounded by ``int()``, as
    ``game.step`` refuses them.

    Raises:
        IllegalMove: in one line for anything else.
    """
    if isinstance(action, np.integer) or (isinstance(action, int) and not isinstance(action, bool)):
        move = int(action)
        if 0 <= move < n:
            return move
    raise IllegalMove(
        f"{_shown(action)} is not an action of {game.spec.name}: actions are ints 0-{n - 1}"
        " (numpy integers too)"
    )


def _spaces(game: Game[Any, Any], plane: np.ndarray, n: int) -> tuple[Any, Any]:
    spaces = _import("gymnasium.spaces")
    if plane.dtype == np.int8:
        box = spaces.Box(0, 1, plane.shape, np.int8)
    else:
        box = spaces.Box(-np.inf, np.inf, plane.shape, np.float32)
    obs = spaces.Dict({"observation": box, "action_mask": spaces.Box(0, 1, (n,), np.int8)})
    return obs, spaces.Discrete(n)


def _checked(render_mode: str | None) -> None:
    if render_mode not in (None, "ansi"):
        raise SpecError(f"render_mode must be None or 'ansi'; got {render_mode!r}")


def _planes(game: Game[Any, Any]) -> PlanesFn:
    """The game's observation planes (``Planes``), looked at once so that a failure is one line
    here.

    Raises:
        SpecError: for a game without planes.
    """
    planes = planes_of(game)
    if planes is None:
        raise SpecError(f"no observation planes for {game.spec.name}")
    planes(game.initial(), 0)
    return planes


class _Spaces:
    """What both environments set up alike: the game, its spaces, the start position."""

    def _set_up(self, game: Game[Any, Any], planes: Any, render_mode: str | None) -> None:
        self.game = game
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        obs, act = _spaces(game, planes(game.initial(), 0), num_move_ids(game))
        self.observation_spaces = dict.fromkeys(AGENTS, obs)
        self.action_spaces = dict.fromkeys(AGENTS, act)
        self.state_value = game.initial()

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return str(self.game.render(self.state_value))

    def close(self) -> None:
        pass


def env(spec: str | Game[Any, Any], render_mode: str | None = None) -> Any:
    """A PettingZoo AEC environment for a game spec (``"dots_and_boxes:rows=3,cols=3"``,
    ``"openspiel:connect_four"``) or a game.

    Args:
        spec: The game, as a spec string or a game value.
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns the board as text).

    The environment's ``step`` takes an action id: an int or a numpy integer from 0 to the
    action space's size - 1, legal in the position (``IllegalMove``, a ValueError, otherwise;
    the environment is left as it was).

    Raises:
        SpecError: without PettingZoo, for a bad spec, or a game without planes.
        NotAGame: (a TypeError) when ``spec`` is neither a spec string nor a game.
    """
    aec = _import("pettingzoo").AECEnv
    game = _game(spec, "env()")
    planes = _planes(game)
    n = num_move_ids(game)
    _checked(render_mode)
    observe_as = observation_of(game)

    class PurestateAEC(_Spaces, aec):  # type: ignore[misc, valid-type]
        """A purestate game as a PettingZoo AEC environment."""

        metadata = {  # noqa: RUF012 (PettingZoo reads it from the class)
            "render_modes": ["ansi"],
            "name": f"purestate_{game.spec.name.replace(':', '_')}_v0",
            "is_parallelizable": False,
        }

        def __init__(self) -> None:
            super().__init__()
            self._set_up(game, planes, render_mode)

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            # the games are deterministic: ``seed`` has nothing to draw
            self.state_value = game.initial()
            self.agents = list(AGENTS)
            self.rewards = dict.fromkeys(AGENTS, 0.0)
            self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
            self.terminations = dict.fromkeys(AGENTS, False)
            self.truncations = dict.fromkeys(AGENTS, False)
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
            self.agent_selection = AGENTS[game.to_move(self.state_value)]

        def observe(self, agent: str) -> dict[str, np.ndarray]:
            p = AGENTS.index(agent)
            s = self.state_value
            seen = s if observe_as is None else observe_as(s, p)
            mask = np.zeros(n, dtype=np.int8)
            if not game.is_over(s) and game.to_move(s) == p:
                mask[list(game.legal(s))] = 1
            return {"observation": planes(seen, p), "action_mask": mask}

        def step(self, action: Any) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            # refused before anything changes: the environment stays as it was
            self.state_value = game.step(self.state_value, action_id(game, action, n))
            self._cumulative_rewards[agent] = 0.0
            if game.is_over(self.state_value):
                r = game.returns(self.state_value)
                self.rewards = {a: float(r[i]) for i, a in enumerate(AGENTS)}
                self.terminations = dict.fromkeys(AGENTS, True)
            else:
                self.rewards = dict.fromkeys(AGENTS, 0.0)
                self.agent_selection = AGENTS[game.to_move(self.state_value)]
            self._accumulate_rewards()

    made = PurestateAEC()
    made.reset()
    return made


def parallel_env(spec: str | Game[Any, Any], render_mode: str | None = None) -> Any:
    """A PettingZoo parallel environment for a game whose rounds are simultaneous (Tron under
    ``rules=simultaneous``): both agents act each step; the round's first mover's move is
    applied, then the other's, which resolves the round.

    ``step`` takes a dict with an action id for each agent, checked as ``env``'s are.

    Raises:
        SpecError: without PettingZoo, or for a game whose moves are not simultaneous.
        NotAGame: (a TypeError) when ``spec`` is neither a spec string nor a game.
    """
    parallel = _import("pettingzoo").ParallelEnv
    game = _game(spec, "parallel_env()")
    if not hides_moves(game):
        raise SpecError(f"{game.spec.name}: the players take turns; use env() for it")
    planes = _planes(game)
    n = num_move_ids(game)
    _checked(render_mode)

    class PurestateParallel(_Spaces, parallel):  # type: ignore[misc, valid-type]
        """A purestate game of simultaneous rounds as a PettingZoo parallel environment."""

        metadata = {  # noqa: RUF012 (PettingZoo reads it from the class)
            "render_modes": ["ansi"],
            "name": f"purestate_{game.spec.name}_parallel_v0",
        }

        def __init__(self) -> None:
            self._set_up(game, planes, render_mode)
            self.agents: list[str] = []

        def _observe(self) -> dict[str, dict[str, np.ndarray]]:
            s = self.state_value
            mask = np.zeros(n, dtype=np.int8)
            if not game.is_over(s):
                mask[list(game.legal(s))] = 1
            return {a: {"observation": planes(s, p), "action_mask": mask.copy()}
                    for p, a in enumerate(AGENTS)}  # fmt: skip

        def reset(
            self, seed: int | None = None, options: dict[str, Any] | None = None
        ) -> tuple[dict[str, Any], dict[str, Any]]:
            self.state_value = game.initial()
            self.agents = list(AGENTS)
            return self._observe(), {a: {} for a in AGENTS}

        def step(self, actions: dict[str, Any]) -> tuple[Any, Any, Any, Any, Any]:
            if not isinstance(actions, Mapping) or set(actions) != set(AGENTS):
                raise IllegalMove(
                    f"step() takes a dict with one action for each of {' and '.join(AGENTS)}; "
                    f"got {_shown(actions)}"
                )
            s = self.state_value
            first = game.to_move(s)
            for p in (first, 1 - first):  # the round's first mover commits, the other resolves
                s = game.step(s, action_id(game, actions[AGENTS[p]], n))
            self.state_value = s
            over = game.is_over(s)
            r = game.returns(s) if over else (0.0, 0.0)
            obs = self._observe()
            rewards = {a: float(r[p]) for p, a in enumerate(AGENTS)}
            terminations = dict.fromkeys(AGENTS, over)
            truncations = dict.fromkeys(AGENTS, False)
            infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
            if over:
                self.agents = []
            return obs, rewards, terminations, truncations, infos

    return PurestateParallel()
