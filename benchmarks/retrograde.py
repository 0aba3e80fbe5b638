"""Retrograde analysis: build speed and peak memory, one core against all, and OpenSpiel.

Each build runs in a fresh process, so that its peak resident memory (the building process and
its worker processes, whichever is larger) is its own. For every game the table is built with
one worker and with every core; the speed-up is the ratio of the two times. OpenSpiel's
`value_iteration` solves tic-tac-toe in the same run (its states a second, best of
`--repeat`), and the ratio compares zerosum's positions a second with it on the same game.

    python benchmarks/retrograde.py [--games tictactoe,c4-4x4,c4-5x4,c4-4x5] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

GAMES = {
    "tictactoe": ("tictactoe", {}),
    "c4-4x4": ("connect4", {"width": 4, "height": 4}),
    "c4-5x4": ("connect4", {"width": 5, "height": 4}),
    "c4-4x5": ("connect4", {"width": 4, "height": 5}),
}


def build_once(name: str, workers: int) -> dict:
    """Build one table in this process; its size, time and peak memory."""
    from zerosum.games.connect4 import ConnectFour
    from zerosum.games.tictactoe import TicTacToe
    from zerosum.solve import solve

    kind, parameters = GAMES[name]
    game = TicTacToe() if kind == "tictactoe" else ConnectFour(**parameters)
    start = time.perf_counter()
    table = solve(game, workers=workers)
    seconds = time.perf_counter() - start
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    initial = table.initial()
    return {
        "positions": table.counts.positions,
        "seconds": seconds,
        "peak_mb": max(own, children) / 1024,
        "value": initial.value,
        "distance": initial.distance,
    }


def build(name: str, workers: int, repeat: int) -> dict:
    """The best of `repeat` builds, each in a fresh process."""
    runs = []
    for _ in range(repeat):
        output = subprocess.run(
            [sys.executable, __file__, "--one", name, str(workers)],
            check=True, capture_output=True, text=True,
        ).stdout
        runs.append(json.loads(output))
    return min(runs, key=lambda run: run["seconds"])


def openspiel_tictactoe(repeat: int) -> dict | None:
    """OpenSpiel's value iteration on tic-tac-toe: states solved and the best time."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import value_iteration
    except ImportError:
        return None
    game = pyspiel.load_game("tic_tac_toe")
    best, values = float("inf"), {}
    for _ in range(repeat):
        start = time.perf_counter()
        values = value_iteration.value_iteration(game, depth_limit=-1, threshold=0.01)
        best = min(best, time.perf_counter() - start)
    initial = values[game.new_initial_state().to_string()]
    return {"positions": len(values), "seconds": best, "value": initial}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--repeat", type=int, default=3, help="builds per measure (best kept)")
    parser.add_argument("--one", nargs=2, metavar=("GAME", "WORKERS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(build_once(args.one[0], int(args.one[1]))))
        return
    cores = len(os.sched_getaffinity(0))
    print(f"{'game':<11}{'workers':>8}{'positions':>12}{'seconds':>10}{'pos/s':>11}"
          f"{'peak MB':>9}{'speed-up':>10}  value")
    rates = {}
    for name in args.games.split(","):
        repeat = args.repeat if name in ("tictactoe", "c4-4x4") else 1
        single = None
        for workers in (1, cores):
            run = build(name, workers, repeat)
            rate = run["positions"] / run["seconds"]
            rates[name, workers] = rate
            single = single or run["seconds"]
            print(f"{name:<11}{workers:>8}{run['positions']:>12,}{run['seconds']:>10.2f}"
                  f"{rate:>11,.0f}{run['peak_mb']:>9,.0f}{single / run['seconds']:>9.2f}x"
                  f"  {run['value']} in {run['distance']}", flush=True)
    theirs = openspiel_tictactoe(args.repeat)
    if theirs is not None and ("tictactoe", 1) in rates:
        rate = theirs["positions"] / theirs["seconds"]
        print(f"OpenSpiel value_iteration, tic-tac-toe: {theirs['positions']:,} states in"
              f" {theirs['seconds']:.2f} s, {rate:,.0f} a second, value {theirs['value']}")
        for workers in sorted({1, cores}):
            print(f"zerosum ({workers} worker{'s' if workers > 1 else ''}) / OpenSpiel,"
                  f" positions a second: {rates['tictactoe', workers] / rate:.0f}x")


if __name__ == "__main__":
    main()
