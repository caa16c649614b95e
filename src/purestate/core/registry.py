"""The registries of games and agents: names to classes, imported on first use.

``make("tictactoe")`` and ``agent("menace:preset=scroggs")`` are the entry points a script and the
command line share. A game or agent class is an attrs class; its fields are its options.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Literal

import attrs

from purestate.core import history
from purestate.core.agent import Agent
from purestate.core.game import Game, NotAGame, not_a_game
from purestate.core.hooks import from_params_of, made_for_of
from purestate.core.spec import SpecError, build, format_spec, option_fields, parse_spec

# name -> "module:Class". One line per game; the module holds all of that game's rules.
_GAMES: dict[str, str] = {
    "tictactoe": "purestate.games.tictactoe:TicTacToe",
    "ultimate_tictactoe": "purestate.games.ultimate:UltimateTicTacToe",
    "xtreme_tictactoe": "purestate.games.xtreme:XtremeTicTacToe",
    "dots_and_boxes": "purestate.games.dots_and_boxes:DotsAndBoxes",
    "connect_four": "purestate.games.connect_four:ConnectFour",
    "tron": "purestate.games.tron.rules:Tron",
}
# prefix -> "module:function": families of games from other libraries, named
# ``PREFIX:<name>[:key=value,...]`` (``openspiel:connect_four``). The function takes the rest of
# the spec and keyword options; loaded by name so the core never imports the bridge.
_BRIDGES: dict[str, str] = {
    "openspiel": "purestate.interop.from_openspiel:load",
}

# name -> "module:Class". One line per agent; the module holds all of that agent.
_AGENTS: dict[str, str] = {
    "random": "purestate.agents.random:Random",
    "rules": "purestate.agents.rules:Rules",
    "perfect": "purestate.agents.perfect:Perfect",
    "solver": "purestate.agents.perfect:Solver",
    "menace": "purestate.agents.menace:Menace",
    "alphabeta": "purestate.agents.alphabeta:AlphaBeta",
    "mcts": "purestate.agents.mcts:MCTS",
    "xtreme2019": "purestate.agents.xtreme2019:Xtreme2019",
    "qlearning": "purestate.agents.td:QLearning",
    "qlearning_notebook": "purestate.agents.td:QLearningNotebook",
    "sarsa": "purestate.agents.td:Sarsa",
    "alphazero": "purestate.agents.alphazero:AlphaZero",
    "tron_random": "purestate.agents.tron_bots:TronRandom",
    "tron_wall": "purestate.agents.tron_bots:TronWall",
    "tron_greedy": "purestate.agents.tron_bots:TronGreedy",
    # OpenSpiel's own bots (need purestate[openspiel] to move, not to be listed)
    "openspiel_mcts": "purestate.interop.bots:OpenSpielMCTS",
    "openspiel_random": "purestate.interop.bots:OpenSpielRandom",
}


# name -> "module:function". Evaluations injected into search (``alphabeta:eval=voronoi``):
# ``evaluate(game, state) -> float``, the value for player 0, strictly inside (-1, 1) so that a
# proven win or loss always outranks a heuristic estimate.
_EVALUATIONS: dict[str, str] = {
    "uttt": "purestate.heuristics.uttt:evaluate",
    "space": "purestate.heuristics.tron:space",
    "voronoi": "purestate.heuristics.tron:voronoi_eval",
    "chamber": "purestate.heuristics.tron:chamber_eval",
    "linear": "purestate.heuristics.tron:linear",
}

# name -> "module:function". Per-move scores injected into Monte Carlo search (heavy playouts,
# progressive bias, the 2019 bot's ordering: ``mcts:playout=heavy,scores=uttt``):
# ``move_scores(game, state) -> tuple[float, ...]``, one score >= 0 per move of
# ``game.legal(state)`` in that order, larger meaning better for the player to move.
_MOVE_SCORES: dict[str, str] = {
    "uttt": "purestate.heuristics.uttt:move_scores",
    "uttt_code": "purestate.heuristics.uttt:code_move_scores",
}


def evaluation_games(name: str) -> tuple[str, ...] | None:
    """The games the evaluation ``name`` is made for (declared beside it with
    ``core.game.made_for``), or None if it plays every game or is not registered."""
    return made_for_of(evaluation(name)) if name in _EVALUATIONS else None


def move_score_games(name: str) -> tuple[str, ...] | None:
    """The games the per-move scores ``name`` are made for (declared beside them with
    ``core.game.made_for``), or None if they play every game or are not registered."""
    return made_for_of(move_scores(name)) if name in _MOVE_SCORES else None


def check_plays(
    kind: Literal["evaluation", "move scores"], name: str, game: Game[Any, Any]
) -> None:
    """Refuse ``game`` with one line if the evaluation or move scores ``name`` are made for others.

    Raises:
        SpecError: naming the games they are made for.
    """
    made_for = evaluation_games(name) if kind == "evaluation" else move_score_games(name)
    if made_for is not None and game.spec.name not in made_for:
        raise SpecError(
            f"{kind} {name!r} {'is' if kind == 'evaluation' else 'are'} made for "
            f"{' and '.join(made_for)}, not {game.spec.name}"
        )


def _load(path: str) -> Any:
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def games() -> tuple[str, ...]:
    """The names of the registered games."""
    return tuple(_GAMES)


def agents() -> tuple[str, ...]:
    """The names of the registered agents."""
    return tuple(_AGENTS)


def game_class(name: str) -> type:
    """The class of the game called ``name``."""
    if name not in _GAMES:
        bridged = ", ".join(f"{b}:NAME" for b in _BRIDGES)
        raise SpecError(f"unknown game {name!r} (games: {', '.join(_GAMES)}; and {bridged})")
    cls: type = _load(_GAMES[name])
    return cls


def agent_aliases() -> dict[str, str]:
    """The agents' old names, each with the name it stands for today (``core.history``)."""
    return dict(history.AGENT_ALIASES)


