"""Tabular temporal-difference learners: Q-learning (``qlearning``) and SARSA(λ) (``sarsa``).

Both are generic over games and correct for two-player games in which the same player may move
twice in a row (dots and boxes, Xtreme tic-tac-toe's bonus move). Values are always from the point
of view of the player who moves in the position, and two ways of bootstrapping are offered
(reference §5.4):

``bootstrap=negamax`` (default)
    One table holds minimax values for whoever is to move. The target of a move is its reward
    plus the discounted value of the next position, **negated only when the turn passes** to the
    other player (as OpenSpiel's C++ tabular solvers do). Both seats' moves must reach the table,
    so train it by self-play on one shared table (``train(..., shared=True)`` calls ``learn`` once
    per seat; each call learns that seat's moves).
``bootstrap=own``
    Each seat bootstraps at **its own next decision**, treating the opponent as part of the
    environment (as OpenSpiel's Python ``QLearner`` does). Use it to learn against a fixed
    opponent; it also works on a shared table.

Rewards: ``rewards=score`` (default) pays each move the change in the mover's running margin
(``game.score`` — boxes in dots and boxes; games without a running score pay only at the end) and
the rest of the return at the end, so a game's rewards always add up to its return.
``rewards=end`` pays only the return at the end. When rewards are per point and the game's returns
are margins, the mover's future depends only on the drawing, not on the score so far; the table is
then keyed by ``game.unscored(state)`` where the game offers it (dots and boxes: 4,096 line sets on
2×2 instead of every history of scores).

``symmetric=true`` keys the table by the canonical form of the position and maps moves through
the symmetry (570 keys on 2×2 dots and boxes, 765 in tic-tac-toe).

Everything that changes while learning lives in the table (values, the episode count that drives
the exploration schedule, the seed preset's visit counts), so ``act`` is a pure function of the
table, the state and the key. ``learn`` returns a new table and never changes its input.

``preset=seed`` reproduces the seed notebook's learner faithfully, flaws included (see
``docs/agents/td.md``): α 0.2, γ 0.8, +100 / -100 per box to the capturer / to the opponent's last
move, +200 / -200 / +50 on the last move for a win / loss / tie (each overwriting that move's
reward), a table keyed by the drawing alone with **no sign flip** (it bootstraps on the value of
the position after its own move as if it were its own), updates in reverse order after each game,
and exploration random → least-visited → greedy over the first 10% / next 40% / last 50% of
``episodes`` games.

Bounds: every value is a finite number within ``±Q_LIMIT`` and every count (visits, games per
seat) a whole number from 0 to ``COUNT_LIMIT``. Learning clamps to them, so its arithmetic never
overflows into infinities or NaN and every table it makes loads again; a table file outside them
is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Literal

from attrs import frozen
from pyrsistent import PMap, pmap

from purestate.core.agent import Decision
from purestate.core.episode import Episode, play
from purestate.core.game import Game
from purestate.core.keys import Key, bits, choice, fold_bits, fold_in
from purestate.core.spec import SpecError, build, format_spec

Values = tuple[float, ...]
Q_LIMIT = 1e9
"""The largest magnitude of a value. Games pay far less (±1 for a result, a margin of boxes, the
seed preset's ±200 per move), so only a broken file comes near it."""
COUNT_LIMIT = 2**53
"""The largest count a table holds: exact as a float (the exploration schedule divides by it) and
in any JSON reader."""
_SEED_FLOOR = -2000.0
_SEED_ALPHA = 0.2  # the seed's LEARNING_RATE
_SEED_GAMMA = 0.8  # the seed's DISCOUNT_RATE
_EMPTY: PMap[Any, Any] = pmap()  # the seed's "negative infinity" when it looks for the best Q value


@frozen
class QTable:
    """A learner's table: immutable, shared freely, replaced (never changed) by ``learn``.

    Attributes:
        q: Position key -> the values of its moves, in the order of ``game.legal(key)``.
        visits: Position key -> how many updates started there (only the seed preset keeps them).
        games: How many episodes each seat has learned from; the exploration schedule reads the
            larger (self-play on a shared table counts each episode once per seat).
    """

    q: PMap[Any, Values] = _EMPTY
    visits: PMap[Any, int] = _EMPTY
    games: tuple[int, int] = (0, 0)

    @property
    def episodes(self) -> int:
        """The number of training games seen (the schedule's clock)."""
        return max(self.games)


@frozen
class _Keying:
    """How positions become table keys for one game and one learner."""

    game: Game[Any, Any]
    unscored: Callable[[Any], Any] | None
    symmetric: bool

    def key(self, state: Any) -> tuple[Any, int]:
        """The table key of ``state`` and the symmetry that maps the state onto it."""
        s = self.unscored(state) if self.unscored is not None else state
        if self.symmetric:
            rep, g = self.game.canonical(s)
            return rep, g
        return s, 0


class _TD:
    """What Q-learning and SARSA(λ) share: options, keys, the policy, persistence.

    Attributes:
        alpha: Step size.
        gamma: Discount per move (negamax) or per own decision (own).
        epsilon: Exploration rate (the start of a linear schedule).
        epsilon_end: Where the linear schedule ends.
        schedule: ``linear`` (epsilon to epsilon_end over ``episodes`` games, then constant) or
            ``constant`` (epsilon throughout).
        episodes: The schedule's length in training games (the seed preset's planned games).
        symmetric: Key the table by canonical positions.
        rewards: ``score`` (per point, e.g. per box) or ``end`` (the return only).
        bootstrap: ``negamax`` (sign flip when the turn passes) or ``own`` (own next decision).
        preset: ``seed`` to reproduce the seed notebook's learner (its own constants then replace
            every other option but ``episodes``).
    """

    name: str = ""
    alpha: float
    gamma: float
    epsilon: float
    epsilon_end: float
    schedule: Literal["constant", "linear"]
    episodes: int
    symmetric: bool
    rewards: Literal["score", "end"]
    bootstrap: Literal["negamax", "own"]
    preset: Literal["none", "seed"]

    learns = True

    def _check(self) -> None:
        if not 0.0 < self.alpha <= 1.0:
            raise ValueError(f"alpha must be in (0, 1]; got {self.alpha}")
        if not 0.0 <= self.gamma <= 1.0:
            raise ValueError(f"gamma must be in [0, 1]; got {self.gamma}")
        for name, v in (("epsilon", self.epsilon), ("epsilon_end", self.epsilon_end)):
            if not 0.0 <= v <= 1.0:
                raise ValueError(f"{name} must be in [0, 1]; got {v}")
        if self.episodes < 1:
            raise ValueError(f"episodes must be at least 1; got {self.episodes}")

    @property
    def spec(self) -> str:
        """The spec string that rebuilds this learner."""
        if self.preset == "seed":
            return f"{self.name}:preset=seed" + (
                f",episodes={self.episodes}" if self.episodes != 10_000 else ""
            )
        return format_spec(self.name, self)

    @classmethod
    def _from_params(cls, name: str, params: dict[str, str]) -> Any:
        if params.get("preset") == "seed":
            rest = {k: v for k, v in params.items() if k not in ("preset", "episodes")}
            if rest:
                raise SpecError(
                    f"{name}:preset=seed fixes every option but 'episodes'; "
                    f"remove {', '.join(sorted(rest))}"
                )
            seed = dict(
                alpha="0.2",
                gamma="0.8",
                symmetric="false",
                rewards="score",
                bootstrap="own",
                preset="seed",
                schedule="constant",
                epsilon="0",
            )
            seed["episodes"] = params.get("episodes", "10000")
            return build(cls, name, seed)
        return build(cls, name, params)

    # -- keys and values ---------------------------------------------------------------------

    def _keying(self, game: Game[Any, Any]) -> _Keying:
        return _keying_for(self, game)

    def _make_keying(self, game: Game[Any, Any]) -> _Keying:
        unscored = getattr(game, "unscored", None)
        # per-point rewards on a margin game: the future does not depend on the score so far
        if unscored is not None and (self.rewards != "score" or game.spec.outcomes is not None):
            unscored = None
        if self.preset == "seed":
            # the seed keys its table by the drawing alone, whatever the rewards, no symmetry
            return _Keying(game, getattr(game, "unscored", None), False)
        return _Keying(game, unscored, self.symmetric)

    def epsilon_at(self, episodes: int) -> float:
        """The exploration rate after ``episodes`` training games."""
        if self.schedule == "constant":
            return self.epsilon
        frac = min(1.0, episodes / self.episodes)
        return self.epsilon + (self.epsilon_end - self.epsilon) * frac

    def initial_table(self, game: Game[Any, Any], seat: int) -> QTable:
        """An empty table (unseen values are 0)."""
        return QTable()

    def move_values(self, game: Game[Any, Any], table: QTable, state: Any) -> dict[Any, float]:
        """The table's value of each legal move in ``state`` (0 for unseen ones)."""
        keying = self._keying(game)
        rep, g = keying.key(state)
        vals = table.q.get(rep)
        moves = game.legal(state)
        if vals is None:
            return dict.fromkeys(moves, 0.0)
        rep_moves = game.legal(rep)
        return {m: vals[rep_moves.index(game.transform_move(m, g))] for m in moves}

    def positions(self, game: Game[Any, Any], table: QTable) -> list[Any]:
        """The positions the table covers (its keys: canonical and/or unscored positions)."""
        return list(table.q.keys())

    def greedy(self, game: Game[Any, Any], table: QTable, state: Any) -> Any:
        """The table's best move in ``state`` (the first of equals in ``game.legal`` order)."""
        vals = self.move_values(game, table, state)
        best_move = None
        best = _SEED_FLOOR if self.preset == "seed" else float("-inf")
        for m, v in vals.items():
            if v > best:
                best, best_move = v, m
        if best_move is None:  # the seed returns its first move when every value is below -2000
            best_move = game.legal(state)[0]
        return best_move

    def act(self, game: Game[Any, Any], table: QTable, state: Any, key: Key) -> Decision[Any]:
        """ε-greedy on the table (ties broken at random); the seed preset's three phases."""
        if self.preset == "seed":
            return Decision(self._seed_act(game, table, state, key))
        moves = game.legal(state)
        # one 64-bit draw: the high half decides whether to explore, the low half picks a move
        x = bits(key)
        pick = x & 0xFFFFFFFF
        eps = self.epsilon_at(table.episodes)
        if eps > 0.0 and (x >> 32) < eps * 4294967296.0:
            return Decision(moves[(pick * len(moves)) >> 32])
        rep, g = _keying_for(self, game).key(state)
        vals = table.q.get(rep)
        if vals is None:
            return Decision(moves[(pick * len(moves)) >> 32])
        top = max(vals)
        best = [i for i, v in enumerate(vals) if v == top]
        i = best[0] if len(best) == 1 else best[(pick * len(best)) >> 32]
        rep_move = game.legal(rep)[i]
        return Decision(game.transform_move(rep_move, game.inverse(g)) if g else rep_move)

    def _seed_act(self, game: Game[Any, Any], table: QTable, state: Any, key: Key) -> Any:
        count = table.episodes + 1  # the seed counts games from 1
        moves = game.legal(state)
        if count < self.episodes / 10:
            return choice(key, moves)
        if count < self.episodes / 2:
            # 'simple': the move whose next position has been updated least often
            keying = self._keying(game)
            best_move, fewest = moves[0], 1_000_000
            for m in moves:
                n = table.visits.get(keying.key(game.step(state, m))[0], 0)
                if n < fewest:
                    best_move, fewest = m, n
            return best_move
        return self.greedy(game, table, state)

    # -- learning ----------------------------------------------------------------------------

    def _potentials(self, game: Game[Any, Any], ep: Episode) -> list[float]:
        """Player 0's running margin along the episode; the last entry is the return."""
        score = getattr(game, "score", None) if self.rewards == "score" else None
        out = [score(s)[0] if score is not None else 0.0 for s in ep.states[:-1]]
        out.append(ep.returns[0])
        return out

    def learn(self, game: Game[Any, Any], table: QTable, episode: Episode, seat: int) -> QTable:
        """A new table updated from the moves ``seat`` played in ``episode``."""
        if not episode.moves:
            return table
        if self.preset == "seed":
            return self._seed_learn(game, table, episode, seat)
        work = _Work(table.q, self._keying(game), game)
        self._update(game, work, episode, seat)
        return QTable(work.persist(), table.visits, _counted(table.games, seat))

    def _update(self, game: Game[Any, Any], work: _Work, ep: Episode, seat: int) -> None:
        raise NotImplementedError

    def _seed_learn(self, game: Game[Any, Any], table: QTable, ep: Episode, seat: int) -> QTable:
        score = getattr(game, "score", None)
        memory: tuple[list[list[Any]], list[list[Any]]] = ([], [])
        for t, (s, m, p) in enumerate(zip(ep.states, ep.moves, ep.movers, strict=False)):
            nxt = ep.states[t + 1]
            memory[p].append([s, m, nxt, 0.0])
            if score is not None and score(nxt)[p] > score(s)[p]:
                memory[p][-1][3] = 100.0
                if memory[1 - p]:
                    memory[1 - p][-1][3] = -100.0
        r = ep.returns
        for p in (0, 1):
            if memory[p]:
                memory[p][-1][3] = 50.0 if r[0] == r[1] else 200.0 if r[p] > r[1 - p] else -200.0
        work = _Work(table.q, self._keying(game), game)
        counts: dict[Any, int] = {}
        for s, m, nxt, reward in reversed(memory[seat]):
            row, i = work.slot(s, m)
            nxt_best = 0.0 if game.is_over(nxt) else work.best(nxt)
            v = (1 - _SEED_ALPHA) * row[i] + _SEED_ALPHA * (reward + _SEED_GAMMA * nxt_best)
            row[i] = v if -Q_LIMIT <= v <= Q_LIMIT else _clamp(v)
            k = work.keying.key(s)[0]
            counts[k] = min(COUNT_LIMIT, counts.get(k, table.visits.get(k, 0)) + 1)
        return QTable(work.persist(), table.visits.update(counts), _counted(table.games, seat))

    # -- the fused self-play loop -------------------------------------------------------------

    def selfplay(
        self, game: Game[Any, Any], table: QTable, key: Key, games: int, start: int = 0
    ) -> QTable:
        """The table after ``games`` games of self-play on one shared table.

        Exactly the fold ``train(game, (self, self), (table, table), key, learning=(True, True),
        shared=True, start=start)`` computes (same games, same moves, same values; a test checks
        it), run as one loop on a local dict instead of one persistent map per move: the fast
        path for long training runs and the benchmark.
        """
        return self._selfplay(game, table, key, games, start, None)

    def selfplay_games(
        self, game: Game[Any, Any], table: QTable, key: Key, games: int, start: int = 0
    ) -> tuple[QTable, tuple[Episode, ...]]:
        """``selfplay``, and the games it played (what ``purestate selfplay`` logs)."""
        played: list[Episode] = []
        return self._selfplay(game, table, key, games, start, played), tuple(played)

    def _selfplay(
        self,
        game: Game[Any, Any],
        table: QTable,
        key: Key,
        games: int,
        start: int,
        played: list[Episode] | None,
    ) -> QTable:
        if self.preset == "seed" or games <= 0:
            t = table
            for i in range(start, start + games):
                ep = _play_self(self, game, t, fold_in(key, i))
                t = self.learn(game, self.learn(game, t, ep, 0), ep, 1)
                if played is not None:
                    played.append(ep)
            return t
        if isinstance(self, QLearning):
            return _qlearning_selfplay(self, game, table, key, games, start, played)
        keying = _keying_for(self, game)
        keys_seen: dict[Any, tuple[Any, int]] = {}

        def kf(state: Any) -> tuple[Any, int]:
            # one key object per position, so the row look-ups below hit on identity
            found = keys_seen.get(state)
            if found is None:
                found = keying.key(state)
                if len(keys_seen) < 1 << 20:
                    found = (found_rep.setdefault(found[0], found[0]), found[1])
                    keys_seen[state] = found
            return found

        found_rep: dict[Any, Any] = {}
        work = _Work(_EMPTY, keying, game, kf)
        rows = work.rows
        for k, v in table.q.items():
            rows[k] = list(v)
            found_rep[k] = k
        g0, g1 = table.games
        legal, step, is_over, to_move = game.legal, game.step, game.is_over, game.to_move
        transform_move, inverse = game.transform_move, game.inverse
        for i in range(start, start + games):
            gkey = fold_in(key, i)
            eps = self.epsilon_at(max(g0, g1))
            threshold = eps * 4294967296.0 if eps > 0.0 else -1.0
            s = game.initial()
            states = [s]
            moves: list[Any] = []
            movers: list[int] = []
            ply = 0
            while not is_over(s):
                options = legal(s)
                x = fold_bits(gkey, ply)
                pick = x & 0xFFFFFFFF
                if (x >> 32) < threshold:
                    m = options[(pick * len(options)) >> 32]
                else:
                    rep, g = kf(s)
                    vals = rows.get(rep)
                    if vals is None:
                        m = options[(pick * len(options)) >> 32]
                    else:
                        top = max(vals)
                        best = [j for j, v in enumerate(vals) if v == top]
                        j = best[0] if len(best) == 1 else best[(pick * len(best)) >> 32]
                        m = legal(rep)[j]
                        if g:
                            m = transform_move(m, inverse(g))
                movers.append(to_move(s))
                s = step(s, m)
                moves.append(m)
                states.append(s)
                ply += 1
            ep = Episode(tuple(states), tuple(moves), tuple(movers), game.returns(s))
            if played is not None:
                played.append(ep)
            if moves:
                self._update(game, work, ep, 0)
                self._update(game, work, ep, 1)
                g0 += 1
                g1 += 1
        games_ = (min(g0, COUNT_LIMIT), min(g1, COUNT_LIMIT))
        return QTable(pmap({k: tuple(v) for k, v in rows.items()}), table.visits, games_)

    # -- persistence -------------------------------------------------------------------------

    @property
    def table_format(self) -> str:
        """``purestate.qtable/1``."""
        return "purestate.qtable/1"

    def _key_kind(self, game: Game[Any, Any]) -> str:
        k = self._keying(game)
        return ("unscored" if k.unscored is not None else "state") + (
            "+canonical" if k.symmetric else ""
        )

    def table_to_json(self, game: Game[Any, Any], table: QTable) -> Any:
        """``{"keys": ..., "episodes": [..], "q": {position: {move: value}}, "visits": ...}``."""
        enc = game.encode
        q = {}
        for k, vals in table.q.items():
            q[enc(k)] = {_move_text(game, m): v for m, v in zip(game.legal(k), vals, strict=True)}
        return {
            "keys": self._key_kind(game),
            "per_seat_games": list(table.games),
            "q": q,
            "visits": {enc(k): n for k, n in table.visits.items()},
        }

    def table_from_json(self, game: Game[Any, Any], data: Any) -> QTable:
        """The table from ``table_to_json``'s data (positions decoded, moves back to ints).

        A valid table is keyed the way this learner keys (``keys``); its ``q`` maps positions
        where the game is not over to ``{move: value}`` with legal moves and finite values within
        ``±Q_LIMIT`` (a move left out is worth 0); ``visits`` maps positions to counts and
        ``per_seat_games`` holds two counts, counts being whole numbers from 0 to ``COUNT_LIMIT``.

        Raises:
            ValueError: one line naming the first bad position, move or field.
        """
        if not isinstance(data, dict) or not isinstance(data.get("q"), dict):
            raise ValueError("no 'q' object of position -> {move: value}")
        if data.get("keys") != self._key_kind(game):
            raise ValueError(
                f"the table is keyed by {data.get('keys')!r} but this learner keys by "
                f"{self._key_kind(game)!r} (check the symmetric/rewards options)"
            )
        q: Any = pmap().evolver()
        for text, row in data["q"].items():
            state = _position(game, text)
            if game.is_over(state):
                raise ValueError(f"position {text!r}: the game is already over there")
            if not isinstance(row, dict):
                raise ValueError(f"position {text!r}: expected {{move: value}}")
            legal = game.legal(state)
            vals: list[float | None] = [None] * len(legal)
            for mtext, v in row.items():
                m = _move_from_text(game, state, str(mtext))
                if m not in legal:
                    raise ValueError(f"position {text!r}: {mtext!r} is not a legal move there")
                i = legal.index(m)
                if vals[i] is not None:
                    raise ValueError(f"position {text!r}: move {mtext!r} is given twice")
                vals[i] = _value(v, f"position {text!r}, move {mtext!r}")
            q[state] = tuple(0.0 if v is None else v for v in vals)
        raw_visits = data.get("visits", {})
        if not isinstance(raw_visits, dict):
            raise ValueError("'visits' must be an object of position -> count")
        visits: Any = pmap().evolver()
        for text, n in raw_visits.items():
            if not _is_count(n):
                raise ValueError(
                    f"visit count {n!r} of {text!r} is not a whole number from 0 to {COUNT_LIMIT}"
                )
            visits[_position(game, text)] = n
        g = data.get("per_seat_games", [0, 0])
        if not (isinstance(g, list) and len(g) == 2 and all(_is_count(x) for x in g)):
            raise ValueError(
                f"'per_seat_games' must be two whole numbers from 0 to {COUNT_LIMIT}; got {g!r}"
            )
        return QTable(q.persistent(), visits.persistent(), (g[0], g[1]))


def _position(game: Game[Any, Any], text: str) -> Any:
    """A position of a table file, or a ValueError naming it."""
    try:
        return game.decode(text)
    except ValueError as e:
        raise ValueError(f"bad position {text!r}: {e}") from None


def _value(v: Any, where: str) -> float:
    """A table value of a file: a finite number within ``±Q_LIMIT``, or a ValueError."""
    if not isinstance(v, int | float) or isinstance(v, bool):
        raise ValueError(f"{where}: value {v!r} is not a number")
    # one comparison refuses NaN and infinities too, and compares a huge int exactly where
    # float() would overflow
    if not -Q_LIMIT <= v <= Q_LIMIT:
        raise ValueError(f"{where}: value {v!r} is not a finite number within ±{Q_LIMIT:g}")
    return float(v)


def _is_count(n: Any) -> bool:
    """Whether a file's count is a whole number from 0 to ``COUNT_LIMIT``."""
    return isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= COUNT_LIMIT


_KEYINGS: dict[tuple[Any, Any], _Keying] = {}


def _keying_for(agent: _TD, game: Game[Any, Any]) -> _Keying:
    """The keying of one learner on one game (both are immutable values, so it is memoised)."""
    k = (agent, game)
    found = _KEYINGS.get(k)
    if found is None:
        found = _KEYINGS[k] = agent._make_keying(game)
    return found


def _play_self(agent: _TD, game: Game[Any, Any], table: QTable, key: Key) -> Episode:
    return play(game, (agent, agent), (table, table), key)


class _Work:
    """Scratch space for one ``learn`` call: rows copied out of the table as lists, changed in
    place, and written back into a new persistent map at the end (the input is never touched)."""

    def __init__(
        self,
        q: PMap[Any, Values],
        keying: _Keying,
        game: Game[Any, Any],
        key: Callable[[Any], tuple[Any, int]] | None = None,
    ) -> None:
        self.q = q
        self.keying = keying
        self.key = key if key is not None else keying.key
        self.game = game
        self.rows: dict[Hashable, list[float]] = {}

    def row(self, rep: Any) -> list[float]:
        row = self.rows.get(rep)
        if row is None:
            old = self.q.get(rep)
            row = list(old) if old is not None else [0.0] * len(self.game.legal(rep))
            self.rows[rep] = row
        return row

    def slot(self, state: Any, move: Any) -> tuple[list[float], int]:
        """The row of ``state``'s key and the index of ``move`` in it."""
        rep, g = self.key(state)
        row = self.row(rep)
        m = self.game.transform_move(move, g) if g else move
        return row, self.game.legal(rep).index(m)

    def best(self, state: Any) -> float:
        """The largest value of ``state``'s moves (0 if unseen)."""
        rep = self.key(state)[0]
        row = self.rows.get(rep)
        if row is None:
            old = self.q.get(rep)
            return 0.0 if old is None else max(old)
        return max(row)

    def value(self, state: Any, move: Any) -> float:
        row, i = self.slot(state, move)
        return row[i]

    def persist(self) -> PMap[Any, Values]:
        if not self.rows:
            return self.q
        e = self.q.evolver()
        for k, row in self.rows.items():
            e[k] = tuple(row)
        return e.persistent()


def _move_text(game: Game[Any, Any], move: Any) -> str:
    """A move as a JSON key: the int id itself (independent of how the game shows moves)."""
    return str(move) if isinstance(move, int) else game.format_move(move)


def _move_from_text(game: Game[Any, Any], state: Any, text: str) -> Any:
    """The inverse of ``_move_text``: ints come back as ints."""
    if text.lstrip("-").isdigit():
        return int(text)
    try:
        return game.parse_move(state, text)
    except ValueError as e:
        raise ValueError(f"bad move {text!r}: {e}") from None


def _clamp(v: float) -> float:
    """``v`` within ``±Q_LIMIT`` (the update sites test the common in-range case inline)."""
    return Q_LIMIT if v > Q_LIMIT else -Q_LIMIT if v < -Q_LIMIT else v


def _counted(games: tuple[int, int], seat: int) -> tuple[int, int]:
    """The per-seat game counts after one more game learned from ``seat``."""
    return (
        min(COUNT_LIMIT, games[0] + (seat == 0)),
        min(COUNT_LIMIT, games[1] + (seat == 1)),
    )


def _sign(seat: int) -> float:
    return 1.0 if seat == 0 else -1.0


@frozen
class QLearning(_TD):
    """Tabular Q-learning (``qlearning``), one-step targets swept backwards through the episode.

    Its options are the ones it shares with SARSA(λ), documented in ``_TD``.
    """

    alpha: float = 0.8
    gamma: float = 1.0
    epsilon: float = 0.5
    epsilon_end: float = 0.1
    schedule: Literal["constant", "linear"] = "linear"
    episodes: int = 10_000
    symmetric: bool = True
    rewards: Literal["score", "end"] = "score"
    bootstrap: Literal["negamax", "own"] = "negamax"
    preset: Literal["none", "seed"] = "none"

    name = "qlearning"

    def __attrs_post_init__(self) -> None:
        self._check()

    @classmethod
    def from_params(cls, params: dict[str, str]) -> QLearning:
        """Build from spec options (``preset=seed`` fixes the seed's options)."""
        made: QLearning = cls._from_params("qlearning", params)
        return made

    def _update(self, game: Game[Any, Any], work: _Work, ep: Episode, seat: int) -> None:
        phi = self._potentials(game, ep)
        n = len(ep.moves)
        movers = ep.movers
        a, gamma = self.alpha, self.gamma
        lo, hi = -Q_LIMIT, Q_LIMIT
        if self.bootstrap == "negamax":
            for t in range(n - 1, -1, -1):
                if movers[t] != seat:
                    continue
                r = _sign(seat) * (phi[t + 1] - phi[t])
                target = r
                if t + 1 < n:
                    nxt = work.best(ep.states[t + 1])
                    target += gamma * (nxt if movers[t + 1] == seat else -nxt)
                row, i = work.slot(ep.states[t], ep.moves[t])
                v = row[i] + a * (target - row[i])
                row[i] = v if lo <= v <= hi else _clamp(v)
            return
        own = [t for t in range(n) if movers[t] == seat]
        for j in range(len(own) - 1, -1, -1):
            t = own[j]
            t2 = own[j + 1] if j + 1 < len(own) else n
            target = _sign(seat) * (phi[t2] - phi[t])
            if t2 < n:
                target += gamma * work.best(ep.states[t2])
            row, i = work.slot(ep.states[t], ep.moves[t])
            v = row[i] + a * (target - row[i])
            row[i] = v if lo <= v <= hi else _clamp(v)


@frozen
class Sarsa(_TD):
    """Tabular SARSA(λ) (``sarsa``): the textbook update with eligibility traces.

    Per step: ``δ = r + γ·Q(s', a') - Q(s, a)`` (``Q`` of a finished game is 0; with negamax
    bootstrapping ``Q(s', a')`` is negated when the turn passes), ``e(s, a) += 1`` (accumulating)
    or ``= 1`` (replacing), every traced pair moves by ``α·δ·e``, then traces decay by ``γλ``
    (and change sign when the turn passes). Traces start empty each episode. The episode is
    replayed forwards after it ends; each seat's call changes only that seat's pairs.

    Attributes:
        lam: λ, the trace decay (0 gives one-step SARSA).
        traces: ``accumulating`` or ``replacing``.

    The other options are as in ``QLearning``, documented in ``_TD``.
    """

    alpha: float = 0.2
    gamma: float = 1.0
    lam: float = 0.7
    traces: Literal["accumulating", "replacing"] = "replacing"
    epsilon: float = 0.5
    epsilon_end: float = 0.1
    schedule: Literal["constant", "linear"] = "linear"
    episodes: int = 10_000
    symmetric: bool = True
    rewards: Literal["score", "end"] = "score"
    bootstrap: Literal["negamax", "own"] = "negamax"
    preset: Literal["none", "seed"] = "none"

    name = "sarsa"

    def __attrs_post_init__(self) -> None:
        self._check()
        if not 0.0 <= self.lam <= 1.0:
            raise ValueError(f"lam must be in [0, 1]; got {self.lam}")
        if self.preset == "seed":
            raise ValueError("the seed notebook's learner is Q-learning: use qlearning:preset=seed")

    @classmethod
    def from_params(cls, params: dict[str, str]) -> Sarsa:
        """Build from spec options (``preset=seed`` fixes the seed's options)."""
        made: Sarsa = cls._from_params("sarsa", params)
        return made

    def _chain(self, ep: Episode, seat: int) -> list[tuple[int, int, float]]:
        """The steps of the trace chain: (ply, next ply or n, sign of the next value)."""
        n = len(ep.moves)
        if self.bootstrap == "negamax":
            return [
                (t, t + 1, 1.0 if t + 1 < n and ep.movers[t + 1] == ep.movers[t] else -1.0)
                for t in range(n)
            ]
        own = [t for t in range(n) if ep.movers[t] == seat]
        return [(t, own[j + 1] if j + 1 < len(own) else n, 1.0) for j, t in enumerate(own)]

    def _update(self, game: Game[Any, Any], work: _Work, ep: Episode, seat: int) -> None:
        phi = self._potentials(game, ep)
        n = len(ep.moves)
        states, moves, movers = ep.states, ep.moves, ep.movers
        a, gamma, lam = self.alpha, self.gamma, self.lam
        lo, hi = -Q_LIMIT, Q_LIMIT
        # trace per (row, index), in the point of view of the player of the current step
        traces: dict[tuple[int, int], tuple[list[float], int, float, bool]] = {}
        for t, t2, flip in self._chain(ep, seat):
            mover = movers[t]
            r = _sign(mover) * (phi[t2] - phi[t])
            row, i = work.slot(states[t], moves[t])
            nxt = 0.0 if t2 >= n else flip * work.value(states[t2], moves[t2])
            delta = r + gamma * nxt - row[i]
            ident = (id(row), i)
            old = traces.get(ident)
            e = 1.0 if self.traces == "replacing" or old is None else old[2] + 1.0
            traces[ident] = (row, i, e, mover == seat)
            for trow, ti, te, mine in traces.values():
                if mine:
                    v = trow[ti] + a * delta * te
                    trow[ti] = v if lo <= v <= hi else _clamp(v)
            decay = gamma * lam * flip
            if decay == 0.0:
                traces.clear()
            else:
                traces = {k: (r_, i_, e_ * decay, m_) for k, (r_, i_, e_, m_) in traces.items()}


_POSITION_CACHE_LIMIT = 1 << 20  # positions remembered by the fused loop before it starts afresh


def _qlearning_selfplay(
    agent: QLearning,
    game: Game[Any, Any],
    table: QTable,
    key: Key,
    games: int,
    start: int,
    played: list[Episode] | None = None,
) -> QTable:
    """``QLearning.selfplay`` on small ints: every position met is numbered once, with its legal
    moves, its table row and the move maps through the symmetry, so the loop never hashes a
    state or calls the game again for a position it has seen. Same arithmetic in the same order
    as ``act`` and ``_update``, so the result is the very same table (tested)."""
    keying = _keying_for(agent, game)
    score = getattr(game, "score", None) if agent.rewards == "score" else None
    legal, step, is_over, to_move = game.legal, game.step, game.is_over, game.to_move
    transform_move, inverse = game.transform_move, game.inverse
    # table rows, by row id
    row_id: dict[Any, int] = {}
    row_key: list[Any] = []
    rows: list[list[float] | None] = []
    for k, v in table.q.items():
        row_id[k] = len(rows)
        row_key.append(k)
        rows.append(list(v))
    # positions, by position id
    pos_id: dict[Any, int] = {}
    p_state: list[Any] = []
    p_legal: list[tuple[Any, ...]] = []
    p_over: list[bool] = []
    p_mover: list[int] = []
    p_phi: list[float] = []
    p_row: list[int] = []
    p_slot: list[tuple[int, ...]] = []  # legal position -> index in the row
    p_back: list[tuple[int, ...]] = []  # index in the row -> legal position
    p_child: list[list[int]] = []

    def position(s: Any) -> int:
        found = pos_id.get(s)
        if found is not None:
            return found
        i = len(p_state)
        pos_id[s] = i
        over = is_over(s)
        moves = legal(s)
        p_state.append(s)
        p_legal.append(moves)
        p_over.append(over)
        p_child.append([-1] * len(moves))
        if over:
            p_mover.append(0)
            p_phi.append(game.returns(s)[0])
            p_row.append(-1)
            p_slot.append(())
            p_back.append(())
            return i
        p_mover.append(to_move(s))
        p_phi.append(score(s)[0] if score is not None else 0.0)
        rep, g = keying.key(s)
        r = row_id.get(rep)
        if r is None:
            r = row_id[rep] = len(rows)
            row_key.append(rep)
            rows.append(None)
        p_row.append(r)
        rep_moves = legal(rep)
        p_slot.append(tuple(rep_moves.index(transform_move(m, g) if g else m) for m in moves))
        gi = inverse(g)
        p_back.append(tuple(moves.index(transform_move(m, gi) if g else m) for m in rep_moves))
        return i

    alpha, gamma, negamax = agent.alpha, agent.gamma, agent.bootstrap == "negamax"
    lo, hi = -Q_LIMIT, Q_LIMIT
    g0, g1 = table.games
    root_state = game.initial()
    root = position(root_state)
    for gi_ in range(start, start + games):
        if len(p_state) > _POSITION_CACHE_LIMIT:
            pos_id.clear()
            for lst in (
                p_state,
                p_legal,
                p_over,
                p_mover,
                p_phi,
                p_row,
                p_slot,
                p_back,
                p_child,
            ):
                lst.clear()
            root = position(root_state)
        gkey = fold_in(key, gi_)
        eps = agent.epsilon_at(max(g0, g1))
        threshold = eps * 4294967296.0 if eps > 0.0 else -1.0
        here = root
        path = [here]
        picks: list[int] = []  # legal position of each move
        ply = 0
        while not p_over[here]:
            x = fold_bits(gkey, ply)
            pick = x & 0xFFFFFFFF
            if (x >> 32) < threshold:
                j = (pick * len(p_legal[here])) >> 32
            else:
                row = rows[p_row[here]]
                if row is None:
                    j = (pick * len(p_legal[here])) >> 32
                else:
                    top = max(row)
                    # a unique best is the common case: find it without building a list
                    if row.count(top) == 1:
                        k = row.index(top)
                    else:
                        best = [k for k, v in enumerate(row) if v == top]
                        k = best[(pick * len(best)) >> 32]
                    j = p_back[here][k]
            nxt = p_child[here][j]
            if nxt < 0:
                nxt = p_child[here][j] = position(step(p_state[here], p_legal[here][j]))
            picks.append(j)
            path.append(nxt)
            here = nxt
            ply += 1
        n = len(picks)
        movers = [p_mover[q] for q in path[:-1]]
        if played is not None:
            played.append(
                Episode(
                    tuple([p_state[q] for q in path]),
                    tuple([p_legal[path[t]][picks[t]] for t in range(n)]),
                    tuple(movers),
                    game.returns(p_state[here]),
                )
            )
        if n == 0:
            continue
        phi = [p_phi[q] for q in path]
        for seat in (0, 1):
            sign = 1.0 if seat == 0 else -1.0
            if negamax:
                for t in range(n - 1, -1, -1):
                    if movers[t] != seat:
                        continue
                    target = sign * (phi[t + 1] - phi[t])
                    if t + 1 < n:
                        nrow = rows[p_row[path[t + 1]]]
                        nxt_v = 0.0 if nrow is None else max(nrow)
                        target += gamma * (nxt_v if movers[t + 1] == seat else -nxt_v)
                    q = path[t]
                    r = p_row[q]
                    row = rows[r]
                    if row is None:
                        row = rows[r] = [0.0] * len(p_legal[q])
                    i = p_slot[q][picks[t]]
                    nv = row[i] + alpha * (target - row[i])
                    row[i] = nv if lo <= nv <= hi else _clamp(nv)
            else:
                own = [t for t in range(n) if movers[t] == seat]
                for j in range(len(own) - 1, -1, -1):
                    t = own[j]
                    t2 = own[j + 1] if j + 1 < len(own) else n
                    target = sign * (phi[t2] - phi[t])
                    if t2 < n:
                        nrow = rows[p_row[path[t2]]]
                        target += gamma * (0.0 if nrow is None else max(nrow))
                    q = path[t]
                    r = p_row[q]
                    row = rows[r]
                    if row is None:
                        row = rows[r] = [0.0] * len(p_legal[q])
                    i = p_slot[q][picks[t]]
                    nv = row[i] + alpha * (target - row[i])
                    row[i] = nv if lo <= nv <= hi else _clamp(nv)
        g0 += 1
        g1 += 1
    q_map = pmap({row_key[r]: tuple(row) for r, row in enumerate(rows) if row is not None})
    return QTable(q_map, table.visits, (min(g0, COUNT_LIMIT), min(g1, COUNT_LIMIT)))
