"""purestate games as PettingZoo environments (purestate.interop.pettingzoo)."""

from __future__ import annotations

import sys
from importlib.util import find_spec
from typing import Any

import numpy as np
import pytest

import purestate

needs_pettingzoo = pytest.mark.skipif(
    find_spec("pettingzoo") is None, reason="needs purestate[pettingzoo]"
)
needs_openspiel = pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs open_spiel")

# PettingZoo's api_test warns about every dict observation, its own classic games' included
classic_warnings = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be",
    "ignore:Observation is not a NumPy array",
    "ignore:Observation numpy array is all zeros",  # an empty board at the start
)

# every variant of every registered game (``GameSpec.variants``): a new game joins by registering
EVERY_GAME = tuple(v for name in purestate.games() for v in purestate.make(name).spec.variants)


def test_without_pettingzoo_the_bridge_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from purestate.interop.pettingzoo import env

    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(purestate.SpecError, match=r"purestate\[pettingzoo\]"):
        env("tictactoe")


@needs_pettingzoo
@classic_warnings
@pytest.mark.parametrize("spec", EVERY_GAME)
def test_every_game_passes_pettingzoos_api_test(spec: str) -> None:
    from pettingzoo.test import api_test

    from purestate.interop.pettingzoo import env

    api_test(env(spec, render_mode="ansi"), num_cycles=100, verbose_progress=False)


@needs_pettingzoo
@needs_openspiel
@classic_warnings
def test_a_bridged_openspiel_game_passes_it_too() -> None:
    from pettingzoo.test import api_test

    from purestate.interop.pettingzoo import env

    e = env("openspiel:connect_four")
    api_test(e, num_cycles=100, verbose_progress=False)
    assert e.observation_space("player_0")["observation"].shape == (3, 6, 7)


def _play(e: Any, actions: list[int]) -> None:
    for a in actions:
        e.step(a)


@needs_pettingzoo
def test_tictactoe_planes_put_the_observer_first_and_mask_the_mover() -> None:
    from purestate.interop.pettingzoo import env

    e = env("tictactoe")
    _play(e, [4, 0])  # X centre, O corner
    assert e.agent_selection == "player_0"
    x, o = e.observe("player_0"), e.observe("player_1")
    assert x["observation"][1, 1, 0] == 1 and x["observation"][0, 0, 1] == 1
    assert o["observation"][0, 0, 0] == 1 and o["observation"][1, 1, 1] == 1
    assert x["observation"].sum() == 2
    assert list(np.flatnonzero(x["action_mask"])) == [1, 2, 3, 5, 6, 7, 8]
    assert not o["action_mask"].any()  # not its turn
    _play(e, [1, 3, 7])  # X wins down the middle column
    assert e.terminations == {"player_0": True, "player_1": True}
    assert e._cumulative_rewards == {"player_0": 1.0, "player_1": -1.0}


