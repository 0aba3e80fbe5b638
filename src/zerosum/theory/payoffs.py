"""The row player's payoff matrix of a two-person zero-sum game, read from Python, text or CSV.

Entry `[i][j]` is what the row player wins (and the column player loses) when the row player
plays row i and the column player column j. Integer and rational entries are kept exact (an
`int`, or a `Fraction` when the denominator is not 1) so that the solvers can answer in
fractions; any other finite real becomes a `float`.

A text cell is an integer (`-3`), a decimal with or without an exponent (`0.25`, `1e-400`) or a
fraction of integers (`-3/7`), in ASCII digits, with `+`, `-` or the minus sign `−`; all are
read exactly, however large or small, up to `CELL_DIGITS` digits written out in full (`1e400`
is 401 digits). Cells are separated by commas (spaces too in text); an empty cell between two
commas is refused, never skipped. Text and files are read piece by piece and refused as soon as
they pass a limit (`MATRIX_CELLS`, `CELL_DIGITS`, `FILE_BYTES`), before memory is spent on them.
"""

from __future__ import annotations

import codecs
import math
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from numbers import Integral, Rational, Real
from typing import Any

import numpy as np

from zerosum.limits import NO_LIMIT, Limit, clipped, clipped_path

MATRIX_CELLS = Limit(
    "a payoff matrix's cells",
    1_000_000,
    "the linear program of 1,000 x 1,000 cells takes about 40 s here and the time grows faster"
    " than the cells; each cell read takes about 100 bytes",
)
CELL_DIGITS = Limit(
    "the digits of a cell",
    1_000,
    "numerator and denominator written out in full, each; 1e400 is 401 digits",
    liftable=False,
)
FILE_BYTES = Limit("a matrix file's bytes", 64 * 2**20, "a file of the largest matrix is smaller")

Number = int | Fraction | float


@dataclass(frozen=True)
class PayoffMatrix:
    """A validated payoff matrix: `rows[i][j]` is the row player's win at row i, column j.

    `exact` is True when every entry is an `int` or a `Fraction`; `array` holds the same
    entries as floats for the numerical solvers (a ValueError when one is too large for a
    float: exact entries have no such bound).
    """

    rows: tuple[tuple[Number, ...], ...]

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.rows), len(self.rows[0])

    @property
    def columns(self) -> tuple[tuple[Number, ...], ...]:
        return tuple(zip(*self.rows, strict=True))

    @property
    def exact(self) -> bool:
        return all(not isinstance(entry, float) for row in self.rows for entry in row)

    @cached_property
    def array(self) -> np.ndarray:
        try:
            return np.array(self.rows, dtype=float)
        except OverflowError:
            raise ValueError(
                "an entry is too large for floating point (beyond 1.8e308): only the exact"
                " solver takes it"
            ) from None


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


def parse_matrix(text: str, *, no_limit: bool = False) -> PayoffMatrix:
    """The matrix written in `text`: rows separated by `;` or line breaks, cells by commas or
    spaces.

    `"3 -1; -2 4"` is [[3, -1], [-2, 4]]; a cell may be an integer, a decimal or a fraction.
    Blank lines are skipped and a row may end with `;`, but an empty row (`;;`) and an empty
    cell (`1,,2`, `1,`) are refused. `no_limit` lifts `MATRIX_CELLS`.
    """
    reader = _Reader(csv=False, no_limit=no_limit)
    for start in range(0, len(text), _CHUNK):
        reader.feed(text[start : start + _CHUNK])
    reader.feed("", final=True)
    return reader.matrix()


def read_csv(path: str | os.PathLike[str], *, no_limit: bool = False) -> PayoffMatrix:
    """The matrix in the CSV file at `path`, one row a line, no header; ValueError if unusable.

    Cells are separated by commas and may be quoted (`"3"`); blank lines are skipped, an empty
    cell is refused. The file is read a piece at a time and refused as soon as it passes
    `FILE_BYTES` or the matrix `MATRIX_CELLS` (`no_limit` lifts both); a file that is not UTF-8
    text, a directory or an empty file are refused with the reason.
    """
    name = clipped_path(path)
    reader = _Reader(csv=True, no_limit=no_limit)
    decoder = codecs.getincrementaldecoder("utf-8")()
    read = 0
    try:
        with open(path, "rb") as file:
            while chunk := file.read(_CHUNK):
                read += len(chunk)
                if read > FILE_BYTES.most and not no_limit:
                    FILE_BYTES.check(read)  # a ValueError: say how far the file was read
                if b"\0" in chunk:
                    raise ValueError(f"{name} is not a text file (it holds a NUL byte)")
                reader.feed(decoder.decode(chunk))
            reader.feed(decoder.decode(b"", final=True), final=True)
    except OSError as error:
        raise ValueError(f"cannot read {name}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{name} is not a UTF-8 text file") from None
    if read == 0:
        raise ValueError(f"{name} is empty: write one row of the matrix a line")
    return reader.matrix()


