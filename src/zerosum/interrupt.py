"""How a command stopped by Ctrl-C ends: one line on stderr and exit code 130, whether the
signal came while the command's modules were still importing (`zerosum.__main__.run`) or once
they run (`zerosum.cli.main`). This module imports only `sys` and `contextlib`, so that it is
whole before either of them starts."""

import contextlib
import sys

INTERRUPTED = 130
"""The exit code of a command stopped by Ctrl-C (128 + SIGINT, as a shell reports it)."""


def interrupted() -> int:
    """Say that Ctrl-C stopped the command, in one line on stderr; the exit code 130."""
    with contextlib.suppress(OSError):  # stderr gone: the exit code says it
        print("zerosum: interrupted", file=sys.stderr)
    return INTERRUPTED
