"""Who is told that a compiled search is being compiled: numba takes seconds the first time, and
a face says so (the command line prints "compiling ..." on a terminal) instead of seeming to
hang. `zerosum.compiled.cache` announces it, only when numba really compiles."""

from __future__ import annotations

from collections.abc import Callable

listeners: list[Callable[[str], None]] = []
"""Called with what is being compiled, before numba compiles it."""


def announce(what: str) -> None:
    """Tell every listener that `what` is being compiled."""
    for listener in listeners:
        listener(what)
