"""Tron series and data sets as pure functions of (options, seed, game index).

Game ``i`` of a series is a function of the run's seed and ``i`` only: its key is
``fold_in(key(seed), i)``, its first player is ``i % 2`` (every series alternates who moves first,
as the CS1410 runner does) and, for ``start="mirror"``, its start seed is drawn from its key. So a
series gives the same games whether it runs in one process or on many, in any order.

Bot names: the CS1410 runner's names are accepted as aliases (``BOT_ALIASES``); anything else is
an agent spec string.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import field, frozen

from purestate.agents.timing import Clock, with_clock
from purestate.agents.tron_bots import with_linear_weights
from purestate.core.episode import Episode, play
from purestate.core.keys import Key, bits, fold_in, key, split
from purestate.core.memo import memo
from purestate.core.registry import agent, agent_spec
from purestate.games.tron.maps import Map
from purestate.games.tron.rules import MOVE_NAMES, Tron
from purestate.heuristics.tron import FEATURES, FEATURES_VERSION, TERMS, features, terms

BOT_ALIASES: dict[str, str] = {
    "random": "tron_random",
    "wall": "tron_wall",
    "greedy": "tron_greedy",
    "ta1": "alphabeta:depth=4,eval=space",
    "ta2": "alphabeta:depth=4,eval=voronoi",
    "student": "alphabeta:depth=4,eval=linear",
    "chamber": "alphabeta:depth=4,eval=chamber",
}


def bot_spec(name: str) -> str:
    """The agent spec of a bot name (a CS1410 alias or a spec string) as the agent writes it
    (``rules`` for ``rules:p=0.7``), so records and summaries name it as every other command
    does; a name that is no agent comes back as it is, for the caller to refuse."""
    spec: str = agent_spec(BOT_ALIASES.get(name, name))
    return spec


@frozen
class Setup:
    """What every game of a series shares.

    Attributes:
        map: A shipped map's name or a ``Map`` value.
        rules: ``alternating`` or ``simultaneous``.
        start: ``map`` or ``mirror``.
        bots: The agent specs of the first seat (blue, 0) and the second (red, 1).
        weights: Weights for ``eval=linear`` bots (None: the shipped weights).
        seed: The series' seed.
        clock: The clock of bots with a ``seconds`` budget (init argument ``clock``), injected
            by the shell as for any timed agent (``purestate.agents.timing``); not part of
            equality. None: a timed bot refuses to move.
    """

    map: str | Map
    rules: str
    start: str
    bots: tuple[str, str]
    weights: tuple[float, ...] | None
    seed: int
    _clock: Clock | None = field(default=None, alias="clock", eq=False, repr=False)


@frozen
class GameResult:
    """One game of a series, enough to replay it.

    Attributes:
        index: The game's number in the series.
        first_player: Who moved first (0: the first seat).
        start_seed: The start seed of a ``mirror`` start.
        winner: 0 (the first seat), 1 (the second) or None (a draw).
        moves: The moves, one letter each.
    """

    index: int
    first_player: int
    start_seed: int
    winner: int | None
    moves: str


def game_key(setup: Setup, index: int) -> Key:
    """The key of game ``index``."""
    return fold_in(key(setup.seed), index)


def make_game(setup: Setup, index: int) -> Tron:
    """The game ``index`` of the series: first player ``index % 2``, its own start seed."""
    start_key, _ = split(game_key(setup, index))
    start_seed = bits(start_key) >> 1 if setup.start == "mirror" else 0
    return Tron(setup.map, setup.rules, setup.start, index % 2, start_seed)  # type: ignore[arg-type]


@memo(size=256, why="one entry per bot spec, weights and clock; a weight search makes many")
def bot_agent(spec: str, weights: tuple[float, ...] | None, clock: Clock | None = None) -> Any:
    """The agent of a bot spec, with ``weights`` for its ``eval=linear`` (None: the shipped ones)
    and ``clock`` for a ``seconds`` budget (None: none attached).

    Cached: a series asks for the same two bots in every game, and agents are immutable values.

    Raises:
        SpecError: for an unknown or malformed spec.
    """
    made = agent(spec)
    if clock is not None:
        made = with_clock(made, clock)
    return made if weights is None else with_linear_weights(made, weights)


def play_game(setup: Setup, index: int) -> tuple[Tron, Episode]:
    """Play game ``index`` of the series; return the game and its episode."""
    game = make_game(setup, index)
    agents = (
        bot_agent(setup.bots[0], setup.weights, setup._clock),
        bot_agent(setup.bots[1], setup.weights, setup._clock),
    )
    tables = (agents[0].initial_table(game, 0), agents[1].initial_table(game, 1))
    _, play_key = split(game_key(setup, index))
    return game, play(game, agents, tables, play_key)


def result_of(game: Tron, index: int, episode: Episode) -> GameResult:
    """The compact record of a finished game."""
    r = episode.returns[0]
    winner = 0 if r > 0 else 1 if r < 0 else None
    moves = "".join(MOVE_NAMES[m] for m in episode.moves)
    return GameResult(index, game.first_player, game.start_seed, winner, moves)


def run_game(setup: Setup, index: int) -> GameResult:
    """Play game ``index`` and return its record (the unit of work of a parallel series)."""
    game, ep = play_game(setup, index)
    return result_of(game, index, ep)


def game_task(task: tuple[Setup, int]) -> GameResult:
    """``run_game`` on one ``(setup, index)`` value: the unit of work sent to an executor."""
    return run_game(*task)


def positions_task(task: tuple[Setup, int, int]) -> list[dict[str, Any]]:
    """``positions`` on one ``(setup, index, every)`` value: the unit of work of a data set."""
    return positions(*task)


def positions(setup: Setup, index: int, every: int = 1) -> list[dict[str, Any]]:
    """The positions of game ``index`` as data-set records: features and the final outcome.

    Args:
        setup: The series.
        index: The game.
        every: Keep every ``every``-th position (1 = all non-terminal positions).

    Returns:
        One JSON-ready dict per kept position: ``game`` (``index``), ``ply``, ``position`` (the
        encoded state), ``features`` (name -> value, player 0's side) and ``outcome`` (+1, 0, -1
        for player 0).
    """
    game, ep = play_game(setup, index)
    outcome = ep.outcome(0)
    out = []
    for ply, s in enumerate(ep.states[:-1]):
        if ply % every:
            continue
        x = features(game, s)
        out.append(
            {
                "game": index,
                "ply": ply,
                "position": game.encode(s),
                "features": dict(zip(FEATURES, x, strict=True)),
                "features_version": FEATURES_VERSION,
                "outcome": outcome,
            }
        )
    return out


@frozen
class Fit:
    """A least-squares fit of the linear evaluation.

    Attributes:
        weights: Bias first (0: the model is antisymmetric), then one weight per ``TERMS`` name.
        train: Positions used to fit.
        test: Held-out positions.
        train_mse: Mean squared error on the training positions (targets are +1/0/-1).
        test_mse: Mean squared error on the held-out positions.
        test_accuracy: How often the sign of the prediction matches a decided outcome, held out.
        baseline_mse: Held-out error of predicting 0 (the antisymmetric model's "no idea").
    """

    weights: tuple[float, ...]
    train: int
    test: int
    train_mse: float
    test_mse: float
    test_accuracy: float
    baseline_mse: float

    def as_dict(self) -> dict[str, Any]:
        """The statistics as JSON-ready data."""
        return {
            "train_positions": self.train,
            "test_positions": self.test,
            "train_mse": self.train_mse,
            "test_mse": self.test_mse,
            "test_accuracy": self.test_accuracy,
            "baseline_mse": self.baseline_mse,
        }


def fit_linear(
    records: Sequence[dict[str, Any]],
    test_fraction: float = 0.2,
    seed: int = 0,
    connected_only: bool = True,
    use: Sequence[str] | None = None,
) -> Fit:
    """Fit outcome ≈ Σ wᵢ·termᵢ by least squares, holding out whole games.

    Every position also enters with the players' roles swapped (terms and outcome negated), so
    the fit cannot learn which seat the stronger bot of a pairing sat in, and the bias is 0.
    Games (not positions) are split, so positions of one game never sit on both sides. Separated
    positions are left out by default: the linear evaluation only scores connected positions
    (separated ones go to the exact fill endgame). ``use`` names the terms to fit (default: all);
    the others get weight 0.

    Raises:
        ValueError: if there are too few positions on either side of the split, or an unknown
            term is named.
    """
    import numpy as np

    split_key = key(seed)
    xs: list[tuple[float, ...]] = []
    ys: list[float] = []
    held: list[bool] = []
    for rec in records:
        f = rec["features"]
        if connected_only and f["separated"]:
            continue
        xs.append(terms(tuple(float(f[name]) for name in FEATURES)))
        ys.append(float(rec["outcome"]))
        game_id = hash_game(rec)
        held.append(bits(fold_in(split_key, game_id)) / 2.0**64 < test_fraction)
    names = list(TERMS) if use is None else list(use)
    unknown = [n for n in names if n not in TERMS]
    if unknown or not names:
        raise ValueError(f"unknown terms {unknown} (terms: {', '.join(TERMS)})")
    cols = [TERMS.index(n) for n in names]
    x = np.array(xs, dtype=float).reshape(-1, len(TERMS))[:, cols]
    y = np.array(ys, dtype=float)
    mask = np.array(held, dtype=bool)
    if (~mask).sum() < len(cols) or mask.sum() < 1:
        raise ValueError(
            f"too few positions to fit and test ({int((~mask).sum())} to fit, "
            f"{int(mask.sum())} held out): play more games"
        )
    train_x = np.vstack([x[~mask], -x[~mask]])
    train_y = np.concatenate([y[~mask], -y[~mask]])
    w, *_ = np.linalg.lstsq(train_x, train_y, rcond=None)
    pred_train = x[~mask] @ w
    pred_test = x[mask] @ w
    decided = y[mask] != 0
    acc = float(np.mean(np.sign(pred_test[decided]) == y[mask][decided])) if decided.any() else 0.0
    weights = [0.0] * len(TERMS)
    for c, v in zip(cols, w, strict=True):
        weights[c] = float(v)
    return Fit(
        (0.0, *weights),
        int((~mask).sum()),
        int(mask.sum()),
        float(np.mean((pred_train - y[~mask]) ** 2)),
        float(np.mean((pred_test - y[mask]) ** 2)),
        acc,
        float(np.mean(y[mask] ** 2)),
    )


def hash_game(record: dict[str, Any]) -> int:
    """A stable number for the game a record comes from (its series and index)."""
    text = f"{record.get('series', '')}#{record['game']}"
    h = 1469598103934665603
    for ch in text.encode():
        h = ((h ^ ch) * 1099511628211) & ((1 << 64) - 1)
    return h
