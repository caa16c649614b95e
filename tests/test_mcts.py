"""MCTS: determinism, wins and blocks, the solver, tree reuse, playout options, budgets."""

from __future__ import annotations

import functools
import itertools
import random
import shutil
from typing import Any

import pytest
from tests.moves import play_moves

import purestate
from purestate.agents.mcts import (
    MCTS,
    Tree,
    best_child,
    counter_shuffle,
    decisive_playout,
    rollout_evaluator,
    search_many,
    shuffle,
    unit_reward,
)
from purestate.agents.timing import with_clock
from purestate.core import history, keys
from purestate.core.spec import SpecError

TTT = purestate.make("tictactoe")


@functools.cache
def exact(state: Any) -> float:
    """The minimax value for the player to move."""
    p = TTT.to_move(state)
    best = -2.0
    for m in TTT.legal(state):
        c = TTT.step(state, m)
        v = TTT.returns(c)[p] if TTT.is_over(c) else -exact(c)
        best = max(best, v)
    return best


def centre_and_corners(game: Any, state: Any) -> tuple[float, ...]:
    """A stand-in per-move score for tic-tac-toe: centre 3, corners 2, edges 1."""
    weight = (2.0, 1.0, 2.0, 1.0, 3.0, 1.0, 2.0, 1.0, 2.0)
    return tuple(weight[m] for m in game.legal(state))


def test_same_key_same_move_and_tree() -> None:
    a = purestate.agent("mcts:simulations=300")
    s = play_moves(TTT, [4])
    d1 = a.act(TTT, a.initial_table(TTT, 1), s, keys.key(5))
    d2 = a.act(TTT, a.initial_table(TTT, 1), s, keys.key(5))
    assert d1.move == d2.move
    stats1 = [(c.move, c.n, c.w) for c in d1.table.root.children]
    stats2 = [(c.move, c.n, c.w) for c in d2.table.root.children]
    assert stats1 == stats2


def test_finds_a_win_in_one_and_proves_it() -> None:
    s = play_moves(TTT, [0, 3, 1, 4])  # X wins at 2
    a = purestate.agent("mcts:simulations=2000")
    d = a.act(TTT, a.initial_table(TTT, 0), s, keys.key(0))
    assert d.move == 2
    assert d.table.root.proven == 1.0
    assert d.table.simulations < 2000  # stopped early once the root was proven


def test_blocks_a_win_in_one() -> None:
    s = play_moves(TTT, [0, 4, 1])  # O must block at 2
    for seed in range(5):
        a = purestate.agent("mcts:simulations=400")
        assert a.act(TTT, a.initial_table(TTT, 1), s, keys.key(seed)).move == 2


def test_solver_proves_positions_with_the_minimax_value() -> None:
    proven = 0
    for i in range(40):
        k = keys.key(1000 + i)
        s = TTT.initial()
        for ply in range(5):
            if TTT.is_over(s):
                break
            s = TTT.step(s, keys.choice(keys.fold_in(k, ply), TTT.legal(s)))
        if TTT.is_over(s):
            continue
        tree = MCTS(simulations=20_000).search(TTT, Tree(), s, keys.key(i))
        root = tree.root
        assert root is not None
        assert root.proven == unit_reward(exact(s))
        proven += 1
        child = best_child(root)
        c = TTT.step(s, child.move)
        got = TTT.returns(c)[TTT.to_move(s)] if TTT.is_over(c) else -exact(c)
        assert got == exact(s)
    assert proven >= 20


def test_solver_proves_the_empty_board_a_draw() -> None:
    tree = MCTS(simulations=200_000).search(TTT, Tree(), TTT.initial(), keys.key(3))
    assert tree.root is not None
    assert tree.root.proven == 0.5
    assert tree.simulations < 200_000


def test_same_player_twice_is_solved_exactly() -> None:
    from tests.test_alphabeta import Pile, TakeTwoMoveAgain, minimax

    for n in range(1, 9):
        for p in (0, 1):
            game = TakeTwoMoveAgain(n)
            s = Pile(n, p)
            tree = MCTS(simulations=5000).search(game, Tree(), s, keys.key(n))
            assert tree.root is not None
            assert tree.root.proven == unit_reward(minimax(game, s)), (n, p)


