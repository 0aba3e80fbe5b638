"""The worker processes of `zerosum.solve.parallel`: Ctrl-C is the mapping process's."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from multiprocessing.context import SpawnContext, SpawnProcess

import pytest

from zerosum.solve import parallel


class InterruptedAtStart(SpawnProcess):
    """A worker sent SIGINT as soon as it exists, while it is still starting: what a terminal's
    Ctrl-C does to a process group whose pool is starting its workers."""

    def start(self) -> None:
        super().start()
        assert self.pid is not None
        os.kill(self.pid, signal.SIGINT)


class Interrupting(SpawnContext):
    Process = InterruptedAtStart


def test_a_worker_ignores_ctrl_c_from_its_start(capfd):
    with parallel.processes(2, Interrupting()) as pool:
        assert list(pool(pow, [(2, 10), (3, 3), (5, 2)])) == [1024, 27, 25]
        assert pool.deaths == 0
    assert "KeyboardInterrupt" not in capfd.readouterr().err


def test_what_poll_raises_while_the_workers_work_ends_the_work():
    polls = []

    def poll() -> None:
        polls.append(1)
        raise KeyboardInterrupt

    spawn = multiprocessing.get_context("spawn")
    with pytest.raises(KeyboardInterrupt), parallel.mapper(2, context=spawn, poll=poll) as mapping:
        list(mapping(time.sleep, [(60,), (60,)]))  # a minute of work each: ended at the poll
    assert polls == [1]
