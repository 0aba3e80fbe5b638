"""Exact solutions of matrix games with rational entries, each one proved optimal in fractions.

The floating-point solution tells which strategies are played (the supports) and which
constraints are tight; the exact solution is then the unique solution of those equations,
found by fraction-free (Bareiss) elimination on integers. Nothing is returned on trust: a pair
of strategies is accepted only when it is a pair of distributions and the least the row
strategy wins against any column equals the most the column strategy concedes against any row,
which proves both optimal and that common number the value. When the floating-point picture is
wrong (numbers too far apart for floating point), an exact simplex method answers instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from zerosum.limits import Limit
from zerosum.theory.payoffs import Number

if TYPE_CHECKING:  # SciPy is imported by the solver only: `zerosum matrix --help` quotes limits
    from zerosum.theory.linear_program import FloatSolution

#: The largest number of rows or columns that `solve` answers exactly unless told otherwise
#: (`zerosum matrix --help` quotes it), when its numbers are within `EXACT_WORK` too.
EXACT_LIMIT = 100

#: The exact solver's time, estimated before it starts from the larger side's strategies n and
#: the digits d of the largest entry once every entry is an integer over one common
#: denominator (`supports_seconds`): the exact solution at the floating-point solution's
#: supports, which answers every game measured (`benchmarks/cost_models.py`). Where those
#: supports mislead, the exact simplex method takes over, its own estimate
#: (`simplex_seconds`) checked against the same limit before it starts.
EXACT_SECONDS = Limit(
    "the exact solver's time (estimated, in seconds)",
    300,
    "it grows with the cube of the strategies and the square of their digits",
)


def supports_seconds(strategies: int, digits: int) -> float:
    """The exact solver's estimated time from the floating-point supports, in seconds, for
    `strategies` on the larger side and entries of `digits` digits over a common denominator:
    the floating-point solve, then systems of integers whose numbers grow with the support.
    Fitted to runs here (`benchmarks/cost_models.py`, within 3x of each, a little over the
    quiet machine's times): 0.2 s for 100 x 100 small integers, 1 s for 30 digits; 1.4 s for
    200 x 200, 28 s for 30 digits; 0.06 s for Kuhn poker's 27 x 64."""
    n, d = strategies, max(1, digits)
    return 3.4e-7 * n**3 + 2.5e-12 * n**2.16 * (n * d) ** 2.16


def simplex_seconds(strategies: int, digits: int) -> float:
    """The exact simplex method's estimated time, in seconds (the fallback where the supports
    mislead): its pivots grow with the strategies, and their numbers with the digits. Fitted to
    runs here (within 3x of each): 0.3 s for 50 x 50 small integers, 10 s for 30 digits; 3.7 s
    for 75 x 75, 96 s for 30 digits."""
    n, d = strategies, max(1, digits)
    return n**5 * (1.5e-9 + 5.5e-14 * (n * d) ** 1.83)


def exact_seconds(strategies: int, digits: int) -> int:
    """The exact solver's estimated time, in whole seconds (`supports_seconds`, rounded up): what
    `EXACT_SECONDS` checks before the work starts."""
    return math.ceil(supports_seconds(strategies, digits))


Exact = tuple[Fraction, tuple[Fraction, ...], tuple[Fraction, ...]]

#: Probabilities and payoff differences below this fraction of the largest payoff count as 0
#: when reading the floating-point solution (any mistake is caught by the exact check).
TOLERANCE = 1e-9


def solve(
    rows: Sequence[Sequence[Number]],
    guess: FloatSolution | None,
    before_simplex: Callable[[], None] | None = None,
) -> Exact:
    """The value for the row player and optimal strategies of both, exact and verified.

    `rows` are int or Fraction entries (a float would count at its exact binary value); `guess`
    a floating-point solution of the same game to start from, or None to run the exact simplex
    method directly; `before_simplex`, when given, is called before the simplex method starts
    (where the guess misleads), to refuse it (`simplex_seconds`).
    """
    fractions = [[Fraction(entry) for entry in row] for row in rows]
    scale = math.lcm(*(entry.denominator for row in fractions for entry in row))
    integers = [[int(entry * scale) for entry in row] for row in fractions]
    found = _from_supports(integers, guess) if guess is not None else None
    if found is None:
        if before_simplex is not None:
            before_simplex()
        found = _simplex(integers)
    value, row_strategy, column_strategy = found
    return value / scale, row_strategy, column_strategy


def certified_value(
    payoffs: Sequence[Sequence[int]], x: Sequence[Fraction], y: Sequence[Fraction]
) -> Fraction | None:
    """The value of the game when x and y are provably optimal strategies, else None.

    x must be a distribution over rows and y over columns; then min_j (x A)_j <= max_i (A y)_i,
    with equality exactly when both are optimal.
    """
    if any(p < 0 for p in x) or any(q < 0 for q in y) or sum(x) != 1 or sum(y) != 1:
        return None
    guaranteed = min(_payoffs(list(zip(*payoffs, strict=True)), x))
    conceded = max(_payoffs(payoffs, y))
    return guaranteed if guaranteed == conceded else None


def _payoffs(facing: Sequence[Sequence[int]], strategy: Sequence[Fraction]) -> list[Fraction]:
    """What each of the opponent's pure strategies (rows of `facing`) gets against `strategy`.

    The probabilities are put over one common denominator so that the sums are of integers.
    """
    denominator = math.lcm(*(Fraction(p).denominator for p in strategy))
    played = [(k, int(p * denominator)) for k, p in enumerate(strategy) if p]
    return [Fraction(sum(weight * line[k] for k, weight in played), denominator) for line in facing]


def _from_supports(payoffs: list[list[int]], guess: FloatSolution) -> Exact | None:
    """The exact solution at the vertex the floating-point solution found, if it checks out.

    A player's probabilities on its support make the opponent indifferent between its replies:
    first the replies the opponent plays (complementary slackness), then, for degenerate games
    where those are too few, every reply the floating-point solution finds tight.
    """
    array = scaled_floats(payoffs)
    x_float, y_float = np.array(guess.row_strategy), np.array(guess.column_strategy)
    columns_facing_x, rows_facing_y = array.T @ x_float, array @ y_float
    level = float(x_float @ rows_facing_y)
    tolerance = TOLERANCE  # the payoffs are scaled to at most 1 in size
    rows_played, columns_played = _support(x_float), _support(y_float)
    tight_rows = [i for i, payoff in enumerate(rows_facing_y) if abs(payoff - level) <= tolerance]
    tight_columns = [
        j for j, payoff in enumerate(columns_facing_x) if abs(payoff - level) <= tolerance
    ]
    columns = list(zip(*payoffs, strict=True))
    for column_replies, row_replies in ((columns_played, rows_played), (tight_columns, tight_rows)):
        x = _equalizer(columns, rows_played, column_replies, len(payoffs))
        y = _equalizer(payoffs, columns_played, row_replies, len(columns))
        if x is not None and y is not None:
            value = certified_value(payoffs, x, y)
            if value is not None:
                return value, x, y
    return None


def scaled_floats(payoffs: Sequence[Sequence[Number]]) -> np.ndarray:
    """The payoffs divided by the largest in size, as floats: any exact payoffs fit, however
    large or small (a payoff below 2**-1074 of the largest becomes 0).

    Optimal strategies do not change when every payoff is multiplied by the same positive
    number, so the floating-point solution of these is a guide to the exact one.
    """
    exact = [[Fraction(entry) for entry in row] for row in payoffs]
    largest = max(abs(entry) for row in exact for entry in row) or Fraction(1)
    # a Fraction rounds to a float once, correctly, and these are at most 1 in size
    return np.array([[float(entry / largest) for entry in row] for row in exact], dtype=float)


def _support(strategy: np.ndarray) -> list[int]:
    return [k for k, p in enumerate(strategy) if p > TOLERANCE]


def _equalizer(
    facing: Sequence[Sequence[int]], support: list[int], replies: list[int], size: int
) -> tuple[Fraction, ...] | None:
    """A strategy on `support` against which every reply in `replies` pays the same v, or None.

    `facing[r][k]` is the row player's payoff when the opponent plays r and we play k. Unknowns:
    our probabilities on the support, then v; the probabilities sum to 1.
    """
    equations = [[facing[reply][k] for k in support] + [-1, 0] for reply in replies]
    equations.append([1] * len(support) + [0, 1])
    solution = solve_linear_system(equations)
    if solution is None:
        return None
    strategy = [Fraction(0)] * size
    for k, p in zip(support, solution, strict=False):
        strategy[k] = p
    return tuple(strategy)


def solve_linear_system(equations: list[list[int]]) -> list[Fraction] | None:
    """A solution of the integer system [coefficients | right-hand side], None if there is none.

    Bareiss's fraction-free elimination keeps every entry an integer (a minor of the system) and
    divides exactly; unknowns without a pivot are set to 0.
    """
    rows = [row[:] for row in equations]
    unknowns = len(rows[0]) - 1
    pivots: list[int] = []
    previous = 1
    for column in range(unknowns):
        r = len(pivots)
        found = next((i for i in range(r, len(rows)) if rows[i][column]), None)
        if found is None:
            continue
        rows[r], rows[found] = rows[found], rows[r]
        pivot = rows[r][column]
        top = rows[r][column:]  # left of `column` the rows below hold zeros only
        for row in rows[r + 1 :]:
            factor = row[column]
            row[column:] = [
                (pivot * a - factor * b) // previous for a, b in zip(row[column:], top, strict=True)
            ]
        previous = pivot
        pivots.append(column)
        if len(pivots) == len(rows):
            break
    if any(row[-1] for row in rows[len(pivots) :]):
        return None
    # The last pivot is the determinant of the pivoted square subsystem, so by Cramer's rule
    # determinant * solution is a vector of integers: back-substitute in integers, divide once.
    determinant = previous
    scaled = [0] * unknowns
    for r in reversed(range(len(pivots))):
        row, column = rows[r], pivots[r]
        rest = determinant * row[-1] - sum(row[c] * scaled[c] for c in pivots[r + 1 :])
        scaled[column] = rest // row[column]
    return [Fraction(value, determinant) for value in scaled]


def _simplex(payoffs: list[list[int]]) -> Exact:
    """The exact solution by the simplex method in integers, safe from cycling.

    With every payoff raised to at least 1 by a shift s, the column player's program is
    maximise sum(w) subject to B w <= 1, w >= 0, whose optimum is 1 / (value + s); the column
    strategy is w scaled to sum 1 and the row strategy the multipliers of the row constraints.
    Integer pivoting keeps the tableau as integers over one common denominator (the current
    basis's determinant), by the same exact division as Bareiss's elimination. The entering
    column has the most negative reduced cost while every pivot raises the objective; after
    the first degenerate pivot Bland's rule takes over, which cannot cycle.
    """
    rows, columns = len(payoffs), len(payoffs[0])
    shift = 1 - min(map(min, payoffs))
    # A row per payoff row: [w_1..w_n | slack_1..slack_m | right-hand side]; last, the reduced
    # costs, whose right-hand side is sum(w). Every true entry is the stored one / determinant.
    tableau = [
        [a + shift for a in row] + [int(i == k) for k in range(rows)] + [1]
        for i, row in enumerate(payoffs)
    ]
    tableau.append([-1] * columns + [0] * (rows + 1))
    basis = [columns + i for i in range(rows)]
    determinant = 1
    bland = False  # the steepest reduced cost until a degenerate pivot, then Bland's rule
    while True:
        costs = tableau[-1]
        if bland:
            entering = next((c for c, cost in enumerate(costs[:-1]) if cost < 0), None)
        else:
            entering = min(range(len(costs) - 1), key=costs.__getitem__)
            entering = entering if costs[entering] < 0 else None
        if entering is None:
            break
        leaving = min(  # bounded: the program's optimum is finite
            (i for i in range(rows) if tableau[i][entering] > 0),
            key=lambda i: (Fraction(tableau[i][-1], tableau[i][entering]), basis[i]),
        )
        top = tableau[leaving]
        pivot = top[entering]
        bland = bland or top[-1] == 0  # the objective would not move: cycling is possible
        for i, row in enumerate(tableau):
            if i != leaving:
                factor = row[entering]
                row[:] = [
                    (pivot * a - factor * b) // determinant for a, b in zip(row, top, strict=True)
                ]
        determinant = pivot
        basis[leaving] = entering
    costs = tableau[-1]
    total = costs[-1]  # sum(w) times the determinant, equal to the multipliers' sum times it
    w = [0] * columns
    for i, variable in enumerate(basis):
        if variable < columns:
            w[variable] = tableau[i][-1]
    y = tuple(Fraction(weight, total) for weight in w)
    x = tuple(Fraction(cost, total) for cost in costs[columns : columns + rows])
    value = certified_value(payoffs, x, y)
    if value is None:  # cannot happen for a correct simplex: refuse rather than answer unproved
        raise ArithmeticError("the exact simplex method returned strategies that are not optimal")
    return value, x, y
