"""Self-play on one shared table, computed faster than the generic fold but to the same table.

``fold_selfplay`` is the fold itself (one ``play`` and two ``learn`` calls a game).
``keyed_selfplay`` runs any ``TDLearner``'s own ``update`` on a local dict of rows instead of one
persistent map per move. ``qlearning_selfplay`` goes further for Q-learning: every position met
is numbered once, with its legal moves, its table row and the move maps through the symmetry,
so the loop never hashes a state or calls the game again for a position it has seen. Both fused
loops select moves with ``policy.epsilon_greedy`` and Q-learning's backs up with
``backup.q_backups``, exactly as ``act`` and ``learn`` do, so the result is the very same table
(tested).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pyrsistent import pmap

from purestate.agents.td.backup import q_backups
from purestate.agents.td.policy import epsilon_greedy, explore_threshold
from purestate.agents.td.tables import COUNT_LIMIT, EMPTY, QTable, Work
from purestate.core.episode import Episode, play
from purestate.core.game import Game
from purestate.core.hooks import score_of
from purestate.core.keys import Key, fold_bits, fold_in

if TYPE_CHECKING:
    from purestate.agents.td.learner import TabularLearner, TDLearner
    from purestate.agents.td.qlearning import QLearning

POSITION_CACHE_LIMIT = 1 << 20
"""Positions the fused loops remember before they start afresh (memory on big boards)."""


def _filled(t: int) -> Any:
    raise AssertionError(f"ply {t}: the fused loop fills every row before its backups")


def fold_selfplay(
    agent: TabularLearner,
    game: Game[Any, Any],
    table: QTable,
    key: Key,
    games: int,
    start: int,
    played: list[Episode] | None,
) -> QTable:
    """The self-play fold as ``train`` computes it: play a game, learn it from both seats."""
    t = table
    for i in range(start, start + games):
        ep = play(game, (agent, agent), (t, t), fold_in(key, i))
        t = agent.learn(game, agent.learn(game, t, ep, 0), ep, 1)
        if played is not None:
            played.append(ep)
    return t


def keyed_selfplay(
    agent: TDLearner,
    game: Game[Any, Any],
    table: QTable,
    key: Key,
    games: int,
    start: int,
    played: list[Episode] | None,
) -> QTable:
    """Self-play for any ``TDLearner``: its ``update`` on rows kept as lists for the whole run."""
    if games <= 0:
        return fold_selfplay(agent, game, table, key, games, start, played)
    keying = agent.keying(game)
    keys_seen: dict[Any, tuple[Any, int]] = {}

    def kf(state: Any) -> tuple[Any, int]:
        # one key object per position, so the row look-ups below hit on identity
        found = keys_seen.get(state)
        if found is None:
            found = keying.key(state)
            if len(keys_seen) < POSITION_CACHE_LIMIT:
                found = (found_rep.setdefault(found[0], found[0]), found[1])
                keys_seen[state] = found
        return found

    found_rep: dict[Any, Any] = {}
    work = Work(EMPTY, keying, game, kf)
    rows = work.rows
    for k, v in table.q.items():
        rows[k] = list(v)
        found_rep[k] = k
    g0, g1 = table.games
    legal, step, is_over, to_move = game.legal, game.step, game.is_over, game.to_move
    transform_move, inverse = game.transform_move, game.inverse
    for i in range(start, start + games):
        gkey = fold_in(key, i)
        threshold = explore_threshold(agent.epsilon_at(max(g0, g1)))
        s = game.initial()
        states = [s]
        moves: list[Any] = []
        movers: list[int] = []
        ply = 0
        while not is_over(s):
            options = legal(s)
            rep, g = kf(s)
            j, greedy = epsilon_greedy(fold_bits(gkey, ply), threshold, len(options), rows.get(rep))
            if greedy:
                m = legal(rep)[j]
                if g:
                    m = transform_move(m, inverse(g))
            else:
                m = options[j]
            movers.append(to_move(s))
            s = step(s, m)
            moves.append(m)
            states.append(s)
            ply += 1
        ep = Episode(tuple(states), tuple(moves), tuple(movers), game.returns(s))
        if played is not None:
            played.append(ep)
        if moves:
            agent.update(game, work, ep, 0)
            agent.update(game, work, ep, 1)
            g0 += 1
            g1 += 1
    games_ = (min(g0, COUNT_LIMIT), min(g1, COUNT_LIMIT))
    return QTable(pmap({k: tuple(v) for k, v in rows.items()}), table.visits, games_)


def qlearning_selfplay(
    agent: QLearning,
    game: Game[Any, Any],
    table: QTable,
    key: Key,
    games: int,
    start: int,
    played: list[Episode] | None,
) -> QTable:
    """``QLearning.selfplay`` on small ints (see the module's docstring)."""
    if games <= 0:
        return fold_selfplay(agent, game, table, key, games, start, played)
    keying = agent.keying(game)
    score = score_of(game) if agent.rewards == "score" else None
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
    g0, g1 = table.games
    root_state = game.initial()
    root = position(root_state)
    for gi_ in range(start, start + games):
        if len(p_state) > POSITION_CACHE_LIMIT:
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
        threshold = explore_threshold(agent.epsilon_at(max(g0, g1)))
        here = root
        path = [here]
        picks = []
        ply = 0
        while not p_over[here]:
            j, greedy = epsilon_greedy(
                fold_bits(gkey, ply), threshold, len(p_legal[here]), rows[p_row[here]]
            )
            if greedy:
                j = p_back[here][j]
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
        # every position on the path gets a row (one seat or the other learns its move), so the
        # rows are made before the sweeps: a new row of zeros is worth what an unseen one is
        ply_rows: list[list[float] | None] = []
        for q in path[:-1]:
            r = p_row[q]
            row = rows[r]
            if row is None:
                row = rows[r] = [0.0] * len(p_legal[q])
            ply_rows.append(row)
        slots = [p_slot[path[t]][picks[t]] for t in range(n)]
        for seat in (0, 1):
            q_backups(movers, phi, seat, negamax, alpha, gamma, ply_rows, slots, _filled, _filled)
        g0 += 1
        g1 += 1
    q_map = pmap({row_key[r]: tuple(row) for r, row in enumerate(rows) if row is not None})
    return QTable(q_map, table.visits, (min(g0, COUNT_LIMIT), min(g1, COUNT_LIMIT)))


LOOPS: dict[str, Callable[..., QTable]] = {
    "fold": fold_selfplay,
    "keyed": keyed_selfplay,
    "qlearning": qlearning_selfplay,
}
"""The self-play loops by the name a learner's ``selfplay_loop`` gives."""
