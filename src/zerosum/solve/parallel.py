"""Where the work on a layer runs: in this process, in a pool of processes, or on Dask.

A *mapper* takes a function and a list of argument tuples and yields the results in the order
of the tuples, whatever order the work finished in; its `width` is how many tasks run at once.
The retrograde build hands it the chunks of a layer; the function and its arguments must be
picklable (a game defined at module level is).

Ctrl-C belongs to the process that maps: a worker process ignores SIGINT from its first
instruction (it is started with the signal blocked, which it inherits, and ignores it before
unblocking it), so a Ctrl-C sent to the whole process group, as a terminal does, never prints
a worker's traceback, even one still starting.

A worker process ends with the process that started it: a thread of its own looks every
`PARENT_POLL_SECONDS` whether its parent is still there, and ends the worker when it is gone
(killed by `kill -9`, or out of memory), which no signal tells a child.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from zerosum.limits import Limit

Mapping = Callable[[Callable[..., Any], list[tuple]], Iterator[Any]]
Poll = Callable[[], None]
"""`poll()`, called while a mapper waits: what it raises (KeyboardInterrupt) stops the work."""
CONNECT_TIMEOUT = "10s"
"""How long to wait for a Dask scheduler to answer."""
POLL_SECONDS = 0.1
"""How often a pool waiting for a result calls its `poll`."""
PARENT_POLL_SECONDS = 0.2
"""How often a worker process looks whether the process that started it is still there."""


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
def mapper(
    workers: int | None = None,
    scheduler: str | None = None,
    context: Any = None,
    poll: Poll | None = None,
) -> Iterator[Mapper]:
    """A mapper over a pool of `workers` processes on this machine (default: every core), or
    over the Dask cluster whose scheduler listens at `scheduler` (on this machine or many); one
    worker, or a single task, maps in this process. `context` is how the processes start
    (a `multiprocessing` context; the platform's default when None). `poll`, when given, is
    called every `POLL_SECONDS` while the processes of this machine work, and between tasks
    mapped in this process: a caller that answers Ctrl-C only at points of its own choosing
    (`zerosum.stopping.stop_points`) raises KeyboardInterrupt there."""
    if scheduler is not None:
        with _dask(scheduler) as cluster:
            yield cluster
        return
    workers = default_workers() if workers is None else workers
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    workers_limit().check(workers)
    if workers == 1:
        yield Mapper(lambda function, tasks: serial(function, tasks, poll), 1)
        return
    with processes(workers, context, poll) as pool:
        yield Mapper(pool, workers)


def serial(
    function: Callable[..., Any], tasks: list[tuple], poll: Poll | None = None
) -> Iterator[Any]:
    """The results of `function(*task)` in this process, in task order, `poll()` before each."""
    for task in tasks:
        if poll is not None:
            poll()
        yield function(*task)


DEATHS_FORGIVEN = 3
"""How many times a pool's worker processes may die (killed, out of memory) in one build
before it stops: each time the pool is started again and the unfinished tasks run anew."""


class _Pool:
    """Worker processes on this machine, started at the first task that needs them. A task
    whose process dies is run again in a new pool, up to `DEATHS_FORGIVEN` deaths: a build's
    tasks act only through their results and the files they write atomically, so running one
    twice is harmless."""

    def __init__(self, workers: int, context: Any = None, poll: Poll | None = None) -> None:
        self.workers, self.deaths, self.context, self.poll = workers, 0, context, poll
        self.pool: ProcessPoolExecutor | None = None

    def __call__(self, function: Callable[..., Any], tasks: list[tuple]) -> Iterator[Any]:
        """The results of `function(*task)` in task order; in this process for a single task
        (not worth a process)."""
        if len(tasks) < 2:
            return serial(function, tasks, self.poll)
        return self._results(function, tasks)

    def _results(self, function: Callable[..., Any], tasks: list[tuple]) -> Iterator[Any]:
        done = 0
        while done < len(tasks):
            if self.pool is None:
                self.pool = ProcessPoolExecutor(
                    self.workers,
                    mp_context=self.context,
                    initializer=_start_worker,
                    initargs=(os.getpid(),),
                )
            try:  # a worker may die before the last task is even submitted
                with _interrupts_blocked():  # the processes start at a submission
                    futures = [self.pool.submit(function, *task) for task in tasks[done:]]
                for future in futures:
                    result = self._result(future)
                    done += 1
                    yield result
            except BrokenProcessPool:
                self.stop()
                self.deaths += 1
                if self.deaths > DEATHS_FORGIVEN:
                    raise ValueError(
                        f"the worker processes died {self.deaths} times (out of memory?):"
                        " the build stopped"
                    ) from None

    def _result(self, future: Future[Any]) -> Any:
        """The future's result, `poll()` called every `POLL_SECONDS` until it is there."""
        if self.poll is not None:
            while wait([future], POLL_SECONDS).not_done:
                self.poll()
        return future.result()

    def stop(self) -> None:
        """End the workers now, tasks running or not."""
        if self.pool is None:
            return
        children = list((self.pool._processes or {}).values())  # no public way before 3.14
        self.pool.shutdown(wait=False, cancel_futures=True)
        for child in children:
            child.terminate()
        for child in children:
            child.join()
        self.pool = None


@contextmanager
def processes(workers: int, context: Any = None, poll: Poll | None = None) -> Iterator[_Pool]:
    """A pool of `workers` processes on this machine (started by the `multiprocessing`
    `context`, the default when None), ended on leaving (by an error or Ctrl-C too, without
    waiting for the tasks running); `poll` as `mapper` says."""
    pool = _Pool(workers, context, poll)
    try:
        yield pool
    finally:
        pool.stop()


@contextmanager
def _interrupts_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread within the block, so that a process started there
    inherits it blocked (through fork and exec alike) until `_start_worker` ignores it. A
    Ctrl-C arriving meanwhile is not lost: another thread takes it, or this one when the
    block ends. (Where signals cannot be blocked, on Windows, a worker ignores Ctrl-C from its
    initializer on.)"""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _start_worker(parent: int) -> None:
    """In a worker, first: leave Ctrl-C to the mapping process, which stops the pool (a worker
    interrupted mid-task would print its traceback), and end with the process `parent` that
    started it. The worker started with SIGINT blocked (`_interrupts_blocked`): ignored first, a
    Ctrl-C that came while it started is dropped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    threading.Thread(target=_end_with, args=(parent,), name="parent-watch", daemon=True).start()


def _end_with(parent: int) -> None:
    """End this process once `parent` is no longer its parent (it died: the orphan was handed to
    another process), looking every `PARENT_POLL_SECONDS`."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def peak_memory() -> int:
    """The peak resident memory of this process so far, in bytes (0 where it is not known)."""
    try:
        import resource
    except ImportError:  # not on Unix
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


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
