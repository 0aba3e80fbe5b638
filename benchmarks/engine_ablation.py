"""Ablation of the engine on Connect Four and chess: what each enhancement saves, in nodes and time.

Three tasks, each run with the enhancements switched on one after the other:

- fixed depth: positions searched to `--depth` plies with the threat-aware evaluation
  (quiescence off, so that every configuration computes the same value);
- exact: the first `--exact` positions of `Test_L3_R1` (29-41 stones) solved to the end, then
  the same positions by the dedicated solver (threat ordering, anticipation of losses and
  null-window probes around the score), whose nodes are counted the same way.

- chess (`--chess DEPTH`): four positions searched to DEPTH plies, quiescence on throughout,
  then forward pruning and check extensions switched on one after another; and the table
  giving moves only (as for a history-dependent game before `path_key`) against the table
  whose scores are reused along equal paths, everything else on.

The effective branching factor is nodes ** (1 / depth).

    python benchmarks/engine_ablation.py [--depth 8] [--exact 100] [--chess 4 [--first-step 2]]
"""

from __future__ import annotations

import argparse
import resource
import time

from oracles import oracle

from zerosum.experiments.ablation import (
    CHESS_POSITIONS,
    POSITIONS,
    chess_configurations,
    configurations,
)
from zerosum.games.chess import Chess
from zerosum.games.connect4 import ConnectFour
from zerosum.search import alphabeta
from zerosum.search.engine import Engine
from zerosum.solve.connect4 import ConnectFourSolver


def fixed_depth(game: ConnectFour, depth: int) -> None:
    states = [game.parse_state(moves) for moves in POSITIONS]
    print(f"Fixed depth {depth}, positions {', '.join(repr(m) for m in POSITIONS)}:\n")
    print("| configuration | nodes | seconds | EBF | nodes vs plain | time vs plain |")
    print("|---|---:|---:|---:|---:|---:|")
    start = time.perf_counter()
    nodes = sum(alphabeta(game, s, depth=depth).stats.nodes for s in states)
    seconds = time.perf_counter() - start
    ebf = (nodes / len(states)) ** (1 / depth)
    print(f"| textbook `alphabeta` (for reference) | {nodes:,} | {seconds:.2f} | {ebf:.2f} | | |")
    base = None
    for name, flags in configurations():
        values, nodes, seconds = [], 0, 0.0
        for state in states:
            result = Engine(game, **flags).search(state, depth=depth)
            values.append(result.score)
            nodes += result.stats.nodes
            seconds += result.seconds
        base = base or (nodes, seconds)
        ebf = (nodes / len(states)) ** (1 / depth)
        print(f"| {name} | {nodes:,} | {seconds:.2f} | {ebf:.2f} | {nodes / base[0]:.2f}"
              f" | {seconds / base[1]:.2f} |", flush=True)  # fmt: skip


def exact(game: ConnectFour, count: int) -> None:
    lines = oracle("connect4", "Test_L3_R1").read_text().splitlines()[:count]
    positions = [(game.parse_state(m), int(s)) for m, s in (line.split() for line in lines)]
    print(f"\nExact, first {count} positions of Test_L3_R1 (mean per position):\n")
    print("| configuration | mean nodes | mean ms | signs right |")
    print("|---|---:|---:|---:|")
    for name, flags in configurations():
        nodes, seconds, right = 0, 0.0, 0
        for state, score in positions:
            result = Engine(game, **flags).search(state)
            nodes += result.stats.nodes
            seconds += result.seconds
            right += (result.value > 0) - (result.value < 0) == (score > 0) - (score < 0)
        print(f"| {name} | {nodes / count:,.0f} | {seconds / count * 1000:.2f} | {right} |")
    solver = ConnectFourSolver(game)
    nodes, start, right = 0, time.perf_counter(), 0
    for state, score in positions:
        solver.reset()
        solution = solver.solve(state)
        nodes += solution.nodes
        right += solution.score == score
    seconds = time.perf_counter() - start
    print(f"| solver: + threat ordering, anticipation, score window | {nodes / count:,.0f}"
          f" | {seconds / count * 1000:.2f} | {right} (exact scores) |")  # fmt: skip


class MovesOnly(Chess):
    """Chess as a history-dependent game without `path_key`: the table gives moves, no scores."""

    path_key = None  # a protocol's method set to None is not offered


def chess(depth: int, first_step: int = 1) -> None:
    game = Chess()
    states = [game.parse_state(fen) for fen in CHESS_POSITIONS]
    print(f"Chess, depth {depth}, {len(states)} positions (nodes include quiescence):\n")
    print("| configuration | nodes | seconds | EBF | nodes(d) / nodes(d-1) | nodes vs first |"
          " time vs first |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|")
    base = None
    for name, flags in list(chess_configurations())[first_step - 1 :]:
        nodes, seconds, shallower = 0, 0.0, 0
        for state in states:
            result = Engine(game, **flags).search(state, depth=depth)
            nodes += result.stats.nodes
            seconds += result.seconds
            shallower += Engine(game, **flags).search(state, depth=depth - 1).stats.nodes
        base = base or (nodes, seconds)
        ebf = (nodes / len(states)) ** (1 / depth)
        print(f"| {name} | {nodes:,} | {seconds:.1f} | {ebf:.2f} | {nodes / shallower:.2f}"
              f" | {nodes / base[0]:.2f} | {seconds / base[1]:.2f} |", flush=True)  # fmt: skip
    print(f"\nChess table, depth {depth}, every enhancement on:\n")
    print("| position | moves only: nodes | seconds | scores on equal paths: nodes | seconds |")
    print("|---|---:|---:|---:|---:|")
    for fen, state in zip(CHESS_POSITIONS, states, strict=True):
        cells = []
        for rules in (MovesOnly(), game):
            result = Engine(rules).search(state, depth=depth)
            cells += [f"{result.stats.nodes:,}", f"{result.seconds:.1f}"]
        print(f"| {fen.split()[0]} | {' | '.join(cells)} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--exact", type=int, default=100)
    parser.add_argument("--chess", type=int, metavar="DEPTH", help="only the chess tables")
    parser.add_argument(
        "--first-step", type=int, default=1, help="chess: skip the steps before this one"
    )
    args = parser.parse_args()
    if args.chess:
        chess(args.chess, args.first_step)
        return
    game = ConnectFour()
    fixed_depth(game, args.depth)
    exact(game, args.exact)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory (max RSS): {peak:,.0f} MB")


if __name__ == "__main__":
    main()