_CHUNK = 1 << 20
"""Characters (bytes from a file) read at a time."""

_CELL_CHARACTERS = 2 * CELL_DIGITS.most + 32
"""The longest a cell's text can be within `CELL_DIGITS` (a fraction of two such numbers, a
sign, spaces and quotes): a longer one is refused before more of it is read."""

_LAST_SEPARATOR = {
    False: re.compile(r"[\s,;](?=[^\s,;]*\Z)"),  # text: commas, spaces, `;`
    True: re.compile(r",(?=[^,]*\Z)"),  # CSV: commas
}


class _Reader:
    """Rows of cells gathered as text arrives in pieces (`feed`), each cell read exactly at
    once and every limit checked on the way, so that nothing beyond a limit is kept.

    In text, rows end at `;` or a line break and cells are separated by commas or spaces; in
    CSV, rows end at a line break, cells are separated by commas and may be quoted.
    """

    def __init__(self, *, csv: bool, no_limit: bool) -> None:
        self.csv = csv
        self.most = math.inf if no_limit else MATRIX_CELLS.most
        self.rows: list[tuple[Number, ...]] = []
        self.row: list[Number] = []
        self.cells = 0
        self.after_comma = False  # the last thing in this row was a comma: a cell must follow
        self.empty_row: int | None = None  # the number of a row a `;` ended without a cell
        self.carry = ""  # the end of the last piece: the start of a line that goes on

    def feed(self, text: str, *, final: bool = False) -> None:
        """Read `text`, the next piece; `final` when nothing follows it."""
        lines = (self.carry + text).split("\n")
        self.carry = ""
        last = lines.pop()
        for line in lines:
            self._segment(line)
            self._end_row(semicolon=False)
        if final:
            self._segment(last)
            self._end_row(semicolon=False)
            if self.empty_row is not None and self.rows:
                self._empty(self.empty_row)
            return
        # The last line goes on in the next piece: read its cells up to its last separator.
        separator = _LAST_SEPARATOR[self.csv].search(last)
        cut = separator.end() if separator else 0
        self._segment(last[:cut])
        tail = last[cut:]
        core = tail.strip()  # spaces around a cell count once: any number of them is fine
        self.carry = " " * (core != tail[: len(core)]) + core + " " * (core != tail[-len(core) :])
        if len(self.carry) > _CELL_CHARACTERS:
            i, j = len(self.rows) + 1, len(self.row) + 1
            cell_value(self.carry[:_CELL_CHARACTERS], i, j)  # may say more exactly what is wrong
            raise ValueError(
                f"the cell at row {i}, column {j} is longer than {_CELL_CHARACTERS:,} characters:"
                f" a cell has at most {CELL_DIGITS.most:,} digits"
            )

    def _segment(self, text: str) -> None:
        """The cells of part of a line, and the rows it ends with `;` (in text)."""
        parts = [text] if self.csv else text.split(";")
        for index, part in enumerate(parts):
            if index:
                self._end_row(semicolon=True)
            for count, piece in enumerate(part.split(",")):
                if count:  # a comma before this piece
                    if self.after_comma or not self.row:
                        self._empty_cell()
                    self.after_comma = True
                for cell in [_unquoted(piece)] if self.csv else piece.split():
                    if cell:
                        self._cell(cell)

    def _cell(self, text: str) -> None:
        if self.empty_row is not None:
            self._empty(self.empty_row)
        self.cells += 1
        if self.cells > self.most:
            raise ValueError(
                f"the payoff matrix has more than {MATRIX_CELLS.most:,} cells, the limit"
                f" ({MATRIX_CELLS.cost}); pass {NO_LIMIT} to try anyway"
            )
        if text.isdigit() and text.isascii() and len(text) <= CELL_DIGITS.most:
            self.row.append(int(text))  # the common case, at once
        else:
            self.row.append(cell_value(text, len(self.rows) + 1, len(self.row) + 1))
        self.after_comma = False

    def _empty_cell(self) -> None:
        i, j = len(self.rows) + 1, len(self.row) + 1
        raise ValueError(
            f"row {i}, column {j} is empty: cells are separated by one comma, with a cell on"
            " each side"
        )

    @staticmethod
    def _empty(row: int) -> None:
        raise ValueError(f"row {row} is empty: two ';' with no cell between them")

    def _end_row(self, *, semicolon: bool) -> None:
        if self.after_comma:
            self._empty_cell()
        if not self.row:
            # A blank line, or a line break after a `;`: nothing. A `;` alone: an empty row.
            if semicolon and self.empty_row is None:
                self.empty_row = len(self.rows) + 1
            return
        if self.rows and len(self.row) != len(self.rows[0]):
            raise ValueError(_ragged(len(self.rows) + 1, len(self.row), len(self.rows[0])))
        self.rows.append(tuple(self.row))
        self.row = []

    def matrix(self) -> PayoffMatrix:
        return _checked(self.rows)


