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
