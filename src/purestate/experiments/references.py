"""A learner's curve against fixed references: at points of a training run, its greedy policy
plays a few games against agents that do not learn (``random``, ``mcts`` at fixed simulations,
``perfect`` where the game is solved), seats alternating.

Pure: a point is a function of the game, the learner, its table, the references, the games per
reference and the run's key, so a resumed run computes the same points an uninterrupted one did.
The shell decides when to take a point and writes the file (``references.json``) and its picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from purestate.core.agent import Agent, greedy_agent
from purestate.core.episode import play
from purestate.core.game import Game
from purestate.core.keys import Key, fold_in
from purestate.core.learning import wilson
from purestate.solve import require_solvable
from purestate.solve.bounds import TooLarge

REFERENCES = 0x5EF
"""The fold of the run's key under which the reference games are drawn: the point after game
``g`` uses ``fold_in(fold_in(key, REFERENCES), g)``, reference ``r`` a fold of that, its game
``i`` a fold of that."""

FIXED = ("random", "mcts:simulations=100")
"""The references every game gets by default; ``perfect`` joins them where the game is solved."""


def default_references(game: Game[Any, Any]) -> tuple[str, ...]:
    """``random`` and ``mcts:simulations=100``, and ``perfect`` when the exact solver covers
    ``game`` (``purestate.solve.require_solvable``)."""
    try:
        require_solvable(game, "perfect")
    except TooLarge:
        return FIXED
    return (*FIXED, "perfect")


def reference_point(
    game: Game[Any, Any],
    learner: Agent,
    table: Any,
    references: Sequence[tuple[str, Agent]],
    games: int,
    key: Key,
    played: int,
) -> dict[str, Any]:
    """The learner's standing against each reference after ``played`` games of training.

    The learner plays greedily (``core.agent.greedy_agent``) from ``table``; game ``i`` against
    a reference has the learner in seat ``i % 2``. Nobody learns.

    Args:
        game: The game.
        learner: The learning agent.
        table: Its table after ``played`` games.
        references: (spec, agent) of each reference, in the order the point lists them.
        games: Games against each reference.
        key: The run's key.
        played: The training games played so far (the point's place on the curve).

    Returns:
        ``{"games": played, "references": [...]}``, one entry per reference: its spec, the
        games, the learner's wins, draws and losses, its score ((wins + draws / 2) / games) and
        the score's 95% Wilson interval.
    """
    subject = greedy_agent(learner)
    k = fold_in(fold_in(key, REFERENCES), played)
    rows = []
    for r, (spec, ref) in enumerate(references):
        kr = fold_in(k, r)
        tally = [0, 0, 0]  # wins, draws, losses
        for i in range(games):
            seat = i % 2
            agents = (subject, ref) if seat == 0 else (ref, subject)
            mine, theirs = table, ref.initial_table(game, 1 - seat)
            tables = (mine, theirs) if seat == 0 else (theirs, mine)
            outcome = play(game, agents, tables, fold_in(kr, i)).outcome(seat)
            tally[1 - outcome] += 1
        wins, draws, losses = tally
        score = wins + draws / 2
        low, high = wilson(score, games)
        rows.append({"reference": spec, "games": games, "wins": wins, "draws": draws,
                     "losses": losses, "score": score / games, "low": low,
                     "high": high})  # fmt: skip
    return {"games": played, "references": rows}