def test_never_loses_to_random() -> None:
    bot = purestate.agent("mcts:simulations=300")
    rnd = purestate.agent("random")
    for i in range(24):
        seat = i % 2
        agents = (bot, rnd) if seat == 0 else (rnd, bot)
        tables = (
            (bot.initial_table(TTT, 0), None) if seat == 0 else (None, bot.initial_table(TTT, 1))
        )
        ep = purestate.play(TTT, agents, tables, keys.key(i))
        assert ep.outcome(seat) >= 0, i


def test_tree_reuse_keeps_statistics_and_does_not_change_the_table() -> None:
    a = purestate.agent("mcts:simulations=500")
    s = TTT.initial()
    d = a.act(TTT, a.initial_table(TTT, 0), s, keys.key(1))
    old_root = d.table.root
    before = (old_root.n, [(c.move, c.n, c.w) for c in old_root.children])
    reply = next(m for m in TTT.legal(TTT.step(s, d.move)))
    s2 = play_moves(TTT, [d.move, reply])
    reused = next(c for c in old_root.children if c.move == d.move)
    reused = next(c for c in reused.children if c.move == reply)
    assert reused.n > 0
    d2 = a.act(TTT, d.table, s2, keys.key(2))
    assert d2.table.root.state == s2
    assert d2.table.root.n == reused.n + d2.table.simulations  # the reused visits are kept
    after = (old_root.n, [(c.move, c.n, c.w) for c in old_root.children])
    assert before == after
    fresh = purestate.agent("mcts:simulations=500,reuse=false").act(TTT, d.table, s2, keys.key(2))
    assert fresh.table.root.n == fresh.table.simulations


@pytest.mark.parametrize("playout", ["decisive", "antidecisive"])
def test_decisive_playouts_play_well(playout: str) -> None:
    a = purestate.agent(f"mcts:simulations=300,playout={playout}")
    assert a.act(TTT, a.initial_table(TTT, 1), play_moves(TTT, [0, 4, 1]), keys.key(0)).move == 2


def test_decisive_playouts_run_the_games_decisive_kernel() -> None:
    from purestate.games.connect_four import ConnectFour

    calls: list[bool] = []

    class Counted(ConnectFour):
        def decisive_playout(
            self, state: Any, key: keys.Key, anti: bool = False, draws: keys.Draws = "counter"
        ) -> tuple[float, float]:
            calls.append(anti)
            return super().decisive_playout(state, key, anti, draws)

        def row_kernels(self) -> None:
            # the Python tree, which calls the hook (the compiled tree calls decisive0, held to
            # the hook by properties/test_rows_props.py)
            return None

    game = Counted()
    for playout, anti in (("auto", True), ("decisive", False), ("antidecisive", True)):
        calls.clear()
        a = purestate.agent(f"mcts:simulations=100,playout={playout}")
        a.act(game, a.initial_table(game, 0), game.initial(), keys.key(0))
        assert calls and set(calls) == {anti}
    calls.clear()
    a = purestate.agent("mcts:simulations=100,playout=random")
    a.act(game, a.initial_table(game, 0), game.initial(), keys.key(0))
    assert not calls


def test_heavy_playouts_and_progressive_bias_use_the_injected_scores() -> None:
    heavy = MCTS(simulations=300, playout="heavy", scorer=centre_and_corners)
    assert heavy.spec == "mcts:simulations=300,playout=heavy"
    d = heavy.act(TTT, Tree(), play_moves(TTT, [0, 4, 1]), keys.key(0))
    assert d.move == 2
    biased = MCTS(simulations=50, bias=10.0, scorer=centre_and_corners)
    d = biased.act(TTT, Tree(), TTT.initial(), keys.key(0))
    centre = next(c for c in d.table.root.children if c.move == 4)
    assert centre.h == 1.0
    assert centre.n == max(c.n for c in d.table.root.children)


