"""MENACE invariants: beads never negative, learn is pure, act is a function of its key."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from pyrsistent import PMap

import purestate
from purestate.agents.menace import Menace, MenaceTable
from purestate.core.keys import Key, fold_in

from .strategies import keys

GAME = purestate.make("tictactoe")
SPECS = st.sampled_from(
    [
        "menace",
        "menace:preset=scroggs",
        "menace:empty=floor",
        "menace:empty=refill,incentives=1/0/-3",
        "menace:include_forced=true,incentives=3/1/-4",
    ]
)
OPPONENTS = st.sampled_from(["random", "menace"])


def _train(spec: str, opponent: str, k: Key, games: int) -> tuple[Menace, list[MenaceTable]]:
    m = purestate.agent(spec)
    assert isinstance(m, Menace)
    opp = purestate.agent(opponent)
    tables = (m.initial_table(GAME, 0), opp.initial_table(GAME, 1))
    out = [tables[0]]
    for i in range(games):
        ep = purestate.play(GAME, (m, opp), tables, fold_in(k, i))
        new = m.learn(GAME, tables[0], ep, 0)
        out.append(new)
        tables = (new, tables[1])
    return m, out


@given(SPECS, OPPONENTS, keys(), st.integers(1, 40))
def test_beads_never_negative(spec: str, opponent: str, k: Key, games: int) -> None:
    m, history = _train(spec, opponent, k, games)
    floor = 1 if m.empty == "floor" else 0
    for t in history:
        assert all(n >= floor for box in t.boxes.values() for n in box.values())
        assert len(t.boxes) == len(history[0].boxes)


@given(SPECS, keys(), st.integers(0, 30))
def test_learn_leaves_the_old_table_unchanged(spec: str, k: Key, games: int) -> None:
    m, history = _train(spec, "random", k, games)
    rnd = purestate.agent("random")
    old = history[-1]
    # the boxes are persistent maps all the way down, so no learner can change the old table
    assert isinstance(old.boxes, PMap)
    assert all(isinstance(box, PMap) for box in old.boxes.values())
    ep = purestate.play(GAME, (m, rnd), (old, None), k)
    new = m.learn(GAME, old, ep, 0)
    if ep.moves and ep.resigned is None:
        assert new != old or m.incentives[1 - ep.outcome(0)] == 0


@given(SPECS, keys())
def test_same_key_same_episode(spec: str, k: Key) -> None:
    m = purestate.agent(spec)
    rnd = purestate.agent("random")
    t = m.initial_table(GAME, 0)
    assert purestate.play(GAME, (m, rnd), (t, None), k) == purestate.play(
        GAME, (m, rnd), (t, None), k
    )


@given(SPECS)
def test_spec_round_trip(spec: str) -> None:
    m = purestate.agent(spec)
    assert purestate.agent(m.spec) == m
