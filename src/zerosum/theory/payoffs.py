"""The payoffs of a two-player game in normal form, read from Python, text or CSV.

A zero-sum game is one matrix (`PayoffMatrix`): entry `[i][j]` is what the row player wins (and
the column player loses) when the row player plays row i and the column player column j. A
general game is a bimatrix game (`Bimatrix`): two matrices of the same shape, `row_payoffs` (the
textbook's A, what the row player gets) and `column_payoffs` (B, what the column player gets),
each player wanting more of their own. Integer and rational entries are kept exact (an `int`, or
a `Fraction` when the denominator is not 1) so that the solvers can answer in fractions; any
other finite real becomes a `float`.

A number is an integer (`-3`), a decimal with or without an exponent (`0.25`, `1e-400`) or a
fraction of integers (`-3/7`), in ASCII digits, with `+`, `-` or the minus sign `−`; all are
read exactly, however large or small, up to `CELL_DIGITS` digits written out in full (`1e400`
is 401 digits).

The grammar of text: rows are separated by `;` or line breaks, cells by spaces. A cell is a
number, or a pair of numbers joined by one comma with no space (`3,1`: the row player's payoff,
then the column player's). Either every cell is a number (a zero-sum game) or every cell is a
pair (a bimatrix game): a mix is refused, naming the cell, and so is any other comma (`3,`,
`1,2,3`, a lone `,`), for a comma never separates cells in text. A text whose every row is a
single pair (`1,2;3,4`, once a zero-sum matrix with cells separated by commas) is refused too,
saying how to write either reading: it is never read one way when it may mean the other.

The grammar of a CSV file: one row a line, cells separated by commas, each a number or, in
double quotes, a pair (`"3,1"`, spaces allowed inside the quotes): what a spreadsheet writes
for a cell holding the text 3,1. An empty cell is refused, never skipped.

Text and files are read piece by piece and refused as soon as they pass a limit
(`MATRIX_CELLS`, `CELL_DIGITS`, `FILE_BYTES`), before memory is spent on them.
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


@dataclass(frozen=True)
class Bimatrix:
    """A two-player game in payoff pairs: at row i and column j the row player gets
    `row_payoffs.rows[i][j]` (the textbook's A) and the column player `column_payoffs.rows[i][j]`
    (B). Each player maximises their own payoff; the game is zero-sum when B = -A.
    """

    row_payoffs: PayoffMatrix
    column_payoffs: PayoffMatrix

    @property
    def shape(self) -> tuple[int, int]:
        return self.row_payoffs.shape

    @property
    def exact(self) -> bool:
        return self.row_payoffs.exact and self.column_payoffs.exact

    @property
    def zero_sum(self) -> bool:
        """True when every pair adds up to 0: B = -A."""
        return all(
            a + b == 0
            for row_a, row_b in zip(self.row_payoffs.rows, self.column_payoffs.rows, strict=True)
            for a, b in zip(row_a, row_b, strict=True)
        )

    @property
    def pairs(self) -> tuple[tuple[tuple[Number, Number], ...], ...]:
        """The cells as pairs (row player's payoff, column player's payoff)."""
        return tuple(
            tuple(zip(row_a, row_b, strict=True))
            for row_a, row_b in zip(self.row_payoffs.rows, self.column_payoffs.rows, strict=True)
        )


MatrixLike = PayoffMatrix | np.ndarray | Sequence[Sequence[Any]]
Payoffs = PayoffMatrix | Bimatrix
"""A game read from text or a file: one matrix (zero-sum) or two (a bimatrix game)."""


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


def bimatrix(
    row_payoffs: MatrixLike | Bimatrix, column_payoffs: MatrixLike | None = None
) -> Bimatrix:
    """The bimatrix game of the row player's payoffs A and the column player's B, validated as
    `payoff_matrix` validates each (and a Bimatrix as it is); ValueError when they are not of
    one shape."""
    if isinstance(row_payoffs, Bimatrix):
        return row_payoffs
    if column_payoffs is None:
        raise ValueError("a bimatrix game needs the column player's payoffs too")
    a, b = payoff_matrix(row_payoffs), payoff_matrix(column_payoffs)
    if a.shape != b.shape:
        raise ValueError(
            f"the row player's payoffs are {a.shape[0]} x {a.shape[1]}, the column player's"
            f" {b.shape[0]} x {b.shape[1]}: one game has one shape"
        )
    return Bimatrix(a, b)


def parse_payoffs(text: str, *, no_limit: bool = False) -> Payoffs:
    """The game written in `text` (the module's grammar): a PayoffMatrix when every cell is a
    number (`"3 -1; -2 4"`), a Bimatrix when every cell is a pair (`"3,1 0,0; 0,0 1,3"`).

    Blank lines are skipped and a row may end with `;`, but an empty row (`;;`) is refused.
    `no_limit` lifts `MATRIX_CELLS`.
    """
    reader = _Reader(csv=False, no_limit=no_limit)
    for start in range(0, len(text), _CHUNK):
        reader.feed(text[start : start + _CHUNK])
    reader.feed("", final=True)
    return reader.payoffs()


def parse_matrix(text: str, *, no_limit: bool = False) -> PayoffMatrix:
    """The zero-sum matrix written in `text`: rows separated by `;` or line breaks, cells by
    spaces; `"3 -1; -2 4"` is [[3, -1], [-2, 4]]. ValueError for a text of pairs (a bimatrix
    game: `parse_payoffs` reads it) and for anything `parse_payoffs` refuses."""
    return _zero_sum(parse_payoffs(text, no_limit=no_limit))


def read_payoffs(path: str | os.PathLike[str], *, no_limit: bool = False) -> Payoffs:
    """The game in the CSV file at `path`, one row a line, no header; ValueError if unusable.

    Cells are separated by commas; a cell is a number, which may be quoted (`"3"`), or a pair
    in quotes (`"3,1"`, a bimatrix game). Blank lines are skipped, an empty cell is refused. The
    file is read a piece at a time and refused as soon as it passes `FILE_BYTES` or the matrix
    `MATRIX_CELLS` (`no_limit` lifts both); a file that is not UTF-8 text, a directory or an
    empty file are refused with the reason.
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
    return reader.payoffs()


def read_csv(path: str | os.PathLike[str], *, no_limit: bool = False) -> PayoffMatrix:
    """The zero-sum matrix in the CSV file at `path` (`read_payoffs`); ValueError for a file of
    pairs (a bimatrix game) and for anything `read_payoffs` refuses."""
    return _zero_sum(read_payoffs(path, no_limit=no_limit))


def _zero_sum(payoffs: Payoffs) -> PayoffMatrix:
    if isinstance(payoffs, Bimatrix):
        raise ValueError(
            "the cells are pairs of payoffs (3,1): a bimatrix game, not one zero-sum matrix"
            " (zerosum.theory.bimatrix solves it)"
        )
    return payoffs


_CHUNK = 1 << 20
"""Characters (bytes from a file) read at a time."""

_CELL_CHARACTERS = 4 * CELL_DIGITS.most + 64
"""The longest a cell's text can be within `CELL_DIGITS` (a pair of fractions of two such
numbers, signs, spaces and quotes): a longer one is refused before more of it is read."""

_TEXT_SEPARATOR = re.compile(r"[\s;](?=[^\s;]*\Z)")
"""The last separator of a piece of text: a space or a `;`."""

_CSV_TOKEN = re.compile(r'"[^"]*(?:"|\Z)|,')
"""In a CSV line, a quoted stretch (which may hold commas, and may go on past the piece) or a
comma outside quotes."""

_COMMA_HELP = (
    "cells are separated by spaces, and a comma joins the two payoffs of a pair with no space"
    " (3,1: the row player's, then the column player's)"
)


def _csv_commas(text: str) -> list[int]:
    """Where the commas outside double quotes are in `text`, part of a CSV line."""
    return [m.start() for m in _CSV_TOKEN.finditer(text) if m.group() == ","]


class _Reader:
    """Rows of cells gathered as text arrives in pieces (`feed`), each cell read exactly at
    once and every limit checked on the way, so that nothing beyond a limit is kept.

    In text, rows end at `;` or a line break and cells are separated by spaces; in CSV, rows
    end at a line break and cells are separated by commas outside quotes. The first cell says
    whether the game is one of numbers or of pairs; every other cell must agree.
    """

    def __init__(self, *, csv: bool, no_limit: bool) -> None:
        self.csv = csv
        self.most = math.inf if no_limit else MATRIX_CELLS.most
        self.rows: list[tuple[Number, ...]] = []
        self.row: list[Number] = []
        self.second_rows: list[tuple[Number, ...]] = []  # the column player's, for pairs
        self.second_row: list[Number] = []
        self.pairs: bool | None = None  # what the first cell was: a pair, or a number
        self.cells = 0
        self.after_comma = False  # CSV: the last thing in this row was a comma: a cell follows
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
        if self.csv:
            commas = _csv_commas(last)
            cut = commas[-1] + 1 if commas else 0
        else:
            separator = _TEXT_SEPARATOR.search(last)
            cut = separator.end() if separator else 0
        self._segment(last[:cut])
        tail = last[cut:]
        core = tail.strip()  # spaces around a cell count once: any number of them is fine
        self.carry = " " * (core != tail[: len(core)]) + core + " " * (core != tail[-len(core) :])
        if len(self.carry) > _CELL_CHARACTERS:
            i, j = len(self.rows) + 1, len(self.row) + 1
            first = self.carry[:_CELL_CHARACTERS].strip().strip('"').split(",")[0]
            cell_value(first, i, j)  # may say more exactly what is wrong
            raise ValueError(
                f"the cell at row {i}, column {j} is longer than {_CELL_CHARACTERS:,} characters:"
                f" a number has at most {CELL_DIGITS.most:,} digits"
            )

    def _segment(self, text: str) -> None:
        """The cells of part of a line, and the rows it ends with `;` (in text)."""
        if self.csv:
            start = 0
            for count, end in enumerate([*_csv_commas(text), len(text)]):
                if count:  # a comma before this field
                    if self.after_comma or not self.row:
                        self._empty_cell()
                    self.after_comma = True
                field = text[start:end].strip()
                start = end + 1
                if field.strip('"').strip():  # an empty field, quoted or not, is no cell
                    self._csv_cell(field)
            return
        for index, part in enumerate(text.split(";")):
            if index:
                self._end_row(semicolon=True)
            for cell in part.split():
                self._text_cell(cell)

    def _text_cell(self, text: str) -> None:
        if "," not in text:
            self._cell(text, None)
            return
        first, _, second = text.partition(",")
        if not first or not second or "," in second:
            i, j = len(self.rows) + 1, len(self.row) + 1
            what = "a comma" if text == "," else f"cell {clipped(text, 40)}"
            raise ValueError(
                f"{what} at row {i}, column {j} is not a number or a pair: {_COMMA_HELP}"
            )
        self._cell(first, second)

    def _csv_cell(self, text: str) -> None:
        if len(text) >= 2 and text[0] == text[-1] == '"':
            inner = text[1:-1].strip()
            first, comma, second = inner.partition(",")
            if comma:
                if not first.strip() or not second.strip() or "," in second:
                    i, j = len(self.rows) + 1, len(self.row) + 1
                    raise ValueError(
                        f"cell {clipped(text, 40)} at row {i}, column {j} is not a number or a"
                        ' pair: a pair is two numbers in quotes, joined by a comma ("3,1")'
                    )
                self._cell(first.strip(), second.strip())
                return
            text = inner
        elif ";" in text:
            i, j = len(self.rows) + 1, len(self.row) + 1
            raise ValueError(
                f"cell {clipped(text, 40)} at row {i}, column {j} is not a number: in a CSV file"
                ' a pair is written in quotes, its payoffs joined by a comma ("3,1")'
            )
        self._cell(text, None)

    def _cell(self, text: str, second: str | None) -> None:
        """A cell: the number `text`, or the pair (`text`, `second`)."""
        if self.empty_row is not None:
            self._empty(self.empty_row)
        i, j = len(self.rows) + 1, len(self.row) + 1
        pair = second is not None
        if self.pairs is None:
            self.pairs = pair
        elif pair != self.pairs:
            shown = f"{text},{second}" if pair else text
            raise ValueError(
                f"cell {clipped(shown, 40)} at row {i}, column {j} is "
                + (
                    "a pair, where the first cell is a number: in a zero-sum matrix every"
                    " cell is a number"
                    if pair
                    else "a number, where the first cell is a pair: in a bimatrix game every"
                    " cell is a pair (3,1: the row player's payoff, then the column player's)"
                )
            )
        self.cells += 1
        if self.cells > self.most:
            raise ValueError(
                f"the payoff matrix has more than {MATRIX_CELLS.most:,} cells, the limit"
                f" ({MATRIX_CELLS.cost}); pass {NO_LIMIT} to try anyway"
            )
        self.row.append(_number(text, i, j))
        if second is not None:
            self.second_row.append(_number(second, i, j))
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
        if self.pairs:
            self.second_rows.append(tuple(self.second_row))
            self.second_row = []

    def payoffs(self) -> Payoffs:
        matrix = _checked(self.rows)
        if not self.pairs:
            return matrix
        if not self.csv and matrix.shape[1] == 1:
            a, b = self.rows[0][0], self.second_rows[0][0]
            raise ValueError(
                f"every row is one pair ({a},{b}): {_COMMA_HELP}. A zero-sum matrix is written"
                f" {a} {b}; ... and a bimatrix game has two columns or more in text (a CSV file"
                ' takes one, as "3,1")'
            )
        return Bimatrix(matrix, _checked(self.second_rows))


def _number(text: str, i: int, j: int) -> Number:
    if text.isdigit() and text.isascii() and len(text) <= CELL_DIGITS.most:
        return int(text)  # the common case, at once
    return cell_value(text, i, j)


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
