"""A chess endgame table of five pieces built out of core (`zerosum.solve.chess_work`): the
time of the build, positions a second, bytes a position, the process's own peak memory beside
the table's size, the levels and the longest mate; then a sample of positions checked one ply
deep against the table itself (a position's entry is the best of its children's, read through
the smaller tables for a capture) and, where Syzygy's files of the material are in
`--syzygy`, against Syzygy's win, draw or loss.

    nice python benchmarks/chess_five.py --material KRBvKR --out five --work-dir five.work

The smaller tables (4 pieces) are built in memory into `--out` first, unless it has them; the
table itself is built again each run (delete it from `--out` first: it is never read instead).
Its own memory is the largest `RssAnon` seen after each level (the process's memory, not the
page cache of the mapped files), and `VmHWM` (everything resident, the mapped pages too).
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from pathlib import Path

import chess
import chess.syzygy
import numpy as np

from zerosum.games.chess.endgame import Material
from zerosum.solve import chess_builds, chess_tables
from zerosum.solve.chess_work import BYTES_PER_ENTRY


def status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--material", default="KRBvKR")
    parser.add_argument("--out", required=True, help="folder of the tables")
    parser.add_argument("--work-dir", required=True, help="the build's work directory")
    parser.add_argument("--check", type=int, default=20000, help="positions checked")
    parser.add_argument("--syzygy", default="/work/shared/oracles/chess/syzygy")
    args = parser.parse_args()
    material = Material.parse(args.material)
    folder = Path(args.out)
    folder.mkdir(parents=True, exist_ok=True)
    target = chess_tables.path_of(folder, material)
    if target.exists():
        print(f"{target} exists: delete it to build it again", file=sys.stderr)
        return 2
    for smaller in material.smaller():
        chess_builds.build(smaller, folder)
    own = [0]
    levels = [0]

    def shown(report: chess_tables.Progress) -> None:
        own[0] = max(own[0], status_kb("RssAnon"))
        levels[0] = report.level
        if report.level % 10 == 0:
            print(f"  level {report.level}: {report.settled:,} settled", file=sys.stderr)

    cpu = resource.getrusage(resource.RUSAGE_SELF)
    began = time.perf_counter()
    (table,) = chess_builds.build(material, folder, progress=shown, work_dir=args.work_dir)
    seconds = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_SELF)
    user = after.ru_utime - cpu.ru_utime
    system = after.ru_stime - cpu.ru_stime
    size = target.stat().st_size
    half = len(table.codes) // 2
    white = int(np.asarray(table.codes[:half]).max(initial=0))
    print(f"{material.name}: {table.positions:,} positions, {material.entries:,} entries")
    print(
        f"built in {seconds:,.0f} s wall ({user:,.0f} s user, {system:,.0f} s system CPU):"
        f" {table.positions / seconds:,.0f} positions a second"
    )
    print(
        f"table {size:,} bytes: {size / table.positions:.2f} bytes a position"
        f" ({size / material.entries:.2f} an entry); work directory"
        f" {BYTES_PER_ENTRY * material.entries / 1e9:.1f} GB on the disk"
    )
    print(
        f"own memory (RssAnon, largest after a level): {own[0] / 1024:,.0f} MB;"
        f" resident with the mapped pages (VmHWM): {status_kb('VmHWM') / 1024:,.0f} MB"
    )
    print(
        f"{levels[0]} levels; {table.wins:,} wins, {table.draws:,} draws, {table.losses:,}"
        f" losses, {table.checkmates:,} checkmates, {table.stalemates:,} stalemates"
    )
    print(
        f"longest mate {table.longest} plies; with White (the stronger side) to move"
        f" {white} plies, mate in {(white + 1) // 2}"
    )
    tables = chess_tables.ChessTables.open(str(folder))
    checked, wrong = check(material, tables, args.check, random.Random(1))
    print(f"one ply: {checked:,} positions checked, {wrong} not the best of their children")
    syzygy = Path(args.syzygy) / f"{material.name}.rtbw"
    if syzygy.exists():
        with chess.syzygy.open_tablebase(args.syzygy) as oracle:
            disagree = against_syzygy(material, tables, oracle, args.check, random.Random(2))
        print(f"Syzygy: {args.check:,} positions checked, {disagree} disagree")
    else:
        print(f"Syzygy: no {syzygy.name} in {args.syzygy}: not checked against it")
    return 0


def sample(material: Material, tables, count: int, rng: random.Random):
    """`count` boards of entries that hold a position, drawn uniformly."""
    table = tables.tables[material]
    found = 0
    while found < count:
        number = rng.randrange(material.entries)
        if table.codes[number] == chess_tables.INVALID:
            continue
        squares, turn = material.squares_of(number)
        found += 1
        yield material.board(squares, turn)


def check(material: Material, tables, count: int, rng: random.Random) -> tuple[int, int]:
    """Positions checked and those whose entry is not the best of their children's (a win one
    ply sooner than a child's quickest loss, a loss one ply later than the slowest win when
    every child is won, else a draw)."""
    wrong = 0
    for board in sample(material, tables, count, rng):
        code = tables.code(board)
        if not any(board.legal_moves):
            expected = -1 if board.is_check() else 0
        else:
            children = []
            for move in board.legal_moves:
                board.push(move)
                children.append(tables.code(board))
                board.pop()
            wins = [-child for child in children if child < 0]
            if wins:
                expected = min(wins)
            elif all(child > 0 for child in children):
                expected = -(max(children) + 2)
            else:
                expected = 0
        if code != expected:
            wrong += 1
            if wrong <= 3:
                print(f"  {board.fen()}: entry {code}, children say {expected}", file=sys.stderr)
    return count, wrong


def against_syzygy(material: Material, tables, oracle, count: int, rng: random.Random) -> int:
    disagree = 0
    for board in sample(material, tables, count, rng):
        if np.sign(tables.code(board)) != np.sign(oracle.probe_wdl(board)):
            disagree += 1
    return disagree


if __name__ == "__main__":
    raise SystemExit(main())
