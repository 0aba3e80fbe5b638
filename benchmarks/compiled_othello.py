"""Compiled Othello against Python Othello and against OpenSpiel, in one run.

- Perft from the start to `--perft-depth` with the compiled rules: every move of every ply
  played (the last ply's too: no counting of a position's moves without playing them, and
  each move also generates the moves of the position it makes, as the game's states carry
  them); the speed is the moves played (the nodes of depths 1 to the depth together) per CPU
  second. The counts are checked against the published ones.
- The engine: the positions of `othello_speed.py` to `--depth` plies, every enhancement on
  (quiescence over corners), a new engine a position for each implementation, made before the
  clock starts. The node counts must be equal (the same search, node for node); nodes per CPU
  second of each and the ratio.
- OpenSpiel (when `open_spiel` is installed, `pip install -e '.[bench-openspiel]'`): its C++
  `othello` perft, driven from Python, to `--openspiel-perft-depth` (counts must agree: our
  squares are its action numbers); its alpha-beta (`open_spiel.python.algorithms.minimax`,
  Python over the C++ game) at the same depth on the same positions, with a cheap evaluation
  (the mover's mobility: one call of the C++ game) against our compiled engine with its whole
  evaluation (time ratio; the evaluations and so the trees differ); its MCTS
  (`open_spiel.python.algorithms.mcts`, UCT with one random playout a simulation, and
  `pyspiel.MCTSBot`, the C++ one) against our compiled MCTS on Connect Four: playouts per
  CPU second.

Each measurement is the best of `--repeat` (the machine is shared); CPU seconds of this
process.

    python benchmarks/compiled_othello.py [--perft-depth 9] [--depth 6] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from zerosum.compiled.engine import Engine as CompiledEngine
from zerosum.compiled.mcts import MCTS as CompiledMCTS
from zerosum.compiled.perft import kernel
from zerosum.compiled.protocol import compiled_twin
from zerosum.games.connect4 import ConnectFour
from zerosum.games.othello import Othello
from zerosum.search.engine import Engine

PERFT = (1, 4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288, 24_571_056)
"""Lines of each length from the start, passes counted as moves (depths 0 to 10)."""

POSITIONS = ("", "f5d6c3d3c4f4f6f3e6e7", "f5d6c3d3c4f4f6f3e6e7g4g7e3h3g3b2g6c5g8f2")
"""The start, an opening after 10 moves, and that game after 10 random moves more."""

GAME = Othello()


def cpu(function: Callable[[], Any], repeat: int = 1) -> tuple[Any, float]:
    """`function()`'s result and its least CPU seconds over `repeat` runs."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = function()
        best = min(best, time.process_time() - start)
    return result, best


def compiled_perft(depth: int, repeat: int) -> None:
    compiled = compiled_twin(GAME)
    count = kernel(compiled)
    states = np.zeros((depth + 2, compiled.words), np.uint64)
    moves = np.zeros((depth + 2, compiled.max_moves), np.int64)
    states[0] = compiled.twin.to_words(GAME.initial_state())
    count(states, moves, 0, 1)  # compiled before the clock starts
    nodes, seconds = cpu(lambda: int(count(states, moves, 0, depth)), repeat)
    assert nodes == PERFT[depth], (depth, nodes)
    played = sum(PERFT[1 : depth + 1])
    print(f"perft {depth}: {nodes:,} lines, {played:,} moves played in {seconds:.3f} CPU s:"
          f" {played / seconds / 1e6:.1f} million moves/s ({nodes / seconds / 1e6:.1f} million"
          " lines/s)")  # fmt: skip


def engines(depth: int, repeat: int) -> dict[str, float]:
    """Each position's compiled engine CPU seconds (for the OpenSpiel comparison)."""
    print(f"\nengine, depth {depth}, every enhancement on")
    print(f"{'position':<10} {'nodes':>10} {'python nps':>11} {'compiled nps':>13} {'ratio':>7}")
    CompiledEngine(GAME).search(GAME.initial_state(), depth=1)  # compiled before the clock
    times = {}
    total_nodes, total_python, total_compiled = 0, 0.0, 0.0
    for moves in POSITIONS:
        state = GAME.parse_state(moves)
        best_python = best_compiled = float("inf")
        for _ in range(repeat):
            engine, compiled_engine = Engine(GAME), CompiledEngine(GAME)
            python, seconds = cpu(lambda: engine.search(state, depth=depth))  # noqa: B023
            best_python = min(best_python, seconds)
            compiled, seconds = cpu(lambda: compiled_engine.search(state, depth=depth))  # noqa: B023
            best_compiled = min(best_compiled, seconds)
        nodes = python.stats.nodes
        assert compiled.stats.nodes == nodes, (moves, compiled.stats.nodes, nodes)
        times[moves] = best_compiled
        total_nodes += nodes
        total_python += best_python
        total_compiled += best_compiled
        print(f"{len(moves) // 2:<10} {nodes:>10,} {nodes / best_python:>11,.0f}"
              f" {nodes / best_compiled:>13,.0f} {best_python / best_compiled:>6.1f}x")  # fmt: skip
    ratio = total_python / total_compiled
    print(f"{'all':<10} {total_nodes:>10,} {total_nodes / total_python:>11,.0f}"
          f" {total_nodes / total_compiled:>13,.0f} {ratio:>6.1f}x")  # fmt: skip
    return times


