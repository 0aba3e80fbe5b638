"""Exact results that need no tree search: matrix games (von Neumann's minimax theorem)."""

from zerosum.theory.matrix import (
    ClosedForm,
    Elimination,
    Exploitability,
    PureValues,
    Reduction,
    Solution,
    closed_form,
    eliminate_dominated,
    exploitability,
    pure_values,
    solve,
)
from zerosum.theory.payoffs import PayoffMatrix, parse_matrix, payoff_matrix, read_csv

__all__ = [
    "ClosedForm",
    "Elimination",
    "Exploitability",
    "PayoffMatrix",
    "PureValues",
    "Reduction",
    "Solution",
    "closed_form",
    "eliminate_dominated",
    "exploitability",
    "parse_matrix",
    "payoff_matrix",
    "pure_values",
    "read_csv",
    "solve",
]
