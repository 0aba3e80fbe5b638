"""Chess's evaluation compiled: `zerosum.games.chess.evaluation.Evaluation.white_score` over the
compiled rules' bitboards (`zerosum.games.compiled_chess`), term for term, the same integers
(read the idea there; the tests hold the two equal on random games).

The tables are the default `Weights`' (`Evaluation(Weights())` laid out as arrays), compiled in.
"""

from __future__ import annotations

import chess
import numpy as np
from numba import njit

from zerosum.compiled.bits import popcount
from zerosum.games.chess import evaluation
from zerosum.games.chess.evaluation import (
    DANGER_MOST,
    FULL_PHASE,
    MINOR_PIECE,
    PHASE,
    SIMPLE_VALUES,
    Evaluation,
    Weights,
)
from zerosum.games.compiled_chess_attacks import (
    KNIGHT,
    bishop_attacks,
    highest,
    lowest,
    queen_attacks,
    rook_attacks,
)

U = np.uint64
ONE = U(1)
PAWNS, KINGS = chess.PAWN + 1, chess.KING + 1
"""The words of the pawns and the kings (piece type `t` is word `t + 1`)."""

_TABLES = Evaluation(Weights())
_W = _TABLES.weights
MIDDLE = np.array([[row if row else [0] * 64 for row in side] for side in _TABLES.middle])
END = np.array([[row if row else [0] * 64 for row in side] for side in _TABLES.end])
"""Material and square, by colour (0 White), piece type and square."""
MOBILITY_MIDDLE = np.array(_TABLES.mobility_middle)
MOBILITY_END = np.array(_TABLES.mobility_end)
DANGER = np.array(_TABLES.danger)
PASSED_MIDDLE = np.array(_TABLES.passed_middle)
PASSED_END = np.array(_TABLES.passed_end)
KING_ATTACK = np.array(_W.king_attack)
PHASES = np.array(PHASE)
VALUES = np.array(SIMPLE_VALUES)
FRONT_SPAN = np.array(evaluation.FRONT_SPAN, np.uint64)
AHEAD_ON_FILE = np.array(evaluation.AHEAD_ON_FILE, np.uint64)
SHIELD = np.array(evaluation.SHIELD, np.uint64)
KING_ZONE = np.array(evaluation.KING_ZONE, np.uint64)
FILES = np.array(chess.BB_FILES, np.uint64)
ADJACENT_FILES = np.array(
    [(chess.BB_FILES[f - 1] if f else 0) | (chess.BB_FILES[f + 1] if f < 7 else 0)
     for f in range(8)], np.uint64,
)  # fmt: skip
NOT_A_FILE, NOT_H_FILE = U(evaluation.NOT_A_FILE), U(evaluation.NOT_H_FILE)
(ISOLATED_MIDDLE, ISOLATED_END, DOUBLED_MIDDLE, DOUBLED_END, BISHOP_PAIR_MIDDLE, BISHOP_PAIR_END,
 ROOK_OPEN_MIDDLE, ROOK_OPEN_END, ROOK_HALF_OPEN_MIDDLE, ROOK_HALF_OPEN_END, KING_SHIELD) = (
    _W.isolated_middle, _W.isolated_end, _W.doubled_middle, _W.doubled_end,
    _W.bishop_pair_middle, _W.bishop_pair_end, _W.rook_open_middle, _W.rook_open_end,
    _W.rook_half_open_middle, _W.rook_half_open_end, _W.king_shield,
)  # fmt: skip


@njit(cache=True)
def pawn_attacks(pawns, colour):
    """`evaluation.pawn_attacks`: the squares the `pawns` of `colour` (0 White) attack."""
    if colour == 0:
        return (pawns << U(7)) & NOT_H_FILE | (pawns << U(9)) & NOT_A_FILE
    return (pawns >> U(9)) & NOT_H_FILE | (pawns >> U(7)) & NOT_A_FILE


@njit(cache=True)
def _piece_attacks(piece, square, occupied):
    if piece == chess.KNIGHT:
        return KNIGHT[square]
    if piece == chess.BISHOP:
        return bishop_attacks(square, occupied)
    if piece == chess.ROOK:
        return rook_attacks(square, occupied)
    return queen_attacks(square, occupied)


