"""Values of partizan games in Conway's canonical form: numbers, nimbers, ups, switches, sums.

A partizan game is a pair of sets of games, G = {G^L | G^R}: where Left may move, where Right
may move. Left is the player who moves first in a game's `left_options` (Blue in Hackenbush,
the vertical player in Domineering); positive values favour Left. The player who cannot move
loses (normal play), and every game here is short (finitely many positions, no cycles).

`Value` is a game in its canonical form: no dominated option (a Left option no better for Left
than another) and no reversible one (a Left option G^L with a Right reply G^LR <= G, replaced by
the Left options of G^LR). Conway's theorem makes the canonical form unique, so every `Value`
is kept once (interned): two values are equal exactly when they are the same object, and `==`
is identity. Comparison is Conway's order, G <= H unless some H^R <= G or some G^L >= H, a
partial order: `G.confused_with(H)` says neither G <= H nor G >= H.

- `number(x)`: a dyadic rational (denominator a power of 2; the only numbers of short games).
- `nimber(n)`: *n = {*0, ..., *(n-1) | *0, ..., *(n-1)}; `STAR` is *1.
- `UP` = {0 | *} and `DOWN` = {* | 0}: positive and negative infinitesimals.
- `game(lefts, rights)`: the canonical form of {lefts | rights}.
- `G + H`, `-G`, `G - H`: the disjoint sum, the negative (Left and Right exchanged).
- `G.outcome`: "L" (Left wins whoever starts, G > 0), "R" (G < 0), "P" (the player to move
  loses, G = 0), "N" (the player to move wins, G confused with 0).

Means and temperatures are in `zerosum.theory.thermograph`; text for values in
`value_text` below (reading them: `zerosum.theory.cgt_expressions`).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import cache
from typing import Any

Rational = int | Fraction


class Value:
    """A short partizan game in canonical form, interned: made only by this module's functions.

    `left` and `right` are the canonical Left and Right options; `number` is the game's value
    when it is a number (a `Fraction` with a power of 2 below), else None.
    """

    __slots__ = ("_left", "_right", "number", "_negative", "_birthday", "__weakref__")

    _left: tuple[Value, ...] | None
    _right: tuple[Value, ...] | None
    number: Fraction | None
    _negative: Value | None
    _birthday: int | None

    def __init__(
        self, left: tuple[Value, ...] | None, right: tuple[Value, ...] | None, number: Any
    ) -> None:
        self._left, self._right, self.number = left, right, number
        self._negative = None
        self._birthday = None

    @property
    def left(self) -> tuple[Value, ...]:
        """The canonical Left options (a number's are made when first asked for)."""
        if self._left is None:
            self._left, self._right = _number_options(self.number)
        return self._left

    @property
    def right(self) -> tuple[Value, ...]:
        """The canonical Right options."""
        if self._right is None:
            self._left, self._right = _number_options(self.number)
        return self._right

    @property
    def is_number(self) -> bool:
        return self.number is not None

    @property
    def birthday(self) -> int:
        """The day the game is born: 0 for 0, one more than its options' latest."""
        if self._birthday is None:
            if self.number is not None:
                self._birthday = _number_birthday(self.number)
            else:
                self._birthday = 1 + max(o.birthday for o in (*self.left, *self.right))
        return self._birthday

    # -- order ------------------------------------------------------------------------------
    def __le__(self, other: object) -> bool:
        return less_equal(self, as_value(other))

    def __ge__(self, other: object) -> bool:
        return less_equal(as_value(other), self)

    def __lt__(self, other: object) -> bool:
        other = as_value(other)
        return less_equal(self, other) and self is not other

    def __gt__(self, other: object) -> bool:
        other = as_value(other)
        return less_equal(other, self) and self is not other

    def __eq__(self, other: object) -> bool:
        if isinstance(other, int | Fraction) and not isinstance(other, bool):
            return self.number == other
        return self is other

    def __hash__(self) -> int:
        return id(self)

    def confused_with(self, other: Value | Rational) -> bool:
        """True when neither G <= H nor G >= H (written G || H)."""
        other = as_value(other)
        return not less_equal(self, other) and not less_equal(other, self)

    def relation(self, other: Value | Rational) -> str:
        """How this game compares with `other`: "=", ">", "<" or "||" (confused)."""
        other = as_value(other)
        below, above = less_equal(self, other), less_equal(other, self)
        return "=" if below and above else "<" if below else ">" if above else "||"

    @property
    def outcome(self) -> str:
        """Who wins: "L" (Left, whoever starts), "R" (Right), "P" (the player to move loses),
        "N" (the player to move wins)."""
        return {"=": "P", ">": "L", "<": "R", "||": "N"}[self.relation(ZERO)]

    # -- arithmetic --------------------------------------------------------------------------
    def __neg__(self) -> Value:
        return negative(self)

    def __add__(self, other: object) -> Value:
        if not isinstance(other, Value | int | Fraction):
            return NotImplemented
        return add(self, as_value(other))

    __radd__ = __add__

    def __sub__(self, other: object) -> Value:
        if not isinstance(other, Value | int | Fraction):
            return NotImplemented
        return add(self, negative(as_value(other)))

    def __rsub__(self, other: object) -> Value:
        return add(as_value(other), negative(self))

    def __str__(self) -> str:
        return value_text(self)

    def __repr__(self) -> str:
        return f"Value({str(self)!r})"


# -- making values -----------------------------------------------------------------------------

_INTERNED: dict[tuple[frozenset[int], frozenset[int]], Value] = {}
_NUMBERS: dict[Fraction, Value] = {}


def _intern(left: Iterable[Value], right: Iterable[Value]) -> Value:
    """The one `Value` with these canonical options (which must make a canonical form)."""
    lefts, rights = tuple(left), tuple(right)
    key = (frozenset(map(id, lefts)), frozenset(map(id, rights)))
    found = _INTERNED.get(key)
    if found is None:
        found = _as_number(lefts, rights)
        if found is None:
            found = Value(_ordered(lefts), _ordered(rights), None)
        _INTERNED[key] = found
    return found


def _as_number(lefts: tuple[Value, ...], rights: tuple[Value, ...]) -> Value | None:
    """The number a canonical {lefts | rights} is, when it is one (options numbers, at most one
    a side, Left's below Right's): then it is the simplest number between them."""
    if len(lefts) > 1 or len(rights) > 1:
        return None
    if any(option.number is None for option in (*lefts, *rights)):
        return None
    low = lefts[0].number if lefts else None
    high = rights[0].number if rights else None
    if low is not None and high is not None and low >= high:
        return None
    return number(simplest_between(low, high))


def _ordered(options: tuple[Value, ...]) -> tuple[Value, ...]:
    """Options in a fixed order: the oldest first, then by their text."""
    return tuple(sorted(options, key=lambda o: (o.birthday, str(o))))


def is_dyadic(x: Rational) -> bool:
    """True when `x`'s denominator (in lowest terms) is a power of 2."""
    denominator = Fraction(x).denominator
    return denominator & (denominator - 1) == 0


def number(x: Rational | str) -> Value:
    """The number `x`, a dyadic rational (`3`, `Fraction(-5, 8)`, `"3/4"`); ValueError for a
    number whose denominator is not a power of 2, which no short game equals."""
    value = Fraction(x)
    if not is_dyadic(value):
        raise ValueError(
            f"{value} is not a dyadic rational: a short game's numbers have denominators that"
            " are powers of 2"
        )
    found = _NUMBERS.get(value)
    if found is None:
        found = _NUMBERS[value] = Value(None, None, value)
    return found


def _number_options(x: Fraction | None) -> tuple[tuple[Value, ...], tuple[Value, ...]]:
    """A number's canonical options: {n-1 |} for an integer n > 0, {| n+1} below 0, and
    {(m-1)/2^k | (m+1)/2^k} for m/2^k in lowest terms."""
    assert x is not None
    if x.denominator == 1:
        if x > 0:
            return (number(x - 1),), ()
        if x < 0:
            return (), (number(x + 1),)
        return (), ()
    step = Fraction(1, x.denominator)
    return (number(x - step),), (number(x + step),)


def _number_birthday(x: Fraction) -> int:
    whole = abs(x.numerator) // x.denominator
    return whole + (x.denominator.bit_length() - 1 + 1 if x.denominator > 1 else 0)


def simplest_between(low: Fraction | None, high: Fraction | None) -> Fraction:
    """The simplest number strictly between `low` and `high` (None: unbounded on that side):
    the integer nearest 0 if there is one, else the dyadic of least denominator."""
    if low is not None and high is not None and low >= high:
        raise ValueError(f"no number lies strictly between {low} and {high}")
    if (low is None or low < 0) and (high is None or high > 0):
        return Fraction(0)
    if high is None or (low is not None and low >= 0):
        assert low is not None
        candidate = Fraction(low.__floor__() + 1)
        if high is None or candidate < high:
            return candidate
    else:
        candidate = Fraction(high.__ceil__() - 1)
        if low is None or candidate > low:
            return candidate
    assert low is not None and high is not None
    denominator = 2
    while True:
        candidate = Fraction((low * denominator).__floor__() + 1, denominator)
        if candidate < high:
            return candidate
        denominator *= 2


def nimber(n: int) -> Value:
    """*n, the Nim heap of n: {*0, ..., *(n-1) | *0, ..., *(n-1)}."""
    if n < 0:
        raise ValueError(f"a nimber is *n for n >= 0, got {n}")
    heaps = [ZERO]
    for _ in range(n):
        heaps.append(_intern(heaps, heaps))
    return heaps[n]


def as_value(x: object) -> Value:
    """`x` as a `Value`: a value itself, or an int or Fraction taken as the number."""
    if isinstance(x, Value):
        return x
    if isinstance(x, int | Fraction) and not isinstance(x, bool):
        return number(x)
    raise TypeError(f"not a game value: {x!r}")


# -- order ---------------------------------------------------------------------------------------

_LESS_EQUAL: dict[int, bool] = {}  # by id(g) << 64 | id(h): one int, a third of a pair's bytes
COMPARISONS_KEPT = 1 << 22
"""The most comparisons remembered (some 400 MB): then they are forgotten all at once.
Remembering them all costs most of the memory of a large valuation (14 million pairs, 2.4 GB,
in Domineering 5x6)."""


def less_equal(g: Value, h: Value) -> bool:
    """G <= H in Conway's order: no Right option of H is <= G and no Left option of G is >= H."""
    if g is h:
        return True
    if g.number is not None and h.number is not None:
        return g.number <= h.number
    key = id(g) << 64 | id(h)
    known = _LESS_EQUAL.get(key)
    if known is None:
        known = _less_equal_by_options(g, h)
        if len(_LESS_EQUAL) >= COMPARISONS_KEPT:
            _LESS_EQUAL.clear()
        _LESS_EQUAL[key] = known
    return known


def _less_equal_by_options(g: Any, h: Any) -> bool:
    """G <= H from the options, for `g` or `h` a provisional form too (not memoised here)."""
    return not any(_le(hr, g) for hr in h.right) and not any(_le(h, gl) for gl in g.left)


def _le(g: Any, h: Any) -> bool:
    """`less_equal`, where one side may be a provisional form (`_Form`) in canonicalisation."""
    if isinstance(g, _Form) or isinstance(h, _Form):
        return _less_equal_by_options(g, h)
    return less_equal(g, h)


class _Form:
    """A form {left | right} of canonical options, not yet canonical: compared, never kept."""

    __slots__ = ("left", "right")

    def __init__(self, left: Iterable[Value], right: Iterable[Value]) -> None:
        self.left, self.right = tuple(left), tuple(right)


def game(left: Iterable[Value | Rational], right: Iterable[Value | Rational]) -> Value:
    """The canonical form of {left | right}, whose options are values (or numbers)."""
    lefts = {as_value(option) for option in left}
    rights = {as_value(option) for option in right}
    if all(o.number is not None for o in (*lefts, *rights)):
        low = max((o.number for o in lefts), default=None)  # type: ignore[type-var]
        high = min((o.number for o in rights), default=None)  # type: ignore[type-var]
        if low is None or high is None or low < high:
            return number(simplest_between(low, high))
    while True:
        lefts = _undominated(lefts, left_side=True)
        rights = _undominated(rights, left_side=False)
        form = _Form(lefts, rights)
        changed = False
        bypassed: set[Value] = set()
        for option in lefts:
            reply = next((r for r in option.right if _le(r, form)), None)
            if reply is None:
                bypassed.add(option)
            else:  # reversible through `reply`: Left's move is answered at once
                bypassed.update(reply.left)
                changed = True
        bypassed_right: set[Value] = set()
        for option in rights:
            reply = next((r for r in option.left if _le(form, r)), None)
            if reply is None:
                bypassed_right.add(option)
            else:
                bypassed_right.update(reply.right)
                changed = True
        if not changed:
            return _intern(lefts, rights)
        lefts, rights = bypassed, bypassed_right


def _undominated(options: set[Value], left_side: bool) -> set[Value]:
    """The options no other option dominates: for Left, those not <= another; for Right, those
    not >= another (equal ones are the same object, kept once). Found in one pass: each option
    is compared with those kept so far, and drops the kept ones it dominates."""
    kept: list[Value] = []
    for option in options:
        if left_side:
            if any(less_equal(option, other) for other in kept):
                continue
            kept = [other for other in kept if not less_equal(other, option)]
        else:
            if any(less_equal(other, option) for other in kept):
                continue
            kept = [other for other in kept if not less_equal(option, other)]
        kept.append(option)
    return set(kept)


# -- arithmetic ----------------------------------------------------------------------------------


def negative(g: Value) -> Value:
    """-G: Left's and Right's options exchanged and negated (canonical stays canonical)."""
    if g.number is not None:
        return number(-g.number)
    if g._negative is None:
        found = _intern([negative(r) for r in g.right], [negative(o) for o in g.left])
        found._negative, g._negative = g, found
    return g._negative


_SUMS: dict[int, Value] = {}  # by id(g) << 64 | id(h), id(g) < id(h)


def add(g: Value, h: Value) -> Value:
    """G + H, the disjoint sum: a move is a move in one component, in canonical form."""
    if g.number is not None and h.number is not None:
        return number(g.number + h.number)
    if g is ZERO:
        return h
    if h is ZERO:
        return g
    if id(g) > id(h):
        g, h = h, g
    key = id(g) << 64 | id(h)
    found = _SUMS.get(key)
    if found is None:
        if h.number is not None:
            g, h = h, g
        if g.number is not None:  # number translation: {H^L + x | H^R + x}
            found = game([add(hl, g) for hl in h.left], [add(hr, g) for hr in h.right])
        else:
            found = game(
                [*(add(gl, h) for gl in g.left), *(add(g, hl) for hl in h.left)],
                [*(add(gr, h) for gr in g.right), *(add(g, hr) for hr in h.right)],
            )
        _SUMS[key] = found
    return found


def sum_of(values: Iterable[Value]) -> Value:
    """The sum of several values (0 for none)."""
    total = ZERO
    for value in values:
        total = add(total, value)
    return total


# -- text ----------------------------------------------------------------------------------------


@cache
def uptimal(g: Value) -> tuple[Fraction, int, int] | None:
    """(x, n, m) when G = x + n·↑ + *m (x a number, n ups, downs when negative, m a nimber),
    read from the canonical form; None for any other game."""
    found = _upward(g)
    if found is None:
        mirrored = _upward(negative(g))
        if mirrored is not None and mirrored[1] > 0:
            return -mirrored[0], -mirrored[1], mirrored[2]
    return found


def _upward(g: Value) -> tuple[Fraction, int, int] | None:
    """`uptimal` for numbers, x + *m and x + n·↑ + *m with n > 0 (options read by `uptimal`)."""
    if g.number is not None:
        return g.number, 0, 0
    lefts, rights = g.left, g.right
    if set(lefts) == set(rights):  # x + *m: {x, x*, ..., x*(m-1) | the same}
        parts = [uptimal(option) for option in lefts]
        if all(p is not None and p[1] == 0 for p in parts):
            xs = {p[0] for p in parts if p is not None}
            heaps = sorted(p[2] for p in parts if p is not None)
            if len(xs) == 1 and heaps == list(range(len(heaps))):
                return xs.pop(), 0, len(heaps)
        return None
    if len(lefts) == 2 and len(rights) == 1:  # x↑* = {x, x* | x}
        low, high, reply = uptimal(lefts[0]), uptimal(lefts[1]), uptimal(rights[0])
        pair = {(reply[0], 0, 0), (reply[0], 0, 1)} if reply and reply[1:] == (0, 0) else None
        if reply and pair and {low, high} == pair:
            return reply[0], 1, 1
    if len(lefts) == 1 and len(rights) == 1:
        base, reply = uptimal(lefts[0]), uptimal(rights[0])
        if base and reply and base[1:] == (0, 0) and reply[0] == base[0] and reply[1] >= 0:
            if reply[2] == 1:  # x + n·↑ = {x | x + (n-1)·↑ + *}
                return base[0], reply[1] + 1, 0
            if reply[2] == 0 and reply[1] >= 1:  # x + n·↑ + * = {x | x + (n-1)·↑}, n >= 2
                return base[0], reply[1] + 1, 1
    return None


def _number_text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _ups_text(n: int) -> str:
    arrow, many = ("↑", "⇑") if n > 0 else ("↓", "⇓")
    return {1: arrow, 2: many}.get(abs(n), f"{abs(n)}·{arrow}")


@cache
def value_text(g: Value) -> str:
    """The value's text: its name when it is a number plus ups plus a nimber, `±x` for a
    switch {x | -x}, else {L | R} with each option's text."""
    parts = uptimal(g)
    if parts is not None:
        x, ups, heap = parts
        star = "" if heap == 0 else "*" if heap == 1 else f"*{heap}"
        if ups == 0:
            return star if x == 0 and star else _number_text(x) + star
        head = "" if x == 0 else _number_text(x)
        if abs(ups) > 2 and head:
            head += "+"
        return head + _ups_text(ups) + star
    if len(g.left) == 1 and len(g.right) == 1 and g.left[0] is negative(g.right[0]):
        hot = g.left[0]
        if hot.number is not None and hot.number > 0:
            return "±" + _number_text(hot.number)
    lefts = ", ".join(value_text(option) for option in g.left)
    rights = ", ".join(value_text(option) for option in g.right)
    return "{" + " | ".join((lefts, rights)).strip() + "}"


ZERO = Value((), (), Fraction(0))
_NUMBERS[Fraction(0)] = ZERO
_INTERNED[(frozenset(), frozenset())] = ZERO
STAR = nimber(1)
UP = _intern([ZERO], [STAR])
DOWN = negative(UP)
