"""The optional hooks of agents (declared in core/agent.py), looked up in one place
(core/hooks.py): each agent that has one keeps its contract, and an agent refuses a game its
injected evaluation or move scores are not made for in one line, in the library and the CLI."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import purestate
from purestate.agents.alphabeta import AlphaBeta
from purestate.agents.mcts import MCTS
from purestate.cli import app
from purestate.core import hooks, registry
from purestate.core.agent import Decision, Greedy, check_game
from purestate.core.episode import play
from purestate.core.keys import fold_in, key
from purestate.core.learning import train
from purestate.core.spec import SpecError

SRC = Path(__file__).resolve().parents[1] / "src" / "purestate"
TTT = purestate.make("tictactoe")


def _trained(spec: str, seat: int, games: int = 60) -> tuple[Any, Any]:
    """A learner and its table after ``games`` games against random play from ``seat``."""
    learner, rnd = purestate.agent(spec), purestate.agent("random")
    agents = (learner, rnd) if seat == 0 else (rnd, learner)
    tables = (
        (learner.initial_table(TTT, 0), None)
        if seat == 0
        else (None, learner.initial_table(TTT, 1))
    )
    last = None
    for step in train(TTT, agents, tables, key(3)):
        last = step
        if step.index + 1 >= games:
            break
    assert last is not None
    return learner, last.tables[seat]


# -- greedy, supports_seat, positions ----------------------------------------------------------


@pytest.mark.parametrize("spec", ["menace", "qlearning", "sarsa"])
def test_greedy_is_deterministic_and_legal(spec: str) -> None:
    learner, table = _trained(spec, 0)
    greedy = hooks.greedy_of(learner)
    assert greedy is not None
    ep = play(TTT, (purestate.agent("random"), purestate.agent("random")), (None, None), key(5))
    for s in ep.states[:-1]:
        if TTT.to_move(s) != 0:
            continue
        move = greedy(TTT, table, s)
        assert move is None or move in TTT.legal(s)
        assert greedy(TTT, table, s) == move
        # without greedy_decision, Greedy plays greedy's move and keeps the table
        assert Greedy(learner).act(TTT, table, s, key(0)) == Decision(move)


def test_a_table_without_its_tree_plays_on_and_holds_no_tree() -> None:
    from purestate.agents.mcts import Tree

    ultimate = purestate.make("ultimate_tictactoe")
    found = []
    for spec in purestate.agents():
        if spec.startswith("openspiel"):
            continue
        bot = purestate.agent(spec)
        forget = hooks.without_tree_of(bot)
        if forget is None:
            continue
        found.append(spec)
        small = purestate.agent(f"{spec}:simulations=30")
        table = small.initial_table(ultimate, 0)
        decision = small.act(ultimate, table, ultimate.initial(), key(1))
        assert decision.table is not None  # it carries a tree to its next move
        kept = forget(decision.table)
        tree = kept.tree if hasattr(kept, "tree") else kept
        assert tree is None or (isinstance(tree, Tree) and tree.root is None), spec
        state = ultimate.step(ultimate.initial(), decision.move)
        state = ultimate.step(state, ultimate.legal(state)[0])
        assert small.act(ultimate, kept, state, key(2)).move in ultimate.legal(state)
    assert {"mcts", "xtreme2019"} <= set(found)
    assert hooks.without_tree_of(purestate.agent("tron_wall")) is None  # its table is its side
    # Greedy passes the learner's on, or keeps the table
    menace = purestate.agent("menace")
    table = menace.initial_table(TTT, 0)
    assert Greedy(menace).without_tree(table) is table


def test_supports_seat_accepts_the_seat_a_table_was_made_for() -> None:
    for spec in purestate.agents():
        if spec.startswith("openspiel"):
            continue
        agent = purestate.agent(spec)
        for seat in (0, 1):
            try:
                table = agent.initial_table(TTT, seat)
            except SpecError:
                continue  # a Tron bot: refuses tic-tac-toe
            assert hooks.supports_seat(agent, table, seat), (spec, seat)
    menace = purestate.agent("menace")
    assert not hooks.supports_seat(menace, menace.initial_table(TTT, 0), 1)
    # an agent without the hook plays any table from either seat
    assert hooks.supports_seat(purestate.agent("random"), None, 1)


def test_positions_are_positions_of_the_game() -> None:
    learner, table = _trained("qlearning", 0)
    positions = hooks.positions_of(learner)
    assert positions is not None
    for s in positions(TTT, table):
        TTT.legal(s)  # a position of the game: the rules accept it


def test_selfplay_tables_is_declared_or_shared() -> None:
    assert hooks.selfplay_tables(purestate.agent("menace")) == "separate"
    assert hooks.selfplay_tables(purestate.agent("qlearning")) == "shared"
    assert hooks.SELFPLAY_TABLES == ("shared", "separate", "only")

    class Odd:
        selfplay_tables = "both"

    with pytest.raises(ValueError, match="selfplay_tables"):
        hooks.selfplay_tables(Odd())


def test_lookups_answer_none_for_what_is_not_a_hook() -> None:
    class Plain:
        playout = 3  # an attribute of that name, not a method
        num_move_ids = "9"

    assert hooks.playout_of(Plain()) is None
    assert hooks.num_move_ids_of(Plain()) is None
    assert hooks.greedy_of(purestate.agent("random")) is None
    assert hooks.greedy_decision_of(purestate.agent("menace")) is None
    assert hooks.check_game_of(purestate.agent("random")) is None

    class HalfArrays:  # a format, but no table_from_arrays: not an array table
        table_format = "x/1"

        def table_to_arrays(self) -> None: ...

    assert hooks.array_table_of(HalfArrays()) is None
    assert hooks.array_table_of(purestate.agent("menace")) is None  # a JSON table

    class Playing:
        playing = None  # not a method: the whole table is sent

    table = {"boxes": 1}
    assert hooks.playing_table(Playing(), table) is table
    assert hooks.playing_table(purestate.agent("menace"), table) is table


# -- check_game: evaluations and move scores made for other games -------------------------------


def test_every_registered_evaluation_and_move_scores_name_their_games() -> None:
    # declared beside each function (core.game.made_for), naming registered games only
    known = set(purestate.games())
    for name in registry.evaluations():
        made_for = registry.evaluation_games(name)
        assert made_for and set(made_for) <= known, name
    for name in registry.move_scorers():
        made_for = registry.move_score_games(name)
        assert made_for and set(made_for) <= known, name


@pytest.mark.parametrize("name", registry.evaluations())
def test_alphabeta_plays_exactly_the_games_its_evaluation_is_made_for(name: str) -> None:
    agent = AlphaBeta(depth=1, eval=name)
    made_for = registry.evaluation_games(name)
    assert made_for is not None
    for game_name in purestate.games():
        game = purestate.make(game_name)
        if game_name in made_for:
            check_game(agent, game)
            v = agent.evaluation()(game, game.initial())
            assert -1.0 < v < 1.0
        else:
            with pytest.raises(SpecError, match=f"made for .*not {game_name}") as refused:
                check_game(agent, game)
            assert "\n" not in str(refused.value)
            with pytest.raises(SpecError):
                agent.initial_table(game, 0)


@pytest.mark.parametrize("name", registry.move_scorers())
def test_mcts_refuses_games_its_move_scores_are_not_made_for(name: str) -> None:
    heavy = MCTS(simulations=10, playout="heavy", scores=name)
    made_for = registry.move_score_games(name)
    assert made_for is not None
    for game_name in purestate.games():
        game = purestate.make(game_name)
        if game_name in made_for:
            heavy.check_game(game)
        else:
            with pytest.raises(SpecError, match="made for"):
                heavy.initial_table(game, 0)
    # unused scores (random playouts, no bias) refuse nothing
    MCTS(simulations=10, scores=name).check_game(TTT)


def test_the_library_refuses_an_evaluation_for_another_game_in_one_line() -> None:
    bot = purestate.agent("alphabeta:eval=voronoi")
    rnd = purestate.agent("random")
    # without initial_table (tables given as None): act refuses before searching
    with pytest.raises(SpecError, match="evaluation 'voronoi' is made for tron, not tictactoe"):
        play(TTT, (bot, rnd), (None, None), key(0))
    with pytest.raises(SpecError, match="made for tron"):
        bot.act(TTT, None, TTT.initial(), fold_in(key(0), 0))
    with pytest.raises(SpecError, match="made for tron"):
        check_game(Greedy(bot), TTT)


@pytest.mark.parametrize("name", registry.move_scorers())
def test_xtreme2019_refuses_games_its_move_scores_are_not_made_for(name: str) -> None:
    bot = purestate.agent(f"xtreme2019:scores={name},simulations=10")
    made_for = registry.move_score_games(name)
    assert made_for is not None
    for game_name in purestate.games():
        game = purestate.make(game_name)
        if game_name in made_for:
            bot.check_game(game)
        else:
            with pytest.raises(SpecError, match="made for"):
                bot.initial_table(game, 0)
            with pytest.raises(SpecError, match="made for"):
                bot.act(game, None, game.initial(), key(0))


@pytest.mark.parametrize(
    "opponent",
    [
        "alphabeta:eval=voronoi",
        "alphabeta:eval=uttt",
        "mcts:playout=heavy,scores=uttt",
        "xtreme2019:scores=uttt",
    ],
)
@pytest.mark.parametrize("seat", ["first", "second"])
def test_purestate_play_refuses_an_opponent_made_for_another_game(opponent: str, seat: str) -> None:
    result = CliRunner().invoke(
        app, ["play", "tictactoe", "--opponent", opponent, "--seat", seat], input="4\n0\n8\n2\n6\n"
    )
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "made for" in errors[0] and "tictactoe" in errors[0]


# -- one place ----------------------------------------------------------------------------------

_HOOKS = (
    "playout",
    "score",
    "unscored",
    "observation",
    "num_move_ids",
    "render_labels",
    "planes",
    "plane_shape",
    "plane_lines",
    "draw",
    "coloured_board",
    "made_for",
    "check_game",
    "greedy",
    "greedy_decision",
    "without_tree",
    "supports_seat",
    "selfplay_tables",
    "selfplay_games",
    "train_games",
    "positions",
    "from_params",
    "solver_size",
    "cache_name",
    "to_array",
    "table_to_arrays",
    "table_from_arrays",
)


def test_hooks_are_looked_up_only_in_core_hooks() -> None:
    asked = re.compile(
        r"""(?:getattr|hasattr)\([^()]*?,\s*["'](""" + "|".join(_HOOKS) + r""")["']"""
    )
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel == "core/hooks.py":
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if asked.search(line):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert found == []
