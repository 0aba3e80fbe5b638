"""What recording a trace costs, in the exact search and in the engine.

- alpha-beta on tic-tac-toe from the empty board (18,297 nodes);
- the engine on Connect Four after 4453 to depth 8 (a new engine each run, so the same search).

Run by hand: python benchmarks/trace_overhead.py [repeats] [--baseline ENGINE_PY]. Prints the
best time of each way and its ratio to the search without a trace (and the engine's nodes per
second). Tracing off is the searches' normal path. `--baseline` also times another version of
`engine.py` (e.g. `git show main:src/zerosum/search/engine.py > /tmp/engine_main.py`, the
engine before it could trace) in the same run, the runs of each way interleaved, so that the
cost of the engine's `trace is not None` tests is measured against the engine without them.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Callable

from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe
from zerosum.search import Trace, alphabeta
from zerosum.search.engine import Engine

POSITION, DEPTH = "4453", 8


def best_times(ways: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """The best of `repeats` times of each way, the ways taking turns in every round."""
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(repeats):
        for name, run in ways.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: min(seconds) for name, seconds in times.items()}


def load_engine(path: str) -> type:
    """The `Engine` class of another version of engine.py (its imports are this zerosum's)."""
    spec = importlib.util.spec_from_file_location("baseline_engine", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[spec.name] = module  # type: ignore[union-attr]  # dataclasses look it up
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.Engine


def report(title: str, times: dict[str, float], nodes: int | None = None) -> None:
    print(title)
    base = next(iter(times.values()))
    nps = "  nodes/s" if nodes else ""
    print(f"  {'way':<34} {'best':>8}  ratio{nps}")
    for name, seconds in times.items():
        rate = f"  {nodes / seconds:,.0f}" if nodes else ""
        print(f"  {name:<34} {seconds:>7.3f}s  {seconds / base:.2f}{rate}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repeats", type=int, nargs="?", default=5)
    parser.add_argument("--baseline", metavar="ENGINE_PY", help="another engine.py to time too")
    args = parser.parse_args()

    game = TicTacToe()
    root = game.initial_state()
    exact = {
        "tracing off": lambda: alphabeta(game, root),
        "trace of every event": lambda: alphabeta(game, root, trace=Trace(limit=10**6)),
        "trace of the first 2 plies": lambda: alphabeta(game, root, trace=Trace(max_ply=2)),
    }
    report("alpha-beta, tic-tac-toe, empty board", best_times(exact, args.repeats))

    connect4 = ConnectFour()
    state = connect4.parse_state(POSITION)

    def search(engine_class: type, trace: Trace | None = None) -> int:
        engine = engine_class(connect4, trace=trace) if trace else engine_class(connect4)
        return engine.search(state, depth=DEPTH).stats.nodes

    nodes = search(Engine)
    engine = {"tracing off": lambda: search(Engine)}
    if args.baseline:
        baseline = load_engine(args.baseline)
        assert search(baseline) == nodes, "the baseline engine searches another tree"
        engine["baseline engine.py (no trace code)"] = lambda: search(baseline)
    engine["trace of every event"] = lambda: search(Engine, Trace(limit=10**7))
    engine["trace of the first 3 plies"] = lambda: search(Engine, Trace(max_ply=3))
    title = f"engine, Connect Four after {POSITION}, depth {DEPTH} ({nodes:,} nodes)"
    report(title, best_times(engine, args.repeats), nodes)


if __name__ == "__main__":
    main()
