"""The Agent protocol: a frozen config plus pure functions.

```
initial_table(game, seat) -> Table          beads, Q-values, a search tree, or None
act(game, table, state, key) -> Decision    the move (None = resign), and for search the new tree
learn(game, table, episode, seat) -> Table  a NEW table; the old one is unchanged
```

Hyperparameters live in the config (the agent object); whatever changes over time lives in the
table, so ``act`` and ``learn`` stay pure.

An agent that needs the whole game (the perfect player, MENACE) also has
``check_game(game) -> None``, which refuses a game too large for it at once; ``initial_table``
calls it, and a command that starts many games calls ``check_game(agent, game)`` first.
"""

from __future__ import annotations

from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from attrs import frozen

from purestate.core.game import Game
from purestate.core.keys import Key

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


def check_game(agent: Any, game: Game[Any, Any]) -> None:
    """Raise the agent's refusal of ``game`` (a one-line ``SpecError``) if it has one.

    Agents that need the whole game refuse one too large for them at once; the others accept
    every game.
    """
    check = getattr(agent, "check_game", None)
    if check is not None:
        check(game)


@frozen
class Greedy:
    """A learner's greedy policy as an agent: it plays ``learner.greedy(game, table, state)``.

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
        """The learner's greedy move (``key`` is unused: there is nothing to draw)."""
        return Decision(self.learner.greedy(game, table, state))

    def learn(self, game: Game[Any, Any], table: Any, episode: Any, seat: int) -> Any:
        """Nothing is learned while being judged: the table comes back as it was."""
        return table

    def check_game(self, game: Game[Any, Any]) -> None:
        """The learner's refusal of a game too large for it, if it has one."""
        check_game(self.learner, game)

    def supports_seat(self, table: Any, seat: int) -> bool:
        """The learner's answer, or True if it does not say."""
        supports = getattr(self.learner, "supports_seat", None)
        return True if supports is None else bool(supports(table, seat))


def has_greedy(agent: Any) -> bool:
    """Whether ``agent`` offers a greedy policy (``greedy(game, table, state)``)."""
    return callable(getattr(agent, "greedy", None))


def greedy_agent(agent: Any) -> Any:
    """The agent judged by what it learned: ``Greedy(agent)`` for a learner with a greedy
    policy, the agent itself otherwise (a fixed policy or a search has nothing to switch off)."""
    if isinstance(agent, Greedy) or not has_greedy(agent) or not agent.learns:
        return agent
    return Greedy(agent)
