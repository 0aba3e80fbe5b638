"""A solved matrix game as the command prints it and the page shows it: the table with its row
minima and column maxima, the pure values, the saddle points, the mixed strategies and their
check, in words and as JSON (docs/json.md); every value for the row player, exact numbers
written exactly however long."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction

from zerosum.show.words import number
from zerosum.theory.matrix import PureValues, Solution, exploitability
from zerosum.theory.payoffs import Number, PayoffMatrix


def matrix_report(pure: PureValues, solution: Solution) -> dict:
    """The JSON object of `zerosum matrix --json`, values for the row player.

    The lower and upper values are read off the matrix's cells, so they are exact whenever
    the cells are (the command reads every cell exactly): an int, or a fraction as a string
    ("-1/6"). The value and the strategies come from the linear program: floats; `exact` is
    true when the solution is proven exact, and then `value_exact`, `row_strategy_exact` and
    `column_strategy_exact` give the value and every probability as exact strings (else null).
    """
    exact = solution.exact  # then the entries are exact too, and so are the pure values
    return {
        "bimatrix": False,
        "lower_value": _exact_number(pure.lower_value),
        "upper_value": _exact_number(pure.upper_value),
        "saddle_points": [list(point) for point in pure.saddle_points],
        "value": _float(solution.value),
        "row_strategy": [float(p) for p in solution.row_strategy],
        "column_strategy": [float(q) for q in solution.column_strategy],
        "exact": bool(exact),
        "value_exact": number_text(solution.value) if exact else None,
        "row_strategy_exact": [number_text(p) for p in solution.row_strategy] if exact else None,
        "column_strategy_exact": (
            [number_text(q) for q in solution.column_strategy] if exact else None
        ),
    }


def describe(matrix: PayoffMatrix, pure: PureValues, solution: Solution) -> str:
    """What `zerosum matrix` prints: the table, the pure values, the solution and its check."""
    saddles = first(f"(R{i + 1}, C{j + 1})" for i, j in pure.saddle_points) or "none"
    kind = "exact" if solution.exact else "floating point"
    check = exploitability(matrix, solution.row_strategy, solution.column_strategy)
    return "\n".join(
        [
            "payoff matrix (what the row player wins):",
            _table(matrix, pure.row_minima, pure.column_maxima),
            f"lower value (maxmin): {number_text(pure.lower_value)},"
            f" {_names('row', pure.maxmin_rows)}",
            f"upper value (minmax): {number_text(pure.upper_value)},"
            f" {_names('column', pure.minmax_columns)}",
            f"saddle points: {saddles}",
            f"value: {number_text(solution.value)} ({kind}, for the row player)",
            f"row strategy: {mixture('R', solution.row_strategy)}",
            f"column strategy: {mixture('C', solution.column_strategy)}",
            f"check: a best response gains the row player {number_text(check.row_gap)}"
            f" and the column player {number_text(check.column_gap)}",
        ]
    )


def _exact_number(value: Number) -> int | float | str:
    """An entry of the matrix for JSON, as exact as it is: an int as it is (however large), a
    fraction that is not whole as its text ("-1/6"), a float as a float."""
    if isinstance(value, Fraction) and value.denominator != 1:
        return number_text(value)
    if isinstance(value, (int, Fraction)):
        whole = int(value)
        return whole if whole.bit_length() <= _PRINTABLE_BITS else number_text(whole)
    return number(float(value))


def _float(value: Number) -> float | None:
    """A value as a float for JSON, or None (null) when it is beyond a float's range (an exact
    value always has its exact text beside it)."""
    try:
        return float(value)
    except OverflowError:
        return None


_PRINTABLE_BITS = 14_000
"""Python converts an int of more than 4,300 digits (about 14,284 bits) to text only when told
to: longer ones are converted by the decimal module, which has no such limit."""


def number_text(value: Number) -> str:
    """A number as the user reads it: 3, -1/6, or a float with 10 significant digits; however
    long an exact one is."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return _integer_text(value.numerator)
        return f"{_integer_text(value.numerator)}/{_integer_text(value.denominator)}"
    if isinstance(value, int):
        return _integer_text(value)
    return f"{value:.10g}"


def _integer_text(value: int) -> str:
    if value.bit_length() <= _PRINTABLE_BITS:
        return str(value)
    return str(Decimal(value))  # exact: an integer's Decimal keeps every digit


SHOWN = 20
"""The most saddle points, rows or columns a line names before it says how many more."""


def first(texts: Iterable[str], total: int | None = None) -> str:
    """The first `SHOWN` of `texts` joined by commas, and how many there are in all."""
    shown = list(itertools.islice(texts, SHOWN + 1))
    if len(shown) <= SHOWN:
        return ", ".join(shown)
    if total is None:
        total = SHOWN + 1 + sum(1 for _ in texts)
    return ", ".join(shown[:SHOWN]) + f", ... ({total:,} in all)"


def _names(player: str, indices: Sequence[int]) -> str:
    label = "R" if player == "row" else "C"
    plural = "" if len(indices) == 1 else "s"
    return f"{player}{plural} " + first((f"{label}{k + 1}" for k in indices), len(indices))


def mixture(label: str, strategy: Sequence[Number]) -> str:
    """The strategies played with positive probability, e.g. `R1 3/5, R2 2/5`."""
    return ", ".join(f"{label}{k + 1} {number_text(p)}" for k, p in enumerate(strategy) if p > 0)


def _count(count: int, noun: str) -> str:
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


TABLE_ROWS, TABLE_COLUMNS = 50, 20
"""The largest matrix drawn as a table: a larger one is described by its size."""


def _table(
    matrix: PayoffMatrix, row_minima: Sequence[Number], column_maxima: Sequence[Number]
) -> str:
    """The matrix with a column of row minima and a row of column maxima (its size alone
    when it has more than TABLE_ROWS rows or TABLE_COLUMNS columns)."""
    rows, columns = matrix.shape
    if rows > TABLE_ROWS or columns > TABLE_COLUMNS:
        return (
            f"{_count(rows, 'row')} x {_count(columns, 'column')} (a table is drawn up to"
            f" {TABLE_ROWS} rows and {TABLE_COLUMNS} columns)"
        )
    cells = [[number_text(entry) for entry in row] for row in matrix.rows]
    minima = [number_text(low) for low in row_minima]
    maxima = [number_text(high) for high in column_maxima]
    widths = [  # each column as wide as its longest number: one long cell widens one column
        max(3, len(maxima[j]), *(len(row[j]) for row in cells)) for j in range(columns)
    ]
    rule = max(len("row min"), *map(len, minima))
    labels = [f"R{i + 1}" for i in range(len(cells))] + ["col max"]
    margin = max(map(len, labels))

    def line(texts: Sequence[str]) -> str:
        return " ".join(f"{text:>{width}}" for text, width in zip(texts, widths, strict=True))

    lines = [f"{'':<{margin}} {line([f'C{j + 1}' for j in range(columns)])} | {'row min':>{rule}}"]
    for label, row, low in zip(labels, cells, minima, strict=False):
        lines.append(f"{label:<{margin}} {line(row)} | {low:>{rule}}")
    lines.append(f"{labels[-1]:<{margin}} {line(maxima)}")
    return "\n".join(lines)
