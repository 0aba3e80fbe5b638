"""The picture of a 2 x n matrix game: the row player's lines and their lower envelope.

Against each column j, a row player who plays the first row with probability p expects
`p * a[0][j] + (1 - p) * a[1][j]`: a line over p in [0, 1]. The column player, answering
well, holds the row player to the lowest of these lines, the lower envelope, and the row
player's best p is the envelope's highest point: the maximin mixed strategy and the value.

An n x 2 game is drawn from the column player's side: q is the probability of the first
column, each line what the row player expects from one row, the upper envelope what the
column player concedes at most, its lowest point the column player's best q and the value.

Every number is computed exactly when the matrix is exact (integers and fractions), and every
label is one the picture writes itself: numbers, and the names R1.., C1...
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from xml.sax.saxutils import escape

from zerosum.show.matrix import TABLE_COLUMNS, number_text
from zerosum.theory.payoffs import Number, PayoffMatrix

MOST_LINES = TABLE_COLUMNS
"""The most lines a picture draws: as many as the columns of the command's table."""

WIDTH, HEIGHT = 560, 340
LEFT, RIGHT, TOP, BOTTOM = 60, 60, 30, 50  # margins around the plot


@dataclass(frozen=True)
class Envelope:
    """The lines of one player's mixed strategies and their envelope, values for the row player.

    `side` is "row" (p, the probability of R1, lines against each column, the lower envelope,
    its highest point) or "column" (q, the probability of C1, lines for each row, the upper
    envelope, its lowest point). `lines[k]` is `(name, at_0, at_1)`: the line's value at 0 and
    at 1. `corners` are the envelope's points `(p, value)` from 0 to 1; `best` the points
    where it reaches the value (one, or the two ends of a flat stretch), `value` the value.
    """

    side: str
    lines: tuple[tuple[str, Number, Number], ...]
    corners: tuple[tuple[Number, Number], ...]
    best: tuple[tuple[Number, Number], ...]
    value: Number


def envelope(matrix: PayoffMatrix) -> Envelope:
    """The envelope of a game with two rows (or else two columns); ValueError, in a sentence,
    for any other shape or more than `MOST_LINES` lines."""
    rows, columns = matrix.shape
    if rows == 2:
        side, names = "row", [f"C{j + 1}" for j in range(columns)]
        pairs = list(zip(matrix.rows[1], matrix.rows[0], strict=True))  # (at p=0, at p=1)
    elif columns == 2:
        side, names = "column", [f"R{i + 1}" for i in range(rows)]
        pairs = [(row[1], row[0]) for row in matrix.rows]  # (at q=0, at q=1)
    else:
        raise ValueError(
            f"the picture is drawn for games with 2 rows or 2 columns: this one is {rows} x"
            f" {columns}"
        )
    if len(pairs) > MOST_LINES:
        raise ValueError(
            f"the picture draws at most {MOST_LINES} lines: this game has {len(pairs)}"
        )
    exact = matrix.exact
    one: Number = 1 if exact else 1.0

    def at(pair: tuple[Number, Number], p: Number) -> Number:
        return pair[0] + (pair[1] - pair[0]) * p

    # The envelope bends only where two lines cross: its corners are among 0, 1 and those.
    points: set[Number] = {0 * one, one}
    for k, first in enumerate(pairs):
        for second in pairs[k + 1 :]:
            slope = (first[1] - first[0]) - (second[1] - second[0])
            if slope != 0:
                p = (second[0] - first[0]) / (Fraction(slope) if exact else slope)
                if 0 <= p <= 1:
                    points.add(p)
    pick = min if side == "row" else max  # what the other player holds the line to
    corners = [(p, pick(at(pair, p) for pair in pairs)) for p in sorted(points)]
    value = (max if side == "row" else min)(v for _, v in corners)
    reached = [(p, v) for p, v in corners if v == value]
    best = (reached[0],) if len(reached) == 1 else (reached[0], reached[-1])
    return Envelope(
        side,
        tuple((name, a0, a1) for name, (a0, a1) in zip(names, pairs, strict=True)),
        tuple((_exact(p), _exact(v)) for p, v in corners),
        tuple((_exact(p), _exact(v)) for p, v in best),
        _exact(value),
    )


def _exact(x: Number) -> Number:
    """A fraction that is a whole number as an int (written 3, not 3/1)."""
    return x.numerator if isinstance(x, Fraction) and x.denominator == 1 else x


