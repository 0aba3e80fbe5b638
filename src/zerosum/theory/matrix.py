"""Two-person zero-sum matrix games: lower and upper value, saddle points, the value in mixed
strategies (von Neumann), dominance and the check of any pair of strategies.

Every value is the row player's payoff: the row player maximises it, the column player
minimises it. Strategy indices are 0-based. With integer or rational entries the answers are
exact (`int` and `Fraction`); otherwise they are floats.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from zerosum.limits import Limit
from zerosum.theory import linear_program, rational
from zerosum.theory.payoffs import (
    CELL_DIGITS,
    MatrixLike,
    Number,
    PayoffMatrix,
    parse_matrix,
    payoff_matrix,
    read_csv,
)
from zerosum.theory.rational import EXACT_LIMIT, EXACT_SECONDS, exact_seconds

__all__ = [
    "EXACT_LIMIT",
    "EXACT_SECONDS",
    "DOMINANCE_COMPARISONS",
    "ClosedForm",
    "Elimination",
    "Exploitability",
    "MatrixLike",
    "Number",
    "PayoffMatrix",
    "PureValues",
    "Reduction",
    "Solution",
    "closed_form",
    "eliminate_dominated",
    "exact_estimate",
    "exploitability",
    "iterated_elimination",
    "mixed_strategy",
    "parse_matrix",
    "payoff_matrix",
    "pure_values",
    "read_csv",
    "solve",
]


@dataclass(frozen=True)
class PureValues:
    """What pure strategies guarantee, for the row player's payoffs.

    `lower_value` (maxmin) is the most the row player can be sure to win with one row, reached
    by the rows in `maxmin_rows`; `upper_value` (minmax) the least the column player can be sure
    to concede with one column, reached by `minmax_columns`. A saddle point (row, column) is an
    entry that is the minimum of its row and the maximum of its column; there is one exactly
    when the two values are equal, and then `value` is that common value (else None).
    """

    row_minima: tuple[Number, ...]
    column_maxima: tuple[Number, ...]
    lower_value: Number
    upper_value: Number
    maxmin_rows: tuple[int, ...]
    minmax_columns: tuple[int, ...]
    saddle_points: tuple[tuple[int, int], ...]

    @property
    def value(self) -> Number | None:
        return self.lower_value if self.saddle_points else None


@dataclass(frozen=True)
class ClosedForm:
    """The mixed solution of a 2x2 game without a saddle point, for the row player's payoffs.

    The row player plays row 0 with probability `p` (row 1 with 1 - p), the column player
    column 0 with probability `q`; `value` is the row player's expected payoff.
    """

    p: Number
    q: Number
    value: Number


@dataclass(frozen=True)
class Solution:
    """The value of a matrix game for the row player and an optimal mixed strategy of each side.

    `row_strategy[i]` is the probability of row i, `column_strategy[j]` that of column j. When
    `exact` is True every number is an int or a Fraction, proved optimal in exact arithmetic.
    """

    value: Number
    row_strategy: tuple[Number, ...]
    column_strategy: tuple[Number, ...]
    exact: bool


@dataclass(frozen=True)
class Exploitability:
    """How far a pair of mixed strategies is from optimal, in the row player's payoffs.

    `payoff` is the row player's expected win when both play their strategies; `row_gap` what
    the row player would gain by switching to a best response, `column_gap` what the column
    player would save by switching to its best response. Both are >= 0, and both are 0 exactly
    when the pair is optimal (an equilibrium).
    """

    payoff: Number
    row_gap: Number
    column_gap: Number

    @property
    def total(self) -> Number:
        """The sum of the two gaps: the best row response minus the best column response."""
        return self.row_gap + self.column_gap


@dataclass(frozen=True)
class Elimination:
    """One dominated strategy removed: `player`'s `strategy`, dominated by its `dominated_by`."""

    player: Literal["row", "column"]
    strategy: int
    dominated_by: int


@dataclass(frozen=True)
class Reduction:
    """A matrix after iterated elimination of dominated strategies.

    `rows` and `columns` are the original indices of the strategies that survive, `matrix` the
    payoffs between them, `eliminations` the removals in the order they were made.
    """

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    matrix: tuple[tuple[Number, ...], ...]
    eliminations: tuple[Elimination, ...]


