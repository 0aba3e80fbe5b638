"""Chess endgame tables built here against Syzygy's: the time of the build, positions a second,
bytes a position beside Syzygy's files, the longest mates, and the win, draw or loss of every
position (or of a sample of each table) against Syzygy's WDL.

    python benchmarks/chess_tables.py --syzygy ../shared/oracles/chess/syzygy --out tables
    python benchmarks/chess_tables.py --syzygy PATH --out tables --check all   # every position

The tables are built into `--out` (those already there are read, not built again: delete them
to time a build). A cursed win or blessed loss (Syzygy's 1 and -1: the fifty-move rule turns
them into draws) counts as the win or loss it is without that rule, as our tables have no
fifty-move rule. Where the table's best move is checked, it must keep Syzygy's value.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import chess
import chess.syzygy
import numpy as np

from zerosum.games.chess.endgame import Material
from zerosum.solve import chess_builds, chess_tables

LONGEST_KNOWN = {
    "KQvKR": "35 moves (Komissarchik and Futer 1974; Thompson)",
    "KRvKP": "26 moves (Thompson)",
    "KBNvK": "33 moves",
    "KQvKP": "28 moves",
    "KRvK": "16 moves",
    "KQvK": "10 moves",
    "KPvK": "28 moves",
}
"""Longest mates with White (the stronger side) to move, as published (DTM, in moves)."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--syzygy", required=True, help="folder of Syzygy's 3-4 piece WDL files")
    parser.add_argument("--out", required=True, help="folder of our tables (built when missing)")
    parser.add_argument("--materials", nargs="*", default=["all4"])
    parser.add_argument(
        "--check",
        default="20000",
        help="positions checked a table: a number (a uniform sample) or 'all'",
    )
    parser.add_argument("--moves", type=int, default=2000, help="best moves checked a table")
    args = parser.parse_args()
    folder = Path(args.out)
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    built = []
    for material in chess_tables.materials(args.materials):
        built += chess_builds.build(material, folder)
    total = time.perf_counter() - began
    if built:
        positions = sum(table.positions for table in built)
        print(
            f"built {len(built)} tables, {positions:,} positions, in {total:.1f} s:"
            f" {positions / total:,.0f} positions a second"
        )
    tables = chess_tables.ChessTables.open(str(folder))
    syzygy = chess.syzygy.open_tablebase(args.syzygy)
    times = {table.material: table.seconds for table in built}
    print(
        "| material | positions | build s | positions/s | our bytes | bytes/position"
        " | Syzygy WDL+DTZ bytes | longest mate, White to move (plies) | checked | disagree |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rng = random.Random(1)
    for material in chess_tables.materials(args.materials):
        table = tables.tables[material]
        ours = chess_tables.path_of(folder, material).stat().st_size
        theirs = sum(
            (Path(args.syzygy) / f"{material.name}{suffix}").stat().st_size
            for suffix in (".rtbw", ".rtbz")
            if (Path(args.syzygy) / f"{material.name}{suffix}").exists()
        )
        valid = np.flatnonzero(table.codes != np.int16(-32768))
        if args.check != "all" and len(valid) > int(args.check):
            valid = np.array(sorted(rng.sample(list(valid), int(args.check))))
        checked, disagree = check(material, table, valid, tables, syzygy, args.moves, rng)
        seconds = times.get(material)
        white = longest_white(material, table)
        rate = f"{table.positions / seconds:,.0f}" if seconds else "-"
        print(
            f"| {material.name} | {table.positions:,} | {seconds or 0:.1f} | {rate} | {ours:,}"
            f" | {ours / table.positions:.2f} | {theirs:,} | {white}"
            f" | {checked:,} | {disagree} |"
        )
        sys.stdout.flush()
    for name, known in LONGEST_KNOWN.items():
        material = Material.parse(name)
        if material in tables.tables:
            plies = longest_white(material, tables.tables[material])
            print(f"{name}: longest mate with White to move {plies} plies; published {known}")
    return 0


def longest_white(material: Material, table: chess_tables.Built) -> int:
    """The longest win of the side to move among the positions with White to move."""
    half = len(table.codes) // 2
    return int(table.codes[:half].max(initial=0))


def check(material, table, numbers, tables, syzygy, moves, rng):
    """(positions checked, disagreements) of the entries `numbers` against Syzygy's WDL, and
    the best move of `moves` of them keeping Syzygy's value."""
    disagree = 0
    for count, number in enumerate(numbers):
        squares, turn = material.squares_of(int(number))
        board = material.board(squares, turn)
        code = int(table.codes[number])
        wdl = syzygy.probe_wdl(board)
        if np.sign(code) != np.sign(wdl):
            disagree += 1
            if disagree <= 3:
                print(f"  {board.fen()}: ours {code}, Syzygy {wdl}", file=sys.stderr)
        if count < moves and not board.is_game_over():
            move = best(tables, board)
            board.push(move)
            after = -syzygy.probe_wdl(board) if board.occupied != board.kings else 0
            if board.is_checkmate():
                after = 2
            board.pop()
            if np.sign(after) != np.sign(code):
                disagree += 1
                print(f"  {board.fen()}: our move {move} lets the value go", file=sys.stderr)
    return len(numbers), disagree


def best(tables, board):
    from zerosum.games.chess import Chess

    position = Chess().parse_state(board.fen())
    found = tables.best_move(position)
    assert found is not None
    return found[0]


if __name__ == "__main__":
    raise SystemExit(main())
