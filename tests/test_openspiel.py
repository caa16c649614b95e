"""OpenSpiel games through the bridge (purestate.interop.from_openspiel and to_openspiel):
loading, refusals, values that never change, every agent that fits and every command on tiny
games."""

from __future__ import annotations

import json
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import purestate
from purestate.cli import app
from purestate.core.game import NotAGame

needs_openspiel = pytest.mark.skipif(
    find_spec("pyspiel") is None, reason="needs purestate[openspiel]"
)
runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.output


def test_without_openspiel_the_bridge_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    with pytest.raises(purestate.SpecError, match=r"purestate\[openspiel\]") as e:
        purestate.make("openspiel:connect_four")
    assert "\n" not in str(e.value)
    code, text = run("evaluate", "--game", "openspiel:connect_four", "--games", "1")
    assert code == 2 and "purestate[openspiel]" in text and "Traceback" not in text


def test_an_unknown_game_names_the_openspiel_family() -> None:
    with pytest.raises(purestate.SpecError, match=r"unknown game 'tic_tac_toe' .*openspiel:NAME"):
        purestate.make("tic_tac_toe")


@needs_openspiel
def test_make_takes_the_spec_or_keyword_options() -> None:
    a = purestate.make("openspiel:breakthrough:rows=5,columns=5")
    b = purestate.make("openspiel:breakthrough", columns=5, rows=5)
    c = purestate.make_spec("openspiel:breakthrough:columns=5,rows=5")
    assert a == b == c and hash(a) == hash(c)
    assert a.spec.name == "openspiel:breakthrough:columns=5,rows=5"
    assert a != purestate.make("openspiel:breakthrough")
    assert a.spec.max_length == a.native.max_game_length()
    assert len(a.legal(a.initial())) == 13  # five pawns on a five-column row: 5 + 4 + 4 moves


@needs_openspiel
@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("openspiel:kuhn_poker", "chance events and its information is imperfect"),
        ("openspiel:goofspiel", "its moves are simultaneous"),
        ("openspiel:backgammon", "it has chance events"),
        ("openspiel:morpion_solitaire", "it is a 1-player game"),
        ("openspiel:no_such_game", "unknown OpenSpiel game 'no_such_game'"),
        ("openspiel:hex:size=3", "has no option 'size' (options: board_size"),
        ("openspiel:hex:board_size=big", "must be a whole number"),
    ],
)
def test_other_games_and_bad_options_are_refused_in_one_line(spec: str, words: str) -> None:
    with pytest.raises(purestate.SpecError) as e:
        purestate.make_spec(spec)
    assert words in str(e.value) and "\n" not in str(e.value)
    code, text = run("evaluate", "--game", spec, "--games", "1")
    assert code == 2 and words in text.replace("\n", " ") and "Traceback" not in text


@needs_openspiel
def test_step_never_changes_its_input_and_states_are_histories() -> None:
    game = purestate.make("openspiel:connect_four")
    s0 = game.initial()
    native = s0.native.serialize()
    a = game.step(s0, 3)
    b = game.step(s0, 4)
    aa = game.step(a, 3)
    # the parent and its pyspiel state are as they were, and each child has its own
    assert (
        s0.history == () and s0.native.serialize() == native and game.legal(s0) == tuple(range(7))
    )
    assert a.history == (3,) and b.history == (4,) and aa.history == (3, 3)
    assert a.native.history() == [3] and b.native.history() == [4] and aa.native.history() == [3, 3]
    assert game.to_move(a) == 1 and game.to_move(aa) == 0
    # equal histories are equal values, however they were reached
    assert game.decode(game.encode(aa)) == aa and game.encode(s0) == "-"
    assert game.from_pyspiel(aa.native.clone()) == aa
    with pytest.raises(purestate.IllegalMove):
        game.step(s0, 7)
    with pytest.raises(purestate.ParseError):
        game.decode("3,x")


