"""Monte Carlo CFR (external and outcome sampling) on Leduc poker: zerosum's compiled kernels,
its Python versions and OpenSpiel's C++ solvers, side by side.

Each solver runs once up to the largest count, its exploitability measured (off the clock) at
each count on the way: zerosum's by `zerosum.imperfect.best_response`, OpenSpiel's by its own
`exploitability` (the same measure: the tests hold the two to 1e-9 on CFR). The seconds are
those of the iterations alone; zerosum's tree is unrolled and its kernel loaded (or compiled)
before the clock starts, OpenSpiel's solvers build their tables as they go.

An iteration of zerosum's updates both players once each, as does an iteration of OpenSpiel's
external sampling (`ExternalSamplingMCCFRSolver.run_iteration`); OpenSpiel's outcome sampling
updates one player an iteration, alternating, so its rows are shown twice: at the same count of
iterations and at the same count of updates (twice the iterations, marked "x2").

    pip install -e '.[bench-openspiel]'
    python benchmarks/mccfr_openspiel.py                      # 10^4, 10^5, 10^6; Python to 10^4
    python benchmarks/mccfr_openspiel.py --counts 1000,10000 --python-counts 1000 --no-openspiel

pyspiel is imported here only, never by the package or its tests.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator

ALGORITHMS = ("mccfr-es", "mccfr-os")


def zerosum_runs(algorithm: str, counts: list[int], impl: str, seed: int) -> Iterator[dict]:
    """The seconds and exploitability of zerosum's solver at each of `counts`."""
    from zerosum.games.leduc import LeducPoker
    from zerosum.imperfect.best_response import exploitability
    from zerosum.imperfect.cfr import Solver
    from zerosum.imperfect.tree import unroll

    tree = unroll(LeducPoker())
    solver = Solver(tree, algorithm, seed=seed, impl=impl)  # loads or compiles the kernel
    seconds = 0.0
    for count in counts:
        began = time.perf_counter()
        solver.run(count - solver.iterations)
        seconds += time.perf_counter() - began
        yield {"iterations": count, "seconds": seconds,
               "exploitability": exploitability(tree, solver.average())}  # fmt: skip


def openspiel_runs(algorithm: str, counts: list[int], seed: int) -> Iterator[dict]:
    """The seconds and exploitability of OpenSpiel's C++ solver at each of `counts`."""
    import pyspiel
    from open_spiel.python.algorithms import exploitability

    game = pyspiel.load_game("leduc_poker")
    if algorithm == "mccfr-es":
        solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed)
    else:
        solver = pyspiel.OutcomeSamplingMCCFRSolver(game, epsilon=0.6, seed=seed)
    done, seconds = 0, 0.0
    for count in counts:
        began = time.perf_counter()
        for _ in range(count - done):
            solver.run_iteration()
        seconds += time.perf_counter() - began
        done = count
        measured = exploitability.exploitability(game, solver.average_policy())
        yield {"iterations": count, "seconds": seconds, "exploitability": measured}


def row(algorithm: str, who: str, found: dict, updates: int) -> str:
    rate = found["iterations"] / found["seconds"]
    return (f"| {algorithm} | {who} | {found['iterations']:,} | {updates:,}"
            f" | {found['seconds']:.3g} s | {rate:,.0f}"
            f" | {found['exploitability']:.4g} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", default="10000,100000,1000000")
    parser.add_argument("--python-counts", default="10000")
    parser.add_argument("--algorithms", default=",".join(ALGORITHMS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-openspiel", action="store_true")
    args = parser.parse_args()
    counts = [int(count) for count in args.counts.split(",")]
    python_counts = [int(count) for count in args.python_counts.split(",") if count]
    print("| algorithm | solver | iterations | player updates | seconds | iterations/s |"
          " exploitability |")  # fmt: skip
    print("|---|---|---:|---:|---:|---:|---:|")
    for algorithm in args.algorithms.split(","):
        for found in zerosum_runs(algorithm, counts, "compiled", args.seed):
            print(row(algorithm, "zerosum compiled", found, 2 * found["iterations"]), flush=True)
        if python_counts:
            for found in zerosum_runs(algorithm, python_counts, "python", args.seed):
                print(row(algorithm, "zerosum Python", found, 2 * found["iterations"]), flush=True)
        if args.no_openspiel:
            continue
        per_update = 2 if algorithm == "mccfr-es" else 1
        for found in openspiel_runs(algorithm, counts, args.seed):
            updates = per_update * found["iterations"]
            print(row(algorithm, "OpenSpiel C++", found, updates), flush=True)
        if algorithm == "mccfr-os":  # the same number of updates as zerosum's iterations
            for found in openspiel_runs(algorithm, [2 * count for count in counts], args.seed):
                print(row(algorithm, "OpenSpiel C++ x2", found, found["iterations"]), flush=True)


if __name__ == "__main__":
    main()
