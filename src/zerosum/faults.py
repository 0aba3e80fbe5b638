"""Faults on purpose: a long job stopped at a chosen point, as `kill -9` or Ctrl-C would stop
it, for the tests and the benchmark of jobs killed and resumed (`tests/test_kill_resume.py`,
`benchmarks/kill_resume.py`).

The environment variable `ZEROSUM_FAULT=POINT:N` (or `POINT:N:INT`) makes the process that
reaches the point named POINT for the N-th time send itself SIGKILL there (SIGINT with
`:INT`, what a terminal's Ctrl-C sends). The points a job passes, each where its work on disk
is between two steps:

- `manifest`: a partitioned build (`tablebase build --work-dir`) wrote a manifest of its work
  directory;
- `logged`: a training run (`train`) appended a line to its log;
- `kept`: a training run kept a round (its files and manifest written);
- `iterations`: `cfr` ran a step of its iterations;
- `level`: an out-of-core chess table build (`tablebase build chess --work-dir`) settled a level
  (level N - 1 the N-th time), before the level's checkpoint is written.

Unset, as always outside those tests, `reached` costs a look-up in a dictionary.
"""

from __future__ import annotations

import os
import signal

VARIABLE = "ZEROSUM_FAULT"
POINTS = ("manifest", "logged", "kept", "iterations", "level")
"""The names of the points a job passes (see the module)."""
SIGNALS = {"KILL": signal.SIGKILL, "INT": signal.SIGINT}

_passed: dict[str, int] = {}


def reached(point: str) -> None:
    """The job reached `point`: count it, and stop the process here when `ZEROSUM_FAULT` asks
    for this point this time (see the module). ValueError for a variable that names no point."""
    fault = os.environ.get(VARIABLE)
    if not fault:
        return
    name, count, sent = parse(fault)
    if name != point:
        return
    _passed[point] = _passed.get(point, 0) + 1
    if _passed[point] == count:
        os.kill(os.getpid(), sent)


def parse(fault: str) -> tuple[str, int, signal.Signals]:
    """The point, the count and the signal of a `ZEROSUM_FAULT` value; ValueError when it is not
    `POINT:N` or `POINT:N:SIGNAL` with a known point, N at least 1 and SIGNAL KILL or INT."""
    name, _, rest = fault.partition(":")
    count, _, sent = rest.partition(":")
    if name not in POINTS or not count.isdigit() or int(count) < 1 or sent not in ("", *SIGNALS):
        raise ValueError(
            f"{VARIABLE}={fault!r}: expected POINT:N or POINT:N:INT, POINT one of"
            f" {', '.join(POINTS)}"
        )
    return name, int(count), SIGNALS[sent or "KILL"]
