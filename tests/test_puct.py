"""PUCT in the MCTS tree with injected evaluators: examples (issue 23's search)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from tests.moves import play_moves
from tests.test_mcts import exact

import purestate
from purestate.agents.mcts import (
    MCTS,
    Evaluation,
    Tree,
    best_child,
    choose_move,
    rollout_evaluator,
    search_many,
    visit_distribution,
)
from purestate.core import keys
from purestate.core.keys import Key

TTT = purestate.make("tictactoe")


def perfect(game: Any, states: Sequence[Any], leaf_keys: Sequence[Key]) -> list[Evaluation]:
    """The solver's value with uniform priors."""
    out: list[Evaluation] = []
    for s in states:
        n = len(game.legal(s))
        out.append(((1.0 / n,) * n, exact(s)))
    return out


def uniform(game: Any, states: Sequence[Any], leaf_keys: Sequence[Key]) -> list[Evaluation]:
    """Uniform priors, value 0: the trivial evaluator."""
    return [((1.0 / len(game.legal(s)),) * len(game.legal(s)), 0.0) for s in states]


def winning_positions(count: int) -> list[Any]:
    """Positions of seeded random games where some moves win and others do not, none at once."""
    found = []
    for i in range(2000):
        k = keys.key(7000 + i)
        s = TTT.initial()
        while not TTT.is_over(s) and len(found) < count:
            p = TTT.to_move(s)
            values = [
                TTT.returns(c)[p] if TTT.is_over(c) else -exact(c)
                for c in (TTT.step(s, m) for m in TTT.legal(s))
            ]
            at_once = any(TTT.is_over(TTT.step(s, m)) for m in TTT.legal(s))
            if max(values) == 1.0 and min(values) < 1.0 and not at_once and s not in found:
                found.append(s)
            s = TTT.step(s, keys.choice(keys.fold_in(k, len(found)), TTT.legal(s)))
        if len(found) >= count:
            return found
    raise AssertionError(f"only {len(found)} winning positions")


def wins(state: Any, move: Any) -> bool:
    p = TTT.to_move(state)
    c = TTT.step(state, move)
    return (TTT.returns(c)[p] if TTT.is_over(c) else -exact(c)) == 1.0


@pytest.mark.parametrize("solver", [True, False])
def test_puct_with_a_perfect_evaluator_plays_the_winning_move(solver: bool) -> None:
    agent = MCTS(simulations=200, select="puct", solver=solver, evaluator=perfect)
    for i, s in enumerate(winning_positions(25)):
        move = agent.act(TTT, Tree(), s, keys.key(i)).move
        assert wins(s, move), (i, TTT.render(s), move)


def test_puct_without_an_evaluator_blocks_and_proves() -> None:
    s = play_moves(TTT, [0, 4, 1])  # O must block at 2
    for seed in range(5):
        assert (
            purestate.agent("mcts:select=puct,simulations=300")
            .act(TTT, Tree(), s, keys.key(seed))
            .move
            == 2
        )
    win = play_moves(TTT, [0, 3, 1, 4])  # X wins at 2, proven before any evaluation
    calls: list[int] = []

    def counting(game: Any, states: Sequence[Any], ks: Sequence[Key]) -> list[Evaluation]:
        calls.append(len(states))
        return uniform(game, states, ks)

    tree = MCTS(select="puct", evaluator=counting).search(TTT, Tree(), win, keys.key(0))
    assert tree.root is not None and tree.root.proven == 1.0
    assert best_child(tree.root).move == 2
    assert calls == []
    assert visit_distribution(TTT, tree) == tuple(1.0 if m == 2 else 0.0 for m in TTT.legal(win))


def test_the_evaluator_gets_the_leaves_and_sets_the_priors() -> None:
    seen: list[tuple[Any, Key]] = []

    def first_move(game: Any, states: Sequence[Any], ks: Sequence[Key]) -> list[Evaluation]:
        seen.extend(zip(states, ks, strict=True))
        # all the prior on the first legal move
        return [((1.0,) + (0.0,) * (len(game.legal(s)) - 1), 0.0) for s in states]

    s = TTT.initial()
    tree = MCTS(simulations=5, select="puct", evaluator=first_move).search(
        TTT, Tree(), s, keys.key(2)
    )
    assert tree.root is not None
    assert seen[0][0] == s  # the root is evaluated first
    assert len(seen) == 5 and len({k for _, k in seen}) == 5  # one key per leaf
    assert [ch.move for ch in tree.root.children] == list(TTT.legal(s))
    assert [ch.prior for ch in tree.root.children] == [1.0] + [0.0] * 8
    assert best_child(tree.root).move == 0  # the line the priors follow


