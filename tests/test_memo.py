"""One memo policy (core/memo.py): every module-level memo states its bound, hands out nothing a
caller could change, and is consulted only after its arguments were checked."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import purestate
from purestate.agents import menace, perfect, rules
from purestate.core.agent import Decision
from purestate.core.game import GameSpec, IllegalMove
from purestate.core.keys import key
from purestate.core.memo import DictMemo, LruTable, memo
from purestate.core.spec import SpecError
from purestate.games.tictactoe import State

SRC = Path(__file__).resolve().parents[1] / "src" / "purestate"
TTT = purestate.make("tictactoe")


def test_memo_remembers_and_states_its_bound() -> None:
    calls: list[int] = []

    @memo(size=2, why="a test")
    def double(n: int) -> int:
        calls.append(n)
        return 2 * n

    assert [double(1), double(1), double(2), double(3), double(1)] == [2, 2, 4, 6, 2]
    assert calls == [1, 2, 3, 1]  # 1 was evicted by 2 and 3: least recently used first
    assert double.memo_size == 2 and double.memo_why == "a test"
    assert double.cache_info().currsize == 2


def test_memo_refuses_a_mutable_result_and_an_unstated_bound() -> None:
    @memo(size=None, why="a test")
    def table(n: int) -> dict[int, int]:
        return {n: n}

    with pytest.raises(TypeError, match="mutable"):
        table(1)
    with pytest.raises(TypeError, match="mutable"):
        table(1)  # nothing was remembered
    with pytest.raises(ValueError, match="why"):
        memo(size=8, why=" ")
    for size in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="size"):
            memo(size=size, why="a test")  # type: ignore[arg-type]


def test_dict_memo_reads_as_a_dict_and_forgets_everything_at_its_bound() -> None:
    m: DictMemo[int, str] = DictMemo(2, why="a test")
    entries = m.entries
    assert m.put(1, "a") == "a" and m.put(1, "other") == "a"  # the first value stays
    m.put(2, "b")
    m.put(3, "c")  # full: forgets 1 and 2, in the same dict its readers hold
    assert entries == {3: "c"} and m.entries is entries
    unbounded: DictMemo[int, int] = DictMemo(None, why="a test")
    for i in range(100):
        unbounded.put(i, i)
    assert len(unbounded.entries) == 100


def test_lru_table_keeps_the_most_recently_used() -> None:
    t: LruTable[str, int] = LruTable(2, why="a test")
    t.put("a", 1)
    t.put("b", 2)
    assert t.get("a") == 1  # a is now the most recent
    t.put("c", 3)
    assert t.get("b") is None and t.get("a") == 1 and t.get("c") == 3
    assert len(t) == 2 and t.pop("a") == 1 and t.pop("a") is None


def test_no_hand_rolled_caches_outside_core_memo() -> None:
    # functools caches and module-level dicts named as memos: the policy lives in core/memo.py
    allowed = ("core/memo.py",)
    pattern = re.compile(
        r"lru_cache|functools\.cache\b|@cache\b|^_[A-Z_]*(MEMO|CACHE)\w*\s*(:\s*dict\[|=\s*\{\})"
    )
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(allowed):
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line) and not line.lstrip().startswith("#"):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert found == []


def test_menace_box_index_cannot_be_changed_by_a_caller() -> None:
    index = menace.box_index(TTT, 0, False, True)
    some = next(iter(index))
    with pytest.raises(TypeError):
        index[some] = index[some]  # type: ignore[index]
    with pytest.raises((TypeError, AttributeError)):
        index.clear()  # type: ignore[attr-defined]
    assert len(menace.box_index(TTT, 0, False, True)) == 304


def test_perfect_best_moves_is_bounded() -> None:
    assert perfect.best_moves.memo_size is not None
    assert perfect.best_moves.memo_size >= TTT.spec.positions  # tic-tac-toe stays whole


def test_rules_check_the_game_and_state_before_their_memos() -> None:
    class Other:
        spec = GameSpec("other", 2, 9)

    agent = purestate.agent("rules:p=1,tiebreak=first")
    s = TTT.step(TTT.initial(), 0)
    assert agent.act(TTT, None, s, key(0)) == Decision(4)  # now remembered
    with pytest.raises(SpecError, match="tic-tac-toe only"):
        agent.act(Other(), None, s, key(0))  # type: ignore[arg-type]
    random_moves = purestate.agent("rules:p=0")
    random_moves.act(TTT, None, s, key(0))
    with pytest.raises(SpecError, match="tic-tac-toe only"):
        random_moves.act(Other(), None, s, key(0))  # type: ignore[arg-type]
    # an unreachable position is refused by the rules, remembered or not
    for _ in range(2):
        with pytest.raises(IllegalMove, match="reachable"):
            random_moves.act(TTT, None, State(0b11, 0, 0), key(0))
    with pytest.raises(ValueError, match="opening"):
        rules.rule_moves(s, "edge")  # type: ignore[arg-type]
    with pytest.raises(IllegalMove, match="tic-tac-toe state"):
        rules.rule_moves((0, 0, 0), "centre")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, True, 4.0, "4", None, (4,)])
def test_tictactoe_refuses_a_lookalike_before_and_after_the_child_is_cached(bad: Any) -> None:
    # a position never stepped from before in this process: its children are not cached yet
    s = TTT.step(TTT.step(TTT.step(TTT.initial(), 8), 6), 7)
    with pytest.raises(IllegalMove):
        TTT.step(s, bad)
    child = TTT.step(s, 4)
    with pytest.raises(IllegalMove):
        TTT.step(s, bad)
    assert TTT.step(s, 4) is child