def test_seconds_budget_with_an_injected_clock() -> None:
    a = purestate.agent("mcts:simulations=0,seconds=1")
    with pytest.raises(ValueError, match="clock"):
        a.act(TTT, Tree(), TTT.initial(), keys.key(0))
    ticks = itertools.count()
    timed = with_clock(a, lambda: next(ticks) * 0.01)
    d = timed.act(TTT, Tree(), TTT.initial(), keys.key(0))
    # the fake clock advances 0.01 per reading and is read every 16 simulations
    assert d.table.simulations == 16 * 100


def test_spec_and_bad_options() -> None:
    a = purestate.agent("mcts:simulations=2000,c=0.7,playout=decisive")
    assert a.spec == "mcts:simulations=2000,c=0.7,playout=decisive"
    assert purestate.agent(a.spec) == a
    for bad in ("mcts:playout=heavy", "mcts:scores=nothing", "mcts:simulations=0", "mcts:c=-1"):
        with pytest.raises(SpecError):
            purestate.agent(bad)


def test_terminal_state_is_refused() -> None:
    with pytest.raises(ValueError, match="over"):
        MCTS().search(TTT, Tree(), play_moves(TTT, [0, 3, 1, 4, 2]), keys.key(0))


# --- the defaults of issue 15: decisive and anti-decisive moves in the tree, per-game playouts --

# dots and boxes ends with its last line, so it never has a choice between ending the game and not
GAMES = ("tictactoe", "ultimate_tictactoe", "xtreme_tictactoe", "openspiel:connect_four")


def game_of(name: str) -> Any:
    if name.startswith("openspiel:"):
        pytest.importorskip("pyspiel")
    return purestate.make(name)


def wins_at_once(game: Any, s: Any, p: int) -> list[Any]:
    """The moves of ``s`` after which the game is over and ``p`` has the best return, 1."""
    out = []
    for m in game.legal(s):
        c = game.step(s, m)
        if game.is_over(c) and game.returns(c)[p] == 1:
            out.append(m)
    return out


def loses_at_once(game: Any, s: Any, m: Any) -> bool:
    """Whether, after ``m``, the game is lost or the opponent has a move that wins at once."""
    p = game.to_move(s)
    c = game.step(s, m)
    if game.is_over(c):
        return bool(game.returns(c)[p] < 0)
    q = game.to_move(c)
    return q != p and bool(wins_at_once(game, c, q))


def seeded_positions(name: str, want: Any, count: int) -> list[Any]:
    """The first ``count`` positions of seeded random games for which ``want(game, s)`` holds."""
    game = game_of(name)
    found: list[Any] = []
    for g in range(2000):
        k = keys.key(10_000 + g)
        s = game.initial()
        for ply in itertools.count():
            if game.is_over(s):
                break
            if want(game, s):
                found.append(s)
                if len(found) == count:
                    return found
                break
            s = game.step(s, keys.choice(keys.fold_in(k, ply), game.legal(s)))
    raise AssertionError(f"{name}: only {len(found)} positions in 2,000 random games")


def can_win(game: Any, s: Any) -> bool:
    return len(game.legal(s)) > 2 and bool(wins_at_once(game, s, game.to_move(s)))


def must_defend(game: Any, s: Any) -> bool:
    """The player to move cannot win at once, some moves lose at once and some do not."""
    if wins_at_once(game, s, game.to_move(s)):
        return False
    losing = [loses_at_once(game, s, m) for m in game.legal(s)]
    return any(losing) and not all(losing) and len(losing) > 2


@pytest.mark.parametrize("name", GAMES)
def test_default_takes_an_immediate_win_with_one_simulation(name: str) -> None:
    game = game_of(name)
    a = purestate.agent("mcts:simulations=1")
    for i, s in enumerate(seeded_positions(name, can_win, 8)):
        p = game.to_move(s)
        d = a.act(game, a.initial_table(game, p), s, keys.key(i))
        assert d.move in wins_at_once(game, s, p), (name, i)
        assert d.table.root.proven == 1.0  # proven when the root was made, before any playout


@pytest.mark.parametrize("name", GAMES)
def test_default_blocks_an_immediate_loss_with_one_simulation_per_move(name: str) -> None:
    game = game_of(name)
    for i, s in enumerate(seeded_positions(name, must_defend, 8)):
        a = purestate.agent(f"mcts:simulations={len(game.legal(s))},reuse=false")
        for seed in range(3):
            d = a.act(game, Tree(), s, keys.key(100 * i + seed))
            assert not loses_at_once(game, s, d.move), (name, i, seed)


