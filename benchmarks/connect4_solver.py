"""The exact Connect Four solver on the published test sets: correctness, nodes, time, memory.

Every position is solved from an empty table (as the reference solver's counts are), strong
(exact score) unless `--weak`. Node counts are compared with the reference solver's means in
`shared/oracles/connect4/README.md`; they do not depend on the machine. `--limit N` takes the
first N lines of each set;

    python benchmarks/connect4_solver.py [--sets Test_L3_R1,Test_L2_R1] [--limit N]
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

from oracles import oracle

from zerosum.games.connect4 import ConnectFour
from zerosum.solve.connect4 import ConnectFourSolver

REFERENCE = {
    "Test_L3_R1": 51,
    "Test_L2_R1": 449,
    "Test_L2_R2": 39_808,
    "Test_L1_R1": 3_296,
    "Test_L1_R2": 1_187_920,
}


def run_set(solver: ConnectFourSolver, path: Path, limit: int | None, weak: bool) -> dict:
    game = solver.game
    lines = path.read_text().splitlines()[:limit]
    correct = nodes = 0
    start = time.perf_counter()
    for line in lines:
        moves, expected = line.split()
        solver.reset()
        score = solver.solve(game.parse_state(moves), weak=weak).score
        want = int(expected)
        correct += score == ((want > 0) - (want < 0) if weak else want)
        nodes += solver.counter[0]
    seconds = time.perf_counter() - start
    return {"positions": len(lines), "correct": correct, "nodes": nodes / len(lines),
            "us": seconds / len(lines) * 1e6}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="Test_L3_R1,Test_L2_R1,Test_L1_R1,Test_L2_R2")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--weak", action="store_true")
    args = parser.parse_args()
    folder = oracle("connect4")
    solver = ConnectFourSolver(ConnectFour())
    print("| set | positions | correct | mean nodes | reference | ratio | mean time |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in args.sets.split(","):
        row = run_set(solver, folder / name, args.limit, args.weak)
        ratio = row["nodes"] / REFERENCE[name]
        cells = f"{row['positions']:,} | {row['correct']:,} | {row['nodes']:,.0f}"
        print(
            f"| {name} | {cells} | {REFERENCE[name]:,} | {ratio:.2f} | {row['us'] / 1000:,.2f} ms |"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory (max RSS): {peak:,.0f} MB")


if __name__ == "__main__":
    main()
