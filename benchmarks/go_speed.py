"""Go's random playouts per second on one core: the Python rules, the compiled rules alone, and
MCTS iterations (each a descent and a playout) with the Python and the compiled search.

A playout is a game of random moves from the empty board to its end (two passes, or the move
limit of three times the points): uniformly random legal moves, or the compiled rules' playout
policy (`compiled_go.playout_move`: a random empty point, tested, never filling a simple eye
of the mover's). The compiled rules' figures are playouts played by a compiled loop over
`moves` (or `playout_move`) and `play`, as the compiled MCTS plays them; the MCTS figures are
iterations per second of a search of the empty board for `--seconds`, with each kind of
playout, and with the policy and RAVE (`--rave K`: its AMAF statistics kept on the way up).
CPU seconds of this process, so that other jobs on a shared machine disturb the figures less.

    python benchmarks/go_speed.py [--size 9] [--seconds 5] [--rave 1000]

The issue's target is 50,000 playouts a second on 9x9 on one core.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
from numba import njit

from zerosum.compiled.mcts import MCTS as CompiledMCTS
from zerosum.games.compiled_go import go_rules, moves, play, playout_move, terminal
from zerosum.games.go import Go
from zerosum.search.mcts import MCTS


@njit(cache=True)
def playouts(start, games, out, child, scratch):
    """Play `games` random games from `start`; return the plies played in all."""
    plies = 0
    draw = np.uint64(0x853C49E6748FEA9B)
    for _ in range(games):
        scratch[:] = start
        while not terminal(scratch):
            count = moves(scratch, out)
            draw = draw * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
            play(scratch, out[np.int64((draw >> np.uint64(33)) % np.uint64(count))], child)
            scratch[:] = child
            plies += 1
    return plies


@njit(cache=True)
def policy_playouts(start, games, child, scratch, rng):
    """Play `games` games of the playout policy from `start`; return the plies played."""
    plies = 0
    for _ in range(games):
        scratch[:] = start
        while not terminal(scratch):
            play(scratch, playout_move(scratch, rng), child)
            scratch[:] = child
            plies += 1
    return plies


def python_playouts(game: Go, seconds: float) -> tuple[int, int, float]:
    """Random games of the Python rules for about `seconds` CPU seconds: games, plies, time."""
    rng = random.Random(1)
    games = plies = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.initial_state()
        while not game.is_terminal(state):
            state = game.result(state, rng.choice(game.legal_moves(state)))
            plies += 1
        games += 1
    return games, plies, time.process_time() - start


def compiled_playouts(game: Go, seconds: float) -> tuple[int, int, float]:
    """Random games of the compiled rules for about `seconds` CPU seconds."""
    rules = go_rules(game)
    start_words = rules.initial_words()
    out = np.empty(rules.max_moves, np.int64)
    child = np.empty(rules.words, np.uint64)
    scratch = np.empty(rules.words, np.uint64)
    return _timed(lambda count: playouts(start_words, count, out, child, scratch), seconds)


def compiled_policy_playouts(game: Go, seconds: float) -> tuple[int, int, float]:
    """Games of the compiled playout policy for about `seconds` CPU seconds."""
    rules = go_rules(game)
    start_words = rules.initial_words()
    child = np.empty(rules.words, np.uint64)
    scratch = np.empty(rules.words, np.uint64)
    rng = np.array([0x853C49E6748FEA9B], np.uint64)
    return _timed(lambda count: policy_playouts(start_words, count, child, scratch, rng), seconds)


def _timed(batch: Callable[[int], int], seconds: float) -> tuple[int, int, float]:
    """Batches of 100 games of `batch(count) -> plies` for about `seconds` CPU seconds (one game
    first, so that it is compiled before the clock starts): games, plies and CPU seconds."""
    batch(1)
    games = plies = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        plies += batch(100)
        games += 100
    return games, plies, time.process_time() - start


def mcts_iterations(search: object, game: Go) -> tuple[int, float]:
    """Iterations of `search` from the empty board, and their CPU seconds."""
    start = time.process_time()
    result = search.search(game.initial_state())  # type: ignore[attr-defined]
    return result.iterations, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9, help="the board's side (5-19)")
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds of each run")
    parser.add_argument("--rave", type=float, default=1000.0, help="RAVE's equivalence K")
    args = parser.parse_args()
    game = Go(size=args.size)
    print(f"Go {args.size}x{args.size}, random playouts from the empty board")
    for name, run in (
        ("Python rules", python_playouts),
        ("compiled rules", compiled_playouts),
        ("compiled policy", compiled_policy_playouts),
    ):
        games, plies, seconds = run(game, args.seconds)
        print(f"{name:>22}: {games / seconds:10,.0f} playouts/s, {plies / games:.0f} plies"
              f" a playout, {plies / seconds:12,.0f} moves/s")  # fmt: skip
    for playouts in ("random", "game"):  # compiled before any clock starts
        CompiledMCTS(game, iterations=10, seed=1, playouts=playouts).search(game.initial_state())
    for name, search in (
        ("Python MCTS", MCTS(game, time=args.seconds, seed=1)),
        ("compiled MCTS, random", CompiledMCTS(game, time=args.seconds, seed=1, playouts="random")),
        ("compiled MCTS, policy", CompiledMCTS(game, time=args.seconds, seed=1)),
        ("... and RAVE", CompiledMCTS(game, time=args.seconds, seed=1, rave=args.rave)),
    ):
        iterations, seconds = mcts_iterations(search, game)
        print(f"{name:>22}: {iterations / seconds:10,.0f} iterations/s")


if __name__ == "__main__":
    main()
