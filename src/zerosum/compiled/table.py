"""The compiled engine's transposition table: one preallocated int64 array, a row a slot.

A row holds the key (its 64 bits), the depth searched, the score, a packed word
`generation << 32 | (move + 1) << 8 | bound` (0 in an empty slot: a stored entry always has
a move), and the path key of the position it was stored for (the game's `path_key`, 0 for a
game whose positions alone decide: a score is reused only along an equal path). The slot of
a key and the replacement policy are the Python table's (`zerosum.search.table`): slot
`hash(key) % slots` with Python's hash of an integer, a prime number of slots,
"depth-preferred with ageing". So with as many slots, the two tables keep the
same entries and the two engines visit the same nodes. Its counts live in the engine's `info`
array (`PROBES`, `HITS`, `STORES`, `ENTRIES`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

KEY, DEPTH, SCORE, PACKED, PATH = 0, 1, 2, 3, 4
WIDTH = 5
"""Columns of the table's array."""

HASH_MODULUS = np.uint64((1 << 61) - 1)
"""Python hashes an integer to itself modulo this prime."""

# The counters of `info` the table keeps (the engine's layout, zerosum.compiled.engine).
PROBES, HITS, STORES, ENTRIES = 6, 7, 9, 10


def new_table(slots: int) -> np.ndarray:
    """An empty table of `slots` rows, its memory touched now (not page by page during the
    first search, which would count the system's work as the search's)."""
    return np.full((slots, WIDTH), 0, np.int64)


@njit(cache=True)
def slot_of(key: np.uint64, slots: int) -> np.int64:
    """The slot of `key`: Python's `hash(key) % slots`."""
    hashed = key if key < HASH_MODULUS else key % HASH_MODULUS
    return np.int64(hashed % np.uint64(slots))


@njit(cache=True)
def probe(table, info, slot, key):
    """True when `slot` holds the position `key` (counted as a probe, and a hit)."""
    info[PROBES] += 1
    if table[slot, PACKED] != 0 and table[slot, KEY] == np.int64(key):
        info[HITS] += 1
        return True
    return False


@njit(cache=True)
def store(table, info, slot, key, depth, score, bound, move, generation, path):
    """Remember a result for `key`, reached along `path`, unless its slot holds a deeper one
    of this search."""
    packed = table[slot, PACKED]
    if (
        packed == 0
        or table[slot, KEY] == np.int64(key)
        or (packed >> 32) != generation
        or table[slot, DEPTH] <= depth
    ):
        if packed == 0:
            info[ENTRIES] += 1
        table[slot, KEY] = np.int64(key)
        table[slot, DEPTH] = depth
        table[slot, SCORE] = score
        table[slot, PACKED] = (generation << 32) | ((move + 1) << 8) | bound
        table[slot, PATH] = np.int64(path)
        info[STORES] += 1


@njit(cache=True)
def stored_move(packed: int) -> int:
    return ((packed >> 8) & 0xFFFFFF) - 1


@njit(cache=True)
def stored_bound(packed: int) -> int:
    return packed & 0xFF
