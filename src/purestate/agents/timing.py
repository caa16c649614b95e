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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

Clock = Callable[[], float]

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


def deadline(clock: Clock | None, seconds: float, what: str) -> Callable[[], bool]:
    """A function telling whether ``seconds`` have passed since now on ``clock``.

    Args:
        clock: The injected clock (None is refused when a time budget is asked for).
        seconds: The budget; 0 or less means no time limit.
        what: The agent's name, for the error message.

    Raises:
        ValueError: if a time budget is asked for without a clock.
    """
    if seconds <= 0:
        return _never
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


def _never() -> bool:
    return False
