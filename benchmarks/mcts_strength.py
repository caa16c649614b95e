"""Strength: our agent vs OpenSpiel's Python ``MCTSBot``, seats alternating, through move ids.

Run: ``PYTHONPATH=src python benchmarks/strength_mcts.py [--game tictactoe] [--games 100]
[--ours mcts:simulations=1000] [--sims 1000] [--jobs 2] [--seed 0]``

Peer: ``MCTSBot(game, uct_c=2, max_simulations=--sims, RandomRolloutEvaluator(1), solve=True)``
with a NumPy ``RandomState`` seeded per game. Ours: any agent spec (``--ours``); a ``seconds``
budget gets the thread's CPU clock, so ``--ours mcts:simulations=0,seconds=0.5`` plays at equal
time when 0.5 s is the peer's time per move (printed at the end).

The adapter keeps one state per engine and checks after every move that both agree on the legal
moves' count and, at the end, on the result. Move ids are OpenSpiel's for tic-tac-toe; for
ultimate tic-tac-toe ours are ``board * 9 + cell`` and OpenSpiel splits a free move into
"choose board" and "cell", so its two actions become one of our moves and back.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import time
from typing import Any

import purestate
from purestate.agents.timing import with_clock
from purestate.core import keys
from purestate.core.learning import wilson

PEER_NAMES = {"tictactoe": "tic_tac_toe", "ultimate_tictactoe": "ultimate_tic_tac_toe"}


def _choosing_board(ps: Any) -> bool:
    actions = ps.legal_actions()
    return bool(actions) and ps.action_to_string(ps.current_player(), actions[0]).startswith(
        "Choose"
    )


def to_peer(name: str, ps: Any, move: int) -> list[int]:
    """Our move as the peer's action(s)."""
    if name == "ultimate_tictactoe":
        board, cell = divmod(move, 9)
        return [board, cell] if _choosing_board(ps) else [cell]
    return [move]


def play_one(args: tuple[str, str, int, int, int]) -> tuple[int, float, float, int]:
    """One game: returns (our seat, our return, peer CPU seconds, peer moves)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    name, ours_spec, sims, seed, index = args
    game = purestate.make(name)
    ours = with_clock(purestate.agent(ours_spec), time.thread_time)
    seat = index % 2
    rs = np.random.RandomState(seed * 100_003 + index)
    pgame = pyspiel.load_game(PEER_NAMES[name])
    bot = mcts.MCTSBot(pgame, 2, sims, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    ps = pgame.new_initial_state()
    s = game.initial()
    table = ours.initial_table(game, seat)
    k = keys.fold_in(keys.key(seed), index)
    ply = 0
    peer_time = 0.0
    peer_moves = 0
    while not game.is_over(s):
        if game.to_move(s) == seat:
            d = ours.act(game, table, s, keys.fold_in(k, ply))
            if d.table is not None:
                table = d.table
            move = d.move
            for a in to_peer(name, ps, move):
                ps.apply_action(a)
        else:
            t = time.process_time()
            a = bot.step(ps)
            if name == "ultimate_tictactoe" and _choosing_board(ps):
                ps.apply_action(a)
                c = bot.step(ps)
                ps.apply_action(c)
                move = a * 9 + c
            else:
                ps.apply_action(a)
                move = a if name != "ultimate_tictactoe" else game.legal(s)[0] // 9 * 9 + a
            peer_time += time.process_time() - t
            peer_moves += 1
        s = game.step(s, move)
        ply += 1
        if not game.is_over(s):
            assert not ps.is_terminal(), "the engines disagree: the peer's game is over"
    assert ps.is_terminal(), "the engines disagree: the peer's game goes on"
    assert ps.returns()[seat] == game.returns(s)[seat], "the engines disagree on the result"
    return seat, game.returns(s)[seat], peer_time, peer_moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="tictactoe", choices=sorted(PEER_NAMES))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--ours", default="mcts:simulations=1000")
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.game not in purestate.games():
        print(f"{args.game} is not registered on this branch")
        return
    work = [(args.game, args.ours, args.sims, args.seed, i) for i in range(args.games)]
    t0 = time.time()
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play_one, work))
    wins = sum(1 for _, r, _, _ in results if r > 0)
    draws = sum(1 for _, r, _, _ in results if r == 0)
    losses = len(results) - wins - draws
    score = (wins + 0.5 * draws) / len(results)
    low, high = wilson(wins + 0.5 * draws, len(results))
    per_seat = {}
    for seat in (0, 1):
        rs = [r for s, r, _, _ in results if s == seat]
        per_seat[seat] = (
            sum(r > 0 for r in rs),
            sum(r == 0 for r in rs),
            sum(r < 0 for r in rs),
        )
    peer_time = sum(t for _, _, t, _ in results) / max(1, sum(m for _, _, _, m in results))
    print(f"{args.game}: {args.ours} vs OpenSpiel MCTSBot(uct_c=2, {args.sims} sims, solve)")
    print(
        f"games {len(results)}  W/D/L {wins}/{draws}/{losses}  score {score:.3f} "
        f"(95% Wilson {low:.3f}..{high:.3f})"
    )
    print(f"as first player W/D/L {per_seat[0]}, as second {per_seat[1]}")
    print(f"peer CPU time per move {peer_time:.3f} s; wall {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
