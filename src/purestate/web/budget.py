"""What one request may cost the server: a CPU-time limit per bot move, caps on the search
options of the agents a page names, and a way to stop a search whose page has gone.

Shell code. The agents stay pure: the budget reaches them as the clock timed agents already take
(``purestate.agents.timing``), a ``MoveClock`` whose ``limit`` every search polls as it polls a
``seconds`` budget, stopping at whichever ends first. The same clock raises ``Stopped`` when the
request that started the search has been abandoned (the page closed, the connection dropped) or
the server is stopping, so the search ends at its next look at the clock and the move is taken
back.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import attrs
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from purestate.agents.perfect import Perfect
from purestate.agents.timing import with_clock
from purestate.core.game import Game
from purestate.core.record import game_spec
from purestate.solve import memoised, require_solvable, solve_size
from purestate.solve.bounds import TooLarge
from purestate.web.errors import WebError

MOVE_SECONDS = 3.0
"""The default CPU seconds a bot may think about one move (``serve --move-seconds``)."""
LAB_SHARE = 10
"""A MENACE lab's opponent moves in a tenth of the move budget, so that a lab step (games played
until the step's budget of ``seconds`` is spent, and at least one) answers in about that time."""
CAPS: dict[str, dict[str, int]] = {
    "mcts": {"simulations": 1_000_000},
    # the compiled tree sizes its arrays by the simulations, and a game's table keeps the last
    # move's tree for the next (reuse)
    "alphazero": {"simulations": 1_000_000},
    "alphabeta": {"depth": 1_000, "nodes": 10_000_000},
    # the 2019 bot expands its tree to depth × width before it first reads the clock
    "xtreme2019": {"simulations": 1_000_000, "depth": 3, "width": 19},
    # a simulation's rollouts run between two looks at the clock, and two simulations run before
    # the first move is known: one random game of 64x64 gomoku takes 0.3 s, so 4 rollouts keep
    # its first move within the default budget (2.7 s measured)
    "openspiel_mcts": {"simulations": 1_000_000, "rollouts": 4},
}
"""The largest search options a page may give, by agent: larger ones are lowered to these (the
page shows the spec it plays). The time limit is what bounds a move; the caps keep a single
simulation, expansion or iteration from running past it."""
SOLVE_LIMITS: dict[str, int] = {
    # generic minimax: tic-tac-toe's 5,478 positions take 0.1 s, so 10^5 about 2 s
    "positions": 10**5,
    # dots and boxes' table, numpy path (compiled: 5x faster): 2^22 (2x4 boxes) takes 0.3 s, 3x3
    # (2^24) 1 s, 2x5 (2^27) 11 s
    "line sets": 1 << 22,
}
"""The largest whole game a solving bot (``perfect``, ``solver``) may solve for a page, by what
the solve layer counts (``solve.require_solvable``); a unit not listed keeps the solve layer's own
limit (connect four: 20 empty cells, under a second). Solving never looks at the clock, so only
this bound keeps it within about the move budget; a larger game is refused in one line unless its
solution is already in the server's memory."""
SOLVE_ONCE: dict[str, tuple[int, float]] = {
    # measured: tic-tac-toe's 5,478 positions in 0.1 s; 3x3 dots and boxes (2^24) in 1 s with
    # numpy alone, 0.2 s compiled (the rate is the slower path's)
    "positions": (10**6, 50_000.0),
    "line sets": (1 << 24, 1.6e7),
}
"""A play page may go past ``SOLVE_LIMITS`` up to these sizes (by unit), with the CPU rate used
to say how long it takes: the page says "solving G once, about N s" while the server solves it
(once: the solution stays in memory and in the disk cache). The MENACE lab keeps the tighter
``SOLVE_LIMITS``: its steps must answer within the budget."""
POLL = 0.25
"""Seconds between two looks at whether the client that asked for a search is still there."""

T = TypeVar("T")


class Stopped(WebError):
    """A search abandoned: its page went away, or the server is stopping."""

    status = 503


