"""Q-learning: self-play speed on tic-tac-toe against OpenSpiel, and strength.

Run: ``PYTHONPATH=src python benchmarks/bench_qlearning.py [--quick]``

Speed: self-play training episodes per CPU second on tic-tac-toe.
- purestate ``train`` fold: the generic driver (``purestate.train(..., shared=True)``) with the
  default ``qlearning`` agent, one persistent table replaced after every game;
- purestate ``QLearning.selfplay``: the fused loop that computes the same fold (tested equal);
- OpenSpiel: ``rl_environment.Environment("tic_tac_toe")`` with two ``tabular_qlearner.QLearner``
  (the set-up of OpenSpiel's ``tic_tac_toe_qlearner.py`` example).

Strength:
- tic-tac-toe: W/D/L of the greedy policy against a random player in each seat (1,000 games per
  seat, seed 2024) after 10,000 training games, for us and for OpenSpiel's learners;
- dots and boxes 2×2: the optimal-move rate (against the exact solver) and the result against the
  solver as first player every 1,000 self-play games, and the first count at which the learner
  reaches >= 99% and +2.
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

sys.path.insert(0, "src")

import purestate
from purestate.core.agent import Decision
from purestate.core.keys import Key, fold_in, key
from purestate.core.learning import tally
from purestate.solve import solve
from purestate.solve.analysis import analyze_table

QUICK = "--quick" in sys.argv
REPS = 3 if QUICK else 5
EPISODES = 1000 if QUICK else 10_000


def rates(run: Any) -> tuple[float, float]:
    """The median rate over REPS runs, and the first run's (a cold process: memos empty)."""
    seen = []
    for rep in range(REPS):
        t0 = time.process_time()
        n = run(rep)
        seen.append(n / (time.process_time() - t0))
    return statistics.median(seen), seen[0]


def ours_fold(rep: int) -> int:
    import itertools

    game = purestate.make("tictactoe")
    agent = purestate.agent("qlearning")
    t = agent.initial_table(game, 0)
    steps = purestate.train(
        game, (agent, agent), (t, t), key(rep), learning=(True, True), shared=True
    )
    for _ in itertools.islice(steps, EPISODES):
        pass
    return EPISODES


def ours_fused(rep: int) -> int:
    game = purestate.make("tictactoe")
    agent = purestate.agent("qlearning")
    agent.selfplay(game, agent.initial_table(game, 0), key(rep), EPISODES)
    return EPISODES


def openspiel_learners(episodes: int, seed: int) -> Any:
    import numpy as np
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner

    np.random.seed(seed)  # QLearner explores with numpy's global generator
    env = rl_environment.Environment("tic_tac_toe")
    n = env.action_spec()["num_actions"]
    agents = [tabular_qlearner.QLearner(player_id=i, num_actions=n) for i in range(2)]
    for _ in range(episodes):
        ts = env.reset()
        while not ts.last():
            p = ts.observations["current_player"]
            ts = env.step([agents[p].step(ts).action])
        for a in agents:
            a.step(ts)
    return env, agents


def openspiel_rate(rep: int) -> int:
    openspiel_learners(EPISODES, rep)
    return EPISODES


def openspiel_vs_random(env: Any, agents: Any, seat: int, games: int) -> Any:
    import numpy as np

    rng = np.random.RandomState(2024)
    outcomes = []
    for _ in range(games):
        ts = env.reset()
        while not ts.last():
            p = ts.observations["current_player"]
            if p == seat:
                action = agents[p].step(ts, is_evaluation=True).action
            else:
                action = rng.choice(ts.observations["legal_actions"][p])
            ts = env.step([action])
        r = ts.rewards[seat]
        outcomes.append((r > 0) - (r < 0))
    return tally(outcomes)


def greedy_vs_random(game: Any, agent: Any, table: Any, seat: int, games: int) -> Any:
    class Greedy:
        learns = False
        spec = "greedy"

        def act(self, game: Any, table: Any, state: Any, key: Key) -> Decision[Any]:
            return Decision(agent.greedy(game, table, state))

    players: list[Any] = [purestate.agent("random")] * 2
    players[seat] = Greedy()
    tables: list[Any] = [None, None]
    tables[seat] = table
    return tally(
        purestate.play(game, players, tables, fold_in(key(2024), i)).outcome(seat)
        for i in range(games)
    )


def main() -> None:
    try:
        import open_spiel  # noqa: F401

        have_peer = True
    except ImportError:
        have_peer = False
    print(f"tic-tac-toe self-play, episodes per CPU second ({EPISODES} episodes, median of {REPS})")
    # the fused loop runs first, so its first run is the process's cold start
    fused, fused_cold = rates(ours_fused)
    fold, _ = rates(ours_fold)
    peer, peer_cold = rates(openspiel_rate) if have_peer else (float("nan"), float("nan"))
    print(f"  purestate train fold      {fold:9,.0f}   {fold / peer:5.1f}x OpenSpiel")
    print(f"  purestate fused selfplay  {fused:9,.0f}   {fused / peer:5.1f}x OpenSpiel")
    print(
        f"    first run, cold process {fused_cold:9,.0f}   "
        f"{fused_cold / peer_cold:5.1f}x OpenSpiel's first run"
    )
    print(f"  OpenSpiel 2 x QLearner    {peer:9,.0f}")
    if QUICK:
        print("  (--quick: 1,000-game runs, where the fused loop's per-call set-up of numbering")
        print("  the positions it meets weighs heavily; the full run is the one to quote)")

    n_ttt = 3000 if QUICK else 10_000
    print(f"\ntic-tac-toe after {n_ttt:,} self-play games: greedy vs random, 1,000 games per seat")
    game = purestate.make("tictactoe")
    agent = purestate.agent("qlearning")
    table = agent.selfplay(game, agent.initial_table(game, 0), key(1), n_ttt)
    for seat in (0, 1):
        t = greedy_vs_random(game, agent, table, seat, 1000)
        print(f"  purestate as {'XO'[seat]}: W {t.wins} D {t.draws} L {t.losses}")
    if have_peer:
        env, learners = openspiel_learners(n_ttt, 1)
        for seat in (0, 1):
            t = openspiel_vs_random(env, learners, seat, 1000)
            print(f"  OpenSpiel as {'XO'[seat]}: W {t.wins} D {t.draws} L {t.losses}")

    limit = 5000 if QUICK else 20_000
    print(f"\ndots and boxes 2x2, default qlearning by self-play (seed 1), up to {limit:,} games")
    game = purestate.make("dots_and_boxes")
    sol = solve(game)
    table = agent.initial_table(game, 0)
    reached = None
    for done in range(1000, limit + 1, 1000):
        table = agent.selfplay(game, table, key(1), 1000, start=done - 1000)
        a = analyze_table(game, agent, table, sol)
        first = a.vs_solver[0].result
        print(
            f"  {done:6,} games: optimal moves {a.optimal_move_rate:6.1%} of {a.positions}, "
            f"mean loss {a.mean_loss:.3f}, vs solver as P1 {first:+g}"
        )
        if reached is None and a.optimal_move_rate >= 0.99 and first == 2:
            reached = done
    print(f"  first reached >= 99% and +2 after: {reached if reached else 'not within the limit'}")


if __name__ == "__main__":
    main()
