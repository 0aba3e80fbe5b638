"""Connect Four's rules compiled (`zerosum.compiled.protocol`): the twin of `ConnectFour`, for
any width and height whose board fits in 64 bits with a spare bit a column
(`width * (height + 1) <= 64`) and any line length.

A state is four words, the Python game's tuple: the stones of the player to move, every stone,
the number of stones, and 1 when the player who just moved has a line. Moves are columns,
centre first; the key is `position + mask`, the evaluation and the noisy moves the Python
game's, computed alike (the two engines score every position the same).

The functions are closures over the board's dimensions, compiled once a size in a process;
numba's cache does not keep closures across processes.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import njit

from zerosum.compiled.bits import popcount, shift_left, shift_right
from zerosum.compiled.protocol import CompiledGame, Twin
from zerosum.games.connect4 import ConnectFour


def connect_four_rules(game: ConnectFour) -> CompiledGame:
    """The compiled rules of `game`'s size, twinned with `game`; ValueError when its board does
    not fit in 64 bits."""
    if game.width * game.stride > 64:
        raise ValueError(
            f"a {game.width}x{game.height} Connect Four board does not fit in 64 bits:"
            " the compiled rules need width * (height + 1) <= 64"
        )
    initial, to_move, moves, play, terminal, utility, key, evaluate, noisy = _compile(
        game.width, game.height, game.connect
    )
    return CompiledGame(
        f"connect4({game.width}x{game.height}, {game.connect} in a line)",
        words=4, max_moves=game.width, move_space=game.width, max_plies=game.cells,
        initial=initial, to_move=to_move, moves=moves, play=play, terminal=terminal,
        utility=utility, key=key, evaluate=evaluate, noisy=noisy,
        format_move=_column_text, twin=Twin(game, _to_words, _from_words),
    )  # fmt: skip


def _column_text(move: int) -> str:
    return str(move + 1)


def _to_words(state: tuple[int, int, int, bool]) -> np.ndarray:
    return np.array([state[0], state[1], state[2], int(state[3])], np.uint64)


def _from_words(words: np.ndarray) -> tuple[int, int, int, bool]:
    return int(words[0]), int(words[1]), int(words[2]), bool(words[3])


@functools.cache
def _compile(width: int, height: int, connect: int) -> tuple[Any, ...]:
    """The compiled functions of one size: initial, to_move, moves, play, terminal, utility,
    key, evaluate, noisy (the protocol's order)."""
    shape = ConnectFour(width, height, connect)  # the constants, computed once by the Python game
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
    zero, one, two, three = u(0), u(1), u(2), u(3)
    four = connect == 4

    @njit
    def initial(state):
        state[:] = 0

    @njit
    def to_move(state):
        return np.int64(state[2] & one)

    @njit
    def terminal(state):
        return state[3] != zero or state[2] == u(cells)

    @njit
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

    @njit
    def line_starts(stones):
        starts = zero
        for shift in directions:
            if four:  # pairs of pairs: two shifts instead of three
                pairs = stones & shift_right(stones, shift)
                starts |= pairs & shift_right(pairs, two * shift)
            else:
                run = stones
                for _ in range(connect - 1):
                    run = run & shift_right(run, shift)
                starts |= run
        return starts

    @njit
    def play(state, move, child):
        position, mask = state[0], state[1]
        opponent_stones = position ^ mask
        mask |= mask + bottom[move]
        mover_stones = opponent_stones ^ mask
        child[0] = opponent_stones
        child[1] = mask
        child[2] = state[2] + one
        child[3] = one if line_starts(mover_stones) != zero else zero

    @njit
    def utility(state, player):
        if state[3] == zero:
            return 0
        winner = np.int64((state[2] - one) & one)
        return 1 if player == winner else -1

    @njit
    def key(state):
        return state[0] + state[1]

    @njit
    def winning_cells(stones, mask):
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
        reach = connect - 1
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

    @njit
    def evaluate(state, player):
        position, mask, stones, won = state[0], state[1], state[2], state[3]
        if won != zero or stones == u(cells):
            return float(utility(state, player))
        mover = np.int64(stones & one)
        mine = winning_cells(position, mask)
        theirs = winning_cells(position ^ mask, mask)
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

    @njit
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

    return initial, to_move, moves, play, terminal, utility, key, evaluate, noisy
