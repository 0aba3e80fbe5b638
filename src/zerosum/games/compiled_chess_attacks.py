"""The squares chess's pieces attack, as bitboards (square a1 = bit 0, python-chess's numbering),
for the compiled rules (`zerosum.games.compiled_chess`).

Knights, kings and pawns attack fixed sets: python-chess's own tables (`chess.BB_*_ATTACKS`), as
arrays. Bishops and rooks (and queens, both) use magic bitboards: the pieces on a slider's
lines that can block it (`chess.BB_DIAG_MASKS`, `BB_RANK_MASKS | BB_FILE_MASKS`: the edges left
out) are multiplied by the square's magic number, and the product's top bits index the
square's table of attack sets. A magic number is good when no two blocker sets that give
different attacks share an index: `find_magics` searches them, sparse random numbers tried in
turn from a fixed start (numbers of few bits multiply into well spread top bits); the numbers it
found are kept below (`BISHOP_MAGICS`, `ROOK_MAGICS`), so that a process only builds the tables
(a few milliseconds), and the build checks every entry. The tables hold one entry for each
blocker set (2**bits for a square whose mask has `bits` squares): 5,248 for bishops, 102,400 for
rooks, 840 KB in all.

`between` and `line` are python-chess's `between` and `ray`: the squares strictly between two
squares, and the whole line through both (0 when they share none).
"""

from __future__ import annotations

import chess
import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from zerosum.compiled.bits import popcount

U = np.uint64
ZERO, ONE = U(0), U(1)

KNIGHT = np.array(chess.BB_KNIGHT_ATTACKS, np.uint64)
KING = np.array(chess.BB_KING_ATTACKS, np.uint64)
PAWN = np.array([chess.BB_PAWN_ATTACKS[chess.WHITE], chess.BB_PAWN_ATTACKS[chess.BLACK]], np.uint64)
"""The squares a pawn attacks, by its colour (0 White, 1 Black) and square."""
BETWEEN = np.array([[chess.between(a, b) for b in chess.SQUARES] for a in chess.SQUARES], np.uint64)
LINE = np.array([[chess.ray(a, b) for b in chess.SQUARES] for a in chess.SQUARES], np.uint64)
BISHOP_RAYS = np.array([chess.BB_DIAG_ATTACKS[s][0] for s in chess.SQUARES], np.uint64)
ROOK_RAYS = np.array(
    [chess.BB_RANK_ATTACKS[s][0] | chess.BB_FILE_ATTACKS[s][0] for s in chess.SQUARES], np.uint64
)
"""The squares a bishop or a rook attacks from each square on an empty board."""

BISHOP_MASKS = np.array(chess.BB_DIAG_MASKS, np.uint64)
ROOK_MASKS = np.array(
    [chess.BB_RANK_MASKS[s] | chess.BB_FILE_MASKS[s] for s in chess.SQUARES], np.uint64
)
"""The squares whose pieces can block a bishop or a rook (its lines without their ends)."""
BISHOP_STEPS = np.array([(1, 1), (1, -1), (-1, 1), (-1, -1)], np.int64)
ROOK_STEPS = np.array([(1, 0), (-1, 0), (0, 1), (0, -1)], np.int64)
"""A slider's directions, as steps of (file, rank)."""


@njit(cache=True)
def lowest(bitboard):
    """The square of the lowest bit of a non-empty `bitboard` (python-chess's `lsb`)."""
    return np.int64(trailing_zeros(U(bitboard)))  # LLVM's cttz: one instruction


@njit(cache=True)
def highest(bitboard):
    """The square of the highest bit of a non-empty `bitboard` (python-chess's `msb`), the
    square python-chess's `scan_reversed` gives first."""
    return np.int64(63 - leading_zeros(U(bitboard)))


@njit(cache=True)
def sliding(square, occupied, steps):
    """The squares a slider on `square` attacks along `steps` over `occupied`, walked square by
    square (what the magic tables hold; python-chess's `_sliding_attacks`)."""
    attacks = ZERO
    for direction in range(steps.shape[0]):
        file, rank = square % 8 + steps[direction, 0], square // 8 + steps[direction, 1]
        while 0 <= file < 8 and 0 <= rank < 8:
            bit = ONE << U(8 * rank + file)
            attacks |= bit
            if occupied & bit:
                break
            file += steps[direction, 0]
            rank += steps[direction, 1]
    return attacks


