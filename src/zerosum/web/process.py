"""`zerosum serve` in a process of its own, for a script that drives the page (the pictures of
the docs, the page's benchmark): `served()` starts it on a free port and yields its address."""

from __future__ import annotations

import re
import select
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

STARTUP_SECONDS = 60
"""How long the server may take to say where it serves."""


@contextmanager
def served(*options: str) -> Iterator[str]:
    """The address (`http://127.0.0.1:PORT`) of `zerosum serve --port 0 OPTIONS` run in a
    process of its own, stopped by Ctrl-C when the block ends; RuntimeError when it does not say
    where it serves within `STARTUP_SECONDS`."""
    with serving(*options) as (address, _):
        yield address


@contextmanager
def serving(*options: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`served`, with the server's process (to watch its memory and its processor time)."""
    server = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "serve", "--port", "0", *options],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        if not select.select([server.stdout], [], [], STARTUP_SECONDS)[0]:
            raise RuntimeError(f"zerosum serve printed no address within {STARTUP_SECONDS} s")
        found = re.match(r"serving the page at (\S+)/ ", server.stdout.readline())
        if found is None:
            raise RuntimeError("zerosum serve did not say where it serves")
        yield found[1], server
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