def pure_values(data: MatrixLike) -> PureValues:
    """The lower and upper value, the pure strategies reaching them and every saddle point."""
    matrix = payoff_matrix(data)
    row_minima = tuple(map(min, matrix.rows))
    column_maxima = tuple(map(max, matrix.columns))
    lower, upper = max(row_minima), min(column_maxima)
    return PureValues(
        row_minima=row_minima,
        column_maxima=column_maxima,
        lower_value=lower,
        upper_value=upper,
        maxmin_rows=tuple(i for i, low in enumerate(row_minima) if low == lower),
        minmax_columns=tuple(j for j, high in enumerate(column_maxima) if high == upper),
        saddle_points=tuple(
            (i, j)
            for i, row in enumerate(matrix.rows)
            for j, entry in enumerate(row)
            if entry == row_minima[i] == column_maxima[j]
        ),
    )


def closed_form(data: MatrixLike) -> ClosedForm:
    """The 2x2 formulas p, q, v for a game [[a, b], [c, d]] without a saddle point.

    Each player mixes so that the opponent's two choices pay the same: p = (d - c) / D,
    q = (d - b) / D and v = (a d - b c) / D with D = a + d - b - c. ValueError when the game is
    not 2x2 or has a saddle point (then the pure strategies are optimal and D may be 0).
    """
    matrix = payoff_matrix(data)
    if matrix.shape != (2, 2):
        raise ValueError(f"the closed form is for 2x2 games, this one is {_size(matrix)}")
    saddles = pure_values(matrix).saddle_points
    if saddles:
        raise ValueError(
            f"the game has a saddle point at row {saddles[0][0]}, column {saddles[0][1]}"
        )
    (a, b), (c, d) = matrix.rows
    denominator = a + d - b - c  # not 0: without a saddle point the diagonals alternate
    if matrix.exact:
        denominator = Fraction(denominator)
    return ClosedForm(
        p=_plain((d - c) / denominator),
        q=_plain((d - b) / denominator),
        value=_plain((a * d - b * c) / denominator),
    )


def solve(data: MatrixLike, *, exact: bool | None = None, no_limit: bool = False) -> Solution:
    """The value for the row player and optimal mixed strategies of both players.

    The linear program of the minimax theorem is solved once with SciPy's HiGHS, whose dual
    gives the column player's strategy. With `exact` the answer is then made exact in fractions
    and proved optimal. By default (`exact=None`) integer and rational entries are solved
    exactly when neither side exceeds EXACT_LIMIT strategies or an entry does not fit a float,
    and the estimated time is within `EXACT_SECONDS`; else in floats. ValueError for
    `exact=True` on float entries, for an exact solution estimated over `EXACT_SECONDS`
    (unless `no_limit`) where one is needed, and for a float game HiGHS cannot solve (only
    numerical trouble can cause that).
    """
    matrix = payoff_matrix(data)
    if exact and not matrix.exact:
        raise ValueError("an exact solution needs integer or rational entries, not floats")
    floats = _fits_floats(matrix)
    if exact is None:
        exact = matrix.exact and (
            not floats
            or (
                max(matrix.shape) <= EXACT_LIMIT and exact_estimate(matrix)[0] <= EXACT_SECONDS.most
            )
        )
    if exact:
        seconds, digits = exact_estimate(matrix)
        rows, columns = matrix.shape
        needs = f"{rows} x {columns} strategies, numbers of {digits:,} digit" + "s" * (digits > 1)
        try:
            EXACT_SECONDS.check(seconds, lifted=no_limit, needs=needs)
        except ValueError as error:
            if floats:
                raise
            raise ValueError(f"an entry is too large for floating point, and {error}") from None
    elif not floats:
        raise ValueError(
            "an entry is too large for floating point (beyond 1.8e308): only an exact"
            " solution takes it"
        )
    guess: linear_program.FloatSolution | None
    try:
        guess = linear_program.solve(rational.scaled_floats(matrix.rows) if exact else matrix.array)
    except ArithmeticError as error:
        if not exact:
            raise ValueError(
                f"{error}; entries of very different magnitudes may cause this"
            ) from None
        guess = None
    else:
        if not exact:
            return Solution(guess.value, guess.row_strategy, guess.column_strategy, exact=False)

    def before_simplex() -> None:
        """Refuse the exact simplex method (where the supports mislead) over the limit."""
        simplex = math.ceil(rational.simplex_seconds(max(matrix.shape), digits))
        EXACT_SECONDS.check(simplex, lifted=no_limit, needs=f"{needs}, by the exact simplex method")

    value, row_strategy, column_strategy = rational.solve(matrix.rows, guess, before_simplex)
    return Solution(_plain(value), _plain_all(row_strategy), _plain_all(column_strategy), True)


