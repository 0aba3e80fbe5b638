"""Impartial games: Grundy sequences against memoised recursion, and what Sprague-Grundy saves.

1. Subtraction game {1, 3, 4} to heap 10^6 and Kayles (octal 0.77) to heap 10^4: zerosum's
   forward loops (and, for the subtraction game, the proved period) against the direct
   memoised recursion a reader writes from the definition (`functools.cache`, called for
   heaps in increasing order so that the recursion stays shallow). Time, and peak memory
   measured by `tracemalloc` in a separate run.
2. r copies of a take-1-2-3 heap of `--heap` tokens, r = 1..10: the positions of the sum, the
   distinct ones once the order of heaps is ignored, the states a memoised search visits (a
   table on sorted heaps), the nodes zerosum's alpha-beta visits without a table (for r up
   to `--alphabeta`: the count grows about a hundredfold per heap), against the Grundy
   numbers computed.

    python benchmarks/impartial.py [--subtraction 1000000] [--kayles 10000] [--heap 12]
                                   [--alphabeta 2] [--only sequences|saving]
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from functools import cache
from math import comb

from zerosum.search import alphabeta
from zerosum.theory.impartial import Grundy, SumGame, mex
from zerosum.theory.octal import OctalGame
from zerosum.theory.subtraction import SubtractionGame


def recursive_subtraction(moves, count):
    @cache
    def g(n):
        return mex(g(n - s) for s in moves if s <= n)

    return [g(n) for n in range(count)]


def recursive_kayles(count):
    @cache
    def g(n):
        reached = set()
        for take in (1, 2):
            left = n - take
            if left >= 0:
                reached.update(g(a) ^ g(left - a) for a in range(left // 2 + 1))
        return mex(reached)

    return [g(n) for n in range(count)]


def measure(task):
    """(seconds, peak MiB, answer): the time of one run, the memory of a second one."""
    start = time.perf_counter()
    answer = task()
    seconds = time.perf_counter() - start
    tracemalloc.start()
    task()
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return seconds, peak, answer


def sequences(subtraction: int, kayles: int) -> None:
    rows = [
        (
            "subtraction {1,3,4}",
            subtraction,
            "zerosum forward loop",
            lambda: SubtractionGame({1, 3, 4}).values(subtraction + 1),
        ),
        (
            "subtraction {1,3,4}",
            subtraction,
            "zerosum proved period",
            lambda: SubtractionGame({1, 3, 4}).sequence(subtraction).values,
        ),
        (
            "subtraction {1,3,4}",
            subtraction,
            "memoised recursion",
            lambda: recursive_subtraction((1, 3, 4), subtraction + 1),
        ),
        (
            "Kayles 0.77",
            kayles,
            "zerosum forward loop",
            lambda: OctalGame("0.77").values(kayles + 1),
        ),
        ("Kayles 0.77", kayles, "memoised recursion", lambda: recursive_kayles(kayles + 1)),
    ]
    print(f"{'game':<22}{'to heap':>10}  {'method':<24}{'seconds':>9}{'peak MiB':>10}  speed-up")
    baseline = {}
    results = []
    for game, upto, method, task in rows:
        seconds, peak, answer = measure(task)
        results.append((game, upto, method, seconds, peak, answer))
        if method == "memoised recursion":
            baseline[game] = (seconds, answer)
    for game, upto, method, seconds, peak, answer in results:
        assert list(answer) == baseline[game][1], f"{method} disagrees on {game}"
        ratio = baseline[game][0] / seconds
        print(f"{game:<22}{upto:>10,}  {method:<24}{seconds:>9.3f}{peak:>10.1f}  x{ratio:.1f}")


def memoised_outcome(heaps: tuple[int, ...], table: dict) -> bool:
    """True when the player to move wins the sum of take-1-2-3 heaps (a table on sorted heaps)."""
    if heaps in table:
        return table[heaps]
    wins = False
    for i, size in enumerate(heaps):
        for take in (1, 2, 3):
            if take <= size:
                after = tuple(sorted((*heaps[:i], size - take, *heaps[i + 1 :])))
                if not memoised_outcome(after, table):
                    wins = True
                    break
        if wins:
            break
    table[heaps] = wins
    return wins


def saving(heap: int, alphabeta_upto: int) -> None:
    game = SubtractionGame({1, 2, 3})
    print(f"\nr copies of a take-1-2-3 heap of {heap}:")
    print(
        f"{'r':>3}{'positions':>22}{'unordered':>12}{'memo search':>13}{'alpha-beta':>14}"
        f"{'Grundy':>8}  P?"
    )
    for r in range(1, 11):
        start = (heap,) * r
        table: dict = {}
        wins = memoised_outcome(start, table)
        nodes = "-"
        if r <= alphabeta_upto:
            result = alphabeta(SumGame(game, start), (start, 0))
            nodes = f"{result.stats.nodes:,}"
            assert (result.value > 0) == wins
        grundy = Grundy(game)
        value = grundy.sum_value(start)
        assert (value != 0) == wins
        print(
            f"{r:>3}{(heap + 1) ** r:>22,}{comb(heap + r, r):>12,}{len(table):>13,}"
            f"{nodes:>14}{len(grundy):>8}  {'N' if wins else 'P'}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subtraction", type=int, default=10**6)
    parser.add_argument("--kayles", type=int, default=10**4)
    parser.add_argument("--heap", type=int, default=12)
    parser.add_argument("--alphabeta", type=int, default=2, help="largest r for alpha-beta")
    parser.add_argument("--only", choices=("sequences", "saving"))
    args = parser.parse_args()
    sys.setrecursionlimit(10_000)
    if args.only != "saving":
        sequences(args.subtraction, args.kayles)
    if args.only != "sequences":
        saving(args.heap, args.alphabeta)


if __name__ == "__main__":
    main()
