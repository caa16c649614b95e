"""One memo policy for the pure functions of immutable values.

Every module-level memo in the pure layers goes through this module, so each one states its
bound and the reason for it where it is declared, and none hands out a value a caller could
change behind the memo's back:

* ``memo(size=..., why=...)`` decorates a pure function of hashable, immutable arguments. It is
  ``functools.lru_cache`` (a hit costs about what a dict look-up written inline does) with the
  bound made explicit: a number where the key space is large or unbounded (least recently used
  entries go first), ``None`` only where the key space is provably small, and ``why`` says which
  (the reason is kept on the function as ``memo_why``).
* ``LruTable(size, why)`` is the same policy for a memo that is filled from more than one place
  (an exact solution computed here or loaded by the shell from a disk cache): ``get`` and
  ``put``.
* ``DictMemo(size, why)`` is the fast path, for a look-up on the hottest paths where even a C
  ``lru_cache`` call costs a measurable share (tic-tac-toe's node table, dots and boxes'
  canonical forms): reads are plain ``dict.get`` on ``entries`` (hoist it into a local, a
  module global or a field), writes go through ``put``, which forgets everything on reaching
  ``size`` (no bookkeeping per read; for a pure function it only costs recomputation).

Two rules a memo's caller keeps:

* **Validate the arguments before the look-up.** A memo compares keys with ``==``, and
  ``True == 1 == 1.0``, so a memo consulted first would answer for ``True`` what it learned for
  ``1`` (the tic-tac-toe ``step(s, -1)`` bug came from that order: a list index took ``-1`` for
  square 8). The memoised function is private; the public one checks, then calls it.
* **Return immutable values** (ints, tuples, frozen attrs values, pyrsistent maps, or a
  ``types.MappingProxyType`` over a dict built for it where a look-up is hot, a read-only numpy
  array), or a copy.
  On a miss ``memo`` hashes the result and refuses an unhashable one (a dict, a list, a set), a
  net that catches the common mistake; an object hashed by identity still needs review.

Memos change speed, never results: a pure function's value does not depend on whether it was
remembered, so clearing one (``cache_clear``) or evicting from one is always safe.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Hashable
from types import MappingProxyType
from typing import Any, Generic, ParamSpec, Protocol, TypeVar, cast

P = ParamSpec("P")
R = TypeVar("R", covariant=True)
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memoised(Protocol[P, R]):
    """A function wrapped by ``memo``: called as the function, plus the cache's controls."""

    memo_size: int | None
    memo_why: str

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """The function's value, remembered."""
        ...

    def cache_clear(self) -> None:
        """Forget every remembered value (results are unchanged: only speed is)."""
        ...

    def cache_info(self) -> Any:
        """Hits, misses, the bound and the current size (``functools``' ``CacheInfo``)."""
        ...


def _check_policy(size: int | None, why: str) -> None:
    if size is not None and (type(size) is not int or size < 1):
        raise ValueError(f"a memo's size is a positive int or None, not {size!r}")
    if not why.strip():
        raise ValueError("a memo states why its bound is right (why=...)")


def _require_immutable(value: Any, where: str) -> None:
    if type(value) is MappingProxyType:
        return  # a read-only view: a dict look-up's speed, and no caller can change it
    if getattr(getattr(value, "flags", None), "writeable", None) is False:
        return  # a read-only numpy array (unhashable, but no caller can change it)
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            f"{where} returned a {type(value).__name__}, which is mutable: a memo shares its "
            f"values between callers, so return a tuple, a frozen value or a pyrsistent map"
        ) from None


def memo(
    *, size: int | None, why: str, unhashable_ok: str | None = None
) -> Callable[[Callable[P, R]], Memoised[P, R]]:
    """Memoise a pure function of hashable, immutable arguments.

    Args:
        size: The most entries kept, least recently used evicted first; ``None`` (unbounded)
            only where the key space is provably small.
        why: Why this bound is right (the size of the key space, or what one entry costs).
        unhashable_ok: Why an unhashable result may still be shared (a foreign object that is
            never changed once made); without it an unhashable result raises ``TypeError``.

    Returns:
        A decorator; the function it returns behaves as the original, faster on repeats, and
        keeps ``memo_size`` and ``memo_why``.

    Raises:
        ValueError: for a size that is not a positive int or None, or an empty ``why``.
    """
    _check_policy(size, why)

    def decorate(fn: Callable[P, R]) -> Memoised[P, R]:
        where = f"{fn.__module__}.{fn.__qualname__}"

        # only misses run this wrapper; hits are answered inside lru_cache (C)
        @functools.wraps(fn)
        def computed(*args: P.args, **kwargs: P.kwargs) -> R:
            value = fn(*args, **kwargs)
            if unhashable_ok is None:
                _require_immutable(value, where)
            return value

        wrapped = cast("Memoised[P, R]", functools.lru_cache(maxsize=size)(computed))
        wrapped.memo_size = size
        wrapped.memo_why = why
        return wrapped

    return decorate


class LruTable(Generic[K, V]):
    """A bounded memo filled from more than one place: ``get`` and ``put``, least recently used
    evicted first.

    For a value that is computed here or handed in from elsewhere (a solution the shell loaded
    from a disk cache); a memo with one way in is ``memo``.

    Attributes:
        size: The most entries kept.
        why: Why that bound is right.
    """

    def __init__(self, size: int, why: str) -> None:
        """An empty table of at most ``size`` entries (``why`` says why that bound is right)."""
        _check_policy(size, why)
        self.size = size
        self.why = why
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value remembered for ``key`` (now the most recently used), or None."""
        entries = self._entries
        value = entries.get(key)
        if value is not None:
            entries.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        """Remember ``value`` for ``key`` (evicting the least recently used beyond ``size``);
        return ``value``."""
        entries = self._entries
        entries[key] = value
        entries.move_to_end(key)
        if len(entries) > self.size:
            entries.popitem(last=False)
        return value

    def pop(self, key: K, default: V | None = None) -> V | None:
        """Forget ``key``; its value, or ``default`` if it was not remembered."""
        return self._entries.pop(key, default)

    def __len__(self) -> int:
        """How many entries are remembered."""
        return len(self._entries)

    def clear(self) -> None:
        """Forget every entry (results are unchanged: only speed is)."""
        self._entries.clear()


class DictMemo(Generic[K, V]):
    """The fast path: a memo read as a plain dict (``entries.get``), written through ``put``.

    For the few look-ups so hot that an ``lru_cache`` call costs a measurable share. Reaching
    ``size`` forgets every entry at once: no bookkeeping on reads.

    Attributes:
        entries: The remembered values; read them, never write them directly.
        size: The most entries kept (None: unbounded, only for a provably small key space).
        why: Why that bound is right.
    """

    __slots__ = ("entries", "size", "why")

    def __init__(self, size: int | None, why: str) -> None:
        """An empty memo of at most ``size`` entries (``why`` says why that bound is right)."""
        _check_policy(size, why)
        self.entries: dict[K, V] = {}
        self.size = size
        self.why = why

    def put(self, key: K, value: V) -> V:
        """Remember ``value`` for ``key`` (first forgetting everything if the memo is full) and
        return the value now remembered for ``key``."""
        entries = self.entries
        if self.size is not None and len(entries) >= self.size:
            entries.clear()
        return entries.setdefault(key, value)
