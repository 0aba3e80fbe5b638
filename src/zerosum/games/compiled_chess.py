"""Chess's rules compiled (`zerosum.compiled.protocol`): the twin of `Chess`, python-chess's rules
move for move.

A state is `WORDS` unsigned 64-bit words:

- 0, 1: the White and the Black pieces; 2 to 7: the pawns, knights, bishops, rooks, queens and
  kings (python-chess's bitboards, square a1 = bit 0: piece type `t` is word `t + 1`);
- 8, the flags: bit 0 the side to move (0 White), bits 1-4 the castling rights (1 White's h1
  rook, 2 White's a1, 4 Black's h8, 8 Black's a8: python-chess's clean castling rights), bits
  8-14 the en passant square + 1 (0 for none; python-chess's `ep_square`, set after every
  double step), bits 16-23 the halfmove clock, bits 32-47 the fullmove number;
- 9, the Polyglot Zobrist key (`Position.key`, `chess.polyglot.zobrist_hash`), kept move by
  move as `Position.play` keeps it;
- 10, how many keys follow; 11 on, the keys of the earlier positions since the last capture or
  pawn move, oldest first (`Position.history`: at most 100, for at a halfmove clock of 100 the
  game is over). `play` copies only the words in use.

Moves are `from | to << 6 | promotion << 12`, promotion the python-chess piece type (0 none, 2
knight ... 5 queen), so below `6 << 12`; `move_number` and `numbered_move` map them to
python-chess's `Move` and back.

The functions are the Python game's and python-chess's, in their order: `moves` lists the legal
moves as `Board.generate_legal_moves` does (pieces from the highest square down, their targets
from the highest down, castling, pawn captures, pushes, double steps, en passant; in check the
king first, then the captures and blocks of a single checker), so that the compiled and the
Python engines search node for node alike; `noisy` is `Chess.noisy_moves` (its MVV-LVA sort is
stable, as Python's), `terminal` and `utility` are `Chess.is_terminal` and `utility`,
`evaluate` is `Chess.evaluate` term by term, in the same order of operations (the same float),
`exchange` is `Chess.exchange`. Sliding attacks are magic bitboards
(`zerosum.games.compiled_chess_attacks`).

`initial` writes the standard start position; a game made from another FEN gives its start to
the searches through the twin (`to_words(game.initial_state())`), as every other position.
"""

from __future__ import annotations

from typing import Any

import chess
import chess.polyglot
import numpy as np
from numba import njit

from zerosum.compiled.bits import popcount
from zerosum.compiled.protocol import CompiledGame, Twin
from zerosum.games.chess import rules
from zerosum.games.chess.rules import PIECE_VALUES, WIN, Chess, Position, Weights
from zerosum.games.compiled_chess_attacks import (
    BETWEEN,
    BISHOP_RAYS,
    KING,
    KNIGHT,
    LINE,
    PAWN,
    ROOK_RAYS,
    bishop_attacks,
    highest,
    lowest,
    queen_attacks,
    rook_attacks,
)
from zerosum.games.compiled_chess_evaluation import white_score

U = np.uint64
ZERO, ONE, ALL = U(0), U(1), ~U(0)

PAWNS, KNIGHTS, BISHOPS, ROOKS, QUEENS, KINGS = 2, 3, 4, 5, 6, 7
"""The word of each piece type (`chess.PAWN` + 1 ...)."""
FLAGS, KEY, COUNT, HISTORY = 8, 9, 10, 11
HISTORY_MAX = 100
"""The most keys the history holds: at a halfmove clock of 100 the game is over."""
WORDS = HISTORY + HISTORY_MAX

MOVE_SPACE = 6 << 12
MOVES_MAX = 15 * 27 + 8 + 2
"""More moves than any position python-chess accepts can have (at most 16 pieces a side: 15 of
them queens with 27 moves each, the king's 8 and 2 castlings; a pawn has at most 12). Positions
reached in games have at most 218."""
PLIES_MAX = 100 + (16 * 6 + 30) * 101
"""A bound on the moves of any game from any position: a game ends after 100 plies without a
capture or a pawn move, and there are at most 126 of those (16 pawns of 6 steps each, 30 pieces
to capture: a pawn's capture counted twice), each followed by at most 100 plies more: 12,826."""