def test_solver_proves_a_fork_lost_with_one_simulation_per_move() -> None:
    s = play_moves(TTT, [6, 2, 0, 3, 8])  # X threatens 4 and 7; O has four moves
    tree = MCTS(simulations=100).search(TTT, Tree(), s, keys.key(0))
    assert tree.root is not None
    assert tree.root.proven == 0.0
    assert tree.simulations == len(TTT.legal(s))  # each move proven lost the moment it was made
    old = MCTS(simulations=100, decisive=False).search(TTT, Tree(), s, keys.key(0))
    assert old.simulations > tree.simulations


def test_auto_playouts_follow_the_games_kernels() -> None:
    def stats(spec: str, game: Any, s: Any) -> list[tuple[Any, int, float]]:
        a = purestate.agent(spec)
        tree = a.act(game, Tree(), s, keys.key(4)).table
        return [(c.move, c.n, c.w) for c in tree.root.children]

    uttt = purestate.make("ultimate_tictactoe")
    assert stats("mcts:simulations=200", uttt, uttt.initial()) == stats(
        "mcts:simulations=200,playout=random", uttt, uttt.initial()
    )
    s = play_moves(TTT, [4])
    assert stats("mcts:simulations=200", TTT, s) == stats(
        "mcts:simulations=200,playout=decisive", TTT, s
    )
    assert stats("mcts:simulations=200", TTT, s) != stats(
        "mcts:simulations=200,playout=random", TTT, s
    )
    # a game with both kernels (connect four): auto is its decisive one, anti-decisive
    c4 = purestate.make("connect_four")
    auto = stats("mcts:simulations=200", c4, c4.initial())
    assert auto == stats("mcts:simulations=200,playout=antidecisive", c4, c4.initial())
    for other in ("random", "decisive"):
        assert auto != stats(f"mcts:simulations=200,playout={other}", c4, c4.initial())


def test_classic_spec_spells_out_the_old_defaults() -> None:
    from purestate.core.registry import classic_spec

    old = classic_spec("mcts:simulations=300")
    assert old == "mcts:simulations=300,c=1.0,playout=random,decisive=false,draws=mersenne"
    a = purestate.agent(old)
    assert (a.c, a.playout, a.decisive, a.simulations) == (1.0, "random", False, 300)
    assert a.draws == "mersenne"  # the playout kernels' draws before run format 3
    assert classic_spec("mcts:c=0.5,playout=decisive") == (
        "mcts:c=0.5,playout=decisive,decisive=false,draws=mersenne"
    )
    assert classic_spec("random") == "random"


@pytest.mark.parametrize(
    ("spec", "moves", "visits"),
    [
        # root visits of mcts:playout=random,simulations=300,solver=false from these positions
        # with key(7), as the search of run formats 1 and 2 (commit 6b30b62) gave them
        ("tictactoe", [4], [79, 77, 18, 19, 7, 21, 69, 10]),
        ("dots_and_boxes:rows=2,cols=2", [0, 5], [20, 20, 46, 9, 2, 22, 68, 15, 61, 37]),
    ],
)
def test_draws_mersenne_plays_random_playouts_from_the_searchs_generator_as_before(
    spec: str, moves: list[int], visits: list[int]
) -> None:
    # games without a random kernel: under draws=counter simulation i draws from its own key,
    # under draws=mersenne (old runs) from the search's one generator, as they did
    game = purestate.make(spec)
    state = play_moves(game, moves)
    agent = MCTS(playout="random", simulations=300, solver=False, draws="mersenne")
    root = agent.search(game, Tree(), state, keys.key(7)).root
    assert root is not None
    assert [ch.n for ch in sorted(root.children, key=lambda ch: ch.move)] == visits
    counter = MCTS(playout="random", simulations=300, solver=False).search(
        game, Tree(), state, keys.key(7)
    )
    assert counter.root is not None
    assert sorted((ch.move, ch.n) for ch in counter.root.children) != sorted(
        (ch.move, ch.n) for ch in root.children
    )


