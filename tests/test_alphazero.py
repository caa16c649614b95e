"""``alphazero``: a small seeded run that must learn, purity, seeds, batches and split runs.

Skipped without the ``alphazero`` extra (JAX and optax), except the one-line refusal that names
it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pytest
from pyrsistent import pmap

import purestate
from purestate.core.agent import Greedy
from purestate.core.keys import fold_in, key
from purestate.core.spec import SpecError

jax = pytest.importorskip("jax")
pytest.importorskip("optax")

from purestate.agents.alphazero import AlphaZero, Net  # noqa: E402
from purestate.agents.alphazero.agent import evaluations  # noqa: E402
from purestate.agents.alphazero.network import (  # noqa: E402
    ALONE,
    CHUNK,
    buckets,
    evaluate,
    loss,
)
from purestate.agents.alphazero.training import Examples, train  # noqa: E402
from purestate.experiments.selfplay import Selfplay  # noqa: E402

TTT = purestate.make("tictactoe")
SMALL = "alphazero:simulations=16,games_per_iteration=8,steps=20,batch=32,width=32"


def arrays(table: Net) -> dict[str, bytes]:
    """Every array of a table as bytes, by name (what a table file would hold)."""
    _, found = AlphaZero().table_to_arrays(TTT, table)
    return {name: np.ascontiguousarray(a).tobytes() for name, a in found.items()}


def states(game: Any, count: int, seed: int = 3) -> list[Any]:
    """Non-terminal positions of seeded random games."""
    rnd = purestate.agent("random")
    out: list[Any] = []
    i = 0
    while len(out) < count:
        ep = purestate.play(game, (rnd, rnd), (None, None), fold_in(key(seed), i))
        out.extend(s for s in ep.states if not game.is_over(s))
        i += 1
    return out[:count]


def losses(agent: Any, table: Net, seat: int, games: int) -> int:
    """Games lost by ``agent``'s greedy play from ``seat`` against ``random``."""
    rnd = purestate.agent("random")
    lost = 0
    for i in range(games):
        seats = [Greedy(agent), rnd] if seat == 0 else [rnd, Greedy(agent)]
        tables = [table, None] if seat == 0 else [None, table]
        ep = purestate.play(TTT, seats, tables, fold_in(key(99), i))
        lost += ep.outcome(seat) < 0
    return lost


def test_a_seeded_run_learns_never_to_lose_to_random_as_first_player() -> None:
    # judged by the network alone (simulations=1 plays the highest prior), so the search cannot
    # hide an untrained net: the fresh network loses to random, the trained one does not
    learner = purestate.agent("alphazero")
    network_only = purestate.agent("alphazero:simulations=1")
    fresh = learner.with_network(TTT, learner.initial_table(TTT, 0), key(0))
    assert losses(network_only, fresh, 0, 200) >= 10
    trained, episodes = learner.selfplay_games(TTT, fresh, key(0), 128)
    assert len(episodes) == 128 and trained.iterations == 4
    assert losses(network_only, trained, 0, 200) == 0
    assert losses(network_only, trained, 1, 200) <= 20 < 50 <= losses(network_only, fresh, 1, 200)


def test_selfplay_returns_a_new_table_and_leaves_the_old_one_as_it_was() -> None:
    agent = purestate.agent(SMALL)
    start = agent.with_network(TTT, agent.initial_table(TTT, 0), key(1))
    before = arrays(start)
    after, _ = agent.selfplay_games(TTT, start, key(1), 16)
    assert arrays(start) == before
    assert after is not start and after.games == 16 and start.games == 0
    assert arrays(after)["params/stem.w"] != before["params/stem.w"]
    for name, a in agent.table_to_arrays(TTT, after)[1].items():
        assert not a.flags.writeable, name  # nobody holding the table can change it
    # learn is the identity: alphazero learns through its self-play loop only
    ep = purestate.play(TTT, (agent, agent), (after, after), key(2))
    assert agent.learn(TTT, after, ep, 0) is after


