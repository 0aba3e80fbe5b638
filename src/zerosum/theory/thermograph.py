"""Thermographs of partizan games: the mean and the temperature, exact.

Cooling a game by t taxes every move by t; the thermograph draws, against t, the value Left
gets moving first (the left wall) and the value Right gets moving first (the right wall) in
the cooled game, from t = -1 up. The walls are built from the options' (Berlekamp; Conway,
On Numbers and Games, ch. 6): the left scaffold is L(t) = max over G^L of RW(G^L)(t) - t, the
right scaffold R(t) = min over G^R of LW(G^R)(t) + t; they meet at the temperature T, and from
there up both walls are one vertical mast at the mean m. A number x has the mast at x all the
way down; its temperature is -1 for an integer and -1/2^k for m/2^k (Siegel's convention).

Temperatures and means are exact `Fraction`s: the walls are piecewise linear with slopes 0 and
±1 in every short game, kept as their corners. Values are as `Value`: positive for Left.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from zerosum.theory.partizan import Value, simplest_between

Point = tuple[Fraction, Fraction]

BOTTOM = Fraction(-1)
"""The lowest temperature a thermograph is drawn from."""


@dataclass(frozen=True)
class Wall:
    """A piecewise linear function of the temperature t >= -1: its corners `(t, value)`, the
    first at t = -1, and its `slope` after the last."""

    corners: tuple[Point, ...]
    slope: Fraction

    def at(self, t: Fraction) -> Fraction:
        """The wall's value at temperature `t`."""
        previous = self.corners[0]
        for corner in self.corners[1:]:
            if t <= corner[0]:
                (t0, v0), (t1, v1) = previous, corner
                return v0 + (v1 - v0) * (t - t0) / (t1 - t0)
            previous = corner
        return previous[1] + self.slope * (t - previous[0])

    def tilted(self, by: int) -> Wall:
        """This wall plus `by` times t."""
        return Wall(tuple((t, v + by * t) for t, v in self.corners), self.slope + by)

    def cut(self, at: Fraction) -> Wall:
        """The wall up to `at`, vertical (constant) above it."""
        kept = [corner for corner in self.corners if corner[0] < at]
        return _simplified(Wall((*kept, (at, self.at(at))), Fraction(0)))


def _simplified(wall: Wall) -> Wall:
    """The same wall without corners that lie on a straight line."""
    corners = list(wall.corners)
    kept = [corners[0]]
    for i in range(1, len(corners)):
        t, v = corners[i]
        if t == kept[-1][0]:
            continue
        if i + 1 < len(corners):
            after = corners[i + 1]
            incoming = (v - kept[-1][1]) / (t - kept[-1][0])
            outgoing = (after[1] - v) / (after[0] - t)
        else:
            incoming = (v - kept[-1][1]) / (t - kept[-1][0])
            outgoing = wall.slope
        if incoming != outgoing:
            kept.append((t, v))
    return Wall(tuple(kept), wall.slope)


def _envelope(walls: list[Wall], upper: bool) -> Wall:
    """The pointwise maximum (`upper`) or minimum of walls."""
    result = walls[0]
    for wall in walls[1:]:
        result = _pair(result, wall, upper)
    return result


def _pair(f: Wall, g: Wall, upper: bool) -> Wall:
    ts = sorted({t for t, _ in f.corners} | {t for t, _ in g.corners})
    crossings = []
    for a, b in zip(ts, ts[1:], strict=False):
        da, db = f.at(a) - g.at(a), f.at(b) - g.at(b)
        if da * db < 0:
            crossings.append(a + (b - a) * da / (da - db))
    last = ts[-1]
    d = f.at(last) - g.at(last)
    if f.slope != g.slope:
        cross = last - d / (f.slope - g.slope)
        if cross > last:
            crossings.append(cross)
    better = max if upper else min
    corners = tuple((t, better(f.at(t), g.at(t))) for t in sorted({*ts, *crossings}))
    end = max(ts[-1], *crossings) if crossings else ts[-1]
    fe, ge = f.at(end), g.at(end)
    higher = f.slope if (fe > ge) == upper else g.slope
    slope = higher if fe != ge else better(f.slope, g.slope)
    return _simplified(Wall(corners, slope))


@dataclass(frozen=True)
class Thermograph:
    """A game's thermograph: its walls (Left's value moving first in G cooled by t, and
    Right's), its mean (the mast's value) and its temperature (where the mast starts)."""

    left_wall: Wall
    right_wall: Wall
    mean: Fraction
    temperature: Fraction


_FOUND: dict[int, Thermograph] = {}


def thermograph(g: Value) -> Thermograph:
    """The thermograph of `g` (memoised: values are interned)."""
    found = _FOUND.get(id(g))
    if found is None:
        found = _FOUND[id(g)] = _thermograph(g)
    return found


def _thermograph(g: Value) -> Thermograph:
    if g.number is not None:
        x = g.number
        mast = Wall(((BOTTOM, x),), Fraction(0))
        return Thermograph(mast, mast, x, Fraction(-1, x.denominator))
    left = _envelope([thermograph(o).right_wall.tilted(-1) for o in g.left], upper=True)
    right = _envelope([thermograph(o).left_wall.tilted(+1) for o in g.right], upper=False)
    bends = sorted({t for t, _ in left.corners} | {t for t, _ in right.corners})
    temperature = _meeting(left, right, bends)
    if temperature is None:  # the scaffolds never cross above -1: a number, infinitesimally
        low, high = left.at(BOTTOM), right.at(BOTTOM)
        mean = simplest_between(low, high) if low < high else low
        mast = Wall(((BOTTOM, mean),), Fraction(0))
        return Thermograph(mast, mast, mean, BOTTOM)
    mean = left.at(temperature)
    return Thermograph(left.cut(temperature), right.cut(temperature), mean, temperature)


def _meeting(left: Wall, right: Wall, ts: list[Fraction]) -> Fraction | None:
    """The least t >= -1 where the left scaffold is no more than the right (L - R only falls);
    None when L < R already at -1."""
    if left.at(BOTTOM) < right.at(BOTTOM):
        return None
    previous = BOTTOM
    for t in [*ts[1:], None]:
        d0 = left.at(previous) - right.at(previous)
        if d0 <= 0:
            return previous
        if t is None:  # the last ray: L - R falls at the slopes' difference
            fall = left.slope - right.slope
            assert fall < 0, "a hot game's scaffolds must meet"
            return previous - d0 / fall
        d1 = left.at(t) - right.at(t)
        if d1 <= 0:
            return previous + (t - previous) * d0 / (d0 - d1)
        previous = t
    return None


def mean(g: Value) -> Fraction:
    """The mean value of `g`: what it is worth, on average, per copy in a large sum."""
    return thermograph(g).mean


def temperature(g: Value) -> Fraction:
    """The temperature of `g`: how much a move in it is worth (negative for numbers, 0 for
    infinitesimals and nimbers)."""
    return thermograph(g).temperature
