"""Cost models against measured costs: every limit whose check rests on an estimate.

Run by hand:

    python benchmarks/cost_models.py                       # every model, the sweeps below
    python benchmarks/cost_models.py --models matrix pig   # some of them
    python benchmarks/cost_models.py --record tests/data/cost_models.json

For each model, a sweep of sizes: the estimate the limit checks, the cost measured here (the
best of `--repeat` runs for the quick ones), and estimate / measured, which the models keep
within 3x (`tests/test_cost_models.py` holds them to the record `--record` writes). The limits
whose checks rest on exact counts (the heaps of Nim, the moves of a pn construction, a
sequence form's sequences, a tree's nodes) need no model; a table's positions are checked on
an upper bound the game gives, compared here with the count its build finds.

- `matrix`: `zerosum matrix --exact` (`theory.rational.EXACT_SECONDS`): square matrices of
  random integers of 1, 10 and 30 digits, and Kuhn poker's reduced normal form (27 x 64,
  sixths), solved from the floating-point supports (`supports_seconds`), and by the exact
  simplex method alone (`simplex_seconds`, the fallback, checked before it runs).
- `grundy`: `zerosum grundy` (`theory.heaps.SECONDS`): the values of Grundy's game, of two
  octal games and of a subtraction game from none (each game's `seconds(count)`), and the
  period search over values that have none (`search_seconds`).
- `pig`: `zerosum solve pig --target` (`solve.pig.TARGET`, whose message says the time).
- `table`: `zerosum tablebase build` (`solve.retrograde.POSITIONS`): the bound a game gives on
  its positions (`reachable_at_most`) and the count a build finds.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from array import array
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

from zerosum.games.connect4 import ConnectFour
from zerosum.games.nim import Nim
from zerosum.solve import pig, solve
from zerosum.solve.retrograde import reachable_at_most
from zerosum.theory import heaps, rational
from zerosum.theory.matrix import exact_estimate
from zerosum.theory.matrix import solve as solve_matrix
from zerosum.theory.octal import GrundysGame, OctalGame
from zerosum.theory.subtraction import SubtractionGame

MODELS = ("matrix", "grundy", "pig", "table")


def timed(function: Callable[[], Any], repeat: int = 1) -> float:
    """The fewest seconds `function()` took in `repeat` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def kuhn_normal_form() -> list[list[Fraction]]:
    """Kuhn poker's reduced normal form, the first player's expected winnings: 27 rows (for each
    card, bet, check then fold, or check then call) by 64 columns (for each card, call a bet or
    not, bet after a check or not), over the six deals."""

    def paid(mine: int, theirs: int, plan: int, reply: tuple[int, int]) -> int:
        win = 1 if mine > theirs else -1
        call, bet = reply
        if plan == 0:  # bet
            return 2 * win if call else 1
        if not bet:  # check, check
            return win
        return -1 if plan == 1 else 2 * win  # check, bet, then fold or call

    rows = list(product(range(3), repeat=3))
    columns = list(product(product((0, 1), repeat=2), repeat=3))
    deals = [(a, b) for a in range(3) for b in range(3) if a != b]
    return [
        [sum(Fraction(paid(a, b, row[a], column[b]), 6) for a, b in deals) for column in columns]
        for row in rows
    ]


def random_matrix(size: int, digits: int, generator: random.Random) -> list[list[int]]:
    largest = 10**digits - 1
    return [[generator.randint(-largest, largest) for _ in range(size)] for _ in range(size)]


def matrix_rows(sizes: list[int], simplex_sizes: list[int], repeat: int) -> list[dict]:
    generator = random.Random(2026)
    rows = []
    cases = [("kuhn 27x64", kuhn_normal_form())]
    cases += [
        (f"{size}x{size}, {digits} digits", random_matrix(size, digits, generator))
        for size in sizes
        for digits in (1, 10, 30)
    ]
    for name, matrix in cases:
        strategies = max(len(matrix), len(matrix[0]))
        _, digits = exact_estimate(matrix)
        measured = timed(lambda m=matrix: solve_matrix(m, exact=True, no_limit=True), repeat)
        estimate = rational.supports_seconds(strategies, digits)
        rows.append(_row("matrix", name, {"strategies": strategies, "digits": digits},
                         estimate, measured))  # fmt: skip
    for size in simplex_sizes:
        for digits in (1, 10, 30):
            matrix = random_matrix(size, digits, generator)
            _, counted = exact_estimate(matrix)
            measured = timed(lambda m=matrix: rational.solve(m, None))
            estimate = rational.simplex_seconds(size, counted)
            size_of = {"strategies": size, "digits": counted}
            name = f"{size}x{size}, {digits} digits"
            rows.append(_row("simplex", name, size_of, estimate, measured))
    return rows


