"""The row player's payoff matrix of a two-person zero-sum game, read from Python, text or CSV.

Entry `[i][j]` is what the row player wins (and the column player loses) when the row player
plays row i and the column player column j. Integer and rational entries are kept exact (an
`int`, or a `Fraction` when the denominator is not 1) so that the solvers can answer in
fractions; any other finite real becomes a `float`. Text cells are integers, decimals or
fractions such as `-1/6`, all read exactly.
"""

from __future__ import annotations

import csv
import math
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from numbers import Integral, Rational, Real
from typing import Any

import numpy as np

Number = int | Fraction | float


@dataclass(frozen=True)
class PayoffMatrix:
    """A validated payoff matrix: `rows[i][j]` is the row player's win at row i, column j.

    `exact` is True when every entry is an `int` or a `Fraction`; `array` holds the same
    entries as floats for the numerical solvers.
    """

    rows: tuple[tuple[Number, ...], ...]
    array: np.ndarray = field(repr=False, compare=False)

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.rows), len(self.rows[0])

    @property
    def columns(self) -> tuple[tuple[Number, ...], ...]:
        return tuple(zip(*self.rows, strict=True))

    @property
    def exact(self) -> bool:
        return all(not isinstance(entry, float) for row in self.rows for entry in row)


MatrixLike = PayoffMatrix | np.ndarray | Sequence[Sequence[Any]]


def payoff_matrix(data: MatrixLike) -> PayoffMatrix:
    """`data` (nested sequences, a numpy array or a PayoffMatrix) validated; ValueError if not.

    A matrix must be non-empty and rectangular, with finite real entries (strings are read like
    text cells). Whole floats become ints, so a float array of integers is solved exactly.
    """
    if isinstance(data, PayoffMatrix):
        return data
    if isinstance(data, np.ndarray):
        return _from_array(data)
    if isinstance(data, (str, bytes)) or not isinstance(data, Iterable):
        raise ValueError("a payoff matrix is a list of rows, each a list of numbers")
    rows = []
    for i, row in enumerate(data, 1):
        if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
            raise ValueError(f"row {i} is not a list of numbers")
        rows.append(tuple(_entry(cell, i, j) for j, cell in enumerate(row, 1)))
    return _checked(rows)


def parse_matrix(text: str) -> PayoffMatrix:
    """The matrix written in `text`: rows separated by `;` or new lines, cells by spaces or commas.

    `"3 -1; -2 4"` is [[3, -1], [-2, 4]]; a cell may be an integer, a decimal or a fraction.
    """
    lines = [line for line in re.split(r"[;\n]", text) if line.strip()]
    return _checked(
        [
            tuple(_cell(cell, i, j) for j, cell in enumerate(re.split(r"[\s,]+", line.strip()), 1))
            for i, line in enumerate(lines, 1)
        ]
    )


def read_csv(path: str | os.PathLike[str]) -> PayoffMatrix:
    """The matrix in the CSV file at `path`, one row a line, no header; ValueError if unusable."""
    try:
        with open(path, newline="", encoding="utf-8") as file:
            lines = [line for line in csv.reader(file) if any(cell.strip() for cell in line)]
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise ValueError(f"cannot read {os.fspath(path)!r}: {reason}") from None
    return _checked(
        [
            tuple(_cell(cell, i, j) for j, cell in enumerate(line, 1))
            for i, line in enumerate(lines, 1)
        ]
    )


def _cell(text: str, i: int, j: int) -> Number:
    """A text cell as an exact int or Fraction."""
    text = text.strip()
    try:
        return _exact(Fraction(text))
    except (ValueError, ZeroDivisionError):
        pass
    try:
        float(text)
    except ValueError:
        raise ValueError(f"cell {text!r} at row {i}, column {j} is not a number") from None
    raise ValueError(f"cell {text!r} at row {i}, column {j} is not a finite number")


def _entry(value: Any, i: int, j: int) -> Number:
    """A Python or numpy number as an int, a Fraction or a finite float."""
    if isinstance(value, str):
        return _cell(value, i, j)
    if isinstance(value, (Integral, np.integer)):
        return int(value)
    if isinstance(value, Rational) or (isinstance(value, Decimal) and value.is_finite()):
        return _exact(Fraction(value))
    if isinstance(value, (Real, Decimal, np.floating)):
        number = float(value)
        if not math.isfinite(number):
            raise ValueError(f"entry {value!r} at row {i}, column {j} is not a finite number")
        return int(number) if number.is_integer() else number
    raise ValueError(f"entry {value!r} at row {i}, column {j} is not a number")


def _exact(value: Fraction) -> int | Fraction:
    return value.numerator if value.denominator == 1 else value


def _from_array(array: np.ndarray) -> PayoffMatrix:
    if array.ndim != 2:
        raise ValueError(f"a payoff matrix has 2 dimensions, this array has {array.ndim}")
    if array.dtype.kind in "iu":
        return _checked(array.tolist())
    if array.dtype.kind != "f":
        return payoff_matrix(array.tolist())
    if array.size and not np.isfinite(array).all():
        i, j = np.argwhere(~np.isfinite(array))[0]
        raise ValueError(
            f"entry {array[i, j]} at row {i + 1}, column {j + 1} is not a finite number"
        )
    if array.size and (array == np.round(array)).all() and np.abs(array).max() < 2**53:
        return _checked(array.astype(np.int64).tolist())
    return _checked(array.tolist())


def _checked(rows: Sequence[Sequence[Number]]) -> PayoffMatrix:
    """`rows` as a PayoffMatrix once known to be non-empty and rectangular."""
    if not rows or not rows[0]:
        raise ValueError("the payoff matrix is empty")
    width = len(rows[0])
    for i, row in enumerate(rows, 1):
        if len(row) != width:
            raise ValueError(
                f"ragged matrix: row {i} has {_cells(len(row))}, row 1 has {_cells(width)}"
            )
    entries = tuple(map(tuple, rows))
    try:
        return PayoffMatrix(entries, np.array(entries, dtype=float))
    except OverflowError:
        raise ValueError("an entry is too large for floating point (beyond 1.8e308)") from None


def _cells(count: int) -> str:
    return f"{count} cell" if count == 1 else f"{count} cells"
