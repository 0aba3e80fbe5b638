"""Nim by Bouton: P exactly when the XOR of the heaps is 0, and the move that makes it 0.

The winning move is built from the proof: with t the XOR of the heaps, any heap x with the
highest bit of t set becomes x XOR t, which is smaller. O(r log max) bit operations, against a
tree of prod(x_i + 1) distinct positions.

In misère Nim (whoever takes the last object loses) the play is the same until the move
that would leave only heaps of at most one object: then leave an odd number of them. A
position is P when every heap has at most one object and their number is odd, or when some
heap is larger and the XOR is 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from zerosum.games.nim import nim_heaps
from zerosum.theory.impartial import nim_sum


@dataclass(frozen=True)
class NimMove:
    """Take `remove` objects from heap `heap` (0-based), leaving the heaps `result`."""

    heap: int
    remove: int
    result: tuple[int, ...]


def _take(heaps: Sequence[int], heap: int, leave: int) -> NimMove:
    result = (*heaps[:heap], leave, *heaps[heap + 1 :])
    return NimMove(heap, heaps[heap] - leave, result)


def _endgame(heaps: Sequence[int]) -> bool:
    """True when no heap has more than one object: where misère play differs."""
    return all(size <= 1 for size in heaps)


def outcome(heaps: Sequence[int], misere: bool = False) -> str:
    """ "P" when the player to move loses with best play on both sides, else "N"."""
    heaps = nim_heaps(heaps)
    if misere and _endgame(heaps):
        return "P" if sum(heaps) % 2 else "N"
    return "P" if nim_sum(heaps) == 0 else "N"


def winning_move(heaps: Sequence[int], misere: bool = False) -> NimMove | None:
    """A move to a P position (Bouton's, or the misère rule's), or None when there is none.

    None means `heaps` is P, or (misère) that the heaps are empty: the player to move has won.
    """
    heaps = nim_heaps(heaps)
    if outcome(heaps, misere) == "P" or not any(heaps):
        return None
    large = [i for i, size in enumerate(heaps) if size > 1]
    if misere and len(large) <= 1:
        if not large:  # an even number of single objects: take one
            return _take(heaps, heaps.index(1), 0)
        ones = sum(1 for size in heaps if size == 1)
        return _take(heaps, large[0], 1 if ones % 2 == 0 else 0)  # leave an odd number of 1s
    total = nim_sum(heaps)
    top = 1 << (total.bit_length() - 1)
    heap = next(i for i, size in enumerate(heaps) if size & top)
    return _take(heaps, heap, heaps[heap] ^ total)


class NimHeaps:
    """Nim as an impartial game for `zerosum.theory.impartial`: a position is a sorted tuple of
    heap sizes, its components the single heaps.

    `options` lists one option per move (heap and count), so that `count_plays` counts the
    games the textbook counts: 51,823,082 from (3, 5, 8).
    """

    def options(self, position: tuple[int, ...]) -> list[tuple[int, ...]]:
        return [
            tuple(sorted((*position[:i], left, *position[i + 1 :])))
            for i, size in enumerate(position)
            for left in range(size)
        ]

    def components(self, position: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        return (position,) if len(position) <= 1 else tuple((size,) for size in position)
