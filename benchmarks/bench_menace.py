"""MENACE: training speed and the learning figures of the reference (menace.md §5).

Run: ``python benchmarks/bench_menace.py`` (add ``--quick`` for fewer repetitions).

* Training speed: games per CPU-second of MENACE (michie) learning against ``rules:p=0.7``
  (target ≥ 10,000 games/s on one core).
* Scroggs' preset against ``perfect`` (random tie-break): losses in 2,000 games, median over 5
  seeds (reference: about 44 in our simulations, about 40 in Scroggs' PR #4).
* Michie's preset against ``rules:p=0.7``: loss rate in games 1-100 and 1,901-2,000.
"""

from __future__ import annotations

import statistics
import sys
import time
from itertools import islice

import purestate
from purestate.core.keys import key


def training_rate(games: int, reps: int) -> float:
    game = purestate.make("tictactoe")
    m, opp = purestate.agent("menace"), purestate.agent("rules:p=0.7")
    rates = []
    for r in range(reps):
        tables = (m.initial_table(game, 0), None)
        t0 = time.process_time()
        for _ in islice(purestate.train(game, (m, opp), tables, key(r)), games):
            pass
        rates.append(games / (time.process_time() - t0))
    return statistics.median(rates)


def outcomes(spec: str, opponent: str, seed: int, games: int) -> list[int]:
    game = purestate.make("tictactoe")
    m, opp = purestate.agent(spec), purestate.agent(opponent)
    tables = (m.initial_table(game, 0), opp.initial_table(game, 1))
    out = []
    for step in islice(purestate.train(game, (m, opp), tables, key(seed)), games):
        out.append(step.episode.outcome(0))
        if step.episode.resigned == 0 and not step.episode.moves:
            # an empty first box: MENACE refuses to play; count the remaining games as losses
            out.extend([-1] * (games - len(out)))
            break
    return out


def main() -> None:
    quick = "--quick" in sys.argv
    reps = 3 if quick else 5
    rate = training_rate(5000 if quick else 20000, reps)
    print(f"MENACE training vs rules:p=0.7: {rate:,.0f} games/CPU-s (target 10,000)")

    losses, dead = [], []
    for seed in range(5):
        o = outcomes("menace:preset=scroggs", "perfect", seed, 2000)
        losses.append(sum(x < 0 for x in o))
        if o[-1] < 0 and all(x < 0 for x in o[-20:]):
            dead.append(seed)
    alive = [n for s, n in enumerate(losses) if s not in dead]
    print(
        f"scroggs vs perfect: losses in 2,000 games per seed {losses}; "
        f"median {statistics.median(losses)}; runs whose first box emptied: {dead}; "
        f"median over the surviving runs {statistics.median(alive) if alive else '-'} "
        "(reference: median 44 over surviving runs, 11% of runs die; Scroggs ≈ 40)"
    )

    early, late = [], []
    for seed in range(5):
        o = outcomes("menace", "rules:p=0.7", seed, 2000)
        early.append(sum(x < 0 for x in o[:100]) / 100)
        late.append(sum(x < 0 for x in o[1900:2000]) / 100)
    print(
        "michie vs rules:p=0.7: loss rate games 1-100 "
        f"{[f'{x:.0%}' for x in early]} -> games 1,901-2,000 {[f'{x:.0%}' for x in late]}; "
        f"medians {statistics.median(early):.0%} -> {statistics.median(late):.0%}"
    )


if __name__ == "__main__":
    main()
