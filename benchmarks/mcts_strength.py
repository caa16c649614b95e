"""MCTS strength: the default ``mcts`` in the matches issue 15 sets goals for, as one table.

Run: ``PYTHONPATH=src python benchmarks/mcts_strength.py [--rows uttt-sims,uttt-time,c4-sims,...]
[--games N] [--ours mcts] [--seed 0] [--log results.jsonl]``

Rows (each prints W/D/L and the score, draws counted half, with its 95% Wilson interval):

- ``uttt-sims``: ours vs OpenSpiel's Python ``MCTSBot(uct_c=2, RandomRolloutEvaluator(1),
  solve=True)`` at 1,000 simulations each on ultimate tic-tac-toe, seats alternating (goal
  ≥ 0.60 over ≥ 200 games). Needs ``purestate[openspiel]``; skipped without it.
- ``uttt-time``: the same peer, ours on a CPU-time budget per move equal to the peer's CPU time
  per move (``--seconds``, or measured in ``uttt-sims``; goal ≥ 0.80).
- ``c4-sims`` and ``c4-time``: the same two matches on connect four (7×6, OpenSpiel's
  ``connect_four``; issue 22's goals: ≥ 0.60 over ≥ 400 games, ≥ 0.80 at equal CPU time).
- ``ttt``: ours at 300 simulations vs ``random`` on tic-tac-toe, ``--ttt-games`` per seat (goal:
  no loss in 1,000 per seat); W/D/L per seat.
- ``ttt-replies``: the second player's reply to each of the nine first moves, searched with
  ``--ttt-replies`` keys each at ``--ttt-sims`` simulations: how many replies lose against
  perfect play (the exact solver decides). Every tic-tac-toe loss to ``random`` starts with such
  a reply, so this count measures the risk far more finely than games do.
- ``xtreme``: ours vs ``xtreme2019`` on Xtreme tic-tac-toe, both on ``--xtreme-seconds`` of CPU
  time per move (goal ≥ 0.65 over ≥ 200 games).

Every game is one process-pool task (``--jobs``) with its own key; with ``--log`` each finished
game is appended to a JSON-lines file, and a rerun with the same file skips the games already in
it, so a long run can be stopped and continued and the table always covers what has been played.
Time budgets use ``time.process_time`` of the worker, so the load of the machine does not change
a budget (``thread_time`` would not count the peer's native code on another thread).

The peer plays OpenSpiel's own C++ game: the adapter keeps one state per engine and checks after
every move that both agree on the legal moves' count and, at the end, on the result. Move ids are
OpenSpiel's for tic-tac-toe and connect four; for ultimate tic-tac-toe ours are ``board * 9 +
cell`` and OpenSpiel splits a free move into "choose board" and "cell", so its two actions become
one of our moves and back.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import time
from pathlib import Path
from typing import Any

import purestate
from purestate.agents.timing import with_clock
from purestate.core import keys
from purestate.core.learning import wilson

PEER_NAMES = {
    "tictactoe": "tic_tac_toe",
    "ultimate_tictactoe": "ultimate_tic_tac_toe",
    "connect_four": "connect_four",
}
# the rows against the peer: the game and the label of each row's prefix
PEER_ROWS = {"uttt": ("ultimate_tictactoe", "UTTT"), "c4": ("connect_four", "connect four")}
ROWS = ("uttt-sims", "uttt-time", "c4-sims", "c4-time", "ttt", "ttt-replies", "xtreme")
PART = [0, 1]  # this process plays the games K, K + N, ... of those not yet logged (--part K/N)


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


def vs_peer(name: str, ours_spec: str, sims: int, seed: int, index: int) -> dict[str, Any]:
    """One game against OpenSpiel's ``MCTSBot``; ours takes seat ``index % 2``."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = purestate.make(name)
    ours = with_clock(purestate.agent(ours_spec), time.process_time)
    seat = index % 2
    rs = np.random.RandomState(seed * 100_003 + index)
    pgame = pyspiel.load_game(PEER_NAMES[name])
    bot = mcts.MCTSBot(pgame, 2, sims, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    ps = pgame.new_initial_state()
    s = game.initial()
    table = ours.initial_table(game, seat)
    k = keys.fold_in(keys.key(seed), index)
    ply = 0
    times = [0.0, 0.0]  # CPU seconds: ours, the peer's
    moves = [0, 0]
    while not game.is_over(s):
        t = time.process_time()
        if game.to_move(s) == seat:
            d = ours.act(game, table, s, keys.fold_in(k, ply))
            if d.table is not None:
                table = d.table
            move = d.move
            for a in to_peer(name, ps, move):
                ps.apply_action(a)
            who = 0
        else:
            a = bot.step(ps)
            if name == "ultimate_tictactoe" and _choosing_board(ps):
                ps.apply_action(a)
                c = bot.step(ps)
                ps.apply_action(c)
                move = a * 9 + c
            else:
                ps.apply_action(a)
                move = a if name != "ultimate_tictactoe" else game.legal(s)[0] // 9 * 9 + a
            who = 1
        times[who] += time.process_time() - t
        moves[who] += 1
        s = game.step(s, move)
        ply += 1
        if not game.is_over(s):
            assert not ps.is_terminal(), "the engines disagree: the peer's game is over"
    assert ps.is_terminal(), "the engines disagree: the peer's game goes on"
    assert ps.returns()[seat] == game.returns(s)[seat], "the engines disagree on the result"
    return {
        "seat": seat,
        "result": float(game.returns(s)[seat]),
        "ours_time": times[0],
        "ours_moves": moves[0],
        "peer_time": times[1],
        "peer_moves": moves[1],
    }


def vs_agent(
    game_spec: str, ours_spec: str, theirs_spec: str, seed: int, index: int
) -> dict[str, Any]:
    """One game of ours against another purestate agent; ours takes seat ``index % 2``. Both
    agents get the worker's CPU clock (for ``seconds`` budgets)."""
    game = purestate.make_spec(game_spec)
    ours = with_clock(purestate.agent(ours_spec), time.process_time)
    theirs = with_clock(purestate.agent(theirs_spec), time.process_time)
    seat = index % 2
    agents = (ours, theirs) if seat == 0 else (theirs, ours)
    tables = tuple(a.initial_table(game, p) for p, a in enumerate(agents))
    ep = purestate.play(game, agents, tables, keys.fold_in(keys.key(seed), index))
    return {"seat": seat, "result": float(ep.outcome(seat))}


def bad_replies(ours_spec: str, first: int, reps: int) -> dict[str, Any]:
    """How many of ``reps`` searches (keys 0, 1, ...) answer the first move ``first`` with a
    move that loses against perfect play."""
    from purestate.solve import solve

    game = purestate.make("tictactoe")
    exact = solve(game)
    ours = purestate.agent(ours_spec)
    s = game.step(game.initial(), first)
    bad = 0
    for r in range(reps):
        move = ours.act(game, ours.initial_table(game, 1), s, keys.key(r)).move
        bad += exact.value(game.step(s, move)) > exact.value(s)  # player 0's value went up
    return {"seat": 1, "result": float(bad), "reps": reps}


def _task(job: tuple[str, tuple[Any, ...]]) -> dict[str, Any]:
    kind, args = job
    if kind == "replies":
        return bad_replies(*args)
    return vs_peer(*args) if kind == "peer" else vs_agent(*args)


def _load(log: Path | None) -> dict[str, dict[str, Any]]:
    done: dict[str, dict[str, Any]] = {}
    if log is not None and log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                done[rec["id"]] = rec
    return done


def _play(
    label: str, jobs: list[tuple[str, tuple[Any, ...]]], workers: int, log: Path | None
) -> list[dict[str, Any]]:
    """Play the games not yet in ``log`` and return every game's record, in order."""
    done = _load(log)
    ids = [f"{label}|{json.dumps(job[1])}" for job in jobs]
    todo = [(i, job) for i, job in zip(ids, jobs, strict=True) if i not in done]
    todo = todo[PART[0] :: PART[1]]
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        futures = {pool.submit(_task, job): i for i, job in todo}
        for fut in concurrent.futures.as_completed(futures):
            rec = {"id": futures[fut], **fut.result()}
            done[rec["id"]] = rec
            if log is not None:
                with log.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(rec) + "\n")
    return [done[i] for i in ids if i in done]