_TURN_BIT = ONE
_SHIFT_RIGHTS, _SHIFT_EP, _SHIFT_CLOCK, _SHIFT_FULLMOVE = U(1), U(8), U(16), U(32)

_ZOBRIST = np.array(chess.polyglot.POLYGLOT_RANDOM_ARRAY, np.uint64)
PIECE_KEYS = np.zeros((2, 7, 64), np.uint64)
"""The Polyglot random number of a piece, by colour (0 White), type and square."""
for _colour in (0, 1):
    for _type in range(1, 7):
        for _square in range(64):
            PIECE_KEYS[_colour, _type, _square] = _ZOBRIST[
                64 * ((_type - 1) * 2 + (1 - _colour)) + _square
            ]
CASTLING_KEYS = np.array(
    [np.bitwise_xor.reduce([_ZOBRIST[768 + i] for i in range(4) if r >> i & 1] or [ZERO])
     for r in range(16)], np.uint64,
)  # fmt: skip
"""The castling part of the key, by the four bits of rights (each bit i is Polyglot's 768 + i)."""
EP_KEYS = _ZOBRIST[772:780].copy()
TURN_KEY = _ZOBRIST[780]

RIGHTS_LOST = np.zeros(64, np.uint64)
"""The castling rights a move from or to a square takes away: its rook's, or its king's two."""
for _square, _lost in ((7, 1), (0, 2), (63, 4), (56, 8), (4, 3), (60, 12)):
    RIGHTS_LOST[_square] = _lost
ROOK_SQUARES = (chess.H1, chess.A1, chess.H8, chess.A8)
"""The square of each castling right's rook, by its bit."""
ROOK_HOMES = np.array(ROOK_SQUARES, np.int64)

LAST_RANKS = np.array([chess.BB_RANK_8, chess.BB_RANK_1], np.uint64)
RANKS = np.array(chess.BB_RANKS, np.uint64)
DOUBLE_STEP = np.array([chess.BB_RANK_3 | chess.BB_RANK_4, chess.BB_RANK_6 | chess.BB_RANK_5],
                       np.uint64)  # fmt: skip
"""Where a pawn pushed once may stand for its double step to be generated (python-chess's)."""
EP_RANKS = np.array([chess.BB_RANK_5, chess.BB_RANK_4], np.uint64)
"""Where a pawn stands to capture en passant, by colour."""
DARK, LIGHT = U(chess.BB_DARK_SQUARES), U(chess.BB_LIGHT_SQUARES)

VALUES = np.array([0.0, *(PIECE_VALUES[t] for t in range(1, 7))], np.float64)
"""`PIECE_VALUES` by piece type, 0 for none."""
QUIET = float(-(1 << 40))
"""`zerosum.search.ordering.QUIET`, the rank of a move that captures nothing (games import no
algorithm: the tests hold the two equal)."""
PROMOTIONS = np.array([chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT], np.int64)
"""The promotions of one pawn move, in python-chess's order."""
GAINS_MAX = 34
"""Room for the swap list of an exchange: one capture a piece on the board, and one more."""


# -- reading a state ---------------------------------------------------------------------------


@njit(cache=True)
def _board(state):
    """The first nine words of `state` (the pieces and the flags) as a tuple: the helpers take
    it, a value, rather than the array, which numba would count references to at every call."""
    return (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7],
            state[8])  # fmt: skip


@njit(cache=True)
def _turn(board):
    return np.int64(board[FLAGS] & _TURN_BIT)


@njit(cache=True)
def _rights(board):
    return (board[FLAGS] >> _SHIFT_RIGHTS) & U(15)


@njit(cache=True)
def _ep_square(board):
    """The en passant square, -1 for none."""
    return np.int64((board[FLAGS] >> _SHIFT_EP) & U(127)) - 1


@njit(cache=True)
def _clock(board):
    return np.int64((board[FLAGS] >> _SHIFT_CLOCK) & U(255))


@njit(cache=True)
def _bit(square):
    return ONE << U(square)


@njit(cache=True)
def _type_at(board, square):
    """The type of the piece on `square` (1 pawn ... 6 king), 0 when it is empty."""
    bit = _bit(square)
    for piece in range(1, 7):
        if board[piece + 1] & bit:
            return piece
    return 0


