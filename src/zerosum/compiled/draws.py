"""Random numbers for compiled code: a xorshift64* sequence kept in a one-word array, which the
compiled searches draw their playouts from and hand to a game's own playout policy
(`zerosum.compiled.protocol`'s `playout_move`)."""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["below", "next_random"]


@njit(cache=True)
def next_random(rng):
    """The next of a xorshift64* sequence kept in `rng[0]` (never 0)."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True)
def below(rng, n):
    """A random integer in `[0, n)`."""
    return np.int64(next_random(rng) % np.uint64(n))


class Draws:
    """The compiled searches' draws seen from Python: the `random.Random` methods the Python
    MCTS calls (`shuffle`, `choice`), each drawing from the same one-word sequence in the same
    way as the compiled MCTS (`zerosum.compiled.mcts_search`: its expansion's shuffle, its
    uniform playout move). A Python MCTS given these draws (its `rng`) and the compiled
    game's move order searches as the compiled MCTS does, iteration for iteration: what the
    tests hold the two to."""

    def __init__(self, rng: np.ndarray) -> None:
        self.rng = rng

    def shuffle(self, items: list) -> None:
        """Shuffle `items` in place as the compiled expansion does (Fisher-Yates from the end)."""
        for index in range(len(items) - 1, 0, -1):
            other = int(below(self.rng, index + 1))
            items[index], items[other] = items[other], items[index]

    def choice(self, items: list) -> object:
        """One of `items`, drawn as a compiled playout draws a legal move."""
        return items[int(below(self.rng, len(items)))]