def test_an_evaluator_giving_the_wrong_number_of_priors_is_refused() -> None:
    def short(game: Any, states: Sequence[Any], ks: Sequence[Key]) -> list[Evaluation]:
        return [((1.0,), 0.0) for _ in states]

    with pytest.raises(ValueError, match="1 priors for 9 legal moves"):
        MCTS(simulations=3, select="puct", evaluator=short).search(
            TTT, Tree(), TTT.initial(), keys.key(0)
        )

    def too_few(game: Any, states: Sequence[Any], ks: Sequence[Key]) -> list[Evaluation]:
        return []

    with pytest.raises(ValueError, match="0 evaluations for 1 states"):
        MCTS(simulations=3, select="puct", evaluator=too_few).search(
            TTT, Tree(), TTT.initial(), keys.key(0)
        )


def test_search_many_evaluates_all_leaves_of_a_round_in_one_call() -> None:
    batches: list[int] = []

    def counting(game: Any, states: Sequence[Any], ks: Sequence[Key]) -> list[Evaluation]:
        batches.append(len(states))
        return uniform(game, states, ks)

    starts = [TTT.initial(), play_moves(TTT, [4]), play_moves(TTT, [0, 4])]
    agent = MCTS(simulations=20, select="puct", solver=False)
    trees = search_many(agent, TTT, [Tree()] * 3, starts, [keys.key(i) for i in range(3)], counting)
    assert batches == [3] * 20  # no leaf is proven without the solver: one call a round
    assert [t.simulations for t in trees] == [20, 20, 20]
    assert [t.root.state for t in trees if t.root is not None] == starts


def test_rollout_evaluator_uses_the_games_kernel_as_the_search_does() -> None:
    from purestate.games.connect_four import ConnectFour

    c4 = ConnectFour()
    s = c4.initial()
    for m in (3, 3, 2, 4):
        s = c4.step(s, m)
    plain = MCTS(simulations=150).search(c4, Tree(), s, keys.key(4))  # auto: anti-decisive kernel
    injected = MCTS(simulations=150, evaluator=rollout_evaluator("auto")).search(
        c4, Tree(), s, keys.key(4)
    )
    assert plain.root is not None and injected.root is not None
    assert [(c.move, c.n, c.w) for c in injected.root.children] == [
        (c.move, c.n, c.w) for c in plain.root.children
    ]
    [(priors, value)] = rollout_evaluator("random")(c4, [s], [keys.key(9)])
    assert priors == (1.0 / 7,) * 7
    assert value == c4.playout(s, keys.key(9))[c4.to_move(s)]


def test_choose_move_by_temperature() -> None:
    s = play_moves(TTT, [4])
    tree = MCTS(simulations=400, select="puct").search(TTT, Tree(), s, keys.key(3))
    assert tree.root is not None
    # a tree with nothing proven at the root, where pi is the visit counts alone
    assert all(c.proven is None for c in tree.root.children)
    assert choose_move(TTT, tree, 0.0, keys.key(0)) == best_child(tree.root).move
    pi = visit_distribution(TTT, tree)
    counts = {m: n for m, n in ((c.move, c.n) for c in tree.root.children)}
    assert pi == tuple(counts[m] / sum(counts.values()) for m in TTT.legal(s))
    drawn = [choose_move(TTT, tree, 1.0, keys.key(i)) for i in range(300)]
    assert set(drawn) <= {m for m, p in zip(TTT.legal(s), pi, strict=True) if p > 0}
    assert len(set(drawn)) > 1  # a temperature of 1 explores
    assert drawn == [choose_move(TTT, tree, 1.0, keys.key(i)) for i in range(300)]
    sharp = [choose_move(TTT, tree, 0.05, keys.key(i)) for i in range(50)]
    assert set(sharp) == {best_child(tree.root).move}
    with pytest.raises(ValueError, match="temperature"):
        choose_move(TTT, tree, -1.0, keys.key(0))
    # with a move proven to lose (the reply then wins), pi leaves it out and shares the rest
    lost = MCTS(simulations=400, select="puct").search(TTT, Tree(), s, keys.key(1))
    assert lost.root is not None
    proven = {c.move for c in lost.root.children if c.proven == 0.0}
    assert proven
    counts = {c.move: (0 if c.move in proven else c.n) for c in lost.root.children}
    assert visit_distribution(TTT, lost) == tuple(
        counts[m] / sum(counts.values()) for m in TTT.legal(s)
    )


