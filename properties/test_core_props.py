"""Core machinery: keys are pure and well spread, spec strings parse, statistics are sane."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from purestate.core import keys as K
from purestate.core.learning import blocks, tally, wilson
from purestate.core.spec import parse_spec

from .strategies import keys


@given(keys(), st.integers(0, 2**40))
def test_draws_are_in_range_and_children_differ(k: K.Key, i: int) -> None:
    assert 0.0 <= K.uniform(k) < 1.0
    assert K.fold_in(k, i) != K.fold_in(k, i + 1)


@given(keys(), st.one_of(st.integers(-10, 5000), st.integers(-(2**70), 2**70)))
def test_fold_in_table_and_fold_bits_keep_the_definition(k: K.Key, i: int) -> None:
    # the look-up table for small data and the written-out fold_bits are speed-ups only: both
    # must equal the definition, or every seeded experiment would change
    defined = K.mix(k ^ K.mix((i & K.MASK) ^ 0xF01D))
    assert K.fold_in(k, i) == defined
    assert K.fold_bits(k, i) == K.bits(K.Key(defined))


@given(keys(), st.integers(1, 1000))
def test_below_is_in_range(k: K.Key, n: int) -> None:
    assert 0 <= K.below(k, n) < n


@given(keys(), st.lists(st.floats(0, 100), min_size=1, max_size=12))
def test_weighted_index_never_picks_a_zero_weight(k: K.Key, weights: list[float]) -> None:
    if sum(weights) <= 0:
        return
    i = K.weighted_index(k, weights)
    assert 0 <= i < len(weights) and weights[i] > 0


@given(keys(), st.integers(2, 8))
def test_split_gives_distinct_keys(k: K.Key, n: int) -> None:
    children = K.split(k, n)
    assert len(set(children)) == n


@given(
    st.from_regex(r"[a-z_]{1,10}", fullmatch=True),
    st.dictionaries(
        st.from_regex(r"[a-z_]{1,8}", fullmatch=True),
        st.from_regex(r"[a-z0-9./-]{1,8}", fullmatch=True),
        max_size=4,
    ),
)
def test_spec_strings_parse_back(name: str, params: dict[str, str]) -> None:
    text = name + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")
    assert parse_spec(text) == (name, params)


@given(st.lists(st.sampled_from([-1, 0, 1]), max_size=300), st.integers(1, 50))
def test_blocks_add_up(outcomes: list[int], size: int) -> None:
    parts = blocks(outcomes, size)
    total = tally(outcomes)
    assert sum(b.games for b in parts) == total.games == len(outcomes)
    assert sum(b.wins for b in parts) == total.wins


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_contains_the_rate(k: int, n: int) -> None:
    k = min(k, n)
    low, high = wilson(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0
