"""The Agent protocol: a frozen config plus pure functions.

```
initial_table(game, seat) -> Table          beads, Q-values, a search tree, or None
act(game, table, state, key) -> Decision    the move (None = resign), and for search the new tree
learn(game, table, episode, seat) -> Table  a NEW table; the old one is unchanged
```

Hyperparameters live in the config (the agent object); whatever changes over time lives in the
table, so ``act`` and ``learn`` stay pure.

An agent that cannot play every game (the perfect player and MENACE need the whole game;
alpha-beta's evaluation and MCTS's move scores may be made for one game) also has
``check_game(game) -> None``, which refuses the game at once with one line; ``initial_table``
calls it, and a command that starts many games calls ``check_game(agent, game)`` first. The other
optional hooks (``greedy``, ``supports_seat``, ...) are the protocols at the end of this module,
looked up through ``purestate.core.hooks``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar, runtime_checkable

from attrs import field, frozen

from purestate.core.game import Game
from purestate.core.hooks import (
    check_game_of,
    greedy_decision_of,
    greedy_of,
    supports_seat,
    without_tree_of,
)
from purestate.core.keys import Key

if TYPE_CHECKING:
    from numpy.typing import NDArray

M = TypeVar("M")


@frozen
class Decision(Generic[M]):
    """What an agent decided in one position.

    Attributes:
        move: The move to play, or ``None`` to resign (MENACE with an empty matchbox).
        table: A replacement table to use for the rest of this game (a search tree reused
            across moves), or ``None`` to keep the table as it was.
    """

    move: M | None
    table: Any = None


@runtime_checkable
class Agent(Protocol):
    """A player: pure policy and pure update."""

    @property
    def spec(self) -> str:
        """The spec string that rebuilds this agent with ``purestate.agent``."""
        ...

    @property
    def learns(self) -> bool:
        """Whether ``learn`` changes the table (False for fixed policies and search)."""
        ...

    def initial_table(self, game: Game[Any, Any], seat: int) -> Any:
        """A fresh table for playing ``game`` from ``seat`` (0 moves first)."""
        ...

    def act(self, game: Game[Any, Any], table: Any, state: Any, key: Key) -> Decision[Any]:
        """Choose a move in ``state`` (a non-terminal state where this agent is to move)."""
        ...

    def learn(self, game: Game[Any, Any], table: Any, episode: Any, seat: int) -> Any:
        """Return the table updated from ``episode`` played from ``seat``."""
        ...


class FixedPolicy:
    """Mixin for agents that do not learn: no table, and ``learn`` returns its input."""

    learns = False

    def initial_table(self, game: Game[Any, Any], seat: int) -> Any:
        """No table."""
        return None

    def learn(self, game: Game[Any, Any], table: Any, episode: Any, seat: int) -> Any:
        """Nothing to learn: the table comes back as it was."""
        return table


@runtime_checkable
class Persistent(Protocol):
    """A learner whose table can be saved as JSON (``io.tables`` writes the file envelope).

    ``table_to_json`` returns plain JSON data (dicts with str keys, lists, numbers, strings);
    ``table_from_json`` is its inverse and raises ``ValueError`` with a clear message on data that
    does not fit. ``table_format`` names the format and version, e.g. ``"purestate.menace/1"``.
    """

    @property
    def table_format(self) -> str:
        """The format name and version written into the file."""
        ...

    def table_to_json(self, game: Game[Any, Any], table: Any) -> Any:
        """The table as JSON-ready data."""
        ...

    def table_from_json(self, game: Game[Any, Any], data: Any) -> Any:
        """The table from data written by ``table_to_json``."""
        ...


class ArrayTable(Protocol):
    """A learner whose table is arrays (network parameters, optimizer state, a replay buffer):
    saved as an archive of ``.npy`` arrays with a JSON manifest (``io.tables`` writes it; the
    format is in docs/files.md), never pickled.

    Found through ``purestate.core.hooks.array_table_of``; an agent offers this or
    ``Persistent``, not both. ``table_to_arrays`` returns JSON-ready meta (a dict: str keys,
    lists, numbers, strings; hyperparameters, counters) and named arrays of plain numbers or
    bools (names of letters, digits, ``_``, ``.``, ``-``, joined by ``/``: ``params/dense_0/w``);
    ``table_from_arrays`` is its inverse and raises ``ValueError`` with a clear message on meta or
    arrays that do not fit (a missing name, a wrong shape or dtype). The arrays it is given are
    read-only. ``table_format`` names the format and version, e.g. ``"purestate.alphazero/1"``.
    The file must be a function of the table's value (the same table, the same bytes), so
    ``table_to_arrays`` draws nothing and reads no clock.
    """

    @property
    def table_format(self) -> str:
        """The format name and version written into the manifest."""
        ...

    def table_to_arrays(
        self, game: Game[Any, Any], table: Any
    ) -> tuple[dict[str, Any], dict[str, NDArray[Any]]]:
        """The table as JSON-ready meta and named arrays."""
        ...

    def table_from_arrays(
        self, game: Game[Any, Any], meta: dict[str, Any], arrays: dict[str, NDArray[Any]]
    ) -> Any:
        """The table from what ``table_to_arrays`` gave."""
        ...


# -- optional hooks ---------------------------------------------------------------------------
# An agent may offer any of these beside the protocol; generic code finds them through
# ``purestate.core.hooks`` (one place, typed) and falls back when an agent has none.


class ChecksGame(Protocol):
    """An agent that cannot play every game (the whole game too large, an evaluation or move
    scores made for another game, rules for tic-tac-toe only)."""

    def check_game(self, game: Game[Any, Any]) -> None:
        """Refuse ``game`` at once with one line (a ``SpecError``, ``TooLarge`` is one), or return.

        Called when the agent meets the game, before any move: by ``initial_table``, by the
        agent's ``act`` where the search would otherwise fail deep inside, and by every command
        before its first game (``check_game(agent, game)``). Pure and cheap; a game it accepts,
        the agent plays.
        """
        ...


class HasGreedy(Protocol):
    """A learner with a greedy policy: its best move by the table, without exploring."""

    def greedy(self, game: Game[Any, Any], table: Any, state: Any) -> Any:
        """The move the table rates best in ``state``, or ``None`` to resign.

        Called by ``evaluate``, ``play``, ``tournament`` and the browser through ``Greedy`` (unless
        asked to explore), and by ``analyze``. Deterministic (ties broken by a fixed rule, no key)
        and one of ``game.legal(state)`` when not ``None``.
        """
        ...


class GreedyDecides(Protocol):
    """A learner whose greedy play keeps something from move to move (a search tree to reuse)."""

    def greedy_decision(self, game: Game[Any, Any], table: Any, state: Any) -> Decision[Any]:
        """``greedy``'s move, with the table to play the rest of the game from.

        Called by ``Greedy`` in place of ``greedy`` when the learner has it (so also by
        ``analyze``'s games against the solver); ``analyze``'s judgment of each position still
        asks ``greedy``. Deterministic for a given table, its move the one
        ``greedy`` plays from the same table; the table it returns holds what the next move
        reuses (``alphazero``: the search tree, as ``mcts``'s table does) and plays as the table
        it was given in every other way: a game's tables are dropped when it ends, so nothing
        carries into the next game.
        """
        ...


class KeepsTree(Protocol):
    """A bot whose decisions' tables carry its search tree to its next move (``mcts``,
    ``xtreme2019``, and ``alphazero`` in play)."""

    def without_tree(self, table: Any) -> Any:
        """``table`` without the search tree it carries: the table the bot plays from as if it
        had not searched yet in this game (its next search starts afresh), everything else kept.

        Called by the browser's games for their older undo snapshots: a tree holds hundreds of
        MB after seconds of search, and a game keeps a snapshot a move. A bot whose table holds
        the game's own memory (``tron_wall``'s side) has no such hook, and keeps it.
        """
        ...


class SupportsSeat(Protocol):
    """An agent whose tables belong to one seat (MENACE's boxes are for one player)."""

    def supports_seat(self, table: Any, seat: int) -> bool:
        """Whether ``table`` can play ``seat`` (0 moves first).

        Called before a loaded table is played or judged from a seat; an agent without the hook
        plays any table from either seat. True for the seat ``initial_table(game, seat)`` made
        the table for.
        """
        ...


class SelfplayTables(Protocol):
    """An agent that says how it learns against itself."""

    selfplay_tables: str
    """``"shared"`` (the default for agents that do not say: both seats play from and learn into
    one table, TD self-play), ``"separate"`` (one table per seat, MENACE against MENACE) or
    ``"only"`` (one shared table, and it learns against nothing else: ``alphazero``, whose
    examples come from its own search on both sides, so ``Selfplay.check`` refuses any other
    opponent). Read by ``Selfplay`` when the opponent is the learner itself."""


class FusedSelfplay(Protocol):
    """A learner with its own loop for self-play on one table (``qlearning``, ``sarsa``)."""

    def selfplay_games(
        self, game: Game[Any, Any], table: Any, key: Key, games: int, start: int = 0
    ) -> tuple[Any, tuple[Any, ...]]:
        """Games ``start`` .. ``start + games - 1`` of self-play from ``table``: the table after
        the last and the episodes.

        Called by ``Selfplay.play`` for a shared table instead of the generic fold; returns
        exactly the tables and episodes the fold (``core.learning.train`` with
        ``shared=True``) gives for the same key, only faster. A learner that learns only in this
        loop (``alphazero``, whose ``learn`` is the identity) returns instead what the loop
        gives in one call, whatever stretches the games are played in.
        """
        ...


class FusedTraining(Protocol):
    """A learner with its own loop for learning against an opponent that does not learn
    (``menace``)."""

    def train_games(
        self,
        game: Game[Any, Any],
        table: Any,
        seat: int,
        opponent: Any,
        opponent_table: Any,
        key: Key,
        games: int,
        start: int = 0,
        run_games: int | None = None,
    ) -> tuple[Any, tuple[Any, ...]]:
        """Games ``start`` .. ``start + games - 1`` of learning from ``seat`` against
        ``opponent`` (an agent whose ``learns`` is False, playing from ``opponent_table``): the
        learner's table after the last game and the episodes.

        Called by ``Selfplay.play`` instead of the generic fold when the opponent does not learn;
        returns exactly the episodes and tables the fold (``core.learning.train`` with only
        ``seat`` learning) gives for the same key, only faster. Stops early after a game the
        learner refused to play (it resigned before its first move, as MENACE with an empty
        first box): the run ends there. ``run_games`` (the games of the whole run the call is a
        stretch of) may guide how the games are played, never what they are.
        """
        ...


@frozen
class ListDraw:
    """How a fixed policy's ``act`` draws its move in one position, for a compiled loop that
    plays the policy without calling it (``TabledDraws``).

    With ``kind="coin"`` (the rules player): ``r = keys.bits(key)``; when ``p >= 1`` or ``(r >>
    32) < p * 2**32`` the move is ``first[((r & 0xFFFFFFFF) * len(first)) >> 32]``, else
    ``second[...]`` alike. With ``kind="choice"`` (the random player): ``keys.choice(key,
    first)``.

    Attributes:
        kind: ``"coin"`` or ``"choice"``.
        p: The coin's probability of ``first`` (``"coin"`` only).
        first: The moves drawn from first (never empty).
        second: The moves drawn from otherwise.
    """

    kind: Literal["coin", "choice"]
    p: float
    first: tuple[Any, ...]
    second: tuple[Any, ...] = ()


class TabledDraws(Protocol):
    """A fixed policy whose draws a compiled training loop can replay (``rules``, ``random``)."""

    def list_draw(self, game: Game[Any, Any], state: Any) -> ListDraw:
        """What ``act(game, None, state, key)`` draws from, for every key: ``act`` plays the
        ``ListDraw``'s move for ``key``. Called by MENACE's compiled loop
        (``agents.menace_compiled``) for every position of an enumerable game the policy may
        face; the same ``kind`` and ``p`` in all of them."""
        ...


class SelfplayJobs(Protocol):
    """A learner whose self-play can be spread over workers (``alphazero``): it plays its games in
    parts (an iteration's games, all with the same table) that split into jobs, and folds the
    jobs' results back into the table in order.

    Found through ``purestate.core.hooks.selfplay_jobs_of``, which also needs a module-level
    ``play_job(job)`` in the module that defines the agent's class (a function an executor can
    send to a worker by name). For a shared table, ``Selfplay.stretches`` plays
    ``with_network`` once, then for each range of ``iterations``: ``jobs``, ``play_job`` of each
    job (anywhere, in any order), ``absorb`` of the results in the jobs' order. The promise: the
    table and the games are those of ``selfplay_games`` for the same key, whatever the number of
    jobs and wherever they run. Each job's result has ``episodes``, its games in order.
    """

    def iterations(self, start: int, games: int) -> list[range]:
        """Games ``start`` .. ``start + games - 1`` cut into the ranges played with one table."""
        ...

    def with_network(self, game: Game[Any, Any], table: Any, key: Key) -> Any:
        """``table`` ready to play (a fresh one gets what it draws from the run's ``key``)."""
        ...

    def jobs(
        self, game: Game[Any, Any], table: Any, key: Key, part: Sequence[int], count: int
    ) -> list[Any]:
        """The games ``part`` (one range of ``iterations``) as at most ``count`` jobs: values
        that pickle."""
        ...

    def absorb(self, game: Game[Any, Any], table: Any, played: Sequence[Any], key: Key) -> Any:
        """``table`` after the results of ``play_job`` for its next games, in order."""
        ...


class PlaysFromLess(Protocol):
    """A learner whose play reads only part of its table (``alphazero``: the network, not the
    replay buffer). Found through ``purestate.core.hooks.playing_table``, which commands that
    send a table to workers to play from (``evaluate --jobs``, ``tournament``) call first."""

    def playing(self, table: Any) -> Any:
        """``table`` with only what ``act`` and ``greedy`` read: the same moves, cheap to send."""
        ...


class Searches(Protocol):
    """An agent that searches a fixed number of simulations per move (``mcts``, ``alphazero``)."""

    simulations: int
    """Simulations per move (0: it searches by time instead); read by progress bars."""


class ReportsLoss(Protocol):
    """A table that keeps the mean losses of its last training (``alphazero``'s ``Net``)."""

    iterations: int
    """Training iterations done (the loss means nothing before the first)."""

    losses: Any
    """The last training's mean losses, with a ``total`` (a float)."""


class CoversPositions(Protocol):
    """A learner that says which positions its table covers."""

    def positions(self, game: Game[Any, Any], table: Any) -> list[Any]:
        """The positions ``table`` holds values for (states of ``game``).

        Called by ``analyze`` to judge a table position by position; without it the keys of the
        table's map are read. Every position is one ``game`` can decode and step from.
        """
        ...


class FromParams(Protocol):
    """An agent class that builds itself from its spec string's options (presets, aliases)."""

    def from_params(self, params: dict[str, str]) -> Any:
        """The agent for ``params`` (option name -> text), a classmethod.

        Called by ``purestate.agent(spec)`` instead of the generic field-by-field build; raises
        ``SpecError`` for an unknown option or a bad value, as the generic build does.
        """
        ...


def check_seat(seat: Any) -> None:
    """Refuse, in one line, a seat that is not 0 (the first player) or 1 (the second).

    Agents whose tables depend on the seat call it first in ``initial_table``, so a wrong seat is
    named where it was given instead of failing games later.

    Raises:
        ValueError: for anything but the ints 0 and 1 (``True`` is not a seat).
    """
    if type(seat) is not int or seat not in (0, 1):
        raise ValueError(f"seat must be 0 (the first player) or 1 (the second); got {seat!r}")


def check_game(agent: Any, game: Game[Any, Any]) -> None:
    """Raise the agent's refusal of ``game`` (a one-line ``SpecError``) if it has one.

    Agents that need the whole game refuse one too large for them at once; the others accept
    every game.
    """
    check = check_game_of(agent)
    if check is not None:
        check(game)


@frozen
class Greedy:
    """A learner's greedy policy as an agent: it plays ``learner.greedy(game, table, state)``, or
    ``learner.greedy_decision`` (the same move, with a table kept for the game's next move) when
    the learner has it.

    What ``evaluate``, ``analyze``, ``play`` and ``tournament`` judge unless asked to explore: the
    moves the table says are best, with no exploration and no learning. The table is the
    learner's own (``initial_table`` is the learner's), so a saved table plays unchanged; ties
    are broken the way the learner's ``greedy`` breaks them (deterministically), so the key is
    not used. A ``None`` from ``greedy`` (MENACE with an empty matchbox) resigns, as the learner
    would.

    Attributes:
        learner: An agent with ``greedy(game, table, state)``.
    """

    learner: Any
    learns = False

    @property
    def spec(self) -> str:
        """The learner's spec: the table belongs to it, and reports name it."""
        return str(self.learner.spec)

    def initial_table(self, game: Game[Any, Any], seat: int) -> Any:
        """The learner's fresh table."""
        return self.learner.initial_table(game, seat)

    def act(self, game: Game[Any, Any], table: Any, state: Any, key: Key) -> Decision[Any]:
        """The learner's greedy move (``key`` is unused: there is nothing to draw), with the
        table its ``greedy_decision`` keeps for the next move if it has one (``GreedyDecides``).
        """
        decide = greedy_decision_of(self.learner)
        if decide is not None:
            decision: Decision[Any] = decide(game, table, state)
            return decision
        return Decision(self.learner.greedy(game, table, state))

    def learn(self, game: Game[Any, Any], table: Any, episode: Any, seat: int) -> Any:
        """Nothing is learned while being judged: the table comes back as it was."""
        return table

    def without_tree(self, table: Any) -> Any:
        """The learner's table without its search tree (``KeepsTree``), or as it is."""
        forget = without_tree_of(self.learner)
        return table if forget is None else forget(table)

    def check_game(self, game: Game[Any, Any]) -> None:
        """The learner's refusal of a game too large for it, if it has one."""
        check_game(self.learner, game)

    def supports_seat(self, table: Any, seat: int) -> bool:
        """The learner's answer, or True if it does not say."""
        return supports_seat(self.learner, table, seat)


def has_greedy(agent: Any) -> bool:
    """Whether ``agent`` offers a greedy policy (``greedy(game, table, state)``)."""
    return greedy_of(agent) is not None


def greedy_agent(agent: Any) -> Any:
    """The agent judged by what it learned: ``Greedy(agent)`` for a learner with a greedy
    policy, the agent itself otherwise (a fixed policy or a search has nothing to switch off)."""
    if isinstance(agent, Greedy) or not has_greedy(agent) or not agent.learns:
        return agent
    return Greedy(agent)


@frozen(eq=False)
class Trained:
    """An agent that plays from a table it learned (a table file) instead of a fresh one: how a
    round robin, which gives every entrant ``initial_table``, takes a trained learner.

    Attributes:
        agent: The agent that plays (a learner's ``Greedy`` to judge what it learned).
        table: The table it plays from, whatever seat it has.
        name: How reports name it (``table:PATH``, as the user gave it).
    """

    agent: Any
    table: Any = field(repr=False)
    name: str
    learns = False

    @property
    def spec(self) -> str:
        """The name reports give it."""
        return self.name

    def initial_table(self, game: Game[Any, Any], seat: int) -> Any:
        """The trained table."""
        return self.table

    def act(self, game: Game[Any, Any], table: Any, state: Any, key: Key) -> Decision[Any]:
        """The agent's move from ``table``."""
        decision: Decision[Any] = self.agent.act(game, table, state, key)
        return decision

    def learn(self, game: Game[Any, Any], table: Any, episode: Any, seat: int) -> Any:
        """The table as it was: a trained entrant plays, it does not learn."""
        return table

    def check_game(self, game: Game[Any, Any]) -> None:
        """The agent's refusal of a game, if it has one."""
        check_game(self.agent, game)

    def supports_seat(self, table: Any, seat: int) -> bool:
        """The agent's answer for its table, or True if it does not say."""
        return supports_seat(self.agent, table, seat)
