"""Bit counting for compiled games' bitboards (numba has no `int.bit_count`)."""

from __future__ import annotations

import numpy as np
from numba import njit

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True)
def popcount(x: np.uint64) -> np.int64:
    """The number of bits set in the unsigned 64-bit `x` (the parallel sum LLVM turns into one
    instruction where the processor has it)."""
    x = np.uint64(x)
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


_SIXTY_FOUR = np.uint64(64)
_ZERO = np.uint64(0)


@njit(cache=True)
def shift_left(x: np.uint64, n: np.uint64) -> np.uint64:
    """`x << n` as Python's integers cut to 64 bits give it: 0 when `n` is 64 or more (a shift
    that far is undefined in the machine's instruction)."""
    return x << n if n < _SIXTY_FOUR else _ZERO


@njit(cache=True)
def shift_right(x: np.uint64, n: np.uint64) -> np.uint64:
    """`x >> n`, 0 when `n` is 64 or more."""
    return x >> n if n < _SIXTY_FOUR else _ZERO
