"""Othello in Python: perft from the start, and the engine's nodes per second on a few positions.

Perft plays every move of every line (a pass is a move; no counting of the last ply's moves
without playing them) and checks the published count of its depth; its speed is the moves
played, the nodes of depth 1 to `--depth` together, per CPU second. The engine searches each
position to `--engine-depth` plies with every enhancement on (quiescence over corners), a new
engine a position; its speed is nodes per CPU second. CPU seconds of this process, the best of
`--repeat` runs, so that other jobs on a shared machine disturb the figures less.

    python benchmarks/othello_speed.py [--depth 7] [--engine-depth 6] [--repeat 3]

Depth 9 (3,005,288 lines) takes some minutes in Python: the compiled version is the one for it.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from zerosum.games.othello import Othello
from zerosum.search import Engine

PERFT = (1, 4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288)
"""Lines of each length from the start, passes counted as moves (depths 0 to 9)."""

POSITIONS = ("", "f5d6c3d3c4f4f6f3e6e7", "f5d6c3d3c4f4f6f3e6e7g4g7e3h3g3b2g6c5g8f2")
"""The start, an opening after 10 moves, and that game after 10 random moves more."""

GAME = Othello()


def perft(state: Any, depth: int) -> int:
    """The lines of `depth` moves from `state`, each move played."""
    if depth == 0:
        return 1
    return sum(perft(GAME.result(state, move), depth - 1) for move in GAME.legal_moves(state))


def best_cpu_seconds(work: Any, repeat: int) -> tuple[Any, float]:
    """What `work()` returns and the least CPU time of `repeat` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        answer = work()
        best = min(best, time.process_time() - start)
    return answer, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=7, help="perft depth (0-9)")
    parser.add_argument("--engine-depth", type=int, default=6, help="the engine's depth")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best counts")
    args = parser.parse_args()

    start = GAME.initial_state()
    leaves, seconds = best_cpu_seconds(lambda: perft(start, args.depth), args.repeat)
    if leaves != PERFT[args.depth]:
        raise SystemExit(f"perft {args.depth} is {leaves:,}, not {PERFT[args.depth]:,}")
    played = sum(PERFT[1 : args.depth + 1])
    print(f"perft {args.depth}: {leaves:,} lines, {played:,} moves played")
    print(f"  {seconds:.2f} CPU s, {played / seconds:,.0f} moves a second")

    print(f"engine to depth {args.engine_depth}:")
    total_nodes, total_seconds = 0, 0.0
    for position in POSITIONS:
        state = GAME.parse_state(position)
        result, seconds = best_cpu_seconds(
            lambda state=state: Engine(GAME).search(state, depth=args.engine_depth), args.repeat
        )
        nodes = result.stats.nodes
        total_nodes, total_seconds = total_nodes + nodes, total_seconds + seconds
        best = GAME.format_move(state, result.best_move)
        print(
            f"  {position or 'start':<42} {nodes:>9,} nodes  {seconds:6.2f} CPU s"
            f"  {nodes / seconds:>8,.0f} nodes/s  best {best}"
        )
    print(f"  together: {total_nodes / total_seconds:,.0f} nodes a second")


if __name__ == "__main__":
    main()
