"""The history module: old names, the defaults each run and sweep format had, manifest upgrades."""

from __future__ import annotations

from typing import Any

import pytest

import purestate
from purestate.core import history
from purestate.core.registry import classic_spec, spec_then


def test_old_names_stand_for_todays() -> None:
    assert history.agent_name("seedbot") == "xtreme2019"
    assert history.agent_name("mcts") == "mcts"
    assert purestate.agent("seedbot").spec == "xtreme2019"
    assert history.preset("qlearning", "seed") == "notebook"
    assert history.preset("qlearning", None) is None
    assert history.preset("sarsa", "seed") == "seed"
    assert purestate.agent("qlearning:preset=seed").spec == "qlearning_notebook"
    assert history.numbering("seed") == "notebook"
    assert purestate.make_spec("dots_and_boxes:numbering=seed").numbering == "notebook"


def test_the_formats_say_todays_version() -> None:
    assert len(history.DEFAULTS_BEFORE) + 1 == history.VERSION
    assert f"purestate.run/{history.VERSION}" == history.RUN_FORMAT
    assert f"purestate.sweep/{history.VERSION}" == history.SWEEP_FORMAT
    assert history.RUN_FORMATS[0] == "purestate.run/1"
    assert history.RUN_FORMATS[-1] == history.RUN_FORMAT


@pytest.mark.parametrize(
    ("manifest", "kind", "version"),
    [
        ({"format": "purestate.run/1"}, "run", 1),
        ({"format": history.RUN_FORMAT}, "run", history.VERSION),
        ({"format": f"purestate.run/{history.VERSION + 1}"}, "run", None),
        ({"format": "purestate.run/01"}, "run", None),
        ({"format": "purestate.run/0"}, "run", None),
        ({"format": "purestate.sweep/1"}, "run", None),
        ({"format": None}, "run", None),
        ({"format": 1}, "run", None),
        ({}, "run", None),
        ({}, "sweep", 1),
        ({"format": history.SWEEP_FORMAT}, "sweep", history.VERSION),
        ({"format": "purestate.run/1"}, "sweep", None),
    ],
)
def test_version_of(manifest: dict[str, Any], kind: Any, version: int | None) -> None:
    assert history.version_of(manifest, kind) == version


def test_mcts_had_the_classic_defaults_in_version_1() -> None:
    assert history.defaults_then("mcts", 1) == {
        "c": "1.0",
        "playout": "random",
        "decisive": "false",
        "draws": "mersenne",  # version 3's change: playouts draw from the counter stream
    }
    assert history.defaults_then("mcts", 2) == {"draws": "mersenne"}
    # version 4's change: the tree's shuffle draws from the counter stream too
    assert history.defaults_then("mcts", 3) == {"draws": "playouts"}
    # version 5's change: a generic decisive playout draws from its simulation's key
    assert history.defaults_then("mcts", 4) == {"draws": "shared"}
    assert history.defaults_then("mcts", history.VERSION) == {}
    assert history.defaults_then("random", 1) == {}
    # version 4's change: alphazero's conv nets take their gradients in the forward layout;
    # version 5's: its threshold and mix playouts draw as mcts's do; version 6's: its play
    # reuses the tree of the previous move
    assert history.defaults_then("alphazero", 5) == {"reuse": "false"}
    assert history.defaults_then("alphazero", 4) == {"draws": "shared", "reuse": "false"}
    then = {"gradients": "autodiff", "draws": "shared", "reuse": "false"}
    assert history.defaults_then("alphazero", 3) == then
    assert history.defaults_then("alphazero", 1) == then
    assert (
        spec_then("alphazero:width=8", 3)
        == "alphazero:width=8,gradients=autodiff,draws=shared,reuse=false"
    )
    assert history.defaults_then("mcts", 5) == {}


def test_a_second_change_of_defaults_is_one_entry() -> None:
    # what the table reads if mcts's defaults change again: version 1 files keep their values,
    # and take version 2's for the options that changed only later
    changes = (
        {"mcts": {"c": "1.0", "playout": "random", "decisive": "false"}},
        {"mcts": {"c": "0.3", "simulations": "1000"}},
    )
    assert history.defaults_then("mcts", 1, changes) == {
        "c": "1.0", "playout": "random", "decisive": "false", "simulations": "1000"
    }  # fmt: skip
    assert history.defaults_then("mcts", 2, changes) == {"c": "0.3", "simulations": "1000"}
    assert history.defaults_then("mcts", 3, changes) == {}


def test_spec_then_spells_out_the_old_defaults() -> None:
    assert spec_then("mcts:simulations=300", 1) == classic_spec("mcts:simulations=300")
    assert spec_then("mcts:simulations=300", history.VERSION) == "mcts:simulations=300"
    assert spec_then("self", 1) == "self"


def test_upgrade_spells_out_an_old_runs_specs() -> None:
    old = {"format": "purestate.run/1", "command": "selfplay", "game": "tictactoe",
           "agent": "menace", "opponent": "mcts:simulations=20", "seat": "first", "seed": 3,
           "games": 8}  # fmt: skip
    new = history.upgrade(old, "run", spec_then)
    spelled = "mcts:simulations=20,c=1.0,playout=random,decisive=false,draws=mersenne"
    assert new == {**old, "format": history.RUN_FORMAT, "opponent": spelled}
    assert old["format"] == "purestate.run/1"  # the input is left alone
    typed = {**old, "as_typed": {"agent": "menace", "opponent": "mcts:simulations=20"}}
    assert history.upgrade(typed, "run", spec_then)["as_typed"]["opponent"] == new["opponent"]
    # a spec that does not parse stays as it is, for the caller to refuse
    assert history.upgrade({**old, "opponent": "mcts:c"}, "run", spec_then)["opponent"] == "mcts:c"


@pytest.mark.parametrize("fmt", [history.RUN_FORMAT, "purestate.run/99", None])
def test_upgrade_leaves_todays_and_unknown_runs_alone(fmt: Any) -> None:
    saved = {"format": fmt, "agent": "menace", "opponent": "mcts:simulations=20"}
    assert history.upgrade(saved, "run", spec_then) == saved


def test_upgrade_of_a_sweep_without_a_format() -> None:
    old = {"grid": ["menace"], "opponent": "mcts:simulations=5", "seeds": [0]}
    assert history.upgrade(old, "sweep", spec_then) == {
        **old, "opponent": classic_spec("mcts:simulations=5"), "format": history.SWEEP_FORMAT
    }  # fmt: skip
    assert history.upgrade({**old, "opponent": "self"}, "sweep", spec_then)["opponent"] == "self"
    today = {**old, "format": history.SWEEP_FORMAT}
    assert history.upgrade(today, "sweep", spec_then) == today
