"""The exact Connect Four solver on the published test sets, side by side with BitBully.

Every position is solved (exact score, unless `--weak`) from an empty table, by zerosum and by
BitBully (`pip install 'zerosum[bench-bitbully]'`, a C++ solver; no opening book, its table
reset before each position, its fresh table's pages touched on its clock as ours are not) in
the same run, set by set. Node counts are compared with the reference solver's means
in `shared/oracles/connect4/README.md` (they do not depend on the machine). `--limit N` takes
the first N lines of each set; `--impl python` measures the readable Python kernel instead of
the compiled one (compile time is paid before the clock starts). `--empty` solves the empty
board instead (strong, from scratch, both solvers), reporting compile time apart. zerosum's
solver runs without its opening book in both. `--book` measures the book instead: its plies,
entries and bytes on disk, and for positions within it (`BOOK_LINES`) the time and nodes of the
score and best move (what `play --perfect` asks) with the book and from scratch, each from an
empty table, and of the whole answer with its line of best play (what `solve` prints).

    python benchmarks/connect4_solver.py [--sets Test_L3_R1,Test_L2_R1] [--limit N] [--empty]
    python benchmarks/connect4_solver.py --book
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path
from typing import Any

from oracles import oracle

from zerosum.games.connect4 import ConnectFour
from zerosum.solve import connect4_book
from zerosum.solve.connect4 import ConnectFourExact, ConnectFourSolver

SETS = "Test_L3_R1,Test_L2_R1,Test_L2_R2,Test_L1_R1,Test_L1_R2,Test_L1_R3"
REFERENCE = {
    "Test_L3_R1": 51,
    "Test_L2_R1": 449,
    "Test_L2_R2": 39_808,
    "Test_L1_R1": 3_296,
    "Test_L1_R2": 1_187_920,
    "Test_L1_R3": 7_652_487,
}
"""The reference solver's mean nodes by set (its README)."""

BOOK_LINES = ["", "4", "44", "443", "4444"]
"""Positions within the package's book (columns played from the empty board), one a ply."""


class BitBully:
    """BitBully's solver, each position from an empty table, no book."""

    def __init__(self) -> None:
        from bitbully import bitbully_core

        self.core = bitbully_core
        self.solver = bitbully_core.BitBullyCore()

    def solve(self, moves: str) -> tuple[int, int]:
        """The score of the position after `moves` and the nodes BitBully searched."""
        board = self.core.BoardCore()
        board.play([int(c) - 1 for c in moves])
        return self.solver.mtdf(board, 0), self.solver.getNodeCounter()

    def reset(self) -> None:
        """An empty table (BitBully allocates a new one: 80 ms, kept off the clock)."""
        self.solver.resetTranspositionTable()
        self.solver.resetNodeCounter()


def peer() -> BitBully | None:
    try:
        return BitBully()
    except ImportError:
        print("(BitBully is not installed: pip install 'zerosum[bench-bitbully]')")
        return None


def run_set(solver: ConnectFourSolver, other: BitBully | None, path: Path, limit: int | None,
            weak: bool) -> dict[str, Any]:  # fmt: skip
    """Both solvers on the set's positions, zerosum on all of them, then BitBully (each
    interleaved position by position would pay for the other's table in the caches)."""
    game = solver.game
    lines = [line.split() for line in path.read_text().splitlines()[:limit]]
    wanted = [int(score) for _, score in lines]
    if weak:
        wanted = [(want > 0) - (want < 0) for want in wanted]
    row = {"positions": len(lines), "correct": 0, "nodes": 0, "seconds": 0.0,
           "peer_correct": 0, "peer_nodes": 0, "peer_seconds": 0.0}  # fmt: skip
    for (moves, _), want in zip(lines, wanted, strict=True):
        state = game.parse_state(moves)
        solver.reset()  # a new generation of the table
        start = time.perf_counter()
        score = solver.solve(state, weak=weak).score
        row["seconds"] += time.perf_counter() - start
        row["correct"] += score == want
        row["nodes"] += solver.counter[0]
    for (moves, _), want in zip(lines, wanted, strict=True) if other is not None else ():
        other.reset()
        start = time.perf_counter()
        score, nodes = other.solve(moves)
        row["peer_seconds"] += time.perf_counter() - start
        row["peer_correct"] += (score if not weak else (score > 0) - (score < 0)) == want
        row["peer_nodes"] += nodes
    return row


