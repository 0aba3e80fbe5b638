"""Matrix games: time to the value and both optimal strategies, zerosum against nashpy.

Run by hand (needs the bench-nashpy extra: pip install -e '.[bench-nashpy]'):

    python benchmarks/matrix_games.py                  # sizes 4..500, support enumeration to 8
    python benchmarks/matrix_games.py --sizes 10 50 --games 5 --support-enumeration-max 10

Every size draws `--games` random matrices with integer entries in [-100, 100] (seeded) and
times (best of `--repeat` runs up to 100x100, one run above), on the same matrices in the same
run: zerosum's floating-point solve (one HiGHS call, both strategies), zerosum's exact solve
(fractions, verified) up to `--exact-max`, nashpy's `Game.linear_program()` (two HiGHS calls,
one per player) and nashpy's support enumeration (the first equilibrium it yields) up to
`--support-enumeration-max`. Values must agree within 1e-9; the exact value is compared with
the floats the same way. Prints a Markdown table of the median over the games and the ratio
peer / zerosum float (above 1: zerosum is faster).
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings
from collections.abc import Callable

import nashpy
import numpy as np

from zerosum.theory.matrix import solve

TOLERANCE = 1e-9


def timed(
    function: Callable[[np.ndarray], float | None], payoffs: np.ndarray, repeat: int = 1
) -> tuple[float, float | None]:
    """The fewest seconds `function(payoffs)` took in `repeat` runs, and the value it returned."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        value = function(payoffs)
        best = min(best, time.perf_counter() - start)
    return best, value


def ours_float(payoffs: np.ndarray) -> float:
    return float(solve(payoffs, exact=False).value)


def ours_exact(payoffs: np.ndarray) -> float:
    return float(solve(payoffs, exact=True).value)


def nashpy_linear_program(payoffs: np.ndarray) -> float:
    row, column = nashpy.Game(payoffs).linear_program()
    return float(row @ payoffs @ column)


def nashpy_support_enumeration(payoffs: np.ndarray) -> float | None:
    """The value at nashpy's first equilibrium; None when it yields none (its float == test)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pair = next(iter(nashpy.Game(payoffs).support_enumeration()), None)
    return None if pair is None else float(pair[0] @ payoffs @ pair[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[4, 6, 8, 10, 20, 50, 100, 200, 500]
    )
    parser.add_argument("--games", type=int, default=3, help="random matrices per size")
    parser.add_argument("--repeat", type=int, default=5, help="best of N up to 100x100")
    parser.add_argument("--exact-max", type=int, default=200)
    parser.add_argument("--support-enumeration-max", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    warm_up = rng.integers(-100, 101, size=(5, 5)).astype(float)
    ours_float(warm_up), ours_exact(warm_up), nashpy_linear_program(warm_up)  # imports, caches
    print(
        "| size | zerosum float | zerosum exact | nashpy LP | LP / zerosum "
        "| nashpy support enum. | s.e. / zerosum | s.e. found | max value diff |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for size in args.sizes:
        times: dict[str, list[float]] = {"ours": [], "exact": [], "lp": [], "se": []}
        found, worst = 0, 0.0
        for _ in range(args.games):
            payoffs = rng.integers(-100, 101, size=(size, size)).astype(float)
            repeat = args.repeat if size <= 100 else 1
            elapsed, value = timed(ours_float, payoffs, repeat)
            times["ours"].append(elapsed)
            elapsed, peer = timed(nashpy_linear_program, payoffs, repeat)
            times["lp"].append(elapsed)
            worst = max(worst, abs(peer - value))
            if size <= args.exact_max:
                elapsed, exact = timed(ours_exact, payoffs, repeat)
                times["exact"].append(elapsed)
                worst = max(worst, abs(exact - value))
            if size <= args.support_enumeration_max:
                elapsed, enumerated = timed(nashpy_support_enumeration, payoffs)
                times["se"].append(elapsed)
                if enumerated is not None:
                    found += 1
                    worst = max(worst, abs(enumerated - value))
            assert worst <= TOLERANCE, f"values differ by {worst} at size {size}"
        ours = statistics.median(times["ours"])
        cells = [f"{size}x{size}", _ms(ours), _ms_of(times["exact"])]
        lp = statistics.median(times["lp"])
        cells += [_ms(lp), f"{lp / ours:.1f}"]
        if times["se"]:
            se = statistics.median(times["se"])
            cells += [_ms(se), f"{se / ours:.0f}", f"{found}/{args.games}"]
        else:
            cells += ["not run", "", ""]
        cells.append(f"{worst:.1e}")
        print("| " + " | ".join(cells) + " |", flush=True)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _ms_of(samples: list[float]) -> str:
    return _ms(statistics.median(samples)) if samples else "not run"


if __name__ == "__main__":
    main()
