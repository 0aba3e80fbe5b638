"""Retrograde analysis: build speed and peak memory, one core against all, and OpenSpiel.

Each measure runs in a fresh process, so that its peak resident memory (the building process
and its worker processes, whichever is larger) is its own; in it the table is built `--repeat`
times (`--repeat-large` times for the large boards) and the median time kept. For every game
the table is built with one worker and with every core, in turns; the speed-up is the ratio of
the two times. OpenSpiel's `value_iteration` solves tic-tac-toe in the same run, in turns with
zerosum's one-worker build in one process (median of `--repeat` each), and the ratio compares
zerosum's positions a second with its states a second on the same game. The machine's load
average is printed before and after each measure: on a shared machine it says what the
numbers are worth. The OpenSpiel part needs the `bench-openspiel` extra
(`pip install -e '.[bench-openspiel]'`) and is left out without it.

The `-one` games are Connect Four expanded one position at a time (its rules on arrays
hidden), as a game written in plain Python is: the speed-up of more processes is theirs.

    python benchmarks/retrograde.py [--games tictactoe,c4-4x4,c4-5x4,c4-4x5,c4-5x4-one]
        [--repeat 5] [--repeat-large 1]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

BATCH = 20
"""zerosum's tic-tac-toe builds timed together against one run of OpenSpiel's."""
GAMES = {
    "tictactoe": ("tictactoe", {}),
    "c4-4x4": ("connect4", {"width": 4, "height": 4}),
    "c4-5x4": ("connect4", {"width": 5, "height": 4}),
    "c4-4x5": ("connect4", {"width": 4, "height": 5}),
    "c4-4x4-one": ("connect4-one", {"width": 4, "height": 4}),
    "c4-5x4-one": ("connect4-one", {"width": 5, "height": 4}),
    "c4-4x5-one": ("connect4-one", {"width": 4, "height": 5}),
}
"""The games built; `-one`: Connect Four without its rules on arrays, expanded one position at
a time as a game written in plain Python is."""


class OnePositionAtATime:
    """A game without its rules on arrays (`zerosum.game.Vectorized`), all else the same."""

    def __init__(self, game):
        self.game = game

    def __getattr__(self, name):
        if name in ("game", "expand_keys", "layers"):
            raise AttributeError(name)
        return getattr(self.game, name)


def build_here(name: str, workers: int, repeat: int) -> dict:
    """Build one table `repeat` times in this process; its size, median time and peak memory."""
    from zerosum.games.connect4 import ConnectFour
    from zerosum.games.tictactoe import TicTacToe
    from zerosum.solve import solve

    kind, parameters = GAMES[name]
    game = TicTacToe() if kind == "tictactoe" else ConnectFour(**parameters)
    if kind.endswith("-one"):
        game = OnePositionAtATime(game)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        table = solve(game, workers=workers)
        times.append(time.perf_counter() - start)
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    initial = table.initial()
    return {
        "positions": table.counts.positions,
        "seconds": statistics.median(times),
        "peak_mb": max(own, children) / 1024,
        "value": initial.value,
        "distance": initial.distance,
    }


def build(name: str, workers: int, repeat: int) -> dict:
    """The median of `repeat` builds, in a fresh process."""
    output = subprocess.run(
        [sys.executable, __file__, "--one", name, str(workers), str(repeat)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(output)


def ceiling(copies: int, repeat: int) -> float:
    """How many times the work of one process `copies` processes do on this machine now: the
    one-worker 4x4 build run alone, then in `copies` processes at once. The speed-up of a
    parallel build cannot exceed it."""
    alone = build("c4-4x4", 1, repeat)["seconds"]
    command = [sys.executable, __file__, "--one", "c4-4x4", "1", str(repeat)]
    processes = [
        subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(copies)
    ]
    together = max(json.loads(process.communicate()[0])["seconds"] for process in processes)
    return copies * alone / together


def against_openspiel(repeat: int) -> tuple[dict, dict] | None:
    """zerosum's build (one worker) and OpenSpiel's value iteration on tic-tac-toe, run in
    turns in this process so that both meet the same load: positions, median wall-clock and
    median CPU times of one solve, and the best CPU time. Each is run once before timing;
    zerosum's build, a hundred times shorter, is timed `BATCH` at a time (as timeit does), so
    that one interruption by another process does not weigh more on it than on OpenSpiel's."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import value_iteration
    except ImportError:
        return None
    from zerosum.games.tictactoe import TicTacToe
    from zerosum.solve import solve

    game, theirs_game = TicTacToe(), pyspiel.load_game("tic_tac_toe")

    def ours_once() -> tuple[int, float]:
        for _ in range(BATCH):
            table = solve(game, workers=1)
        return len(table), table.initial().value

    def theirs_once() -> tuple[int, float]:
        values = value_iteration.value_iteration(theirs_game, depth_limit=-1, threshold=0.01)
        return len(values), values[theirs_game.new_initial_state().to_string()]

    runs = ({"seconds": [], "cpu": []} for _ in range(2))
    ours, theirs = runs
    ours_once(), theirs_once()
    for _ in range(repeat):
        for run, once, solves in ((ours, ours_once, BATCH), (theirs, theirs_once, 1)):
            wall, cpu = time.perf_counter(), time.process_time()
            run["positions"], run["value"] = once()
            run["seconds"].append((time.perf_counter() - wall) / solves)
            run["cpu"].append((time.process_time() - cpu) / solves)
    for run in (ours, theirs):
        run["best"] = min(run["cpu"])
        run["seconds"], run["cpu"] = map(statistics.median, (run["seconds"], run["cpu"]))
    return ours, theirs