@pytest.mark.parametrize(
    ("spec", "moves", "visits"),
    [
        # root visits (by move) of mcts:simulations=300 from these positions with key(7), as the
        # search of run format 3 (commit a9ca7e8, draws=counter then) gave them
        ("tictactoe", [4], [10, 21, 15, 13, 5, 10, 5, 221]),
        ("connect_four", [3, 3], [9, 2, 277, 4, 2, 2, 4]),
        ("ultimate_tictactoe", [40], [2, 87, 2, 13, 34, 26, 5, 131]),
    ],
)
def test_draws_playouts_shuffles_from_the_generator_as_format_3_did(
    spec: str, moves: list[int], visits: list[int]
) -> None:
    game = purestate.make(spec)
    state = play_moves(game, moves)
    root = MCTS(simulations=300, draws="playouts").search(game, Tree(), state, keys.key(7)).root
    assert root is not None
    assert [ch.n for ch in sorted(root.children, key=lambda ch: ch.move)] == visits
    # today's default shuffles on the counter stream: another (equally random) tree
    today = MCTS(simulations=300).search(game, Tree(), state, keys.key(7)).root
    assert today is not None
    assert [ch.n for ch in sorted(today.children, key=lambda ch: ch.move)] != visits


def test_draws_shared_plays_tron_as_format_4_did() -> None:
    # Tron has no decisive kernel of its own: its default (auto) playout is the generic decisive
    # one. Format 4 drew every such playout from the search's one generator (draws=shared now);
    # today each draws from its simulation's key, which the compiled tree's decisive0 plays too
    game = purestate.make("tron:map=small_room")
    state = play_moves(game, [3])
    # root visits by move with key(7), as main at 041e2a2 (format 4) gave them
    old = [(0, 258), (1, 0), (2, 42), (3, 0)]
    trees = {}
    for draws in ("shared", "counter"):
        for compiled in (True, False):
            agent = MCTS(simulations=300, draws=draws)
            (tree,) = search_many(
                agent, game, [Tree()], [state], [keys.key(7)], compiled_tree=compiled
            )
            assert tree.root is not None
            trees[draws, compiled] = sorted((ch.move, ch.n) for ch in tree.root.children)
    assert trees["shared", True] == trees["shared", False] == old
    assert trees["counter", True] == trees["counter", False] != old
    assert history.defaults_then("mcts", 4) == {"draws": "shared"}


def test_draws_shared_evaluates_and_thresholds_as_format_4_did() -> None:
    # alphazero's mix (rollout_evaluator) and expand_at playouts on games without a decisive
    # kernel: format 4 drew the evaluator's from each key's generator and the threshold's from
    # the search's one generator; draws=shared gives both back (as main at 041e2a2 played them)
    old_values = {
        "tictactoe": [1.0, -1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0],
        "dots_and_boxes:rows=2,cols=2": [1.0, -1.0, 1.0, -1.0, -1.0, -1.0, 0.0, 1.0],
        "tron:map=small_room": [1.0, 1.0, -1.0, -1.0, -1.0, 1.0, -1.0, -1.0],
    }
    ks = [keys.key(i) for i in range(8)]
    for spec, old in old_values.items():
        game = purestate.make(spec)
        states = [game.initial()] * 8
        shared = rollout_evaluator("auto", draws="shared")(game, states, ks)
        assert [v for _, v in shared] == old
        today = rollout_evaluator("auto")(game, states, ks)
        returns = [
            game.returns(decisive_playout(game, s, keys.stream(k), False))[game.to_move(s)]
            for s, k in zip(states, ks, strict=True)
        ]
        assert [v for _, v in today] == [max(-1.0, min(1.0, r)) for r in returns]  # clipped
    ttt = purestate.make("tictactoe")
    old_visits = [(0, 39), (1, 6), (2, 39), (3, 66), (4, 12), (5, 23), (6, 10), (7, 1), (8, 3)]
    for draws in ("shared", "counter"):
        evaluator = rollout_evaluator("auto", draws=draws)  # type: ignore[arg-type]
        agent = MCTS(simulations=200, select="puct", expand_at=4, evaluator=evaluator, draws=draws)  # type: ignore[arg-type]
        tree = agent.search(ttt, Tree(), ttt.initial(), keys.key(3))
        assert tree.root is not None
        visits = sorted((c.move, c.n) for c in tree.root.children)
        assert (visits == old_visits) == (draws == "shared")
    assert history.defaults_then("alphazero", 4)["draws"] == "shared"