@needs_openspiel
def test_moves_are_typed_as_ids_or_openspiel_names() -> None:
    game = purestate.make("openspiel:breakthrough:rows=5,columns=5")
    s = game.initial()
    name = s.native.action_to_string(0, 2)
    assert game.parse_move(s, "2") == 2 and game.parse_move(s, name) == 2
    assert f"2={name}" in game.render(s)
    with pytest.raises(purestate.IllegalMove):
        game.parse_move(s, "3")
    with pytest.raises(purestate.ParseError):
        game.parse_move(s, "z9z9")


@needs_openspiel
def test_a_raw_pyspiel_game_or_state_gets_one_line_saying_how_to_bridge_it() -> None:
    import pyspiel

    raw = pyspiel.load_game("tic_tac_toe")
    state = raw.new_initial_state()
    bridged = purestate.make("openspiel:tic_tac_toe")
    for spec in ("random", "mcts", "alphabeta"):
        agent = purestate.agent(spec)
        with pytest.raises(NotAGame, match=r"purestate\.make\('openspiel:tic_tac_toe'\)"):
            agent.act(raw, None, state, purestate.key(0))
        with pytest.raises(NotAGame, match=r"game\.from_pyspiel\(state\)"):
            agent.act(bridged, None, state, purestate.key(0))
    with pytest.raises(NotAGame, match="openspiel:tic_tac_toe"):
        purestate.play(raw, (purestate.agent("random"),) * 2, (None, None), purestate.key(0))


@needs_openspiel
@pytest.mark.parametrize(
    "spec",
    ["random", "mcts:simulations=40", "alphabeta", "alphabeta:depth=2", "qlearning", "sarsa"],
)
def test_every_agent_that_fits_plays_a_bridged_game(spec: str) -> None:
    code, text = run(
        "evaluate", "--game", "openspiel:tic_tac_toe", "--agent", spec, "--games", "3", "--json"
    )
    assert code == 0, text
    figures = json.loads(text)
    for seat in ("first", "second"):
        assert figures[seat]["games"] == 3
        assert figures[seat]["wins"] + figures[seat]["draws"] + figures[seat]["losses"] == 3


@needs_openspiel
def test_search_beats_random_on_connect_four() -> None:
    game = purestate.make("openspiel:connect_four")
    mcts, rnd = purestate.agent("mcts:simulations=200"), purestate.agent("random")
    wins = 0
    for i in range(4):
        seats = (mcts, rnd) if i % 2 == 0 else (rnd, mcts)
        ep = purestate.play(game, seats, (None, None), purestate.key(i))
        wins += ep.returns[i % 2] > 0
    assert wins == 4


def _json(text: str) -> Any:
    """The JSON document a command printed (the runner mixes in the 'wrote FOLDER' line)."""
    return json.loads(text[text.index("{") :])


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@needs_openspiel
def test_every_command_runs_on_a_bridged_game(tmp_path: Path) -> None:
    g = "openspiel:tic_tac_toe"
    code, text = run(
        "tournament", "--game", g, "--agents", "random", "mcts:simulations=20", "alphabeta",
        "-n", "2", "--out", str(tmp_path / "t"), "--json",
    )  # fmt: skip
    assert code == 0, text
    assert _json(text)["game"] == g
    games = _records(tmp_path / "t" / "games.jsonl")
    assert len(games) == 6 and all(r["game"] == g for r in games)
    # the records hold OpenSpiel's action ids: pyspiel replays them to the recorded returns
    import pyspiel

    for r in games:
        s = pyspiel.load_game("tic_tac_toe").new_initial_state()
        for a in r["moves"]:
            s.apply_action(a)
        assert s.is_terminal() and s.returns() == r["returns"]
    code, text = run("replay", str(tmp_path / "t" / "games.jsonl"), "--index", "1", "--text")
    assert code == 0 and text.startswith(f"{g}: ")
    code, text = run("replay", str(tmp_path / "t" / "games.jsonl"), "--json")
    assert code == 0, text

    code, text = run(
        "selfplay", "--game", g, "--agent", "qlearning", "--opponent", "random", "--games", "60",
        "--out", str(tmp_path / "s"), "--no-plot", "--json",
    )  # fmt: skip
    assert code == 0, text
    assert _json(text)["games"] == 60 and len(_records(tmp_path / "s" / "games.jsonl")) == 60

    code, text = run(
        "sweep", "--game", g, "--grid", "sarsa:alpha=0.1,0.5", "--opponent", "random",
        "--seeds", "0-1", "--games", "20", "--block", "10", "--out", str(tmp_path / "w"), "--json",
    )  # fmt: skip
    assert code == 0, text
    assert _json(text)["runs"] == 4

    # a person types action ids (a taken square is refused and the next line read)
    moves = "\n".join(["4", "0", "8", "2", "6", "1", "3", "5", "7"] * 2) + "\nn\n"
    code, text = run(
        "play", g, "--opponent", "alphabeta", "--save", str(tmp_path / "p"), input=moves
    )
    assert code == 0, text
    (played,) = _records(tmp_path / "p" / "games.jsonl")
    assert played["game"] == g and played["players"] == ["person", "alphabeta"]