@njit(cache=True)
def pawn_terms(side, pawns, enemy, king):
    """`Evaluation._pawn_terms`: (middle game, endgame) of one side's pawns and king shield."""
    middle = 0
    end = 0
    remaining = pawns
    while remaining:
        square = lowest(remaining)
        remaining &= remaining - ONE
        if not pawns & ADJACENT_FILES[square & 7]:
            middle -= ISOLATED_MIDDLE
            end -= ISOLATED_END
        if pawns & AHEAD_ON_FILE[side, square]:
            middle -= DOUBLED_MIDDLE
            end -= DOUBLED_END
        elif not enemy & FRONT_SPAN[side, square]:
            middle += PASSED_MIDDLE[side, square]
            end += PASSED_END[side, square]
    if king >= 0:
        middle += KING_SHIELD * popcount(SHIELD[side, king] & pawns)
    return middle, end


@njit(cache=True)
def white_score(board):
    """`Evaluation.white_score`: the evaluation from White's point of view, in centipawns, of
    the pieces `board` (the compiled rules' words 0 to 7)."""
    occupied = board[0] | board[1]
    phase = 0
    middle = 0
    end = 0
    units = np.zeros(2, np.int64)
    attackers = np.zeros(2, np.int64)
    material = np.zeros(2, np.int64)
    guards = (pawn_attacks(board[PAWNS] & board[0], 0), pawn_attacks(board[PAWNS] & board[1], 1))
    kings = (
        highest(board[KINGS] & board[0]) if board[KINGS] & board[0] else -1,
        highest(board[KINGS] & board[1]) if board[KINGS] & board[1] else -1,
    )
    for side in range(2):
        sign = 1 - 2 * side
        own = board[side]
        area = ~own & ~guards[1 - side]
        enemy_king = kings[1 - side]
        zone = KING_ZONE[enemy_king] if enemy_king >= 0 else U(0)
        for piece in range(chess.PAWN, chess.KING + 1):
            pieces = board[piece + 1] & own
            while pieces:
                square = lowest(pieces)
                pieces &= pieces - ONE
                middle += sign * MIDDLE[side, piece, square]
                end += sign * END[side, piece, square]
                phase += PHASES[piece]
                material[side] += VALUES[piece]
                if piece == chess.PAWN or piece == chess.KING:
                    continue
                attacks = _piece_attacks(piece, square, occupied)
                reach = popcount(attacks & area)
                middle += sign * MOBILITY_MIDDLE[piece, reach]
                end += sign * MOBILITY_END[piece, reach]
                hits = popcount(attacks & zone)
                if hits:
                    units[side] += KING_ATTACK[piece] * hits
                    attackers[side] += 1
                if piece == chess.ROOK:
                    file = FILES[square & 7]
                    if not file & board[PAWNS] & own:
                        if file & board[PAWNS]:
                            middle += sign * ROOK_HALF_OPEN_MIDDLE
                            end += sign * ROOK_HALF_OPEN_END
                        else:
                            middle += sign * ROOK_OPEN_MIDDLE
                            end += sign * ROOK_OPEN_END
        if popcount(board[chess.BISHOP + 1] & own) >= 2:
            middle += sign * BISHOP_PAIR_MIDDLE
            end += sign * BISHOP_PAIR_END
        pawn_middle, pawn_end = pawn_terms(
            side, board[PAWNS] & own, board[PAWNS] & ~own, kings[side]
        )
        middle += sign * pawn_middle
        end += sign * pawn_end
    for side in range(2):
        if attackers[side] >= 2:
            middle += (1 - 2 * side) * DANGER[min(units[side], DANGER_MOST)]
    white_pawns = popcount(board[PAWNS] & board[0])
    black_pawns = popcount(board[PAWNS] & board[1])
    if end:  # `evaluation.drawish`, then `quartered`
        strong = 0 if end > 0 else 1
        pawns = white_pawns if strong == 0 else black_pawns
        weak_pawns = black_pawns if strong == 0 else white_pawns
        ahead = (material[strong] - 100 * pawns) - (material[1 - strong] - 100 * weak_pawns)
        if pawns == 0 and ahead <= MINOR_PIECE:
            end = end // 4 if end >= 0 else -(-end // 4)
    phase = min(FULL_PHASE, phase)
    return (middle * phase + end * (FULL_PHASE - phase)) // FULL_PHASE
