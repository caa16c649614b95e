"""Set-up shared by the example tests (tests/) and the property tests (properties/).

Three things live here because both suites need them and neither suite's modules can import the
other's (pytest imports test folders by path, not as packages):

- the Hypothesis profiles, the one place where example counts are set: ``dev`` (quick, the
  default), ``ci`` (what ``tox`` runs: derandomized, so a run is repeatable) and ``thorough``
  (twenty times ``ci``; ``tox -e thorough``, nightly-sized). Choose one with HYPOTHESIS_PROFILE.
  A property whose single example costs several ordinary ones asks for a fraction of the
  profile's count (``settings().max_examples // n``), so every profile scales it alike.
- the OpenSpiel games the conformance suite also runs through the bridge (``OPENSPIEL_CASES``,
  skipped without the ``openspiel`` extra), through the ``conformance_game`` fixture.
- the registered game cases: every registered game under the parameters in ``GAME_CASES``
  (just its defaults when it has no entry). The conformance suite (tests/test_conformance.py)
  and the generic properties (properties/test_game_props.py) run on each case through the
  ``registered_game`` fixture.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from importlib.util import find_spec
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import purestate
from purestate.core.game import Game

settings.register_profile("dev", max_examples=30, deadline=None)
settings.register_profile(
    "ci",
    max_examples=150,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=3000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# name -> the parameter sets its cases use. A game with no entry runs once, with its defaults.
# The sets reach the rules the defaults do not: the smallest board and a non-square one, the
# win/loss reward beside the margin, each Tron turn order, mirrored starts and the second
# player moving first.
GAME_CASES: dict[str, tuple[dict[str, Any], ...]] = {
    "connect_four": (
        {},
        {"columns": 5, "rows": 4, "connect": 3},
    ),
    "dots_and_boxes": (
        {"rows": 1, "cols": 1},
        {"rows": 2, "cols": 2},
        {"rows": 2, "cols": 3},
        {"rows": 3, "cols": 3, "margin": False},
    ),
    "xtreme_tictactoe": (
        {},
        {"reward": "draw"},
        {"reward": "tiebreak"},
    ),
    "tron": (
        {"map": "small_room"},
        {"map": "small_room", "rules": "simultaneous"},
        {"map": "diagonal_blocks", "first_player": 1},
        {"map": "center_block", "start": "mirror", "start_seed": 3},
        {"map": "empty_room", "rules": "simultaneous", "start": "mirror", "start_seed": 11},
    ),
}

# OpenSpiel games the conformance suite plays through the bridge (purestate.interop.openspiel):
# a drop game, a board game with captures (small board: the default 8x8 is slow to play out), a
# connection game and the one whose move ids purestate's tic-tac-toe shares.
OPENSPIEL_CASES: tuple[str, ...] = (
    "openspiel:tic_tac_toe",
    "openspiel:connect_four",
    "openspiel:breakthrough:rows=5,columns=5",
    "openspiel:hex:board_size=5",
)


def game_cases() -> list[tuple[str, dict[str, Any]]]:
    """Every registered game with each of its parameter sets, in registry order.

    Raises:
        ValueError: ``GAME_CASES`` names a game that is not registered (a renamed game would
            otherwise lose its cases without a word).
    """
    unknown = sorted(set(GAME_CASES) - set(purestate.games()))
    if unknown:
        raise ValueError(f"GAME_CASES names games that are not registered: {unknown}")
    return [(name, dict(p)) for name in purestate.games() for p in GAME_CASES.get(name, ({},))]


def case_id(name: str, params: dict[str, Any]) -> str:
    """The test id of a case: ``tron-map=small_room-rules=simultaneous``."""
    return name + "".join(f"-{k}={v}" for k, v in params.items())


_CASES = game_cases()


@pytest.fixture(scope="module", params=_CASES, ids=[case_id(*c) for c in _CASES])
def registered_game(request: pytest.FixtureRequest) -> Game[Any, Any]:
    """Each registered game case in turn (module scope, so Hypothesis tests may use it)."""
    name, params = request.param
    return purestate.make(name, **params)


_CONFORMANCE = [case_id(*c) for c in _CASES] + list(OPENSPIEL_CASES)


@pytest.fixture(scope="module", params=[*_CASES, *OPENSPIEL_CASES], ids=_CONFORMANCE)
def conformance_game(request: pytest.FixtureRequest) -> Game[Any, Any]:
    """Each registered game case, then each OpenSpiel case through the bridge (skipped without
    OpenSpiel)."""
    if isinstance(request.param, str):
        pytest.importorskip("pyspiel")
        return purestate.make(request.param)
    name, params = request.param
    return purestate.make(name, **params)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked ``with_hook.with_args(lookup)`` (a bare callable would be read as the marked
    function) takes ``hooked_game`` from the conformance cases that have the
    hook: a game without it is not a case of that test (rather than a skip)."""
    marker = metafunc.definition.get_closest_marker("with_hook")
    if marker is None:
        return
    lookup: Callable[[Game[Any, Any]], Any] = marker.args[0]
    games, ids = [], []
    for case in [*_CASES, *OPENSPIEL_CASES]:
        if isinstance(case, str):
            if find_spec("pyspiel") is None:
                continue
            game, case_name = purestate.make(case), case
        else:
            game, case_name = purestate.make(case[0], **case[1]), case_id(*case)
        if lookup(game) is not None:
            games.append(game)
            ids.append(case_name)
    metafunc.parametrize("hooked_game", games, ids=ids, scope="module")