# --- purestate games inside OpenSpiel ----------------------------------------------------------

# the first example of every registered game (``GameSpec.examples``): a new game joins by itself
EVERY_GAME = tuple(purestate.make(name).spec.examples[0] for name in purestate.games())


@needs_openspiel
@pytest.mark.parametrize("spec", EVERY_GAME)
def test_openspiel_mcts_and_evaluate_bots_play_every_purestate_game(spec: str) -> None:
    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots, mcts

    from purestate.interop.to_openspiel import as_pyspiel

    game = purestate.make_spec(spec)
    pgame = as_pyspiel(game)
    assert as_pyspiel(game) is pgame and pgame.num_players() == 2
    rs = np.random.RandomState(0)
    bots = [mcts.MCTSBot(pgame, 2, 12, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)] * 2
    state = pgame.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, rs)
    # OpenSpiel played legal moves to the end: the purestate game agrees, ply by ply
    episode = purestate.replay(game, [int(a) for a in state.history()])
    assert tuple(returns) == episode.returns
    assert state.is_terminal() and len(episode.moves) <= pgame.max_game_length()
    assert all(0 <= a < pgame.num_distinct_actions() for a in state.history())


@needs_openspiel
@pytest.mark.parametrize("spec", EVERY_GAME)
def test_pyspiel_observations_are_the_planes_pettingzoo_shows(spec: str) -> None:
    import numpy as np

    from purestate.core.hooks import planes_of
    from purestate.interop.to_openspiel import as_pyspiel

    game = purestate.make_spec(spec)
    pgame, planes = as_pyspiel(game), planes_of(game)
    assert planes is not None
    assert pgame.get_type().provides_observation_tensor
    assert pgame.observation_tensor_shape() == list(planes(game.initial(), 0).shape)
    state, ours, rs = pgame.new_initial_state(), game.initial(), np.random.RandomState(7)
    while True:
        for p in (0, 1):
            assert state.observation_tensor(p) == planes(ours, p).ravel().tolist()
            assert state.observation_string(p) == game.render(ours)
        if state.is_terminal():
            break
        action = int(rs.choice(state.legal_actions()))
        state.apply_action(action)
        ours = game.step(ours, action)
    # seen from the other side: each player's own pieces come first
    assert state.observation_tensor(0) != state.observation_tensor(1)


@needs_openspiel
def test_observers_other_than_the_planes_are_openspiels_own_or_refused() -> None:
    import pyspiel
    from open_spiel.python.observation import make_observation

    from purestate.interop.to_openspiel import as_pyspiel

    game = as_pyspiel(purestate.make("tictactoe"))
    state = game.new_initial_state()
    for action in (4, 0):
        state.apply_action(action)
    # perfect recall: the history, as OpenSpiel's observer for public-information games says it
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.string_from(state, 0) == "4, 0"
    with pytest.raises(ValueError, match="not supported"):
        make_observation(game, None, {"board": "big"})


