"""``compiled.jit_bound`` names each specialised kernel by what it compiles to, helpers and
module constants included, so numba's on-disk cache never hands back machine code built from an
older game function (skipped without numba)."""

from __future__ import annotations

import types
from typing import Any

import pytest

from purestate.core import compiled

pytest.importorskip("numba")


def kernel() -> int:
    return bound() + 1  # type: ignore[name-defined]  # noqa: F821  # bound by jit_bound


def named(source: str, globals_: dict[str, Any]) -> Any:
    """The function ``f`` of ``source``, its globals ``globals_`` (a module of its own)."""
    space = dict(globals_)
    exec(source, space)  # the test's own literal source
    return space["f"]


def name_of(bound: Any) -> str:
    made = compiled.jit_bound(kernel, {"bound": bound})
    qualname: str = made.py_func.__qualname__
    return qualname


def test_a_changed_helper_or_constant_renames_the_kernel() -> None:
    helper_a = compiled.jit(named("def f():\n    return 1\n", {}))
    helper_b = compiled.jit(named("def f():\n    return 2\n", {}))
    calls = "def f():\n    return helper() + WIDTH\n"
    base = name_of(named(calls, {"helper": helper_a, "WIDTH": 3}))
    # the bound function's own bytecode is the same in every case below
    assert name_of(named(calls, {"helper": helper_a, "WIDTH": 3})) == base
    assert name_of(named(calls, {"helper": helper_b, "WIDTH": 3})) != base
    assert name_of(named(calls, {"helper": helper_a, "WIDTH": 4})) != base
    # and the kernel runs what it was bound to
    made = compiled.jit_bound(
        kernel, {"bound": compiled.jit(named(calls, {"helper": helper_b, "WIDTH": 4}))}
    )
    assert made() == 2 + 4 + 1


def test_the_name_depends_on_the_code_not_the_function_object() -> None:
    # a digest, not an address: another process's function of the same code finds the entry
    one = named("def f():\n    return 7\n", {})
    two = types.FunctionType(one.__code__, {}, "f")
    assert name_of(one) == name_of(two)
