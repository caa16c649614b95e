"""A person against bots: one game as a value, and what each seat may see of it.

Every place a person plays (``purestate play`` in the terminal, the web play pages, the MENACE
lab's person mode) and the OpenSpiel bridge's simultaneous rounds ask the same questions: whose
turn is it, what does each bot answer, and what may each seat see. A ``Match`` answers them once:
a frozen value holding the game, the seats (an agent, or ``None`` for a person), the bots'
tables, the positions and moves so far, and how many of the moves each seat has been shown.

* ``bots_move()`` lets every bot to move act, each on its own view, until a person is to move or
  the game is over. Ply ``i`` uses ``fold_in(key, i)``, the key schedule of ``core.episode.plies``
  (a match of game ``g`` of a seeded run has ``key = fold_in(key(seed), g)``), so a match nobody
  plays in is ``core.episode.play``'s game, and a seeded game replays the same bot moves.
* ``person_moves(move)`` plays a person's move, checked against the rules: an illegal one raises
  ``IllegalMove`` and, the value being immutable, nothing changes.
* ``view(seat)`` is the position that seat may see: the game's ``observation`` hook
  (``core.hooks.observation_of``) while the game runs, the whole position once it is over. Under
  Tron's simultaneous rules a round's committed first move is hidden from the other seat until
  the round resolves; ``shown[seat]`` counts the moves revealed to the seat so far, and
  ``news(earlier, seat)`` the ones revealed since an earlier value of the match.

A bot that carries a clock (the web server's move budget) has it injected before it is seated:
the match never reads a clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import evolve, frozen

from purestate.core.agent import Agent
from purestate.core.episode import Episode, agent_moves, resign_returns
from purestate.core.game import Game, IllegalMove, require_game
from purestate.core.hooks import observation_of
from purestate.core.keys import Key, fold_in


def hidden_from(game: Game[Any, Any], state: Any, seat: int) -> bool:
    """Whether ``state`` holds something ``seat`` may not see yet (a committed, unresolved move):
    the seat's ``observation`` of it differs from it."""
    observe = observation_of(game)
    return observe is not None and observe(state, seat) != state


def hides_moves(game: Game[Any, Any]) -> bool:
    """Whether the game hides moves (Tron's simultaneous rules hide the committed first move of a
    round): the position after the start's first move is hidden from the player then to move."""
    if observation_of(game) is None:
        return False
    s = game.initial()
    if game.is_over(s):
        return False
    s = game.step(s, game.legal(s)[0])
    return not game.is_over(s) and hidden_from(game, s, game.to_move(s))


def _shown(game: Game[Any, Any], states: Sequence[Any], over: bool, seat: int) -> int:
    """How many of the moves that led to ``states[-1]`` ``seat`` may see: all once the game is
    over; otherwise up to the last position that hides nothing from it."""
    k = len(states) - 1
    if over:
        return k
    while k > 0 and hidden_from(game, states[k], seat):
        k -= 1
    return k