def _unquoted(cell: str) -> str:
    """A CSV cell without the spaces and the double quotes around it."""
    cell = cell.strip()
    if len(cell) >= 2 and cell[0] == cell[-1] == '"':
        return cell[1:-1].strip()
    return cell


def _ragged(i: int, width: int, first: int) -> str:
    return f"ragged matrix: row {i} has {_cells(width)}, row 1 has {_cells(first)}"


_NUMBER = re.compile(
    r"""(?P<sign>[-+\u2212]?)
    (?:
        (?P<numerator>[0-9]+)/(?P<denominator>[0-9]+)
      | (?=\.?[0-9])(?P<whole>[0-9]*)(?:\.(?P<decimals>[0-9]*))?
        (?:[eE](?P<exponent>[-+\u2212]?[0-9]+))?
    )""",
    re.VERBOSE,
)
_NOT_FINITE = re.compile(r"[-+\u2212]?(inf|infinity|nan)", re.IGNORECASE)


def cell_value(text: str, i: int = 1, j: int = 1) -> int | Fraction:
    """The exact value of a text cell (at row i, column j, for messages); ValueError when it is
    not an integer, a decimal or a fraction, or is over `CELL_DIGITS`."""
    text = text.strip()
    if text.isdigit() and text.isascii() and len(text) <= CELL_DIGITS.most:
        return int(text)  # the common case, at once
    match = _NUMBER.fullmatch(text)
    if match is None:
        if _NOT_FINITE.fullmatch(text):
            raise ValueError(f"{_where(text, i, j)} is not a finite number")
        raise ValueError(
            f"{_where(text, i, j)} is not a number (a cell is an integer, a decimal or a"
            " fraction: 3, -0.25, 1e-9, -3/7)"
        )
    negative = match["sign"] in ("-", "\u2212")
    if match["denominator"] is not None:
        numerator, denominator = match["numerator"], match["denominator"]
        _check_digits(text, i, j, max(len(numerator), len(denominator)))
        if not denominator.strip("0"):
            raise ValueError(f"{_where(text, i, j)} divides by zero")
        value = Fraction(int(numerator), int(denominator))
    else:
        digits = match["whole"] + (match["decimals"] or "")
        exponent = (match["exponent"] or "0").replace("\u2212", "-")
        _check_digits(text, i, j, len(digits))
        if not digits.strip("0"):
            return 0
        if len(exponent.lstrip("+-").lstrip("0")) > 6:
            _check_digits(text, i, j, 10**6)  # refused: the exponent alone is too many digits
        shift = int(exponent) - len(match["decimals"] or "")  # the value is digits * 10**shift
        _check_digits(text, i, j, len(digits) + shift if shift >= 0 else 1 - shift)
        if shift >= 0:
            value = Fraction(int(digits) * 10**shift)
        else:
            value = Fraction(int(digits), 10**-shift)
    return _exact(-value if negative else value)


def _where(text: str, i: int, j: int) -> str:
    return f"cell {clipped(text, 40)} at row {i}, column {j}"


def _check_digits(text: str, i: int, j: int, digits: int) -> None:
    if digits > CELL_DIGITS.most:
        raise ValueError(
            f"{_where(text, i, j)} has more than {CELL_DIGITS.most:,} digits, the limit of a cell"
            f" ({CELL_DIGITS.cost})"
        )


def _entry(value: Any, i: int, j: int) -> Number:
    """A Python or numpy number as an int, a Fraction or a finite float."""
    if isinstance(value, str):
        return cell_value(value, i, j)
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
    return PayoffMatrix(tuple(map(tuple, rows)))


def _cells(count: int) -> str:
    return f"{count} cell" if count == 1 else f"{count} cells"
