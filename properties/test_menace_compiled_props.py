"""MENACE's loops on arrays against the reference: the same games and tables, bit for bit.

``Menace.train_games`` plays a tabulated opponent (``rules``, ``random``) on the game's arrays,
through numba's kernel (``agents/kernels/menace.py``) or its Python twin; ``reference_train_games``
(``_TrainingLoop``) is the loop they are held to. Seeded runs of several configurations, seats,
opponents and stretches (including refusals, refills and floors) must give equal episodes and
equal tables on all three. Without numba the compiled side is skipped and the twin still runs.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import purestate
from purestate.agents.menace import Menace, MenaceTable, reference_train_games
from purestate.agents.menace_compiled import array_train_games, game_graph
from purestate.core import compiled
from purestate.core.agent import ListDraw
from purestate.core.keys import Key, bits, choice

from .strategies import keys

GAME = purestate.make("tictactoe")
SPECS = st.sampled_from(
    [
        "menace",
        "menace:preset=scroggs",
        "menace:preset=tuned",
        "menace:empty=floor",
        "menace:empty=refill,incentives=1/0/-3",
        "menace:include_forced=true,incentives=3/1/-4",
        "menace:incentives=1/0/-3",
        "menace:beads=1,incentives=2/0/-2",
    ]
)
OPPONENTS = st.sampled_from(
    ["random", "rules", "rules:p=0.3", "rules:p=1.0", "rules:tiebreak=first,opening=corner"]
)
LOOPS = ["python", "compiled"]


def _setup(spec: str, opponent: str, seat: int) -> tuple[Menace, purestate.Agent, MenaceTable]:
    m = purestate.agent(spec)
    assert isinstance(m, Menace)
    return m, purestate.agent(opponent), m.initial_table(GAME, seat)


@pytest.mark.parametrize("loop", LOOPS)
@settings(max_examples=25, deadline=None)
@given(SPECS, OPPONENTS, st.integers(0, 1), keys(), st.integers(0, 300), st.integers(0, 10**6))
def test_arrays_play_the_reference_games(
    loop: str, spec: str, opponent: str, seat: int, k: Key, games: int, start: int
) -> None:
    if loop == "compiled" and compiled.kernels("menace", compiled.AGENT_KERNELS) is None:
        pytest.skip("numba is not installed (or NUMBA_DISABLE_JIT is set): no compiled side")
    m, opp, table = _setup(spec, opponent, seat)
    fast = array_train_games(m, GAME, table, seat, opp, k, games, start, loop)  # type: ignore[arg-type]
    assert fast is not None
    want_table, want_episodes = reference_train_games(m, GAME, table, seat, opp, None, k, games,
                                                      start)  # fmt: skip
    assert fast[1] == want_episodes
    assert fast[0] == want_table
    # the order of each box's moves is the order draws read: kept as the reference keeps it
    assert [tuple(b) for b in fast[0].boxes.values()] == [
        tuple(b) for b in want_table.boxes.values()
    ]


@pytest.mark.parametrize("loop", LOOPS)
@settings(max_examples=10, deadline=None)
@given(SPECS, OPPONENTS, keys(), st.lists(st.integers(1, 200), min_size=2, max_size=4))
def test_stretches_continue_as_one_call(
    loop: str, spec: str, opponent: str, k: Key, cuts: list[int]
) -> None:
    """Games played in stretches, each from the last's table, are those of one call."""
    if loop == "compiled" and compiled.kernels("menace", compiled.AGENT_KERNELS) is None:
        pytest.skip("numba is not installed (or NUMBA_DISABLE_JIT is set): no compiled side")
    m, opp, table = _setup(spec, opponent, 0)
    whole = reference_train_games(m, GAME, table, 0, opp, None, k, sum(cuts))
    played: list[purestate.Episode] = []
    at = 0
    for n in cuts:
        fast = array_train_games(m, GAME, table, 0, opp, k, n, at, loop)  # type: ignore[arg-type]
        assert fast is not None
        table, episodes = fast
        played += episodes
        at += n
        if len(episodes) < n:
            break  # refused
    assert tuple(played) == whole[1]
    assert table == whole[0]


def test_train_games_chooses_the_arrays_against_tabulated_opponents() -> None:
    """``train_games`` takes the arrays where they apply and the reference where they do not
    (an opponent without ``list_draw``); the results are the reference's either way."""
    m, rules, table = _setup("menace", "rules", 0)
    assert array_train_games(m, GAME, table, 0, rules, Key(7), 50, 0) is not None
    perfect = purestate.agent("perfect")
    assert array_train_games(m, GAME, table, 0, perfect, Key(7), 50, 0) is None
    for opp in (rules, perfect):
        got = m.train_games(GAME, table, 0, opp, None, Key(7), 50)
        assert got == reference_train_games(m, GAME, table, 0, opp, None, Key(7), 50)


def _listed_move(drawn: ListDraw, k: Key) -> object:
    """The move a ``ListDraw`` promises for key ``k`` (its docstring's definition)."""
    r = bits(k)
    if drawn.kind == "choice":
        return choice(k, drawn.first)
    take = drawn.p >= 1.0 or (r >> 32) < drawn.p * 2**32
    options = drawn.first if take else drawn.second
    return options[((r & 0xFFFFFFFF) * len(options)) >> 32]


@settings(max_examples=30, deadline=None)
@given(OPPONENTS, keys(), st.integers(0, 5477))
def test_list_draw_is_what_act_plays(opponent: str, k: Key, n: int) -> None:
    """For every position (the game's graph, by number) and key, ``act`` plays the move its
    ``list_draw`` says."""
    agent = purestate.agent(opponent)
    graph = game_graph(GAME)
    state = graph.states[n % len(graph.states)]
    if GAME.is_over(state):
        return
    drawn = agent.list_draw(GAME, state)  # type: ignore[attr-defined]
    assert _listed_move(drawn, k) == agent.act(GAME, None, state, k).move