def grundy_rows(scale: int, repeat: int) -> list[dict]:
    games: list[tuple[str, Callable[[], Any], list[int]]] = [
        ("grundys-game", GrundysGame, [2_000 * scale, 4_000 * scale, 8_000 * scale]),
        ("octal 0.77", lambda: OctalGame("0.77"), [2_000 * scale, 4_000 * scale, 8_000 * scale]),
        ("octal 0.137", lambda: OctalGame("0.137"), [2_000 * scale, 8_000 * scale]),
        ("subtraction 1,2,5", lambda: SubtractionGame([1, 2, 5]), [200_000 * scale]),
        ("subtraction 1..60", lambda: SubtractionGame(range(1, 61)), [50_000 * scale]),
    ]
    rows = []
    for name, make, counts in games:
        for count in counts:
            measured = timed(lambda make=make, count=count: make().values(count), repeat)
            estimate = make().seconds(count)
            rows.append(_row("grundy", name, {"game": name, "count": count}, estimate, measured))
    generator = random.Random(2026)
    for count in (4_000 * scale, 8_000 * scale, 16_000 * scale):
        values = array("H", (generator.randrange(1 << 16) for _ in range(count)))
        # no period is ever proved: the search tries every period up to half the values
        measured = timed(lambda v=values: heaps.find_period(v, lambda pre, p: 1 << 62), repeat)
        rows.append(_row("period", "period search", {"count": count},
                         heaps.search_seconds(count), measured))  # fmt: skip
    return rows


def pig_rows(targets: list[int]) -> list[dict]:
    rows = []
    for target in targets:
        measured = timed(lambda target=target: pig.solve_pig(target))
        estimate = pig.positions(target) * pig.SECONDS_A_POSITION
        rows.append(_row("pig", f"target {target}", {"target": target}, estimate, measured))
    return rows


def table_rows() -> list[dict]:
    games = [("connect4 4x4", ConnectFour(4, 4)), ("connect4 5x4", ConnectFour(5, 4)),
             ("connect4 4x4, three in a row", ConnectFour(4, 4, 3)), ("nim 3,4,5", Nim([3, 4, 5])),
             ("nim 10,10,10", Nim([10, 10, 10]))]  # fmt: skip
    rows = []
    for name, game in games:
        bound = reachable_at_most(game)
        assert bound is not None
        counted = len(solve(game, workers=1))
        rows.append(_row("table", name, {"game": name}, bound[0], counted))
    return rows


def _row(model: str, name: str, size: dict, estimate: float, measured: float) -> dict:
    return {"model": model, "case": name, "size": size, "estimate": estimate,
            "measured": measured, "ratio": estimate / measured}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", nargs="+", choices=MODELS, default=list(MODELS))
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 100, 150, 200])
    parser.add_argument("--simplex-sizes", type=int, nargs="+", default=[25, 50, 75])
    parser.add_argument("--grundy-scale", type=int, default=1)
    parser.add_argument("--targets", type=int, nargs="+", default=[25, 50, 100, 150])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--record", type=Path, help="write the rows as JSON to this file")
    args = parser.parse_args()
    rows: list[dict] = []
    for model in args.models:
        if model == "matrix":
            found = matrix_rows(args.sizes, args.simplex_sizes, args.repeat)
        elif model == "grundy":
            found = grundy_rows(args.grundy_scale, args.repeat)
        elif model == "pig":
            found = pig_rows(args.targets)
        else:
            found = table_rows()
        for row in found:
            print(f"| {row['model']} | {row['case']} | {row['estimate']:.4g} |"
                  f" {row['measured']:.4g} | {row['ratio']:.2f} |", flush=True)  # fmt: skip
        rows += found
    if args.record:
        args.record.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