def test_a_game_ending_draw_does_not_prove_a_node_that_has_other_moves() -> None:
    # X may close the last open board (3) with a draw, or play on; before format 4 the new node
    # was proven a draw by that one child, its other moves not yet listed
    game = purestate.make("ultimate_tictactoe")
    state = game.decode(
        "XOOO.O..O/OOXXXX.../.OO...XXX/XX...XO../X.XOOO..O/.OO.OXO../XX.O.XOOO/......XXX/"
        "X.X.X.XOO *"
    )
    assert game.legal(state) == (29, 30, 31, 34, 35) and game.ending_moves(state) == (29,)
    for compiled in (True, False):
        (tree,) = search_many(
            MCTS(simulations=1), game, [Tree()], [state], [keys.key(1)], compiled_tree=compiled
        )
        assert tree.root is not None and tree.simulations == 1
        root = tree.root
        assert root.proven is None  # the other four moves are still to be searched
        assert (root.children[0].move, root.children[0].proven) == (29, 0.5)
        assert sorted([*root.untried, *(ch.move for ch in root.children[1:])]) == [30, 31, 34, 35]
    old = MCTS(simulations=1, draws="playouts").search(game, Tree(), state, keys.key(1))
    assert old.root is not None and old.root.proven == 0.5 and old.simulations == 0


def test_counter_shuffle_is_fisher_yates_on_the_counter_stream() -> None:
    # item i (from the last down) swaps with item int(draw(k, j) * (i + 1)), j counting draws
    k = keys.key(5)
    for size in (0, 1, 2, 3, 9, 81):
        ours = list(range(size))
        counter_shuffle(ours, keys.stream(k))
        theirs = list(range(size))
        for j, i in enumerate(range(size - 1, 0, -1)):
            r = int(keys.draw(k, j) * (i + 1))
            theirs[i], theirs[r] = theirs[r], theirs[i]
        assert ours == theirs
        assert sorted(ours) == list(range(size))


def test_a_run_saved_before_the_new_defaults_resumes_as_it_was_played(tmp_path: Any) -> None:
    import json

    from typer.testing import CliRunner

    from purestate.cli import app
    from purestate.core.registry import classic_spec

    def selfplay(*args: str) -> Any:
        cmd = ["selfplay", "--agent", "menace", "--seed", "3", "--no-plot", *args]
        return CliRunner().invoke(app, cmd)

    old_spec = "mcts:simulations=20"  # what a run.json written before issue 15 holds
    then = classic_spec(old_spec)
    whole, part = tmp_path / "whole", tmp_path / "part"
    assert selfplay("--opponent", then, "--games", "8", "--out", str(whole)).exit_code == 0
    assert selfplay("--opponent", then, "--games", "4", "--out", str(part)).exit_code == 0
    manifest = json.loads((part / "run.json").read_text())
    assert manifest["format"] == f"purestate.run/{history.VERSION}"
    manifest.update(format="purestate.run/1", opponent=old_spec)
    del manifest["as_typed"]  # a run.json of format /1 held only the canonical specs
    (part / "run.json").write_text(json.dumps(manifest))
    bare = tmp_path / "bare"
    shutil.copytree(part, bare)
    # the old text means the old defaults: today's `mcts:simulations=20` is another opponent
    refused = selfplay("--opponent", old_spec, "--games", "8", "--resume", str(part))
    assert refused.exit_code == 2
    assert "opponent" in refused.output and len(refused.output.strip().splitlines()) == 1
    assert selfplay("--opponent", then, "--games", "8", "--resume", str(part)).exit_code == 0
    assert (part / "games.jsonl").read_text() == (whole / "games.jsonl").read_text()
    # naming only the folder, the run takes its opponent as it meant then
    resumed = CliRunner().invoke(
        app, ["selfplay", "--resume", str(bare), "--games", "8", "--no-plot"]
    )
    assert resumed.exit_code == 0, resumed.output
    assert (bare / "games.jsonl").read_text() == (whole / "games.jsonl").read_text()


