"""Bitboards as planes of 0s and 1s: the observations learning environments take (`Observing`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def bit_planes(masks: Sequence[int], bit_of: np.ndarray) -> np.ndarray:
    """An int8 array of shape `bit_of.shape + (len(masks),)`: at each cell, for each mask in
    turn, 1 when that mask holds the bit `bit_of[cell]`, else 0."""
    bits = np.asarray(bit_of, dtype=np.int64)
    layers = [np.array([(mask >> int(b)) & 1 for b in bits.flat], np.int8) for mask in masks]
    return np.stack([layer.reshape(bits.shape) for layer in layers], axis=-1)