def test_noise_changes_the_root_priors_only() -> None:
    s = TTT.initial()
    plain = MCTS(simulations=30, select="puct").search(TTT, Tree(), s, keys.key(3))
    noisy = MCTS(simulations=30, select="puct", noise=0.25).search(TTT, Tree(), s, keys.key(3))
    assert plain.root is not None and noisy.root is not None
    root_priors = [c.prior for c in noisy.root.children]
    assert root_priors != [c.prior for c in plain.root.children]
    assert abs(sum(root_priors) - 1.0) < 1e-9
    assert min(root_priors) >= 0.75 / 9  # (1 - ε) of the uniform prior stays
    deeper = [g.prior for c in noisy.root.children for g in c.children]
    assert deeper and all(abs(p - 1.0 / 8) < 1e-12 for p in deeper)


def test_options_and_spec() -> None:
    assert MCTS().spec == "mcts"
    assert MCTS(select="puct", c_puct=2.0, noise=0.25, alpha=0.5).spec == (
        "mcts:select=puct,c_puct=2.0,noise=0.25,alpha=0.5"
    )
    assert purestate.agent("mcts:select=puct,c_puct=2,noise=0.25") == MCTS(
        select="puct", c_puct=2.0, noise=0.25
    )
    assert MCTS(evaluator=uniform) == MCTS()  # an injected function is not an option
    for bad in ({"c_puct": -1.0}, {"noise": 1.5}, {"alpha": 0.0}, {"select": "puct", "bias": 1.0}):
        with pytest.raises(ValueError):
            MCTS(**bad)  # type: ignore[arg-type]


def test_a_reused_root_keeps_its_players_rewards() -> None:
    # a root's w sums player 1's rewards (nobody moved into it): a reused node whose mover was
    # player 0 has its sum turned round, so PUCT's first-play urgency reads the right value
    agent = MCTS(simulations=300, select="puct", solver=False)
    s = play_moves(TTT, [0, 1])  # X to move wins
    first = agent.search(TTT, Tree(), s, keys.key(1))
    assert first.root is not None
    child = max(first.root.children, key=lambda c: c.n)
    grandchild = max(child.children, key=lambda c: c.n)
    assert (child.mover, grandchild.mover) == (0, 1)
    for node, player_one in ((child, child.n - child.w), (grandchild, grandchild.w)):
        assert abs(player_one - (node.n - player_one)) > 2  # the two readings differ
        one_more = MCTS(simulations=1, select="puct", solver=False)
        reused = one_more.search(TTT, first, node.state, keys.key(2))
        assert reused.root is not None and reused.root.n == node.n + 1
        assert 0.0 <= reused.root.w - player_one <= 1.0


def test_an_evaluator_may_answer_with_arrays() -> None:
    import numpy as np

    def as_arrays(game: Any, states: Sequence[Any], ks: Sequence[Key]) -> list[Any]:
        return [
            (np.asarray(p, dtype=np.float32), np.float32(v)) for p, v in uniform(game, states, ks)
        ]

    s = play_moves(TTT, [4])
    plain = MCTS(simulations=60, select="puct", evaluator=uniform).search(
        TTT, Tree(), s, keys.key(1)
    )
    arrays = MCTS(simulations=60, select="puct", evaluator=as_arrays).search(
        TTT, Tree(), s, keys.key(1)
    )
    assert plain.root is not None and arrays.root is not None
    got = [(c.move, c.n, c.w, c.prior) for c in arrays.root.children]
    want = [(c.move, c.n, c.w, float(np.float32(c.prior))) for c in plain.root.children]
    assert got == want
    assert all(type(c.prior) is float for c in arrays.root.children)


def test_a_timed_search_with_an_evaluator_reads_the_clock_every_simulation() -> None:
    # a clock that moves a second each time it is read: a playout search looks every 16
    # simulations, an evaluated one after each (a network call may cost more than 16 playouts)
    def ticking() -> Any:
        now = [0.0]

        def clock() -> float:
            now[0] += 1.0
            return now[0]

        return clock

    game = purestate.make("connect_four")
    state = game.initial()
    plain = MCTS(simulations=0, seconds=0.5, clock=ticking(), solver=False)
    assert plain.search(game, Tree(), state, keys.key(0)).simulations == 16
    valued = MCTS(
        simulations=0, seconds=0.5, clock=ticking(), solver=False, select="puct",
        evaluator=rollout_evaluator("random"),
    )  # fmt: skip
    assert valued.search(game, Tree(), state, keys.key(0)).simulations == 1
