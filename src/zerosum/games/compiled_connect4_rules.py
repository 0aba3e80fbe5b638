"""Connect Four's compiled rules, as a template (`zerosum.games.compiled_connect4`): the
functions of the protocol over module constants computed from the board's dimensions.

`zerosum.compiled.cache.build` makes it one size's: the game block below sets the dimensions
and `compiled` to numba's `njit`. In this module itself the functions are plain Python over
the standard board, never compiled.
"""

from __future__ import annotations

import numpy as np

from zerosum.compiled.bits import popcount, shift_left, shift_right
from zerosum.compiled.cache import uncompiled
from zerosum.games.connect4 import ConnectFour

# -- the game: bound per game by zerosum.compiled.cache --
WIDTH, HEIGHT, CONNECT = 7, 6, 4
compiled = uncompiled
# -- end of the game --

shape = ConnectFour(WIDTH, HEIGHT, CONNECT)  # the constants, computed once by the Python game
u = np.uint64
cells = shape.cells
order = np.array(shape.order, np.int64)
bottom = np.array(shape.bottom, np.uint64)
top = np.array(shape.top, np.uint64)
column_mask = np.array(shape.column_mask, np.uint64)
directions = np.array(shape.directions, np.uint64)
bottom_row = u(shape.bottom_row)
board = u(shape.board)
good_rows = np.array(shape.good_rows, np.uint64)
weights = np.array([weight for weight, _ in shape.cell_weights], np.int64)
weight_cells = np.array([cells_ for _, cells_ in shape.cell_weights], np.uint64)
cell_bits = np.array(shape._cell_bits.ravel(), np.uint64)  # the observation's cells, in order
zero, one, two, three = u(0), u(1), u(2), u(3)
four = CONNECT == 4


@compiled()
def initial(state):
    state[:] = 0


@compiled()
def to_move(state):
    return np.int64(state[2] & one)


@compiled()
def terminal(state):
    return state[3] != zero or state[2] == u(cells)


@compiled()
def moves(state, out):
    if state[3] != zero:
        return 0
    mask = state[1]
    count = 0
    for column in order:
        if not mask & top[column]:
            out[count] = column
            count += 1
    return count


@compiled()
def line_starts(stones):
    """The cells where a line of `stones` starts (in any direction)."""
    stones = u(stones)  # a plain int from Python below 2**63 would be typed int64
    starts = zero
    for shift in directions:
        if four:  # pairs of pairs: two shifts instead of three
            pairs = stones & shift_right(stones, shift)
            starts |= pairs & shift_right(pairs, two * shift)
        else:
            run = stones
            for _ in range(CONNECT - 1):
                run = run & shift_right(run, shift)
            starts |= run
    return starts


@compiled()
def play(state, move, child):
    position, mask = state[0], state[1]
    opponent_stones = position ^ mask
    mask |= mask + bottom[move]
    mover_stones = opponent_stones ^ mask
    child[0] = opponent_stones
    child[1] = mask
    child[2] = state[2] + one
    child[3] = one if line_starts(mover_stones) != zero else zero


@compiled()
def utility(state, player):
    if state[3] == zero:
        return 0
    winner = np.int64((state[2] - one) & one)
    return 1 if player == winner else -1


@compiled()
def key(state):
    return state[0] + state[1]


@compiled()
def winning_cells(stones, mask):
    """The empty cells (not in `mask`) that would complete a line of `stones`."""
    stones, mask = u(stones), u(mask)  # plain ints from Python, as `line_starts`
    cells_ = zero
    if four:
        cells_ = (stones << one) & (stones << two) & (stones << three)  # three below
        for index in range(1, 4):
            shift = directions[index]
            left, right = shift_left(stones, shift), shift_right(stones, shift)
            pair = left & shift_left(stones, two * shift)
            cells_ |= (pair & shift_left(stones, three * shift)) | (pair & right)
            pair = right & shift_right(stones, two * shift)
            cells_ |= (pair & left) | (pair & shift_right(stones, three * shift))
        return cells_ & (board ^ mask)
    reach = CONNECT - 1
    ahead = np.empty(reach + 1, np.uint64)
    behind = np.empty(reach + 1, np.uint64)
    for shift in directions:
        # ahead[k]: cells with k stones in a row next to them in the shift's direction
        ahead[0] = ~zero
        behind[0] = ~zero
        for k in range(1, reach + 1):
            ahead[k] = ahead[k - 1] & shift_right(stones, shift * u(k))
            behind[k] = behind[k - 1] & shift_left(stones, shift * u(k))
        for k in range(reach + 1):
            cells_ |= ahead[k] & behind[reach - k]
    return cells_ & (board ^ mask)


@compiled()
def evaluate(state, player):
    position, mask, stones, won = state[0], state[1], state[2], state[3]
    if won != zero or stones == u(cells):
        return float(utility(state, player))
    mover = np.int64(stones & one)
    mine = u(winning_cells(position, mask))  # a uint64 run from Python too (see popcount)
    theirs = u(winning_cells(position ^ mask, mask))
    playable = (mask + bottom_row) & board
    if mine & playable:
        estimate = 0.9  # the player to move wins at once
    elif popcount(theirs & playable) > 1:
        estimate = -0.9  # two threats at once: one can be stopped, not both
    else:
        threats = (
            popcount(mine) + popcount(mine & good_rows[mover])
            - popcount(theirs) - popcount(theirs & good_rows[1 - mover])
        )  # fmt: skip
        opponent = position ^ mask
        placement = 0
        for index in range(weights.shape[0]):
            within = weight_cells[index]
            placement += weights[index] * (
                popcount(position & within) - popcount(opponent & within)
            )
        estimate = max(-0.8, min(0.8, (12 * threats + placement) / 256))
    return estimate if player == mover else -estimate


@compiled()
def noisy(state, out):
    position, mask = state[0], state[1]
    if state[3] != zero:
        return 0
    playable = (mask + bottom_row) & board
    urgent = (winning_cells(position, mask) | winning_cells(position ^ mask, mask)) & playable
    count = 0
    if urgent:
        for column in order:
            if urgent & column_mask[column]:
                out[count] = column
                count += 1
    return count


@compiled()
def observe(state, player, out):
    """`player`'s stones, then the other's, at each cell from the top row (the Python game's
    `observation`, flattened)."""
    own = state[0] if (state[2] & one) == u(player) else state[1] ^ state[0]
    other = state[1] ^ own
    for cell in range(cell_bits.shape[0]):
        out[2 * cell] = (own >> cell_bits[cell]) & one
        out[2 * cell + 1] = (other >> cell_bits[cell]) & one