def load() -> str:
    """The machine's load average over the last minute."""
    return f"{os.getloadavg()[0]:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--repeat", type=int, default=5, help="builds per measure (median kept)")
    parser.add_argument("--repeat-large", type=int, default=1, help="builds of 5x4 and 4x5")
    parser.add_argument(
        "--one", nargs=3, metavar=("GAME", "WORKERS", "REPEAT"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.one:
        print(json.dumps(build_here(args.one[0], int(args.one[1]), int(args.one[2]))))
        return
    cores = len(os.sched_getaffinity(0))
    before = load()
    print(
        f"ceiling: {cores} processes do {ceiling(cores, args.repeat):.2f}x the work of one"
        f" (load {before}-{load()})"
    )
    print(
        f"{'game':<11}{'workers':>8}{'positions':>12}{'seconds':>10}{'pos/s':>11}"
        f"{'peak MB':>9}{'speed-up':>10}  value       load"
    )
    for name in args.games.split(","):
        repeat = args.repeat if name in ("tictactoe", "c4-4x4", "c4-4x4-one") else args.repeat_large
        single = None
        for workers in (1, cores):
            before = load()
            run = build(name, workers, repeat)
            single = single or run["seconds"]
            print(
                f"{name:<11}{workers:>8}{run['positions']:>12,}{run['seconds']:>10.3f}"
                f"{run['positions'] / run['seconds']:>11,.0f}{run['peak_mb']:>9,.0f}"
                f"{single / run['seconds']:>9.2f}x  {run['value']} in {run['distance']}"
                f"  {before}-{load()}",
                flush=True,
            )
    before = load()
    compared = against_openspiel(args.repeat)
    if compared is not None:
        print(f"\nload {before}-{load()}")
        for name, run in zip(("zerosum solve", "OpenSpiel value_iteration"), compared, strict=True):
            print(
                f"tic-tac-toe, {name}: {run['positions']:,} positions in {run['seconds']:.3f} s"
                f" ({run['cpu']:.3f} s CPU), {run['positions'] / run['seconds']:,.0f} a second,"
                f" value {run['value']}"
            )
        ours, theirs = compared
        for clock in ("seconds", "cpu", "best"):
            ratio = theirs[clock] / ours[clock]  # the same positions: the ratio of the rates
            print(f"zerosum / OpenSpiel, positions a second ({clock}): {ratio:.0f}x")


if __name__ == "__main__":
    main()
