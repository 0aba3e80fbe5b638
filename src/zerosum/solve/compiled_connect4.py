"""The Connect Four solver's kernel compiled: `zerosum.solve.connect4.make_kernel`'s negamax, node
for node, over numpy arrays (the Python kernel is the reference; read the idea there).

numba cannot cache a recursive function reliably, and a recursive call cannot hand control back
to Python half way, so the search keeps its own stack: one row of `frames` (and of `boards`) a
ply, holding the node's window, its table slot and its ordered moves. `run` searches until it
has finished, or until the node counter reaches `info[PAUSE]`; called again it goes on where it
stopped. Between its calls the caller checks the clock, Ctrl-C and the node limit, and prints
progress.

The table is one preallocated array of 64-bit words (`zerosum.solve.connect4.ArrayTable`), two
slots a bucket, each word the Python table's entry `key << 18 | stones << 12 | (lower + 32) << 6
| (upper + 32)` with the key's bits past the word's 64 dropped: a bucket's keys leave the same
remainder by the prime number of buckets, so their low `KEPT_KEY_BITS` bits tell them apart. A
bucket is 16 bytes, a probe one cache line. With as many slots as the Python table, the two keep
the same entries and search the same nodes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from zerosum.compiled.bits import popcount
from zerosum.solve.connect4_book import mirror_key

# The layout of `info` (int64): counters, the position the search started from, and the plies
# of the opening book (-1 without one).
NODES, PAUSE, DEPTH, RESULT, BOOK_PLIES = range(5)
INFO = 5

# The columns of `frames` (int64), one row a ply.
MOVES, ALPHA, BETA, BUCKET, KNOWN_LOWER, KNOWN_UPPER, COUNT, NEXT = range(8)
FRAME = 8

# The columns of `boards` (uint64): the stones of the player to move, every stone, the key, the
# mirror images of the first two (kept move by move: a key's image is the sum of theirs), the
# cells where the opponent would win (found by the node above when it ordered its moves), then
# for each move in centre-first order the cells where its stone would make this player win.
POSITION, MASK, KEY, MIRRORED_POSITION, MIRRORED_MASK, THREATS, MADE = range(7)

# The layout of `geometry` (uint64): the board's constants, then its columns' masks, centre first.
HEIGHT, CELLS, STRIDE, BOTTOM_ROW, BOARD, BUCKETS, MIRRORED_BELOW, CUTOFF_ABOVE, COLUMNS = range(9)

BOUND_OFFSET = 32
"""Bounds are stored plus this (scores lie within -32..31)."""

KEPT_KEY_BITS = 64 - 18
"""The low bits of its key a table word keeps (the other 18 hold the stones and the bounds)."""
_KEPT_KEY = np.uint64((1 << KEPT_KEY_BITS) - 1)

_ZERO, _ONE, _TWO, _THREE = np.uint64(0), np.uint64(1), np.uint64(2), np.uint64(3)
_TWELVE, _EIGHTEEN, _SIXTY_THREE, _SIXTY_FOUR = (np.uint64(n) for n in (12, 18, 63, 64))


def geometry_of(height: int, order: list[int], bottom_row: int, board: int, buckets: int,
                mirrored_below: int, cutoff_above: int) -> np.ndarray:  # fmt: skip
    """The constants `run` reads, in `geometry`'s layout: after the board's, the mask of each
    column in `order`, then how far its mirror image lies (64 + n: n bits right; n: n left)."""
    width, stride = len(order), height + 1
    masks = [((1 << height) - 1) << column * stride for column in order]
    shifts = [(width - 1 - 2 * column) * stride for column in order]
    shifts = [shift if shift >= 0 else 64 - shift for shift in shifts]
    return np.array([height, width * height, stride, bottom_row, board, buckets, mirrored_below,
                     cutoff_above, *masks, *shifts], np.uint64)  # fmt: skip


@njit(cache=True, inline="always")
def winning(stones, mask, stride, board):
    """Empty cells where one more of `stones` completes four in a row (the Python kernel's)."""
    r = (stones << _ONE) & (stones << _TWO) & (stones << _THREE)
    for s in (stride, stride - _ONE, stride + _ONE):
        p = (stones << s) & (stones << (_TWO * s))
        r |= (p & (stones << (_THREE * s))) | (p & (stones >> s))
        p = (stones >> s) & (stones >> (_TWO * s))
        r |= (p & (stones << s)) | (p & (stones >> (_THREE * s)))
    return r & (board ^ mask)


ENTER, NEXT_MOVE, RETURN = range(3)
"""What `run` does next: look at a new node, play a node's next move, hand a score up."""


@njit(cache=True, inline="always")
def mirrored(stones, shift):
    """The mirror image of `stones` of one column, whose image lies `shift` away in `geometry`'s
    convention (64 + n: n bits right; n: n left)."""
    return stones << shift if shift < _SIXTY_FOUR else stones >> (shift - _SIXTY_FOUR)


@njit(cache=True, inline="always")
def find(words, bucket, key):
    """The slot of `bucket` holding `key`, -1 if neither does (the Python kernel's `find`; a
    word of 0 is an empty slot)."""
    kept = key & _KEPT_KEY
    for slot in (bucket, bucket + 1):
        word = words[slot]
        if word != _ZERO and word >> _EIGHTEEN == kept:
            return slot
    return -1


@njit(cache=True, inline="always")
def store(words, bucket, key, moves, lower, upper):
    """Remember `lower <= score <= upper` for `key`, whose position has `moves` stones, in its
    bucket (the Python kernel's `store`)."""
    first = words[bucket]
    if (
        first == _ZERO
        or first >> _EIGHTEEN == key & _KEPT_KEY
        or np.int64((first >> _TWELVE) & _SIXTY_THREE) >= moves
    ):
        slot = bucket
    else:
        slot = bucket + 1
    words[slot] = (
        key << _EIGHTEEN
        | np.uint64(moves) << _TWELVE
        | np.uint64(lower + BOUND_OFFSET) << np.uint64(6)
        | np.uint64(upper + BOUND_OFFSET)
    )


@njit(cache=True, nogil=True)  # a page's other searches and its event loop go on
def run(info, frames, boards, order, words, geometry, book_keys, book_scores):
    """Search from the root (row 0 of the stack, set by `zerosum.solve.connect4`), or go on with
    a search that paused; return True when finished (the root's score in `info[RESULT]`), False
    when paused at `info[PAUSE]` nodes (it resumes at `info[DEPTH]`). A node of at most
    `info[BOOK_PLIES]` stones takes its score from the opening book (`book_keys`, ascending
    canonical keys, and their `book_scores`) when the book has it."""
    cells = np.int64(geometry[CELLS])
    stride, bottom, board = geometry[STRIDE], geometry[BOTTOM_ROW], geometry[BOARD]
    buckets = geometry[BUCKETS]
    mirrored_below = np.int64(geometry[MIRRORED_BELOW])
    transposition_cutoff_above = np.int64(geometry[CUTOFF_ABOVE])
    width = (geometry.shape[0] - COLUMNS) // 2
    book_plies, book_size = info[BOOK_PLIES], book_keys.shape[0]
    nodes, pause = info[NODES], info[PAUSE]
    ply = info[DEPTH]
    step = ENTER if frames[ply, NEXT] < 0 else NEXT_MOVE
    result = 0
    while True:
        if step == ENTER:  # the Python kernel's body down to its loop over moves
            if nodes >= pause:
                info[NODES], info[DEPTH] = nodes, ply
                return False
            nodes += 1
            step = RETURN
            position, mask = boards[ply, POSITION], boards[ply, MASK]
            moves = frames[ply, MOVES]
            alpha, beta = frames[ply, ALPHA], frames[ply, BETA]
            possible = (mask + bottom) & board
            if ply == 0:
                threats = winning(position ^ mask, mask, stride, board)
            else:
                threats = boards[ply, THREATS]
            forced = possible & threats
            if forced:
                if forced & (forced - _ONE):  # two threats to stop at once
                    result = -((cells - moves) // 2)
                    continue
                possible = forced
            safe = possible & ~(threats >> _ONE)  # never play right under a threat
            if not safe:
                result = -((cells - moves) // 2)
                continue
            if moves >= cells - 2:  # nobody can win any more
                result = 0
                continue
            key = position + mask
            if moves < mirrored_below:  # a position and its mirror image share their entries
                key = min(key, boards[ply, MIRRORED_POSITION] + boards[ply, MIRRORED_MASK])
            if moves <= book_plies:  # the opening book knows the exact score
                at = np.searchsorted(book_keys, key)
                if at < book_size and book_keys[at] == key:
                    result = int(book_scores[at])
                    continue
            lower = -((cells - 2 - moves) // 2)
            upper = (cells - 1 - moves) // 2
            bucket = np.int64(key % buckets) << 1
            slot = find(words, bucket, key)
            if slot >= 0:
                entry = words[slot]
                lower = max(lower, np.int64((entry >> np.uint64(6)) & _SIXTY_THREE) - 32)
                upper = min(upper, np.int64(entry & _SIXTY_THREE) - 32)
                known_lower, known_upper = lower, upper
            else:
                known_lower, known_upper = -32, 31
            if alpha < lower:
                alpha = lower
                if alpha >= beta:
                    result = alpha
                    continue
            if beta > upper:
                beta = upper
                if alpha >= beta:
                    result = beta
                    continue
            if cells - moves > transposition_cutoff_above:  # a child's bound may cut at once
                cut = False
                base = (position ^ mask) + mask  # a child's key is this plus its move
                if moves + 1 < mirrored_below:
                    image_mask = boards[ply, MIRRORED_MASK]
                    base_image = (boards[ply, MIRRORED_POSITION] ^ image_mask) + image_mask
                for rank in range(width):
                    move = safe & geometry[COLUMNS + rank]
                    if move:
                        child_key = base + move
                        if moves + 1 < mirrored_below:  # the mirror of a sum of columns
                            image = mirrored(move, geometry[COLUMNS + width + rank])
                            child_key = min(child_key, base_image + image)
                        child_bucket = np.int64(child_key % buckets) << 1
                        child_slot = find(words, child_bucket, child_key)
                        if child_slot >= 0:
                            child_upper = np.int64(words[child_slot] & _SIXTY_THREE) - 32
                            if -child_upper >= beta:
                                result = int(-child_upper)
                                cut = True
                                break
                if cut:
                    continue
            count = 0  # threat ordering: more threats first, ties in centre-first order
            own = winning(position, mask, stride, board)  # threats before moving
            for rank in range(width):
                move = safe & geometry[COLUMNS + rank]
                if move:
                    made = winning(position | move, mask, stride, board)
                    boards[ply, MADE + rank] = made
                    threats = popcount(made)
                    if own & (move << _ONE):  # right under its own threat: one less
                        threats -= 1
                    code = (threats + 1) << 4
                    code |= 15 - rank
                    at = count  # insertion, the largest code first
                    while at > 0 and order[ply, at - 1] < code:
                        order[ply, at] = order[ply, at - 1]
                        at -= 1
                    order[ply, at] = code
                    count += 1
            boards[ply, KEY] = key
            frames[ply, ALPHA], frames[ply, BETA] = alpha, beta
            frames[ply, BUCKET] = bucket
            frames[ply, KNOWN_LOWER], frames[ply, KNOWN_UPPER] = known_lower, known_upper
            frames[ply, COUNT], frames[ply, NEXT] = count, 0
            step = NEXT_MOVE
        elif step == NEXT_MOVE:
            following = frames[ply, NEXT]
            if following < frames[ply, COUNT]:
                rank = 15 - (order[ply, following] & 15)
                position, mask = boards[ply, POSITION], boards[ply, MASK]
                stone = (mask + bottom) & geometry[COLUMNS + rank]
                child = ply + 1
                boards[child, POSITION] = position ^ mask
                boards[child, MASK] = mask | stone
                boards[child, THREATS] = boards[ply, MADE + rank] & ~stone  # its opponent's
                image_mask = boards[ply, MIRRORED_MASK]
                boards[child, MIRRORED_POSITION] = boards[ply, MIRRORED_POSITION] ^ image_mask
                boards[child, MIRRORED_MASK] = image_mask | mirrored(
                    stone, geometry[COLUMNS + width + rank]
                )
                frames[child, MOVES] = frames[ply, MOVES] + 1
                frames[child, ALPHA] = -frames[ply, BETA]
                frames[child, BETA] = -frames[ply, ALPHA]
                frames[child, NEXT] = -1
                ply = child
                step = ENTER
            else:  # every move failed low: the score is at most alpha
                result = frames[ply, ALPHA]
                store(words, frames[ply, BUCKET], boards[ply, KEY], frames[ply, MOVES],
                      frames[ply, KNOWN_LOWER], result)  # fmt: skip
                step = RETURN
        else:  # RETURN: `result` is the score of the node at `ply`
            if ply == 0:
                info[NODES], info[RESULT], info[DEPTH] = nodes, result, 0
                frames[0, NEXT] = -1
                return True
            ply -= 1
            score = -result
            if score >= frames[ply, BETA]:  # a cut: the score is at least this
                store(words, frames[ply, BUCKET], boards[ply, KEY], frames[ply, MOVES], score,
                      frames[ply, KNOWN_UPPER])  # fmt: skip
                result = score
            else:
                if score > frames[ply, ALPHA]:
                    frames[ply, ALPHA] = score
                frames[ply, NEXT] += 1
                step = NEXT_MOVE


PAUSE_EVERY = 1 << 20
"""Nodes between two hands back to Python (a few tenths of a second)."""


def make_compiled_kernel(
    game: Any,
    table: Any,
    counter: list[int],
    *,
    mirrored_below: int,
    cutoff_above: int,
    stopped: type[Exception],
    book: Any = None,
) -> Any:
    """`zerosum.solve.connect4.make_kernel`'s negamax compiled, over `table` (an `ArrayTable`):
    the same signature, the same nodes counted in `counter[0]`, the same stop past `counter[1]`
    (`stopped` raised), handing back to Python every `PAUSE_EVERY` nodes; the mirror and the
    cut-off's look ahead at the solver's depths (`mirrored_below`, `cutoff_above`); the exact
    scores of `book` (an `OpeningBook`, or None) at the nodes it holds."""
    geometry = geometry_of(game.height, list(game.order), game.bottom_row, game.board,
                           table.buckets, mirrored_below, cutoff_above)  # fmt: skip
    rows = game.cells + 2
    info = np.zeros(INFO, np.int64)
    frames = np.zeros((rows, FRAME), np.int64)
    boards = np.zeros((rows, MADE + game.width), np.uint64)
    order = np.zeros((rows, game.width), np.int64)
    if book is None:
        book_keys, book_scores, book_plies = np.empty(0, np.uint64), np.empty(0, np.int8), -1
    else:
        book_keys, book_scores, book_plies = book.keys, book.scores, book.plies

    def negamax(position: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        boards[0, POSITION], boards[0, MASK] = position, mask
        boards[0, MIRRORED_POSITION] = mirror_key(position, game.width, game.stride)
        boards[0, MIRRORED_MASK] = mirror_key(mask, game.width, game.stride)
        frames[0, MOVES], frames[0, ALPHA], frames[0, BETA] = moves, alpha, beta
        frames[0, NEXT] = -1
        info[NODES], info[DEPTH] = counter[0], 0
        info[BOOK_PLIES] = book_plies
        while True:
            info[PAUSE] = min(counter[0] + PAUSE_EVERY, counter[1] + 1)
            done = run(info, frames, boards, order, table.words, geometry, book_keys, book_scores)
            counter[0] = int(info[NODES])
            if done:
                return int(info[RESULT])
            if counter[0] > counter[1]:
                raise stopped

    return negamax
