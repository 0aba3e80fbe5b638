"""`zerosum matrix "3 -1; -2 4"`: solve a two-person zero-sum matrix game, exactly when it can."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from zerosum.cli.common import number, print_json

if TYPE_CHECKING:  # the solvers import numpy and SciPy: only `zerosum matrix` should wait for them
    from zerosum.theory.matrix import PureValues, Solution
    from zerosum.theory.payoffs import Number, PayoffMatrix


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "matrix",
        help="solve a zero-sum matrix game: saddle points, mixed strategies, the value",
        description=(
            "Solve the zero-sum game whose payoff matrix (the row player's wins) is given: lower"
            " and upper value, saddle points, optimal mixed strategies of both players and the"
            " value, exact in fractions when the entries are rational, and a check of the answer."
        ),
    )
    parser.add_argument(
        "matrix",
        nargs="?",
        help='the matrix: rows separated by ";", cells by spaces or commas, e.g. "3 -1; -2 4"',
    )
    parser.add_argument("--csv", metavar="FILE", help="read the matrix from a CSV file instead")
    parser.add_argument(
        "--exact",
        action="store_true",
        help="exact fractions whatever the size (by default up to 100 strategies a side)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from zerosum.theory.matrix import pure_values, solve

    matrix = _read(args)
    pure = pure_values(matrix)
    solution = solve(matrix, exact=True if args.exact else None)
    if args.json:
        print_json(matrix_report(pure, solution))
    else:
        print(describe(matrix, pure, solution))
    return 0


def matrix_report(pure: PureValues, solution: Solution) -> dict:
    """The JSON object of `zerosum matrix --json`, values for the row player.

    The lower and upper values are read off the matrix's cells, so they are exact whenever
    the cells are (the command reads every cell exactly): an int, or a fraction as a string
    ("-1/6"). The value and the strategies come from the linear program: floats, and under
    `exact`, when the solution is proven exact, every value and probability as an exact string.
    """
    exact = None
    if solution.exact:  # then the entries are exact too, and so are the pure values
        exact = {
            "lower_value": _text(pure.lower_value),
            "upper_value": _text(pure.upper_value),
            "value": _text(solution.value),
            "row_strategy": [_text(p) for p in solution.row_strategy],
            "column_strategy": [_text(q) for q in solution.column_strategy],
        }
    return {
        "lower_value": _exact_number(pure.lower_value),
        "upper_value": _exact_number(pure.upper_value),
        "saddle_points": [list(point) for point in pure.saddle_points],
        "value": float(solution.value),
        "row_strategy": [float(p) for p in solution.row_strategy],
        "column_strategy": [float(q) for q in solution.column_strategy],
        "exact": exact,
    }


def describe(matrix: PayoffMatrix, pure: PureValues, solution: Solution) -> str:
    """What `zerosum matrix` prints: the table, the pure values, the solution and its check."""
    from zerosum.theory.matrix import exploitability

    saddles = ", ".join(f"(R{i + 1}, C{j + 1})" for i, j in pure.saddle_points) or "none"
    kind = "exact" if solution.exact else "floating point"
    check = exploitability(matrix, solution.row_strategy, solution.column_strategy)
    return "\n".join(
        [
            "payoff matrix (what the row player wins):",
            _table(matrix, pure.row_minima, pure.column_maxima),
            f"lower value (maxmin): {_text(pure.lower_value)}, {_names('row', pure.maxmin_rows)}",
            f"upper value (minmax): {_text(pure.upper_value)},"
            f" {_names('column', pure.minmax_columns)}",
            f"saddle points: {saddles}",
            f"value: {_text(solution.value)} ({kind}, for the row player)",
            f"row strategy: {_mixture('R', solution.row_strategy)}",
            f"column strategy: {_mixture('C', solution.column_strategy)}",
            f"check: a best response gains the row player {_text(check.row_gap)}"
            f" and the column player {_text(check.column_gap)}",
        ]
    )


def _read(args: argparse.Namespace) -> PayoffMatrix:
    from zerosum.theory.payoffs import parse_matrix, read_csv

    if (args.matrix is None) == (args.csv is None):
        raise ValueError('give the matrix either as text ("3 -1; -2 4") or with --csv FILE')
    return read_csv(args.csv) if args.csv is not None else parse_matrix(args.matrix)


def _exact_number(value: Number) -> int | float | str:
    """An entry of the matrix for JSON, as exact as it is: an int as it is (however large), a
    fraction that is not whole as its text ("-1/6"), a float as a float."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else str(value)
    return value if isinstance(value, int) else number(float(value))


def _text(value: Number) -> str:
    """A number as the user reads it: 3, -1/6, or a float with 10 significant digits."""
    if isinstance(value, (int, Fraction)):
        return str(value)
    return f"{value:.10g}"


def _names(player: str, indices: Sequence[int]) -> str:
    label = "R" if player == "row" else "C"
    plural = "" if len(indices) == 1 else "s"
    return f"{player}{plural} " + ", ".join(f"{label}{k + 1}" for k in indices)


def _mixture(label: str, strategy: Sequence[Number]) -> str:
    """The strategies played with positive probability, e.g. `R1 3/5, R2 2/5`."""
    return ", ".join(f"{label}{k + 1} {_text(p)}" for k, p in enumerate(strategy) if p > 0)


def _table(
    matrix: PayoffMatrix, row_minima: Sequence[Number], column_maxima: Sequence[Number]
) -> str:
    """The matrix with a column of row minima and a row of column maxima."""
    cells = [[_text(entry) for entry in row] for row in matrix.rows]
    minima = [_text(low) for low in row_minima]
    maxima = [_text(high) for high in column_maxima]
    width = max(len(text) for text in [*(c for row in cells for c in row), *maxima, "C00"])
    rule = max(len("row min"), *map(len, minima))
    labels = [f"R{i + 1}" for i in range(len(cells))] + ["col max"]
    margin = max(map(len, labels))
    header = " ".join(f"{f'C{j + 1}':>{width}}" for j in range(len(maxima)))
    lines = [f"{'':<{margin}} {header} | {'row min':>{rule}}"]
    for label, row, low in zip(labels, cells, minima, strict=False):
        lines.append(f"{label:<{margin}} {' '.join(f'{c:>{width}}' for c in row)} | {low:>{rule}}")
    lines.append(f"{labels[-1]:<{margin}} {' '.join(f'{c:>{width}}' for c in maxima)}")
    return "\n".join(lines)
