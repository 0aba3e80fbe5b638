"""Tabular CFR and CFR+ against OpenSpiel's, side by side: same game, same iterations.

For each game and algorithm, three runs, each in a process of its own (so that its peak memory
is its own): zerosum's compiled solver, OpenSpiel's C++ solver (`pyspiel.CFRSolver`,
`pyspiel.CFRPlusSolver`) and OpenSpiel's Python solver (`open_spiel.python.algorithms.cfr`).
Each reports the seconds of its iterations (zerosum's unrolling of the tree and numba's loading
of its compiled kernel are reported apart; OpenSpiel's solvers build their tables in their
constructors, timed with them), the exploitability of the average policy (every run measured by
its own library), and the peak resident memory of the process.

    pip install -e '.[bench-openspiel]'
    python benchmarks/cfr_openspiel.py --games kuhn,leduc --iterations 1000
    python benchmarks/cfr_openspiel.py --games leduc --iterations 1000 --python-iterations 100

`--python-iterations` runs OpenSpiel's Python solver for fewer iterations (it takes minutes on
Leduc) and reports its time scaled to `--iterations` (its cost per iteration is constant).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

SPIEL = {"kuhn": "kuhn_poker", "leduc": "leduc_poker", "liars-dice": "liars_dice"}


def zerosum_run(game: str, algorithm: str, iterations: int) -> dict:
    from zerosum.imperfect.best_response import exploitability
    from zerosum.imperfect.cfr import Solver
    from zerosum.imperfect.tree import unroll
    from zerosum.registry import setup

    began = time.perf_counter()
    tree = unroll(setup(game, hidden=True).game)
    unrolled = time.perf_counter() - began
    began = time.perf_counter()
    Solver(tree, algorithm).run(1)  # numba loads (or compiles) the kernel: off the clock
    loading = time.perf_counter() - began
    solver = Solver(tree, algorithm)
    began = time.perf_counter()
    solver.run(iterations)
    seconds = time.perf_counter() - began
    return {
        "seconds": seconds,
        "unroll_seconds": unrolled,
        "load_seconds": loading,
        "exploitability": exploitability(tree, solver.average()),
        "histories": tree.nodes,
        "information_sets": len(tree.keys),
    }


def openspiel_run(game: str, algorithm: str, iterations: int, python: bool) -> dict:
    import pyspiel
    from open_spiel.python.algorithms import cfr, exploitability

    spiel = pyspiel.load_game(SPIEL[game])
    began = time.perf_counter()
    if python:
        solver = (cfr.CFRSolver if algorithm == "cfr" else cfr.CFRPlusSolver)(spiel)
    else:
        solver = (pyspiel.CFRSolver if algorithm == "cfr" else pyspiel.CFRPlusSolver)(spiel)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    seconds = time.perf_counter() - began
    return {
        "seconds": seconds,
        "exploitability": exploitability.exploitability(spiel, solver.average_policy()),
    }


def one(kind: str, game: str, algorithm: str, iterations: int) -> None:
    if kind == "zerosum":
        found = zerosum_run(game, algorithm, iterations)
    else:
        found = openspiel_run(game, algorithm, iterations, python=kind == "python")
    found["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(found))


def measured(kind: str, game: str, algorithm: str, iterations: int) -> dict:
    command = [sys.executable, __file__, "--one", kind, "--games", game, "--algorithms",
               algorithm, "--iterations", str(iterations)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="kuhn,leduc")
    parser.add_argument("--algorithms", default="cfr,cfr+")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--python-iterations", type=int)
    parser.add_argument("--one", choices=("zerosum", "cpp", "python"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(args.one, args.games, args.algorithms, args.iterations)
        return
    print("| game, algorithm | iterations | zerosum | OpenSpiel C++ | OpenSpiel Python |"
          " C++ / zerosum | Python / zerosum | exploitability (zerosum) | (OpenSpiel C++) |"
          " peak MB (zerosum, C++, Python) |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game in args.games.split(","):
        for algorithm in args.algorithms.split(","):
            ours = measured("zerosum", game, algorithm, args.iterations)
            cpp = measured("cpp", game, algorithm, args.iterations)
            slow = args.python_iterations or args.iterations
            python = measured("python", game, algorithm, slow)
            python_seconds = python["seconds"] * args.iterations / slow
            print(
                f"| {game}, {algorithm} | {args.iterations:,} | {ours['seconds']:.3g} s"
                f" | {cpp['seconds']:.3g} s | {python_seconds:.3g} s"
                f"{' (scaled)' if slow != args.iterations else ''}"
                f" | **{cpp['seconds'] / ours['seconds']:.1f}x**"
                f" | **{python_seconds / ours['seconds']:.0f}x**"
                f" | {ours['exploitability']:.6g} | {cpp['exploitability']:.6g}"
                f" | {ours['peak_mb']:.0f}, {cpp['peak_mb']:.0f}, {python['peak_mb']:.0f} |",
                flush=True,
            )
            print(f"<!-- {game} {algorithm}: unroll {ours['unroll_seconds']:.3g} s, kernel load"
                  f" {ours['load_seconds']:.3g} s, {ours['histories']:,} histories,"
                  f" {ours['information_sets']:,} sets -->", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
