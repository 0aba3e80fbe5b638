"""`zerosum matrix "3 -1; -2 4"`: solve a two-person zero-sum matrix game, exactly when it can."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from zerosum.cli.common import add_no_limit, print_json

if TYPE_CHECKING:  # the solvers import numpy and SciPy: only `zerosum matrix` should wait for them
    from zerosum.theory.payoffs import PayoffMatrix


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from zerosum.theory.payoffs import CELL_DIGITS, FILE_BYTES, MATRIX_CELLS
    from zerosum.theory.rational import EXACT_LIMIT, EXACT_SECONDS

    parser.description = (
        "Solve the zero-sum game whose payoff matrix (the row player's wins) is given: lower"
        " and upper value, saddle points, optimal mixed strategies of both players and the"
        " value, exact in fractions when the entries are rational, and a check of the answer."
        " A cell is an integer, a decimal or a fraction (3, -0.25, 1e-9, -3/7), read exactly,"
        f" of at most {CELL_DIGITS.most:,} digits written out in full; a matrix has at most"
        f" {MATRIX_CELLS.most:,} cells and a file at most {FILE_BYTES.most // 2**20} MB."
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
        help="exact fractions at any size within the exact solver's limit, an estimated"
        f" {EXACT_SECONDS.most} seconds (a 880 x 880 matrix of small integers, 380 x 380 of 20"
        " digits; 150 x 150 where the exact simplex method must take over); by default exact up"
        f" to {EXACT_LIMIT} strategies a side within it, or whenever a cell does not fit a float",
    )
    add_no_limit(parser, "the matrix's cells and the file's size, the exact solver's work")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from zerosum.show.matrix import describe, matrix_report
    from zerosum.theory.matrix import pure_values, solve

    matrix = _read(args)
    pure = pure_values(matrix)
    solution = solve(matrix, exact=True if args.exact else None, no_limit=args.no_limit)
    if args.json:
        print_json(matrix_report(pure, solution))
    else:
        print(describe(matrix, pure, solution))
    return 0


def _read(args: argparse.Namespace) -> PayoffMatrix:
    from zerosum.theory.payoffs import parse_matrix, read_csv

    if (args.matrix is None) == (args.csv is None):
        raise ValueError('give the matrix either as text ("3 -1; -2 4") or with --csv FILE')
    if args.csv is not None:
        return read_csv(args.csv, no_limit=args.no_limit)
    return parse_matrix(args.matrix, no_limit=args.no_limit)
