"""The engine's speed against another version of it, in one run: nodes per CPU second, same trees.

Two worker processes, one with this tree's zerosum and one with another's (`--baseline`, a
checkout's `src` folder, e.g. from `git worktree add /tmp/engine-base main`), run the same
searches in turn, in units of a fraction of a second (a position, or a few), so that the load
of a shared machine falls on both alike; each unit is timed in CPU seconds of its process, and
every round starts two new processes. The node counts of the two must be equal (the same
search). For each task the report gives the nodes, each version's nodes per CPU second over
the best time of each unit (the least disturbed) and their ratio, this tree over the baseline
(above 1: this one is faster), and the median of the rounds' ratios.

The tasks:

- Connect Four, the four positions of `engine_peers.py` to `--depth` plies, quiescence off (as
  the peers are measured);
- the same with every enhancement on (quiescence included);
- Connect Four solved to the end: the first `--exact` positions of `Test_L3_R1`;
- chess, the four positions of `engine_ablation.py --chess` to `--chess-depth` plies, every
  enhancement on (forward pruning, check extensions, MVV-LVA, the path-keyed table).

With `--instructions`, each task is run once under valgrind's callgrind instead, for each
version (hash seed fixed, address randomisation off), and the report gives the instructions it
took (less those of a run that only starts up), which a loaded machine does not disturb: a few
minutes a version, within 0.3% from run to run.

    python benchmarks/engine_speed.py --baseline /tmp/engine-base/src [--rounds 10] [--depth 8]
                                      [--exact 50] [--chess-depth 3] [--instructions]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from oracles import oracle

CONNECT_FOUR = ("", "4453", "44444326", "3435261")
CHESS = (
    "startpos",
    "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
)


def tasks(args: argparse.Namespace) -> dict[str, list[Callable[[], tuple[int, float]]]]:
    """Each task by name, in units of a fraction of a second (a position, or a few): functions
    that search with the zerosum on the path and give the nodes and the CPU seconds."""
    from zerosum.games.chess import Chess
    from zerosum.games.connect4 import ConnectFour
    from zerosum.search.engine import Engine

    def unit(game: Any, states: list[Any], depth: int | None, **switches: bool):
        def searches() -> tuple[int, float]:
            nodes, seconds = 0, 0.0
            for state in states:
                engine = Engine(game, **switches)  # a new engine: the same search every time
                start = time.process_time()
                nodes += engine.search(state, depth=depth).stats.nodes
                seconds += time.process_time() - start
            return nodes, seconds

        return searches

    connect4, chess = ConnectFour(), Chess()
    positions = [connect4.parse_state(moves) for moves in CONNECT_FOUR]
    lines = oracle("connect4", "Test_L3_R1").read_text().splitlines()[: args.exact]
    solved = [connect4.parse_state(line.split()[0]) for line in lines]
    boards = [chess.parse_state(fen) for fen in CHESS]
    return {
        f"Connect Four, depth {args.depth}, quiescence off": [
            unit(connect4, [state], args.depth, quiescence=False) for state in positions
        ],
        f"Connect Four, depth {args.depth}, every enhancement": [
            unit(connect4, [state], args.depth) for state in positions
        ],
        f"Connect Four, {len(solved)} positions of Test_L3_R1 to the end": [
            unit(connect4, solved[i : i + 10], None) for i in range(0, len(solved), 10)
        ],
        f"chess, depth {args.chess_depth}, every enhancement": [
            unit(chess, [state], args.chess_depth) for state in boards
        ],
    }


def serve(args: argparse.Namespace) -> None:
    """The worker: run the unit `task index` named on each line of stdin, answer `[nodes,
    seconds]`; the first line it writes lists the tasks and their units."""
    runs = tasks(args)
    print(json.dumps({task: len(units) for task, units in runs.items()}), flush=True)
    for line in sys.stdin:
        task, index = json.loads(line)
        print(json.dumps(runs[task][index]()), flush=True)


def count(args: argparse.Namespace) -> None:
    """Run every unit of the task numbered `args.count` once (none for -1) and print the nodes."""
    units = list(tasks(args).values())  # imports and positions: start-up for both
    print(sum(unit()[0] for unit in units[args.count]) if args.count >= 0 else 0)


def instructions(source: str, task: int, args: argparse.Namespace) -> subprocess.Popen[str]:
    """A process counting the instructions of `task` (-1: start-up alone) with `source`'s
    zerosum under callgrind; its stdout gives the nodes, its stderr the instructions."""
    command = [sys.executable, __file__, f"--count={task}", f"--depth={args.depth}"]
    command += [f"--exact={args.exact}", f"--chess-depth={args.chess_depth}"]
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    if shutil.which("setarch"):  # the same addresses every run
        command = ["setarch", os.uname().machine, "-R", *command]
    environment = dict(os.environ, PYTHONPATH=source, PYTHONHASHSEED="0")
    return subprocess.Popen(
        command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def collected(process: subprocess.Popen[str]) -> tuple[int, int]:
    """The nodes and instructions a process of `instructions` reports."""
    out, err = process.communicate()
    found = re.search(r"Collected : (\d+)", err)
    if process.returncode or found is None:
        raise SystemExit(f"callgrind failed: {err[-2000:]}")
    return int(out or 0), int(found.group(1))


def counted(args: argparse.Namespace, sources: dict[str, str]) -> None:
    """The `--instructions` report: every task once per version under callgrind, the two
    versions side by side (instruction counts do not mind sharing the machine)."""
    names = list(tasks(args))
    starting = {name: instructions(source, -1, args) for name, source in sources.items()}
    startup = {name: collected(process)[1] for name, process in starting.items()}
    print(f"Instructions under callgrind, this tree ({sources['this']}) against"
          f" {sources['baseline']}\n")  # fmt: skip
    print("| task | nodes (baseline) | nodes (this) | instructions (baseline) |"
          " instructions (this) | this / baseline |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|")
    for number, task in enumerate(names):
        processes = {name: instructions(source, number, args) for name, source in sources.items()}
        results = {name: collected(process) for name, process in processes.items()}
        spent = {name: results[name][1] - startup[name] for name in sources}
        print(f"| {task} | {results['baseline'][0]:,} | {results['this'][0]:,}"
              f" | {spent['baseline'] / 1e6:,.0f}M | {spent['this'] / 1e6:,.0f}M"
              f" | {spent['this'] / spent['baseline']:.3f} |", flush=True)  # fmt: skip


class Worker:
    """A worker process whose zerosum is the one in `source`."""

    def __init__(self, source: str, args: argparse.Namespace) -> None:
        command = [sys.executable, __file__, "--serve", f"--depth={args.depth}"]
        command += [f"--exact={args.exact}", f"--chess-depth={args.chess_depth}"]
        environment = dict(os.environ, PYTHONPATH=source)
        self.process = subprocess.Popen(
            command, env=environment, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin, self.stdout = self.process.stdin, self.process.stdout
        self.tasks: dict[str, int] = json.loads(self.stdout.readline())

    def run(self, task: str, index: int) -> tuple[int, float]:
        self.stdin.write(json.dumps([task, index]) + "\n")
        self.stdin.flush()
        nodes, seconds = json.loads(self.stdout.readline())
        return nodes, seconds

    def close(self) -> None:
        self.stdin.close()
        self.process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="the src folder of the engine to compare with")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--exact", type=int, default=50)
    parser.add_argument("--chess-depth", type=int, default=3)
    parser.add_argument("--instructions", action="store_true", help="count, under callgrind")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args)
        return
    if args.count is not None:
        count(args)
        return
    if not args.baseline:
        parser.error("--baseline SRC is needed: the other version's src folder")
    here = str(Path(__file__).resolve().parents[1] / "src")
    sources = {"baseline": args.baseline, "this": here}
    if args.instructions:
        counted(args, sources)
        return
    # runs[name][task][unit]: the (nodes, seconds) of each round
    runs: dict[str, dict[str, list[list[tuple[int, float]]]]] = {name: {} for name in sources}
    for number in range(args.rounds):
        # New processes each round: a process's memory layout alone can make it a few per
        # cent faster or slower than another running the same code.
        workers = {name: Worker(source, args) for name, source in sources.items()}
        order = ("baseline", "this") if number % 2 == 0 else ("this", "baseline")
        try:
            for task in workers["this"].tasks:  # a first run, unmeasured: lazy imports, caches
                for name in order:
                    workers[name].run(task, 0)
            for task, units in workers["this"].tasks.items():
                for index in range(units):
                    for name in order:
                        samples = runs[name].setdefault(task, [[] for _ in range(units)])
                        samples[index].append(workers[name].run(task, index))
        finally:
            for worker in workers.values():
                worker.close()
        print(f"round {number + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    print(f"{args.rounds} rounds, this tree ({here}) against {args.baseline}\n")
    print("| task | nodes (baseline) | nodes (this) | nps (baseline) | nps (this) | ratio |"
          " median ratio of the rounds |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|")
    for task in runs["this"]:
        nodes, rate, per_round = {}, {}, {}
        for name in sources:
            units = runs[name][task]
            counts = {sum(sample[round_][0] for sample in units) for round_ in range(args.rounds)}
            nodes[name] = ", ".join(f"{count:,}" for count in sorted(counts))
            best = sum(min(seconds for _, seconds in sample) for sample in units)
            rate[name] = max(counts) / best
            per_round[name] = [
                sum(sample[round_][0] for sample in units)
                / sum(sample[round_][1] for sample in units)
                for round_ in range(args.rounds)
            ]
        paired = [a / b for a, b in zip(per_round["this"], per_round["baseline"], strict=True)]
        print(f"| {task} | {nodes['baseline']} | {nodes['this']} | {rate['baseline']:,.0f}"
              f" | {rate['this']:,.0f} | {rate['this'] / rate['baseline']:.3f}"
              f" | {statistics.median(paired):.3f} |")  # fmt: skip
        if nodes["this"] != nodes["baseline"]:
            print("  the node counts differ: not the same search")


if __name__ == "__main__":
    main()
