"""MENACE's fused training loop (``train_games``) against the generic fold it replaces."""

from __future__ import annotations

from itertools import islice
from typing import Any

import pytest
from pyrsistent import pmap

import purestate
from purestate.agents.menace import MenaceTable
from purestate.core.learning import train
from purestate.experiments.selfplay import Selfplay

GAME = purestate.make("tictactoe")


def _fold(spec: str, opponent: str, seat: int, tables: Any, seed: int, games: int) -> list[Any]:
    """The generic fold's steps (only ``seat`` learns), ending after a refused game."""
    run = Selfplay("tictactoe", spec, opponent, seat, seed)
    steps = []
    for s in islice(run.run(GAME, tables, 0), games):
        steps.append(s)
        if s.episode.resigned == seat and seat not in s.episode.movers:
            break
    return steps


def _orders(table: MenaceTable) -> dict[str, list[tuple[Any, int]]]:
    """Each box's moves and beads in iteration order: the order ``act`` draws over."""
    return {k: list(box.items()) for k, box in table.boxes.items()}


@pytest.mark.parametrize(
    ("spec", "opponent", "seat", "seed"),
    [
        ("menace", "rules:p=0.7", 0, 0),
        ("menace", "random", 1, 3),
        ("menace:preset=scroggs", "perfect", 0, 1),
        ("menace:preset=tuned", "rules:p=0.5", 0, 2),
        ("menace:empty=floor,incentives=1/0/-3", "random", 0, 4),
        # refuses within a few dozen games: the perfect rules beat it from the first seat
        ("menace:include_forced=true,preset=scroggs", "rules", 1, 5),
    ],
)
def test_train_games_is_the_fold(spec: str, opponent: str, seat: int, seed: int) -> None:
    run = Selfplay("tictactoe", spec, opponent, seat, seed)
    learner, opp = run.agents()
    tables = run.initial_tables(GAME)
    steps = _fold(spec, opponent, seat, tables, seed, 300)
    table, played = learner.train_games(
        GAME, tables[seat], seat, opp, tables[1 - seat], purestate.key(seed), 300
    )
    assert played == tuple(s.episode for s in steps)
    assert table == steps[-1].tables[seat]
    assert _orders(table) == _orders(steps[-1].tables[seat])
    # from the middle of the run (a refused game may end it early): the fold's tables there
    mid = len(steps) // 2
    table2, played2 = learner.train_games(
        GAME,
        steps[mid - 1].tables[seat],
        seat,
        opp,
        tables[1 - seat],
        purestate.key(seed),
        300 - mid,
        mid,
    )
    assert played2 == played[mid:] and table2 == table


@pytest.mark.parametrize(("spec", "seat"), [("menace", 0), ("menace:preset=tuned", 1)])
def test_stretches_through_the_fused_loop_are_the_fold(spec: str, seat: int) -> None:
    # many short stretches: each goes on from the persistent table the previous one built
    run = Selfplay("tictactoe", spec, "rules:p=0.7", seat, 7)
    assert run.fused
    tables = run.initial_tables(GAME)
    stretches = list(run.stretches(GAME, tables, 0, 400, checkpoint=37))
    assert [s.start for s in stretches][:3] == [0, 37, 74]
    fold = list(islice(run.run(GAME, tables, 0), 400))
    assert tuple(ep for s in stretches for ep in s.episodes) == tuple(s.episode for s in fold)
    assert stretches[-1].tables == fold[-1].tables
    assert _orders(stretches[-1].tables[seat]) == _orders(fold[-1].tables[seat])


def test_a_refused_game_ends_the_fused_stretches() -> None:
    spec = "menace:incentives=3/0/-1"  # against the perfect rules: never a bead gained
    run = Selfplay("tictactoe", spec, "rules", 0, 2)
    t = run.initial_tables(GAME)
    # two beads in the first box: two lost games empty it, and MENACE refuses the next
    first = pmap({m: (2 if m == 4 else 0) for m in t[0].boxes["........."]})
    short = MenaceTable(0, t[0].boxes.set(".........", first))
    fold = _fold(spec, "rules", 0, (short, None), 2, 500)
    assert fold[-1].episode.moves == () and len(fold) < 500
    stretches = list(run.stretches(GAME, (short, None), 0, 500, checkpoint=10))
    assert stretches[-1].refused
    assert tuple(ep for s in stretches for ep in s.episodes) == tuple(s.episode for s in fold)
    assert stretches[-1].tables == fold[-1].tables


def test_only_an_opponent_that_does_not_learn_takes_the_fused_loop() -> None:
    assert Selfplay("tictactoe", "menace", "rules:p=0.7").fused
    assert not Selfplay("tictactoe", "menace", "self").fused
    assert not Selfplay("tictactoe", "menace", "qlearning").fused
    # the fused loop's games are the fold's for a MENACE learning in either seat of train()
    m, rnd = purestate.agent("menace"), purestate.agent("random")
    t = m.initial_table(GAME, 1)
    fold = list(
        islice(train(GAME, (rnd, m), (None, t), purestate.key(9), learning=(False, True)), 40)
    )
    table, played = m.train_games(GAME, t, 1, rnd, None, purestate.key(9), 40)
    assert played == tuple(s.episode for s in fold) and table == fold[-1].tables[1]


class _Watched:
    """Tic-tac-toe with an ``observation`` hook (the whole board: nothing is hidden, but the
    drivers show the view), so the fused loop must leave the game to the fold."""

    def __init__(self) -> None:
        self.looked = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(GAME, name)

    def observation(self, state: Any, player: int) -> Any:
        self.looked += 1
        return state


def test_a_game_with_views_is_played_by_the_fold() -> None:
    m, rnd = purestate.agent("menace"), purestate.agent("random")
    t = m.initial_table(GAME, 0)
    fold = list(islice(train(GAME, (m, rnd), (t, None), purestate.key(4)), 60))
    watched = _Watched()
    table, played = m.train_games(watched, t, 0, rnd, None, purestate.key(4), 60)  # type: ignore[arg-type]
    assert watched.looked > 0
    assert played == tuple(s.episode for s in fold) and table == fold[-1].tables[0]
