"""The OpenSpiel bridge's figures (issue 14): agreement, overhead, strength, and the other way.

Run: ``PYTHONPATH=src python benchmarks/interop.py [--games 1000] [--playouts 3000]
[--strength 200] [--simulations 1000] [--episodes 2000]
[--only differential,overhead,strength,rl]``

- **Differential**: random games through the bridge (``purestate.make("openspiel:NAME")``, moves
  drawn from our keys), each replayed in lockstep on a native pyspiel state; counts the positions
  where the legal moves, the player to move or (at the end) the returns differ.
- **Overhead**: random playouts through the bridge (immutable states: ``game.step``) against
  pyspiel's own clone-per-step loop (``s = s.clone(); s.apply_action(a)``), the same moves drawn
  the same way, CPU time in one run; the ratio is native time / bridge time (1.0 = as fast).
- **Strength**: our default ``mcts`` against OpenSpiel's ``MCTSBot``
  (``openspiel_mcts:simulations=N``: uct_c 2, random rollouts) on connect_four at N simulations
  each, seats alternating; the score counts a draw as half, with its 95% Wilson interval.
- **RL environment** (the other way): random episodes of OpenSpiel's ``rl_environment`` over
  ``as_pyspiel(game)`` (observation tensors from our planes) against the same over OpenSpiel's own
  C++ game (and, for tic-tac-toe, its Python one), CPU time in one run; the ratio is their time
  / ours.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import pyspiel

import purestate
from purestate.core import keys

DIFFERENTIAL = ("connect_four", "breakthrough", "hex")


def differential(name: str, games: int) -> dict[str, int]:
    """Mismatches between the bridge and native pyspiel over ``games`` random games."""
    game = purestate.make(f"openspiel:{name}")
    native_game = pyspiel.load_game(name)
    bad = {"legal": 0, "player": 0, "returns": 0, "terminal": 0, "positions": 0}
    for i in range(games):
        k = keys.key(i)
        s = game.initial()
        n = native_game.new_initial_state()
        ply = 0
        while True:
            bad["positions"] += 1
            over = game.is_over(s)
            if over != n.is_terminal():
                bad["terminal"] += 1
                break
            if over:
                bad["returns"] += game.returns(s) != tuple(n.returns())
                break
            bad["legal"] += game.legal(s) != tuple(n.legal_actions())
            bad["player"] += game.to_move(s) != n.current_player()
            move = keys.choice(keys.fold_in(k, ply), game.legal(s))
            s = game.step(s, move)
            n.apply_action(move)
            ply += 1
    return bad


def _timed(fn: Callable[[], Any]) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def overhead(name: str, playouts: int) -> tuple[float, float]:
    """CPU seconds of ``playouts`` random playouts: (through the bridge, pyspiel clone-per-step).

    Both draw each move with ``random.Random(i).choice`` over the legal moves, so they play the
    same games and only the stepping differs.
    """
    game = purestate.make(f"openspiel:{name}")
    native_game = pyspiel.load_game(name)

    def bridge() -> None:
        for i in range(playouts):
            rng = random.Random(i)
            s = game.initial()
            while not game.is_over(s):
                s = game.step(s, rng.choice(game.legal(s)))

    def native() -> None:
        for i in range(playouts):
            rng = random.Random(i)
            s = native_game.new_initial_state()
            while not s.is_terminal():
                a = rng.choice(s.legal_actions())
                s = s.clone()
                s.apply_action(a)

    bridge()  # warm both (imports, caches) before measuring
    native()
    return _timed(bridge), _timed(native)


def strength(games: int, simulations: int) -> tuple[float, int, int, int]:
    """Our default ``mcts`` against ``openspiel_mcts``, seats alternating: (score, W, D, L)."""
    game = purestate.make("openspiel:connect_four")
    ours = purestate.agent("mcts" if simulations == 1000 else f"mcts:simulations={simulations}")
    theirs = purestate.agent(f"openspiel_mcts:simulations={simulations}")
    w = d = losses = 0
    for i in range(games):
        seat = i % 2
        agents = (ours, theirs) if seat == 0 else (theirs, ours)
        tables = tuple(a.initial_table(game, p) for p, a in enumerate(agents))
        ep = purestate.play(game, agents, tables, keys.key(1_000_000 + i))
        r = ep.returns[seat]
        w, d, losses = w + (r > 0), d + (r == 0), losses + (r < 0)
        if (i + 1) % 10 == 0:
            print(f"  {i + 1} games: {w} W {d} D {losses} L", flush=True)
    return (w + d / 2) / max(games, 1), w, d, losses


RL_GAMES = (
    ("tictactoe", "tic_tac_toe"),
    ("ultimate_tictactoe", "ultimate_tic_tac_toe"),
    ("dots_and_boxes:rows=3,cols=3", "dots_and_boxes(num_rows=3,num_cols=3)"),
)


def rl_episodes(game: Any, episodes: int) -> None:
    """``episodes`` random episodes of OpenSpiel's ``rl_environment`` over a pyspiel game."""
    import numpy as np
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(game, seed=0)
    rng = np.random.RandomState(0)
    for _ in range(episodes):
        step = env.reset()
        while not step.last():
            mover = step.observations["current_player"]
            step = env.step([rng.choice(step.observations["legal_actions"][mover])])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1000, help="random games per differential game")
    p.add_argument("--playouts", type=int, default=3000, help="playouts per overhead timing")
    p.add_argument("--strength", type=int, default=200, help="connect_four games, mcts vs theirs")
    p.add_argument("--simulations", type=int, default=1000, help="simulations per move, each")
    p.add_argument("--episodes", type=int, default=2000, help="rl_environment episodes per game")
    p.add_argument("--only", default="differential,overhead,strength,rl")
    args = p.parse_args(argv)
    parts = set(args.only.split(","))
    if "differential" in parts:
        print(f"differential: {args.games} random games each, bridge vs native pyspiel")
        for name in DIFFERENTIAL:
            t = time.process_time()
            bad = differential(name, args.games)
            mism = bad["legal"] + bad["player"] + bad["returns"] + bad["terminal"]
            print(
                f"  {name}: {mism} mismatches (legal {bad['legal']}, player {bad['player']}, "
                f"returns {bad['returns']}, terminal {bad['terminal']}) over "
                f"{bad['positions']:,} positions, {time.process_time() - t:.1f} s",
                flush=True,
            )
    if "overhead" in parts:
        print(f"overhead: {args.playouts} random playouts, CPU time, one run")
        for name in DIFFERENTIAL:
            ours, native = overhead(name, args.playouts)
            print(
                f"  {name}: bridge {ours:.3f} s, pyspiel clone-per-step {native:.3f} s, "
                f"speed ratio {native / ours:.2f}x",
                flush=True,
            )
    if "strength" in parts:
        n, sims = args.strength, args.simulations
        print(f"strength: mcts vs openspiel_mcts, connect_four, {sims} simulations, {n} games")
        t = time.time()
        score, w, d, losses = strength(n, sims)
        low, high = purestate.wilson(w + d / 2, n)
        print(
            f"  mcts scores {score:.1%} (95% Wilson {low:.1%}-{high:.1%}): {w} W {d} D "
            f"{losses} L in {n} games, {time.time() - t:.0f} s",
            flush=True,
        )

    if "rl" in parts:
        from purestate.interop.to_openspiel import as_pyspiel

        print(f"rl_environment: {args.episodes} random episodes, CPU time, one run")
        for ours_name, native_name in RL_GAMES:
            bridged = as_pyspiel(purestate.make_spec(ours_name))
            native = pyspiel.load_game(native_name)
            rl_episodes(bridged, 10)  # warm both
            rl_episodes(native, 10)
            ours = _timed(lambda g=bridged: rl_episodes(g, args.episodes))
            theirs = _timed(lambda g=native: rl_episodes(g, args.episodes))
            print(
                f"  {ours_name}: as_pyspiel {ours:.3f} s, OpenSpiel's C++ game {theirs:.3f} s, "
                f"speed ratio {theirs / ours:.2f}x",
                flush=True,
            )
            if ours_name == "tictactoe":  # OpenSpiel's own Python game: the same API as ours
                import open_spiel.python.games  # noqa: F401 (registers python_tic_tac_toe)

                python = pyspiel.load_game("python_tic_tac_toe")
                rl_episodes(python, 10)
                theirs = _timed(lambda g=python: rl_episodes(g, args.episodes))
                print(
                    f"  tictactoe: OpenSpiel's Python game {theirs:.3f} s, "
                    f"speed ratio {theirs / ours:.2f}x",
                    flush=True,
                )


if __name__ == "__main__":
    main(sys.argv[1:])
