"""Win At Chess: how many of the 300 tactical positions the engine solves at a fixed time.

Each position of `wac.epd` (Reinfeld's "Win At Chess", read at run time from the shared test
data, never copied into the repository) is searched by zerosum's engine on `Chess` for `--time`
seconds from an empty transposition table: the compiled engine (`--engine compiled`, the
default) or the Python one (`--engine python`). A position is solved when the move found is one
of its best moves (`bm`) and none of its moves to avoid (`am`). With `--peer sunfish` sunfish
searches each position for the same time, after zerosum, in the same run (`pip install --no-deps
sunfish`).

    python benchmarks/chess_wac.py [--time 1] [--engine compiled|python] [--peer sunfish]
        [--limit N] [--epd PATH] [--show-failures]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

import chess
import chess.engine
from oracles import find_oracle

from zerosum.compiled import choice
from zerosum.games.chess import Chess

PEER_COMMAND = shutil.which("sunfish-uci") or str(Path(sys.executable).parent / "sunfish-uci")


def solved(move: chess.Move, operations: dict) -> bool:
    """Whether `move` is one of the best moves and none of the moves to avoid."""
    best = operations.get("bm") or []
    avoid = operations.get("am") or []
    return (not best or move in best) and move not in avoid


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="seconds a position (default 1)")
    parser.add_argument("--limit", type=int, help="only the first N positions")
    parser.add_argument(
        "--epd", type=Path, default=find_oracle("chess", "wac.epd"), help="the WAC file"
    )
    parser.add_argument("--engine", choices=choice.IMPLEMENTATIONS, default="compiled")
    parser.add_argument("--peer", choices=["sunfish"], help="also search with this engine")
    parser.add_argument("--show-failures", action="store_true", help="list the unsolved")
    args = parser.parse_args()
    if args.epd is None or not args.epd.exists():
        parser.error("wac.epd not found: give it with --epd PATH")
    lines = [line for line in args.epd.read_text().splitlines() if line.strip()]
    lines = lines[: args.limit] if args.limit else lines
    game = Chess()
    engine = choice.engine(game, args.engine)
    peer = chess.engine.SimpleEngine.popen_uci(PEER_COMMAND) if args.peer else None
    count = depth_total = nodes_total = peer_count = 0
    failures = []
    start = time.perf_counter()
    for line in lines:
        board, operations = chess.Board.from_epd(line)
        engine.clear()
        result = engine.search(game.parse_state(board.fen()), time=args.time)
        depth_total += result.depth
        nodes_total += result.stats.nodes
        if peer and solved(sunfish_move(peer, board, args.time), operations):
            peer_count += 1
        if solved(result.best_move, operations):
            count += 1
        else:
            wanted = " ".join(board.san(m) for m in operations.get("bm") or [])
            failures.append(f"{operations.get('id')}: played {board.san(result.best_move)},"
                            f" wanted {wanted}")  # fmt: skip
    elapsed = time.perf_counter() - start
    if peer:
        peer.quit()
    if args.show_failures:
        print("\n".join(failures))
    total = len(lines)
    peer = f" {args.peer} solved |" if args.peer else ""
    print(f"| engine | positions | time a position | solved | mean depth | mean nodes |{peer}")
    print("|---|---:|---:|---:|---:|---:|" + ("---:|" if args.peer else ""))
    theirs = f" {peer_count}/{total} ({100 * peer_count / total:.0f}%) |" if args.peer else ""
    print(
        f"| {args.engine} | {total} | {args.time:g} s | {count}/{total}"
        f" ({100 * count / total:.0f}%) | {depth_total / total:.1f}"
        f" | {nodes_total / total:,.0f} |{theirs}"
    )
    print(f"wall time {elapsed:.0f} s")


def sunfish_move(engine: chess.engine.SimpleEngine, board: chess.Board, seconds: float):
    """sunfish's move in `board` after `seconds` of thinking, asked through its UCI loop as a
    new game (python-chess sends `ucinewgame` for a `game` it has not seen)."""
    return engine.play(board, chess.engine.Limit(time=seconds), game=object()).move


if __name__ == "__main__":
    main()
