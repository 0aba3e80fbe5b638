"""Exact solutions of matrix games with rational entries, each one proved optimal in fractions.

The floating-point solution tells which strategies are played (the supports) and which
constraints are tight; the exact solution is then the unique solution of those equations,
found by fraction-free (Bareiss) elimination on integers. Nothing is returned on trust: a pair
of strategies is accepted only when it is a pair of distributions and the least the row
strategy wins against any column equals the most the column strategy concedes against any row,
which proves both optimal and that common number the value. When the floating-point picture is
wrong (ties, degenerate games), an exact simplex method with Bland's rule answers instead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from zerosum.theory.linear_program import FloatSolution
from zerosum.theory.payoffs import Number

Exact = tuple[Fraction, tuple[Fraction, ...], tuple[Fraction, ...]]

#: Probabilities and payoff differences below this fraction of the largest payoff count as 0
#: when reading the floating-point solution (any mistake is caught by the exact check).
TOLERANCE = 1e-9


def solve(rows: Sequence[Sequence[Number]], guess: FloatSolution | None) -> Exact:
    """The value for the row player and optimal strategies of both, exact and verified.

    `rows` are int or Fraction entries; `guess` a floating-point solution of the same game to
    start from, or None to run the exact simplex method directly.
    """
    scale = math.lcm(*(Fraction(entry).denominator for row in rows for entry in row))
    integers = [[int(entry * scale) for entry in row] for row in rows]
    found = _from_supports(integers, guess) if guess is not None else None
    if found is None:
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
    row_support = [(i, p) for i, p in enumerate(x) if p]
    column_support = [(j, q) for j, q in enumerate(y) if q]
    guaranteed = min(
        _dot(((p, payoffs[i][j]) for i, p in row_support)) for j in range(len(payoffs[0]))
    )
    conceded = max(_dot(((q, row[j]) for j, q in column_support)) for row in payoffs)
    return guaranteed if guaranteed == conceded else None


def _dot(pairs) -> Fraction:
    """The sum of the products of (Fraction, int) pairs, over one common denominator."""
    pairs = list(pairs)
    denominator = math.lcm(*(p.denominator for p, _ in pairs))
    return Fraction(sum(p.numerator * (denominator // p.denominator) * a for p, a in pairs), denominator)


def _from_supports(payoffs: list[list[int]], guess: FloatSolution) -> Exact | None:
    """The exact solution at the vertex the floating-point solution found, if it checks out."""
    array = np.array(payoffs, dtype=float)
    tolerance = TOLERANCE * max(1.0, float(np.abs(array).max()))
    x_float, y_float = np.array(guess.row_strategy), np.array(guess.column_strategy)
    level = float(x_float @ array @ y_float)
    x = _equalizer(array.T, x_float, level, tolerance, payoffs, transpose=True)
    y = _equalizer(array, y_float, level, tolerance, payoffs, transpose=False)
    if x is None or y is None:
        return None
    value = certified_value(payoffs, x, y)
    return None if value is None else (value, x, y)


def _equalizer(
    facing: np.ndarray,
    mine: np.ndarray,
    level: float,
    tolerance: float,
    payoffs: list[list[int]],
    *,
    transpose: bool,
) -> tuple[Fraction, ...] | None:
    """One player's exact strategy on the support of `mine` making each tight reply pay the same.

    `facing[k]` holds the payoffs of the opponent's strategy k against each of ours; the
    opponent's replies within `tolerance` of `level` are tight and must pay exactly the same v.
    Unknowns: our probabilities on the support, then v.
    """
    support = [k for k, p in enumerate(mine) if p > TOLERANCE]
    tight = [k for k, payoff in enumerate(facing @ mine) if abs(payoff - level) <= tolerance]
    entry = (lambda reply, k: payoffs[k][reply]) if transpose else (lambda reply, k: payoffs[reply][k])
    equations = [[entry(reply, k) for k in support] + [-1, 0] for reply in tight]
    equations.append([1] * len(support) + [0, 1])
    solution = _solve_linear_system(equations)
    if solution is None:
        return None
    strategy = [Fraction(0)] * len(mine)
    for k, p in zip(support, solution):
        strategy[k] = p
    return tuple(strategy)


def _solve_linear_system(equations: list[list[int]]) -> list[Fraction] | None:
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
        top = rows[r]
        pivot = top[column]
        for i in range(r + 1, len(rows)):
            factor = rows[i][column]
            rows[i] = [(pivot * a - factor * b) // previous for a, b in zip(rows[i], top)]
        previous = pivot
        pivots.append(column)
        if len(pivots) == len(rows):
            break
    if any(row[-1] for row in rows[len(pivots) :]):
        return None
    solution = [Fraction(0)] * unknowns
    for r in reversed(range(len(pivots))):
        row, column = rows[r], pivots[r]
        rest = row[-1] - sum(row[c] * solution[c] for c in pivots[r + 1 :])
        solution[column] = Fraction(rest) / row[column]
    return solution


def _simplex(payoffs: list[list[int]]) -> Exact:
    """The exact solution by the simplex method on fractions, Bland's rule against cycling.

    With every payoff raised to at least 1 by a shift s, the column player's program is
    maximise sum(w) subject to B w <= 1, w >= 0, whose optimum is 1 / (value + s); the column
    strategy is w scaled to sum 1 and the row strategy the multipliers of the row constraints.
    """
    rows, columns = len(payoffs), len(payoffs[0])
    shift = 1 - min(map(min, payoffs))
    # Tableau rows: one per payoff row, [w_1..w_n | slack_1..slack_m | right-hand side].
    tableau = [
        [Fraction(a + shift) for a in row] + [Fraction(int(i == k)) for k in range(rows)] + [Fraction(1)]
        for i, row in enumerate(payoffs)
    ]
    costs = [Fraction(-1)] * columns + [Fraction(0)] * (rows + 1)  # reduced costs; last = -objective
    basis = [columns + i for i in range(rows)]
    while True:
        entering = next((c for c, cost in enumerate(costs[:-1]) if cost < 0), None)
        if entering is None:
            break
        candidates = [(row[-1] / row[entering], basis[i], i) for i, row in enumerate(tableau) if row[entering] > 0]
        _, _, leaving = min(candidates)  # bounded: the program's optimum is finite
        pivot_row = tableau[leaving]
        pivot = pivot_row[entering]
        pivot_row[:] = [a / pivot for a in pivot_row]
        for i, row in enumerate(tableau):
            if i != leaving and row[entering]:
                factor = row[entering]
                row[:] = [a - factor * b for a, b in zip(row, pivot_row)]
        factor = costs[entering]
        costs[:] = [a - factor * b for a, b in zip(costs, pivot_row)]
        basis[leaving] = entering
    total = costs[-1]  # sum(w) at the optimum, equal to sum of the multipliers
    w = [Fraction(0)] * columns
    for i, variable in enumerate(basis):
        if variable < columns:
            w[variable] = tableau[i][-1]
    y = tuple(weight / total for weight in w)
    x = tuple(cost / total for cost in costs[columns : columns + rows])
    value = certified_value(payoffs, x, y)
    if value is None:  # cannot happen for a correct simplex: refuse rather than answer unproved
        raise ArithmeticError("the exact simplex method returned strategies that are not optimal")
    return value, x, y