@njit(cache=True)
def _attacks(board, square, occupied):
    """The squares the knight, bishop, rook, queen or king on `square` attacks (python-chess's
    `attacks_mask` for a piece that is not a pawn)."""
    bit = _bit(square)
    if board[KNIGHTS] & bit:
        return KNIGHT[square]
    if board[KINGS] & bit:
        return KING[square]
    if board[BISHOPS] & bit:
        return bishop_attacks(square, occupied)
    if board[ROOKS] & bit:
        return rook_attacks(square, occupied)
    return queen_attacks(square, occupied)


@njit(cache=True)
def _attackers(board, colour, square, occupied):
    """The pieces of `colour` (0 White) that attack `square` over `occupied` (python-chess's
    `attackers_mask`)."""
    queens = board[QUEENS]
    attackers = (
        KING[square] & board[KINGS]
        | KNIGHT[square] & board[KNIGHTS]
        | rook_attacks(square, occupied) & (board[ROOKS] | queens)
        | bishop_attacks(square, occupied) & (board[BISHOPS] | queens)
        | PAWN[1 - colour, square] & board[PAWNS]
    )
    return attackers & board[colour]


@njit(cache=True)
def _checkers(board):
    turn = _turn(board)
    king = highest(board[KINGS] & board[turn])
    return _attackers(board, 1 - turn, king, board[0] | board[1])


@njit(cache=True)
def _pinned(board, king, us, them, occupied):
    """The pieces of `us` alone between their king and a slider of `them` on its line
    (python-chess's `_slider_blockers`)."""
    queens = board[QUEENS]
    snipers = ROOK_RAYS[king] & (board[ROOKS] | queens) | BISHOP_RAYS[king] & (
        board[BISHOPS] | queens
    )
    snipers &= them
    pinned = ZERO
    while snipers:
        sniper = lowest(snipers)
        snipers &= snipers - ONE
        between = BETWEEN[king, sniper] & occupied
        if between and not between & (between - ONE):
            pinned |= between
    return pinned & us


# -- the legal moves ---------------------------------------------------------------------------


@njit(cache=True)
def _put(out, count, origin, targets):
    """Write the moves from `origin` to each of `targets`, the highest first; the new count."""
    while targets:
        target = highest(targets)
        targets ^= _bit(target)
        out[count] = origin | target << 6
        count += 1
    return count


@njit(cache=True)
def _put_pawn(out, count, origin, target):
    """Write a pawn's move, as its four promotions (queen first) on the last rank."""
    if target < 8 or target >= 56:
        for promotion in PROMOTIONS:
            out[count] = origin | target << 6 | promotion << 12
            count += 1
        return count
    out[count] = origin | target << 6
    return count + 1


@njit(cache=True)
def _king_targets(board, turn, king, targets):
    """The squares of `targets` the king of `turn` can step to, not attacked once it has left
    its square (python-chess's evasions and `_is_safe` for the king, at once)."""
    us = board[turn]
    without = (board[0] | board[1]) ^ _bit(king)
    squares = KING[king] & ~us & targets
    safe = ZERO
    while squares:
        square = highest(squares)
        squares ^= _bit(square)
        if not _attackers(board, 1 - turn, square, without):
            safe |= _bit(square)
    return safe


@njit(cache=True)
def _castling(board, out, count, turn, king, targets):
    """The castling moves, the king's side first (python-chess's `generate_castling_moves`);
    with `out` None, 1 for the first one."""
    occupied = board[0] | board[1]
    king_bit = _bit(king)
    rights = _rights(board)
    for right in range(2 * turn, 2 * turn + 2):  # h-file rook first: the higher square
        rook = ROOK_HOMES[right]
        if not (rights >> U(right)) & ONE or not _bit(rook) & targets:
            continue
        rook_bit = _bit(rook)
        king_to, rook_to = (king + 2, king + 1) if rook > king else (king - 2, king - 1)
        king_path = BETWEEN[king, king_to]
        rook_path = BETWEEN[rook, rook_to]
        path = king_path | rook_path | _bit(king_to) | _bit(rook_to)
        if (occupied ^ king_bit ^ rook_bit) & path:
            continue
        crossed = king_path | king_bit
        attacked = False
        while crossed:
            square = lowest(crossed)
            crossed &= crossed - ONE
            if _attackers(board, 1 - turn, square, occupied ^ king_bit):
                attacked = True
        after = occupied ^ king_bit ^ rook_bit ^ _bit(rook_to)
        if attacked or _attackers(board, 1 - turn, king_to, after):
            continue
        if out is None:
            return 1
        out[count] = king | king_to << 6
        count += 1
    return count