@njit(cache=True)
def _blocker_sets(mask, blockers, attacks, steps, square):
    """Every subset of `mask` into `blockers` (the carry-rippler), each one's attacks from
    `square` into `attacks`; how many (2**popcount(mask))."""
    count = 0
    subset = ZERO
    while True:
        blockers[count] = subset
        attacks[count] = sliding(square, subset, steps)
        count += 1
        subset = (subset - mask) & mask
        if subset == ZERO:
            return count


@njit(cache=True)
def find_magics(masks, steps, start):
    """A magic number for each square's `masks` along `steps`: the first of the sparse random
    numbers (xorshift64* from `start`) that indexes the square's blocker sets, shifted right by
    64 - popcount(mask), without two different attack sets at one index."""
    magics = np.zeros(64, np.uint64)
    blockers = np.zeros(4096, np.uint64)
    attacks = np.zeros(4096, np.uint64)
    used = np.zeros(4096, np.uint64)
    tried = np.zeros(4096, np.int64)
    state = U(start)
    trial = 0
    for square in range(64):
        mask = masks[square]
        count = _blocker_sets(mask, blockers, attacks, steps, square)
        shift = U(64 - popcount(mask))
        while True:
            candidate = ~ZERO
            for _ in range(3):  # the AND of three random numbers: about 8 bits set
                state ^= state >> U(12)
                state ^= state << U(25)
                state ^= state >> U(27)
                candidate &= state * U(0x2545F4914F6CDD1D)
            if popcount((mask * candidate) >> U(56)) < 6:
                continue  # too few bits reach the top: it cannot spread the sets
            trial += 1
            good = True
            for index in range(count):
                slot = (blockers[index] * candidate) >> shift
                if tried[slot] != trial:
                    tried[slot] = trial
                    used[slot] = attacks[index]
                elif used[slot] != attacks[index]:
                    good = False
                    break
            if good:
                magics[square] = candidate
                break
    return magics


@njit(cache=True)
def _fill(masks, magics, shifts, offsets, steps, table):
    """Fill `table` with every square's attack sets at their magic indices; False when two
    blocker sets with different attacks meet at one index (a magic number that is not)."""
    blockers = np.zeros(4096, np.uint64)
    attacks = np.zeros(4096, np.uint64)
    for square in range(64):
        count = _blocker_sets(masks[square], blockers, attacks, steps, square)
        for index in range(count):
            slot = offsets[square] + ((blockers[index] * magics[square]) >> shifts[square])
            if table[slot] != ZERO and table[slot] != attacks[index]:
                return False
            table[slot] = attacks[index]  # never 0: a slider attacks a square at least
    return True


def _tables(masks: np.ndarray, magics: np.ndarray, steps: np.ndarray) -> tuple[np.ndarray, ...]:
    """(shifts, offsets, table) of one slider's magic bitboards."""
    bits = np.array([int(mask).bit_count() for mask in masks], np.int64)
    shifts = (64 - bits).astype(np.uint64)
    offsets = np.concatenate([[0], np.cumsum(1 << bits)[:-1]]).astype(np.uint64)
    table = np.zeros(int((1 << bits).sum()), np.uint64)
    if not _fill(masks, magics, shifts, offsets, steps, table):
        raise ValueError("a magic number of the chess attack tables does not index its square")
    return shifts, offsets, table


MAGIC_START = 0x9E37_79B9_7F4A_7C15
"""Where `find_magics` started its random numbers (2**64 over the golden ratio)."""

