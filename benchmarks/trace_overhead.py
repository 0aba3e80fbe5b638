"""What recording a trace costs: alpha-beta on tic-tac-toe from the empty board (18,297 nodes).

Run by hand: python benchmarks/trace_overhead.py [repeats]. Prints the best time of each way
and its ratio to the search without a trace. Tracing off is the exact searches' normal path.
"""

from __future__ import annotations

import sys
import time

from zerosum.games.tictactoe import TicTacToe
from zerosum.search import Trace, alphabeta


def best_time(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    game = TicTacToe()
    root = game.initial_state()
    ways = {
        "tracing off": lambda: alphabeta(game, root),
        "trace of every event": lambda: alphabeta(game, root, trace=Trace(limit=10**6)),
        "trace of the first 2 plies": lambda: alphabeta(game, root, trace=Trace(max_ply=2)),
    }
    base = None
    print(f"{'way':<28} {'best of ' + str(repeats):>10}  ratio")
    for name, run in ways.items():
        seconds = best_time(run, repeats)
        base = base or seconds
        print(f"{name:<28} {seconds:>9.3f}s  {seconds / base:.2f}")


if __name__ == "__main__":
    main()
