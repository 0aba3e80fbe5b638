"""The compiled MCTS's tree, shared by its iterations (`zerosum.compiled.mcts_search` and
`zerosum.compiled.puct_search`, templates) and their drivers (`zerosum.compiled.mcts`,
`zerosum.compiled.puct`): the fields of the tree's arrays, the signature of the iterations,
and what both searches do alike over the arrays (which children are still open, the proven
bounds tightened). Their random numbers are `zerosum.compiled.draws`'."""

from __future__ import annotations

from numba import njit, types

TERMINAL = 3
"""A node's `KIND` when the game is over there (else the player to move, 0 or 1)."""
UNKNOWN = -1
"""A new node's `KIND`, until its position is first reached."""

# The fields of the tree's integer array (a row a node) and of its float array.
FIRST, COUNT, MOVE, VISITS, KIND, AMAF_VISITS = range(6)
TOTAL, LOWER, UPPER, PRIOR = range(4)
AMAF_TOTAL = 3
"""`TOTAL`, `LOWER` and `UPPER` are from player 0's point of view; `PRIOR` (the move's prior
probability) is PUCT's only, and the RAVE statistics UCT's only (`AMAF_VISITS`, `AMAF_TOTAL`
for player 0: `zerosum.search.mcts`'s `amaf_visits`, `amaf_total`), in the fourth float
column (PUCT's prior's) and a sixth integer one."""

_WORDS = types.uint64[:, ::1]
RUN_SIGNATURE = types.int64(
    _WORDS, types.int64[:, ::1], types.float64[:, ::1], types.int64[::1], types.uint64[::1],
    types.int64[::1], types.int64[::1], types.int64, types.float64, types.boolean,
    types.float64, types.float64, types.int64[:, ::1], types.boolean[:, ::1], types.float64,
)  # fmt: skip
"""`run(states, nodes, values, info, rng, moves, path, iterations, c, solver, low, high, trail,
later, rave)`"""


@njit(cache=True)
def is_open(node, row, nodes, values):
    """MCTS-Solver: the child `row` of `node` may still be better than what the player to move
    at `node` is already sure of (a child proven no better is done)."""
    if nodes[node, KIND] == 0:
        return values[row, UPPER] > values[node, LOWER]
    return values[row, LOWER] < values[node, UPPER]


@njit(cache=True)
def open_only(node, nodes, values):
    """Some child of `node` is open (`is_open`): the others are passed over."""
    first = nodes[node, FIRST]
    for row in range(first, first + nodes[node, COUNT]):
        if is_open(node, row, nodes, values):
            return True
    return False


@njit(cache=True)
def prove(path, length, nodes, values):
    """Tighten the proven bounds from the end of `path` up, while they change (a node never
    expanded, or a finished game, is passed: `zerosum.search.mcts.MCTS.prove`)."""
    for index in range(length - 1, -1, -1):
        node = path[index]
        kind, count = nodes[node, KIND], nodes[node, COUNT]
        if kind == TERMINAL or count == 0:
            continue
        first = nodes[node, FIRST]
        lower, upper = values[first, LOWER], values[first, UPPER]
        for row in range(first + 1, first + count):
            if kind == 0:
                lower = max(lower, values[row, LOWER])
                upper = max(upper, values[row, UPPER])
            else:
                lower = min(lower, values[row, LOWER])
                upper = min(upper, values[row, UPPER])
        if lower == values[node, LOWER] and upper == values[node, UPPER]:
            return
        values[node, LOWER] = lower
        values[node, UPPER] = upper


@njit(cache=True)
def back_up(path, length, value, nodes, values, solver):
    """Add `value` (for player 0) to every node of the `length` first of `path`, then tighten
    the proven bounds (`zerosum.search.mcts.MCTS.back_up`)."""
    for index in range(length):
        nodes[path[index], VISITS] += 1
        values[path[index], TOTAL] += value
    if solver:
        prove(path, length, nodes, values)
