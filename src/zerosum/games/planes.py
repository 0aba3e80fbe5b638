"""Bitboards as planes of 0s and 1s: the observations learning environments take (`Observing`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def bit_planes(masks: Sequence[int], bit_of: np.ndarray) -> np.ndarray:
    """An int8 array of shape `bit_of.shape + (len(masks),)`: at each cell, for each mask in
    turn, 1 when that mask holds the bit `bit_of[cell]`, else 0. Masks are of 64 bits at most."""
    bits = np.asarray(bit_of, dtype=np.uint64)[..., None]
    words = np.array(masks, dtype=np.uint64)
    return ((words >> bits) & np.uint64(1)).astype(np.int8)