class MoveClock:
    """The clock the server gives its bots: the thread's CPU time, at most ``limit`` seconds
    per move (``timing.LimitedClock``), and ``Stopped`` once the move is abandoned."""

    def __init__(self, limit: float, budget: Budget) -> None:
        self.limit = limit
        self._budget = budget

    def __call__(self) -> float:
        """The thread's CPU seconds.

        Raises:
            Stopped: if the request the search belongs to was abandoned or the server stops.
        """
        self._budget.check()
        return time.thread_time()


class Budget:
    """The server's budget for the work one request asks for.

    Args:
        seconds: CPU seconds one bot move may take (and one lab step).
    """

    def __init__(self, seconds: float = MOVE_SECONDS) -> None:
        if not 0 < seconds < float("inf"):
            raise ValueError("the move budget must be a positive number of seconds")
        self.seconds = seconds
        self.stopping = threading.Event()
        self._local = threading.local()

    def clock(self, share: int = 1) -> MoveClock:
        """A clock allowing ``seconds / share`` per move."""
        return MoveClock(self.seconds / share, self)

    def bot(self, agent: Any, clock: MoveClock) -> Any:
        """``agent`` with its search options capped (``CAPS``) and ``clock`` attached."""
        return with_clock(capped(agent), clock)

    def check(self) -> None:
        """Raise ``Stopped`` if this thread's request was abandoned or the server is stopping."""
        if self.stopping.is_set():
            raise Stopped("the server is stopping")
        cancel: threading.Event | None = getattr(self._local, "cancel", None)
        if cancel is not None and cancel.is_set():
            raise Stopped("the page that asked for this move has gone")

    def _call(self, cancel: threading.Event, fn: Callable[..., T], *args: Any) -> T:
        self._local.cancel = cancel
        try:
            return fn(*args)
        finally:
            self._local.cancel = None

    async def run(self, request: Request | None, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker thread, abandoned (its clock raises ``Stopped``) when the
        client of ``request`` disconnects before it is done."""
        cancel = threading.Event()
        work = asyncio.ensure_future(run_in_threadpool(self._call, cancel, fn, *args))
        try:
            while True:
                done, _ = await asyncio.wait({work}, timeout=POLL)
                if done:
                    return work.result()
                if request is not None and await request.is_disconnected():
                    cancel.set()
        finally:
            # a cancelled handler (the server shutting down) abandons the work too
            cancel.set()


def require_quick_solve(agent: Any, game: Game[Any, Any], once: bool = False) -> None:
    """Refuse (``WebError``, one line) a solving bot whose game is larger than ``SOLVE_LIMITS``
    (with ``once``, a play page's: ``SOLVE_ONCE``) and not solved yet: its first move would take
    minutes and gigabytes, past every budget."""
    if not isinstance(agent, Perfect) or memoised(game) is not None:
        return
    limits = {unit: limit for unit, (limit, _) in SOLVE_ONCE.items()} if once else SOLVE_LIMITS
    try:
        require_solvable(game, f"{agent.name} in the browser", limits)
    except TooLarge as e:
        raise WebError(str(e)) from None


def solving_note(agent: Any, game: Game[Any, Any], solved: Callable[[], bool]) -> str:
    """What a play page says while a solving bot gets ready: ``"solving G once, about N s"``
    when ``agent`` solves ``game`` first and that takes over a second (past ``SOLVE_LIMITS``,
    within ``SOLVE_ONCE``); "" when it answers at once (not a solver, ``solved()`` already: in
    memory or on the disk, or small). Nothing is solved here."""
    if not isinstance(agent, Perfect) or solved():
        return ""
    size, unit = solve_size(game)
    if size is None or unit not in SOLVE_ONCE or size <= SOLVE_LIMITS.get(unit, 0):
        return ""
    limit, rate = SOLVE_ONCE[unit]
    if size > limit:
        return ""  # refused with its reason when the game starts
    return f"solving {game_spec(game)} once, about {max(1, round(size / rate))} s"


def capped(agent: Any) -> Any:
    """``agent`` with every option of ``CAPS`` lowered to its cap (unchanged when within)."""
    caps = CAPS.get(str(getattr(agent, "spec", "")).partition(":")[0], {})
    if not caps or not attrs.has(type(agent)):
        return agent
    over = {k: cap for k, cap in caps.items() if getattr(agent, k, 0) > cap}
    return attrs.evolve(agent, **over) if over else agent
