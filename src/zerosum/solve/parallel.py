"""Where the work on a layer runs: in this process, in a pool of processes, or on Dask.

A *mapper* takes a function and a list of argument tuples and yields the results in the order
of the tuples, whatever order the work finished in; its `width` is how many tasks run at once.
The retrograde build hands it the chunks of a layer; the function and its arguments must be
picklable (a game defined at module level is).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from zerosum.limits import Limit

Mapping = Callable[[Callable[..., Any], list[tuple]], Iterator[Any]]
CONNECT_TIMEOUT = "10s"
"""How long to wait for a Dask scheduler to answer."""


@dataclass(frozen=True)
class Mapper:
    """Runs `function(*task)` for every task, `width` at a time; yields results in task order."""

    map: Mapping
    width: int

    def __call__(self, function: Callable[..., Any], tasks: list[tuple]) -> Iterator[Any]:
        return self.map(function, tasks)


def default_workers() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


CORES_SHARED = 4
"""The most processes a core is shared by: more only take turns on it, each with its memory."""


def workers_limit() -> Limit:
    """The most worker processes a build starts on this machine: `CORES_SHARED` a core."""
    cores = default_workers()
    return Limit(
        "the worker processes of a build",
        CORES_SHARED * cores,
        f"this machine has {cores} cores; more processes only take turns on them, each with"
        " its own memory",
        liftable=False,
    )


@contextmanager
def mapper(workers: int | None = None, scheduler: str | None = None) -> Iterator[Mapper]:
    """A mapper over `workers` processes (default: every core), or the Dask cluster whose
    scheduler listens at `scheduler`; one worker, or a single task, maps in this process."""
    if scheduler is not None:
        with _dask(scheduler) as cluster:
            yield cluster
        return
    workers = default_workers() if workers is None else workers
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    workers_limit().check(workers)
    if workers == 1:
        yield Mapper(_serial, 1)
        return
    pool = None

    def mapping(function: Callable[..., Any], tasks: list[tuple]) -> Iterator[Any]:
        nonlocal pool
        if len(tasks) < 2:  # not worth a process: small layers stay here
            return _serial(function, tasks)
        if pool is None:
            pool = multiprocessing.get_context().Pool(workers, _ignore_interrupts)
        return pool.imap(_Call(function), tasks)

    try:
        yield Mapper(mapping, workers)
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()


def _ignore_interrupts() -> None:
    """In a worker: leave Ctrl-C to the building process, which stops the pool (a worker
    interrupted mid-task would print its traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _serial(function: Callable[..., Any], tasks: list[tuple]) -> Iterator[Any]:
    return (function(*task) for task in tasks)


class _Call:
    """`function(*task)`, picklable for a process pool."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function

    def __call__(self, task: tuple) -> Any:
        return self.function(*task)


def peak_memory() -> int:
    """The peak resident memory of this process so far, in bytes (0 where it is not known)."""
    try:
        import resource
    except ImportError:  # not on Unix
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


@contextmanager
def local_cluster(workers: int) -> Iterator[Mapper]:
    """A mapper over a Dask cluster of `workers` processes started on this machine, one thread
    each, and closed afterwards. Dask is given no memory limit: the work sized for a bound
    honours it (a limit would pause a worker whose freed memory the allocator keeps)."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    workers_limit().check(workers)
    try:
        import dask
        from dask.distributed import LocalCluster
    except ImportError:
        raise ValueError(_NEEDS_DASK) from None
    # Dask sets MALLOC_TRIM_THRESHOLD_ in its workers, which stops glibc from raising its mmap
    # threshold: every large numpy array is then a fresh mapping whose pages fault in anew, and
    # a build's tasks took twice as long as in a plain process (5x4 Connect Four).
    environment = dict(dask.config.get("distributed.nanny.pre-spawn-environ", {}))
    environment.pop("MALLOC_TRIM_THRESHOLD_", None)
    with (
        dask.config.set({"distributed.nanny.pre-spawn-environ": environment}),
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            memory_limit=0,
        ) as cluster,
        _dask(cluster.scheduler_address) as mapping,
    ):
        yield mapping


_NEEDS_DASK = "a Dask cluster needs dask: pip install 'zerosum[distributed]'"


@contextmanager
def _dask(address: str) -> Iterator[Mapper]:
    try:
        from dask.distributed import Client
    except ImportError:
        raise ValueError(_NEEDS_DASK) from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as error:
        raise ValueError(f"cannot reach the Dask scheduler at {address!r}: {error}") from None

    def mapping(function: Callable[..., Any], tasks: list[tuple]) -> Iterator[Any]:
        futures = client.map(function, *zip(*tasks, strict=True), pure=False) if tasks else []
        return (_result(future) for future in futures)

    try:
        yield Mapper(mapping, max(1, sum(client.nthreads().values())))
    finally:
        client.close()


def _result(future: Any) -> Any:
    """The result of a Dask task; ValueError when the workers running it kept dying."""
    from distributed import KilledWorker

    try:
        return future.result()
    except KilledWorker:
        raise ValueError(
            "the Dask workers running a task died each time (out of memory?): the build stopped"
        ) from None


@contextmanager
def cluster(workers: int | None = None, scheduler: str | None = None) -> Iterator[Mapper]:
    """A mapper for work that exchanges files, not arrays: this process for one worker (the
    default), a local Dask cluster of `workers` processes, or the Dask cluster whose scheduler
    listens at `scheduler`."""
    if scheduler is not None:
        with _dask(scheduler) as mapping:
            yield mapping
    elif workers is None or workers == 1:
        yield Mapper(_serial, 1)
    else:
        with local_cluster(workers) as mapping:
            yield mapping