def test_a_sweep_saved_before_the_new_defaults_keeps_its_mcts_opponent(tmp_path: Any) -> None:
    import json

    from typer.testing import CliRunner

    from purestate.cli import app
    from purestate.core.registry import classic_spec

    def sweep(opponent: str, *args: str) -> Any:
        cmd = ["sweep", "--grid", "menace", "--seeds", "0", "--games", "4", "--block", "2",
               "--opponent", opponent, "--jobs", "1", *args]  # fmt: skip
        return CliRunner().invoke(app, cmd)

    old_spec, folders = "mcts:simulations=5", {}
    for opponent in (old_spec, "random"):
        folder = tmp_path / opponent.partition(":")[0]
        assert sweep(opponent, "--out", str(folder)).exit_code == 0
        saved = json.loads((folder / "sweep.json").read_text())
        assert saved.pop("format") == f"purestate.sweep/{history.VERSION}"
        (folder / "sweep.json").write_text(json.dumps(saved))  # as written before issue 15
        folders[opponent] = folder
    refused = sweep(old_spec, "--resume", str(folders[old_spec]))
    assert refused.exit_code == 2 and "different sweep" in refused.output
    assert sweep(classic_spec(old_spec), "--resume", str(folders[old_spec])).exit_code == 0
    assert sweep("random", "--resume", str(folders["random"])).exit_code == 0  # others unchanged


def test_shuffle_is_random_shuffle_of_the_same_generator() -> None:
    # the search's shuffle must stay the standard library's (old runs replay with it)
    for seed in range(200):
        for size in (0, 1, 2, 3, 7, 8, 9, 16, 33, 81):
            ours, theirs = list(range(size)), list(range(size))
            a, b = random.Random(seed), random.Random(seed)
            shuffle(ours, a.getrandbits)
            b.shuffle(theirs)
            assert ours == theirs
            assert a.random() == b.random()  # the same draws consumed


def test_simulation_i_evaluates_its_leaf_with_fold_in_of_the_playout_key() -> None:
    # the keys are made in blocks (64, 128, then the rest): each must be fold_in's
    game = purestate.make("ultimate_tictactoe")
    seen: list[int] = []

    def evaluator(g: Any, states: Any, leaf_keys: Any) -> list[Any]:
        seen.extend(leaf_keys)
        return [((1.0 / len(g.legal(s)),) * len(g.legal(s)), 0.0) for s in states]

    key = keys.key(11)
    tree = MCTS(simulations=250, evaluator=evaluator).search(game, Tree(), game.initial(), key)
    k_playout = keys.split(key, 3)[1]
    assert tree.simulations == len(seen) == 250  # no leaf is decided this early
    assert seen == [keys.fold_in(k_playout, i) for i in range(250)]


def test_a_compiled_tree_is_freed_as_soon_as_it_is_dropped() -> None:
    # a tree of a few seconds' search holds hundreds of MB of arrays; no reference cycle may
    # keep them until the garbage collector runs (each move of a game drops the last tree)
    import gc
    import weakref

    pytest.importorskip("numba")
    game = purestate.make("ultimate_tictactoe")
    agent = purestate.agent("mcts:simulations=300")
    gc.disable()
    try:
        decision = agent.act(game, Tree(), game.initial(), keys.key(1))
        tree = decision.table
        assert isinstance(tree, Tree) and tree.root is not None
        child = max(tree.root.children, key=lambda c: c.n)
        reply = max(child.children, key=lambda c: c.n)
        row = reply.row()  # a node read from the search's arrays
        arrays = weakref.ref(row.base)
        state = game.step(game.step(game.initial(), child.move), reply.move)
        agent.act(game, tree, state, keys.key(2))  # the next move reuses the tree, then drops it
        del decision, tree, child, reply, row
        assert arrays() is None
    finally:
        gc.enable()
