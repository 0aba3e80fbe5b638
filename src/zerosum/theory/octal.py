"""Octal games and Grundy's game: heap games where a move may split a heap in two.

An octal game is named by its code `0.d1d2d3...`: digit d_k (0 to 7) says what a move that
removes k tokens from a heap may leave, as a sum of bits: 1, nothing (the whole heap is
taken); 2, one non-empty heap; 4, two non-empty heaps. Kayles is 0.77 (knock down one pin or
two adjacent pins from a row), Dawson's Kayles 0.07, and the subtraction game {1, 2, 3} is
0.333. In Grundy's game a move splits one heap into two non-empty heaps of different sizes.

A position is a tuple of heap sizes, sorted and without empty heaps; its components are its
heaps. The Grundy sequence of an octal game with t digits is periodic once the Guy-Smith test
passes: if g(n + p) = g(n) for preperiod <= n < 2 * preperiod + p + t, then for all
n >= preperiod (the argument: every option of a heap of n >= 2 * preperiod + p + t leaves at
least one heap of preperiod + p or more, which the known period maps to a heap p smaller).
Grundy's game has no such theorem, and no period is claimed for it.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from array import array
from collections.abc import Callable

import numpy as np

from zerosum.theory.heaps import PROGRESS_EVERY, GrundySequence, append_value, sequence

TAKE_ALL, LEAVE_ONE, LEAVE_TWO = 1, 2, 4
OCTAL_CODE = re.compile(r"0?\.([0-7]+)")
NAMED = {"kayles": "0.77", "dawson": "0.07"}


def parse_code(code: str) -> tuple[int, ...]:
    """The digits d1, d2, ... of an octal code such as "0.77"; ValueError when malformed."""
    match = OCTAL_CODE.fullmatch(code.strip())
    if match is None:
        raise ValueError(
            f"bad octal code {code!r}: expected 0. followed by octal digits 0-7, e.g. 0.77"
        )
    return tuple(int(digit) for digit in match.group(1).rstrip("0") or "0")


def heaps(*sizes: int) -> tuple[int, ...]:
    """A position: the heap sizes sorted, without the empty ones."""
    return tuple(sorted(size for size in sizes if size))


def pair_xors(values: array, total: int, last: int) -> bytes:
    """g(a) XOR g(total - a) for a = 1..last, as the raw bytes of `values`' item type.

    The inner loop of every splitting game, done as one XOR of two big integers: the values
    of the small heaps against the values of their partners read backwards.
    """
    small = values[1 : last + 1].tobytes()
    large = values[total - 1 : total - last - 1 : -1].tobytes()
    pairs = int.from_bytes(small, "little") ^ int.from_bytes(large, "little")
    return pairs.to_bytes(len(small), "little")


def least_missing(pairs: bytes, typecode: str, others: set[int]) -> int:
    """The mex of `others` together with the values packed in `pairs` (items of `typecode`).

    The mex may be one past the widest value the items hold (256 when bytes hold every value
    from 0 to 255): such a value is in none of them, and the caller widens the array for it.
    """
    if typecode != "B":
        return _least_missing_wide(np.frombuffer(pairs, dtype=_UNSIGNED[typecode]), others)
    least = 0
    while least in others or (least < 256 and least in pairs):  # `in` on bytes is memchr
        least += 1
    return least


_UNSIGNED = {"H": np.uint16, "I": np.uint32, "L": np.uint64, "Q": np.uint64}


def _least_missing_wide(values: np.ndarray, others: set[int]) -> int:
    """The mex of `values` and `others`: marked in a table as long as there are values, since
    the mex of k values is at most k."""
    seen = np.zeros(len(values) + len(others) + 1, dtype=bool)
    seen[values[values < len(seen)]] = True
    seen[[value for value in others if value < len(seen)]] = True
    return int(np.argmin(seen))  # the first False: there is one, the table outnumbers the values


class SplittingGame(ABC):
    """What octal games and Grundy's game share: positions, options and cached values."""

    def __init__(self) -> None:
        self._values = array("B", [0])

    def components(self, position: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        return tuple((size,) for size in position)

    def options(self, position: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Every position one move in one heap leads to."""
        found: list[tuple[int, ...]] = []
        for index, size in enumerate(position):
            rest = position[:index] + position[index + 1 :]
            found.extend(heaps(*rest, *after) for after in self.heap_options(size))
        return found

    @abstractmethod
    def heap_options(self, size: int) -> list[tuple[int, ...]]:
        """The heaps a move may leave from one heap of `size` (each as a tuple)."""

    @abstractmethod
    def value(self, n: int, values: array) -> int:
        """g(n), given `values` for every smaller heap."""

    def values(self, count: int, on_progress: Callable[[int], None] | None = None) -> array:
        """The Grundy numbers of heaps 0..count-1 (kept for next time); `on_progress(done)`,
        when given, hears how many are known every few hundred heaps."""
        values = self._values
        for n in range(len(values), count):
            values = append_value(values, self.value(n, values))
            if on_progress is not None and n % PROGRESS_EVERY == 0:
                self._values = values
                on_progress(n + 1)
        self._values = values
        return values[:count]

    @abstractmethod
    def seconds(self, count: int) -> float:
        """The estimated time, at worst, of the values of heaps 0..count-1 from none."""


class OctalGame(SplittingGame):
    """The octal game with code `code`, e.g. OctalGame("0.77") for Kayles."""

    def __init__(self, code: str) -> None:
        super().__init__()
        self.digits = parse_code(code)
        self.code = "0." + "".join(map(str, self.digits))

    def __repr__(self) -> str:
        return f"OctalGame({self.code!r})"

    def heap_options(self, size: int) -> list[tuple[int, ...]]:
        found: list[tuple[int, ...]] = []
        for take, digit in enumerate(self.digits[:size], start=1):
            left = size - take
            if digit & TAKE_ALL and left == 0:
                found.append(())
            if digit & LEAVE_ONE and left > 0:
                found.append((left,))
            if digit & LEAVE_TWO:
                found.extend((a, left - a) for a in range(1, left // 2 + 1))
        return found

    def value(self, n: int, values: array) -> int:
        others = set()
        pairs = b""
        for take, digit in enumerate(self.digits[:n], start=1):
            left = n - take
            if digit & TAKE_ALL and left == 0:
                others.add(0)
            if digit & LEAVE_ONE and left > 0:
                others.add(values[left])
            if digit & LEAVE_TWO and left >= 2:
                pairs += pair_xors(values, left, left // 2)
        return least_missing(pairs, values.typecode, others)

    def seconds(self, count: int) -> float:
        """Fitted to runs here (`benchmarks/cost_models.py`): 5 us for each heap, 0.7 us a
        digit of the code for each heap, and 9 ns for each pair of heaps a split leaves."""
        splits = sum(1 for digit in self.digits if digit & LEAVE_TWO)
        digits = min(count, len(self.digits))
        return count * (5e-6 + 0.7e-6 * digits) + 9e-9 * splits * count * count / 4

    def sequence(
        self,
        upto: int,
        search: int = 1 << 14,
        *,
        no_limit: bool = False,
        on_progress: Callable[[int], None] | None = None,
    ) -> GrundySequence:
        """The Grundy numbers of heaps 0..upto, and the period the Guy-Smith test proves;
        ValueError when the values would take longer than `heaps.SECONDS` (unless `no_limit`).
        """
        digits = len(self.digits)
        return sequence(
            lambda count: self.values(count, on_progress),
            upto,
            lambda pre, p: 2 * pre + 2 * p + digits,
            search,
            self.seconds,
            no_limit,
        )


class GrundysGame(SplittingGame):
    """Grundy's game: split one heap into two non-empty heaps of different sizes."""

    def __repr__(self) -> str:
        return "GrundysGame()"

    def heap_options(self, size: int) -> list[tuple[int, ...]]:
        return [(a, size - a) for a in range(1, (size + 1) // 2)]

    def value(self, n: int, values: array) -> int:
        return least_missing(pair_xors(values, n, (n - 1) // 2), values.typecode, set())

    def seconds(self, count: int) -> float:
        """Fitted to runs here (`benchmarks/cost_models.py`): 8 us for each heap and 5 ns for
        each pair of heaps a split leaves."""
        return 8e-6 * count + 5e-9 * count * count / 4

    def sequence(
        self,
        upto: int,
        *,
        no_limit: bool = False,
        on_progress: Callable[[int], None] | None = None,
    ) -> GrundySequence:
        """The Grundy numbers of heaps 0..upto; no period is claimed (no theorem applies).
        ValueError when they would take longer than `heaps.SECONDS` (unless `no_limit`)."""
        return sequence(
            lambda count: self.values(count, on_progress), upto, None, 1, self.seconds, no_limit
        )