# The magic numbers `find_magics` found from `MAGIC_START`, one a square.
# fmt: off
BISHOP_MAGICS = np.array([
    0x10102002004A1420, 0x8020040400584008, 0x10510800811201C8, 0x5204042080000088,
    0x2204106880000002, 0x1401042004000000, 0x0400880410042004, 0x0028208200A02020,
    0x1500241990010E00, 0x8001200182020A40, 0x40004101030B0000, 0x8002041042000100,
    0x4010011041020038, 0x0000010421044000, 0x1500210808020A00, 0x8000088400880520,
    0x0405004010040100, 0x1005823210040108, 0x2708008102040011, 0x4048200404009100,
    0x0018104101400024, 0x0003000601190101, 0x8004803108491000, 0x8014241200820800,
    0x0006E080100C3040, 0x0501044A11041800, 0x9020300008004045, 0x0894080000220040,
    0x1001010083104000, 0x5004030040900080, 0x000400422C012400, 0x0002128698404812,
    0x1010108404900440, 0x0928021182084100, 0x2006080409020024, 0x1010202020180080,
    0xA010008200202200, 0x2098015100019004, 0x0002041440810811, 0x802A02020000B098,
    0x0009015090004060, 0x4000821082081001, 0x0100210040420800, 0x0800004010488A00,
    0x2000081104004040, 0x4C8E029015000082, 0x0420340322224842, 0x1298260043400210,
    0x0000822802400008, 0x00008A0101600000, 0x3040003412080021, 0x3040290220884800,
    0x4A1500401041004A, 0x8010200282020781, 0x0020203142209091, 0x0070300600902110,
    0x0040808800B62048, 0x0000810400C44420, 0x00080400440C0441, 0x8340080020840411,
    0x0000000104208200, 0x0000800810D00080, 0x0400530411080200, 0x4040702400932244,
], np.uint64)
ROOK_MAGICS = np.array([
    0x1080004008801020, 0x0840092002C03000, 0x1900200010400900, 0x0880100008000480,
    0x4200100420080200, 0x8100020100080400, 0x0200040110886200, 0x0200008040220411,
    0x0404800084400220, 0x0000401000402000, 0x0086001081220440, 0x0408800800100280,
    0x000A001201040820, 0x8848800200840080, 0x4001000100040200, 0x0442000102105084,
    0x9080010020804100, 0x0040404000201009, 0x0000808010002009, 0x2200090021D00100,
    0x0008008008040080, 0x0004004002010040, 0x0011040008015042, 0x00000A0001768104,
    0x0000800080204009, 0x2010004140002001, 0x9800200280100080, 0x1000100080080080,
    0x0442000A00049020, 0x2100040080020080, 0x0800120400900148, 0x0010040A00128541,
    0x2800804000800030, 0x1010002000400041, 0x4000200011004100, 0x0610008410800800,
    0x0400802402800800, 0xC100020080800400, 0x0002000802000401, 0x0182085882000401,
    0x0220204000808000, 0x2860100040024022, 0x0001002004110040, 0x99101042000A0020,
    0x0004080004008080, 0x0010040002008080, 0x2012004881020004, 0x8300842444820011,
    0x0088403882010200, 0x0820400080210100, 0x0110910040A00300, 0x0801100280080480,
    0x0242009008200600, 0x1002000489500200, 0x0040800200010080, 0x0091800041000080,
    0x0000209300488001, 0x04C1002414824001, 0x020020000B001041, 0x7000100004200901,
    0x8002002004100802, 0x30010002084C0007, 0x0888221800813004, 0x4000002840840112,
], np.uint64)
# fmt: on

BISHOP_SHIFTS, BISHOP_OFFSETS, BISHOP_TABLE = _tables(BISHOP_MASKS, BISHOP_MAGICS, BISHOP_STEPS)
ROOK_SHIFTS, ROOK_OFFSETS, ROOK_TABLE = _tables(ROOK_MASKS, ROOK_MAGICS, ROOK_STEPS)


@njit(cache=True)
def bishop_attacks(square, occupied):
    """The squares a bishop on `square` attacks over the pieces `occupied`."""
    index = ((occupied & BISHOP_MASKS[square]) * BISHOP_MAGICS[square]) >> BISHOP_SHIFTS[square]
    return BISHOP_TABLE[BISHOP_OFFSETS[square] + index]


@njit(cache=True)
def rook_attacks(square, occupied):
    """The squares a rook on `square` attacks over the pieces `occupied`."""
    index = ((occupied & ROOK_MASKS[square]) * ROOK_MAGICS[square]) >> ROOK_SHIFTS[square]
    return ROOK_TABLE[ROOK_OFFSETS[square] + index]


@njit(cache=True)
def queen_attacks(square, occupied):
    """The squares a queen on `square` attacks over the pieces `occupied`."""
    return bishop_attacks(square, occupied) | rook_attacks(square, occupied)
