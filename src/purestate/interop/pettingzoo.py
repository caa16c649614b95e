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
from typing import Any

import numpy as np

from purestate.core.game import Game
from purestate.core.hooks import observation_of
from purestate.core.registry import make_spec
from purestate.core.spec import SpecError
from purestate.interop.openspiel import num_move_ids
from purestate.interop.planes import planes_of

INSTALL = "pip install 'purestate[pettingzoo]'"
AGENTS = ("player_0", "player_1")


def _import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        raise SpecError(f"the PettingZoo bridge needs PettingZoo: {INSTALL}") from None


def _game(spec: str | Game[Any, Any]) -> Game[Any, Any]:
    return make_spec(spec) if isinstance(spec, str) else spec


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


class _Spaces:
    """What both environments set up alike: the game, its spaces, the start position."""

    def _set_up(self, game: Game[Any, Any], planes: Any, render_mode: str | None) -> None:
        self.game = game
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        obs, act = _spaces(game, planes(game, game.initial(), 0), num_move_ids(game))
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

    Raises:
        SpecError: without PettingZoo, for a bad spec, or a game without planes.
    """
    aec = _import("pettingzoo").AECEnv
    game = _game(spec)
    planes = planes_of(game)
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
            return {"observation": planes(game, seen, p), "action_mask": mask}

        def step(self, action: Any) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self.state_value = game.step(self.state_value, int(action))
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

    Raises:
        SpecError: without PettingZoo, or for a game whose moves are not simultaneous.
    """
    from purestate.interop.openspiel import hides_moves

    parallel = _import("pettingzoo").ParallelEnv
    game = _game(spec)
    if not hides_moves(game):
        raise SpecError(f"{game.spec.name}: the players take turns; use env() for it")
    planes = planes_of(game)
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
            return {a: {"observation": planes(game, s, p), "action_mask": mask.copy()}
                    for p, a in enumerate(AGENTS)}  # fmt: skip

        def reset(
            self, seed: int | None = None, options: dict[str, Any] | None = None
        ) -> tuple[dict[str, Any], dict[str, Any]]:
            self.state_value = game.initial()
            self.agents = list(AGENTS)
            return self._observe(), {a: {} for a in AGENTS}

        def step(self, actions: dict[str, Any]) -> tuple[Any, Any, Any, Any, Any]:
            s = self.state_value
            first = game.to_move(s)
            for p in (first, 1 - first):  # the round's first mover commits, the other resolves
                s = game.step(s, int(actions[AGENTS[p]]))
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
