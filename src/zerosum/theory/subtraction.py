"""Subtraction games: one heap, and a move takes away s tokens for some s in a finite set S.

The Grundy sequence of a finite subtraction set is always eventually periodic, and a period
is proved by a finite check: g(n) depends only on the max(S) values before it, so once a
window of max(S) consecutive values repeats p places later, every value after it repeats
too (g(n + p) = g(n) for preperiod <= n < preperiod + max(S) gives it for all n >= preperiod).
{1, 2, 3} gives n mod 4; {1, 3, 4} gives period 7 with P positions n mod 7 in {0, 2}.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable

from zerosum.theory.heaps import PROGRESS_EVERY, GrundySequence, append_value, sequence


def subtraction_set(moves: Iterable[int]) -> tuple[int, ...]:
    """The sorted subtraction set; ValueError when it is empty or has a number below 1."""
    moves = tuple(sorted(set(moves)))
    if not moves:
        raise ValueError("the subtraction set is empty: give at least one number of tokens")
    if moves[0] < 1:
        raise ValueError(f"the subtraction set must hold positive numbers, got {moves[0]}")
    return moves


class SubtractionGame:
    """The subtraction game on one heap with the set `moves`; a position is a heap size."""

    def __init__(self, moves: Iterable[int]) -> None:
        self.moves = subtraction_set(moves)
        self._values = array("B", [0])

    def __repr__(self) -> str:
        return f"SubtractionGame({set(self.moves)})"

    def options(self, heap: int) -> list[int]:
        return [heap - s for s in self.moves if s <= heap]

    def components(self, heap: int) -> tuple[int]:
        return (heap,)

    def values(self, count: int, on_progress: Callable[[int], None] | None = None) -> array:
        """The Grundy numbers of heaps 0..count-1, computed forwards (and kept for next time);
        `on_progress(done)`, when given, hears how many are known every few hundred heaps."""
        values, moves = self._values, self.moves
        for n in range(len(values), count):
            reached = 0  # bit v set when some option has Grundy number v
            for s in moves:
                if s > n:
                    break
                reached |= 1 << values[n - s]
            values = append_value(values, (~reached & (reached + 1)).bit_length() - 1)
            if on_progress is not None and n % PROGRESS_EVERY == 0:
                self._values = values
                on_progress(n + 1)
        self._values = values
        return values[:count]

    def seconds(self, count: int) -> float:
        """The estimated time, at worst, of the values of heaps 0..count-1 from none: measured
        here, 0.3 us for each move from each heap and as much again for the heap."""
        return 0.3e-6 * count * (1 + min(count, len(self.moves)))

    def sequence(
        self,
        upto: int,
        search: int = 1 << 16,
        *,
        no_limit: bool = False,
        on_progress: Callable[[int], None] | None = None,
    ) -> GrundySequence:
        """The Grundy numbers of heaps 0..upto, and the period proved within `search` values;
        ValueError when they would take longer than `heaps.SECONDS` (unless `no_limit`)."""
        window = self.moves[-1]
        return sequence(
            lambda count: self.values(count, on_progress),
            upto,
            lambda pre, p: pre + p + window,
            search,
            self.seconds,
            no_limit,
        )
