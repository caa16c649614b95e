"""TD learners: learn never changes its input, same key same move, tables survive JSON."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pyrsistent import PMap

import purestate
from purestate.core.episode import play
from purestate.core.keys import Key, fold_in

from .strategies import keys

SPECS = ["qlearning", "sarsa", "qlearning:bootstrap=own", "sarsa:traces=accumulating,lam=1",
         "qlearning:preset=seed", "qlearning:symmetric=false,rewards=end"]  # fmt: skip
GAMES = [purestate.make("tictactoe"), purestate.make("dots_and_boxes"),
         purestate.make("dots_and_boxes", rows=1, cols=2, margin=False)]  # fmt: skip


# each example trains for up to 6 games: a sixth of the profile's examples (25 under ci)
LEARNING = settings(max_examples=max(1, settings().max_examples // 6))


def _trained(game: Any, agent: Any, k: Key, n: int) -> Any:
    t = agent.initial_table(game, 0)
    for i in range(n):
        ep = play(game, (agent, agent), (t, t), fold_in(k, i))
        t = agent.learn(game, t, ep, 0)
        t = agent.learn(game, t, ep, 1)
    return t


@LEARNING
@given(st.sampled_from(SPECS), st.sampled_from(GAMES), keys(), st.integers(0, 6))
def test_learn_returns_a_new_table_and_leaves_the_old_one(
    spec: str, game: Any, k: Key, n: int
) -> None:
    agent = purestate.agent(spec)
    before = _trained(game, agent, k, n)
    # persistent maps of tuples: no learner can change the table it was given
    assert isinstance(before.q, PMap) and isinstance(before.visits, PMap)
    assert all(isinstance(v, tuple) for v in before.q.values())
    ep = play(game, (agent, agent), (before, before), fold_in(k, 999))
    after = agent.learn(game, before, ep, 0)
    assert after.games == (before.games[0] + 1, before.games[1])


@LEARNING
@given(st.sampled_from(SPECS), st.sampled_from(GAMES), keys())
def test_same_key_same_move_and_json_round_trip(spec: str, game: Any, k: Key) -> None:
    agent = purestate.agent(spec)
    table = _trained(game, agent, k, 4)
    s = game.initial()
    assert agent.act(game, table, s, k) == agent.act(game, table, s, k)
    data = json.loads(json.dumps(agent.table_to_json(game, table)))
    back = agent.table_from_json(game, data)
    assert back == table
    assert agent.greedy(game, back, s) == agent.greedy(game, table, s)