def test_the_same_seed_gives_the_same_parameter_bytes() -> None:
    agent = purestate.agent(SMALL)
    one, eps1 = agent.selfplay_games(TTT, agent.initial_table(TTT, 0), key(4), 16)
    two, eps2 = agent.selfplay_games(TTT, agent.initial_table(TTT, 0), key(4), 16)
    other, _ = agent.selfplay_games(TTT, agent.initial_table(TTT, 0), key(5), 16)
    assert arrays(one) == arrays(two) and eps1 == eps2
    assert arrays(one)["params/stem.w"] != arrays(other)["params/stem.w"]


@pytest.mark.parametrize(
    ("spec", "width"),
    [("tictactoe", 32), ("connect_four:columns=5,rows=4,connect=3", 16),
     ("ultimate_tictactoe", 32)],
)  # fmt: skip
def test_a_state_evaluates_the_same_alone_and_in_any_batch(spec: str, width: int) -> None:
    # weights away from the fresh network's zero heads (whose outputs are constant, so equal in
    # any batch): XLA's code for a batch depends on its size, and so would the last bits of a
    # row's output (ultimate's planes differed between batches of 8 and 64, tic-tac-toe's MLP at
    # width 32 too) if a batch were not computed in chunks of the same size
    game = purestate.make(spec)
    agent = purestate.agent(f"alphazero:width={width},depth=2")
    fresh = agent.with_network(game, agent.initial_table(game, 0), key(6))
    assert fresh.shape is not None and fresh.params is not None
    assert fresh.shape.conv == (not spec.startswith("tictactoe"))
    rng = np.random.default_rng(6)
    params = {n: (w + rng.normal(0, 0.2, w.shape)).astype(np.float32)
              for n, w in fresh.params.items()}  # fmt: skip
    table = attrs.evolve(fresh, params=pmap(params))
    many = states(game, 200)
    x = rng.integers(0, 2, (70, *table.shape.planes)).astype(np.float32)
    mask = np.ones((70, table.shape.moves), bool)
    # in chunks of 8 (self-play) and of one row (a single search's leaves), each the same
    for rows in (CHUNK, ALONE):
        alone = evaluations(game, table, many[:1], rows)[0]
        assert alone != evaluations(game, fresh, many[:1], rows)[0]  # the weights matter
        for size in (2, 8, 9, 16, 17, 32, 33, 64, 65, 200):
            batch = many[:size]
            assert evaluations(game, table, batch, rows)[0] == alone, (rows, size)
            assert evaluations(game, table, batch[::-1], rows)[-1] == alone, (rows, size)
        # a search's evaluator places the weights in JAX once (network.placed): the same bits
        searching = agent.evaluator(table, rows)(game, many[:9], [key(0)] * 9)
        assert searching == evaluations(game, table, many[:9], rows), rows
        # and the network's raw output, row by row
        alone_raw = [evaluate(table.shape, params, x[i : i + 1], mask[i : i + 1], rows)
                     for i in range(70)]  # fmt: skip
        # one batch of each bucket (3: padded; 70: 64 and the rest)
        for size in (*buckets(rows), 2, 3, 70):
            p_all, v_all = evaluate(table.shape, params, x[:size], mask[:size], rows)
            for i in sorted({i for i in (0, 1, 2, 7, 8, 15, size - 1) if i < size}):
                p, v = alone_raw[i]
                assert p[0].tobytes() == p_all[i].tobytes() and v[0] == v_all[i], (rows, size, i)


