"""The picture of a 2 x 2 bimatrix game: each player's best responses, and where they meet.

The row player plays R1 with probability p, the column player C1 with probability q. Against
each q the row player's best p is 1 where R1 pays more, 0 where R2 does, and every p where they
pay the same: a line across the unit square from q = 0 to q = 1, with a jump where the row
player is indifferent. The column player's best q against each p is drawn the same way. The
points on both lines are exactly the equilibria (drawn as dots, each labelled). A player who is
indifferent at every point of the square is drawn as the whole square, shaded.

Every corner is computed exactly, and every label is one the picture writes itself: numbers and
the names R1, C1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from xml.sax.saxutils import escape

from zerosum.show.matrix import number_text
from zerosum.theory.bimatrix import Equilibrium, vertex_enumeration
from zerosum.theory.payoffs import Bimatrix, Number

WIDTH, HEIGHT = 560, 340
LEFT, TOP, SIDE = 60, 30, 260  # the square's corner and side, in pixels
ROW_COLOUR, COLUMN_COLOUR, EQUILIBRIUM_COLOUR = "#1f4e8c", "#2e8b57", "#c0392b"

Steps = tuple[tuple[Number, Number], ...] | None
"""A best-response line as its corners `(p, q)` from one edge of the square to the other, or
None when the player is indifferent everywhere (every point is a best response)."""


@dataclass(frozen=True)
class BestResponses:
    """The row player's best responses `row` (p against each q), the column player's `column`
    (q against each p), and the equilibria `(p, q)` where they meet."""

    row: Steps
    column: Steps
    equilibria: tuple[tuple[Number, Number], ...]


def best_responses(
    game: Bimatrix, equilibria: Sequence[Equilibrium] | None = None
) -> BestResponses:
    """The best responses of a 2 x 2 game, and its equilibria (its extreme ones in a degenerate
    game: vertex enumeration's, unless given); ValueError, in a sentence, for another shape."""
    if game.shape != (2, 2):
        rows, columns = game.shape
        raise ValueError(
            f"the best-response picture is drawn for 2 x 2 games: this one is {rows} x {columns}"
        )
    (a11, a12), (a21, a22) = game.row_payoffs.rows
    (b11, b12), (b21, b22) = game.column_payoffs.rows
    if equilibria is None:
        equilibria = vertex_enumeration(game).equilibria
    # R1 minus R2 against q = 0 and q = 1; C1 minus C2 against p = 0 and p = 1.
    row = _steps(a12 - a22, a11 - a21)
    column = _steps(b21 - b22, b11 - b12)
    return BestResponses(  # `_steps` gives (the other's probability, the best one)
        row=None if row is None else tuple((p, q) for q, p in row),
        column=column,
        equilibria=tuple((e.row_strategy[0], e.column_strategy[0]) for e in equilibria),
    )


def _steps(at_0: Number, at_1: Number) -> Steps:
    """The best response of a player whose first strategy beats the second by `at_0` when the
    other plays its first with probability 0, by `at_1` at 1 (linear between), as corners
    (the other's probability, the best probability of the first strategy)."""
    if at_0 == 0 and at_1 == 0:
        return None
    below = 1 if at_0 > 0 else 0  # the best answer near 0 (where at_0 is not 0)
    above = 1 if at_1 > 0 else 0
    if at_0 == 0:
        return ((0, 1 - above), (0, above), (1, above))
    if at_1 == 0:
        return ((0, below), (1, below), (1, 1 - below))
    if below == above:
        return ((0, below), (1, below))
    cross = _plain(Fraction(at_0) / (Fraction(at_0) - Fraction(at_1)))
    return ((0, below), (cross, below), (cross, above), (1, above))


def _plain(x: Fraction) -> Number:
    return x.numerator if x.denominator == 1 else x


def best_responses_svg(shape: BestResponses) -> str:
    """The picture as an SVG element: the square, both lines, the equilibria marked."""

    def x(p: Number) -> float:
        return LEFT + SIDE * float(p)

    def y(q: Number) -> float:
        return TOP + SIDE * (1 - float(q))

    label = f"{len(shape.equilibria)} equilibri{'um' if len(shape.equilibria) == 1 else 'a'}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="best-responses" width="{WIDTH}"'
        f' height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img"'
        f' aria-label="best responses: {label}">',
        f'<rect class="square" x="{LEFT}" y="{TOP}" width="{SIDE}" height="{SIDE}" fill="none"'
        ' stroke="#555" stroke-width="1"/>',
        '<g class="ticks" font-size="12" fill="#333">',
        f'<text x="{LEFT}" y="{TOP + SIDE + 16}" text-anchor="middle">0</text>',
        f'<text x="{LEFT + SIDE}" y="{TOP + SIDE + 16}" text-anchor="middle">1</text>',
        f'<text x="{LEFT - 6}" y="{TOP + SIDE + 4}" text-anchor="end">0</text>',
        f'<text x="{LEFT - 6}" y="{TOP + 4}" text-anchor="end">1</text>',
        f'<text x="{LEFT + SIDE / 2}" y="{HEIGHT - 8}" text-anchor="middle">'
        "p: the probability of R1</text>",
        f'<text x="{LEFT - 24}" y="{TOP + SIDE / 2}" text-anchor="middle"'
        f' transform="rotate(-90 {LEFT - 24} {TOP + SIDE / 2})">q: the probability of C1</text>',
        "</g>",
    ]
    for name, steps, colour, width in (
        ("row", shape.row, ROW_COLOUR, 5),
        ("column", shape.column, COLUMN_COLOUR, 3),
    ):
        if steps is None:  # indifferent everywhere: the whole square
            parts.append(
                f'<rect class="{name}-best" x="{LEFT}" y="{TOP}" width="{SIDE}" height="{SIDE}"'
                f' fill="{colour}" fill-opacity="0.15"/>'
            )
            continue
        points = " ".join(f"{x(p):.1f},{y(q):.1f}" for p, q in steps)
        parts.append(
            f'<polyline class="{name}-best" points="{points}" fill="none" stroke="{colour}"'
            f' stroke-width="{width}" stroke-linejoin="round" stroke-opacity="0.85"/>'
        )
    legend_x = LEFT + SIDE + 24
    parts.append(
        f'<g class="legend" font-size="12"><text x="{legend_x}" y="{TOP + 12}"'
        f' fill="{ROW_COLOUR}">row player\'s best p</text>'
        f'<text x="{legend_x}" y="{TOP + 30}" fill="{COLUMN_COLOUR}">column player\'s best'
        " q</text></g>"
    )
    for k, (p, q) in enumerate(shape.equilibria):
        text = f"p = {number_text(p)}, q = {number_text(q)}"
        parts.append(
            f'<circle class="equilibrium" cx="{x(p):.1f}" cy="{y(q):.1f}" r="6"'
            f' fill="{EQUILIBRIUM_COLOUR}"/>'
            f'<text class="equilibrium-label" x="{legend_x}" y="{TOP + 60 + 18 * k}"'
            f' font-size="12" fill="{EQUILIBRIUM_COLOUR}">{escape(text)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
