"""Ctrl-C answered where a job may stop (`stop_points`), not wherever the signal lands: what a
job that runs compiled code (JAX, numba) needs to stop cleanly."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

Poll = Callable[[], None]
"""`poll()`: KeyboardInterrupt if Ctrl-C was pressed, else nothing (`stop_points`)."""


@contextmanager
def stop_points() -> Iterator[Poll]:
    """Ctrl-C answered only at the points where a job may stop: within the block SIGINT is
    recorded, and `poll()` (what the block is given) raises KeyboardInterrupt once it was, as
    does the block's end.

    Python raises KeyboardInterrupt wherever the main thread is when the signal comes, and
    with numba or JAX loaded that is not safe. Raised in a call back of llvmlite's while
    numba compiles, it is printed as ignored and lost (`zerosum cfr` then ran to its end), or
    the process died by the signal after its one line. Raised in JAX's garbage-collection
    call back (in `gc.callbacks`, run by any allocation), it is printed as ignored and lost:
    training goes on. Raised while XLA compiles (the first gradient step of each batch
    shape), it leaves the compiler's thread running while the interpreter exits, which
    crashes the process (SIGSEGV) and leaves its worker processes behind. Training
    (`zerosum.learn.training.train`) polls between the simulations of self-play played in
    this process, every `zerosum.solve.parallel.POLL_SECONDS` while worker processes play,
    between gradient steps, before each move of a gate's or evaluation's game, and between
    rounds; `zerosum cfr` between steps of its iterations.

    Blocks nest: an inner one shares the outer one's record. Where Ctrl-C is not Python's
    KeyboardInterrupt (SIGINT ignored, or a handler of the caller's own) or cannot be handled
    (in a thread other than the main one), it is left as it is and `poll` does nothing."""
    handler = signal.getsignal(signal.SIGINT)
    if isinstance(handler, _CtrlC):
        yield handler.poll
        handler.poll()
        return
    if (
        handler is not signal.default_int_handler
        or threading.current_thread() is not threading.main_thread()
    ):
        yield _no_poll
        return
    pressed = _CtrlC()
    signal.signal(signal.SIGINT, pressed)
    try:
        yield pressed.poll
    finally:
        signal.signal(signal.SIGINT, handler)
    pressed.poll()


class _CtrlC:
    """SIGINT's handler within `stop_points`: it records the signal, and `poll` answers it."""

    def __init__(self) -> None:
        self.pressed = False

    def __call__(self, signum: int, frame: Any) -> None:
        self.pressed = True

    def poll(self) -> None:
        if self.pressed:
            raise KeyboardInterrupt


def _no_poll() -> None:
    """The poll of a block that leaves Ctrl-C as it is."""