def test_the_nhwc_gradients_are_autodiffs_up_to_rounding() -> None:
    # a conv net (3×3 and 1×1 kernels) on a board that is not square, with weights away from
    # their zero start so every gradient is non-trivial
    game = purestate.make("connect_four")
    agent = purestate.agent("alphazero:width=8,depth=1")
    table = agent.with_network(game, agent.initial_table(game, 0), key(8))
    shape = table.shape
    assert shape is not None and shape.conv and table.params is not None
    rng = np.random.default_rng(8)
    params = {
        n: w + rng.normal(0, 0.1, w.shape).astype(np.float32) for n, w in table.params.items()
    }
    x = rng.integers(0, 2, (16, *shape.planes)).astype(np.float32)
    mask = rng.random((16, shape.moves)) < 0.7
    pi = np.where(mask, rng.random((16, shape.moves)), 0).astype(np.float32)
    pi /= np.maximum(pi.sum(axis=1, keepdims=True), 1e-9)
    z = rng.uniform(-1, 1, 16).astype(np.float32)

    def grads(how: str) -> dict[str, Any]:
        found: dict[str, Any] = jax.grad(lambda p: loss(shape, p, x, mask, pi, z, 1e-4, how)[0])(
            params
        )
        return found

    auto, nhwc = grads("autodiff"), grads("nhwc")
    for name in params:
        scale = float(np.max(np.abs(auto[name])))
        assert scale > 0, name
        np.testing.assert_allclose(nhwc[name], auto[name], rtol=0, atol=1e-5 * scale, err_msg=name)
    # and a training run of each ends with weights equal up to rounding, not bit for bit owed
    examples = Examples.of(x.astype(np.int8), mask, pi, z)
    runs = [
        train(shape, agent.lr, params, table.opt_state, examples, key(9), 10, 8, how)[0]
        for how in ("autodiff", "nhwc")
    ]
    for name in params:
        assert not np.array_equal(runs[0][name], params[name]), name
        np.testing.assert_allclose(runs[1][name], runs[0][name], rtol=0, atol=1e-4, err_msg=name)


def test_games_played_in_one_call_or_in_parts_are_the_same() -> None:
    agent = purestate.agent(SMALL)
    table = agent.with_network(TTT, agent.initial_table(TTT, 0), key(7))
    whole = agent.play_games(TTT, table, key(7), range(8))
    first = agent.play_games(TTT, table, key(7), range(4))
    second = agent.play_games(TTT, table, key(7), range(4, 8))
    assert whole.episodes == first.episodes + second.episodes
    assert whole.indices == first.indices + second.indices
    joined = first.examples.then([second.examples], 1 << 30)
    assert whole.examples.same(joined)
    # absorbed in one piece or two, the table is the same (an iteration of 8 trains once)
    at_once = agent.absorb(TTT, table, [whole], key(7))
    in_parts = agent.absorb(TTT, agent.absorb(TTT, table, [first], key(7)), [second], key(7))
    assert at_once.iterations == in_parts.iterations == 1
    assert arrays(at_once) == arrays(in_parts)


def test_a_run_in_stretches_is_the_run_in_one() -> None:
    # stretches that end inside an iteration (5 + 14 + 5 games of 8-game iterations)
    agent = purestate.agent(SMALL)
    assert agent.iterations(5, 14) == [range(5, 8), range(8, 16), range(16, 19)]
    whole, eps = agent.selfplay_games(TTT, agent.initial_table(TTT, 0), key(8), 24)
    t, parts = agent.initial_table(TTT, 0), []
    for start, games in ((0, 5), (5, 14), (19, 5)):
        t, played = agent.selfplay_games(TTT, t, key(8), games, start)
        parts.extend(played)
    assert tuple(parts) == eps and arrays(t) == arrays(whole) and t.iterations == 3


def test_absorb_refuses_games_out_of_order_or_across_an_iteration() -> None:
    agent = purestate.agent(SMALL)
    table = agent.with_network(TTT, agent.initial_table(TTT, 0), key(9))
    with pytest.raises(ValueError, match="played 0 games"):
        agent.absorb(TTT, table, [agent.play_games(TTT, table, key(9), [1])], key(9))
    with pytest.raises(ValueError, match="cross an iteration"):
        agent.absorb(TTT, table, [agent.play_games(TTT, table, key(9), range(9))], key(9))
    with pytest.raises(ValueError, match="played 0 games, not 3"):
        agent.selfplay_games(TTT, table, key(9), 2, 3)


def test_selfplay_runs_through_the_fused_hook() -> None:
    run = Selfplay(game="tictactoe", agent=SMALL, opponent="self", seed=3)
    assert run.shared and run.fused
    game = run.make_game()
    stretch = run.play(game, run.initial_tables(game), 0, 16)
    table, eps = purestate.agent(SMALL).selfplay_games(game, Net(), key(3), 16)
    assert stretch.episodes == eps and arrays(stretch.tables[0]) == arrays(table)
    for ep in stretch.episodes:
        assert purestate.replay(game, ep.moves).returns == ep.returns