def agent_class(name: str) -> type:
    """The class of the agent called ``name`` (or by an old name of it)."""
    name = history.agent_name(name)
    if name not in _AGENTS:
        raise SpecError(f"unknown agent {name!r} (agents: {', '.join(_AGENTS)})")
    cls: type = _load(_AGENTS[name])
    return cls


def spec_then(spec: str, version: int) -> str:
    """The spec that means today what ``spec`` meant in a run or sweep file of format ``version``
    (``core.history``: the defaults each version had).

    Options the spec sets keep their values; the agent's options whose defaults changed since get
    their old values, spelled out: in a version-1 file ``mcts:simulations=300`` is
    ``mcts:simulations=300,c=1.0,playout=random,decisive=false``. A spec of an agent whose
    defaults never changed since, or of no registered agent, comes back as it is.

    Raises:
        SpecError: for a bad spec of an agent whose defaults changed.
    """
    name, params = parse_spec(spec)
    try:
        cls = agent_class(name)
    except SpecError:
        return spec
    old = history.defaults_then(name, version)
    if not old:
        return spec
    name = history.agent_name(name)
    return format_spec(name, build(cls, name, {**old, **params}), always=tuple(old))


def classic_spec(spec: str) -> str:
    """``spec_then(spec, 1)``: the spec that means today what ``spec`` meant before ``mcts``'s
    defaults first changed (a ``run.json`` of format ``purestate.run/1``, a ``sweep.json`` without
    a format): ``mcts:simulations=300`` becomes
    ``mcts:simulations=300,c=1.0,playout=random,decisive=false``.

    Raises:
        SpecError: for a bad spec of an agent whose defaults changed.
    """
    return spec_then(spec, 1)


def evaluations() -> tuple[str, ...]:
    """The names of the registered evaluations."""
    return tuple(_EVALUATIONS)


def evaluation(name: str) -> Callable[[Game[Any, Any], Any], float]:
    """The evaluation function called ``name``."""
    if name not in _EVALUATIONS:
        known = ", ".join(_EVALUATIONS) or "none"
        raise SpecError(f"unknown evaluation {name!r} (evaluations: {known})")
    fn: Callable[[Game[Any, Any], Any], float] = _load(_EVALUATIONS[name])
    return fn


def move_scorers() -> tuple[str, ...]:
    """The names of the registered per-move score functions."""
    return tuple(_MOVE_SCORES)


def move_scores(name: str) -> Callable[[Game[Any, Any], Any], tuple[float, ...]]:
    """The per-move score function called ``name``."""
    if name not in _MOVE_SCORES:
        known = ", ".join(_MOVE_SCORES) or "none"
        raise SpecError(f"unknown move scores {name!r} (move scores: {known})")
    fn: Callable[[Game[Any, Any], Any], tuple[float, ...]] = _load(_MOVE_SCORES[name])
    return fn


def require_move_scores(name: str) -> None:
    """Refuse (``ValueError``) a name that no registered per-move score function has."""
    if name not in _MOVE_SCORES:
        known = ", ".join(move_scorers()) or "none"
        raise ValueError(f"unknown move scores {name!r} (move scores: {known})")


