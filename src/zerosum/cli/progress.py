"""Progress of a long job on the terminal: a bar (or a count, when the total is unknown) on
standard error, drawn by tqdm, only when standard error is a terminal, and gone when the job
ends, finished or stopped by Ctrl-C.

    with progress("positions", total=len(lines)) as bar:
        for line in lines:
            ...
            bar.advance()

A library function that runs long takes a callback (`on_progress(done)` or similar); the command
passes `bar.to` (absolute) or `bar.advance` (relative) to it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:  # tqdm is imported by the commands that draw a bar
    from tqdm import tqdm


class Bar:
    """The bar of a running job: `advance(n)` adds n to what is done, `to(done)` sets it,
    `note(text)` says what is being done now. All do nothing when nothing is drawn."""

    def __init__(self, bar: tqdm | None) -> None:
        self._bar = bar

    def advance(self, count: int = 1) -> None:
        if self._bar is not None:
            self._bar.update(count)

    def to(self, done: int) -> None:
        if self._bar is not None:
            self._bar.update(done - self._bar.n)

    def note(self, text: str) -> None:
        if self._bar is not None:
            self._bar.set_postfix_str(text, refresh=False)

    @property
    def drawn(self) -> bool:
        """True when the bar is on a terminal (a caller may then print less)."""
        return self._bar is not None


@contextmanager
def progress(
    unit: str, *, total: int | None = None, what: str = "", stream: IO[str] | None = None
) -> Iterator[Bar]:
    """A progress bar counting `unit`s (out of `total`, when known) while the block runs, on
    `stream` (standard error) when it is a terminal; nothing otherwise."""
    stream = sys.stderr if stream is None else stream
    if not stream.isatty():
        yield Bar(None)
        return
    from tqdm import tqdm

    bar = tqdm(
        total=total,
        desc=what or None,
        unit=f" {unit}",
        file=stream,
        leave=False,
        dynamic_ncols=True,
        mininterval=0.25,
        unit_scale=total is None or total > 10_000,
    )
    try:
        yield Bar(bar)
    finally:
        bar.close()


def announce_compiling(stream: IO[str] | None = None) -> None:
    """Say "compiling ..." on `stream` (standard error) when it is a terminal and a compiled
    search is about to be compiled, so that a command does not seem to hang for seconds."""
    stream = sys.stderr if stream is None else stream
    if not stream.isatty():
        return
    from zerosum.compiled import compiling

    def say(what: str) -> None:
        print(f"{what}...", file=stream, flush=True)

    compiling.listeners[:] = [say]  # one voice, however often a command is run in a process