@njit(cache=True)
def _en_passant_safe(board, turn, king, origin, ep, pinned):
    """Whether the capture en passant from `origin` leaves the king safe: a pinned capturer
    stays on its line, and no rook or queen on the rank, nor bishop or queen on a diagonal, sees
    the king once both pawns have left (python-chess's `_is_safe` and `_ep_skewered`)."""
    if pinned & _bit(origin) and not LINE[king, origin] & _bit(ep):
        return False
    passed = ep - 8 if turn == 0 else ep + 8
    occupied = (board[0] | board[1]) & ~_bit(passed) & ~_bit(origin) | _bit(ep)
    them = board[1 - turn]
    queens = board[QUEENS]
    rank = rook_attacks(king, occupied) & RANKS[king // 8]
    if rank & them & (board[ROOKS] | queens):
        return False
    return not bishop_attacks(king, occupied) & them & (board[BISHOPS] | queens)


@njit(cache=True)
def _en_passant(board, out, count, turn, king, pinned, targets):
    """The captures en passant onto `targets` (python-chess's `generate_pseudo_legal_ep`, kept
    when safe); with `out` None, 1 for the first one."""
    ep = _ep_square(board)
    if ep < 0 or not _bit(ep) & targets or _bit(ep) & (board[0] | board[1]):
        return count
    capturers = board[PAWNS] & board[turn] & PAWN[1 - turn, ep] & EP_RANKS[turn]
    while capturers:
        origin = highest(capturers)
        capturers ^= _bit(origin)
        if _en_passant_safe(board, turn, king, origin, ep, pinned):
            if out is None:
                return 1
            out[count] = origin | ep << 6
            count += 1
    return count


@njit(cache=True)
def _pawn_moves(board, out, count, turn, king, pinned, mask):
    """The pawns' captures, pushes and double steps onto `mask`, in python-chess's order; with
    `out` None, 1 for the first one."""
    us, them = board[turn], board[1 - turn]
    occupied = us | them
    pawns = board[PAWNS] & us
    capturers = pawns
    while capturers:
        origin = highest(capturers)
        capturers ^= _bit(origin)
        targets = PAWN[turn, origin] & them & mask
        if pinned & _bit(origin):
            targets &= LINE[king, origin]
        while targets:
            if out is None:
                return 1
            target = highest(targets)
            targets ^= _bit(target)
            count = _put_pawn(out, count, origin, target)
    if turn == 0:
        single = pawns << U(8) & ~occupied
        double = single << U(8) & ~occupied & DOUBLE_STEP[0]
        step = -8
    else:
        single = pawns >> U(8) & ~occupied
        double = single >> U(8) & ~occupied & DOUBLE_STEP[1]
        step = 8
    single &= mask
    double &= mask
    while single:
        target = highest(single)
        single ^= _bit(target)
        origin = target + step
        if not pinned & _bit(origin) or LINE[origin, target] & _bit(king):
            if out is None:
                return 1
            count = _put_pawn(out, count, origin, target)
    while double:
        target = highest(double)
        double ^= _bit(target)
        origin = target + 2 * step
        if not pinned & _bit(origin) or LINE[origin, target] & _bit(king):
            if out is None:
                return 1
            out[count] = origin | target << 6
            count += 1
    return count


@njit(cache=True)
def _legal(board, out, targets):
    """Writes the legal moves onto `targets` into `out`, in python-chess's order
    (`Board.generate_legal_moves(to_mask=targets)`), and returns how many; with `out` None,
    writes nothing and returns 1 at the first legal move, 0 when there is none."""
    turn = _turn(board)
    us, them = board[turn], board[1 - turn]
    occupied = us | them
    king = highest(board[KINGS] & us)
    checkers = _attackers(board, 1 - turn, king, occupied)
    pinned = _pinned(board, king, us, them, occupied)
    count = 0
    evasion = ALL  # in check by one piece: the squares that take or block it
    pieces = us & ~board[PAWNS]
    if checkers:
        steps = _king_targets(board, turn, king, targets)
        if steps:
            if out is None:
                return 1
            count = _put(out, count, king, steps)
        if checkers & (checkers - ONE):
            return count  # double check: the king moves
        evasion = BETWEEN[king, lowest(checkers)] | checkers
        pieces ^= _bit(king)
    mask = targets & evasion
    while pieces:
        origin = highest(pieces)
        pieces ^= _bit(origin)
        if origin == king:
            moves_ = _king_targets(board, turn, king, targets)
        else:
            moves_ = _attacks(board, origin, occupied) & ~us & mask
            if pinned & _bit(origin):
                moves_ &= LINE[king, origin]
        if moves_:
            if out is None:
                return 1
            count = _put(out, count, origin, moves_)
    if not checkers:
        count = _castling(board, out, count, turn, king, targets)
        if out is None and count:
            return 1
    count = _pawn_moves(board, out, count, turn, king, pinned, mask)
    if out is None and count:
        return 1
    count = _en_passant(board, out, count, turn, king, pinned, mask)
    if checkers:  # the checking pawn taken en passant, when its square is not a block
        ep = _ep_square(board)
        if ep >= 0 and not _bit(ep) & evasion:
            passed = ep - 8 if turn == 0 else ep + 8
            if _bit(passed) == checkers:
                count = _en_passant(board, out, count, turn, king, pinned, targets)
    return count


# -- the protocol ------------------------------------------------------------------------------


@njit(cache=True)
def initial(state):
    for index in range(HISTORY):
        state[index] = START[index]


@njit(cache=True)
def to_move(state):
    return _turn(state)


@njit(cache=True)
def moves(state, out):
    return _legal(_board(state), out, ALL)


@njit(cache=True)
def in_check(state):
    return _checkers(_board(state)) != ZERO


@njit(cache=True)
def _repetitions(state):
    """How many times the position occurred before (`Position.repetitions`)."""
    key = state[KEY]
    count = 0
    for index in range(HISTORY, HISTORY + np.int64(state[COUNT])):
        if state[index] == key:
            count += 1
    return count


@njit(cache=True)
def _insufficient_side(board, colour):
    """python-chess's `has_insufficient_material(colour)`, on a board without pawns, rooks or
    queens."""
    own = board[colour]
    if own & board[KNIGHTS]:
        return popcount(own) <= 2 and not board[1 - colour] & ~board[KINGS] & ~board[QUEENS]
    if own & board[BISHOPS]:
        bishops = board[BISHOPS]
        same_colour = not bishops & DARK or not bishops & LIGHT
        return same_colour and not board[PAWNS] and not board[KNIGHTS]
    return True


@njit(cache=True)
def _insufficient(board):
    """`Chess.is_terminal`'s insufficient material."""
    if board[PAWNS] | board[ROOKS] | board[QUEENS]:
        return False
    return _insufficient_side(board, 0) and _insufficient_side(board, 1)


@njit(cache=True)
def terminal(state):
    board = _board(state)
    return (
        _clock(board) >= 100
        or _insufficient(board)
        or _repetitions(state) >= 2
        or _legal(board, None, ALL) == 0
    )


@njit(cache=True)
def utility(state, player):
    board = _board(state)
    if _legal(board, None, ALL) or not _checkers(board):
        return 0
    return -WIN if _turn(board) == player else WIN


@njit(cache=True)
def key(state):
    return state[KEY]


PATH_MULTIPLIER = U(0x9E3779B97F4A7C15)
"""An odd multiplier (2**64 over the golden ratio) that spreads each key over the path's hash."""


@njit(cache=True)
def path_key(state):
    """A hash of what the way to `state` decides of its future (`Chess.path_key`): the keys
    since the last capture or pawn move, in order, and the halfmove clock."""
    hashed = U(_clock(_board(state)))
    for index in range(HISTORY, HISTORY + np.int64(state[COUNT])):
        hashed = (hashed ^ state[index]) * PATH_MULTIPLIER
        hashed ^= hashed >> U(29)
    return hashed


@njit(cache=True)
def _ep_key(board, turn, ep):
    """The en passant part of the key: the file's number when a pawn of `turn` stands beside
    the pawn that passed `ep` (python-chess's `hash_ep_square`)."""
    if ep >= 0 and PAWN[1 - turn, ep] & board[PAWNS] & board[turn]:
        return EP_KEYS[ep % 8]
    return ZERO


@njit(cache=True)
def _state_keys(board):
    """The castling and en passant part of the key (`rules._state_keys`)."""
    return CASTLING_KEYS[_rights(board)] ^ _ep_key(board, _turn(board), _ep_square(board))


@njit(cache=True)
def _flags(turn, rights, ep, clock, fullmove):
    return (
        U(turn)
        | rights << _SHIFT_RIGHTS
        | U(ep + 1) << _SHIFT_EP
        | U(clock) << _SHIFT_CLOCK
        | U(fullmove) << _SHIFT_FULLMOVE
    )


@njit(cache=True)
def play(state, move, child):
    board = _board(state)
    turn = _turn(board)
    origin, target, promotion = move & 63, (move >> 6) & 63, move >> 12
    start, end = _bit(origin), _bit(target)
    piece = _type_at(board, origin)
    irreversible = piece == chess.PAWN or end & board[1 - turn] != ZERO
    count = np.int64(0)
    if not irreversible:  # the keys since the last capture or pawn move, this one's last
        count = np.int64(state[COUNT])
        for index in range(HISTORY, HISTORY + count):
            child[index] = state[index]
        if count < HISTORY_MAX:  # else the game was over (past the fifty-move rule)
            child[HISTORY + count] = state[KEY]
            count += 1
    child[COUNT] = count
    for index in range(FLAGS):
        child[index] = board[index]
    change = TURN_KEY ^ _state_keys(board)  # of the key, made along
    if piece == chess.KING and abs(target - origin) == 2:  # castling: the rook moves too
        rook, rook_to = (origin + 3, origin + 1) if target > origin else (origin - 4, origin - 1)
        rooks = _bit(rook) | _bit(rook_to)
        child[turn] ^= start | end | rooks
        child[KINGS] ^= start | end
        child[ROOKS] ^= rooks
        change ^= PIECE_KEYS[turn, chess.KING, origin] ^ PIECE_KEYS[turn, chess.KING, target]
        change ^= PIECE_KEYS[turn, chess.ROOK, rook] ^ PIECE_KEYS[turn, chess.ROOK, rook_to]
    else:
        if piece == chess.PAWN and _is_en_passant(board, origin, target):
            taken = target - 8 if turn == 0 else target + 8
            child[1 - turn] ^= _bit(taken)
            child[PAWNS] ^= _bit(taken)
            change ^= PIECE_KEYS[1 - turn, chess.PAWN, taken]
        elif end & board[1 - turn]:
            victim = _type_at(board, target)
            child[1 - turn] ^= end
            child[victim + 1] ^= end
            change ^= PIECE_KEYS[1 - turn, victim, target]
        placed = promotion if promotion else piece
        child[turn] ^= start | end
        child[piece + 1] ^= start
        child[placed + 1] ^= end
        change ^= PIECE_KEYS[turn, piece, origin] ^ PIECE_KEYS[turn, placed, target]
    rights = _rights(board) & ~(RIGHTS_LOST[origin] | RIGHTS_LOST[target])
    ep = (origin + target) // 2 if piece == chess.PAWN and abs(target - origin) == 16 else -1
    clock = 0 if irreversible else _clock(board) + 1
    fullmove = np.int64(board[FLAGS] >> _SHIFT_FULLMOVE) + turn
    child[FLAGS] = _flags(1 - turn, rights, ep, clock, fullmove)
    if ep >= 0 and PAWN[turn, ep] & child[PAWNS] & child[1 - turn]:  # the child's `_ep_key`
        change ^= EP_KEYS[ep % 8]
    child[KEY] = state[KEY] ^ change ^ CASTLING_KEYS[rights]


@njit(cache=True)
def pass_move(state, child):
    board = _board(state)
    turn = _turn(board)
    if _checkers(board) or not board[turn] & ~(board[PAWNS] | board[KINGS]):
        return False
    for index in range(FLAGS):
        child[index] = board[index]
    fullmove = np.int64(board[FLAGS] >> _SHIFT_FULLMOVE) + turn
    child[FLAGS] = _flags(1 - turn, _rights(board), -1, _clock(board) + 1, fullmove)
    child[KEY] = state[KEY] ^ TURN_KEY ^ _ep_key(board, turn, _ep_square(board))
    child[COUNT] = 0  # no repetition across a pass
    return True


@njit(cache=True)
def _is_en_passant(board, origin, target):
    """python-chess's `is_en_passant` of the move `origin` to `target`."""
    step = abs(target - origin)
    return (
        target == _ep_square(board)
        and board[PAWNS] & _bit(origin) != ZERO
        and (step == 7 or step == 9)
        and not (board[0] | board[1]) & _bit(target)
    )


@njit(cache=True)
def capture(state, move):
    board = _board(state)
    origin, target = move & 63, (move >> 6) & 63
    if board[1 - _turn(board)] & _bit(target):
        victim = _type_at(board, target)
    elif _is_en_passant(board, origin, target):
        victim = chess.PAWN
    else:
        return QUIET
    return VALUES[victim] * 1024.0 - VALUES[_type_at(board, origin)]


@njit(cache=True)
def _mvv_lva(board, move):
    """`Chess._mvv_lva`: the rank of a noisy move, the highest searched first."""
    origin, target, promotion = move & 63, (move >> 6) & 63, move >> 12
    victim = _type_at(board, target)
    if victim == 0 and _is_en_passant(board, origin, target):
        victim = chess.PAWN
    gain = VALUES[victim] + VALUES[promotion]
    return gain * 16 - VALUES[_type_at(board, origin)]


@njit(cache=True)
def noisy(state, out):
    board = _board(state)
    if _checkers(board):
        return _legal(board, out, ALL)
    turn = _turn(board)
    targets = board[1 - turn] | LAST_RANKS[turn]
    ep = _ep_square(board)
    if ep >= 0:
        targets |= _bit(ep)
    count = _legal(board, out, targets)
    kept = 0
    for index in range(count):  # captures and promotions, not quiet moves to the last rank
        move = out[index]
        origin, target = move & 63, (move >> 6) & 63
        if move >> 12 or board[1 - turn] & _bit(target) or _is_en_passant(board, origin, target):
            out[kept] = move
            kept += 1
    for index in range(1, kept):  # by MVV-LVA, the highest first, ties in their order
        move = out[index]
        rank = _mvv_lva(board, move)
        place = index
        while place > 0 and _mvv_lva(board, out[place - 1]) < rank:
            out[place] = out[place - 1]
            place -= 1
        out[place] = move
    return kept


@njit(cache=True)
def _least_valuable(board, attackers):
    """The square of the least valuable of `attackers` (the lowest square of the lowest type:
    pawn, knight, bishop, rook, queen, king), -1 for none."""
    for piece in range(PAWNS, KINGS + 1):
        found = attackers & board[piece]
        if found:
            return lowest(found)
    return -1


@njit(cache=True)
def exchange(state, move):
    board = _board(state)
    origin, target, promotion = move & 63, (move >> 6) & 63, move >> 12
    turn = _turn(board)
    occupied = (board[0] | board[1]) ^ _bit(origin)
    if _is_en_passant(board, origin, target):
        victim = chess.PAWN
        occupied ^= _bit(target - 8 if turn == 0 else target + 8)
    elif board[1 - turn] & _bit(target):
        victim = _type_at(board, target)
    elif promotion:
        victim = 0
    else:
        return 0.0
    gains = np.empty(GAINS_MAX)
    gains[0] = VALUES[victim]
    if promotion:
        gains[0] += VALUES[promotion] - VALUES[chess.PAWN]
    standing = promotion if promotion else _type_at(board, origin)
    side = 1 - turn
    depth = 0
    last_rank = target < 8 or target >= 56
    while True:
        square = _least_valuable(board, _attackers(board, side, target, occupied) & occupied)
        if square < 0:
            break
        piece = _type_at(board, square)
        left = occupied ^ _bit(square)
        if piece == chess.KING and _attackers(board, 1 - side, target, left) & left:
            break  # the king may not take into check
        value = VALUES[standing]
        standing = piece
        if piece == chess.PAWN and last_rank:
            value += VALUES[chess.QUEEN] - VALUES[chess.PAWN]
            standing = chess.QUEEN
        depth += 1
        gains[depth] = value - gains[depth - 1]
        occupied = left
        side = 1 - side
    while depth > 0:
        other = -gains[depth - 1]
        gains[depth - 1] = -(gains[depth] if gains[depth] > other else other)
        depth -= 1
    return gains[0]


@njit(cache=True)
def evaluate(state, player):
    """`Chess.evaluate`: the value of `state` for `player`, in pawns."""
    if terminal(state):
        return float(utility(state, player))
    white = white_score(_board(state)) / 100
    return white if player == 0 else -white


# -- the twin ----------------------------------------------------------------------------------


def to_words(state: Position) -> np.ndarray:
    """The words of a `Position`; ValueError for a board python-chess finds invalid, or whose
    counters do not fit their bits (`Chess.parse_state` refuses those first)."""
    board = state.board
    status = board.status()
    if status != chess.STATUS_VALID:
        raise ValueError(
            f"not a valid position for the compiled rules: {rules.status_text(status)}"
        )
    if not 0 <= board.halfmove_clock <= 255 or not 0 < board.fullmove_number < 1 << 16:
        raise ValueError("the move counters do not fit the compiled rules' words")
    if len(state.history) > HISTORY_MAX:
        raise ValueError(f"more than {HISTORY_MAX} earlier positions in the history")
    words = np.zeros(WORDS, np.uint64)
    words[0], words[1] = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
    for piece, name in enumerate(rules._BITBOARDS[1:], start=1):
        words[piece + 1] = getattr(board, name)
    rights = sum(1 << i for i, rook in enumerate(ROOK_SQUARES) if board.castling_rights >> rook & 1)
    ep = -1 if board.ep_square is None else board.ep_square
    words[FLAGS] = (
        (board.turn == chess.BLACK)
        | rights << 1
        | (ep + 1) << 8
        | board.halfmove_clock << 16
        | board.fullmove_number << 32
    )
    words[KEY] = state.key
    words[COUNT] = len(state.history)
    words[HISTORY : HISTORY + len(state.history)] = state.history
    return words


def from_words(words: np.ndarray) -> Position:
    """The `Position` of `words`."""
    board = chess.Board(None)
    flags = int(words[FLAGS])
    board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK] = int(words[0]), int(words[1])
    for piece, name in enumerate(rules._BITBOARDS[1:], start=1):
        setattr(board, name, int(words[piece + 1]))
    board.occupied = int(words[0]) | int(words[1])
    board.turn = chess.WHITE if flags & 1 == 0 else chess.BLACK
    board.castling_rights = sum(1 << r for i, r in enumerate(ROOK_SQUARES) if flags >> i + 1 & 1)
    ep = (flags >> 8 & 127) - 1
    board.ep_square = None if ep < 0 else ep
    board.halfmove_clock = flags >> 16 & 255
    board.fullmove_number = flags >> 32 & 0xFFFF
    count = int(words[COUNT])
    history = tuple(int(k) for k in words[HISTORY : HISTORY + count])
    return Position(board, int(words[KEY]), history)