def chosen_move_scores(
    injected: Callable[[Game[Any, Any], Any], tuple[float, ...]] | None, name: str
) -> Callable[[Game[Any, Any], Any], tuple[float, ...]] | None:
    """An agent's per-move scores: the injected function, else the registered one ``name``
    names, else None (no ``scores`` option)."""
    if injected is not None:
        return injected
    return move_scores(name) if name else None


def _bridged(spec: str) -> tuple[Callable[..., Game[Any, Any]], str] | None:
    """The loader and the rest of a spec naming a bridged family (``openspiel:...``), or None."""
    family, sep, rest = spec.strip().partition(":")
    if not sep or family.strip() not in _BRIDGES:
        return None
    loader: Callable[..., Game[Any, Any]] = _load(_BRIDGES[family.strip()])
    return loader, rest


def _named(name: Any, what: str) -> str:
    """``name`` when it is a str.

    Raises:
        NotAGame: (a TypeError) in one line for anything else: a pyspiel game gets the advice to
            load it through the bridge.
    """
    if isinstance(name, str):
        return name
    why = not_a_game(name)
    if why is not None and str(why).startswith("a pyspiel"):
        raise NotAGame(f"{what} takes a game name (a str): {why}")
    raise NotAGame(
        f"{what} takes a game name (a str) such as 'tictactoe' or 'openspiel:connect_four'; "
        f"got a {type(name).__qualname__}"
    )


def make(name: str, **params: Any) -> Game[Any, Any]:
    """A game from the registry, by name or by spec string, with keyword options.

    ``make("dots_and_boxes", rows=2, cols=2)``, ``make("dots_and_boxes:rows=2,cols=2")`` (the
    spec string the command line takes) and ``make("dots_and_boxes:rows=2", cols=2)`` are the same
    game; an option given both ways is refused. A bridged game takes its whole spec as the name:
    ``make("openspiel:hex:board_size=5")`` or ``make("openspiel:hex", board_size=5)``.

    Raises:
        SpecError: for an unknown game or option, a bad value, or an option given twice.
        NotAGame: (a TypeError) when ``name`` is not a str (a pyspiel game, say).
    """
    bridged = _bridged(_named(name, "make()"))
    if bridged is not None:
        return bridged[0](bridged[1], **params)
    name, written = parse_spec(name)
    twice = sorted(set(written) & set(params))
    if twice:
        raise SpecError(f"{name}: option {twice[0]!r} given both in the spec and as a keyword")
    cls = game_class(name)
    # the spec's text options are converted and checked as on the command line; the keyword
    # options are values already, checked by the class itself
    game: Game[Any, Any] = build(cls, name, written)
    if not params:
        return game
    fields = option_fields(cls)
    unknown = sorted(set(params) - set(fields))
    if unknown:
        known = ", ".join(sorted(fields)) or "none"
        raise SpecError(f"{name} has no option {unknown[0]!r} (options: {known})")
    try:
        game = attrs.evolve(game, **params)  # type: ignore[misc]  # games are attrs classes
    except (TypeError, ValueError) as e:
        raise SpecError(f"{name}: {e}") from None
    return game


def make_spec(spec: str) -> Game[Any, Any]:
    """A game from a spec string, e.g. ``"dots_and_boxes:rows=3,cols=3"`` or
    ``"openspiel:breakthrough:rows=5,columns=5"``.

    Raises:
        SpecError: for an unknown game or option, or a bad value.
        NotAGame: (a TypeError) when ``spec`` is not a str.
    """
    bridged = _bridged(_named(spec, "make_spec()"))
    if bridged is not None:
        return bridged[0](bridged[1])
    name, params = parse_spec(spec)
    game: Game[Any, Any] = build(game_class(name), name, params)
    return game


def agent(spec: str) -> Agent:
    """An agent from a spec string ``NAME[:key=value,...]``, e.g. ``"rules:p=0.7"``.

    Raises:
        SpecError: for an unknown agent or option, or a bad value.
    """
    name, params = parse_spec(spec)
    cls = agent_class(name)
    from_params = from_params_of(cls)
    if from_params is not None:
        made: Agent = from_params(params)
        return made
    built: Agent = build(cls, name, params)
    return built


def agent_spec(text: Any) -> Any:
    """``text`` as the agent it names writes its spec (``rules`` for ``rules:p=0.7``,
    ``xtreme2019`` for ``seedbot``); anything that names no agent (``self``, a number) as it is.

    Two spellings of one agent compare equal this way: a file saved with the spec as it was typed
    still matches the run that reads it back.
    """
    try:
        return agent(str(text)).spec if isinstance(text, str) else text
    except SpecError:
        return text
