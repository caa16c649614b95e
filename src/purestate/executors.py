"""Executors (shell side): run a list of pure function calls and get the values back, in order.

The contract every executor keeps (the local one and the Dask one here):

- ``run(fn, items, progress)`` returns ``[fn(item) for item in items]``, in the order of
  ``items``, whatever the number of workers and whatever order the calls finish in;
- ``fn`` is a module-level function and the items are immutable values, so both can be pickled
  and sent anywhere; ``fn`` must be pure, so where it runs does not change what it returns;
- ``progress(done, total)`` is called in the caller's process after each finished batch, so the
  shell can draw a progress bar;
- local workers never outlive the process that started them: a ``kill -9`` of a command leaves no
  worker behind (one would keep the run folder's lock, which it inherits, and the folder locked).

Starting processes, freezing the garbage collector before a fork and connecting to a cluster are
effects, so this module belongs to the shell beside ``io`` (the pure layers never import it): the
commands in ``cli`` pick an executor and hand it the pure functions of ``experiments``.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import gc
import importlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Protocol, TypeVar

from attrs import frozen

from purestate.core.spec import SpecError

T = TypeVar("T")
R = TypeVar("R")

Progress = Callable[[int, int], None]


class Executor(Protocol):
    """Runs pure calls on immutable values and returns the values in input order."""

    def run(
        self, fn: Callable[[T], R], items: Sequence[T], progress: Progress | None = None
    ) -> list[R]:
        """``[fn(item) for item in items]``, computed wherever the executor likes."""
        ...


_PR_SET_PDEATHSIG = 1  # linux/prctl.h
_WATCH_SECONDS = 0.2


def _kernel_kills_orphans() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; False where that is not possible."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    os._exit(1)


def _die_with_owner(owner: int | None) -> None:
    """A worker's initializer: end the worker as soon as the process that started it dies.

    An orphaned worker would wait forever for work on a pipe it holds both ends of, keeping every
    file the owner had open when it forked, the run folder's locked ``.lock`` included.

    Args:
        owner: The pid of the process that started the pool when it is also the worker's parent
            (fork, spawn), None when it is not (forkserver: the server is the parent and ends with
            the owner).
    """
    parent = os.getppid()
    if owner is not None and parent != owner:
        os._exit(1)  # the owner died before this worker got here
    if _kernel_kills_orphans():
        if os.getppid() != parent:  # the parent died before the kernel was asked
            os._exit(1)
        return
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def batch_size(total: int, workers: int) -> int:
    """Items per task when none is set: about 16 tasks per worker, at most 16 items a task.

    Many small tasks keep the workers balanced and move a progress bar from the first game (a
    tournament of 60 searches used to show 0/60 for its first 7 games a worker); the cap keeps a
    million cheap games from costing a million round trips.
    """
    return max(1, min(16, total // (16 * workers)))


def _run_batch(fn: Callable[[T], R], batch: Sequence[T]) -> list[R]:
    return [fn(item) for item in batch]


THREADED = ("jax",)
"""Libraries that start threads of their own when used: a process that has imported one is not
forked (a fork copies a lock another thread holds, and the child may wait on it forever)."""


def safe_start_method() -> str | None:
    """How to start workers from this process: ``"spawn"`` once a library of ``THREADED`` is
    imported (a table of ``alphazero`` was read, say), else the platform's default (a fork
    on Linux, which shares this process's memos with the workers)."""
    return "spawn" if any(name in sys.modules for name in THREADED) else None


@frozen
class LocalExecutor:
    """Runs calls on ``jobs`` local processes (in this process when ``jobs`` is 1).

    Attributes:
        jobs: The number of worker processes.
        batch: Items per task sent to a worker (0 = ``batch_size``: about 16 tasks per worker,
            at most 16 items, so the progress bar moves and the workers stay balanced).
        start_method: The multiprocessing start method (None = ``safe_start_method()`` when the
            workers start: the platform's default unless a threaded library is loaded).
    """

    jobs: int = 1
    batch: int = 0
    start_method: str | None = None

    def __attrs_post_init__(self) -> None:
        if self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {self.jobs}")

    def run(
        self, fn: Callable[[T], R], items: Sequence[T], progress: Progress | None = None
    ) -> list[R]:
        """``[fn(item) for item in items]``, on ``jobs`` processes, in input order."""
        total = len(items)
        if self.jobs == 1 or total <= 1:
            out = []
            for i, item in enumerate(items):
                out.append(fn(item))
                if progress is not None:
                    progress(i + 1, total)
            return out
        with self._pool() as pool:
            return _gather(pool, fn, items, self.batch or batch_size(total, self.jobs), progress)

    @contextlib.contextmanager
    def _pool(self) -> Iterator[ProcessPoolExecutor]:
        """A pool of ``jobs`` worker processes that end with this process."""
        context = multiprocessing.get_context(self.start_method or safe_start_method())
        # forked workers inherit this process's objects; freezing them keeps the workers' garbage
        # collector from walking (and copying on write) everything the parent holds
        gc.freeze()
        owner = None if context.get_start_method() == "forkserver" else os.getpid()
        with ProcessPoolExecutor(
            max_workers=self.jobs,
            mp_context=context,
            initializer=_die_with_owner,
            initargs=(owner,),
        ) as pool:
            yield pool

    @contextlib.contextmanager
    def kept(self) -> Iterator[Executor]:
        """This executor with its workers started once and kept for every ``run`` in the block
        (a run of many short parts, each a ``run`` call, pays for starting them once)."""
        if self.jobs == 1:
            yield self
            return
        with self._pool() as pool:
            yield _Pooled(pool, self.jobs, self.batch)


