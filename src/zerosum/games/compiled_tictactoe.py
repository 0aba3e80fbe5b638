"""Tic-tac-toe's rules compiled (`zerosum.compiled.protocol`): the twin of `TicTacToe`.

A state is two words, X's squares and O's (the Python game's pair); moves are the squares 0-8
in index order, utilities +1, 0, -1 for the player asked about, the key `x | o << 9` (the
Python game's perfect key).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import njit

from zerosum.compiled.bits import popcount
from zerosum.compiled.protocol import CompiledGame, Twin
from zerosum.games.tictactoe import _HAS_LINE_ARRAY, FULL

HAS_LINE = _HAS_LINE_ARRAY.copy()  # a global array: numba compiles it in as a constant
ONE = np.uint64(1)
NINE = np.uint64(9)
BOARD = np.uint64(FULL)


@njit(cache=True)
def initial(state):
    state[0] = 0
    state[1] = 0


@njit(cache=True)
def to_move(state):
    return 0 if popcount(state[0]) == popcount(state[1]) else 1


@njit(cache=True)
def terminal(state):
    x, o = state[0], state[1]
    return HAS_LINE[x] or HAS_LINE[o] or (x | o) == BOARD


@njit(cache=True)
def moves(state, out):
    occupied = state[0] | state[1]
    count = 0
    for square in range(9):
        if not (occupied >> np.uint64(square)) & ONE:
            out[count] = square
            count += 1
    return count


@njit(cache=True)
def play(state, move, child):
    x, o = state[0], state[1]
    bit = ONE << np.uint64(move)
    if popcount(x) == popcount(o):
        x |= bit
    else:
        o |= bit
    child[0] = x
    child[1] = o


@njit(cache=True)
def utility(state, player):
    score = 1 if HAS_LINE[state[0]] else -1 if HAS_LINE[state[1]] else 0
    return score if player == 0 else -score


@njit(cache=True)
def key(state):
    return state[0] | state[1] << NINE


@njit(cache=True)
def observe(state, player, out):
    """`player`'s marks, then the other's, square by square (the Python game's `observation`,
    flattened)."""
    own, other = (state[0], state[1]) if player == 0 else (state[1], state[0])
    for square in range(9):
        out[2 * square] = (own >> np.uint64(square)) & ONE
        out[2 * square + 1] = (other >> np.uint64(square)) & ONE


@functools.cache
def tictactoe_rules(twin: Any = None) -> CompiledGame:
    """Tic-tac-toe's `CompiledGame`, twinned with the Python game `twin` when given."""
    mapped = None
    if twin is not None:
        mapped = Twin(twin, _to_words, _from_words)
    return CompiledGame(
        "tictactoe", 2, 9, 9, 9, initial, to_move, moves, play, terminal, utility, key,
        observe=observe, twin=mapped,
    )  # fmt: skip


def _to_words(state: tuple[int, int]) -> np.ndarray:
    return np.array(state, np.uint64)


def _from_words(words: np.ndarray) -> tuple[int, int]:
    return int(words[0]), int(words[1])