def test_the_table_round_trips_through_its_arrays_and_bad_arrays_are_refused() -> None:
    agent = purestate.agent(SMALL)
    table, _ = agent.selfplay_games(TTT, agent.initial_table(TTT, 0), key(10), 12)
    meta, found = agent.table_to_arrays(TTT, table)
    back = agent.table_from_arrays(TTT, meta, found)
    assert arrays(back) == arrays(table) and back.games == 12 and back.iterations == 1
    assert agent.table_to_arrays(TTT, back)[0] == meta
    assert agent.greedy(TTT, back, TTT.initial()) == agent.greedy(TTT, table, TTT.initial())
    fresh_meta, fresh = agent.table_to_arrays(TTT, agent.initial_table(TTT, 0))
    assert fresh == {} and agent.table_from_arrays(TTT, fresh_meta, fresh).params is None

    def refused(message: str, meta: dict[str, Any], arrays: dict[str, Any]) -> None:
        with pytest.raises(ValueError, match=message) as e:
            agent.table_from_arrays(TTT, meta, arrays)
        assert "\n" not in str(e.value)

    wide = purestate.agent(SMALL.replace("width=32", "width=48"))
    with pytest.raises(ValueError, match="network is"):
        wide.table_from_arrays(TTT, meta, found)
    refused(
        "'params/stem.w' is missing", meta, {k: v for k, v in found.items() if k != "params/stem.w"}
    )
    refused(
        "not float32", meta, {**found, "params/stem.w": found["params/stem.w"].astype(np.float64)}
    )
    refused("unexpected arrays: extra", meta, {**found, "extra": np.zeros(1)})
    nan = found["params/stem.b"].copy()
    nan[0] = np.nan
    refused("not finite", meta, {**found, "params/stem.b": nan})
    bad_pi = found["replay/pi"].copy()
    row = int(np.argmin(found["replay/mask"].sum(axis=1)))  # a position with a taken square
    bad_pi[row, ~found["replay/mask"][row]] = 0.5
    refused("illegal move", meta, {**found, "replay/pi": bad_pi})
    refused("not a count", {**meta, "games": -1}, found)


def test_the_spec_round_trips_and_bad_options_are_refused() -> None:
    agent = purestate.agent("alphazero:simulations=50,width=16,gradients=autodiff")
    assert agent.spec == "alphazero:simulations=50,width=16,gradients=autodiff"
    assert purestate.agent(agent.spec) == agent
    bad_specs = ("alphazero:width=0", "alphazero:epsilon=2", "alphazero:simulations=0",
                 "alphazero:gradients=eigen")  # fmt: skip
    for bad in bad_specs:
        with pytest.raises(SpecError):
            purestate.agent(bad)


def test_a_game_without_planes_is_refused_in_one_line() -> None:
    class NoPlanes:
        spec = TTT.spec

        def __getattr__(self, name: str) -> Any:
            if name in ("planes", "plane_shape"):
                raise AttributeError(name)
            return getattr(TTT, name)

    with pytest.raises(SpecError, match="needs observation planes"):
        purestate.agent("alphazero").initial_table(NoPlanes(), 0)  # type: ignore[arg-type]


def test_without_jax_the_agent_is_refused_naming_the_extra(monkeypatch: Any) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "jax" else real(name, *a)
    )
    with pytest.raises(
        SpecError, match=r"^alphazero: needs JAX and optax: pip install 'purestate\[alphazero\]'$"
    ):
        purestate.agent("alphazero")
    # the listings go on without it: it is listed, but plays no game
    from typer.testing import CliRunner

    from purestate.cli import app

    listed = CliRunner().invoke(app, ["agents", "--game", "tictactoe", "--json"])
    assert listed.exit_code == 0, listed.output
    assert "alphazero" not in listed.output and "mcts" in listed.output
    assert "alphazero" in CliRunner().invoke(app, ["agents", "--json"]).output
    refused = CliRunner().invoke(app, ["evaluate", "--game", "tictactoe", "--agent", "alphazero"])
    assert refused.exit_code == 2 and "purestate[alphazero]" in refused.output