@frozen
class _Pooled:
    """``LocalExecutor.run`` on a pool that is already running (``LocalExecutor.kept``)."""

    pool: ProcessPoolExecutor
    jobs: int
    batch: int

    def run(
        self, fn: Callable[[T], R], items: Sequence[T], progress: Progress | None = None
    ) -> list[R]:
        """``[fn(item) for item in items]``, on the pool's processes, in input order."""
        size = self.batch or batch_size(len(items), self.jobs)
        return _gather(self.pool, fn, items, size, progress)


def _gather(
    pool: ProcessPoolExecutor,
    fn: Callable[[T], R],
    items: Sequence[T],
    size: int,
    progress: Progress | None,
) -> list[R]:
    """``[fn(item) for item in items]`` on ``pool``, ``size`` items a task, in input order."""
    total = len(items)
    batches = [items[i : i + size] for i in range(0, total, size)]
    results: list[list[R] | None] = [None] * len(batches)
    done = 0
    pending: dict[Future[list[R]], int] = {
        pool.submit(_run_batch, fn, b): k for k, b in enumerate(batches)
    }
    while pending:
        finished, _ = wait(pending, return_when=FIRST_COMPLETED)
        for fut in finished:
            k = pending.pop(fut)
            results[k] = fut.result()
            done += len(batches[k])
            if progress is not None:
                progress(done, total)
    return [r for batch in results if batch is not None for r in batch]


@frozen
class DaskExecutor:
    """Runs calls on an existing Dask distributed cluster (``pip install purestate[dask]``).

    Work is shipped as ``_run_batch(fn, batch)`` calls on immutable values and comes back as
    values, so the results are the same as with ``LocalExecutor``; only where they are computed
    changes. The client connects when ``run`` is called and closes when it returns.

    Attributes:
        address: The scheduler's address, e.g. ``tcp://127.0.0.1:8786``.
        batch: Items per task (0 = ``batch_size``).
    """

    address: str
    batch: int = 0

    def __attrs_post_init__(self) -> None:
        # checked when the executor is made, so a command refuses before it writes anything
        comm = _distributed_comm()
        try:
            comm.resolve_address(self.address)
        except (ValueError, OSError) as e:
            raise SpecError(f"--dask {self.address!r}: {e}") from None

    def run(
        self, fn: Callable[[T], R], items: Sequence[T], progress: Progress | None = None
    ) -> list[R]:
        """``[fn(item) for item in items]``, on the cluster's workers, in input order."""
        from distributed import Client, as_completed

        total = len(items)
        with Client(self.address) as client:  # type: ignore[no-untyped-call,unused-ignore]
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            size = self.batch or batch_size(total, workers)
            batches = [items[i : i + size] for i in range(0, total, size)]
            futures = [client.submit(_run_batch, fn, b, pure=False) for b in batches]
            index = {f.key: k for k, f in enumerate(futures)}
            results: list[list[R] | None] = [None] * len(batches)
            done = 0
            for fut in as_completed(futures):  # type: ignore[no-untyped-call,unused-ignore]
                k = index[fut.key]
                results[k] = fut.result()
                done += len(batches[k])
                if progress is not None:
                    progress(done, total)
        return [r for batch in results if batch is not None for r in batch]


DASK_INSTALL = "pip install 'purestate[dask]'"


def _distributed_comm() -> Any:
    """``distributed.comm``, or a one-line ``SpecError`` naming the extra to install."""
    try:
        return importlib.import_module("distributed.comm")
    except ImportError:
        raise SpecError(f"--dask needs Dask distributed: {DASK_INSTALL}") from None


@frozen
class NotingKernels:
    """``fn`` that also says which kernels its worker process has run (``core.compiled.used``):
    a selfplay run records the path its jobs took, wherever they ran."""

    fn: Callable[[Any], Any]

    def __call__(self, item: Any) -> tuple[Any, str]:
        """``(fn(item), kernels)``."""
        from purestate.core import compiled

        return self.fn(item), compiled.used()


def noting_kernels(
    run: Callable[[Callable[[Any], Any], Sequence[Any]], list[Any]], seen: set[str]
) -> Callable[[Callable[[Any], Any], Sequence[Any]], list[Any]]:
    """An executor's ``run`` that adds to ``seen`` the kernels each call's process used."""

    def noted(fn: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
        pairs = run(NotingKernels(fn), items)
        seen.update(k for _, k in pairs)
        return [out for out, _ in pairs]

    return noted


@contextlib.contextmanager
def kept(ex: Executor) -> Iterator[Executor]:
    """``ex`` with its workers kept up for every ``run`` in the block (``LocalExecutor.kept``);
    a Dask cluster's workers are up already, so it is ``ex`` itself."""
    if isinstance(ex, LocalExecutor):
        with ex.kept() as pooled:
            yield pooled
        return
    yield ex


def executor(jobs: int = 1, dask: str | None = None, start_method: str | None = None) -> Executor:
    """The executor asked for: Dask at ``dask`` if given, else ``jobs`` local processes, started
    by ``start_method`` (None: the platform's default; ``"spawn"`` for work that runs threads in
    this process before the workers start, as JAX does, which a fork would copy half-held).

    Raises:
        SpecError: Dask is not installed, or ``dask`` is not a scheduler address.
    """
    if dask:
        return DaskExecutor(dask)
    return LocalExecutor(jobs, start_method=start_method)
