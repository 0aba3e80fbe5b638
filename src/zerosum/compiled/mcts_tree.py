"""The compiled MCTS's tree, shared by its iterations (`zerosum.compiled.mcts_search`, a
template) and its driver (`zerosum.compiled.mcts`): the fields of the tree's arrays, the
signature of the iterations, and the random numbers of the playouts."""

from __future__ import annotations

import numpy as np
from numba import njit, types

TERMINAL = 3
"""A node's `KIND` when the game is over there (else the player to move, 0 or 1)."""
UNKNOWN = -1
"""A new node's `KIND`, until its position is first reached."""

# The fields of the tree's integer array (a row a node) and of its float array.
FIRST, COUNT, MOVE, VISITS, KIND = range(5)
TOTAL, LOWER, UPPER = range(3)

_WORDS = types.uint64[:, ::1]
RUN_SIGNATURE = types.int64(
    _WORDS, types.int64[:, ::1], types.float64[:, ::1], types.int64[::1], types.uint64[::1],
    types.int64[::1], types.int64[::1], types.int64, types.float64, types.boolean,
    types.float64, types.float64,
)  # fmt: skip
"""`run(states, nodes, values, info, rng, moves, path, iterations, c, solver, low, high)`"""


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