def test_act_and_greedy_play_legal_moves_and_greedy_is_deterministic() -> None:
    agent = purestate.agent(SMALL)
    table, _ = agent.selfplay_games(TTT, Net(), key(11), 8)
    for i, s in enumerate(states(TTT, 12)):
        move = agent.greedy(TTT, table, s)
        assert move in TTT.legal(s) and agent.greedy(TTT, table, s) == move
        chosen = agent.act(TTT, table, s, key(i)).move
        assert chosen in TTT.legal(s) and agent.act(TTT, table, s, key(i)).move == chosen
    # a table without a network searches with uniform priors and still takes a win at once
    won = TTT.initial()
    for m in (0, 3, 1, 4):  # X to play 2 and win
        won = TTT.step(won, m)
    assert agent.greedy(TTT, Net(), won) == 2


def test_play_searches_on_from_the_tree_of_its_previous_move() -> None:
    agent = purestate.agent(SMALL)
    table, _ = agent.selfplay_games(TTT, Net(), key(11), 8)
    greedy = Greedy(agent)
    s = TTT.initial()
    first = greedy.act(TTT, table, s, key(0))
    assert first.move == agent.greedy(TTT, table, s)
    moved = first.table
    assert isinstance(moved, Net) and moved.tree is not None and table.tree is None
    assert moved.params is table.params and moved.games == table.games
    assert moved.tree.root is not None and moved.tree.root.n == 16  # a fresh tree: 16 visits
    # after the opponent's reply the search starts from the subtree it had reached
    s = TTT.step(TTT.step(s, first.move), 4 if first.move != 4 else 0)
    second = greedy.act(TTT, moved, s, key(1))
    assert isinstance(second.table, Net) and second.table.tree is not None
    root = second.table.tree.root
    assert root is not None and second.table.tree.simulations == 16 and root.n > 16
    assert second.move == agent.greedy(TTT, moved, s)  # greedy from the moved table: the same
    # act (exploring) keeps its tree too; reuse=false keeps the table as it was
    assert isinstance(agent.act(TTT, table, s, key(2)).table, Net)
    fresh = purestate.agent(f"{SMALL},reuse=false")
    assert Greedy(fresh).act(TTT, table, s, key(0)).table is None
    assert fresh.act(TTT, table, s, key(2)).table is None
    assert fresh.playing(moved).tree is None  # workers get no tree


def test_a_seconds_budget_reads_the_injected_clock() -> None:
    from itertools import count

    from purestate.agents.timing import with_clock

    ticks = count()
    timed = with_clock(
        purestate.agent("alphazero:simulations=0,seconds=0.5"), lambda: next(ticks) * 0.01
    )
    assert timed.act(TTT, Net(), TTT.initial(), key(0)).move in TTT.legal(TTT.initial())
    assert next(ticks) > 16  # the search polled the clock until the budget was spent
    with pytest.raises(ValueError, match="clock"):
        purestate.agent("alphazero:simulations=0,seconds=0.5").act(
            TTT, Net(), TTT.initial(), key(0)
        )


