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
`--book --bitbully` answers every position of at most the book's plies (mirror images
included) with the book and with BitBully's opening books (`BITBULLY_BOOKS`), scores checked.

    python benchmarks/connect4_solver.py [--sets Test_L3_R1,Test_L2_R1] [--limit N] [--empty]
    python benchmarks/connect4_solver.py --book [--bitbully]
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


BITBULLY_BOOKS = ("8-ply", "12-ply-dist")
"""BitBully's opening books measured by `--book`, from `bitbully_databases` (installed with it):
the smallest (win, draw or loss at 8 plies) and the smallest with exact scores (12 plies)."""


class BitBully:
    """BitBully's solver, each position from an empty table, no book unless `book` names one of
    `bitbully_databases`' ("8-ply", "12-ply", "12-ply-dist")."""

    def __init__(self, book: str | None = None) -> None:
        from bitbully import bitbully_core

        self.core = bitbully_core
        if book is None:
            self.solver = bitbully_core.BitBullyCore()
        else:
            from bitbully_databases import BitBullyDatabases

            self.solver = bitbully_core.BitBullyCore(BitBullyDatabases.get_database_path(book))

    def solve(self, moves: str) -> tuple[int, int]:
        """The score of the position after `moves` and the nodes BitBully searched."""
        board = self.core.BoardCore()
        board.play([int(c) - 1 for c in moves])
        return self.solver.mtdf(board, 0), self.solver.getNodeCounter()

    def score_moves(self, moves: str) -> list[int]:
        """The score of each column's move after `moves` (Pons's convention, the mover's)."""
        board = self.core.BoardCore()
        board.play([int(c) - 1 for c in moves])
        return list(self.solver.scoreMoves(board))

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


def book_positions(game: ConnectFour, plies: int) -> list[list[str]]:
    """For each number of stones from 0 to `plies`, every position (mirror images apart) as the
    columns played to reach it, the first line found for each, in the order of a walk."""
    layers = [{(0, 0): ""}]
    for _ in range(plies):
        following: dict[tuple[int, int], str] = {}
        for moves in layers[-1].values():
            state = game.parse_state(moves)
            for column in game.legal_moves(state):
                child = game.result(state, column)
                if not game.is_terminal(child):
                    following.setdefault((child[0], child[1]), moves + str(column + 1))
        layers.append(following)
    return [list(layer.values()) for layer in layers]


def book_against_bitbully(game: ConnectFour, opening: connect4_book.OpeningBook,
                          table_mb: float, impl: str) -> None:  # fmt: skip
    """Issue 34's target: every position of at most the book's plies, its exact score answered
    by zerosum with its book and by BitBully with each of `BITBULLY_BOOKS`, each solver made
    once (loading off the clock) and its table emptied before each position (off the clock),
    then every move from the empty board scored by both."""
    solver = ConnectFourSolver(game, table_mb, impl=impl, book=opening)
    solver.solve(game.parse_state("4453"))  # compile (or read numba's cache) first
    layers = book_positions(game, opening.plies)
    ours: dict[str, tuple[int, float, int]] = {}
    for moves in (moves for layer in layers for moves in layer):
        solver.reset()
        solution = solver.solve(game.parse_state(moves))
        ours[moves] = (solution.score, solution.seconds, solution.nodes)
    try:
        theirs = {}
        for name in BITBULLY_BOOKS:
            start = time.perf_counter()
            other = BitBully(name)
            print(f"BitBully's {name} book loaded in {milliseconds(time.perf_counter() - start)}")
            found: dict[str, tuple[int, float, int]] = {}
            for moves in ours:
                other.reset()
                start = time.perf_counter()
                score, nodes = other.solve(moves)
                found[moves] = (score, time.perf_counter() - start, nodes)
            theirs[name] = (other, found)
    except ImportError:
        print("(BitBully is not installed: pip install 'zerosum[bench-bitbully]')")
        return
    header = "| stones | positions | zerosum mean | zerosum worst | zerosum nodes"
    for name in BITBULLY_BOOKS:
        header += f" | BitBully {name} mean | worst | nodes | disagreements | BitBully / zerosum"
    print("\n" + header + " |")
    print("|---" * (5 + 5 * len(BITBULLY_BOOKS)) + "|")
    for stones, layer in enumerate(layers):
        times = [ours[moves][1] for moves in layer]
        mean = sum(times) / len(times)
        nodes = sum(ours[moves][2] for moves in layer) / len(layer)
        cells = [str(stones), f"{len(layer):,}", milliseconds(mean), milliseconds(max(times)),
                 f"{nodes:,.0f}"]  # fmt: skip
        for name in BITBULLY_BOOKS:
            found = theirs[name][1]
            their_times = [found[moves][1] for moves in layer]
            their_mean = sum(their_times) / len(their_times)
            wrong = sum(found[moves][0] != ours[moves][0] for moves in layer)
            nodes = sum(found[moves][2] for moves in layer) / len(layer)
            cells += [milliseconds(their_mean), milliseconds(max(their_times)), f"{nodes:,.0f}",
                      str(wrong), f"**{their_mean / mean:,.0f}**"]  # fmt: skip
        print("| " + " | ".join(cells) + " |", flush=True)
    # Every move from the empty board: zerosum scores the 7 children (in its book).
    solver.reset()
    start = time.perf_counter()
    scores = [-solver.solve(game.parse_state(str(column))).score for column in range(1, 8)]
    seconds = time.perf_counter() - start
    print(f"\nevery move from the empty board, zerosum with its book: {scores},"
          f" {milliseconds(seconds)}")  # fmt: skip
    for name in BITBULLY_BOOKS:
        other = theirs[name][0]
        other.reset()
        start = time.perf_counter()
        their_scores = other.score_moves("")
        seconds = time.perf_counter() - start
        agree = "agree" if their_scores == scores else "DISAGREE"
        print(f"BitBully with its {name} book (scoreMoves): {their_scores},"
              f" {milliseconds(seconds)} ({agree})")  # fmt: skip


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
    parser.add_argument(
        "--bitbully", action="store_true", help="with --book: its positions, beside BitBully's"
    )
    args = parser.parse_args()
    if args.book and args.bitbully:
        game = ConnectFour()
        path = connect4_book.shipped_path(game)
        assert path is not None, "no opening book in the package"
        opening = connect4_book.OpeningBook.load(path, game)
        book_against_bitbully(game, opening, args.table_mb, args.impl)
    elif args.book:
        book(args)
    elif args.empty:
        empty(args)
    else:
        sets(args)


if __name__ == "__main__":
    main()
