"""The UCI engine's clock handling, measured through python-chess's engine client.

For a few positions: how long `stop` takes to bring `bestmove` during `go infinite`, and how
long `go movetime` really takes; then one self-play game on a clock, reporting whether a side
lost on time, the clocks left and the longest move.

    python benchmarks/uci_clock.py [--clock 3] [--increment 0.05] [--plies 120]
"""

from __future__ import annotations

import argparse
import sys
import time

import chess
import chess.engine

POSITIONS = {
    "start": chess.STARTING_FEN,
    "italian, Qh5": "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
}


def open_engine() -> chess.engine.SimpleEngine:
    return chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "zerosum", "uci"])


def stop_and_movetime(engine: chess.engine.SimpleEngine, fen: str) -> tuple[float, float]:
    """Seconds from `stop` to `bestmove` after 1 s of `go infinite`; seconds of `movetime 1000`."""
    board = chess.Board(fen)
    with engine.analysis(board) as analysis:
        time.sleep(1.0)
        start = time.perf_counter()
        analysis.stop()
        analysis.wait()
        stop = time.perf_counter() - start
    start = time.perf_counter()
    engine.play(board, chess.engine.Limit(time=1.0))
    return stop, time.perf_counter() - start


def clock_game(engine, clock: float, increment: float, plies: int) -> str:
    """One self-play game on a clock: who lost on time, or the clocks left."""
    board, clocks, longest = chess.Board(), [clock, clock], 0.0
    while not board.is_game_over(claim_draw=True) and len(board.move_stack) < plies:
        side = 0 if board.turn == chess.WHITE else 1
        limit = chess.engine.Limit(white_clock=clocks[0], black_clock=clocks[1],
                                   white_inc=increment, black_inc=increment)  # fmt: skip
        start = time.perf_counter()
        move = engine.play(board, limit).move
        spent = time.perf_counter() - start
        clocks[side] -= spent
        if clocks[side] < 0:
            loser = "white" if side == 0 else "black"
            return f"{loser} lost on time at ply {len(board.move_stack)}"
        clocks[side] += increment
        longest = max(longest, spent)
        board.push(move)
    return (f"{len(board.move_stack)} plies, no loss on time, clocks left {clocks[0]:.2f} s and"
            f" {clocks[1]:.2f} s, longest move {longest:.3f} s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clock", type=float, default=3.0, help="seconds each side starts with")
    parser.add_argument("--increment", type=float, default=0.05, help="seconds added a move")
    parser.add_argument("--plies", type=int, default=120, help="plies at most")
    args = parser.parse_args()
    engine = open_engine()
    try:
        print("| position | stop to bestmove (ms) | movetime 1000 took (ms) |")
        print("|---|---:|---:|")
        for name, fen in POSITIONS.items():
            stop, movetime = stop_and_movetime(engine, fen)
            print(f"| {name} | {stop * 1000:.0f} | {movetime * 1000:.0f} |")
        print()
        print(f"{args.clock:g} s + {args.increment:g} s:",
              clock_game(engine, args.clock, args.increment, args.plies))  # fmt: skip
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
