"""The partitioned build against today's: time, positions a second a core, peak memory a worker.

Each measure runs in a fresh process (and a fresh work directory), so that its peak resident
memory is its own. Today's build (`zerosum.solve.solve`, one process) is measured beside the
partitioned build in one process and on a local Dask cluster of `--workers` processes, where
the peak is the largest of any worker's (the build reports it) and of the process that drives
them. The one-process partitioned build's compact table gives the empty board's value and each
first move's, for the first player. The compact table of the partitioned build is then
written and probed in-process: microseconds a lookup of positions drawn from every layer,
beside today's `Table.lookup`. The machine's load average is printed with each measure: on a
shared machine it says what the numbers are worth.

    python benchmarks/partitioned.py [--boards 4x4,5x4,4x5] [--workers 2] [--repeat 1]
        [--memory-per-worker 2GB] [--probes 100000]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def measure_here(kind: str, board: str, workers: int, memory: str | None, repeat: int) -> dict:
    """Build Connect Four `board` `repeat` times the way `kind` says ("today", "partitioned");
    the median time, the positions, the partitions and the peak memory of a worker."""
    from zerosum.games.connect4 import ConnectFour
    from zerosum.solve import solve
    from zerosum.solve.partitioned import build, parse_bytes

    width, height = map(int, board.split("x"))
    game = ConnectFour(width, height)
    times, built, moves = [], None, None
    for _ in range(repeat):
        folder = Path(tempfile.mkdtemp(prefix="zerosum-bench-"))
        start = time.perf_counter()
        if kind == "today":
            table = solve(game, workers=1)
            positions, partitions = table.counts.positions, 1
        else:
            bound = None if memory is None else parse_bytes(memory)
            built = build(game, folder / "work", memory_per_worker=bound, workers=workers)
            positions, partitions = built.positions, built.partitions
        times.append(time.perf_counter() - start)
        if built is not None and moves is None:
            moves = first_moves(game, built, folder / "t.zt")
        shutil.rmtree(folder)
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    peak = max(own, built.peak_memory) if built is not None else own
    return {
        "positions": positions,
        "partitions": partitions,
        "seconds": statistics.median(times),
        "peak_mb": peak / 2**20,
        "driver_mb": own / 2**20,
        "moves": moves,
    }


def first_moves(game, built, path: Path) -> dict:
    """From the compact table of `built`: the empty board's value and distance for the first
    player, and each first move's (column, from 1), also for the first player."""
    from zerosum.solve import compact

    compact.write(built, path)
    table = compact.load(path, game)
    start = game.initial_state()
    value, distance = table.lookup(start)
    entries = {"empty": [value, distance]}
    for column in game.legal_moves(start):
        value, distance = table.lookup(game.result(start, column))
        entries[str(column + 1)] = [-value, distance + 1]  # the reply's value, seen by the first
    return entries


def probe_here(board: str, probes: int) -> dict:
    """Build `board` by partitions, write its compact table, and time lookups of `probes`
    positions from every layer in the compact table and in today's table."""
    import numpy as np

    from zerosum.games.connect4 import ConnectFour
    from zerosum.solve import compact, solve
    from zerosum.solve.partitioned import build

    width, height = map(int, board.split("x"))
    game = ConnectFour(width, height)
    folder = Path(tempfile.mkdtemp(prefix="zerosum-bench-"))
    try:
        built = build(game, folder / "work")
        start = time.perf_counter()
        size = compact.write(built, folder / "t.zt")
        writing = time.perf_counter() - start
        start = time.perf_counter()
        table = compact.load(folder / "t.zt", game)
        loading = time.perf_counter() - start
        parts = range(built.partitions)
        keys = np.concatenate([built.partition(n, p)[0] for n in built.layers for p in parts])
        rng = np.random.default_rng(2026)
        states = game.from_keys(rng.choice(keys, size=min(probes, len(keys)), replace=False))
        today = solve(game, workers=1)
        timings = {}
        for name, lookup in (("compact", table.lookup), ("today", today.lookup)):
            start = time.perf_counter()
            for state in states:
                lookup(state)
            timings[name] = (time.perf_counter() - start) / len(states) * 1e6
        agree = all(table.lookup(state) == today.lookup(state) for state in states)
    finally:
        shutil.rmtree(folder)
    return {
        "bytes": size,
        "positions": len(table),
        "write_s": writing,
        "load_s": loading,
        "compact_us": timings["compact"],
        "today_us": timings["today"],
        "today_bytes": len(table) * 11,
        "agree": agree,
    }


def run(*arguments: str) -> dict:
    """One measure in a fresh process."""
    done = subprocess.run(
        [sys.executable, __file__, "--one", *arguments], check=True, capture_output=True, text=True
    )
    return json.loads(done.stdout.splitlines()[-1])


def load() -> str:
    return f"{os.getloadavg()[0]:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="4x4,5x4,4x5")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1, help="builds per measure (median kept)")
    parser.add_argument("--memory-per-worker", default=None)
    parser.add_argument("--probes", type=int, default=100_000)
    parser.add_argument("--probe-board", default="5x4")
    parser.add_argument("--one", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        if args.one[0] == "probe":
            print(json.dumps(probe_here(args.one[1], int(args.one[2]))))
        else:
            kind, board, workers, memory, repeat = args.one
            memory = None if memory == "-" else memory
            print(json.dumps(measure_here(kind, board, int(workers), memory, int(repeat))))
        return
    memory = args.memory_per_worker or "-"
    print(
        f"{'board':<6}{'build':<22}{'positions':>12}{'parts':>6}{'seconds':>9}"
        f"{'pos/s/core':>12}{'peak MB/worker':>16}{'vs today':>9}  load"
    )
    for board in args.boards.split(","):
        today = None
        for kind, workers, label in (
            ("today", 1, "today (1 process)"),
            ("partitioned", 1, "partitioned, 1"),
            ("partitioned", args.workers, f"partitioned, {args.workers} Dask"),
        ):
            before = load()
            result = run(kind, board, str(workers), memory, str(args.repeat))
            today = today or result["seconds"]
            rate = result["positions"] / result["seconds"] / workers
            print(
                f"{board:<6}{label:<22}{result['positions']:>12,}{result['partitions']:>6}"
                f"{result['seconds']:>9.2f}{rate:>12,.0f}{result['peak_mb']:>16,.0f}"
                f"{today / result['seconds']:>8.2f}x  {before}-{load()}",
                flush=True,
            )
            if result.get("moves") and workers == 1:
                print(f"{'':<6}values for the first player (value, plies): {result['moves']}")
    if args.probes:
        before = load()
        probe = run("probe", args.probe_board, str(args.probes))
        print(
            f"\n{args.probe_board} compact table: {probe['bytes']:,} bytes"
            f" ({probe['bytes'] / probe['positions']:.2f} a position; today's format"
            f" {probe['today_bytes']:,}), written in {probe['write_s']:.2f} s, verified and"
            f" mapped in {probe['load_s']:.3f} s; a lookup {probe['compact_us']:.2f} us"
            f" (today's table in memory {probe['today_us']:.2f} us), the same entries:"
            f" {probe['agree']}  load {before}-{load()}"
        )


if __name__ == "__main__":
    main()