def row(label: str, results: list[dict[str, Any]]) -> str:
    """One table row: W/D/L per seat and the score with its 95% Wilson interval."""
    w = sum(r["result"] > 0 for r in results)
    d = sum(r["result"] == 0 for r in results)
    n = len(results)
    seats = []
    for seat in (0, 1):
        rs = [r["result"] for r in results if r["seat"] == seat]
        seats.append(f"{sum(x > 0 for x in rs)}/{sum(x == 0 for x in rs)}/{sum(x < 0 for x in rs)}")
    if not n:
        return f"| {label} | 0 | - | - | - |"
    low, high = wilson(w + 0.5 * d, n)
    score = (w + 0.5 * d) / n
    return (
        f"| {label} | {n} | {w} / {d} / {n - w - d} | {seats[0]} | {seats[1]} | "
        f"{score:.3f} ({low:.3f}–{high:.3f}) |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--rows", default=",".join(ROWS), help="comma-separated: " + ", ".join(ROWS)
    )
    parser.add_argument("--ours", default="mcts", help="our agent's spec (no budget options)")
    parser.add_argument("--games", type=int, default=200, help="games per match (seats alternate)")
    parser.add_argument("--sims", type=int, default=1000, help="simulations each at equal count")
    parser.add_argument(
        "--seconds", type=float, default=0.0, help="uttt-time, c4-time: CPU s per move"
    )
    parser.add_argument("--ttt-games", type=int, default=1000, help="ttt: games per seat")
    parser.add_argument("--ttt-sims", type=int, default=300)
    parser.add_argument("--ttt-replies", type=int, default=100, help="ttt-replies: keys each")
    parser.add_argument("--xtreme-seconds", type=float, default=0.1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log", type=Path, default=None, help="JSON lines of finished games")
    parser.add_argument(
        "--part", default="0/1", help="K/N: play every Nth unlogged game from the Kth (shards)"
    )
    args = parser.parse_args()
    k, _, n = args.part.partition("/")
    PART[:] = [int(k), int(n)]
    rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    unknown = [r for r in rows if r not in ROWS]
    if unknown:
        parser.error(f"unknown rows {unknown}; rows: {', '.join(ROWS)}")
    try:
        import pyspiel  # noqa: F401

        has_peer = True
    except ImportError:
        has_peer = False
    sep = "," if ":" in args.ours else ":"
    lines = ["| match | games | W / D / L | as first | as second | score (95% Wilson) |"]
    lines.append("| --- | --- | --- | --- | --- | --- |")
    peer_seconds = {prefix: args.seconds for prefix in PEER_ROWS}
    for r in rows:
        prefix, _, kind = r.partition("-")
        if prefix in PEER_ROWS and not has_peer:
            lines.append(f"| {r} | skipped: needs purestate[openspiel] | | | | |")
            continue
        if prefix in PEER_ROWS:
            name, title = PEER_ROWS[prefix]
            if kind == "sims":
                spec = f"{args.ours}{sep}simulations={args.sims}"
            elif not peer_seconds[prefix]:
                parser.error(f"{r} needs --seconds or the {prefix}-sims row first")
            else:
                spec = f"{args.ours}{sep}simulations=0,seconds={peer_seconds[prefix]}"
            jobs = [("peer", (name, spec, args.sims, args.seed, i)) for i in range(args.games)]
            res = _play(r, jobs, args.jobs, args.log)
            lines.append(row(f"{title} `{spec}` vs peer {args.sims} sims", res))
            per = sum(x["peer_time"] for x in res) / max(1, sum(x["peer_moves"] for x in res))
            mine = sum(x["ours_time"] for x in res) / max(1, sum(x["ours_moves"] for x in res))
            if kind == "sims":
                peer_seconds[prefix] = peer_seconds[prefix] or round(per, 3)
            print(lines[-1], flush=True)
            lines.append(f"| (CPU s per move: ours {mine:.3f}, peer {per:.3f}) | | | | | |")
        elif r == "ttt":
            spec = f"{args.ours}{sep}simulations={args.ttt_sims}"
            jobs = [
                ("agent", ("tictactoe", spec, "random", args.seed, i))
                for i in range(2 * args.ttt_games)
            ]
            res = _play(r, jobs, args.jobs, args.log)
            lines.append(row(f"tic-tac-toe `{spec}` vs random", res))
        elif r == "ttt-replies":
            spec = f"{args.ours}{sep}simulations={args.ttt_sims}"
            jobs = [("replies", (spec, first, args.ttt_replies)) for first in range(9)]
            res = _play(r, jobs, args.jobs, args.log)
            bad = int(sum(x["result"] for x in res))
            n = sum(x["reps"] for x in res)
            low, high = wilson(bad, n)
            lines.append(
                f"| tic-tac-toe `{spec}`: replies that lose vs perfect play | {n} | {bad} | | | "
                f"{bad / max(1, n):.3f} ({low:.3f}–{high:.3f}) |"
            )
        else:
            s = args.xtreme_seconds
            spec = f"{args.ours}{sep}simulations=0,seconds={s}"
            theirs = f"xtreme2019:simulations=0,seconds={s}"
            jobs = [
                ("agent", ("xtreme_tictactoe", spec, theirs, args.seed, i))
                for i in range(args.games)
            ]
            res = _play(r, jobs, args.jobs, args.log)
            lines.append(row(f"Xtreme `{spec}` vs `{theirs}`", res))
        print(lines[-1], flush=True)
    print()
    print("\n".join(lines))


if __name__ == "__main__":
    main()
