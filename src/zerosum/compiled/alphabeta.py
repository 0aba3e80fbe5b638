"""The compiled engine's search: `zerosum.search.engine`'s node function, step for step, over a
compiled game (the Python engine is the reference; read the idea there).

`zerosum.compiled.engine.kernel(compiled)` makes the negamax alpha-beta node function of
`zerosum.compiled.alphabeta_search` (a template) the game's, its calls to the game's rules
direct (inlined by LLVM), compiled once and kept in numba's cache on disk where the game's
functions can be imported (`zerosum.compiled.cache`). This module holds what the template
shares with the driver: the layout of `info`, the signatures, the scores and the move ordering.
Everything the search keeps lives in preallocated arrays the driver owns: the states of the
current line (a row a ply, each child written into the next row), the move
lists, the triangular principal variation, the killer moves and history scores, the
transposition table (`zerosum.compiled.table`) and `info`, the counters and switches (`INFO`
below names its fields). Every `CHECK_EVERY` nodes the search calls back into Python
(`objmode`, `poll` below) to look at the clock, the stop request, the node budget and Ctrl-C,
which compiled code cannot see; when told to stop it unwinds without storing anything, as the
Python engine's `Stopped` (`zerosum.search.deepening`) does.

Scores are the Python engine's (`zerosum.search.scores`): for the player to move, a win
`u * SCALE - plies`, evaluations in 1/1024ths, rounded half to even as Python's `round`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit, types

from zerosum.search.scores import EVALUATION_UNIT, PROVEN, SCALE

INFINITY = 1 << 40
UNLIMITED = 1 << 30

# The fields of `info`: counters, then the running search's state, then the switches (the
# Python engine's `Settings`, and what its iteration keeps: `pruning`, `extension_limit`,
# `null_ply`; `CAPPED`: the stacks are shorter than the game, a line ends at `MAX_PLY`).
(
    NODES, TERMINALS, EVALUATIONS, CUTOFFS, HORIZONS, ESTIMATES, PROBES, HITS, TABLE_CUTOFFS,
    STORES, ENTRIES, NEXT_CHECK, STOPPED, ROOT_MOVE, ROOT_SCORE, GENERATION, SLOTS,
    USE_TABLE, HASH_MOVE, KILLERS, HISTORY, NULL_WINDOW, QUIESCENCE, QUIESCENCE_DEPTH,
    MAX_PLY, CAPTURES, STATIC_EXCHANGE, CHECKS, EXTENSIONS, NULL_MOVE, REDUCTIONS, FUTILITY,
    FUTILITY_MARGIN, REUSE_SCORES, NOISY, PRUNING, EXTENSION_LIMIT, NULL_PLY, CAPPED, SINGULAR,
) = range(40)  # fmt: skip
INFO = 40

NULL_MOVE_DEPTH, LATE_MOVE, REDUCTION_DEPTH, FUTILITY_DEPTH = 3, 3, 3, 2
"""The Python engine's: the least depth of a null move, the index of the first late move, the
least depth of a reduction, the most depth of futility pruning (`zerosum.search.engine`)."""
SINGULAR_DEPTH, SINGULAR_SHORTFALL, SINGULAR_MARGIN = 6, 3, round(0.02 * EVALUATION_UNIT)
"""The Python engine's: the least depth of a singular extension, how much shallower its stored
score may be, the margin a ply below it."""


_STATES = types.uint64[:, ::1]
_TABLE = types.int64[:, ::1]
_HISTORY = types.float64[:, ::1]
_INFO = types.int64[::1]
_INT = types.int64
QUIESCE_SIGNATURE = _INT(_STATES, _TABLE, _INFO, _INT, _INT, _INT, _INT)
"""`quiesce(states, moves, info, ply, alpha, beta, depth)`"""
NODE_SIGNATURE = _INT(
    _STATES, _TABLE, _TABLE, _TABLE, _HISTORY, _TABLE, _INFO, _INT, _INT, _INT, _INT
)
"""`node(states, moves, pv, killers, history, table, info, ply, depth, alpha, beta)`"""
SEARCH_SIGNATURE = _INT(_STATES, _TABLE, _TABLE, _TABLE, _HISTORY, _TABLE, _INFO, _INT)
"""`search(states, moves, pv, killers, history, table, info, depth)`"""


class Running(threading.local):
    """The search running in this thread: `poll()` is what the compiled code calls back every
    `CHECK_EVERY` nodes (nonzero: stop)."""

    poll: Callable[[], int] | None = None


running = Running()


INTERRUPTED = 4
"""What `poll` answers when Ctrl-C arrives while Python has control."""


def poll() -> int:
    """The running search's answer to "go on?": 0 to go on, else why to stop."""
    try:
        check = running.poll
        return 0 if check is None else check()
    except KeyboardInterrupt:
        return INTERRUPTED


@njit(cache=True)
def distance_score(utility: int, ply: int) -> int:
    """`zerosum.search.scores.distance_score`: a terminal utility reached at `ply`."""
    if utility > 0:
        return utility * SCALE - ply
    if utility < 0:
        return utility * SCALE + ply
    return 0


@njit(cache=True)
def heuristic_score(estimate: float) -> Any:
    """`zerosum.search.scores.heuristic_score`: an evaluation as a score below proven ones."""
    score = np.int64(np.rint(estimate * EVALUATION_UNIT))  # half to even, as Python's round
    return max(1 - PROVEN, min(PROVEN - 1, score))


@njit(cache=True)
def order_moves(moves, front, count, killer, second_killer, history, use_history):
    """Put `moves[front:count]` in the order to search them, in place, after the `front` moves
    already placed (the hash move, the captures): the killers (-1: none) that are legal, then
    the rest by `history` score if `use_history`, ties in the game's order (a stable
    insertion sort)."""
    for wanted in (killer, second_killer):
        if wanted < 0:
            continue
        for index in range(front, count):
            if moves[index] == wanted:
                for back in range(index, front, -1):
                    moves[back] = moves[back - 1]
                moves[front] = wanted
                front += 1
                break
    if use_history and count - front > 1:
        for index in range(front + 1, count):
            move = moves[index]
            score = history[move]
            back = index
            while back > front and history[moves[back - 1]] < score:
                moves[back] = moves[back - 1]
                back -= 1
            moves[back] = move


@njit(cache=True)
def put_first(moves, count, first):
    """Move `first` to the front of `moves[:count]` if it is there (a collision can store any
    move); how many moves are placed: 1 or 0."""
    if first < 0:
        return 0
    for index in range(count):
        if moves[index] == first:
            for back in range(index, 0, -1):
                moves[back] = moves[back - 1]
            moves[0] = first
            return 1
    return 0


@njit(cache=True)
def holds(moves, count, move):
    """Whether `move` is among `moves[:count]`."""
    for index in range(count):  # noqa: SIM110 (a loop, which numba compiles, not a generator)
        if moves[index] == move:
            return True
    return False
