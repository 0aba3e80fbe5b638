"""Go's rules compiled (`zerosum.compiled.protocol`): the twin of `zerosum.games.go.Go`.

A state is one word per field, then one per point, then the history:

- `PLAYER`, `PASSES`, `PLAYED`: the player to move, the passes that led here, the moves played;
- `SIZE` and `KOMI2` (twice the komi plus `KOMI_OFFSET`, so that it is never negative): the
  game's, so that one compiled code plays every board from 5x5 to 19x19;
- `HASH`: the board's Zobrist key, the exclusive or of a random word per stone (`ZOBRIST`);
- `SEEN`: how many boards the history holds;
- from `POINTS`: the points, 0 empty, 1 Black, 2 White, row by row from A1 as in `Go`;
- `STONES`: the stones on the board;
- after the points, a word for each count of stones from 0 to the board's points: a filter of
  the keys of the boards seen with that many stones (`_repeats`);
- after them: the Zobrist keys of every board seen so far (this one included), for positional
  superko. Two boards are told apart by their 64-bit keys: boards that differ share one with a
  chance of about 2**-64 in a pair, which this twin allows for (the Python game compares the
  boards themselves).

`moves` works out each group's liberties once (a flood fill per group), then a point is legal
when a neighbour is empty, or an own group there keeps another liberty, or an opponent's group
there has it as its last liberty (a capture), and the board it makes is not in the history.
Moves are listed as the Python game lists them: the points in order, then the pass.

`playout_move` is the playout policy (`CompiledGame.playout_move`, the twin of
`Go.playout_moves`): a random empty point, tested alone, never one of the mover's simple eyes
(`is_eye`), the pass when none is left. It is no rule: `moves` keeps every legal move.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from zerosum.compiled.draws import below
from zerosum.compiled.protocol import CompiledGame, Twin
from zerosum.games.go import LARGEST, MOVES_PER_POINT, Go, Position

U = np.uint64
PLAYER, PASSES, PLAYED, SIZE, KOMI2, HASH, SEEN, STONES, POINTS = range(9)
MOST_POINTS = LARGEST * LARGEST
KOMI_OFFSET = 2 * MOST_POINTS
"""Added to twice the komi (at most the board's points either way) in its word."""
ZOBRIST = np.random.default_rng(37).integers(0, 2**63, size=(2, MOST_POINTS), dtype=np.int64)
"""A random 63-bit word for each colour on each point: a board's key is the exclusive or of
its stones' words (a fixed generator, so that keys are the same from run to run)."""
ZOBRIST_WORDS = ZOBRIST.astype(np.uint64)
PLAYER_SALT = U(0x9E3779B97F4A7C15)
"""What `key` mixes in when White is to move."""


def words_for(size: int) -> int:
    """The words of a state of a `size` x `size` game: the fields, the points, the history
    (the start and one board for each move at most)."""
    points = size * size
    return POINTS + points + points + 1 + MOVES_PER_POINT * points + 1


@njit(cache=True)
def _neighbours(point, size, out):
    """Write the points next to `point` into `out`; return how many there are."""
    row, column = point // size, point % size
    count = 0
    if row > 0:
        out[count] = point - size
        count += 1
    if row < size - 1:
        out[count] = point + size
        count += 1
    if column > 0:
        out[count] = point - 1
        count += 1
    if column < size - 1:
        out[count] = point + 1
        count += 1
    return count


@njit(cache=True)
def _groups(state, size, group_of, liberties, keys, sizes, stack, marked, around):
    """Label the groups of stones: `group_of[point]` the group of each stone (-1 for an empty
    point), `liberties[group]` its number of liberties, `keys[group]` the exclusive or of its
    stones' Zobrist words, `sizes[group]` its stones. `marked` says which liberty was counted
    for which group."""
    points = size * size
    for point in range(points):
        group_of[point] = -1
        marked[point] = -1
    groups = 0
    for start in range(points):
        colour = np.int64(state[POINTS + start])
        if colour == 0 or group_of[start] >= 0:
            continue
        group_of[start] = groups
        stack[0] = start
        depth = 1
        count = 0
        stones = 0
        key = U(0)
        while depth:
            depth -= 1
            point = stack[depth]
            stones += 1
            key ^= ZOBRIST_WORDS[colour - 1, point]
            for index in range(_neighbours(point, size, around)):
                other = around[index]
                held = np.int64(state[POINTS + other])
                if held == 0:
                    if marked[other] != groups:
                        marked[other] = groups
                        count += 1
                elif held == colour and group_of[other] < 0:
                    group_of[other] = groups
                    stack[depth] = other
                    depth += 1
        liberties[groups] = count
        keys[groups] = key
        sizes[groups] = stones
        groups += 1


@njit(cache=True)
def _filter_bit(key):
    """The bit of a board's key in the word of its stone count (`_repeats`)."""
    return U(1) << (key & U(63))


@njit(cache=True)
def _repeats(state, key, stones):
    """Whether the board of Zobrist key `key` and `stones` stones is in the history. Each
    count of stones has a word of the history's keys (a one-word Bloom filter: the bit
    `_filter_bit` of each board with that many stones), so that the history is read only for
    a board whose bit is set: a few of the legal moves, not each."""
    size = np.int64(state[SIZE])
    points = size * size
    if not state[POINTS + points + stones] & _filter_bit(key):
        return False
    start = POINTS + points + points + 1
    for index in range(start, start + np.int64(state[SEEN])):  # noqa: SIM110 (numba: a loop)
        if state[index] == key:
            return True
    return False


@njit(cache=True)
def _limit(state):
    return U(MOVES_PER_POINT) * state[SIZE] * state[SIZE]


@njit(cache=True)
def to_move(state):
    return np.int64(state[PLAYER])


@njit(cache=True)
def terminal(state):
    return state[PASSES] >= 2 or state[PLAYED] >= _limit(state)


@njit(cache=True)
def moves(state, out):
    if terminal(state):
        return 0
    size = np.int64(state[SIZE])
    points = size * size
    work = np.empty(5 * points + 8, np.int64)  # one allocation for the working arrays
    group_of = work[:points]
    liberties = work[points : 2 * points]
    sizes = work[2 * points : 3 * points]
    stack = work[3 * points : 4 * points]
    marked = work[4 * points : 5 * points]
    around = work[5 * points : 5 * points + 4]
    taken = work[5 * points + 4 :]
    keys = np.empty(points, np.uint64)
    _groups(state, size, group_of, liberties, keys, sizes, stack, marked, around)
    stones = np.int64(state[STONES]) + 1
    mine = np.int64(state[PLAYER]) + 1
    count = 0
    for point in range(points):
        if state[POINTS + point] != 0:
            continue
        key = state[HASH] ^ ZOBRIST_WORDS[mine - 1, point]
        breathes = False
        captures = 0
        after = stones
        for index in range(_neighbours(point, size, around)):
            other = around[index]
            held = np.int64(state[POINTS + other])
            if held == 0:
                breathes = True
            elif held == mine:
                if liberties[group_of[other]] > 1:
                    breathes = True
            elif liberties[group_of[other]] == 1:
                group = group_of[other]
                new = True
                for earlier in range(captures):
                    if taken[earlier] == group:
                        new = False
                if new:
                    taken[captures] = group
                    captures += 1
                    key ^= keys[group]
                    after -= sizes[group]
        if (breathes or captures) and not _repeats(state, key, after):
            out[count] = point
            count += 1
    out[count] = points  # the pass
    return count + 1


@njit(cache=True)
def _remove_if_dead(board, start, colour, size, stack, around):
    """Take off the group of `colour` holding `start` when it has no liberty (board is the
    state's points); return the exclusive or of the Zobrist words of the stones taken, and
    how many they are."""
    points = size * size
    member = np.zeros(points, np.bool_)
    member[start] = True
    stack[0] = start
    depth = 1
    found = 1
    while depth:
        depth -= 1
        point = stack[depth]
        for index in range(_neighbours(point, size, around)):
            other = around[index]
            held = np.int64(board[other])
            if held == 0:
                return U(0), 0
            if held == colour and not member[other]:
                member[other] = True
                stack[depth] = other
                depth += 1
                found += 1
    key = U(0)
    for point in range(points):
        if member[point]:
            board[point] = 0
            key ^= ZOBRIST_WORDS[colour - 1, point]
    return key, found


@njit(cache=True)
def play(state, move, child):
    size = np.int64(state[SIZE])
    points = size * size
    used = POINTS + points + points + 1 + np.int64(state[SEEN])
    child[:used] = state[:used]
    child[PLAYER] = U(1) - state[PLAYER]
    child[PLAYED] = state[PLAYED] + U(1)
    if move == points:
        child[PASSES] = state[PASSES] + U(1)
        return
    child[PASSES] = 0
    mine = np.int64(state[PLAYER]) + 1
    theirs = 3 - mine
    board = child[POINTS : POINTS + points]
    board[move] = mine
    key = state[HASH] ^ ZOBRIST_WORDS[mine - 1, move]
    around = np.empty(4, np.int64)
    besides = np.empty(4, np.int64)
    stack = np.empty(points, np.int64)
    stones = np.int64(state[STONES]) + 1
    for index in range(_neighbours(move, size, around)):
        other = around[index]
        if board[other] == theirs:
            taken, count = _remove_if_dead(board, other, theirs, size, stack, besides)
            key ^= taken
            stones -= count
    child[HASH] = key
    child[STONES] = stones
    child[POINTS + points + stones] |= _filter_bit(key)
    child[used] = key
    child[SEEN] = state[SEEN] + U(1)


@njit(cache=True)
def is_eye(state, point, colour):
    """Whether the empty `point` is a simple eye of `colour` (1 Black, 2 White): `Go.is_eye`,
    its definition there."""
    size = np.int64(state[SIZE])
    if state[POINTS + point] != 0:
        return False
    row, column = point // size, point % size
    if row > 0 and state[POINTS + point - size] != colour:
        return False
    if row < size - 1 and state[POINTS + point + size] != colour:
        return False
    if column > 0 and state[POINTS + point - 1] != colour:
        return False
    if column < size - 1 and state[POINTS + point + 1] != colour:
        return False
    diagonals = 0
    foes = 0
    for rows in (-1, 1):
        for columns in (-1, 1):
            r, c = row + rows, column + columns
            if 0 <= r < size and 0 <= c < size:
                diagonals += 1
                if state[POINTS + r * size + c] == 3 - colour:
                    foes += 1
    return foes <= (1 if diagonals == 4 else 0)


@njit(cache=True)
def _fill(state, start, point, size, marks, stamp, stack, around):
    """Flood the group holding `start` (marking its stones `stamp` in `marks`) until it shows
    a liberty other than the empty `point`; return whether it has one, and when it has none
    the exclusive or of its stones' Zobrist words and how many they are."""
    colour = np.int64(state[POINTS + start])
    marks[start] = stamp
    stack[0] = start
    depth = 1
    stones = 0
    key = U(0)
    while depth:
        depth -= 1
        here = stack[depth]
        stones += 1
        key ^= ZOBRIST_WORDS[colour - 1, here]
        for index in range(_neighbours(here, size, around)):
            other = around[index]
            held = np.int64(state[POINTS + other])
            if held == 0 and other != point:
                return True, U(0), 0
            if held == colour and marks[other] != stamp:
                marks[other] = stamp
                stack[depth] = other
                depth += 1
    return False, key, stones


@njit(cache=True)
def _legal(state, point, size, marks, stamp, stack, around):
    """Whether a stone of the player to move on the empty `point` is legal: `moves`'s test of
    one point, flooding only the groups next to it, the one from its `index`-th neighbour
    marked `stamp + index` (`around` holds eight words: the point's neighbours, a group's)."""
    mine = np.int64(state[PLAYER]) + 1
    key = state[HASH] ^ ZOBRIST_WORDS[mine - 1, point]
    after = np.int64(state[STONES]) + 1
    breathes = False
    captures = False
    beside = around[4:]
    for index in range(_neighbours(point, size, around)):
        other = around[index]
        held = np.int64(state[POINTS + other])
        if held == 0:
            breathes = True
        elif held == mine:
            if not breathes:
                breathes = _fill(state, other, point, size, marks, stamp + index, stack, beside)[0]
        elif not stamp <= marks[other] < stamp + index:  # a group not flooded from this point yet
            free, taken, stones = _fill(
                state, other, point, size, marks, stamp + index, stack, beside
            )
            if not free:
                captures = True
                key ^= taken
                after -= stones
    return (breathes or captures) and not _repeats(state, key, after)


@njit(cache=True)
def playout_move(state, rng):
    """A playout's move in the non-terminal `state`: a point drawn uniformly from the empty
    ones, kept if a stone there is legal and fills no simple eye of the player to move
    (`is_eye`), else struck off and another drawn; the pass once none is left. A uniform
    draw from `Go.playout_moves`, testing a point or a few instead of listing every move."""
    size = np.int64(state[SIZE])
    points = size * size
    work = np.empty(3 * points + 8, np.int64)  # one allocation for the working arrays
    empty = work[:points]
    marks = work[points : 2 * points]
    stack = work[2 * points : 3 * points]
    around = work[3 * points :]
    count = 0
    for point in range(points):
        marks[point] = -1
        if state[POINTS + point] == 0:
            empty[count] = point
            count += 1
    colour = np.int64(state[PLAYER]) + 1
    stamp = 0
    while count:
        index = below(rng, count)
        point = empty[index]
        if not is_eye(state, point, colour) and _legal(
            state, point, size, marks, stamp, stack, around
        ):
            return point
        stamp += 4
        count -= 1
        empty[index] = empty[count]
    return points  # the pass


@njit(cache=True)
def area(state):
    """Black's points and White's by area (`Go.area`)."""
    size = np.int64(state[SIZE])
    points = size * size
    visited = np.zeros(points, np.bool_)
    stack = np.empty(points, np.int64)
    around = np.empty(4, np.int64)
    black = 0
    white = 0
    for start in range(points):
        held = np.int64(state[POINTS + start])
        if held == 1:
            black += 1
        elif held == 2:
            white += 1
        elif not visited[start]:
            visited[start] = True
            stack[0] = start
            depth = 1
            region = 0
            borders = np.int64(0)  # bit 1: a Black stone seen, bit 2: a White one
            while depth:
                depth -= 1
                point = stack[depth]
                region += 1
                for index in range(_neighbours(point, size, around)):
                    other = around[index]
                    colour = np.int64(state[POINTS + other])
                    if colour == 0:
                        if not visited[other]:
                            visited[other] = True
                            stack[depth] = other
                            depth += 1
                    else:
                        borders |= colour
            if borders == 1:
                black += region
            elif borders == 2:
                white += region
    return black, white


@njit(cache=True)
def utility(state, player):
    black, white = area(state)
    twice = 2 * (black - white) - (np.int64(state[KOMI2]) - KOMI_OFFSET)
    sign = 1 if twice > 0 else -1 if twice < 0 else 0
    return sign if player == 0 else -sign


@njit(cache=True)
def key(state):
    salt = PLAYER_SALT if state[PLAYER] else U(0)
    return state[HASH] ^ salt ^ (state[PASSES] * U(0xBF58476D1CE4E5B9))


def board_key(black: int, white: int) -> int:
    """The Zobrist key of a board given as the Python game's two bitboards."""
    key = 0
    for colour, stones in enumerate((black, white)):
        while stones:
            lowest = stones & -stones
            key ^= int(ZOBRIST[colour, lowest.bit_length() - 1])
            stones ^= lowest
    return key


@functools.cache
def go_rules(game: Go) -> CompiledGame:
    """The `CompiledGame` of `game`'s board and komi, twinned with `game`."""
    size, points = game.size, game.points
    komi2 = int(game.komi * 2)
    start = np.zeros(words_for(size), np.uint64)
    start[SIZE] = size
    start[KOMI2] = komi2 + KOMI_OFFSET
    start[SEEN] = 1  # the empty board, key 0
    start[POINTS + points] = 1  # its bit among the boards of no stone

    @njit
    def initial(state):
        state[:] = start

    def to_words(state: Position) -> np.ndarray:
        words = start.copy()
        words[PLAYER], words[PASSES], words[PLAYED] = state.player, state.passes, state.played
        for point in range(points):
            if state.black >> point & 1:
                words[POINTS + point] = 1
            elif state.white >> point & 1:
                words[POINTS + point] = 2
        words[HASH] = board_key(state.black, state.white)
        words[STONES] = (state.black | state.white).bit_count()
        words[POINTS + points] = 0
        for black, white in state.seen:
            stones = (black | white).bit_count()
            words[POINTS + points + stones] |= 1 << (board_key(black, white) & 63)
        history = [board_key(black, white) for black, white in state.seen]
        words[SEEN] = len(history)
        first = POINTS + points + points + 1
        words[first : first + len(history)] = history
        return words

    def from_words(words: np.ndarray) -> Position:
        """The Python game's position of `words`, its history the current board alone (the
        words keep the history's keys, not its boards)."""
        board = words[POINTS : POINTS + points]
        black = sum(1 << point for point in range(points) if board[point] == 1)
        white = sum(1 << point for point in range(points) if board[point] == 2)
        return Position(black, white, int(words[PLAYER]), int(words[PASSES]),
                        int(words[PLAYED]), frozenset({(black, white)}))  # fmt: skip

    return CompiledGame(
        "go", words=words_for(size), max_moves=points + 1, move_space=points + 1,
        max_plies=game.move_limit, initial=initial, to_move=to_move, moves=moves, play=play,
        terminal=terminal, utility=utility, key=key, playout_move=playout_move,
        format_move=lambda move: game.format_move(game.initial_state(), move),
        twin=Twin(game, to_words, from_words),
    )  # fmt: skip
