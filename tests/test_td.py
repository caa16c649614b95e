"""Q-learning and SARSA(λ): the update rules, two-player correctness, learning, persistence."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from attrs import frozen
from tests.moves import play_moves
from typer.testing import CliRunner

import purestate
from purestate.agents.td import QLearning, QLearningNotebook, QTable, Sarsa
from purestate.cli import app
from purestate.core.episode import Episode, play
from purestate.core.game import GameSpec, IllegalMove
from purestate.core.keys import Key, fold_in, key
from purestate.core.learning import tally, train
from purestate.core.spec import SpecError
from purestate.games.dots_and_boxes import DotsAndBoxes, State
from purestate.io.tables import load_table, save_table
from purestate.solve import solve
from purestate.solve.analysis import analyze_table

# -- a two-step chain: player 0 moves twice, 1 point then 2 points ---------------------------


@frozen
class Chain:
    """States 0 -> 1 -> 2 with one move each; player 0 always moves; score after step 1 is r1,
    the return is r1 + r2."""

    r1: float = 1.0
    r2: float = 2.0

    @property
    def spec(self) -> GameSpec:
        return GameSpec("chain", 2, 2, outcomes=None)

    def initial(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return 0

    def legal(self, state: int) -> tuple[int, ...]:
        return () if state == 2 else (0,)

    def step(self, state: int, move: int) -> int:
        if state == 2 or move != 0:
            raise IllegalMove("no")
        return state + 1

    def is_over(self, state: int) -> bool:
        return state == 2

    def score(self, state: int) -> tuple[float, float]:
        s = self.r1 if state >= 1 else 0.0
        return (s, -s)

    def returns(self, state: int) -> tuple[float, float]:
        t = self.r1 + self.r2 if state == 2 else 0.0
        return (t, -t)

    @property
    def symmetries(self) -> tuple[int, ...]:
        return (0,)

    def canonical(self, state: int) -> tuple[int, int]:
        return state, 0

    def transform_move(self, move: int, sym: int) -> int:
        return move

    def inverse(self, sym: int) -> int:
        return 0

    def encode(self, state: int) -> str:
        return str(state)

    def decode(self, text: str) -> int:
        return int(text)


CHAIN_EPISODE = Episode(states=(0, 1, 2), moves=(0, 0), movers=(0, 0), returns=(3.0, -3.0))


@pytest.mark.parametrize(
    "agent",
    [
        QLearning(alpha=0.5, gamma=0.9, symmetric=False),
        QLearning(alpha=0.5, gamma=0.9, symmetric=False, bootstrap="own"),
        Sarsa(alpha=0.5, gamma=0.9, lam=0.0, symmetric=False),
        Sarsa(alpha=0.5, gamma=0.9, lam=0.5, symmetric=False),
        Sarsa(alpha=0.5, gamma=0.9, lam=1.0, symmetric=False, traces="accumulating"),
        Sarsa(alpha=0.5, gamma=0.9, lam=0.5, symmetric=False, bootstrap="own"),
    ],
    ids=["q-negamax", "q-own", "sarsa0", "sarsa.5", "sarsa1-acc", "sarsa-own"],
)
def test_two_step_chain_values_are_the_discounted_return(agent: Any) -> None:
    # Q(0) = r1 + γ·r2 = 1 + 0.9·2 = 2.8 and Q(1) = r2 = 2. The student project's SARSA bug
    # (δ = r + γ + Q' - Q) would give Q(0) = 1 + 0.9 + 2 = 3.9.
    game = Chain()
    table = agent.initial_table(game, 0)
    for _ in range(200):
        table = agent.learn(game, table, CHAIN_EPISODE, 0)
    assert table.q[1][0] == pytest.approx(2.0)
    assert table.q[0][0] == pytest.approx(2.8)


def test_sarsa_first_update_is_textbook() -> None:
    # one episode from zeros, λ = 0: Q(1) += α(2 - 0) = 1; Q(0) += α(1 + γ·Q(1) - 0) with
    # the Q(1) of before the update (0): 0.5; forward order, so Q(1) is not yet updated.
    agent = Sarsa(alpha=0.5, gamma=0.9, lam=0.0, symmetric=False)
    t = agent.learn(Chain(), agent.initial_table(Chain(), 0), CHAIN_EPISODE, 0)
    assert t.q[0][0] == pytest.approx(0.5)
    assert t.q[1][0] == pytest.approx(1.0)


# -- the same player moving twice -------------------------------------------------------------


def _selfplay(game: Any, agent: Any, games: int, seed: int = 1) -> QTable:
    t0 = agent.initial_table(game, 0)
    steps = train(game, (agent, agent), (t0, t0), key(seed), learning=(True, True), shared=True)
    last = None
    for step in itertools.islice(steps, games):
        last = step
    assert last is not None
    table: QTable = last.tables[0]
    assert table.games == (games, games)
    return table


@pytest.mark.parametrize(
    "spec", ["qlearning", "sarsa", "qlearning:bootstrap=own", "sarsa:bootstrap=own"]
)
def test_1x2_learns_that_only_the_middle_line_holds_the_tie(spec: str) -> None:
    game = DotsAndBoxes(1, 2)
    agent = purestate.agent(spec + (":" if ":" not in spec else ",") + "episodes=1000")
    table = _selfplay(game, agent, 1500)
    vals = agent.move_values(game, table, game.initial())
    assert agent.greedy(game, table, game.initial()) == 5
    for m in (0, 1, 2, 3, 4, 6):
        assert vals[m] < vals[5]
    # negamax Q-learning learns the minimax values themselves (the others learn values against
    # an opponent that still explores)
    if spec == "qlearning":
        assert vals[5] == pytest.approx(0.0, abs=0.1)
        for m in (0, 1, 2, 3, 4, 6):
            assert vals[m] == pytest.approx(-2.0, abs=0.1)


def test_negamax_keeps_the_sign_when_the_mover_moves_again() -> None:
    # 1×1: lines 0..3; after three lines the mover closes the box and the game ends
    game = DotsAndBoxes(1, 1)
    agent = QLearning(alpha=1.0, symmetric=False)
    s3 = play_moves(game, [0, 1, 2])
    ep = Episode(
        states=(
            game.initial(),
            *[play_moves(game, [0, 1, 2][:i]) for i in (1, 2)],
            s3,
            game.step(s3, 3),
        ),
        moves=(0, 1, 2, 3),
        movers=(0, 1, 0, 1),
        returns=(-1.0, 1.0),
    )
    t = agent.initial_table(game, 0)
    t = agent.learn(game, t, ep, 1)
    t = agent.learn(game, t, ep, 0)
    assert agent.move_values(game, t, s3)[3] == 1.0  # the box: +1 for the mover
    s2 = ep.states[2]
    assert agent.move_values(game, t, s2)[2] == -1.0  # hands the box over: the turn passes


def test_default_qlearner_masters_2x2_by_self_play() -> None:
    game = DotsAndBoxes()
    agent = purestate.agent("qlearning")
    table = _selfplay(game, agent, 10_000)
    result = analyze_table(game, agent, table, solve(game))
    assert result.positions == 569  # every canonical drawing but the full board
    assert result.optimal_move_rate >= 0.99
    assert result.vs_solver[0].result == 2.0  # +2 as first player against perfect play
    assert result.vs_solver[1].result == -2.0


def _vs_random(game: Any, agent: Any, table: QTable, seat: int, games: int) -> Any:
    @frozen
    class Greedy:
        learns = False
        spec = "greedy"

        def act(self, game: Any, table: Any, state: Any, key: Key) -> purestate.Decision[Any]:
            return purestate.Decision(agent.greedy(game, table, state))

    players: list[Any] = [purestate.agent("random")] * 2
    players[seat] = Greedy()
    tables: list[Any] = [None, None]
    tables[seat] = table
    return tally(
        play(game, players, tables, fold_in(key(2024), i)).outcome(seat) for i in range(games)
    )


def test_default_qlearner_never_loses_tictactoe_to_random() -> None:
    game = purestate.make("tictactoe")
    agent = purestate.agent("qlearning")
    table = _selfplay(game, agent, 10_000)
    for seat in (0, 1):
        result = _vs_random(game, agent, table, seat, 1000)
        assert result.losses == 0, (seat, result)


@pytest.mark.slow
def test_sarsa_never_loses_tictactoe_to_random() -> None:
    game = purestate.make("tictactoe")
    agent = purestate.agent("sarsa")
    table = _selfplay(game, agent, 20_000)
    for seat in (0, 1):
        assert _vs_random(game, agent, table, seat, 1000).losses == 0


# -- the notebook's learner (qlearning_notebook; these use its old name, qlearning:preset=seed) -


def test_seed_preset_options() -> None:
    # the notebook's learner is its own agent now; ``preset=seed`` is an alias for it
    a = purestate.agent("qlearning:preset=seed")
    assert isinstance(a, QLearningNotebook)
    assert (a.alpha, a.gamma, a.symmetric, a.episodes) == (0.2, 0.8, False, 10_000)
    assert a.spec == "qlearning_notebook"
    assert purestate.agent("qlearning:preset=seed,episodes=500").spec == (
        "qlearning_notebook:episodes=500"
    )
    with pytest.raises(SpecError, match="preset=seed"):
        purestate.agent("qlearning:preset=seed,alpha=0.5")


@pytest.mark.parametrize("old", ["qlearning:preset=seed", "qlearning:preset=notebook"])
def test_notebook_presets_build_qlearning_notebook(old: str) -> None:
    for episodes in ("", ",episodes=500"):
        a = purestate.agent(old + episodes)
        canonical = purestate.agent("qlearning_notebook" + episodes.replace(",", ":"))
        assert a == canonical and a.spec == canonical.spec
        assert purestate.agent(a.spec) == a
    with pytest.raises(SpecError, match="episodes"):
        purestate.agent("qlearning_notebook:alpha=0.5")


def test_seed_preset_rewards_and_update_by_hand() -> None:
    game = DotsAndBoxes(1, 1)
    agent = purestate.agent("qlearning:preset=seed")
    ep = purestate.replay(game, [0, 1, 2, 3])  # player 1 closes the box with line 3
    t = agent.initial_table(game, 0)
    t = agent.learn(game, t, ep, 0)
    t = agent.learn(game, t, ep, 1)

    def q(lines: int, move: int) -> float:
        return float(agent.move_values(game, t, State(lines, 0, 0, 0))[move])

    # player 0's last move gets -100 for the box, overwritten by -200 for the loss
    assert q(0b0011, 2) == pytest.approx(0.2 * -200)
    assert q(0b0000, 0) == pytest.approx(0.0)
    # player 1's capture: +100 overwritten by +200 for the win; the board is then full
    assert q(0b0111, 3) == pytest.approx(0.2 * 200)
    # player 1's first move bootstraps on max Q of the drawing after it, with NO sign flip
    assert q(0b0001, 1) == pytest.approx(0.2 * 0.8 * max(0.0, -40.0))
    assert t.visits[State(0b0011, 0, 0, 0)] == 1


def test_seed_preset_schedule_lives_in_the_table() -> None:
    game = DotsAndBoxes()
    agent = purestate.agent("qlearning:preset=seed,episodes=100")
    s = game.initial()
    fresh = agent.initial_table(game, 0)
    late = QTable(fresh.q, fresh.visits, (80, 80))
    moves = {agent.act(game, fresh, s, key(i)).move for i in range(40)}
    assert len(moves) > 3  # random at first
    assert {agent.act(game, late, s, key(i)).move for i in range(10)} == {0}  # greedy: first max


def test_seed_preset_reproduces_the_seeds_weakness() -> None:
    game = DotsAndBoxes()
    agent = purestate.agent("qlearning:preset=seed")
    table = _selfplay(game, agent, 10_000)
    result = analyze_table(game, agent, table, solve(game))
    assert result.positions == 4095  # keyed by the drawing, no symmetry
    assert result.optimal_move_rate < 0.8  # reference: 67.5%
    assert result.vs_solver[0].result < 2.0  # reference: loses by 2 as first player


# -- policy, purity, persistence --------------------------------------------------------------


def test_act_is_a_function_of_its_inputs() -> None:
    game = purestate.make("tictactoe")
    agent = purestate.agent("qlearning")
    table = _selfplay(game, agent, 50)
    for i in range(20):
        assert agent.act(game, table, game.initial(), key(i)) == agent.act(
            game, table, game.initial(), key(i)
        )


def test_epsilon_schedules() -> None:
    lin = QLearning(epsilon=0.5, epsilon_end=0.1, episodes=100)
    assert lin.epsilon_at(0) == 0.5 and lin.epsilon_at(50) == pytest.approx(0.3)
    assert lin.epsilon_at(100) == pytest.approx(0.1) and lin.epsilon_at(10**6) == pytest.approx(0.1)
    assert QLearning(schedule="constant", epsilon=0.2).epsilon_at(10**6) == 0.2
    with pytest.raises(SpecError):
        purestate.agent("qlearning:alpha=2")
    with pytest.raises(SpecError):
        purestate.agent("sarsa:traces=dutch")


@pytest.mark.parametrize("spec", ["qlearning", "sarsa:symmetric=false", "qlearning:preset=seed"])
def test_table_files_round_trip(tmp_path: Path, spec: str) -> None:
    game = DotsAndBoxes()
    agent = purestate.agent(spec)
    table = _selfplay(game, agent, 200)
    path = tmp_path / "q.json"
    save_table(path, game, agent, table, 0, 200)
    back = load_table(path, game, agent)
    assert back.table == table
    assert back.games == 200
    data = json.loads(path.read_text())
    assert data["format"] == "purestate.qtable/1"
    first = next(iter(back.table.q))
    assert isinstance(first, State)
    row = next(iter(data["q"].values()))
    assert all(k.isdigit() for k in row)


def test_table_file_for_other_options_is_refused(tmp_path: Path) -> None:
    game = DotsAndBoxes()
    agent = purestate.agent("qlearning")
    path = tmp_path / "q.json"
    save_table(path, game, agent, _selfplay(game, agent, 20), 0, 20)
    with pytest.raises(ValueError, match="keyed by"):
        load_table(path, game, purestate.agent("qlearning:symmetric=false"))


def test_analyze_command(tmp_path: Path) -> None:
    game = DotsAndBoxes(1, 2)
    agent = purestate.agent("qlearning")
    path = tmp_path / "q.json"
    save_table(path, game, agent, _selfplay(game, agent, 1500), 0, 1500)
    runner = CliRunner()
    args = ["analyze", "--game", "dots_and_boxes:rows=1", "--agent", "qlearning", "--table"]
    res = runner.invoke(app, [*args, str(path), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["optimal_move_rate"] == 1.0
    assert data["vs_solver"][0]["result"] == 0.0
    res = runner.invoke(app, [*args, str(path)])
    assert res.exit_code == 0 and "optimal" in res.output
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    res = runner.invoke(app, [*args, str(bad)])
    assert res.exit_code == 2
    assert "Traceback" not in res.output
    res = runner.invoke(app, [*args, str(tmp_path / "missing.json")])
    assert res.exit_code == 2


@pytest.mark.parametrize(
    ("spec", "game"),
    [
        ("qlearning", "tictactoe"),
        ("sarsa", "tictactoe"),
        ("qlearning:bootstrap=own,symmetric=false", "dots_and_boxes"),
        ("sarsa:traces=accumulating", "dots_and_boxes:rows=2,cols=3"),
        ("qlearning:preset=seed,episodes=40", "dots_and_boxes"),
    ],
)
def test_fused_selfplay_is_the_same_fold_as_train(spec: str, game: str) -> None:
    g = purestate.make_spec(game)
    agent = purestate.agent(spec)
    slow = _selfplay(g, agent, 60, seed=5)
    fast = agent.selfplay(g, agent.initial_table(g, 0), key(5), 60)
    assert fast == slow
    # resuming: 30 then 30 more is the same as 60
    half = agent.selfplay(g, agent.initial_table(g, 0), key(5), 30)
    assert agent.selfplay(g, half, key(5), 30, start=30) == slow
    # the games it reports are the fold's games
    t0 = agent.initial_table(g, 0)
    steps = train(g, (agent, agent), (t0, t0), key(5), learning=(True, True), shared=True)
    table, played = agent.selfplay_games(g, t0, key(5), 60)
    assert table == slow
    assert played == tuple(step.episode for step in itertools.islice(steps, 60))


@pytest.mark.parametrize(
    ("spec", "game"),
    [
        ("qlearning", "tictactoe"),
        ("qlearning:bootstrap=own,symmetric=false", "dots_and_boxes"),
        ("qlearning:rewards=score", "dots_and_boxes"),
    ],
)
def test_fused_loop_forgetting_its_positions_changes_nothing(
    spec: str, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the fused loop starts its position numbering afresh past a size limit (memory on big
    # boards); with a tiny limit it does so every game, and must still compute the same fold
    from purestate.agents import td

    g = purestate.make_spec(game)
    agent = purestate.agent(spec)
    t0 = agent.initial_table(g, 0)
    normal = agent.selfplay_games(g, t0, key(8), 80)
    monkeypatch.setattr(td.selfplay, "POSITION_CACHE_LIMIT", 7)
    assert agent.selfplay_games(g, t0, key(8), 80) == normal
    assert normal[0] == _selfplay(g, agent, 80, seed=8)


def test_sarsa_has_no_seed_preset() -> None:
    with pytest.raises(SpecError, match="qlearning:preset=seed"):
        purestate.agent("sarsa:preset=seed")