@needs_pettingzoo
def test_board_planes_follow_the_move_ids() -> None:
    from purestate.interop.pettingzoo import env

    u = env("ultimate_tictactoe")
    _play(u, [10])  # small board 1 (top middle), its cell 1 (top middle)
    assert np.argwhere(u.observe("player_0")["observation"][:, :, 0]).tolist() == [[0, 4]]
    d = env("dots_and_boxes:rows=2,cols=3")
    _play(d, [0, 9])  # the first horizontal line, then the first vertical one (id num_h = 9)
    planes = d.observe("player_0")["observation"]
    assert planes[0, 0, 0] == 1 and planes[0, 0, 1] == 1 and planes.sum() == 2
    t = env("tron:map=small_room")
    heads = t.observe("player_0")["observation"]
    game = purestate.make("tron", map="small_room")
    s = game.initial()
    cols = game.board.cols
    assert heads[s.head0 // cols, s.head0 % cols, 1] == 1
    assert heads[s.head1 // cols, s.head1 % cols, 2] == 1


@needs_pettingzoo
@classic_warnings
def test_simultaneous_tron_hides_the_committed_move_and_runs_in_parallel() -> None:
    from pettingzoo.test import parallel_api_test

    from purestate.interop.pettingzoo import env, parallel_env

    spec = "tron:map=small_room,rules=simultaneous"
    e = env(spec)
    before = e.observe("player_1")["observation"].copy()
    e.step(0)  # player 0 commits a move: player 1 must not see it
    assert e.agent_selection == "player_1"
    assert (e.observe("player_1")["observation"] == before).all()
    parallel_api_test(parallel_env(spec), num_cycles=100)
    with pytest.raises(purestate.SpecError, match="take turns"):
        parallel_env("tictactoe")


@needs_pettingzoo
def test_both_environments_render_the_board_as_text_when_asked() -> None:
    from purestate.interop.pettingzoo import env, parallel_env

    game = purestate.make_spec("tron:map=small_room,rules=simultaneous")
    board = game.render(game.initial())
    for make in (env, parallel_env):
        e = make("tron:map=small_room,rules=simultaneous", render_mode="ansi")
        e.reset()
        assert e.render() == board
        assert make("tron:map=small_room,rules=simultaneous").render() is None


@needs_pettingzoo
@pytest.mark.parametrize("action", [4.7, True, "4", np.float64(8.9), np.bool_(True), None, 9, -1])
def test_an_action_that_is_not_an_id_in_range_is_refused_and_changes_nothing(action: Any) -> None:
    # int() would have taken 4.7 as 4, True as 1, "4" as 4 and 8.9 as 8 (issue 20)
    from purestate.interop.pettingzoo import env

    e = env("tictactoe")
    with pytest.raises(purestate.IllegalMove, match=r"is not an action of tictactoe: actions are "
                       r"ints 0-8 \(numpy integers too\)$") as refused:  # fmt: skip
        e.step(action)
    assert "\n" not in str(refused.value)
    assert e.state_value == purestate.make("tictactoe").initial()
    assert e.agent_selection == "player_0" and e._cumulative_rewards["player_0"] == 0.0


@needs_pettingzoo
@pytest.mark.parametrize("action", [np.int64(4), np.int8(4), np.uint16(4), 4])
def test_numpy_integers_are_actions_as_plain_ints_are(action: Any) -> None:
    from purestate.interop.pettingzoo import env

    e = env("tictactoe")
    e.step(action)
    assert e.state_value == purestate.make("tictactoe").step(
        purestate.make("tictactoe").initial(), 4
    )
    assert type(e.state_value.x) is int


@needs_pettingzoo
def test_a_legal_looking_id_of_a_taken_square_is_the_cores_refusal() -> None:
    from purestate.interop.pettingzoo import env

    e = env("tictactoe")
    e.step(np.int32(4))
    with pytest.raises(purestate.IllegalMove, match="square 4 is taken"):
        e.step(4)


@needs_pettingzoo
@pytest.mark.parametrize(
    "actions",
    [
        {"player_0": 1.0, "player_1": 1},
        {"player_0": 1, "player_1": "1"},
        {"player_0": 1},
        [1, 2],
        None,
    ],
)
def test_the_parallel_environment_refuses_what_is_not_a_dict_of_ids(actions: Any) -> None:
    from purestate.interop.pettingzoo import parallel_env

    p = parallel_env("tron:map=small_room,rules=simultaneous")
    p.reset()
    start = p.state_value
    with pytest.raises(purestate.IllegalMove) as refused:
        p.step(actions)
    assert "\n" not in str(refused.value) and p.state_value == start
    p.step({"player_0": np.int64(1), "player_1": 0})
    assert p.state_value != start


@needs_pettingzoo
@pytest.mark.parametrize("spec", [5, None, 2.5, object()])
def test_an_environment_of_something_else_than_a_spec_or_a_game_is_one_line(spec: Any) -> None:
    from purestate.core.game import NotAGame
    from purestate.interop.pettingzoo import env, parallel_env

    for make in (env, parallel_env):
        with pytest.raises(
            NotAGame, match=r"takes a game spec \(a str\) or a purestate game: a "
        ) as e:
            make(spec)
        assert "\n" not in str(e.value)


@needs_pettingzoo
@needs_openspiel
def test_an_environment_of_a_pyspiel_game_says_how_to_bridge_it() -> None:
    import pyspiel

    from purestate.interop.pettingzoo import env

    with pytest.raises(TypeError, match=r"purestate.make\('openspiel:tic_tac_toe'\)"):
        env(pyspiel.load_game("tic_tac_toe"))