@needs_openspiel
def test_openspiels_rl_environment_trains_its_q_learner_on_a_purestate_game() -> None:
    import numpy as np
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent, tabular_qlearner

    from purestate.interop.to_openspiel import as_pyspiel

    env = rl_environment.Environment(as_pyspiel(purestate.make("tictactoe")), seed=0)
    assert env.observation_spec()["info_state"] == (18,)

    def episode(agents: list[Any], learning: bool) -> float:
        ts = env.reset()
        while not ts.last():
            p = ts.observations["current_player"]
            ts = env.step([agents[p].step(ts, is_evaluation=not learning).action])
        if learning:
            for a in agents:
                a.step(ts)
        return float(ts.rewards[0])

    saved = np.random.get_state()
    np.random.seed(0)  # OpenSpiel's tabular Q-learner draws from numpy's global generator
    try:
        learners = [tabular_qlearner.QLearner(player_id=p, num_actions=9) for p in (0, 1)]
        for _ in range(2000):
            episode(learners, learning=True)
        opponent = random_agent.RandomAgent(player_id=1, num_actions=9)
        wins = sum(episode([learners[0], opponent], learning=False) > 0 for _ in range(500))
    finally:
        np.random.set_state(saved)
    # with seed 0: untrained it wins 60% as the first player against random, trained 90%
    assert wins / 500 > 0.72


@needs_openspiel
def test_a_pyspiel_clone_leaves_the_original_as_it_was() -> None:
    from purestate.interop.to_openspiel import as_pyspiel

    game = purestate.make("tictactoe")
    s = as_pyspiel(game).new_initial_state()
    s.apply_action(4)
    c = s.clone()
    c.apply_action(0)
    assert s.history() == [4] and c.history() == [4, 0]
    assert s.legal_actions() == [0, 1, 2, 3, 5, 6, 7, 8] and 0 not in c.legal_actions()
    assert s.current_player() == 1 and c.current_player() == 0
    assert str(s) == game.render(game.step(game.initial(), 4))


@needs_openspiel
def test_bridged_games_give_their_own_pyspiel_game() -> None:
    from purestate.interop.to_openspiel import as_pyspiel

    bridged = purestate.make("openspiel:connect_four")
    assert as_pyspiel(bridged) is bridged.native


SIMULTANEOUS_TRON = "tron:map=small_room,rules=simultaneous"


@needs_openspiel
@pytest.mark.parametrize("seed", range(20))
def test_simultaneous_tron_is_a_simultaneous_pyspiel_game(seed: int) -> None:
    import numpy as np
    import pyspiel

    from purestate.core.hooks import planes_of
    from purestate.interop.to_openspiel import as_pyspiel

    game = purestate.make_spec(SIMULTANEOUS_TRON)
    planes = planes_of(game)
    assert planes is not None
    pgame = as_pyspiel(game)
    assert pgame.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    state, ours, rs = pgame.new_initial_state(), game.initial(), np.random.RandomState(seed)
    rounds = 0
    while not state.is_terminal():
        assert state.is_simultaneous_node()
        assert state.observation_tensor(0) == planes(ours, 0).ravel().tolist()
        joint = [int(rs.choice(state.legal_actions(p))) for p in (0, 1)]
        assert all(state.legal_actions(p) == [0, 1, 2, 3] for p in (0, 1))  # U, D, L, R
        state.apply_actions(joint)
        # purestate plays the round as two plies, its first mover's move hidden from the other
        first = game.to_move(ours)
        ours = game.step(ours, joint[first])
        assert not game.is_over(ours)  # the first ply of a round never ends the game
        ours = game.step(ours, joint[1 - first])
        rounds += 1
    assert game.is_over(ours) and tuple(state.returns()) == game.returns(ours)
    assert rounds <= game.board.free.bit_count()