def openspiel(perft_depth: int, depth: int, compiled_times: dict[str, float], repeat: int) -> None:
    try:
        import pyspiel
        from open_spiel.python.algorithms import mcts, minimax
    except ImportError:
        print("\nOpenSpiel is not installed: pip install -e '.[bench-openspiel]'")
        return
    game = pyspiel.load_game("othello")

    def perft(state: Any, plies: int) -> int:
        if plies == 0:
            return 1
        if state.is_terminal():
            return 0
        return sum(perft(state.child(action), plies - 1) for action in state.legal_actions())

    print(f"\nOpenSpiel othello (C++ rules, perft driven from Python), depth 0-{perft_depth}:")
    counts, seconds = cpu(
        lambda: [perft(game.new_initial_state(), d) for d in range(perft_depth + 1)]
    )
    verdict = "equal to ours" if counts == list(PERFT[: perft_depth + 1]) else "DIFFERENT"
    print(f"  {counts} in {seconds:.2f} CPU s: {verdict}")

    def mobility(state: Any) -> float:
        """Player 0's estimate: the mover's legal moves, signed by the mover (one C++ call)."""
        return float(len(state.legal_actions()) * (1 - 2 * state.current_player()))

    print(f"\nOpenSpiel alpha-beta (Python over C++ othello, mobility evaluation), depth {depth}:")
    total_openspiel = total_compiled = 0.0

    def search(state: Any) -> Any:
        return minimax.alpha_beta_search(
            game, state.clone(), value_function=mobility, maximum_depth=depth
        )

    for moves in POSITIONS:
        state = game.new_initial_state()
        for action in actions_of(moves):
            state.apply_action(action)
        _, seconds = cpu(lambda: search(state), repeat)  # noqa: B023
        total_openspiel += seconds
        total_compiled += compiled_times[moves]
        ours = compiled_times[moves]
        print(f"  after {len(moves) // 2} moves: OpenSpiel {seconds:.2f} s, zerosum compiled"
              f" {ours:.4f} s, ratio {seconds / ours:,.0f}x")  # fmt: skip
    print(f"  all: ratio {total_openspiel / total_compiled:,.0f}x")

    print("\nMCTS on Connect Four from the empty board (UCT, one random playout a simulation)")
    connect4 = ConnectFour()
    start = connect4.initial_state()
    CompiledMCTS(connect4, iterations=2).search(start)  # compiled before the clock
    result, seconds = cpu(
        lambda: CompiledMCTS(connect4, iterations=200_000, seed=1).search(start), repeat
    )
    ours = result.iterations / seconds
    spiel = pyspiel.load_game("connect_four")
    rng = np.random.RandomState(1)
    simulations = 5_000
    python_bot = mcts.MCTSBot(
        spiel, 2.0, simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng, solve=True
    )
    _, seconds = cpu(lambda: python_bot.mcts_search(spiel.new_initial_state()), repeat)
    theirs_python = simulations / seconds
    cpp_simulations = 200_000
    cpp_bot = pyspiel.MCTSBot(
        spiel, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, cpp_simulations, 10**9, True, 1, False
    )
    _, seconds = cpu(lambda: cpp_bot.step(spiel.new_initial_state()), repeat)
    theirs_cpp = cpp_simulations / seconds
    print(f"  zerosum compiled {ours:,.0f}/s; OpenSpiel Python MCTS {theirs_python:,.0f}/s"
          f" (ours {ours / theirs_python:,.0f}x); OpenSpiel C++ MCTSBot {theirs_cpp:,.0f}/s"
          f" (ours {ours / theirs_cpp:.1f}x)")  # fmt: skip


def actions_of(moves: str) -> list[int]:
    """The squares of a line of moves written `f5d6...` (OpenSpiel's action numbers)."""
    state, actions = GAME.initial_state(), []
    for index in range(0, len(moves), 2):
        move = GAME.parse_move(state, moves[index : index + 2])
        actions.append(move)
        state = GAME.result(state, move)
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perft-depth", type=int, default=9)
    parser.add_argument("--openspiel-perft-depth", type=int, default=6)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    compiled_perft(args.perft_depth, args.repeat)
    times = engines(args.depth, args.repeat)
    openspiel(args.openspiel_perft_depth, args.depth, times, args.repeat)


if __name__ == "__main__":
    main()
