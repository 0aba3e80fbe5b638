"""The minimax theorem's linear program, solved once by SciPy's HiGHS for both players.

The row player chooses x >= 0 with sum(x) = 1 to maximise v subject to (x A)_j >= v for every
column j. The multipliers of those column constraints form an optimal strategy of the column
player (LP duality is von Neumann's theorem), so one solve gives both strategies: peers that
solve the column player's program separately do the work twice.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog


@dataclass(frozen=True)
class FloatSolution:
    """The value for the row player and both optimal strategies, in floats."""

    value: float
    row_strategy: tuple[float, ...]
    column_strategy: tuple[float, ...]


def solve(payoffs: np.ndarray) -> FloatSolution:
    """The value and optimal strategies of the game with row player's payoffs `payoffs`.

    ArithmeticError when HiGHS fails, which only numerical trouble can cause (every matrix game
    has a solution): entries of wildly different magnitudes, for instance.
    """
    rows, columns = payoffs.shape
    scale = float(np.abs(payoffs).max()) or 1.0  # HiGHS's tolerances are absolute: work in [-1, 1]
    objective = np.zeros(rows + 1)
    objective[-1] = -1.0  # maximise v: minimise -v
    column_constraints = np.hstack((-payoffs.T / scale, np.ones((columns, 1))))  # v - (x A)_j <= 0
    total = np.ones((1, rows + 1))
    total[0, -1] = 0.0
    result = linprog(
        objective,
        A_ub=column_constraints,
        b_ub=np.zeros(columns),
        A_eq=total,
        b_eq=[1.0],
        bounds=[(0, None)] * rows + [(None, None)],
        method="highs",
        # HiGHS's tightest tolerances: the default 1e-7 would show in the value on near-ties.
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    # The program is bounded and feasible: only a numerical failure leaves it without a solution.
    if result.status != 0 or result.x is None:
        raise ArithmeticError(f"HiGHS failed on the matrix game: {result.message}")
    x = _distribution(result.x[:-1])
    y = _distribution(-result.ineqlin.marginals)
    # The value as the pair's payoff x A y: within the two strategies' guarantees, and closer to
    # the true value than the program's objective, which carries HiGHS's tolerance.
    return FloatSolution(float(x @ payoffs @ y), tuple(x.tolist()), tuple(y.tolist()))


def _distribution(weights: np.ndarray) -> np.ndarray:
    """`weights` with rounding noise below 0 cut off, scaled to sum to 1."""
    weights = np.clip(weights, 0.0, None)
    return weights / weights.sum()