@needs_openspiel
def test_a_simultaneous_node_takes_joint_actions_only() -> None:
    from purestate.interop.to_openspiel import as_pyspiel, to_pyspiel

    game = purestate.make_spec(SIMULTANEOUS_TRON)
    state = as_pyspiel(game).new_initial_state()
    with pytest.raises(ValueError, match="apply_actions"):
        state.apply_action(1)
    with pytest.raises(ValueError, match="one player's legal actions"):
        state.legal_actions()
    assert state.history() == []  # nothing was half applied
    half = game.step(game.initial(), 1)  # the first mover has committed
    with pytest.raises(purestate.SpecError, match="half played"):
        to_pyspiel(game, half)
    seen = to_pyspiel(game, game.observation(half, 1))  # what the second mover may see
    assert seen.is_simultaneous_node() and seen.legal_actions(1) == [0, 1, 2, 3]


@needs_openspiel
def test_openspiels_learners_and_random_bot_play_simultaneous_tron() -> None:
    import numpy as np
    from open_spiel.python import rl_environment

    from purestate.interop.to_openspiel import as_pyspiel

    game = purestate.make_spec(SIMULTANEOUS_TRON)
    env = rl_environment.Environment(as_pyspiel(game), seed=0)
    assert env.is_turn_based is False
    rs = np.random.RandomState(0)
    for _ in range(20):
        step = env.reset()
        while not step.last():
            legal = step.observations["legal_actions"]
            step = env.step([int(rs.choice(legal[p])) for p in (0, 1)])
        assert sorted(step.rewards) in ([-1.0, 1.0], [0.0, 0.0])
    bot = purestate.agent("openspiel_random")
    for seed in range(5):
        episode = purestate.play(game, (bot, bot), (None, None), purestate.key(seed))
        assert game.is_over(episode.final)
        assert purestate.play(game, (bot, bot), (None, None), purestate.key(seed)) == episode


@needs_openspiel
def test_openspiel_mcts_refuses_simultaneous_rounds_in_one_line() -> None:
    game = purestate.make_spec(SIMULTANEOUS_TRON)
    with pytest.raises(purestate.SpecError, match="searches sequential games only"):
        purestate.agent("openspiel_mcts").initial_table(game, 0)
    code, text = run("evaluate", "--game", SIMULTANEOUS_TRON, "--agent", "openspiel_mcts",
                     "--opponent", "tron_random", "--games", "1")  # fmt: skip
    assert code != 0 and "searches sequential games only" in text
    assert "Traceback" not in text and len(text.strip().splitlines()) == 1


@needs_openspiel
def test_openspiel_bots_are_agents_drawing_from_our_keys() -> None:
    game = purestate.make("openspiel:connect_four")
    theirs = purestate.agent("openspiel_mcts:simulations=30")
    assert theirs.spec == "openspiel_mcts:simulations=30"
    assert purestate.agent("openspiel_mcts").simulations == 1000
    rnd = purestate.agent("openspiel_random")
    a = purestate.play(game, (theirs, rnd), (None, None), purestate.key(5))
    b = purestate.play(game, (theirs, rnd), (None, None), purestate.key(5))
    assert a == b
    c = purestate.play(game, (rnd, rnd), (None, None), purestate.key(6))
    assert c.moves != purestate.play(game, (rnd, rnd), (None, None), purestate.key(7)).moves


@needs_openspiel
def test_a_tournament_with_our_mcts_and_theirs_is_one_command() -> None:
    code, text = run(
        "tournament", "--game", "tictactoe", "--agents", "mcts:simulations=50",
        "openspiel_mcts:simulations=50", "openspiel_random", "-n", "2", "--json",
    )  # fmt: skip
    assert code == 0, text
    figures = _json(text)
    assert {r["agent"] for r in figures["ratings"]} == {
        "mcts:simulations=50",
        "openspiel_mcts:simulations=50",
        "openspiel_random",
    }


