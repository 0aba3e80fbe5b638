"""Where a compiled perft's time goes: the rules, or the kernel's call for each leaf.

Two perfts over the same compiled rules, side by side in one run, both playing every move of
every ply (no counting of a position's moves without playing them):

- `zerosum.compiled.perft.kernel`, the one `zerosum perft` runs;
- the kernel written here with the last ply played in its parent's loop, each child read (so
  no move's work can be left out by the compiler), counted one by one.

This study measured 1.26x for the loop against a kernel that called itself for each move of
the last ply; the kernel has played the last ply in its loop since (2026-12-01), so the two now
run at one speed, which shows the kernel's last moves are all still played. The counts must be
equal; the speed is the moves played (the nodes of depths 1 to the depth) per CPU second, best
of `--repeat`.

    python benchmarks/perft_leaf_cost.py [--game othello] [--depth 9] [--repeat 5]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from numba import njit, types

from zerosum.compiled.perft import kernel
from zerosum.compiled.protocol import CompiledGame, compiled_twin
from zerosum.games.connect4 import ConnectFour
from zerosum.games.othello import Othello

GAMES = {"othello": Othello, "connect4": ConnectFour}
SIGNATURE = types.int64(types.uint64[:, ::1], types.int64[:, ::1], types.int64, types.int64)
"""The perft kernel's: `count(states, moves, ply, depth)`."""


def last_ply_in_loop(compiled: CompiledGame) -> Any:
    """`kernel(compiled)` with the moves of the last ply played in their parent's loop."""
    legal, play, terminal = compiled.moves, compiled.play, compiled.terminal

    @njit(SIGNATURE)
    def count(states, moves, ply, depth):
        state = states[ply]
        if depth == 0:
            return 1
        if terminal(state):
            return 0
        line = moves[ply]
        total = 0
        child = states[ply + 1]
        if depth == 1:
            for index in range(legal(state, line)):
                play(state, line[index], child)
                total += child[0] != child[1]  # read: the move's play cannot be dropped
            return total
        for index in range(legal(state, line)):
            play(state, line[index], child)
            total += count(states, moves, ply + 1, depth - 1)
        return total

    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="othello")
    parser.add_argument("--depth", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    game = GAMES[args.game]()
    compiled = compiled_twin(game)
    kernels = {"perft kernel": kernel(compiled), "last ply in loop": last_ply_in_loop(compiled)}
    states = np.zeros((args.depth + 2, compiled.words), np.uint64)
    moves = np.zeros((args.depth + 2, compiled.max_moves), np.int64)
    states[0] = compiled.twin.to_words(game.initial_state())
    for count in kernels.values():
        count(states, moves, 0, 2)  # compiled before any clock
    played = sum(
        int(kernels["perft kernel"](states, moves, 0, d)) for d in range(1, args.depth + 1)
    )
    best = dict.fromkeys(kernels, float("inf"))
    nodes = {}
    for _ in range(args.repeat):  # interleaved: the machine's load falls on both alike
        for name, count in kernels.items():
            start = time.process_time()
            nodes[name] = int(count(states, moves, 0, args.depth))
            best[name] = min(best[name], time.process_time() - start)
    assert len(set(nodes.values())) == 1, nodes
    print(
        f"{args.game} perft {args.depth}: {nodes['perft kernel']:,} lines, {played:,} moves played"
    )
    for name in kernels:
        print(
            f"  {name:<17} {best[name]:.3f} CPU s, {played / best[name] / 1e6:.1f} million moves/s"
        )
    ratio = best["perft kernel"] / best["last ply in loop"]
    print(f"  the last ply in the loop: {ratio:.2f}x")


if __name__ == "__main__":
    main()