def move_number(move: chess.Move) -> int:
    """The compiled rules' number of a python-chess `Move`."""
    return move.from_square | move.to_square << 6 | (move.promotion or 0) << 12


def numbered_move(number: int) -> chess.Move:
    """The python-chess `Move` of a compiled move's number."""
    return chess.Move(number & 63, number >> 6 & 63, number >> 12 or None)


def move_text(number: int) -> str:
    """A compiled move in UCI notation (`e2e4`, `e7e8q`)."""
    return numbered_move(number).uci()


def position_words(text: str) -> np.ndarray:
    """The words of a FEN (or `startpos`), read by `Chess.parse_state`."""
    return to_words(Chess().parse_state(text))


START = to_words(Position.from_board(chess.Board()))


def chess_rules(game: Chess | None = None) -> CompiledGame:
    """Chess's `CompiledGame`, twinned with the Python game `game` (a new one if None). Its
    evaluation is the default `Weights`' (the tables are compiled in): for a game with other
    weights the compiled rules give none, and the searches use the Python game."""
    game = game if game is not None else Chess()
    evaluated: Any = evaluate if game.weights == Weights() else None
    return CompiledGame(
        "chess", words=WORDS, max_moves=MOVES_MAX, move_space=MOVE_SPACE, max_plies=PLIES_MAX,
        initial=initial, to_move=to_move, moves=moves, play=play, terminal=terminal,
        utility=utility, key=key, evaluate=evaluated, noisy=noisy, in_check=in_check,
        capture=capture, pass_move=pass_move, exchange=exchange, path_key=path_key,
        format_move=move_text,
        parse_state=position_words,
        twin=Twin(game, to_words, from_words, move_number, numbered_move),
    )  # fmt: skip