def exact_estimate(data: MatrixLike) -> tuple[int, int]:
    """The exact solver's estimated time on `data` in seconds (`EXACT_SECONDS`), and the digits
    of its largest entry once all are integers over one common denominator. A matrix far over
    the limit is not looked at to the last digit: the estimate then only has to say "over"."""
    matrix = payoff_matrix(data)
    strategies = max(matrix.shape)
    if exact_seconds(strategies, 1) > EXACT_SECONDS.most:
        return exact_seconds(strategies, 1), 1
    scale = 1
    for row in matrix.rows:
        for entry in row:
            if isinstance(entry, Fraction) and scale % entry.denominator:
                scale = math.lcm(scale, entry.denominator)
                # Some entry has this denominator, so the largest integer has at least about
                # digits(scale) - CELL_DIGITS digits: past that, the answer is "over".
                beyond = max(1, _digits(scale) - CELL_DIGITS.most)
                if exact_seconds(strategies, beyond) > EXACT_SECONDS.most:
                    return exact_seconds(strategies, beyond), beyond
    largest = max(abs(Fraction(entry)) for row in matrix.rows for entry in row) * scale
    digits = _digits(math.ceil(largest))
    return exact_seconds(strategies, digits), digits


def _digits(value: int) -> int:
    """The decimal digits of a non-negative integer, at most one too many, without text."""
    return max(1, math.ceil(value.bit_length() * 0.30103))


def _fits_floats(matrix: PayoffMatrix) -> bool:
    """True when every entry of `matrix` is within the range of a float."""
    try:
        return matrix.array is not None  # computed once, kept
    except ValueError:
        return False


def exploitability(
    data: MatrixLike, row_strategy: Sequence[Number], column_strategy: Sequence[Number]
) -> Exploitability:
    """Each player's gain from a best response to the other's mixed strategy (row player's units).

    Exact when the matrix and both strategies are; ValueError when a strategy has the wrong
    length, a negative or non-finite probability, or probabilities not summing to 1.
    """
    matrix = payoff_matrix(data)
    rows, columns = matrix.shape
    x = mixed_strategy(row_strategy, rows, "row")
    y = mixed_strategy(column_strategy, columns, "column")
    row_payoffs = [sum(entry * q for entry, q in zip(row, y, strict=True)) for row in matrix.rows]
    column_payoffs = [
        sum(entry * p for entry, p in zip(column, x, strict=True)) for column in matrix.columns
    ]
    payoff = sum(p * payoff for p, payoff in zip(x, row_payoffs, strict=True))
    return Exploitability(
        payoff=_plain(payoff),
        row_gap=_plain(max(max(row_payoffs) - payoff, 0)),
        column_gap=_plain(max(payoff - min(column_payoffs), 0)),
    )


def eliminate_dominated(data: MatrixLike, *, weak: bool = False, lifted: bool = False) -> Reduction:
    """The strategies left by iterated elimination of dominated pure strategies, and the order.

    A row is dominated by another row that pays the row player more against every remaining
    column (strictly); a column by another column that concedes less against every remaining
    row. With `weak`, "at least as much everywhere and more somewhere" suffices: the value is
    kept, though some optimal strategies may be lost. At each step the lowest-numbered dominated
    row goes first, then columns; the process repeats until nothing is dominated. ValueError,
    in one line, past `DOMINANCE_COMPARISONS` (unless `lifted`).
    """
    matrix = payoff_matrix(data)
    conceded = tuple(tuple(-entry for entry in column) for column in matrix.columns)
    rows, columns, eliminations = iterated_elimination(
        matrix.rows, conceded, weak=weak, lifted=lifted
    )
    return Reduction(
        rows=rows,
        columns=columns,
        matrix=tuple(tuple(matrix.rows[i][j] for j in columns) for i in rows),
        eliminations=eliminations,
    )


DOMINANCE_COMPARISONS = Limit(
    "the comparisons of iterated elimination of dominated strategies",
    50_000_000,
    "each payoff compared counts one and each pair of strategies compared 8 more (the cost of"
    " starting to compare them); a step removes one strategy and may compare every pair"
    " again: 2 to 20 s here (exact fractions are the slowest)",
)
"""The most comparisons of one iterated elimination (`iterated_elimination`): a matrix of a
million cells could take a million steps of a million pairs each."""


PAIR_COMPARISON = 8
"""What starting to compare a pair of strategies counts in `DOMINANCE_COMPARISONS`: its time
here, in payoffs compared."""