def best_text(shape: Envelope) -> str:
    """Where the envelope reaches the value: "p = 3/5, value 1" (q for the column player)."""
    name = "p" if shape.side == "row" else "q"
    where = " to ".join(number_text(p) for p, _ in shape.best)
    return f"{name} = {where}, value {number_text(shape.value)}"


def envelope_svg(shape: Envelope) -> str:
    """The picture as an SVG element: the lines, the envelope in bold, its best point marked."""
    values = [v for _, a0, a1 in shape.lines for v in (a0, a1)]
    low, high = min(values), max(values)
    span = (high - low) or 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(p: Number) -> float:
        return LEFT + plot_w * float(Fraction(p) if not isinstance(p, float) else p)

    def y(v: Number) -> float:
        share = (v - low) / (Fraction(span) if not isinstance(span, float) else span)
        return TOP + plot_h * (1 - float(share))

    name = "p" if shape.side == "row" else "q"
    first = "R1" if shape.side == "row" else "C1"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="envelope" width="{WIDTH}"'
        f' height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img"'
        f' aria-label="{escape(best_text(shape))}">',
        '<g class="axes" stroke="#555" stroke-width="1">',
        f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}"/>',
        f'<line x1="{LEFT + plot_w}" y1="{TOP}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}"/>',
        "</g>",
        '<g class="ticks" font-size="12" fill="#333">',
        f'<text x="{LEFT}" y="{TOP + plot_h + 16}" text-anchor="middle">0</text>',
        f'<text x="{LEFT + plot_w}" y="{TOP + plot_h + 16}" text-anchor="middle">1</text>',
        f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 8}" text-anchor="middle">'
        f"{name}: the probability of {first}</text>",
        f'<text x="{LEFT - 6}" y="{y(high) + 4:.1f}" text-anchor="end">'
        f"{escape(number_text(high))}</text>",
        f'<text x="{LEFT - 6}" y="{y(low) + 4:.1f}" text-anchor="end">'
        f"{escape(number_text(low))}</text>",
        "</g>",
    ]
    if low < 0 < high:  # the line of a payoff of 0
        parts.append(
            f'<line class="zero" x1="{LEFT}" y1="{y(0):.1f}" x2="{LEFT + plot_w}"'
            f' y2="{y(0):.1f}" stroke="#bbb" stroke-dasharray="4 3"/>'
            f'<text x="{LEFT - 6}" y="{y(0) + 4:.1f}" text-anchor="end" font-size="12"'
            ' fill="#333">0</text>'
        )
    for line_name, a0, a1 in shape.lines:
        parts.append(
            f'<g class="line"><line x1="{x(0):.1f}" y1="{y(a0):.1f}" x2="{x(1):.1f}"'
            f' y2="{y(a1):.1f}" stroke="#999" stroke-width="1.5"/>'
            f'<text x="{x(1) + 6:.1f}" y="{y(a1) + 4:.1f}" font-size="12" fill="#555">'
            f"{line_name}</text></g>"
        )
    points = " ".join(f"{x(p):.1f},{y(v):.1f}" for p, v in shape.corners)
    parts.append(
        f'<polyline class="envelope-line" points="{points}" fill="none" stroke="#1f4e8c"'
        ' stroke-width="4" stroke-linejoin="round"/>'
    )
    for p, v in shape.best:
        parts.append(
            f'<line class="drop" x1="{x(p):.1f}" y1="{y(v):.1f}" x2="{x(p):.1f}"'
            f' y2="{TOP + plot_h}" stroke="#c0392b" stroke-dasharray="3 3"/>'
            f'<circle class="best" cx="{x(p):.1f}" cy="{y(v):.1f}" r="5" fill="#c0392b"/>'
        )
    p, v = shape.best[0]
    anchor = "start" if x(p) < LEFT + plot_w / 2 else "end"
    shift = 8 if anchor == "start" else -8
    label_y = y(v) - 10 if shape.side == "row" else y(v) + 20
    parts.append(
        f'<text class="best-label" x="{x(p) + shift:.1f}" y="{label_y:.1f}"'
        f' text-anchor="{anchor}" font-size="13" font-weight="bold" fill="#c0392b">'
        f"{escape(best_text(shape))}</text>"
    )
    parts.append("</svg>")
    return "".join(parts)
