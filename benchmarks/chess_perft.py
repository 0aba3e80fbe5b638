"""Chess perft: zerosum's compiled rules against python-chess's own move generator, side by side
in one run, on the standard positions (start, Kiwipete, and positions 3 to 6 of the Chess
Programming Wiki's list).

Both count every line of `--depth` moves (python-chess to `--python-depth`, as it is about a
hundred times slower) and play every move of every ply: zerosum through `zerosum.compiled.perft`
(the kernel `zerosum perft chess` runs, its legal moves, `play` and the game's end looked at in
every position), python-chess by `Board.legal_moves`, `push` and `pop`. The speed is the moves
played (the nodes of depths 1 to the depth) per CPU second, on one core, best of `--repeat`; the
counts must be python-chess's.

    python benchmarks/chess_perft.py [--depth 6] [--python-depth 4] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import chess

from zerosum.compiled.perft import perft
from zerosum.games.chess import Chess

POSITIONS = {
    "start": (chess.STARTING_FEN, 0),
    "kiwipete": ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", -1),
    "position 3": ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 1),
    "position 4": ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", -1),
    "position 5": ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", -1),
    "position 6": (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        -1,
    ),
}
"""Each position, with the depth to search it at relative to `--depth` (Kiwipete and positions
4 to 6 have about six times the start's moves a ply)."""


def python_chess_perft(board: chess.Board, depth: int) -> tuple[int, int]:
    """(lines of `depth` moves, moves played) by python-chess's own generator."""
    if depth == 0:
        return 1, 0
    lines = played = 0
    for move in board.legal_moves:
        board.push(move)
        below, moves = python_chess_perft(board, depth - 1)
        board.pop()
        lines, played = lines + below, played + moves + 1
    return lines, played


def best_time(run, repeat: int):
    """(the result of `run()`, its least CPU seconds over `repeat` runs)."""
    best = None
    for _ in range(repeat):
        start = time.process_time()
        result = run()
        spent = time.process_time() - start
        best = spent if best is None else min(best, spent)
    return result, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6, help="zerosum's depth at the start")
    parser.add_argument("--python-depth", type=int, default=4, help="python-chess's depth")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    game = Chess()
    perft(game, game.initial_state(), 1)  # the kernel loaded (compiled the first time)
    print("| position | depth | zerosum lines | zerosum moves/s | depth | python-chess lines"
          " | python-chess moves/s | ratio |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, (fen, shift) in POSITIONS.items():
        state = game.parse_state(fen)
        depth = args.depth + shift
        played = sum(perft(game, state, d).nodes for d in range(1, depth + 1))
        ours, our_seconds = best_time(lambda: perft(game, state, depth), args.repeat)  # noqa: B023
        python_depth = max(1, args.python_depth + shift)
        board = chess.Board(fen)
        (lines, moves), their_seconds = best_time(
            lambda: python_chess_perft(board, python_depth),  # noqa: B023
            args.repeat,
        )
        assert lines == perft(game, state, python_depth).nodes, (name, python_depth)
        our_rate, their_rate = played / our_seconds, moves / their_seconds
        print(
            f"| {name} | {depth} | {ours.nodes:,} | {our_rate / 1e6:.1f} M | {python_depth}"
            f" | {lines:,} | {their_rate / 1e3:.0f} k | {our_rate / their_rate:.0f} |"
        )


if __name__ == "__main__":
    main()
