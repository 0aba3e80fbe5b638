"""How fast the CFR family approaches an equilibrium: exploitability against iterations and time.

Each algorithm runs on the same unrolled game and is stopped at iteration counts spaced evenly
on a log scale; at each stop the exploitability of its average strategy is measured exactly (a
full best-response walk, `zerosum.imperfect.best_response`). The seconds are those of the
iterations alone, not of the measures.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from zerosum.imperfect.best_response import exploitability
from zerosum.imperfect.cfr import SAMPLED, Solver
from zerosum.imperfect.tree import GameTree

STOPS_PER_DECADE = 5
"""Measures per tenfold of iterations."""


@dataclass(frozen=True)
class ConvergencePoint:
    """One measure: `algorithm` after `iterations`, which took `seconds`, is `exploitability`
    away from an equilibrium (OpenSpiel's measure)."""

    algorithm: str
    iterations: int
    seconds: float
    exploitability: float


def stops(iterations: int) -> list[int]:
    """The iteration counts measured: 1 and about `STOPS_PER_DECADE` a tenfold up to
    `iterations`, which is last."""
    counts, step = {1, iterations}, 0
    while (count := round(10 ** (step / STOPS_PER_DECADE))) < iterations:
        counts.add(count)
        step += 1
    return sorted(counts)


def convergence_experiment(
    tree: GameTree,
    algorithms: Sequence[str],
    iterations: int,
    seed: int | None = None,
    on_iterations: Callable[[int], None] | None = None,
    sampled_iterations: int | None = None,
) -> list[ConvergencePoint]:
    """The measures of every algorithm in `algorithms` on `tree`, up to `iterations` each, or
    `sampled_iterations` for the Monte Carlo ones (each of their iterations follows a few lines
    of play, not the whole tree; default: `iterations`). `on_iterations(n)` after each n
    iterations run: a progress bar's advance."""
    points = []
    for algorithm in algorithms:
        solver = Solver(tree, algorithm, seed=seed)  # compiled (or loaded) here, off the clock
        last = sampled_iterations if algorithm in SAMPLED and sampled_iterations else iterations
        seconds = 0.0
        for stop in stops(last):
            began = time.perf_counter()
            run = stop - solver.iterations
            solver.run(run)
            seconds += time.perf_counter() - began
            points.append(
                ConvergencePoint(algorithm, stop, seconds, exploitability(tree, solver.average()))
            )
            if on_iterations is not None:
                on_iterations(run)
    return points
