"""The compiled kernel of the chess endgame build (`zerosum.solve.chess_tables`): a table's
index as `zerosum.games.chess.endgame` states it, and the passes that settle its entries.

Tables travel as a few arrays: `specs[m]` holds table m's signature, its pieces' count, its
pawns (0 or 1), its offset in `codes` and then each piece's type and side (`SPEC_*` columns);
`codes` holds every table's entries one after the other, one int16 each:

    UNKNOWN   not settled yet (a draw once the build ends)
    INVALID   no position (not canonical, or not legal)
    0         a draw
    d > 0     a win for the side to move in d plies
    -(d + 1)  a loss for the side to move in d plies (-1: checkmated)

A position's pieces are three small arrays (type, side: 0 White, square) and the side to move;
the legal moves are the compiled rules' (`zerosum.games.compiled_chess.moves`), on a board
written from the pieces.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zerosum.games.compiled_chess import WORDS, moves
from zerosum.games.compiled_chess import in_check as _in_check
from zerosum.games.compiled_chess_attacks import KING as KING_STEPS
from zerosum.games.compiled_chess_attacks import KNIGHT as KNIGHT_STEPS
from zerosum.games.compiled_chess_attacks import bishop_attacks, lowest, queen_attacks, rook_attacks

U = np.uint64
UNKNOWN = np.int16(32767)
INVALID = np.int16(-32768)
PAWN, KNIGHT_TYPE, BISHOP_TYPE, ROOK_TYPE, KING = 1, 2, 3, 4, 6
SPEC_SIGNATURE, SPEC_COUNT, SPEC_PAWNS, SPEC_OFFSET, SPEC_PIECES = 0, 1, 2, 3, 4
MOST = 5
SPEC_WIDTH = SPEC_PIECES + 2 * MOST
MOVES_MAX = 256

_REGIONS = np.full((2, 64), -1, np.int64)
_REGION_SIZE = np.array([10, 32], np.int64)
_SQUARES = np.zeros((2, 32), np.int64)
for _pawns in range(2):
    _count = 0
    for _square in range(64):
        _file, _rank = _square & 7, _square >> 3
        if (_file <= 3 and _rank <= _file) if _pawns == 0 else _file <= 3:
            _REGIONS[_pawns, _square] = _count
            _SQUARES[_pawns, _count] = _square
            _count += 1
_INTO_REGION = np.zeros((2, 64), np.int64)
"""A symmetry that brings each square into the region (with pawns, the files a to d)."""


@njit(cache=True)
def signature(types, sides, count, flip):
    """The material of the pieces as one integer: four bits for each (side, type) but the
    kings, counting them; with `flip`, the sides swapped."""
    found = np.int64(0)
    for i in range(count):
        if types[i] != KING:
            side = sides[i] ^ flip
            found += np.int64(1) << (4 * (side * 5 + types[i] - 1))
    return found


@njit(cache=True)
def transform(square, symmetry):
    """`zerosum.games.chess.endgame.transform`."""
    file, rank = square & 7, square >> 3
    if symmetry & 4:
        file, rank = rank, file
    if symmetry & 1:
        file = 7 - file
    if symmetry & 2:
        rank = 7 - rank
    return rank * 8 + file


for _pawns in range(2):
    for _square in range(64):
        for _symmetry in range(2 if _pawns else 8):
            if _REGIONS[_pawns, transform(_square, _symmetry)] >= 0:
                _INTO_REGION[_pawns, _square] = _symmetry
                break


@njit(cache=True)
def _numbered(spec, squares, turn, symmetry, transpose, moved):
    """The index of the squares under `symmetry` (then swapped across the a1-h8 diagonal
    when `transpose`), pieces alike in ascending order."""
    count, pawns = spec[SPEC_COUNT], spec[SPEC_PAWNS]
    for i in range(count):
        moved[i] = transform(squares[i], symmetry)
        if transpose:
            moved[i] = (moved[i] & 7) * 8 + (moved[i] >> 3)
    for i in range(2, count):  # pieces alike in ascending order
        for j in range(i + 1, count):
            alike = spec[SPEC_PIECES + 2 * i] == spec[SPEC_PIECES + 2 * j] and (
                spec[SPEC_PIECES + 2 * i + 1] == spec[SPEC_PIECES + 2 * j + 1]
            )
            if alike and moved[i] > moved[j]:
                moved[i], moved[j] = moved[j], moved[i]
    number = turn * _REGION_SIZE[pawns] + _REGIONS[pawns, moved[0]]
    for i in range(1, count):
        number = number * 64 + moved[i]
    return number


@njit(cache=True)
def index(spec, squares, turn, moved):
    """`Material.index`: the canonical index of the pieces on `squares` (in the table's order),
    `turn` to move; `moved` is room for the transformed squares. Of the symmetries, only those
    that bring the first king into the region can give it: one, or two when the king lands
    on the diagonal a1-d4 (the second swaps files and ranks after the first)."""
    pawns = spec[SPEC_PAWNS]
    symmetry = _INTO_REGION[pawns, squares[0]]
    number = _numbered(spec, squares, turn, symmetry, False, moved)
    king = transform(squares[0], symmetry)
    if not pawns and king & 7 == king >> 3:
        other = _numbered(spec, squares, turn, symmetry, True, moved)
        if other < number:
            number = other
    return number


@njit(cache=True)
def entries(spec):
    return 2 * _REGION_SIZE[spec[SPEC_PAWNS]] * 64 ** (spec[SPEC_COUNT] - 1)


@njit(cache=True)
def decode(spec, number, squares):
    """The squares of entry `number` into `squares`; the side to move."""
    count, pawns = spec[SPEC_COUNT], spec[SPEC_PAWNS]
    for i in range(count - 1, 0, -1):
        squares[i] = number % 64
        number //= 64
    size = _REGION_SIZE[pawns]
    squares[0] = _SQUARES[pawns, number % size]
    return number // size


@njit(cache=True)
def write_board(state, types, sides, squares, count, turn, ep):
    """The compiled rules' state of the pieces, `turn` to move, `ep` the en passant square
    (-1 none); no castling rights."""
    for word in range(9):
        state[word] = U(0)
    for i in range(count):
        bit = U(1) << U(squares[i])
        state[sides[i]] |= bit
        state[types[i] + 1] |= bit
    state[8] = U(turn) | U(ep + 1) << U(8)


@njit(cache=True)
def find_table(specs, wanted):
    for m in range(specs.shape[0]):
        if specs[m, SPEC_SIGNATURE] == wanted:
            return m
    return -1


@njit(cache=True)
def lookup(specs, codes, types, sides, squares, count, turn, work):
    """The code of the position (from its mover's view) in the table of its material; a draw
    for two kings alone. `work` is room for 3 x MOST squares. A material with no table among
    `specs` is an error: its INVALID, read as a code, would be a loss (a win for the parent,
    whose wake row would overflow)."""
    if count == 2:
        return np.int16(0)
    flip = 0
    m = find_table(specs, signature(types, sides, count, 0))
    if m < 0:
        flip = 1
        m = find_table(specs, signature(types, sides, count, 1))
        if m < 0:
            raise ValueError("a move reaches a material whose table is not among the smaller")
    spec = specs[m]
    ordered = work[:MOST]
    used = work[MOST : 2 * MOST]
    for i in range(count):
        used[i] = 0
    for slot in range(count):  # each slot of the table takes the first free piece alike
        for i in range(count):
            if (
                not used[i]
                and types[i] == spec[SPEC_PIECES + 2 * slot]
                and (sides[i] ^ flip) == spec[SPEC_PIECES + 2 * slot + 1]
            ):
                used[i] = 1
                ordered[slot] = squares[i] ^ 56 if flip else squares[i]
                break
    number = index(spec, ordered, turn ^ flip, work[2 * MOST :])
    return codes[spec[SPEC_OFFSET] + number]


@njit(cache=True)
def seen_by_parent(code):
    """A child's code as its parent sees it, one ply before."""
    if code == UNKNOWN or code == 0:
        return code
    if code > 0:
        return np.int16(-(code + 2))  # the child wins in d: the parent loses in d + 1
    return np.int16(-code)  # the child loses in d (code -(d + 1)): the parent wins in d + 1


@njit(cache=True)
def rank(code):
    """Larger for the outcome the side to move prefers (a known code)."""
    if code > 0:
        return 100000 - np.int64(code)
    if code < 0:
        return -100000 - np.int64(code)
    return 0


@njit(cache=True)
def child_code(specs, codes, types, sides, squares, count, turn, move, state, child, out, level):
    """The code of the position `move` leads to, from its mover's view (UNKNOWN when not yet
    settled). After a double step that an en passant capture can answer, the position holds
    that capture too: its best of the two, known once the better is."""
    origin, target, promotion = move & 63, (move >> 6) & 63, move >> 12
    c_types, c_sides, c_squares, work = child[0], child[1], child[2], child[3]
    mover = -1
    taken = -1
    for i in range(count):
        if squares[i] == origin:
            mover = i
        elif squares[i] == target:
            taken = i
    if taken < 0 and types[mover] == PAWN and (origin - target) % 8 != 0:
        passed = target - 8 if turn == 0 else target + 8  # en passant
        for i in range(count):
            if squares[i] == passed:
                taken = i
    n = 0
    for i in range(count):
        if i == taken:
            continue
        c_types[n], c_sides[n], c_squares[n] = types[i], sides[i], squares[i]
        if i == mover:
            c_squares[n] = target
            if promotion:
                c_types[n] = promotion
        n += 1
    code = lookup(specs, codes, c_types, c_sides, c_squares, n, 1 - turn, work)
    if types[mover] != PAWN or abs(target - origin) != 16:
        return code
    # a double step: can the other side take en passant?
    ep = (origin + target) // 2
    write_board(state, c_types, c_sides, c_squares, n, 1 - turn, ep)
    best = np.int16(UNKNOWN)
    found = moves(state, out)
    for k in range(found):
        reply = out[k]
        r_origin, r_target = reply & 63, (reply >> 6) & 63
        if r_target != ep or (r_origin - r_target) % 8 == 0:
            continue
        is_pawn = False
        for i in range(n):
            if c_squares[i] == r_origin and c_types[i] == PAWN:
                is_pawn = True
        if not is_pawn:
            continue
        g_types, g_sides, g_squares = child[4], child[5], child[6]
        g = 0
        for i in range(n):
            if c_squares[i] == target:  # the pawn taken
                continue
            g_types[g], g_sides[g], g_squares[g] = c_types[i], c_sides[i], c_squares[i]
            if c_squares[i] == r_origin:
                g_squares[g] = ep
            g += 1
        option = seen_by_parent(lookup(specs, codes, g_types, g_sides, g_squares, g, turn, work))
        if best == UNKNOWN or rank(option) > rank(best):
            best = option
    if best == UNKNOWN:
        return code
    if code == UNKNOWN:
        # the position unsettled at this level wins, if at all, in `level` plies or more
        return best if 0 < best < level else UNKNOWN
    return best if rank(best) > rank(code) else code


@njit(cache=True)
def _pieces_of(spec, types, sides):
    for i in range(spec[SPEC_COUNT]):
        types[i], sides[i] = spec[SPEC_PIECES + 2 * i], spec[SPEC_PIECES + 2 * i + 1]


@njit(cache=True)
def wake_predecessors(spec, codes, wake, settled, count_settled, level, won):
    """Go one quiet move back from each position `settled` at `level` - 1: a position before
    a loss is won at `level` (written, and listed in `won`; unless the move back is a double
    step beside an enemy pawn, which may answer en passant: that position is looked at every
    level), a position before a win may
    be lost at `level` (woken for it in `wake` row 0). A move back is a piece of the side that
    has just moved going back to an empty square it reaches (a pawn one step back, or two from
    its fourth rank); a capture or a promotion is not undone (it left another material).
    Returns how many were won."""
    count, offset = spec[SPEC_COUNT], spec[SPEC_OFFSET]
    types = np.zeros(MOST, np.int64)
    sides = np.zeros(MOST, np.int64)
    squares = np.zeros(MOST, np.int64)
    moved = np.zeros(MOST, np.int64)
    _pieces_of(spec, types, sides)
    found = 0
    for k in range(count_settled):
        lost = codes[offset + settled[k]] < 0
        turn = decode(spec, settled[k], squares)
        mover = 1 - turn
        occupied = U(0)
        for i in range(count):
            occupied |= U(1) << U(squares[i])
        for i in range(count):
            if sides[i] != mover:
                continue
            origin = squares[i]
            double = U(0)
            if types[i] == PAWN:
                back = -8 if mover == 0 else 8
                targets = U(0)
                one = origin + back
                if 8 <= one < 56 and not occupied & (U(1) << U(one)):
                    targets |= U(1) << U(one)
                    fourth = 3 if mover == 0 else 4
                    two = one + back
                    if origin >> 3 == fourth and not occupied & (U(1) << U(two)):
                        targets |= U(1) << U(two)
                        for j in range(count):  # an enemy pawn beside: en passant may answer
                            beside = (
                                abs(squares[j] - origin) == 1 and squares[j] >> 3 == origin >> 3
                            )
                            if types[j] == PAWN and sides[j] != mover and beside:
                                double = U(1) << U(two)
            elif types[i] == KING:
                targets = KING_STEPS[origin] & ~occupied
            elif types[i] == KNIGHT_TYPE:
                targets = KNIGHT_STEPS[origin] & ~occupied
            elif types[i] == BISHOP_TYPE:
                targets = bishop_attacks(origin, occupied) & ~occupied
            elif types[i] == ROOK_TYPE:
                targets = rook_attacks(origin, occupied) & ~occupied
            else:
                targets = queen_attacks(origin, occupied) & ~occupied
            while targets:
                square = lowest(targets)
                targets &= targets - U(1)
                squares[i] = square
                number = index(spec, squares, mover, moved)
                if codes[offset + number] == UNKNOWN:
                    if lost and not double & (U(1) << U(square)):
                        codes[offset + number] = level
                        won[found] = number
                        found += 1
                    else:
                        wake[0, number] = level
            squares[i] = origin
    return found


@njit(cache=True)
def settle_first(specs, codes, m, wake, settled, following):
    """Level 0: mark the entries of table m that hold no position, the checkmates and the
    stalemates; the rest are UNKNOWN. Each unsettled position notes in `wake` the levels its
    moves out of the material can settle it at (row 1: one past its quickest win that way,
    row 2: one past its slowest loss; row 3: 1 when a double step lets the other side take en
    passant, whose position is looked at every level). Returns the positions and the
    stalemates and how many positions are won at level 1 (before a checkmate: listed at the
    start of `settled`)."""
    spec = specs[m]
    count = spec[SPEC_COUNT]
    offset = spec[SPEC_OFFSET]
    types = np.zeros(MOST, np.int64)
    sides = np.zeros(MOST, np.int64)
    squares = np.zeros(MOST, np.int64)
    moved = np.zeros(MOST, np.int64)
    _pieces_of(spec, types, sides)
    child = np.zeros((7, 3 * MOST), np.int64)
    state = np.zeros(WORDS, np.uint64)
    out = np.zeros(MOVES_MAX, np.int64)
    replies = np.zeros(MOVES_MAX, np.int64)
    positions = stalemates = ended = 0
    size = entries(spec)
    for number in range(size):
        codes[offset + number] = INVALID
    for number in range(size):
        turn = decode(spec, number, squares)
        legal = True
        for i in range(count):
            if types[i] == PAWN and (squares[i] < 8 or squares[i] >= 56):
                legal = False
            for j in range(i):
                if squares[i] == squares[j]:
                    legal = False
        if not legal or index(spec, squares, turn, moved) != number:
            continue
        write_board(state, types, sides, squares, count, 1 - turn, -1)
        if _in_check(state):  # the side not to move is in check
            continue
        codes[offset + number] = UNKNOWN
    for number in range(size):
        if codes[offset + number] != UNKNOWN:
            continue
        turn = decode(spec, number, squares)
        positions += 1
        write_board(state, types, sides, squares, count, turn, -1)
        found = moves(state, out)
        if found == 0:
            mated = _in_check(state)
            codes[offset + number] = -1 if mated else 0
            stalemates += not mated
            if mated:
                settled[ended] = number
                ended += 1
            continue
        for k in range(found):
            move = out[k]
            origin, target = move & 63, (move >> 6) & 63
            quiet = move >> 12 == 0
            mover = 0
            for i in range(count):
                if squares[i] == target:
                    quiet = False
                if squares[i] == origin:
                    mover = i
            pawn = types[mover] == PAWN
            if pawn and (origin - target) % 8 != 0:
                quiet = False  # en passant too
            if pawn and abs(origin - target) == 16:
                for i in range(count):  # an enemy pawn beside it: en passant may answer
                    beside = abs(squares[i] - target) == 1 and squares[i] >> 3 == target >> 3
                    if types[i] == PAWN and sides[i] != turn and beside:
                        wake[3, number] = 1
            if quiet:
                continue
            code = child_code(
                specs, codes, types, sides, squares, count, turn, move, state, child,
                replies, 0,
            )  # fmt: skip
            if code < 0 and (wake[1, number] == 0 or -code + 1 < wake[1, number]):
                wake[1, number] = -code + 1  # lost in d = -code - 1: won here at d + 2
            elif code > 0 and code + 2 > wake[2, number]:
                wake[2, number] = code + 2  # won in d: lost here at d + 2
    won = wake_predecessors(spec, codes, wake, settled, ended, 1, following)
    settled[:won] = following[:won]
    return positions, stalemates, won


@njit(cache=True)
def settle_level(specs, codes, m, level, wake, settled, following, count_won):
    """Settle the entries of table m won or lost in `level` plies. The positions one move
    before a loss in `level` - 1 are already written, the first `count_won` of `settled`; so
    are the wins by a move out of the material (`wake` row 1). A loss has every child won, the
    slowest in `level` - 1: only the positions woken for it are looked at (a child won at the
    last level, or out of the material: row 2), and those that a double step leaves to an en
    passant capture (row 3), won or lost. Every position settled wakes its predecessors for
    the next level (`wake_predecessors`). Returns how many were settled and how many are won
    at the next level (listed at the start of `settled`)."""
    spec = specs[m]
    count = spec[SPEC_COUNT]
    offset = spec[SPEC_OFFSET]
    types = np.zeros(MOST, np.int64)
    sides = np.zeros(MOST, np.int64)
    squares = np.zeros(MOST, np.int64)
    _pieces_of(spec, types, sides)
    child = np.zeros((7, 3 * MOST), np.int64)
    state = np.zeros(WORDS, np.uint64)
    out = np.zeros(MOVES_MAX, np.int64)
    replies = np.zeros(MOVES_MAX, np.int64)
    ended = count_won
    for number in range(entries(spec)):
        if codes[offset + number] != UNKNOWN:
            continue
        if wake[1, number] == level + 1:  # won by a move out of the material
            codes[offset + number] = level
            settled[ended] = number
            ended += 1
            continue
        both = wake[3, number] != 0
        if not (both or wake[0, number] == level or wake[2, number] == level + 1):
            continue
        turn = decode(spec, number, squares)
        write_board(state, types, sides, squares, count, turn, -1)
        found = moves(state, out)
        known = True  # every child settled, each a win for its mover
        slowest = -1
        for k in range(found):
            code = child_code(
                specs, codes, types, sides, squares, count, turn, out[k], state, child,
                replies, level,
            )  # fmt: skip
            if code == -level and both:  # the child is lost in level - 1 plies
                codes[offset + number] = level
                settled[ended] = number
                ended += 1
                known = False
                break
            if code <= 0 or code == UNKNOWN:
                known = False
                if not both:
                    break
            elif code > slowest:
                slowest = code
        if known and slowest == level - 1:
            codes[offset + number] = -(level + 1)
            settled[ended] = number
            ended += 1
    won = wake_predecessors(spec, codes, wake, settled, ended, level + 1, following)
    settled[:won] = following[:won]
    return ended, won


@njit(cache=True)
def finish(codes, offset, size):
    """The entries never settled are draws."""
    for number in range(offset, offset + size):
        if codes[number] == UNKNOWN:
            codes[number] = 0
