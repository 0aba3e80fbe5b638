"""The compiled engine and MCTS against the Python ones, in one run: nodes and playouts per CPU
second on Connect Four.

- The engine: the four positions of `engine_speed.py` (`""`, `4453`, `44444326`, `3435261`) to
  `--depth` plies, every enhancement on (quiescence included), a new engine a position for each
  implementation, made before the clock starts (the compiled one touches its whole table
  then). The node counts of the two must be equal (the same search, node for node);
  the report gives each one's nodes per CPU second and the ratio.
- MCTS: `--iterations` iterations from the empty board, each implementation (the Python one
  gets a tenth as many: the same rate, less waiting), iterations per CPU second and the ratio.
- First-call compile time (CPU seconds) of the engine and of MCTS, measured first.

Each measurement is repeated `--repeat` times and the best (least disturbed) kept: the machine
is shared. CPU seconds of this process, not the wall clock.

    python benchmarks/compiled_speed.py [--depth 10] [--iterations 200000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

from zerosum.compiled.engine import Engine as CompiledEngine
from zerosum.compiled.mcts import MCTS as CompiledMCTS
from zerosum.games.connect4 import ConnectFour
from zerosum.search.engine import Engine
from zerosum.search.mcts import MCTS

POSITIONS = ("", "4453", "44444326", "3435261")


def cpu(function):  # type: ignore[no-untyped-def]
    start = time.process_time()
    result = function()
    return result, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    game = ConnectFour()
    start = game.initial_state()

    _, engine_compile = cpu(lambda: CompiledEngine(game).search(start, depth=1))
    _, mcts_compile = cpu(lambda: CompiledMCTS(game, iterations=2).search(start))
    print(f"compile (CPU seconds): engine {engine_compile:.1f}, MCTS {mcts_compile:.1f}")

    print(f"\nengine, depth {args.depth}, every enhancement on")
    print(f"{'position':<10} {'nodes':>10} {'python nps':>11} {'compiled nps':>13} {'ratio':>7}")
    total_nodes, total_python, total_compiled = 0, 0.0, 0.0
    for moves in POSITIONS:
        state = game.parse_state(moves)
        best_python = best_compiled = float("inf")
        for _ in range(args.repeat):
            engine, compiled_engine = Engine(game), CompiledEngine(game)  # tables made apart
            python, seconds = cpu(lambda: engine.search(state, depth=args.depth))  # noqa: B023
            best_python = min(best_python, seconds)
            compiled, seconds = cpu(
                lambda: compiled_engine.search(state, depth=args.depth)  # noqa: B023
            )
            best_compiled = min(best_compiled, seconds)
        nodes = python.stats.nodes
        assert compiled.stats.nodes == nodes, (moves, compiled.stats.nodes, nodes)
        total_nodes += nodes
        total_python += best_python
        total_compiled += best_compiled
        print(
            f"{moves or 'start':<10} {nodes:>10,} {nodes / best_python:>11,.0f}"
            f" {nodes / best_compiled:>13,.0f} {best_python / best_compiled:>6.1f}x"
        )
    print(
        f"{'all':<10} {total_nodes:>10,} {total_nodes / total_python:>11,.0f}"
        f" {total_nodes / total_compiled:>13,.0f} {total_python / total_compiled:>6.1f}x"
    )

    print(f"\nMCTS from the empty board ({args.iterations:,} compiled iterations)")
    python_rate = compiled_rate = 0.0
    for seed in range(args.repeat):
        python_iterations = args.iterations // 10
        result, seconds = cpu(
            lambda: MCTS(game, iterations=python_iterations, seed=seed).search(start)  # noqa: B023
        )
        python_rate = max(python_rate, result.iterations / seconds)
        result, seconds = cpu(
            lambda: CompiledMCTS(game, iterations=args.iterations, seed=seed).search(start)  # noqa: B023
        )
        compiled_rate = max(compiled_rate, result.iterations / seconds)
    print(f"python {python_rate:,.0f} iterations/s, compiled {compiled_rate:,.0f} iterations/s,"
          f" ratio {compiled_rate / python_rate:.1f}x")  # fmt: skip


if __name__ == "__main__":
    main()