@needs_openspiel
@pytest.mark.skipif(find_spec("pettingzoo") is None, reason="needs purestate[pettingzoo]")
def test_the_interop_page_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    page = (Path(__file__).parent.parent / "docs" / "interop.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in page.split("```python\n")[1:]]
    assert len(blocks) == 5
    for block in blocks:
        exec(compile(block, "docs/interop.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 5 and printed[2] == "(18,)"
    # the PettingZoo example prints the returns it says it prints (not PettingZoo's emptied {})
    assert printed[3] != "{}" and f"It prints `{printed[3]}`" in page
    # and the batch example (core.batch) its plies and X's share of wins
    assert f"It prints `{printed[4]}`" in page


# --- options checked before OpenSpiel sees them (issue 20) -------------------------------------


@needs_openspiel
@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("connect_four:rows=0", "option 'rows' must be an int from 1 to 64; got 0"),
        ("havannah:board_size=-1", "option 'board_size' must be an int from 1 to 64; got -1"),
        ("hex:board_size=99999999999999999999999", "must be an int from 1 to 64"),
        ("go:handicap=2147483648", "must be an int from -2,147,483,648 to 2,147,483,647"),
        ("go:komi=nan", "option 'komi' must be a finite number; got nan"),
        ("go:komi=-inf", "must be a finite number"),
        ("go:board_size=1", "openspiel:go:board_size=1: OpenSpiel cannot make it: unsupported"),
        ("breakthrough:rows=1", "OpenSpiel cannot make it: rows_ > 1 failed (rows_ = 1, 1 = 1)"),
        ("clobber:rows=1,columns=1", "openspiel:clobber:columns=1,rows=1: the start has no legal"),
        ("hex:board_size=1", "the position after the first move has no legal move"),
        ("gomoku:dims=3,size=64", "too large: 262,144 action ids"),
    ],
)
def test_options_openspiel_cannot_take_are_one_line(spec: str, says: str) -> None:
    with pytest.raises(purestate.SpecError) as e:
        purestate.make(f"openspiel:{spec}")
    assert says in str(e.value) and "\n" not in str(e.value)


@needs_openspiel
def test_a_position_without_moves_that_is_not_over_is_refused_when_reached() -> None:
    # 11 rows of one column: the start and its first move look right; later a position has no
    # legal move but is not over, which the Game protocol never allows
    game = purestate.make("openspiel:hex:num_cols=1")
    s = game.initial()
    with pytest.raises(purestate.SpecError, match="no legal move at a position that is not over"):
        while not game.is_over(s):
            s = game.step(s, game.legal(s)[0])


@needs_openspiel
def test_values_inside_the_limits_still_play() -> None:
    for spec in ("connect_four:rows=4,columns=5", "hex:board_size=3", "breakthrough:rows=2"):
        game = purestate.make(f"openspiel:{spec}")
        s = game.initial()
        while not game.is_over(s):
            s = game.step(s, game.legal(s)[-1])
        assert sum(game.returns(s)) == 0


def test_a_spiel_check_reads_as_its_condition_and_values() -> None:
    from purestate.interop.openspiel import said

    check = RuntimeError("/project/open_spiel/games/x/x.cc:124 rows_ > 1\nrows_ = 0, 1 = 1")
    assert said(check) == "rows_ > 1 failed (rows_ = 0, 1 = 1)"
    assert said(ValueError("unsupported board size")) == "unsupported board size"
    assert said(MemoryError()) == "MemoryError"


def test_the_position_bound_is_the_sum_of_the_histories() -> None:
    from purestate.interop.from_openspiel import position_bound

    for actions in range(6):
        for length in range(7):
            assert position_bound(actions, length) == sum(actions**d for d in range(length + 1))
