"""`zerosum matrix "3 -1; -2 4"`: solve a two-person zero-sum matrix game, exactly when it can;
`zerosum matrix "3,1 0,0; 0,0 1,3"`: the equilibria of a bimatrix game, exactly."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from zerosum.cli.common import add_no_limit, print_json

if TYPE_CHECKING:  # the solvers import numpy and SciPy: only `zerosum matrix` should wait for them
    from zerosum.theory.payoffs import Bimatrix, Payoffs


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
        " A cell written as a pair, the row player's payoff and the column player's joined by a"
        ' comma (3,1; in a CSV file in quotes, "3,1"), makes a bimatrix game: its pure'
        " equilibria, dominated strategies and one equilibrium in fractions by Lemke-Howson,"
        " each checked so that no player gains by deviating."
    )
    parser.add_argument(
        "matrix",
        nargs="?",
        help='the matrix: rows separated by ";", cells by spaces, e.g. "3 -1; -2 4"; a cell may'
        ' be a pair of payoffs (a bimatrix game), e.g. "3,1 0,0; 0,0 1,3"',
    )
    parser.add_argument(
        "--csv",
        metavar="FILE",
        help="read the matrix from a CSV file instead (cells separated by commas, a pair in"
        ' quotes: "3,1")',
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="a bimatrix game: every equilibrium (every extreme one, in a degenerate game), by"
        " vertex enumeration",
    )
    parser.add_argument(
        "--lemke-howson",
        action="store_true",
        help="a bimatrix game: the equilibrium Lemke-Howson reaches from each starting label",
    )
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
    from zerosum.theory.payoffs import Bimatrix

    matrix = _read(args)
    if isinstance(matrix, Bimatrix):
        return _run_bimatrix(args, matrix)
    if args.all or args.lemke_howson:
        raise ValueError(
            "--all and --lemke-howson are for bimatrix games (cells that are pairs, 3,1): a"
            " zero-sum game has one value, which the command gives"
        )
    pure = pure_values(matrix)
    solution = solve(matrix, exact=True if args.exact else None, no_limit=args.no_limit)
    if args.json:
        print_json(matrix_report(pure, solution))
    else:
        print(describe(matrix, pure, solution))
    return 0


def _run_bimatrix(args: argparse.Namespace, game: Bimatrix) -> int:
    from zerosum.show.bimatrix import bimatrix_report, describe_bimatrix, solve_game

    solved = solve_game(game, every=args.all, each_label=args.lemke_howson, lifted=args.no_limit)
    if args.json:
        print_json(bimatrix_report(solved))
    else:
        print(describe_bimatrix(solved))
    return 0


def _read(args: argparse.Namespace) -> Payoffs:
    from zerosum.theory.payoffs import parse_payoffs, read_payoffs

    if (args.matrix is None) == (args.csv is None):
        raise ValueError('give the matrix either as text ("3 -1; -2 4") or with --csv FILE')
    if args.csv is not None:
        return read_payoffs(args.csv, no_limit=args.no_limit)
    return parse_payoffs(args.matrix, no_limit=args.no_limit)
