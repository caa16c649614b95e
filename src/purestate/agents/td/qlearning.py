"""Tabular Q-learning (``qlearning``): one-step targets swept backwards through the episode, and
its fused self-play loop (``qlearning_selfplay``)."""

from __future__ import annotations

from typing import Any

from attrs import frozen
from pyrsistent import pmap

from purestate.agents.td import selfplay as loops
from purestate.agents.td.backup import q_backups
from purestate.agents.td.learner import TDLearner, td_options
from purestate.agents.td.notebook import NOTEBOOK_PRESET, QLearningNotebook
from purestate.agents.td.policy import epsilon_greedy, explore_threshold
from purestate.agents.td.tables import COUNT_LIMIT, QTable, Work
from purestate.core import history
from purestate.core.episode import Episode
from purestate.core.game import Game
from purestate.core.hooks import score_of
from purestate.core.keys import Key, fold_bits, fold_in
from purestate.core.spec import SpecError


def _filled(t: int) -> Any:
    raise AssertionError(f"ply {t}: the fused loop fills every row before its backups")


def qlearning_selfplay(
    agent: QLearning,
    game: Game[Any, Any],
    table: QTable,
    key: Key,
    games: int,
    start: int,
    played: list[Episode] | None,
) -> QTable:
    """``QLearning.selfplay`` on small ints: every position met is numbered once, with its legal
    moves, its table row and the move maps through the symmetry, so the loop never hashes a state
    or calls the game again for a position it has seen. Moves are selected with
    ``policy.epsilon_greedy`` and backed up with ``backup.q_backups``, exactly as ``act`` and
    ``learn`` do, so the result is the very same table (tested)."""
    if games <= 0:
        return table
    representation = agent.representation(game)
    score = score_of(game) if agent.rewards == "score" else None
    legal, step, is_over, to_move = game.legal, game.step, game.is_over, game.to_move
    transform_move, inverse = game.transform_move, game.inverse
    # table rows, by row id
    row_id: dict[Any, int] = {}
    row_position: list[Any] = []
    rows: list[list[float] | None] = []
    for rep, values in table.q.items():
        row_id[rep] = len(rows)
        row_position.append(rep)
        rows.append(list(values))
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
        rep, g = representation.of(s)
        r = row_id.get(rep)
        if r is None:
            r = row_id[rep] = len(rows)
            row_position.append(rep)
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
        if len(p_state) > loops.POSITION_CACHE_LIMIT:
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
    q_map = pmap({row_position[r]: tuple(row) for r, row in enumerate(rows) if row is not None})
    return QTable(q_map, table.visits, (min(g0, COUNT_LIMIT), min(g1, COUNT_LIMIT)))


@frozen(these=td_options(alpha=0.8))
class QLearning(TDLearner):
    """Tabular Q-learning (``qlearning``), one-step targets swept backwards through the episode.

    ``qlearning:preset=notebook`` (or its older name ``preset=seed``) builds the notebook's
    learner, ``qlearning_notebook``.

    Its options are the ones it shares with SARSA(λ), documented in ``TDLearner``.
    """

    name = "qlearning"
    selfplay_loop = qlearning_selfplay  # the fold's table, on small ints

    def __attrs_post_init__(self) -> None:
        self._check()

    @classmethod
    def from_params(cls, params: dict[str, str]) -> Any:
        """Build from spec options; ``preset=notebook`` (alias ``seed``) is the notebook's
        learner, ``qlearning_notebook``, which keeps only ``episodes``."""
        preset = params.get("preset")
        if history.preset("qlearning", preset) == NOTEBOOK_PRESET:
            rest = {k: v for k, v in params.items() if k not in ("preset", "episodes")}
            if rest:
                raise SpecError(
                    f"qlearning:preset={preset} (the notebook's learner, qlearning_notebook) "
                    f"fixes every option but 'episodes'; remove {', '.join(sorted(rest))}"
                )
            return QLearningNotebook.from_params({k: v for k, v in params.items() if k != "preset"})
        if preset not in (None, "none"):
            raise SpecError(
                f"qlearning option 'preset' must be one of none, notebook (or seed); got {preset!r}"
            )
        made: QLearning = cls._from_params("qlearning", params)
        return made

    def update(self, game: Game[Any, Any], work: Work, ep: Episode, seat: int) -> None:
        """One-step Q-learning backups of ``seat``'s moves, last move first."""
        states, moves = ep.states, ep.moves
        n = len(moves)
        slots = [0] * n

        def write(t: int) -> list[float]:
            row, slots[t] = work.slot(states[t], moves[t])
            return row

        q_backups(
            ep.movers,
            self.potentials(game, ep),
            seat,
            self.bootstrap == "negamax",
            self.alpha,
            self.gamma,
            [None] * n,
            slots,
            lambda t: work.best(states[t]),
            write,
        )
