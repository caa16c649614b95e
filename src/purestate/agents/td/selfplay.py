"""Self-play on one shared table: the generic fold, and the fused loop any TD learner may use.

``fold_selfplay`` is the fold itself (one ``play`` and two ``learn`` calls a game).
``update_selfplay`` runs a learner's own ``update`` on a local dict of rows instead of one
persistent map per move (SARSA(λ)'s loop); Q-learning's own loop, which goes further, lives with
Q-learning (``qlearning.qlearning_selfplay``). A learner picks its loop by overriding
``TabularLearner.selfplay_loop``. The loops select moves with ``policy.epsilon_greedy``, exactly as
``act`` does, so the result is the very same table (tested).

This module knows the learners only through the small protocols below, so it imports none of
them.
"""

from __future__ import annotations

from typing import Any, Protocol

from pyrsistent import pmap

from purestate.agents.td.policy import epsilon_greedy, explore_threshold
from purestate.agents.td.tables import COUNT_LIMIT, EMPTY, QTable, Representation, Work
from purestate.core.agent import Agent
from purestate.core.episode import Episode, play
from purestate.core.game import Game
from purestate.core.keys import Key, fold_bits, fold_in

POSITION_CACHE_LIMIT = 1 << 20
"""Positions the fused loops remember before they start afresh (memory on big boards)."""


class Updates(Protocol):
    """What ``update_selfplay`` needs of a learner (``TDLearner`` has it)."""

    def representation(self, game: Game[Any, Any]) -> Representation:
        """How the learner's table represents ``game``'s positions."""
        ...

    def epsilon_at(self, episodes: int) -> float:
        """The exploration rate after ``episodes`` training games."""
        ...

    def update(self, game: Game[Any, Any], work: Work, ep: Episode, seat: int) -> None:
        """Change ``work``'s rows by what ``seat`` learns from ``ep``."""
        ...


def fold_selfplay(
    agent: Agent,
    game: Game[Any, Any],
    table: QTable,
    key: Key,
    games: int,
    start: int,
    played: list[Episode] | None,
) -> QTable:
    """The self-play fold as ``train`` computes it: play a game, learn it from both seats."""
    t = table
    for i in range(start, start + games):
        ep = play(game, (agent, agent), (t, t), fold_in(key, i))
        t = agent.learn(game, agent.learn(game, t, ep, 0), ep, 1)
        if played is not None:
            played.append(ep)
    return t


def update_selfplay(
    agent: Updates,
    game: Game[Any, Any],
    table: QTable,
    key: Key,
    games: int,
    start: int,
    played: list[Episode] | None,
) -> QTable:
    """Self-play for a learner with ``update`` (``Updates``): its rule on rows kept as lists for
    the whole run."""
    if games <= 0:
        return table
    representation = agent.representation(game)
    seen: dict[Any, tuple[Any, int]] = {}

    def represent(state: Any) -> tuple[Any, int]:
        # one object per table position, so the row look-ups below hit on identity
        found = seen.get(state)
        if found is None:
            found = representation.of(state)
            if len(seen) < POSITION_CACHE_LIMIT:
                found = (interned.setdefault(found[0], found[0]), found[1])
                seen[state] = found
        return found

    interned: dict[Any, Any] = {}
    work = Work(EMPTY, representation, game, represent)
    rows = work.rows
    for position, values in table.q.items():
        rows[position] = list(values)
        interned[position] = position
    g0, g1 = table.games
    legal, step, is_over, to_move = game.legal, game.step, game.is_over, game.to_move
    transform_move, inverse = game.transform_move, game.inverse
    for i in range(start, start + games):
        gkey = fold_in(key, i)
        threshold = explore_threshold(agent.epsilon_at(max(g0, g1)))
        s = game.initial()
        states = [s]
        moves: list[Any] = []
        movers: list[int] = []
        ply = 0
        while not is_over(s):
            options = legal(s)
            rep, g = represent(s)
            j, greedy = epsilon_greedy(fold_bits(gkey, ply), threshold, len(options), rows.get(rep))
            if greedy:
                m = legal(rep)[j]
                if g:
                    m = transform_move(m, inverse(g))
            else:
                m = options[j]
            movers.append(to_move(s))
            s = step(s, m)
            moves.append(m)
            states.append(s)
            ply += 1
        ep = Episode(tuple(states), tuple(moves), tuple(movers), game.returns(s))
        if played is not None:
            played.append(ep)
        if moves:
            agent.update(game, work, ep, 0)
            agent.update(game, work, ep, 1)
            g0 += 1
            g1 += 1
    games_ = (min(g0, COUNT_LIMIT), min(g1, COUNT_LIMIT))
    return QTable(pmap({k: tuple(v) for k, v in rows.items()}), table.visits, games_)
