"""Bimatrix games: every equilibrium, zerosum's exact enumerations beside nashpy's floats.

Run by hand (needs the bench-nashpy extra: pip install -e '.[bench-nashpy]'):

    python benchmarks/bimatrix_nashpy.py                       # sizes 2..10, 3 games a size
    python benchmarks/bimatrix_nashpy.py --sizes 4 6 --games 10

Every size n draws `--games` random n x n games, A and B with integer entries in
[-`--high`, `--high`] (seeded), keeping only nondegenerate ones (zerosum's vertex enumeration
says which; a degenerate draw is replaced and counted). On the same games, in the same run,
it times support enumeration, vertex enumeration and Lemke–Howson from every label, zerosum's
(exact, in fractions, each equilibrium checked) and nashpy's (floats). It checks that zerosum's
two enumerations give the same fractions and that every equilibrium nashpy gives is one of them
(within 1e-6), and counts the games where each of nashpy's enumerations gives every one (its
float tests of best responses may drop an equilibrium whose payoffs tie only up to rounding);
Lemke–Howson from each label must end at the same equilibrium, or nashpy's fail (counted): end
at NaN, or not end within `LEMKE_HOWSON_SECONDS` (its float pivots may cycle).
Prints a Markdown table of the median times a size and the ratio nashpy / zerosum (above 1:
zerosum is faster).
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import time
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import nashpy
import numpy as np

from zerosum.theory.bimatrix import lemke_howson, support_enumeration, vertex_enumeration
from zerosum.theory.payoffs import bimatrix

TOLERANCE = 1e-6

Pairs = list[tuple[np.ndarray, np.ndarray]]


def timed(function: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def as_floats(equilibria: Iterable[Any]) -> Pairs:
    return [
        (np.array(e.row_strategy, dtype=float), np.array(e.column_strategy, dtype=float))
        for e in equilibria
    ]


def same(ours: Pairs, theirs: Pairs) -> bool:
    """Whether the two lists hold the same equilibria, each once, within TOLERANCE."""
    if len(ours) != len(theirs):
        return False
    return all(
        any(
            np.allclose(x, u, atol=TOLERANCE) and np.allclose(y, v, atol=TOLERANCE) for u, v in ours
        )
        for x, y in theirs
    )


def among(pair: tuple[np.ndarray, np.ndarray], ours: Pairs) -> bool:
    x, y = pair
    return any(
        np.allclose(x, u, atol=TOLERANCE) and np.allclose(y, v, atol=TOLERANCE) for u, v in ours
    )


def draw_games(size: int, count: int, high: int, rng: random.Random) -> tuple[list, int]:
    """`count` nondegenerate games of `size` x `size`, and how many degenerate draws were
    put back."""
    games, degenerate = [], 0
    while len(games) < count:
        a = [[rng.randint(-high, high) for _ in range(size)] for _ in range(size)]
        b = [[rng.randint(-high, high) for _ in range(size)] for _ in range(size)]
        if vertex_enumeration(bimatrix(a, b)).degenerate:
            degenerate += 1
            continue
        games.append((a, b))
    return games, degenerate


LEMKE_HOWSON_SECONDS = 10
"""How long one of nashpy's Lemke–Howson runs may take: in floats its pivots may cycle, and it
has no bound of its own. A run stopped is counted as one that failed (a NaN answer)."""


class _Stopped(Exception):
    pass


def nashpy_lemke_howson(peer: nashpy.Game, label: int) -> tuple[np.ndarray, np.ndarray]:
    """nashpy's Lemke–Howson from `label`, or NaN strategies when it has not ended within
    `LEMKE_HOWSON_SECONDS` (a run of zerosum's takes milliseconds on these games)."""

    def stop(*_: Any) -> None:
        raise _Stopped

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, LEMKE_HOWSON_SECONDS)
    try:
        return peer.lemke_howson(initial_dropped_label=label)
    except _Stopped:
        rows, columns = peer.payoff_matrices[0].shape
        return np.full(rows, np.nan), np.full(columns, np.nan)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def methods(a: list[list[int]], b: list[list[int]]) -> dict[str, Callable[[], Any]]:
    """Each method to time on the game (A, B), by name: zerosum's and nashpy's."""
    game = bimatrix(a, b)
    peer = nashpy.Game(np.array(a), np.array(b))
    labels = range(sum(game.shape))
    return {
        "ours support": lambda: support_enumeration(game).equilibria,
        "ours vertex": lambda: vertex_enumeration(game).equilibria,
        "ours lemke-howson": lambda: [lemke_howson(game, k) for k in labels],
        "nashpy support": lambda: list(peer.support_enumeration()),
        "nashpy vertex": lambda: list(peer.vertex_enumeration()),
        "nashpy lemke-howson": lambda: [nashpy_lemke_howson(peer, k) for k in labels],
    }


def measure(games: list) -> dict[str, Any]:
    times: dict[str, list[float]] = {}
    counts = []
    agree: dict[str, int] = {}  # the games where a nashpy enumeration gives every one
    failed = labels = 0  # nashpy's Lemke-Howson runs that end in NaN, of all runs
    for a, b in games:
        found = {}
        for name, run in methods(a, b).items():
            seconds, found[name] = timed(run)
            times.setdefault(name, []).append(seconds)
        assert found["ours support"] == found["ours vertex"], "zerosum's enumerations differ"
        ours = as_floats(found["ours vertex"])
        for name in ("nashpy support", "nashpy vertex"):
            theirs = list(found[name])
            for pair in theirs:  # every equilibrium nashpy gives is one of zerosum's
                assert among(pair, ours), f"{name} gives one zerosum does not on {a}, {b}"
            agree[name] = agree.get(name, 0) + same(ours, theirs)
        # Lemke-Howson from each label: the same end, or nashpy's is no equilibrium (NaN).
        for mine, (x, y) in zip(
            found["ours lemke-howson"], found["nashpy lemke-howson"], strict=True
        ):
            if np.isnan(x).any() or np.isnan(y).any():
                failed += 1
            else:
                assert among((x, y), as_floats([mine])), f"Lemke-Howson differs on {a}, {b}"
        labels += len(found["ours lemke-howson"])
        counts.append(len(ours))
    medians = {name: statistics.median(t) for name, t in times.items()}
    return {"equilibria": counts, "agree": agree, "failed": failed, "labels": labels, **medians}


def seconds(value: float) -> str:
    return f"{value * 1000:.3g} ms" if value < 1 else f"{value:.3g} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2, 4, 6, 8, 10])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--high", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=40)
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # nashpy warns of an even count on degenerate games only
    rng = random.Random(args.seed)
    print(
        "| size | equilibria | zerosum support | nashpy / zerosum | zerosum vertex"
        " | nashpy / zerosum | zerosum Lemke–Howson, every label | nashpy / zerosum |"
        " nashpy's support enumeration gives all | its vertex enumeration gives all |"
        " its Lemke–Howson fails (NaN, or no end in 10 s) | degenerate draws put back |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in args.sizes:
        games, degenerate = draw_games(size, args.games, args.high, rng)
        m = measure(games)
        cells = [f"{size}x{size}", ", ".join(map(str, m["equilibria"]))]
        for method in ("support", "vertex", "lemke-howson"):
            ours, theirs = m[f"ours {method}"], m[f"nashpy {method}"]
            cells += [seconds(ours), f"{theirs / ours:.2g}"]
        for name in ("nashpy support", "nashpy vertex"):
            cells.append(f"{m['agree'].get(name, 0)} of {len(games)}")
        cells.append(f"{m['failed']} of {m['labels']} runs")
        cells.append(str(degenerate))
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