@frozen
class Match:
    """One game between seats that are bots or people (see the module docstring).

    Make one with ``Match.start``; every operation returns a new value.

    Attributes:
        game: The game.
        agents: ``agents[p]`` plays seat ``p``; ``None`` is a person, who moves through
            ``person_moves``.
        tables: ``tables[p]`` is the table bot ``p`` plays from (replaced when its decision
            carries one); a person's entry is not read.
        key: The game's key: ply ``i`` uses ``fold_in(key, i)``.
        states: ``states[0]`` is the start, ``states[i + 1]`` follows ``moves[i]``.
        moves: The moves played.
        movers: ``movers[i]`` is the seat that played ``moves[i]``.
        resigned: The seat that resigned (a bot whose decision was no move), or ``None``.
        shown: ``shown[p]`` is how many of ``moves`` seat ``p`` has been shown.
    """

    game: Game[Any, Any]
    agents: tuple[Agent | None, Agent | None]
    tables: tuple[Any, Any]
    key: Key
    states: tuple[Any, ...]
    moves: tuple[Any, ...] = ()
    movers: tuple[int, ...] = ()
    resigned: int | None = None
    shown: tuple[int, int] = (0, 0)

    @classmethod
    def start(
        cls,
        game: Game[Any, Any],
        agents: Sequence[Agent | None],
        tables: Sequence[Any],
        key: Key,
        start: Any = None,
    ) -> Match:
        """A match at ``start`` (default: the game's start), nobody having moved.

        Raises:
            NotAGame: for an object that is not a purestate game (a pyspiel game, say).
        """
        require_game(game, start)  # a pyspiel game, say: one line saying how to bridge it
        state = game.initial() if start is None else start
        a0, a1 = agents
        t0, t1 = tables
        return cls(game, (a0, a1), (t0, t1), key, (state,))

    @property
    def state(self) -> Any:
        """The position now (the whole of it: what no seat may see is in it)."""
        return self.states[-1]

    @property
    def over(self) -> bool:
        """Whether the game has ended, by its rules or by a bot resigning."""
        return self.resigned is not None or self.game.is_over(self.state)

    @property
    def to_move(self) -> int | None:
        """The seat to move, or ``None`` once the game is over."""
        return None if self.over else self.game.to_move(self.state)

    def persons_turn(self) -> bool:
        """Whether a person is to move."""
        p = self.to_move
        return p is not None and self.agents[p] is None

    @property
    def returns(self) -> tuple[float, float]:
        """The result per seat: the game's returns (zeros while it runs), or a resignation's."""
        if self.resigned is not None:
            return resign_returns(self.resigned)
        r0, r1 = self.game.returns(self.state)
        return (r0, r1)

    def view(self, seat: int) -> Any:
        """The position ``seat`` may see: its observation while the game runs (under simultaneous
        rules, without the other seat's committed move), the whole position once it is over."""
        observe = observation_of(self.game)
        if observe is None or self.over:
            return self.state
        return observe(self.state, seat)

    def news(self, earlier: Match, seat: int) -> tuple[tuple[int, Any], ...]:
        """The ``(mover, move)`` pairs revealed to ``seat`` since ``earlier`` (a value this match
        grew from), in the order played."""
        start, end = earlier.shown[seat], self.shown[seat]
        return tuple(zip(self.movers[start:end], self.moves[start:end], strict=True))

    def episode(self) -> Episode:
        """The finished game as an ``Episode``.

        Raises:
            ValueError: while the game runs.
        """
        if not self.over:
            raise ValueError("the game is not over")
        return Episode(self.states, self.moves, self.movers, self.returns, self.resigned)

    def _after(self, seat: int, move: Any, state: Any, tables: tuple[Any, Any]) -> Match:
        states = (*self.states, state)
        over = self.game.is_over(state)
        shown = (_shown(self.game, states, over, 0), _shown(self.game, states, over, 1))
        return evolve(self, tables=tables, states=states, moves=(*self.moves, move),
                      movers=(*self.movers, seat), shown=shown)  # fmt: skip

    def person_moves(self, move: Any) -> Match:
        """The match after the person to move plays ``move`` (a move id, as ``Game.step`` takes:
        parse text with ``game.parse_move(match.view(seat), text)``).

        Raises:
            IllegalMove: the game is over, a bot is to move, or the rules refuse ``move``; the
                match is unchanged.
        """
        p = self.to_move
        if p is None:
            raise IllegalMove("the game is over")
        if self.agents[p] is not None:
            raise IllegalMove("it is not a person's turn")
        return self._after(p, move, self.game.step(self.state, move), self.tables)

    def bots_move(self) -> Match:
        """The match after every bot to move has acted, until a person is to move or the game is
        over (a bot that resigns ends it). Each bot acts on ``view`` of its seat with the ply's
        key; a decision's table replaces the bot's.

        Raises:
            IllegalMove: a bot chose a move the rules refuse (a bug in the bot).
        """
        match = self
        observe = observation_of(self.game)
        while (p := match.to_move) is not None:
            bot = match.agents[p]
            if bot is None:
                break
            ply_key = fold_in(match.key, len(match.moves))
            decision, state = agent_moves(
                match.game, bot, match.tables[p], match.state, p, ply_key, observe
            )
            tables = match.tables
            if decision.table is not None:
                tables = (decision.table, tables[1]) if p == 0 else (tables[0], decision.table)
            if state is None:
                # a resignation ends the game: every seat may see all of it
                done = len(match.moves)
                return evolve(match, tables=tables, resigned=p, shown=(done, done))
            match = match._after(p, decision.move, state, tables)
        return match