def iterated_elimination(
    row_wins: Sequence[Sequence[Number]],
    column_wins: Sequence[Sequence[Number]],
    *,
    weak: bool = False,
    lifted: bool = False,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[Elimination, ...]]:
    """Iterated elimination of dominated pure strategies when each player wants more of their
    own payoffs: `row_wins[i][j]` is the row player's at row i, column j, `column_wins[j][i]` the
    column player's (one list a column). The rows and columns left, and the eliminations in
    order, as `eliminate_dominated` describes (which passes the zero-sum game's columns
    negated: what the column player concedes is what it does not win). ValueError, in one line,
    past `DOMINANCE_COMPARISONS` comparisons (unless `lifted`)."""
    rows = list(range(len(row_wins)))
    columns = list(range(len(column_wins)))
    eliminations: list[Elimination] = []
    # A strategy no other dominates stays so until the other player loses one: it is not
    # compared again till then.
    clean_rows: set[int] = set()
    clean_columns: set[int] = set()
    compared = _Comparisons(lifted)
    while True:
        removal = _dominated(
            row_wins, rows, columns, "row", weak, clean_rows, compared
        ) or _dominated(column_wins, columns, rows, "column", weak, clean_columns, compared)
        if removal is None:
            break
        eliminations.append(removal)
        if removal.player == "row":
            rows.remove(removal.strategy)
            clean_columns.clear()
        else:
            columns.remove(removal.strategy)
            clean_rows.clear()
    return tuple(rows), tuple(columns), tuple(eliminations)


class _Comparisons:
    """The comparisons made so far by one elimination, held to `DOMINANCE_COMPARISONS`."""

    def __init__(self, lifted: bool) -> None:
        self.count = 0
        self.lifted = lifted

    def add(self, count: int) -> None:
        self.count += count
        DOMINANCE_COMPARISONS.check(self.count, lifted=self.lifted)


def _dominated(
    lines: Sequence[Sequence[Number]],
    alive: list[int],
    against: list[int],
    player: Literal["row", "column"],
    weak: bool,
    clean: set[int],
    compared: _Comparisons,
) -> Elimination | None:
    """The first of `alive` lines dominated by another (its player wants more of each entry);
    `clean` holds those known not to be, and gains those found not to be."""
    if len(alive) < 2:
        return None
    seen: dict[int, list[Number]] = {}  # a line's payoffs against the strategies left

    def payoffs(strategy: int) -> list[Number]:
        if strategy not in seen:
            seen[strategy] = [lines[strategy][k] for k in against]
        return seen[strategy]

    for strategy in alive:
        if strategy in clean:
            continue
        mine, spent = payoffs(strategy), 0
        for other in alive:
            if other == strategy:
                continue
            theirs = payoffs(other)
            if weak:
                beaten = all(t >= m for t, m in zip(theirs, mine, strict=True)) and theirs != mine
                spent += PAIR_COMPARISON + len(mine)
            else:  # compared up to the first payoff where `other` does not pay more
                pairs = enumerate(zip(theirs, mine, strict=True))
                failed = next((k for k, (t, m) in pairs if not t > m), None)
                beaten = failed is None
                spent += PAIR_COMPARISON + (len(mine) if failed is None else failed + 1)
            if beaten:
                compared.add(spent)
                return Elimination(player, strategy, other)
        compared.add(spent)
        clean.add(strategy)
    return None


def mixed_strategy(probabilities: Sequence[Number], size: int, player: str) -> list[Number]:
    """`probabilities` checked as a mixed strategy of `player` ("row" or "column") among `size`
    pure strategies: non-negative, summing to 1 (exactly when all are exact); ValueError if not."""
    values = list(payoff_matrix([probabilities]).rows[0]) if len(probabilities) else []
    if len(values) != size:
        raise ValueError(f"the {player} strategy has {len(values)} probabilities, the game {size}")
    if any(p < 0 for p in values):
        raise ValueError(f"the {player} strategy has a negative probability")
    total = sum(values)
    exact_sum = all(not isinstance(p, float) for p in values)
    if (total != 1) if exact_sum else not math.isclose(total, 1, abs_tol=1e-9):
        raise ValueError(f"the {player} strategy's probabilities sum to {total}, not 1")
    return values


def _plain(value: Number) -> Number:
    """A Fraction with denominator 1 as an int; other numbers unchanged."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def _plain_all(values: Sequence[Number]) -> tuple[Number, ...]:
    return tuple(map(_plain, values))


def _size(matrix: PayoffMatrix) -> str:
    return "x".join(map(str, matrix.shape))