def test_the_network_runs_on_the_thread_whose_clock_a_timed_agent_reads() -> None:
    # a fresh process, so the agent's first JAX use is the process's first. The shell's clock
    # is the moving thread's CPU time; with JAX's asynchronous dispatch the network ran on XLA's
    # threads, which that clock does not see (this share was 0.81, and 0.5 on connect four)
    import subprocess
    import sys

    code = """
import time
import purestate
from purestate.agents.timing import with_clock
from purestate.core.keys import key
game = purestate.make("tictactoe")
bot = with_clock(purestate.agent("alphazero:simulations=0,seconds=0.2"), time.thread_time)
table = bot.with_network(game, bot.initial_table(game, 0), key(1))
bot.act(game, table, game.initial(), key(2))
p, t = time.process_time(), time.thread_time()
bot.act(game, table, game.initial(), key(3))
print((time.thread_time() - t) / (time.process_time() - p))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True
    )
    assert float(done.stdout.split()[-1]) > 0.95, done.stdout


def test_one_worker_and_two_give_the_same_table() -> None:
    from purestate.agents.alphazero import play_job
    from purestate.executors import LocalExecutor

    agent = purestate.agent(SMALL)
    table = agent.with_network(TTT, agent.initial_table(TTT, 0), key(12))
    [part] = agent.iterations(0, 8)
    alone = agent.absorb(TTT, table, [agent.play_games(TTT, table, key(12), part)], key(12))
    jobs = agent.jobs(TTT, table, key(12), part, 2)
    assert [j.indices for j in jobs] == [(0, 1, 2, 3), (4, 5, 6, 7)]
    # spawned workers: a fork of a process that has started JAX's threads may deadlock
    played = LocalExecutor(jobs=2, batch=1, start_method="spawn").run(play_job, jobs)
    spread = agent.absorb(TTT, table, played, key(12))
    assert arrays(spread) == arrays(alone) and spread.iterations == 1


TINY = "alphazero:simulations=4,games_per_iteration=4,steps=5,batch=8,width=8,depth=1"
RUN = ["selfplay", "--game", "tictactoe", "--agent", TINY, "--opponent", "self", "--games", "10",
       "--checkpoint", "3", "--seed", "4"]  # fmt: skip


def test_a_run_killed_at_any_write_resumes_to_the_uninterrupted_files(
    tmp_path: Path, kill_at: list[int]
) -> None:
    # checkpoints every 3 games of 4-game iterations: most fall inside an iteration
    from tests.kills import files, kill_everywhere

    writes = kill_everywhere(RUN, tmp_path, kill_at)
    assert writes > 10 and "table.npz" in files(tmp_path / "whole")


def test_a_saved_table_plays_from_the_commands(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from purestate.cli import app
    from purestate.core.hooks import playing_table
    from purestate.io.tables import load_table

    runner = CliRunner()
    out = tmp_path / "run"
    assert runner.invoke(app, [*RUN, "--out", str(out)]).exit_code == 0
    agent = purestate.agent(TINY)
    table = load_table(out / "table.npz", TTT, agent).table
    assert isinstance(table, Net) and table.games == 10 and table.iterations == 2
    more = tmp_path / "more"
    assert runner.invoke(app, [*RUN, "--out", str(more), "--games", "6"]).exit_code == 0
    assert runner.invoke(app, ["selfplay", "--resume", str(more), "--more", "4"]).exit_code == 0
    assert (more / "table.npz").read_bytes() == (out / "table.npz").read_bytes()
    judged = runner.invoke(
        app, ["evaluate", "--table", str(out / "table.npz"), "--games", "4", "--json"]
    )
    assert judged.exit_code == 0, judged.output
    seats = json.loads(judged.stdout)
    assert seats["first"]["games"] == seats["second"]["games"] == 4
    # on two worker processes (spawned: JAX is loaded), from the network without its replay
    # buffer (playing_table), the same games
    from purestate.cli import evaluate

    sent: list[Any] = []
    plain = evaluate.seat_games
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(evaluate, "seat_games", lambda *a: sent.append(a[2]) or plain(*a))
        judge = ["evaluate", "--table", str(out / "table.npz"), "--games", "3", "--json"]
        one, two = (runner.invoke(app, [*judge, "--jobs", j]) for j in ("1", "2"))
    assert one.exit_code == two.exit_code == 0, two.output
    assert json.loads(one.stdout) == json.loads(two.stdout)
    assert [t.replay is None for t in sent] == [False, False, True, True]
    light = playing_table(agent, table)
    assert light.replay is None and light.params is table.params
    assert all(agent.greedy(TTT, light, s) == agent.greedy(TTT, table, s) for s in states(TTT, 6))
    # analyze judges the greedy move in every position (a network covers them all)
    judged = runner.invoke(app, ["analyze", "--table", str(out / "table.npz")])
    assert judged.exit_code == 0, judged.output
    assert "4520" in judged.output
