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
- the registered game cases: every registered game under each spec its ``GameSpec.variants``
  names (the game declares them in its own module; just its name when it declares none). The
  conformance suite (tests/test_conformance.py) and the generic properties
  (properties/test_game_props.py) run on each case through the ``registered_game`` fixture.
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
from purestate.core.spec import parse_spec

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
    """Every registered game with each of the parameter sets its ``GameSpec.variants`` name, in
    registry order.

    Raises:
        ValueError: a variant that names another game (a copied line would otherwise test the
            wrong game without a word).
    """
    cases = []
    for name in purestate.games():
        for variant in purestate.make(name).spec.variants:
            named, params = parse_spec(variant)
            if named != name:
                raise ValueError(f"{name} declares a variant of another game: {variant!r}")
            cases.append((name, params))
    return cases


def case_id(name: str, params: dict[str, Any]) -> str:
    """The test id of a case: ``tron-map=small_room-rules=simultaneous``."""
    return name + "".join(f"-{k}={v}" for k, v in params.items())


_CASES = game_cases()


@pytest.fixture(scope="module", params=_CASES, ids=[case_id(*c) for c in _CASES])
def registered_game(request: pytest.FixtureRequest) -> Game[Any, Any]:
    """Each registered game case in turn (module scope, so Hypothesis tests may use it)."""
    return _made(*request.param)


def _made(name: str, params: dict[str, str]) -> Game[Any, Any]:
    """The game of a case: its options are text, as in a spec string."""
    return purestate.make_spec(format_case(name, params))


def format_case(name: str, params: dict[str, str]) -> str:
    """The spec string of a case."""
    return name + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")


_CONFORMANCE = [case_id(*c) for c in _CASES] + list(OPENSPIEL_CASES)


@pytest.fixture(scope="module", params=[*_CASES, *OPENSPIEL_CASES], ids=_CONFORMANCE)
def conformance_game(request: pytest.FixtureRequest) -> Game[Any, Any]:
    """Each registered game case, then each OpenSpiel case through the bridge (skipped without
    OpenSpiel)."""
    if isinstance(request.param, str):
        pytest.importorskip("pyspiel")
        return purestate.make(request.param)
    return _made(*request.param)


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
            game, case_name = _made(*case), case_id(*case)
        if lookup(game) is not None:
            games.append(game)
            ids.append(case_name)
    metafunc.parametrize("hooked_game", games, ids=ids, scope="module")