def sets(args: argparse.Namespace) -> None:
    folder = oracle("connect4")
    solver = ConnectFourSolver(ConnectFour(), args.table_mb, impl=args.impl, book=None)
    solver.solve(ConnectFour().parse_state("4453"))  # compile (or read numba's cache) first
    other = peer()
    print(
        "| set | positions | right (BitBully) | mean nodes | reference | nodes / reference"
        " | nodes/s | mean time | BitBully mean time | BitBully nodes | zerosum / BitBully |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.sets.split(","):
        row = run_set(solver, other, folder / name, args.limit, args.weak)
        n = row["positions"]
        mean = row["seconds"] / n
        cells = [name, f"{n:,}", f"{row['correct']:,} ({row['peer_correct']:,})",
                 f"{row['nodes'] / n:,.0f}", f"{REFERENCE[name]:,}",
                 f"{row['nodes'] / n / REFERENCE[name]:.2f}",
                 f"{row['nodes'] / row['seconds'] / 1e6:.2f} M", milliseconds(mean)]  # fmt: skip
        if other is not None:
            theirs = row["peer_seconds"] / n
            cells += [milliseconds(theirs), f"{row['peer_nodes'] / n:,.0f}",
                      f"**{mean / theirs:.2f}**"]  # fmt: skip
        else:
            cells += ["", "", ""]
        print("| " + " | ".join(cells) + " |", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory (max RSS of the process, both solvers): {peak:,.0f} MB")


def empty(args: argparse.Namespace) -> None:
    """The empty board, strong, from scratch: zerosum then BitBully (or `--only`)."""
    game = ConnectFour()
    if args.only in (None, "zerosum"):
        start = time.perf_counter()
        solver = ConnectFourSolver(game, args.table_mb, impl=args.impl, book=None)
        solver.solve(game.parse_state("4453"))
        print(f"zerosum: table and compile (or cache) {time.perf_counter() - start:.2f} s")
        solver.reset()
        solution = solver.solve(game.initial_state(), weak=args.weak)
        print(f"zerosum: score {solution.score}, {solution.nodes:,} nodes,"
              f" {solution.seconds:.1f} s, {solution.nodes / solution.seconds / 1e6:.2f} M nodes/s",
              flush=True)  # fmt: skip
    if args.only in (None, "bitbully"):
        other = peer()
        if other is not None:
            other.reset()
            start = time.perf_counter()
            score, nodes = other.solve("")
            seconds = time.perf_counter() - start
            print(
                f"BitBully: score {score}, {nodes:,} nodes, {seconds:.1f} s,"
                f" {nodes / seconds / 1e6:.2f} M nodes/s"
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:,.0f} MB")


def book(args: argparse.Namespace) -> None:
    """The package's opening book: what it holds, then each of `BOOK_LINES` answered with it and
    from scratch (`--limit N`: the last N lines only from scratch)."""
    game = ConnectFour()
    path = connect4_book.shipped_path(game)
    assert path is not None, "no opening book in the package"
    start = time.perf_counter()
    opening = connect4_book.OpeningBook.load(path, game)
    loaded = time.perf_counter() - start
    print(f"book: {opening.plies} plies, {len(opening):,} positions, {path.stat().st_size:,}"
          f" bytes, loaded and verified in {milliseconds(loaded)}")  # fmt: skip
    print("\n| position | stones | score | with the book | nodes | from scratch | nodes | ratio"
          " | whole answer with the book (line of best play) | nodes |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with_book = ConnectFourSolver(game, args.table_mb, impl=args.impl, book=opening)
    scratch = ConnectFourSolver(game, args.table_mb, impl=args.impl, book=None)
    exact = ConnectFourExact(game, args.table_mb, book=opening)
    with_book.solve(game.parse_state("4453"))  # compile (or read numba's cache) first
    lines = BOOK_LINES if not args.limit else BOOK_LINES[-args.limit :]
    for moves in BOOK_LINES:
        state = game.parse_state(moves)
        with_book.reset()
        fast = with_book.solve(state, best_move=True)
        cells = [f"`{moves or '(empty)'}`", str(len(moves)), str(fast.score),
                 milliseconds(fast.seconds), f"{fast.nodes:,}"]  # fmt: skip
        if moves in lines:
            scratch.reset()
            slow = scratch.solve(state, best_move=True)
            assert (slow.score, slow.best_move) == (fast.score, fast.best_move)
            cells += [f"{slow.seconds:,.1f} s", f"{slow.nodes:,}",
                      f"{slow.seconds / fast.seconds:,.0f}"]  # fmt: skip
        else:
            cells += ["", "", ""]
        exact.reset()
        start = time.perf_counter()  # the line of best play included (not in `answer.seconds`)
        answer = exact.answer(state)
        cells += [f"{time.perf_counter() - start:,.2f} s", f"{answer.nodes:,}"]
        print("| " + " | ".join(cells) + " |", flush=True)


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:,.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=SETS)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--weak", action="store_true")
    parser.add_argument("--impl", choices=("compiled", "python"), default="compiled")
    parser.add_argument("--table-mb", type=float, default=64)
    parser.add_argument("--empty", action="store_true", help="solve the empty board instead")
    parser.add_argument("--only", choices=("zerosum", "bitbully"), help="with --empty")
    parser.add_argument("--book", action="store_true", help="measure the opening book instead")
    args = parser.parse_args()
    if args.book:
        book(args)
    elif args.empty:
        empty(args)
    else:
        sets(args)


if __name__ == "__main__":
    main()
