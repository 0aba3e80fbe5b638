"""Othello's rules compiled (`zerosum.compiled.protocol`): the twin of `Othello`.

A state is five words, the Python game's tuple with its `moves` split in two because bit 64
(the pass) does not fit in a word: the discs of the player to move, the other's, the player
to move, the squares it may play, and 1 when it must pass (0 otherwise; the game is over
when both of the last two are 0). Moves are squares 0-63 and the pass 64, listed in the
Python game's order (corners, edges, inner squares, C-squares, X-squares, each group in
square order), so that both engines search the same tree. The key, the evaluation and the
noisy moves are the Python game's, computed alike.

Move generation is the Python game's idea without its loops: a flanked line is at most six
discs long, so in each direction a fixed few shifts and masks find every run from the mover's
discs at once, with no branch to mispredict (a "fill", the way bitboard programs do it).
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from zerosum.compiled.bits import popcount
from zerosum.compiled.protocol import CompiledGame, Twin
from zerosum.games import othello as rules
from zerosum.games.othello import PASS, Othello, move_name

U = np.uint64
ZERO, ONE = U(0), U(1)
BOARD = U(rules.BOARD)
INNER_COLUMNS = U(rules.INNER_COLUMNS)
CORNERS = U(rules.CORNERS)
EDGES = U(rules.EDGES)
ORDER = np.array(rules.ORDER, np.uint64)  # a global array: numba compiles it in as a constant
X_SQUARES = np.array([x for x, _ in rules.X_SQUARE_CORNERS], np.uint64)
X_CORNERS = np.array([corner for _, corner in rules.X_SQUARE_CORNERS], np.uint64)
S1, S7, S8, S9 = U(1), U(7), U(8), U(9)
MIX_1, MIX_2 = U(rules.MIX_1), U(rules.MIX_2)
SALT = U(rules.WHITE_SALT)
S27, S30, S31 = U(27), U(30), U(31)

WORDS = 5
MOVES_MAX = 64
"""Room for the moves of any position (the pass is alone); no game reached gets near 64."""
PLIES_MAX = 121
"""At most 60 discs are put down, and at most one pass before each (two passes end it)."""


@njit(cache=True, inline="always")
def _runs(start, flank, shift):
    """The runs of `flank` discs that start next to one of `start`, in the direction of a left
    shift by `shift` (towards higher squares) and of a right one, as a pair.

    Runs grow one disc, then two at a time over pairs of `flank`: four steps, not six."""
    double = shift + shift
    pairs = flank & (flank << shift)
    up = flank & (start << shift)
    up |= flank & (up << shift)
    up |= pairs & (up << double)
    up |= pairs & (up << double)
    pairs = pairs >> shift
    down = flank & (start >> shift)
    down |= flank & (down >> shift)
    down |= pairs & (down >> double)
    down |= pairs & (down >> double)
    return up, down


@njit(cache=True)
def _fill(mine, flank, shift):
    """The squares just past a run of `flank` discs that starts next to one of `mine`, in both
    directions of `shift` (`_runs`)."""
    up, down = _runs(mine, flank, shift)
    return (up << shift) | (down >> shift)


@njit(cache=True)
def legal_squares(mine, theirs):
    """`othello.legal_squares`: the empty squares from which `mine` flanks a line of
    `theirs`."""
    inner = theirs & INNER_COLUMNS
    squares = _fill(mine, inner, S1) | _fill(mine, theirs, S8)
    squares |= _fill(mine, inner, S7) | _fill(mine, inner, S9)
    return squares & ~(mine | theirs)


@njit(cache=True)
def _flanked(disc, mine, flank, shift):
    """The discs of `flank` a disc on `disc` flips in the two directions of `shift` (the runs
    of `_runs` from one disc, kept where one of `mine` ends them)."""
    up, down = _runs(disc, flank, shift)
    flips = up if (up << shift) & mine else ZERO
    if (down >> shift) & mine:
        flips |= down
    return flips


@njit(cache=True)
def flipped(mine, theirs, square):
    """`othello.flipped`: the discs of `theirs` a disc of `mine` on `square` flips."""
    mine, theirs = U(mine), U(theirs)  # plain ints from Python, as `_mix`
    disc = ONE << U(square)
    inner = theirs & INNER_COLUMNS
    flips = _flanked(disc, mine, inner, S1) | _flanked(disc, mine, theirs, S8)
    return flips | _flanked(disc, mine, inner, S7) | _flanked(disc, mine, inner, S9)


@njit(cache=True)
def initial(state):
    state[0] = U(rules.START_BLACK)
    state[1] = U(rules.START_WHITE)
    state[2] = 0
    state[3] = legal_squares(state[0], state[1])
    state[4] = 0


@njit(cache=True)
def to_move(state):
    return np.int64(state[2])


@njit(cache=True)
def terminal(state):
    return state[3] == ZERO and state[4] == ZERO


@njit(cache=True)
def moves(state, out):
    squares = state[3]
    if squares == ZERO:
        if state[4] != ZERO:
            out[0] = PASS
            return 1
        return 0
    count = 0
    for group in ORDER:
        left = squares & group
        while left:
            lowest = left & (~left + ONE)
            out[count] = popcount(lowest - ONE)
            count += 1
            left ^= lowest
    return count


@njit(cache=True)
def play(state, move, child):
    mine, theirs = state[0], state[1]
    if move != PASS:
        flips = flipped(mine, theirs, move)
        mine |= (ONE << U(move)) | flips
        theirs ^= flips
    # The opponent moves next, or passes if only this player can go on, or the game ends.
    following = legal_squares(theirs, mine)
    child[0] = theirs
    child[1] = mine
    child[2] = ONE - state[2]
    child[3] = following
    child[4] = ONE if following == ZERO and legal_squares(mine, theirs) != ZERO else ZERO


@njit(cache=True)
def utility(state, player):
    difference = popcount(state[0]) - popcount(state[1])
    sign = 1 if difference > 0 else -1 if difference < 0 else 0
    return sign if player == np.int64(state[2]) else -sign


@njit(cache=True)
def _mix(z):
    """`othello.mix`: a 64-bit finaliser (splitmix64's)."""
    z = U(z)  # a plain int from Python below 2**63 would be typed int64, and mixed wrongly
    z = (z ^ (z >> S30)) * MIX_1
    z = (z ^ (z >> S27)) * MIX_2
    return z ^ (z >> S31)


@njit(cache=True)
def key(state):
    theirs = state[1] ^ SALT if state[2] else state[1]
    return _mix(_mix(theirs) ^ state[0])


@njit(cache=True)
def evaluate(state, player):
    mine, theirs, mover = state[0], state[1], np.int64(state[2])
    if terminal(state):
        return float(utility(state, player))
    my_mobility = popcount(state[3])
    their_mobility = popcount(U(legal_squares(theirs, mine)))  # U: a uint64 run from Python too
    estimate = float(0.3 * (my_mobility - their_mobility) / (my_mobility + their_mobility + 2))
    estimate += 0.1 * (popcount(mine & CORNERS) - popcount(theirs & CORNERS))
    empty = ~(mine | theirs)
    for index in range(4):
        if X_CORNERS[index] & empty:
            mine_on = 1 if mine & X_SQUARES[index] else 0
            theirs_on = 1 if theirs & X_SQUARES[index] else 0
            estimate -= 0.05 * (mine_on - theirs_on)
    estimate += 0.01 * (popcount(mine & EDGES) - popcount(theirs & EDGES))
    estimate = max(-0.9, min(0.9, estimate))
    return estimate if player == mover else -estimate


@njit(cache=True)
def noisy(state, out):
    corners = state[3] & CORNERS
    count = 0
    while corners:
        lowest = corners & (~corners + ONE)
        out[count] = popcount(lowest - ONE)
        count += 1
        corners ^= lowest
    return count


@functools.cache
def othello_rules(twin: Othello | None = None) -> CompiledGame:
    """Othello's `CompiledGame`, twinned with the Python game `twin` (a new one if None)."""
    return CompiledGame(
        "othello", words=WORDS, max_moves=MOVES_MAX, move_space=PASS + 1, max_plies=PLIES_MAX,
        initial=initial, to_move=to_move, moves=moves, play=play, terminal=terminal,
        utility=utility, key=key, evaluate=evaluate, noisy=noisy, format_move=move_name,
        twin=Twin(twin if twin is not None else Othello(), to_words, from_words),
    )  # fmt: skip


def to_words(state: tuple[int, int, int, int]) -> np.ndarray:
    """The words of the Python game's state."""
    mine, theirs, player, moves_ = state
    return np.array([mine, theirs, player, moves_ & rules.BOARD, moves_ >> PASS], np.uint64)


def from_words(words: np.ndarray) -> tuple[int, int, int, int]:
    """The Python game's state of `words`."""
    return int(words[0]), int(words[1]), int(words[2]), int(words[3]) | int(words[4]) << PASS
