"""A thermograph drawn as a standalone SVG document.

The field's picture: the temperature t rises up the page from -1; values run the other way
from the usual, positive (good for Left) to the left, so that Left's wall (blue) is on the
left and Right's (red) on the right. The walls join at the temperature and go up as one mast
(black) at the mean. The `<polyline>`s have the classes `left`, `right` and `mast`.
"""

from __future__ import annotations

from fractions import Fraction
from xml.sax.saxutils import escape

from zerosum.theory.thermograph import BOTTOM, Thermograph, Wall

SCALE = 48  # pixels a unit of value or of temperature
MARGIN = 40

STYLE = """
text { font-family: 'DejaVu Sans', Verdana, sans-serif; font-size: 12px; fill: #222; }
.axis { stroke: #999; stroke-width: 1; }
.left { stroke: #1f4e8c; stroke-width: 3; fill: none; }
.right { stroke: #c0392b; stroke-width: 3; fill: none; }
.mast { stroke: #222; stroke-width: 3; fill: none; }
"""


def _points(wall: Wall, top: Fraction) -> list[tuple[Fraction, Fraction]]:
    """The wall's corners from -1 up to the temperature `top`."""
    corners = [(t, v) for t, v in wall.corners if t <= top]
    if corners[-1][0] < top:
        corners.append((top, wall.at(top)))
    return corners


def thermograph_svg(drawn: Thermograph, title: str) -> str:
    """The thermograph as SVG, captioned with `title`, its mean and its temperature; the values
    at the foot of the picture, integers, marked."""
    hot = max(drawn.temperature, Fraction(0))
    top = hot + 1
    left_points = _points(drawn.left_wall, drawn.temperature)
    right_points = _points(drawn.right_wall, drawn.temperature)
    values = [v for _, v in left_points + right_points] + [drawn.mean]
    highest, lowest = max(values), min(values)
    width = max(float(highest - lowest) * SCALE + 2 * MARGIN, 7.5 * len(title) + 2 * MARGIN, 320)
    height = float(top - BOTTOM) * SCALE + 2 * MARGIN + 40

    def x(value: Fraction) -> float:  # positive values to the left
        return MARGIN + float(highest - value) * SCALE

    def y(t: Fraction) -> float:
        return MARGIN + float(top - t) * SCALE

    def line(points: list[tuple[Fraction, Fraction]], kind: str) -> str:
        path = " ".join(f"{x(v):.1f},{y(t):.1f}" for t, v in points)
        return f'<polyline class="{kind}" points="{path}"/>'

    ticks = [
        f'<text x="{x(Fraction(v)):.1f}" y="{y(BOTTOM) + 18:.1f}" text-anchor="middle">{v}</text>'
        for v in range(int(lowest.__ceil__()), int(highest.__floor__()) + 1)
    ]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}"'
        f' viewBox="0 0 {width:.0f} {height:.0f}">',
        f"<style>{STYLE}</style>",
        f'<line class="axis" x1="0" y1="{y(Fraction(0)):.1f}" x2="{width:.0f}"'
        f' y2="{y(Fraction(0)):.1f}"/>',
        f'<text x="4" y="{y(Fraction(0)) - 4:.1f}">t = 0</text>',
        *ticks,
        line(left_points, "left"),
        line(right_points, "right"),
        line([(drawn.temperature, drawn.mean), (top, drawn.mean)], "mast"),
        f'<text x="{MARGIN}" y="{height - 28:.0f}">{escape(title)}</text>',
        f'<text x="{MARGIN}" y="{height - 10:.0f}">mean {drawn.mean}, temperature'
        f" {drawn.temperature}</text>",
        "</svg>",
    ]
    return "\n".join(parts) + "\n"
