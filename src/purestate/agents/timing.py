"""Time budgets for search agents, with the clock injected by the shell.

Reading the clock is input, so the pure core never does it on its own. A search agent with a
``seconds`` budget holds a ``clock`` (a zero-argument function returning seconds, e.g.
``time.thread_time``) that the shell attaches when it builds the agent
(``purestate.cli.common.agent_from`` does it for every command). Budgets by ``depth``, ``nodes``
or ``simulations`` need no clock and are deterministic; a ``seconds`` budget is the one
documented source of non-determinism, and it is confined to the agent that holds the clock.

A library user who wants a time budget writes::

    import time
    from purestate.agents.timing import with_clock
    bot = with_clock(purestate.agent("mcts:seconds=0.5"), time.thread_time)

A timed agent declares the clock as a private attrs field, so it is neither a spec option nor
part of the spec string, and the agent is equal to itself whatever clock it reads::

    _clock: Clock | None = field(default=None, alias="clock", eq=False, repr=False)

A clock may also carry a ``limit`` attribute (seconds, see ``LimitedClock``): the most any one
move may take, whatever the agent's own options say. The browser app's server attaches such a
clock to every bot it runs, so ``mcts:simulations=100000000`` or ``alphabeta:depth=0,nodes=0``
still answers within the server's budget; the search polls the clock as it polls a ``seconds``
budget, and stops at whichever budget ends first. A plain clock (``time.thread_time``) has no
limit, so the agents a command builds behave exactly as their options say. A clock may also
raise to abandon a move altogether (the server's clock raises when the page that asked has
gone); the exception passes through the search untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import attrs

Clock = Callable[[], float]


class LimitedClock(Protocol):
    """A clock that also bounds every move: ``limit`` seconds at most (0: no bound)."""

    limit: float

    def __call__(self) -> float:
        """Seconds now."""
        ...


A = TypeVar("A")


def with_clock(agent: A, clock: Clock) -> A:
    """The same agent holding ``clock`` (agents without a ``clock`` field come back unchanged).

    Args:
        agent: An agent, typically built from a spec string.
        clock: A zero-argument function returning seconds (monotonic within a move).

    Returns:
        The agent with the clock attached, or ``agent`` itself if it takes no clock.
    """
    cls: Any = type(agent)
    if not attrs.has(cls) or not any(f.alias == "clock" for f in attrs.fields(cls)):
        return agent
    made: A = attrs.evolve(agent, clock=clock)  # type: ignore[misc]
    return made


def limit_of(clock: Clock | None) -> float:
    """The most seconds one move may take on ``clock`` (its ``limit``; 0 when it sets none)."""
    limit = getattr(clock, "limit", 0.0)
    return float(limit) if isinstance(limit, int | float) and limit > 0 else 0.0


def deadline(clock: Clock | None, seconds: float, what: str) -> Callable[[], bool]:
    """A function telling whether ``seconds`` have passed since now on ``clock``.

    A clock with a ``limit`` shortens the budget to it (and gives one to an agent without a
    ``seconds`` budget). The search needs to poll the result only when it is not ``never``.

    Args:
        clock: The injected clock (None is refused when a time budget is asked for).
        seconds: The budget; 0 or less means no time limit.
        what: The agent's name, for the error message.

    Raises:
        ValueError: if a time budget is asked for without a clock.
    """
    limit = limit_of(clock)
    if limit and (seconds <= 0 or seconds > limit):
        seconds = limit
    if seconds <= 0:
        return never
    if clock is None:
        raise ValueError(
            f"{what}: a seconds budget needs a clock; the command line attaches one, in a script "
            "use purestate.agents.timing.with_clock(agent, time.thread_time)"
        )
    end = clock() + seconds

    def passed() -> bool:
        return clock() >= end

    return passed


def check_budget(simulations: int, seconds: float) -> None:
    """Refuse (``ValueError``) a search budget that is negative or that never ends the search."""
    if simulations < 0 or seconds < 0:
        raise ValueError("simulations and seconds must be 0 (no limit) or positive")
    if simulations == 0 and seconds == 0:
        raise ValueError("give a budget: simulations > 0 or seconds > 0")


def never() -> bool:
    """The deadline of a search without a time budget: it never passes."""
    return False
