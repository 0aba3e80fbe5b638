"""Partizan game values read from text: `parse_value("{1 | -1} + ^*")`.

The text is what `zerosum.theory.partizan` writes: numbers `3`, `-5/8`; nimbers `*`, `*2`; ups
`↑`, `⇑`, `3·↑` (three ups), downs `↓`, `⇓`, `3·↓`; a number, ups and a nimber side by side
are their sum (`1/2↑*` is 1/2 + ↑ + *); `±1` is {1 | -1}; `{L1, L2 | R1, R2}` any game. ASCII
is read too: `^` and `v` for ↑ and ↓, `+-` for ±, `up`, `down`, `star`; sums and differences
with `+` and `-`; `n·G` or `n.G` for n copies of G; parentheses; `{a || b | c}` for
{a | {b | c}} (the longest run of bars splits first). A number must be dyadic (its denominator
a power of 2).
"""

from __future__ import annotations

import re
from fractions import Fraction

from zerosum.limits import Limit, clipped
from zerosum.theory.partizan import DOWN, STAR, UP, ZERO, Value, game, negative, nimber, number

EXPRESSION = Limit("the characters of a value expression", 10_000, liftable=False)
"""Python's recursion bounds how deeply an expression nests; its length bounds the nesting."""

LARGEST_COUNT = 10_000
"""The most copies `n·G` or `*n` names (each is a sum or a heap that size)."""


# -- reading -------------------------------------------------------------------------------------

TOKEN = re.compile(
    r"\s*(?:(?P<number>\d+(?:\.\d+)?(?:/\d+)?)|(?P<star>\*(?:\d+)?)|(?P<word>up|down|star)"
    r"|(?P<symbol>\+-|±|[↑↓⇑⇓^v{}|,()+\-·.]))"
)


def _tokens(text: str) -> list[str]:
    tokens, position = [], 0
    text = text.strip()
    while position < len(text):
        found = TOKEN.match(text, position)
        if found is None or found.end() == position:
            rest = text[position:].lstrip()
            raise ValueError(f"cannot read the value at {clipped(rest, 20)} in {clipped(text)}")
        tokens.append(found.group().strip())
        position = found.end()
    return [token for token in tokens if token]


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.at = 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None:
            raise ValueError(f"the value {clipped(self.text)} ends too soon")
        if expected is not None and token != expected:
            raise ValueError(f"expected {expected!r} but found {token!r} in {clipped(self.text)}")
        self.at += 1
        return token

    def expression(self) -> Value:
        total = ZERO
        sign = 1
        if self.peek() in ("+", "-"):
            sign = -1 if self.take() == "-" else 1
        while True:
            term = self.juxtaposed()
            total = total + (term if sign > 0 else negative(term))
            if self.peek() == "+":
                self.take()
                sign = 1
            elif self.peek() == "-":
                self.take()
                sign = -1
            else:
                return total

    STARTS = ("{", "(", "±", "+-", "↑", "↓", "⇑", "⇓", "^", "v", "up", "down", "star")

    def juxtaposed(self) -> Value:
        total = self.product()
        while True:
            token = self.peek()
            if token is None or not (
                token in self.STARTS or token.startswith("*") or token[0].isdigit()
            ):
                return total
            total = total + self.product()

    def product(self) -> Value:
        token = self.peek()
        ahead = self.tokens[self.at + 1] if self.at + 1 < len(self.tokens) else None
        if token is not None and token[0].isdigit() and ahead in ("·", "."):
            count = self.take()
            if not count.isdigit():
                raise ValueError(f"a count of copies is a whole number, got {count!r}")
            self.take()
            copies = int(count)
            if copies > LARGEST_COUNT:
                raise ValueError(f"at most {LARGEST_COUNT:,} copies, got {copies:,}")
            one, total = self.atom(), ZERO
            for _ in range(copies):
                total = total + one
            return total
        return self.atom()

    def atom(self) -> Value:
        token = self.take()
        if token[0].isdigit():
            return number(_read_number(token))
        if token.startswith("*"):
            heap = int(token[1:]) if len(token) > 1 else 1
            if heap > LARGEST_COUNT:
                raise ValueError(f"a nimber *n has n at most {LARGEST_COUNT:,}, got {heap:,}")
            return nimber(heap)
        simple = {"↑": UP, "^": UP, "up": UP, "↓": DOWN, "v": DOWN, "down": DOWN, "star": STAR}
        if token in simple:
            return simple[token]
        if token in ("⇑", "⇓"):
            one = UP if token == "⇑" else DOWN
            return one + one
        if token in ("±", "+-"):
            hot = self.atom()
            return game([hot], [negative(hot)])
        if token == "(":
            inside = self.expression()
            self.take(")")
            return inside
        if token == "{":
            return self.braces()
        raise ValueError(f"unexpected {token!r} in the value {clipped(self.text)}")

    def braces(self) -> Value:
        """{...}: lists of values between runs of bars, up to the closing brace."""
        items: list[list[Value] | int] = []  # a list of options, or a run of bars
        current: list[Value] = []
        while True:
            token = self.peek()
            if token == "}":
                self.take()
                items.append(current)
                break
            if token == "|":
                items.append(current)
                bars = 0
                while self.peek() == "|":
                    self.take()
                    bars += 1
                items.append(bars)
                current = []
                continue
            current.append(self.expression())
            if self.peek() == ",":
                self.take()
        if len(items) == 1:
            raise ValueError(f"a game {{L | R}} needs a bar in {clipped(self.text)}")
        return _split(items)


def _split(items: list[list[Value] | int]) -> Value:
    """{a || b | c}: the longest run of bars splits first; each side is a list of options, or
    a game of its own when it holds bars too."""
    runs = [(item, i) for i, item in enumerate(items) if isinstance(item, int)]
    longest = max(run for run, _ in runs)
    at = next(i for run, i in runs if run == longest)
    sides = []
    for part in (items[:at], items[at + 1 :]):
        if len(part) == 1:
            side = part[0]
            assert isinstance(side, list)
            sides.append(side)
        else:
            sides.append([_split(part)])
    return game(sides[0], sides[1])


def _read_number(token: str) -> Fraction:
    value = Fraction(token)
    denominator = value.denominator
    if denominator & (denominator - 1):
        raise ValueError(
            f"{token} is not a dyadic rational: a short game's numbers have denominators that"
            " are powers of 2"
        )
    return value


def parse_value(text: str) -> Value:
    """The value an expression names, in canonical form (see the module for the grammar);
    ValueError with the reason for text that names none."""
    EXPRESSION.check(len(text))
    if not text.strip():
        raise ValueError("the value expression is empty")
    reader = _Reader(text)
    value = reader.expression()
    if reader.peek() is not None:
        raise ValueError(f"unexpected {reader.peek()!r} in the value {clipped(text)}")
    return value
