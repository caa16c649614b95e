"""The ceiling of a compiled MCTS tree on ultimate tic-tac-toe, beside OpenSpiel's C++ MCTSBot.

Run: ``PYTHONPATH=src python benchmarks/mcts_tree_ceiling.py [--reps R]``

A prototype, not the agent: ``mcts:simulations=1000``'s search (UCB1 with c = 0.3 on rewards in
[0, 1], the MCTS-Solver's proven children skipped and lower bounds raised in the backup, decisive
expansion, one random playout per simulation with the agent's playout keys) written in numba over
arrays for this one game, with its own move shuffle on the counter stream. It measures what the
compiled tree designed in docs/architecture.md ("The MCTS tree") can reach; it does not give the
agent's trees (the agent shuffles with ``keys.generator``). Both searches run from the start and
from bench_kernels' mid-game position, taking turns; the ratio is the median of the per-round
ratios. Also printed: the root's mean reward beside the Python agent's, to show the prototype
does the same work.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from typing import Any

import numpy as np
from numba import njit

import purestate
from bench_kernels import positions
from purestate.agents.mcts import MCTS, Tree
from purestate.core import batch, compiled, keys
from purestate.games.kernels.stream import draw, seed
from purestate.games.kernels.ultimate import _WINS, winner

WIDTH = 23
"""A state row: X's nine board masks, O's nine, won by X, won by O, closed, target, to move."""
WX, WO, CLOSED, TARGET, TO_MOVE = 18, 19, 20, 21, 22
OVER = -2


@njit
def legal(row: Any, out: Any) -> int:
    k = 0
    t = row[TARGET]
    for b in range(9):
        if (t >= 0 and b != t) or row[CLOSED] >> b & 1:
            continue
        occ = row[b] | row[9 + b]
        for c in range(9):
            if not occ >> c & 1:
                out[k] = 9 * b + c
                k += 1
    return k


@njit
def step(row: Any, m: int, out: Any) -> None:
    out[:] = row
    b, c, p = m // 9, m % 9, row[TO_MOVE]
    out[9 * p + b] |= 1 << c
    over = False
    if _WINS[out[9 * p + b]]:
        out[CLOSED] |= 1 << b
        out[WX + p] |= 1 << b
        over = _WINS[out[WX + p]] or out[CLOSED] == 511
    elif out[b] | out[9 + b] == 511:
        out[CLOSED] |= 1 << b
        over = out[CLOSED] == 511
    out[TO_MOVE] = 1 - p
    out[TARGET] = OVER if over else -1 if out[CLOSED] >> c & 1 else c


@njit
def reward0(row: Any) -> float:
    return 1.0 if _WINS[row[WX]] else 0.0 if _WINS[row[WO]] else 0.5


@njit
def playout0(row: Any, k: int) -> float:
    """Player 0's reward of the ultimate kernel's random game from ``row`` with key ``k``."""
    xl, xh, ol, oh = 0, 0, 0, 0
    for b in range(5):
        xl |= row[b] << 9 * b
        ol |= row[9 + b] << 9 * b
    for b in range(5, 9):
        xh |= row[b] << 9 * (b - 5)
        oh |= row[9 + b] << 9 * (b - 5)
    boards = row[WX] | row[WO] << 9 | row[CLOSED] << 18
    w = winner(xl, xh, ol, oh, boards, row[TARGET], row[TO_MOVE], seed(k))
    return 1.0 if w == 0 else 0.0 if w == 1 else 0.5


@njit
def prove(v: int, player: Any, mover: Any, proven: Any, lower: Any, kids: Any, nk: Any,
          nu: Any) -> bool:  # fmt: skip
    best = -1.0
    complete = nu[v] == 0 and nk[v] > 0
    for i in range(nk[v]):
        pv = proven[kids[v, i]]
        if pv < 0:
            complete = False
        elif pv > best:
            best = pv
    lower[v] = best
    if best >= 1.0 or (complete and best >= 0.0):
        p = player[v]
        proven[v] = best if mover[v] == p or mover[v] == -1 else 1.0 - best
        return True
    return False


@njit
def search(root: Any, sims: int, c: float, k_shuffle: int, sim_keys: Any) -> tuple[int, int, float]:
    """Simulations run, the root's visits and its summed reward for player 1 (as the agent's)."""
    cap = 6 * sims + 200
    rows = np.empty((cap, WIDTH), np.int64)
    n = np.zeros(cap, np.int64)
    w = np.zeros(cap, np.float64)
    proven = np.full(cap, -1.0)
    lower = np.full(cap, -1.0)
    mover = np.empty(cap, np.int64)
    player = np.empty(cap, np.int64)
    kids = np.empty((cap, 81), np.int64)
    nk = np.zeros(cap, np.int64)
    untried = np.empty((cap, 81), np.int64)
    nu = np.zeros(cap, np.int64)
    moves = np.empty(81, np.int64)
    path = np.empty(128, np.int64)
    s_shuffle = seed(k_shuffle)
    j = 0
    rows[0] = root
    mover[0], player[0] = -1, root[TO_MOVE]
    size = 1
    new = 0  # the node to expand: the root first, then each simulation's new node
    sim = 0
    while True:
        if new >= 0:  # decisive expansion: the moves that end the game become proven children
            count = legal(rows[new], moves)
            for i in range(count - 1, 0, -1):
                r = int(draw(s_shuffle, j) * (i + 1))
                j += 1
                moves[i], moves[r] = moves[r], moves[i]
            p = player[new]
            for i in range(count):
                ch = size
                step(rows[new], moves[i], rows[ch])
                if rows[ch, TARGET] == OVER:
                    size += 1
                    mover[ch], player[ch] = p, -1
                    r0 = reward0(rows[ch])
                    proven[ch] = r0 if p == 0 else 1.0 - r0
                    kids[new, nk[new]] = ch
                    nk[new] += 1
                else:
                    untried[new, nu[new]] = moves[i]
                    nu[new] += 1
            if nk[new]:
                prove(new, player, mover, proven, lower, kids, nk, nu)
            if sim == 0 and new == 0:
                new = -1
                continue
        else:
            if sim == sims or proven[0] >= 0 or size > cap - 82:
                return sim, n[0], w[0]
            v, depth = 0, 0
            path[0] = 0
            while proven[v] < 0 and player[v] >= 0:
                if nu[v]:
                    nu[v] -= 1
                    ch = size
                    size += 1
                    step(rows[v], untried[v, nu[v]], rows[ch])
                    mover[ch] = player[v]
                    kids[v, nk[v]] = ch
                    nk[v] += 1
                    depth += 1
                    path[depth] = ch
                    v = ch
                    if rows[ch, TARGET] == OVER:
                        player[ch] = -1
                        r0 = reward0(rows[ch])
                        proven[ch] = r0 if mover[ch] == 0 else 1.0 - r0
                    else:
                        player[ch] = rows[ch, TO_MOVE]
                        new = ch
                    break
                lg = c * math.sqrt(math.log(n[v])) if n[v] > 1 else 0.0
                best, best_score = -1, -1.0
                for i in range(nk[v]):
                    ch = kids[v, i]
                    if proven[ch] < 0:
                        score = w[ch] / n[ch] + lg / math.sqrt(n[ch])
                        if score > best_score:
                            best, best_score = ch, score
                v = best
                depth += 1
                path[depth] = v
            if new >= 0:
                continue  # expand the new node first (it may be proven at once)
        v = path[depth]
        if proven[v] >= 0:
            pv = proven[v]
            r0 = pv if mover[v] == 0 else 1.0 - pv
        else:
            r0 = playout0(rows[v], sim_keys[sim])
        for i in range(depth, -1, -1):
            u = path[i]
            low = lower[u]
            if low >= 0.0:
                if player[u] == 0:
                    r0 = max(r0, low)
                elif 1.0 - r0 < low:
                    r0 = 1.0 - low
            n[u] += 1
            w[u] += r0 if mover[u] == 0 else 1.0 - r0
        if proven[v] >= 0:
            for i in range(depth - 1, -1, -1):
                if not prove(path[i], player, mover, proven, lower, kids, nk, nu):
                    break
        sim += 1
        new = -1


def row_of(s: Any) -> Any:
    row = np.zeros(WIDTH, np.int64)
    for b in range(9):
        row[b] = s.x >> 9 * b & 511
        row[9 + b] = s.o >> 9 * b & 511
    row[WX], row[WO], row[CLOSED] = s.boards & 511, s.boards >> 9 & 511, s.boards >> 18
    row[TARGET], row[TO_MOVE] = s.target, s.to_move
    return row


def main() -> None:
    import pyspiel

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args()
    game = purestate.make("ultimate_tictactoe")
    peer = pyspiel.load_game("ultimate_tic_tac_toe")
    print("ultimate tic-tac-toe, 1,000 simulations, simulations per CPU second")
    for where, (state, actions) in positions(game).items():
        row = row_of(state)
        ps = peer.new_initial_state()
        for a in actions:
            ps.apply_action(a)
        ours, cpp, means = [], [], []
        for rep in range(args.reps + 1):
            k_rng, k_playout, _ = keys.split(keys.key(rep), 3)
            t = time.process_time()
            sim_keys = batch.key_range(k_playout, 0, 1000).view(np.int64)
            done, visits, w1 = search(row, 1000, 0.3, compiled.as_int64(k_rng), sim_keys)
            rate = done / (time.process_time() - t)
            bot = pyspiel.MCTSBot(peer, pyspiel.RandomRolloutEvaluator(1, rep), 2.0, 1000, 1000,
                                  True, rep, False)  # fmt: skip
            t = time.process_time()
            bot.step(ps)
            if rep:  # the first round compiles and warms up
                ours.append(rate)
                cpp.append(1000 / (time.process_time() - t))
                agent = MCTS().search(game, Tree(), state, keys.key(rep)).root
                assert agent is not None
                means.append((w1 / visits, agent.w / agent.n))
        ratio = statistics.median(a / b for a, b in zip(ours, cpp, strict=True))
        mine = statistics.mean(m for m, _ in means)
        theirs = statistics.mean(m for _, m in means)
        print(
            f"{where:9} compiled tree {statistics.median(ours):9,.0f}"
            f" ({min(ours):,.0f}-{max(ours):,.0f})  C++ {statistics.median(cpp):8,.0f}"
            f"  {ratio:.1f}x;  root mean (player 1) {mine:.3f}, the agent's {theirs:.3f}"
        )


if __name__ == "__main__":
    main()
