"""The matrix page's answer: a payoff matrix typed on the page, solved as `zerosum matrix` does.

The text is read by the command's own parser under the command's limits, so the page accepts
what the command accepts and refuses it with the same message.
"""

from __future__ import annotations

from typing import Any

from zerosum.limits import NO_LIMIT, one_line
from zerosum.show.bimatrix import bimatrix_report, dominance_report, pair_texts, solve_game
from zerosum.show.matrix import TABLE_COLUMNS, TABLE_ROWS, matrix_report, number_text
from zerosum.theory.matrix import eliminate_dominated, pure_values, solve
from zerosum.theory.payoffs import Bimatrix, parse_payoffs
from zerosum.web.best_response import best_responses, best_responses_svg
from zerosum.web.envelope import best_text, envelope, envelope_svg

PICTURE_NOTES = {
    "row": (
        "Each line is what the row player expects against one column when playing R1 with"
        " probability p; the column player holds the row player to the lowest line (the bold"
        " lower envelope), whose highest point is the row player's best p and the value."
    ),
    "column": (
        "Each line is what the row player expects from one row when the column player plays"
        " C1 with probability q; the row player answers with the highest line (the bold upper"
        " envelope), whose lowest point is the column player's best q and the value."
    ),
}
"""What the picture shows, for a game with two rows and for one with two columns."""


def solved_matrix(text: str) -> dict[str, Any]:
    """The page's JSON for the matrix `text` ("3 -1; -2 4"), values for the row player.

    The object of `zerosum matrix --json` (lower and upper values, saddle points, value and
    strategies; `exact` true when proven exact, and then the exact ones as strings under
    "value_exact", "row_strategy_exact" and "column_strategy_exact"), with the shape, the
    cells and the row minima and column maxima as text (null for a matrix larger than the
    command's table: the page draws what the command draws), and the steps of iterated
    elimination of strictly dominated strategies; and for a game with two rows (or two
    columns) the picture of its envelope as SVG (`zerosum.web.envelope`), where it peaks and
    what it shows, or, for another shape, null and why. The dominance steps are null, and
    `dominance_note` says why, past the library's `DOMINANCE_COMPARISONS`. ValueError, with
    the parser's message, for a text that is not a matrix or is over the command's limits.

    A text of payoff pairs ("3,1 0,0; 0,0 1,3") is a bimatrix game: its answer is
    `bimatrix_answer`'s.
    """
    try:
        matrix = parse_payoffs(text)
        if isinstance(matrix, Bimatrix):
            return bimatrix_answer(matrix)
    except ValueError as error:  # the page has no --no-limit: the server keeps the limits
        raise ValueError(str(error).removesuffix(f"; pass {NO_LIMIT} to try anyway")) from None
    pure = pure_values(matrix)
    report = matrix_report(pure, solve(matrix))
    rows, columns = matrix.shape
    table = rows <= TABLE_ROWS and columns <= TABLE_COLUMNS  # as the command draws it
    report["shape"] = [rows, columns]
    report["cells"] = [[number_text(x) for x in row] for row in matrix.rows] if table else None
    report["row_minima"] = [number_text(low) for low in pure.row_minima] if table else None
    report["column_maxima"] = [number_text(high) for high in pure.column_maxima] if table else None
    try:
        shape = envelope(matrix)
        report["picture"] = envelope_svg(shape)
        report["picture_best"] = best_text(shape)
        report["picture_note"] = PICTURE_NOTES[shape.side]
    except ValueError as why:  # not 2 x n nor n x 2: no picture, and the reason
        report["picture"] = report["picture_best"] = None
        report["picture_note"] = str(why)
    try:
        reduction = eliminate_dominated(matrix)
        report["dominance"] = dominance_report(
            reduction.eliminations, reduction.rows, reduction.columns
        )
        report["dominance_note"] = None
    except ValueError as why:  # past its limit: the value stands, the steps are not shown
        report["dominance"] = None
        report["dominance_note"] = one_line(
            str(why).removesuffix(f"; pass {NO_LIMIT} to try anyway")
        )
    return report


BEST_RESPONSE_NOTE = (
    "The blue line is the row player's best responses: the probability p of R1 that pays most"
    " against each q. The green line is the column player's: the probability q of C1 that pays"
    " most against each p. Where they meet is an equilibrium."
)


def bimatrix_answer(game: Bimatrix) -> dict[str, Any]:
    """The page's JSON for a bimatrix game: `zerosum matrix --all --lemke-howson --json`'s
    object (every extreme equilibrium, the label each Lemke–Howson start reaches, the pure
    equilibria and dominance), with the shape, the cells as typed ("3,1", null for a matrix
    larger than the command's table) and, for a 2 x 2 game, the picture of both players' best
    responses as SVG (`zerosum.web.best_response`), else null and why."""
    solved = solve_game(game, every=True, each_label=True)
    report = bimatrix_report(solved)
    rows, columns = game.shape
    table = rows <= TABLE_ROWS and columns <= TABLE_COLUMNS
    report["shape"] = [rows, columns]
    report["cells"] = pair_texts(game) if table else None
    try:
        report["picture"] = best_responses_svg(best_responses(game, solved.equilibria()))
        report["picture_note"] = BEST_RESPONSE_NOTE
    except ValueError as why:
        report["picture"] = None
        report["picture_note"] = str(why)
    return report
